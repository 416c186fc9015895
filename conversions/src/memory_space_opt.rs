//! `memory-space-opt`: loads, stores, atomics and memory intrinsics in their
//! specific address space (seed 002's MemorySpaceOpt; upstream
//! InferAddressSpaces).
//!
//! A generic access costs PTX a run-time address-window check; `ld.global`,
//! `ld.shared`, `ld.local`, `ld.param` do not. The pass infers, for every
//! generic pointer of a function, the one space it always points into, and
//! moves the accesses there.
//!
//! **Lattice** (per generic pointer value): unknown (top) > one specific
//! space > generic (bottom); two different spaces join to generic.
//!
//! **Seeds**:
//! - kernel pointer parameters: global (CUDA semantics: a launch passes
//!   global pointers; `kernel-params-global=false` turns it off). Pointers
//!   read out of a kernel's own `byval` parameter (`ptxcc.load_param`, a
//!   load from param space, or from the parameter's copy in a slot where
//!   nothing else wrote those bytes, also through selects and block
//!   arguments that merge such places) are launch arguments too, and global under the
//!   same option: CUDA forbids pointers to local or shared memory in launch
//!   arguments. This is how ptxcc sees "through memory" where upstream
//!   cannot; every other pointer loaded from memory stays generic;
//! - `llvm.addrspacecast` from a specific space, `llvm.alloca` (local);
//! - `ptxcc.param_to_generic` (param space), only with `opt-byval`: with
//!   `opt-byval=false` param-space pointers are treated as generic and their
//!   casts are not folded (seed 002);
//! - a null, undef or poison pointer is in every space (unknown: it
//!   leaves what it merges with in its space, and becomes that space's
//!   own null), as upstream's InferAddressSpaces has it;
//! - everything else (device-function parameters, call results, loaded
//!   pointers, `inttoptr`, generic globals) is generic.
//!
//! **Propagation**: through `llvm.getelementptr`, `llvm.select` and block
//! arguments (MLIR's phis, cycles included), to a fixpoint.
//!
//! **Rewrite**: the address of `llvm.load`, `llvm.store`,
//! `llvm.atomicrmw`, `llvm.cmpxchg` and the memory intrinsics
//! (`memcpy`, `memmove`, `memset`) becomes a pointer in the inferred space:
//! the source of the cast that made it generic, a copy of the GEP or select
//! chain in that space, or (for block arguments and pointers without a
//! specific source) one `llvm.addrspacecast` right after the definition.
//! Writes never go to param or const space; atomics only to global and
//! shared (PTX has no local or param atomics); param-space accesses only in
//! kernels. A local pointer that comes out of a select or a block argument
//! stays generic: `llc`'s SROA deletes slots by speculating the loads
//! through such merges, which a cast after them defeats.
//!
//! **Generic twins**: a GEP or select that an access no longer uses may keep
//! generic uses (an inline-assembly operand, a call argument, a stored or
//! compared pointer) beside its copy in the inferred space. For global and
//! shared copies, those uses take the copy cast back to generic (right
//! before each) where both would otherwise be live at once: the copy is
//! still needed after such a use, or a use of each is in one loop in
//! which their address does not change (llc hoists both out of it). Where
//! the copy is dead by then the original stays: ptxas computes it from its
//! generic base for free (`cvta.to.global` is the identity to it), where a
//! `cvta.global` costs a register. Local originals always stay (the frame
//! pointer plus a constant): casting the twin back, llc's own form, cost
//! NVIDIA Warp's kernels (-O2) 126 registers in 13 kernels for 28 fewer in 3
//! (`docs/guide/measurements.md`).
//!
//! **Cast pairs fold**: `addrspacecast (addrspacecast %p : ptr<N> to ptr)
//! to ptr<N>` is `%p` (also through GEPs and selects, and for
//! `param_to_generic`), and `generic -> N -> generic` is the original
//! pointer. Casts and address arithmetic left without uses are erased.
//!
//! **Shared `opt-byval`**: `lower-struct-args` records the value it ran
//! with on the module (`ptxcc.opt_byval`). When this pass has the other
//! value, every function with a `byval` parameter or a param-space pointer
//! is an error at its location naming the option and both values, and
//! nothing changes (cicc fails much later in its IR verifier).
//!
//! Before (`saxpy`):
//! ```mlir
//! llvm.func ptx_kernelcc @saxpy(%a: f32, %x: !llvm.ptr, %y: !llvm.ptr, %i: i64) {
//!   %px = llvm.getelementptr %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
//!   %vx = llvm.load %px : !llvm.ptr -> f32
//!   ...
//! }
//! ```
//! After:
//! ```mlir
//! llvm.func ptx_kernelcc @saxpy(%a: f32, %x: !llvm.ptr, %y: !llvm.ptr, %i: i64) {
//!   %0 = llvm.addrspacecast %x : !llvm.ptr to !llvm.ptr<1>
//!   %1 = llvm.getelementptr %0[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
//!   %vx = llvm.load %1 : !llvm.ptr<1> -> f32
//!   ...
//! }
//! ```

