//! The address-space lattice: which space each pointer of a function is
//! known to point into, solved to a fixpoint over casts, GEPs, selects and
//! block arguments. `memory-space-opt` rewrites with it; `ptxcc-verify`
//! finds local pointers handed to a launch with it.

use crate::ir::LlvmOp;
use crate::ir::{BlockExt, HashMap, HashSet, OperationExt};

use melior::ir::{block::BlockLike, operation::OperationLike, BlockRef, OperationRef, RegionLike, Value, ValueLike};
use ptxcc_dialect::{address_space, names, types::pointer_address_space};

use crate::options::LlvmOptAfter;
use crate::{
    abi::{AbiType, DataLayout},
    ir::{first_result, op_name, successor_argument},
    kernel::{is_kernel, parameter_count, parameter_has},
    slots,
};

/// What the analysis may assume, from the options of the pass that runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpaceRules {
    /// `lower-struct-args` ran with `opt-byval`: its param-space pointers
    /// are param space.
    pub opt_byval: bool,
    /// Kernel pointer parameters (and pointers read from kernel `byval`
    /// parameters) point to global memory.
    pub kernel_params_global: bool,
    /// Whether LLVM's optimizer runs before `llc`: then stack slots are not
    /// yet local memory.
    pub llvm_opt_after: LlvmOptAfter,
}

/// One point of the address-space lattice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// Nothing known yet (top).
    Unknown,
    /// Always this specific address space.
    Specific(u32),
    /// Any space (bottom).
    Generic,
}

impl Space {
    /// The lattice join: unknown is the identity, two different spaces give
    /// generic.
    pub fn join(self, other: Space) -> Space {
        match (self, other) {
            (Space::Unknown, x) | (x, Space::Unknown) => x,
            (Space::Specific(a), Space::Specific(b)) if a == b => Space::Specific(a),
            _ => Space::Generic,
        }
    }
}

/// The inferred space of every generic pointer value of a function.
pub struct SpaceAnalysis {
    spaces: HashMap<usize, Space>,
}