use crate::ir::LlvmOp;
use crate::ir::{BlockExt, HashMap, OperationExt};

use melior::{
    ir::{block::BlockLike, operation::OperationLike, OperationRef, Value, ValueLike},
    pass::Pass,
};
use ptxcc_dialect::{
    address_space, names,
    types::{pointer_address_space, pointer_type},
    verify::emit_error,
};

use crate::kernel::recorded_opt_byval;
use crate::spaces::SpaceAnalysis;
use crate::spaces::{is_generic_pointer, key, SpaceRules};

use crate::options::declare_pass;
use crate::{
    context::context_of,
    ir::{addrspacecast, as_argument, as_result, first_result, has_no_uses, nested_ops, op_name, Rewriter},
    kernel::{is_kernel, parameter_count, parameter_has},
    options::LlvmOptAfter,
    pass::PtxccPass,
};

declare_pass! {
    /// Options of `memory-space-opt`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct MemorySpaceOptOptions {
        /// Seed param space from `lower-struct-args`' pointers and fold their
        /// casts (seed 002's shared `opt-byval`; must match `lower-struct-args`).
        pub opt_byval: bool = option(
            "opt-byval",
            "true",
            "treat lower-struct-args' param-space pointers as param space and fold their casts; must be the value lower-struct-args ran with"
        ),
        /// Kernel pointer parameters (and pointers read from kernel `byval`
        /// parameters) point to global memory (CUDA semantics).
        pub kernel_params_global: bool = option(
            "kernel-params-global",
            "true",
            "kernel pointer parameters, and pointers read from kernel byval parameters, point to global memory (CUDA)"
        ),
        /// Whether LLVM's optimizer runs on the output before `llc`: then
        /// pointers to stack slots stay generic (`llc` moves them to local
        /// memory after it; a local view before it hides the slot's alignment).
        pub llvm_opt_after: LlvmOptAfter = option("llvm-opt-after", "auto", LlvmOptAfter::DESCRIPTION),
    }
    pass "memory-space-opt" (MemorySpaceOpt) on crate::ir::LLVM_FUNC:
        "Infer the address space of generic pointers and move loads, stores, atomics and memory intrinsics there";
    fn run(&self, function) -> bool {
        memory_space_opt(function, self).is_ok()
    }
}

impl MemorySpaceOptOptions {
    /// What the address-space analysis may assume under these options.
    pub fn space_rules(&self) -> SpaceRules {
        SpaceRules {
            opt_byval: self.opt_byval,
            kernel_params_global: self.kernel_params_global,
            llvm_opt_after: self.llvm_opt_after,
        }
    }
}

/// Why `memory-space-opt` failed; the details went out as diagnostics.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MemorySpaceOptError {
    /// `opt-byval` differs from the value `lower-struct-args` recorded.
    #[error("opt-byval is {ours} here but lower-struct-args ran with {recorded}")]
    OptByvalMismatch {
        /// This pass's value.
        ours: bool,
        /// The value recorded on the module.
        recorded: bool,
    },
    /// Some ptxcc ops are invalid (see
    /// [`crate::ptxcc_to_llvm::check_ptxcc_ops`]; reported at their locations).
    #[error("{0} ptxcc op(s) are invalid")]
    InvalidPtxccOps(usize),
}

/// How many accesses moved to a specific space, and casts folded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemorySpaceStats {
    /// Memory operands rewritten.
    pub accesses: usize,
    /// Explicit casts replaced by the value they round-trip.
    pub folded_casts: usize,
    /// Generic addresses replaced by their global or shared copy cast back
    /// (see "Generic twins" in the module documentation).
    pub cast_back: usize,
}

/// The pointer operands of a memory op: (operand index, whether it writes,
/// whether it is atomic).
fn memory_operands(op: OperationRef) -> &'static [(usize, bool, bool)] {
    match LlvmOp::of(op) {
        LlvmOp::Load => &[(0, false, false)],
        LlvmOp::Store => &[(1, true, false)],
        LlvmOp::AtomicRmw | LlvmOp::CmpXchg => &[(0, true, true)],
        LlvmOp::Memcpy | LlvmOp::MemcpyInline | LlvmOp::Memmove => &[(0, true, false), (1, false, false)],
        LlvmOp::Memset | LlvmOp::MemsetInline => &[(0, true, false)],
        _ => &[],
    }
}