/// A key for a value in maps.
pub(crate) fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// Whether `value` is a generic pointer.
pub(crate) fn is_generic_pointer(value: Value) -> bool {
    pointer_address_space(value.r#type()) == Some(address_space::GENERIC)
}

/// Every block of `func`'s body.
fn function_blocks<'c, 'a>(func: OperationRef<'c, 'a>) -> Vec<BlockRef<'c, 'a>> {
    let mut blocks = Vec::new();
    let Ok(region) = func.region_at(0) else { return blocks };
    let mut next = region.first_block();
    while let Some(block) = next {
        blocks.push(block);
        next = block.next_in_region();
    }
    blocks
}

impl SpaceAnalysis {
    /// Infers the spaces of `func`'s generic pointers to a fixpoint; `ops`
    /// are the ops of its body (`nested_ops`).
    pub fn new(func: OperationRef, ops: &[OperationRef], options: &SpaceRules) -> Self {
        let kernel = is_kernel(func);
        let slots_local = !options.llvm_opt_after.applies_to(func);
        let mut analysis = SpaceAnalysis { spaces: HashMap::default() };
        let blocks = function_blocks(func);
        // Function parameters are fixed.
        if let Some(entry) = blocks.first() {
            for index in 0..entry.argument_count() {
                let Ok(argument) = entry.argument_at(index) else { continue };
                let value: Value = argument.into();
                if !is_generic_pointer(value) {
                    continue;
                }
                let global = kernel
                    && options.kernel_params_global
                    && index < parameter_count(func)
                    && !parameter_has(func, index, "llvm.byval");
                let space = if global { Space::Specific(address_space::GLOBAL) } else { Space::Generic };
                analysis.spaces.insert(key(value), space);
            }
        }
        // What each propagating value joins: a GEP its base, a select its
        // two arms, a block argument what every predecessor passes.
        let mut rules: Rules = HashMap::default();
        for op in ops {
            if op.successor_count() == 0 {
                continue;
            }
            for index in 0..op.operand_count() {
                let Ok(operand) = op.operand_at(index) else { continue };
                if !is_generic_pointer(operand) {
                    continue;
                }
                if let Some(argument) = successor_argument(*op, index) {
                    rules.entry(key(argument)).or_default().push(operand);
                }
            }
        }
        // Blocks some other terminator (`llvm.indirectbr`, `llvm.invoke`)
        // branches to: their arguments stay generic.
        let opaque = opaque_successors(ops);
        for block in blocks.iter().skip(1) {
            for index in 0..block.argument_count() {
                let Ok(argument) = block.argument_at(index) else { continue };
                let value: Value = argument.into();
                if is_generic_pointer(value) {
                    let space =
                        if opaque.contains(&(block.to_raw().ptr as usize)) { Space::Generic } else { Space::Unknown };
                    analysis.spaces.insert(key(value), space);
                    if space == Space::Generic {
                        rules.remove(&key(value));
                    }
                }
            }
        }
        // Op results: sources are fixed, the rest propagate.
        let mut copies = HashMap::default();
        for op in ops {
            let Some(result) = first_result(*op) else { continue };
            if op.result_count() != 1 || !is_generic_pointer(result) {
                continue;
            }
            let source = source_space(*op, kernel, slots_local, options, &mut copies, &rules);
            analysis.spaces.insert(key(result), source.unwrap_or(Space::Unknown));
            if source.is_none() {
                let positions: &[usize] = if LlvmOp::of(*op) == LlvmOp::Gep { &[0] } else { &[1, 2] };
                let sources = positions.iter().filter_map(|p| op.operand_at(*p).ok()).collect();
                rules.insert(key(result), sources);
            }
        }
        analysis.solve(&rules);
        analysis
    }

    /// Lowers every value of `rules` to the join of the spaces of the values
    /// it joins, to a fixpoint, with a work list: a value is looked at again
    /// only when one of its sources went down (each goes down at most twice),
    /// so the work is linear in the function. (Sweeping every value until
    /// nothing changed took one sweep per block of a chain: 70 s for a
    /// pointer passed down 16,000 blocks.)
    fn solve(&mut self, rules: &Rules) {
        let mut dependents: HashMap<usize, Vec<usize>> = HashMap::default();
        for (target, sources) in rules {
            for source in sources {
                if is_generic_pointer(*source) {
                    dependents.entry(key(*source)).or_default().push(*target);
                }
            }
        }
        let mut work: Vec<usize> = rules.keys().copied().collect();
        let mut queued: HashSet<usize> = work.iter().copied().collect();
        while let Some(target) = work.pop() {
            queued.remove(&target);
            let space = rules[&target].iter().fold(Space::Unknown, |acc, source| acc.join(self.space(*source)));
            if self.lower(target, space) {
                for dependent in dependents.get(&target).into_iter().flatten() {
                    if queued.insert(*dependent) {
                        work.push(*dependent);
                    }
                }
            }
        }
    }

    /// Moves the value with key `value` down to `space` joined with what it
    /// had; whether it changed.
    fn lower(&mut self, value: usize, space: Space) -> bool {
        let current = *self.spaces.get(&value).unwrap_or(&Space::Unknown);
        let joined = current.join(space);
        if joined != current {
            self.spaces.insert(value, joined);
        }
        joined != current
    }

    /// The inferred space of `value`: its type's space when that is
    /// specific, the lattice value when generic (unknown after the
    /// fixpoint means no source reaches it: generic).
    pub fn space(&self, value: Value) -> Space {
        match pointer_address_space(value.r#type()) {
            Some(address_space::GENERIC) => match self.spaces.get(&key(value)) {
                Some(Space::Specific(space)) => Space::Specific(*space),
                Some(Space::Unknown) => Space::Unknown,
                _ => Space::Generic,
            },
            Some(space) => Space::Specific(space),
            None => Space::Generic,
        }
    }

    /// The specific space of `value`, if it has one.
    pub fn specific(&self, value: Value) -> Option<u32> {
        match self.space(value) {
            Space::Specific(space) if space != address_space::GENERIC => Some(space),
            _ => None,
        }
    }
}

/// Whether `op` loads a pointer out of a kernel parameter's copy, from bytes
/// nothing but the copy wrote ([`slots::parameter_copy_writes`]): a pointer
/// read from the parameter, global as one read from the parameter itself
/// is (`llc` marks every pointer it loads from a kernel's `byval`
/// parameter, copied or not). `copies` caches each slot's writes.
fn reads_parameter_copy(op: OperationRef, copies: &mut ParameterCopies) -> bool {
    if crate::ir::is_volatile_access(op) || crate::ir::is_atomic(op) {
        return false;
    }
    let Some((slot, offset)) = op.operand_at(0).ok().and_then(slots::slot_offset) else { return false };
    let writes = copies.entry(key(slot)).or_insert_with(|| slots::parameter_copy_writes(slot));
    let bytes = DataLayout::nvptx64().store_size(&AbiType::Ptr(address_space::GENERIC));
    let end = offset.saturating_add(i64::try_from(bytes).unwrap_or(i64::MAX));
    writes.as_ref().is_some_and(|writes| writes.iter().all(|&(from, to)| to <= offset || end <= from))
}

/// The most (pointer, offset) pairs [`reads_parameter_through_merges`]
/// visits for one load.
const MAX_MERGE_WALK: usize = 64;

/// Whether `op` (a load) reads a pointer out of kernel `byval` parameters
/// through a select or block argument that merges them: every way back
/// from its address, through constant GEPs, casts, selects and block
/// arguments, ends at a param-space pointer (a kernel parameter in place)
/// or at a parameter's copy whose bytes there nothing else wrote
/// ([`slots::parameter_copy_writes`]): the pointer is a launch argument,
/// global as one read from a single parameter is. (Warp's backward kernels
/// load `array_t::data` from `adj ? adj : self`: left generic, their
/// atomics were generic where llc alone's were global.) Loads with no
/// merge on the way are [`reads_parameter_copy`]'s.
fn reads_parameter_through_merges(op: OperationRef, copies: &mut ParameterCopies, rules: &Rules) -> bool {
    if crate::ir::is_volatile_access(op) || crate::ir::is_atomic(op) {
        return false;
    }
    let Ok(address) = op.operand_at(0) else { return false };
    let layout = DataLayout::nvptx64();
    let bytes = i64::try_from(layout.store_size(&AbiType::Ptr(address_space::GENERIC))).unwrap_or(i64::MAX);
    let mut work = vec![(address, 0i64)];
    let mut seen = HashSet::default();
    let mut merged = false;
    while let Some((value, offset)) = work.pop() {
        if !seen.insert((key(value), offset)) {
            continue;
        }
        if seen.len() > MAX_MERGE_WALK {
            return false;
        }
        if pointer_address_space(value.r#type()) == Some(address_space::PARAM) {
            continue;
        }
        if crate::ir::as_argument(value).is_some() {
            // What the lattice joins for it: none for a function argument
            // or a block an opaque terminator reaches.
            let Some(incoming) = rules.get(&key(value)) else { return false };
            merged = true;
            work.extend(incoming.iter().map(|from| (*from, offset)));
            continue;
        }
        let Some(result) = crate::ir::as_result(value) else { return false };
        let def = result.owner();
        match LlvmOp::of(def) {
            LlvmOp::AddrSpaceCast | LlvmOp::Gep => {
                let step = match LlvmOp::of(def) {
                    LlvmOp::Gep => crate::abi::mlir::gep_offset(layout, def),
                    _ => Some(0),
                };
                let (Some(step), Ok(base)) = (step, def.operand_at(0)) else { return false };
                let Some(next) = offset.checked_add(step) else { return false };
                work.push((base, next));
            }
            LlvmOp::Select => {
                merged = true;
                work.extend([1, 2].into_iter().filter_map(|i| def.operand_at(i).ok()).map(|v| (v, offset)));
            }
            LlvmOp::Alloca => {
                let writes = copies.entry(key(value)).or_insert_with(|| slots::parameter_copy_writes(value));
                let end = offset.saturating_add(bytes);
                if !writes.as_ref().is_some_and(|writes| writes.iter().all(|&(from, to)| to <= offset || end <= from)) {
                    return false;
                }
            }
            _ if op_name(def) == names::PARAM_TO_GENERIC => {}
            _ => return false,
        }
    }
    merged
}

/// Per propagating value (by [`key`]), the values whose spaces it joins: a
/// GEP its base, a select its arms, a block argument what each predecessor
/// passes (built before the sources, which read the block arguments').
type Rules<'c, 'a> = HashMap<usize, Vec<Value<'c, 'a>>>;

/// Per slot (by [`key`]), the byte ranges written into it besides the
/// copy of a kernel parameter, or `None` ([`slots::parameter_copy_writes`]).
type ParameterCopies = HashMap<usize, Option<Vec<(i64, i64)>>>;

/// The blocks that a terminator this analysis does not read (anything but
/// `llvm.br`, `llvm.cond_br` and `llvm.switch`) branches to.
fn opaque_successors(ops: &[OperationRef]) -> HashSet<usize> {
    ops.iter()
        .filter(|op| !LlvmOp::of(**op).is_branch())
        .flat_map(|op| (0..op.successor_count()).filter_map(|i| op.successor_at(i).ok()))
        .map(|block| block.to_raw().ptr as usize)
        .collect()
}

/// The space an op's generic pointer result has by itself, if it is a
/// source of the lattice (`None` for ops that propagate). `copies` caches
/// [`reads_parameter_copy`]'s answer per slot.
fn source_space(
    op: OperationRef,
    kernel: bool,
    slots_local: bool,
    options: &SpaceRules,
    copies: &mut ParameterCopies,
    rules: &Rules,
) -> Option<Space> {
    let from = |index: usize| op.operand_at(index).ok().and_then(|v| pointer_address_space(v.r#type()));
    match LlvmOp::of(op) {
        LlvmOp::Gep | LlvmOp::Select => None,
        LlvmOp::AddrSpaceCast => Some(match from(0) {
            Some(address_space::PARAM) if !options.opt_byval => Space::Generic,
            Some(address_space::GENERIC) | None => Space::Generic,
            Some(space) => Space::Specific(space),
        }),
        _ if options.opt_byval && op_name(op) == names::PARAM_TO_GENERIC => Some(Space::Specific(address_space::PARAM)),
        LlvmOp::Alloca if slots_local => Some(Space::Specific(address_space::LOCAL)),
        // A null (or undefined) pointer is one in every space: merged with
        // pointers of one space it leaves them in it, as upstream's
        // InferAddressSpaces has it (Warp's `adj ? adj.data : nullptr`
        // made the adjoint's atomics generic).
        LlvmOp::Zero | LlvmOp::Undef | LlvmOp::Poison => Some(Space::Unknown),
        _ if kernel && options.kernel_params_global && op_name(op) == names::LOAD_PARAM => {
            Some(Space::Specific(address_space::GLOBAL))
        }
        LlvmOp::Load
            if kernel
                && options.kernel_params_global
                && (from(0) == Some(address_space::PARAM)
                    || reads_parameter_copy(op, copies)
                    || reads_parameter_through_merges(op, copies, rules)) =>
        {
            Some(Space::Specific(address_space::GLOBAL))
        }
        _ => Some(Space::Generic),
    }
}

#[cfg(test)]
mod tests {
    use super::Space;
    use rstest::rstest;

    #[rstest]
    #[case(Space::Unknown, Space::Specific(1), Space::Specific(1))]
    #[case(Space::Specific(1), Space::Unknown, Space::Specific(1))]
    #[case(Space::Specific(1), Space::Specific(1), Space::Specific(1))]
    #[case(Space::Specific(1), Space::Specific(3), Space::Generic)]
    #[case(Space::Generic, Space::Specific(5), Space::Generic)]
    #[case(Space::Unknown, Space::Unknown, Space::Unknown)]
    fn joins(#[case] a: Space, #[case] b: Space, #[case] expected: Space) {
        assert_eq!(a.join(b), expected);
        assert_eq!(b.join(a), expected);
    }
}