/// Whether an access may move to `space`.
fn allowed(space: u32, writes: bool, atomic: bool, kernel: bool) -> bool {
    match space {
        address_space::GLOBAL | address_space::SHARED => true,
        address_space::LOCAL => !atomic,
        address_space::CONST => !writes,
        address_space::PARAM => !writes && kernel,
        _ => false,
    }
}

/// Builds pointers in specific spaces for generic ones (memoized).
struct Materializer<'c, 'a, 'r> {
    analysis: SpaceAnalysis,
    memo: HashMap<usize, Value<'c, 'a>>,
    /// Each GEP or select copied into a specific space: (original, copy),
    /// in the order they were built (operands before users).
    copies: Vec<(Value<'c, 'a>, Value<'c, 'a>)>,
    /// The pass run's rewriter (the clones go through it).
    rewriter: &'r Rewriter,
}

impl<'c: 'a, 'a> Materializer<'c, 'a, '_> {
    /// `value` (generic, inferred in `space`) as a `!llvm.ptr<space>` value.
    fn specific(&mut self, value: Value<'c, 'a>, space: u32) -> Value<'c, 'a> {
        if let Some(found) = self.memo.get(&key(value)) {
            return *found;
        }
        let built = self.build(value, space);
        self.memo.insert(key(value), built);
        built
    }

    fn build(&mut self, value: Value<'c, 'a>, space: u32) -> Value<'c, 'a> {
        let Some(result) = as_result(value) else {
            // A block argument: one cast at the top of its block, located at
            // the function.
            let argument = as_argument(value).expect("a value is a result or argument");
            let block = crate::ir::argument_block(argument);
            let func = block.parent_operation().expect("a block of a function body");
            let context = context_of(func);
            let cast = addrspacecast(value, pointer_type(context, space), func.location());
            let cast = match block.first_operation() {
                Some(first) => block.insert_operation_before(first, cast),
                None => block.append_operation(cast),
            };
            return first_result(cast).expect("one result");
        };
        let op = result.owner();
        let context = context_of(op);
        let target = pointer_type(context, space);
        let from = op.operand_at(0).ok();
        match LlvmOp::of(op) {
            LlvmOp::AddrSpaceCast if from.is_some_and(|f| pointer_address_space(f.r#type()) == Some(space)) => {
                return from.expect("checked");
            }
            _ if space == address_space::PARAM && op_name(op) == names::PARAM_TO_GENERIC => {
                if let Some(from) = from {
                    return from;
                }
            }
            // The null (or undefined) pointer of the space itself.
            LlvmOp::Zero | LlvmOp::Undef | LlvmOp::Poison => {
                let clone = self.rewriter.clone(op);
                let block = op.block().expect("an op in a block");
                let clone = block.insert_operation_after(op, clone);
                let value = first_result(clone).expect("one result");
                value.set_type(target);
                return value;
            }
            LlvmOp::Gep | LlvmOp::Select => {
                let positions: &[usize] = if LlvmOp::of(op) == LlvmOp::Gep { &[0] } else { &[1, 2] };
                let specific: Vec<_> = positions
                    .iter()
                    .map(|p| {
                        let operand = op.operand_at(*p).expect("a GEP base or select arm");
                        (*p, if is_generic_pointer(operand) { self.specific(operand, space) } else { operand })
                    })
                    .collect();
                // Inserted right after the op; its operands dominate the
                // original, hence the clone.
                let clone = self.rewriter.clone(op);
                let block = op.block().expect("an op in a block");
                let clone = block.insert_operation_after(op, clone);
                for (position, operand) in specific {
                    crate::ir::set_operand(clone, position, operand);
                }
                let value = first_result(clone).expect("one result");
                // Retyping the clone's result before anything uses it.
                value.set_type(target);
                self.copies.push((first_result(op).expect("one result"), value));
                return value;
            }
            _ => {}
        }
        let block = op.block().expect("an op in a block");
        let cast = block.insert_operation_after(op, addrspacecast(value, target, op.location()));
        first_result(cast).expect("one result")
    }
}

/// Whether `opt-byval` matters to `func`: it has a `byval` parameter or
/// a param-space pointer.
fn uses_param_space(func: OperationRef, ops: &[OperationRef]) -> bool {
    let param_space = |value: Value| pointer_address_space(value.r#type()) == Some(address_space::PARAM);
    let entry = crate::kernel::entry_block(func);
    (0..parameter_count(func)).any(|index| parameter_has(func, index, "llvm.byval"))
        || entry.is_some_and(|b| (0..b.argument_count()).any(|i| b.argument_at(i).is_ok_and(|a| param_space(a.into()))))
        || ops.iter().any(|op| {
            op_name(*op).starts_with("ptxcc.")
                || (0..op.result_count()).any(|i| op.result_at(i).is_ok_and(|r| param_space(r.into())))
        })
}

/// Checks that `options.opt_byval` agrees with the value `lower-struct-args`
/// recorded, where it matters to `func` (whose body holds `ops`); reports a
/// disagreement at `func`.
pub fn check_opt_byval(
    func: OperationRef,
    ops: &[OperationRef],
    options: &MemorySpaceOptOptions,
) -> Result<(), MemorySpaceOptError> {
    let Some(recorded) = recorded_opt_byval(func) else { return Ok(()) };
    if recorded == options.opt_byval || !uses_param_space(func, ops) {
        return Ok(());
    }
    emit_error(
        func.location(),
        &format!(
            "option 'opt-byval' disagrees between passes: lower-struct-args ran with opt-byval={recorded} but \
             memory-space-opt has opt-byval={}; give both passes the same value (ptxcc-pipeline hands one value to \
             both)",
            options.opt_byval
        ),
    );
    Err(MemorySpaceOptError::OptByvalMismatch { ours: options.opt_byval, recorded })
}

/// Runs the pass on one function (see the module documentation).
pub fn memory_space_opt(
    func: OperationRef,
    options: &MemorySpaceOptOptions,
) -> Result<MemorySpaceStats, MemorySpaceOptError> {
    // Every op the pass erases is freed when it returns ([`Rewriter`]).
    let mut rewriter = Rewriter::new();
    let ops = nested_ops(func);
    check_opt_byval(func, &ops, options)?;
    // The conversion's checks, before any cast folds away: a param-space
    // cast of something that is not a byval kernel parameter must stay for
    // the conversion to refuse, not become a plain load.
    if let Err(crate::ptxcc_to_llvm::ConversionError::Illegal(problems)) = crate::ptxcc_to_llvm::check_ptxcc_ops(&ops) {
        return Err(MemorySpaceOptError::InvalidPtxccOps(problems));
    }
    let kernel = is_kernel(func);
    let mut materializer = Materializer {
        analysis: SpaceAnalysis::new(func, &ops, &options.space_rules()),
        memo: HashMap::default(),
        copies: Vec::new(),
        rewriter: &rewriter,
    };
    let mut stats = MemorySpaceStats::default();
    // Address computations in use now; those left without uses at the end
    // are erased.
    let live: Vec<_> = ops
        .iter()
        .filter(|op| is_address(**op) && first_result(**op).is_some_and(|r| !has_no_uses(r)))
        .copied()
        .collect();
    for op in &ops {
        for &(index, writes, atomic) in memory_operands(*op) {
            let Ok(pointer) = op.operand_at(index) else { continue };
            if !is_generic_pointer(pointer) {
                continue;
            }
            let Some(space) = materializer.analysis.specific(pointer) else { continue };
            if !allowed(space, writes, atomic, kernel) || (space == address_space::LOCAL && merges_pointers(pointer)) {
                continue;
            }
            let specific = materializer.specific(pointer, space);
            // A dominating value.
            crate::ir::set_operand(*op, index, specific);
            stats.accesses += 1;
        }
    }
    // Then the casts, so that an access through `generic -> N -> generic`
    // takes the space-N pointer before the pair folds to the original.
    for op in &ops {
        // Cast pairs: generic -> N of a pointer known in N, and
        // generic -> N -> generic.
        if LlvmOp::of(*op) == LlvmOp::AddrSpaceCast || op_name(*op) == names::GENERIC_TO_AS {
            let (Ok(source), Some(result)) = (op.operand_at(0), first_result(*op)) else { continue };
            let to = pointer_address_space(result.r#type());
            let known = is_generic_pointer(source)
                .then(|| materializer.analysis.specific(source))
                .flatten()
                .filter(|space| Some(*space) == to);
            if let Some(space) = known {
                if allowed(space, false, false, kernel) {
                    let specific = materializer.specific(source, space);
                    rewriter.replace_uses(result, specific);
                    stats.folded_casts += 1;
                }
            } else if to == Some(address_space::GENERIC) {
                if let Some(inner) = crate::kernel::defining_op(source, LlvmOp::AddrSpaceCast) {
                    let original = crate::ir::AddrSpaceCast::of(inner)
                        .map(crate::ir::AddrSpaceCast::source)
                        .filter(|v| is_generic_pointer(*v));
                    if let Some(original) = original {
                        rewriter.replace_uses(result, original);
                        stats.folded_casts += 1;
                    }
                }
            }
        }
    }
    stats.cast_back = cast_back_twins(func, &materializer.copies);
    // Users first; erasing one tries its operands' definers again, so a
    // chain of dead GEPs goes whole whatever the order of its blocks.
    for op in live.iter().rev() {
        rewriter.erase_later_if_unused(*op);
    }
    rewriter.flush();
    Ok(stats)
}

/// Replaces each GEP or select that kept generic uses beside its copy in
/// global or shared space (an inline-assembly operand, a call argument, a
/// stored or compared pointer) by the copy cast back to generic, right
/// before each such use, where both would otherwise be live at once: the
/// copy is still needed after one of those uses, or a use of each is in
/// one loop in which their address does not change (llc hoists both out of
/// it, and both stay live across it). Elsewhere the original stays: where
/// the copy is dead by the generic use, ptxas takes the generic address for
/// free from its generic base (`cvta.to.global` is the identity for it),
/// and a `cvta.global` there costs a register. Local copies always keep
/// the original (a stack slot's generic address is the frame pointer plus
/// a constant, which ptxas rematerializes; the twin cast back cost Warp's
/// kernels 98 registers, see the module documentation). Returns how many
/// originals went.
fn cast_back_twins(func: OperationRef, copies: &[(Value, Value)]) -> usize {
    if copies.is_empty() {
        return 0;
    }
    let Some(graph) = crate::ir::BlockGraph::of(func) else { return 0 };
    let mut replaced = 0;
    // Users first: a GEP of a GEP goes before its base.
    for (original, copy) in copies.iter().rev() {
        if !matches!(pointer_address_space(copy.r#type()), Some(address_space::GLOBAL | address_space::SHARED)) {
            continue;
        }
        let Some(def) = as_result(*original).map(|r| r.owner()).filter(|op| op.block().is_some()) else { continue };
        // Dead address arithmetic (erased at the end) does not count; a
        // live address computed from this one keeps it.
        let users: Vec<_> = crate::ir::uses(*original)
            .into_iter()
            .filter(|u| !(is_address(u.owner) && first_result(u.owner).is_none_or(has_no_uses)))
            .collect();
        if users.is_empty() || users.iter().any(|u| is_address(u.owner)) {
            continue;
        }
        let points: Vec<OperationRef> = users.iter().map(|u| u.owner).collect();
        let copy_users: Vec<OperationRef> = crate::ir::uses(*copy).iter().map(|u| u.owner).collect();
        let both_live = match graph.live_after_any(*copy, &points) {
            Some(live) => live || graph.in_invariant_loop(&points, &copy_users, def),
            None => false,
        };
        if !both_live {
            continue;
        }
        let generic = pointer_type(context_of(def), address_space::GENERIC);
        for used in users {
            let block = used.owner.block().expect("a user in a block");
            let cast = block.insert_operation_before(used.owner, addrspacecast(*copy, generic, def.location()));
            crate::ir::set_operand(used.owner, used.index, first_result(cast).expect("one result"));
        }
        replaced += 1;
    }
    replaced
}

/// Whether `pointer` comes out of a select or a block argument (through
/// GEPs and casts). Such a local pointer is left generic: `llc`'s SROA
/// removes slots by speculating the loads through selects and phis of
/// their addresses, which a cast to the local space in between defeats
/// (the slot stayed in local memory), and `llc`'s own address-space
/// inference, after SROA, finds the space of what is left.
fn merges_pointers(pointer: Value) -> bool {
    let mut current = pointer;
    for _ in 0..64 {
        let Some(result) = as_result(current) else { return true };
        let op = result.owner();
        match LlvmOp::of(op) {
            LlvmOp::Select => return true,
            LlvmOp::Gep | LlvmOp::AddrSpaceCast => match op.operand_at(0) {
                Ok(base) => current = base,
                Err(_) => return false,
            },
            _ => return false,
        }
    }
    false
}

/// Whether `op` only computes an address (erasable when unused).
fn is_address(op: OperationRef) -> bool {
    matches!(LlvmOp::of(op), LlvmOp::AddrSpaceCast | LlvmOp::Gep | LlvmOp::Select)
        || matches!(op_name(op), names::PARAM_TO_GENERIC | names::GENERIC_TO_AS)
}

/// The `memory-space-opt` pass, anchored on `llvm.func`.
pub fn create_memory_space_opt_pass(options: &MemorySpaceOptOptions) -> Pass {
    options.create_pass()
}
