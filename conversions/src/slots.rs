//! What `llc`'s SROA will do with a stack slot, for the passes that must
//! not stand in its way.
//!
//! `llc -O2` runs SROA right after its own lowering of byval arguments: it
//! splits allocas along the fields the code uses, promotes what it can to
//! registers and deletes the rest. ptxcc's output must leave it the same
//! chances as the input gave it, or the output keeps local memory that
//! `llc` alone would have removed. [`breakable`] says whether SROA can split
//! a slot; [`promotable`] whether it removes the slot entirely.

use crate::ir::HashSet;
use crate::ir::{LlvmOp, MemIntrinsic, OperationExt, Store};

use melior::ir::{block::BlockLike, operation::OperationLike, RegionLike, Value, ValueLike};
use ptxcc_dialect::names;

use crate::{
    abi::{mlir::abi_type, AbiType, DataLayout},
    ir::{first_result, gep_indices, op_name, successor_argument, uses},
};

/// Whether the memory at `pointer` is a slot `llc`'s SROA can break up: an
/// `llvm.alloca` (through casts) that is only loaded from, stored to and
/// copied (directly, through GEPs, through selects and phis that only feed
/// loads, or through a slot of its own that holds its address), or compared
/// and converted to an integer, never passed to other code. A copy into it
/// is made of integers, which SROA splits along the slot's fields and
/// deletes where the fields are overwritten or never read, as it does with
/// the memcpy of `llc`'s own copy; vectors straddle fields and kept the slot
/// alive in local memory (fuzz seed 144: 16 bytes where `llc` alone has 8).
pub fn breakable(pointer: Value) -> bool {
    uses_allow(pointer, false)
}

/// Whether SROA removes the slot at `pointer` altogether: [`breakable`],
/// with constant indices and no volatile access. `lower-alloca` gives such a slot no local
/// view: the round trip through the local space made SROA keep a byte of
/// it (fuzz seed 11518), and `llc` would delete the view with the slot.
pub fn promotable(pointer: Value) -> bool {
    uses_allow(pointer, true)
}

/// Whether every index of a GEP is a constant.
fn constant_gep(gep: melior::ir::OperationRef) -> bool {
    gep_indices(gep).is_some_and(|indices| indices.iter().all(Option::is_some))
}

/// The walk behind [`breakable`] and [`promotable`] (`strict`: constant
/// indices only, no volatile access).
fn uses_allow(pointer: Value, strict: bool) -> bool {
    let Some(root) = root_alloca(pointer) else { return false };
    let layout = DataLayout::nvptx64();
    let slot_size = slot_size(layout, root);
    // Each pointer with its constant offset into the slot (`None` below a
    // dynamic index).
    let mut work = vec![(root, Some(0i64))];
    let mut seen = HashSet::default();
    let mut widths = Widths::default();
    while let Some((value, offset)) = work.pop() {
        if !seen.insert(value.to_raw().ptr) {
            continue;
        }
        for used in uses(value) {
            let op = used.owner;
            match (LlvmOp::of(op), used.index) {
                (LlvmOp::AddrSpaceCast, _) => work.extend(first_result(op).map(|r| (r, offset))),
                (LlvmOp::Gep, 0) if constant_gep(op) => {
                    let step = crate::abi::mlir::gep_offset(layout, op);
                    let next = offset.zip(step).map(|(base, step)| base.wrapping_add(step));
                    work.extend(first_result(op).map(|r| (r, next)));
                }
                // A dynamic index (outside `strict`): SROA keeps the indexed
                // array whole and still splits the rest of the slot (fuzz
                // seed 11735: 16 bytes where llc alone keeps the 2 of a
                // dynamically indexed array). An index that may reach the
                // whole slot leaves nothing to split.
                (LlvmOp::Gep, 0) if !strict => {
                    let covered = offset.zip(dynamic_range(layout, op)).map(|(base, (start, size))| {
                        base.wrapping_add(start) <= 0
                            && base.wrapping_add(start).saturating_add(size as i64) >= slot_size as i64
                    });
                    if covered != Some(false) && offset.is_some() {
                        return false;
                    }
                    work.extend(first_result(op).map(|r| (r, None)));
                }
                (LlvmOp::Load, 0) | (LlvmOp::Store, 1) if strict && crate::ir::is_volatile_access(op) => return false,
                (LlvmOp::Load, 0) => widths.note(first_result(op), layout),
                (LlvmOp::Store, 1) => widths.note(Store::of(op).map(Store::value), layout),
                (_, 1) if op_name(op) == names::COPY_PARAM => widths.bulk = true,
                // The address looked at as a number: SROA still splits the
                // slot (and keeps what must stay in memory).
                (LlvmOp::PtrToInt | LlvmOp::ICmp, _) => {}
                // The address kept in a slot of its own and read back (every
                // value of clang -O0): SROA promotes that slot first, and the
                // loaded pointers are this one again.
                (LlvmOp::Store, 0) => match Store::of(op).and_then(|store| spill_loads(store.address(), root)) {
                    Some(loads) => work.extend(loads.into_iter().map(|l| (l, Some(0)))),
                    None => return false,
                },
                // SROA speculates the loads through a select or phi that
                // only feeds loads.
                (LlvmOp::Select, 1 | 2) if first_result(op).is_some_and(only_loaded) => {}
                // Through a branch SROA puts the loads before each
                // predecessor's terminator (a switch's too), where it may
                // (`speculated_through_phi`).
                (kind, _)
                    if kind.is_branch() && successor_argument(op, used.index).is_some_and(speculated_through_phi) => {}
                (LlvmOp::Memcpy | LlvmOp::Memmove | LlvmOp::MemcpyInline, 0 | 1)
                | (LlvmOp::Memset | LlvmOp::MemsetInline, 0)
                    if MemIntrinsic::of(op).and_then(MemIntrinsic::constant_length).is_some() =>
                {
                    widths.bulk = true
                }
                (LlvmOp::LifetimeStart | LlvmOp::LifetimeEnd, _) => {}
                // An assumption about the address (an "align" bundle):
                // SROA drops it with a slot it promotes, as it drops
                // lifetime markers (issue 41, rule C: taken for a use SROA
                // cannot see through, it made the copy vectors, and the
                // slot stayed).
                (LlvmOp::Assume, 1..) => {}
                (kind, _) if kind.is_debug_info() => {}
                _ => return false,
            }
        }
    }
    !strict || widths.convertible()
}

/// What [`uses_allow`] saw of the values loaded from and stored into a
/// slot.
#[derive(Default)]
struct Widths<'c> {
    /// A value with bits that fill no whole byte (`DataLayout::fills_its_bytes`).
    sub_byte: bool,
    /// The first type loaded or stored, and whether another one was.
    first: Option<melior::ir::Type<'c>>,
    mixed: bool,
    /// A memory intrinsic or a `ptxcc.copy_param` reads or writes it.
    bulk: bool,
}

impl<'c> Widths<'c> {
    /// Notes the value `value` moves (`None`: one it cannot name).
    fn note(&mut self, value: Option<Value<'c, '_>>, layout: &DataLayout) {
        let Some(ty) = value.map(|v| v.r#type()) else {
            self.sub_byte = true;
            return;
        };
        self.sub_byte |= abi_type(ty).map_or(true, |abi| !layout.fills_its_bytes(&abi));
        match self.first {
            None => self.first = Some(ty),
            Some(first) => self.mixed |= first != ty,
        }
    }

    /// Whether SROA can turn every access into the slot's values: it
    /// converts only between types of one bit width, so a value narrower
    /// than its bytes (an `i1`) must be the only type the slot holds, and
    /// no copy or fill may write its bytes (a byte a copy wrote and an `i1`
    /// load read stayed in memory: fuzz seed 5059).
    fn convertible(&self) -> bool {
        !self.sub_byte || (!self.bulk && !self.mixed)
    }
}

/// Bytes of the alloca `root` (0 when unknown, which no dynamic range
/// covers).
fn slot_size(layout: &DataLayout, root: Value) -> u64 {
    crate::kernel::defining_op(root, LlvmOp::Alloca)
        .and_then(|alloca| {
            let count = u64::try_from(crate::abi::frame::alloca_count(alloca)?).ok()?;
            let ty = abi_type(crate::ir::Alloca::of(alloca)?.element_type()?).ok()?;
            Some(layout.alloc_size(&ty).saturating_mul(count))
        })
        .unwrap_or(0)
}

/// The bytes a GEP with a dynamic index may reach, from its base: the array
/// or vector its first dynamic index selects in, as (start, size). `None`
/// when that is the GEP's first index (it steps over whole objects) or the
/// type has no layout.
fn dynamic_range(layout: &DataLayout, gep: melior::ir::OperationRef) -> Option<(i64, u64)> {
    let indices = gep_indices(gep)?;
    let source = abi_type(crate::ir::Gep::of(gep)?.element_type()?).ok()?;
    let first_dynamic = indices.iter().position(Option::is_none)?;
    if first_dynamic == 0 {
        return None;
    }
    let prefix: Vec<i64> = indices[..first_dynamic].iter().map(|index| index.unwrap_or_default()).collect();
    let start = layout.gep_offset(&source, &prefix).ok()?;
    let mut container = &source;
    for &index in &prefix[1..] {
        container = match container {
            AbiType::Struct(body) => body.fields.get(usize::try_from(index).ok()?)?,
            AbiType::Array(element, _) | AbiType::Vector(element, _) => element,
            _ => return None,
        };
    }
    Some((start, layout.alloc_size(container)))
}

/// The pointer `pointer` is derived from through `llvm.addrspacecast`s and
/// `llvm.getelementptr`s (itself when it is neither).
pub fn pointer_root<'c: 'a, 'a>(pointer: Value<'c, 'a>) -> Value<'c, 'a> {
    let mut current = pointer;
    while let Some(base) = crate::ir::as_result(current).and_then(|result| {
        let op = result.owner();
        crate::ir::Gep::of(op)
            .map(|gep| gep.base())
            .or_else(|| crate::ir::AddrSpaceCast::of(op).map(|cast| cast.source()))
    }) {
        current = base;
    }
    current
}

/// The `llvm.alloca` that `pointer` is, through casts and GEPs.
pub fn root_alloca<'c: 'a, 'a>(pointer: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
    let root = pointer_root(pointer);
    crate::kernel::defining_op(root, LlvmOp::Alloca).map(|_| root)
}

/// The loads from `slot` when it is a slot of its own (an alloca, through
/// casts) that only ever holds addresses into `root` (an alloca or a
/// parameter): every use a load from it or a store into it of such an
/// address.
pub fn spill_loads<'c: 'a, 'a>(slot: Value<'c, 'a>, root: Value) -> Option<Vec<Value<'c, 'a>>> {
    let slot_root = root_alloca(slot)?;
    if slot_root == root {
        return None;
    }
    let mut loads = Vec::new();
    let mut work = vec![slot_root];
    while let Some(value) = work.pop() {
        for used in uses(value) {
            let op = used.owner;
            match (LlvmOp::of(op), used.index) {
                (LlvmOp::AddrSpaceCast, 0) => work.extend(first_result(op)),
                (LlvmOp::Load, 0) => loads.extend(first_result(op)),
                (LlvmOp::Store, 1) if Store::of(op).is_some_and(|store| pointer_root(store.value()) == root) => {}
                _ => return None,
            }
        }
    }
    Some(loads)
}

/// Whether SROA speculates the loads through the block argument `phi` (a
/// phi in LLVM IR), measured with `opt -passes=sroa` (LLVM 22):
///
/// - a GEP of the phi (constant indices) is first unfolded into a phi of
///   GEPs, but only where every incoming value is a function argument, a
///   constant or a static alloca (`unfoldGEPPhi`): a pointer cast from a
///   parameter or a GEP of the slot is an instruction, and the slot stays
///   whole in local memory;
/// - then each phi's users must be plain loads of one type in its own
///   block, with nothing that may write memory before them there, and an
///   incoming value that is not a stack slot must come over an edge the
///   load can be put on (its predecessor has no other successor:
///   `isSafePHIToSpeculate`).
///
/// Warp's backward kernels pick between an `array_t` and its adjoint this
/// way: a field-by-field copy into a slot SROA keeps cost registers for
/// nothing (scale_outer_2d: 28 where llc alone takes 26).
fn speculated_through_phi(phi: Value) -> bool {
    let Some(argument) = crate::ir::as_argument(phi) else { return false };
    let block = crate::ir::argument_block(argument);
    let Some(region) = block.parent_region() else { return false };
    let Some(incoming) = incoming(phi) else { return false };
    // Each load's position must follow no write in the block.
    let mut first_write = None;
    let mut positions = crate::ir::HashMap::default();
    let mut next = block.first_operation();
    while let Some(op) = next {
        let position = positions.len();
        if first_write.is_none() && ptxcc_shim::may_write_memory(op.to_raw()) {
            first_write = Some(position);
        }
        positions.insert(op.to_raw().ptr, position);
        next = op.next_in_block();
    }
    let speculated = |loads: &[crate::ir::Use]| {
        let mut load_type = None;
        loads.iter().all(|used| {
            let op = used.owner;
            let plain = LlvmOp::of(op) == LlvmOp::Load
                && used.index == 0
                && !crate::ir::is_volatile_access(op)
                && !crate::ir::is_atomic(op);
            let before_writes =
                positions.get(&op.to_raw().ptr).is_some_and(|at| first_write.is_none_or(|write| *at < write));
            let ty = first_result(op).map(|result| result.r#type());
            plain && before_writes && *load_type.get_or_insert(ty) == ty
        })
    };
    let mut direct = Vec::new();
    for used in uses(phi) {
        let op = used.owner;
        if LlvmOp::of(op) == LlvmOp::Gep && used.index == 0 {
            let folded = constant_gep(op)
                && incoming.iter().all(|(value, _)| unfoldable_incoming(*value, region))
                && first_result(op).is_some_and(|gep| speculated(&uses(gep)));
            if !folded {
                return false;
            }
        } else {
            direct.push(used);
        }
    }
    speculated(&direct) && incoming.iter().all(|(value, critical)| !critical || root_alloca(*value).is_some())
}

/// What each edge into the block of `phi` (a block argument, not of an
/// entry block) passes for it, with whether the edge's predecessor has
/// other successors (a critical edge, where a load cannot be put); `None`
/// for any other value, or an edge whose operand cannot be read.
fn incoming<'c: 'a, 'a>(phi: Value<'c, 'a>) -> Option<Vec<(Value<'c, 'a>, bool)>> {
    let block = crate::ir::argument_block(crate::ir::as_argument(phi)?);
    let region = block.parent_region()?;
    if region.first_block() == Some(block) {
        return None;
    }
    let mut incoming = Vec::new();
    let mut predecessor = region.first_block();
    while let Some(from) = predecessor {
        predecessor = from.next_in_region();
        let Some(terminator) = from.terminator() else { continue };
        for index in 0..terminator.operand_count() {
            if successor_argument(terminator, index) == Some(phi) {
                incoming.push((terminator.operand_at(index).ok()?, terminator.successor_count() > 1));
            }
        }
    }
    Some(incoming)
}

/// Whether LLVM IR has `value` as something other than an instruction, or
/// as a static alloca (an alloca of constant count in the entry block of
/// `region`): an argument of the function, or a constant (what MLIR's
/// translation folds: constants, globals' addresses, and casts and GEPs of
/// them).
fn unfoldable_incoming(value: Value, region: melior::ir::RegionRef) -> bool {
    let entry = region.first_block();
    if let Some(argument) = crate::ir::as_argument(value) {
        return Some(crate::ir::argument_block(argument)) == entry;
    }
    crate::kernel::defining_op(value, LlvmOp::Alloca)
        .is_some_and(|alloca| alloca.block() == entry && crate::abi::frame::alloca_count(alloca).is_some())
        || constant_value(value)
}

/// Whether MLIR's translation makes `value` an LLVM constant: a constant
/// ([`crate::ir::is_constant`]), or a cast or GEP of constants (which its
/// IR builder folds).
fn constant_value(value: Value) -> bool {
    if crate::ir::is_constant(value) {
        return true;
    }
    let Some(op) = crate::ir::as_result(value).map(|result| result.owner()) else { return false };
    matches!(LlvmOp::of(op), LlvmOp::AddrSpaceCast | LlvmOp::Gep)
        && (0..op.operand_count()).filter_map(|i| op.operand_at(i).ok()).all(constant_value)
}

/// Whether every use of `pointer` is a load from it, directly or through
/// constant-index GEPs and address-space casts.
fn only_loaded(pointer: Value) -> bool {
    uses(pointer).iter().all(|used| match (LlvmOp::of(used.owner), used.index) {
        (LlvmOp::Load, 0) => true,
        (LlvmOp::AddrSpaceCast, 0) => first_result(used.owner).is_some_and(only_loaded),
        (LlvmOp::Gep, 0) => constant_gep(used.owner) && first_result(used.owner).is_some_and(only_loaded),
        _ => false,
    })
}

/// Whether `pointer` (a `byval` parameter) is written, and every use of
/// it (through GEPs with constant indices) is a non-volatile, non-atomic load or store at a
/// constant offset, the source of a non-volatile copy of constant length
/// (clang -O0 returns a parameter it updated by copying it out), a
/// lifetime marker or a debug record (with `calls`, also an operand of a
/// call, which `lower-struct-args` may make a load of its value): a copy
/// of it in a slot of its own is a slot SROA promotes.
pub fn written_at_constant_offsets(pointer: Value, calls: bool) -> bool {
    let mut written = false;
    let mut work = vec![pointer];
    while let Some(value) = work.pop() {
        for used in uses(value) {
            let op = used.owner;
            let plain = !crate::ir::is_volatile_access(op) && !crate::ir::is_atomic(op);
            match (LlvmOp::of(op), used.index) {
                (LlvmOp::Gep, 0) if crate::ir::gep_indices(op).is_some_and(|i| i.iter().all(Option::is_some)) => {
                    work.extend(first_result(op))
                }
                (LlvmOp::Load, 0) if plain => {}
                (LlvmOp::Store, 1) if plain => written = true,
                (kind, 1)
                    if kind.is_memory_transfer()
                        && MemIntrinsic::of(op)
                            .is_some_and(|copy| !copy.is_volatile() && copy.constant_length().is_some()) => {}
                (LlvmOp::LifetimeStart | LlvmOp::LifetimeEnd, _) => {}
                (LlvmOp::Call, _) if calls => {}
                (kind, _) if kind.is_debug_info() => {}
                _ => return false,
            }
        }
    }
    written
}

/// The slot `pointer` points into and its constant byte offset there:
/// through `llvm.addrspacecast`s and GEPs with constant indices down to an
/// `llvm.alloca`; `None` on any other way there.
pub fn slot_offset<'c: 'a, 'a>(pointer: Value<'c, 'a>) -> Option<(Value<'c, 'a>, i64)> {
    let layout = DataLayout::nvptx64();
    let (mut current, mut offset) = (pointer, 0i64);
    loop {
        let op = crate::ir::as_result(current)?.owner();
        match LlvmOp::of(op) {
            LlvmOp::Alloca => return Some((current, offset)),
            LlvmOp::AddrSpaceCast => current = crate::ir::AddrSpaceCast::of(op)?.source(),
            LlvmOp::Gep => {
                offset = offset.checked_add(crate::abi::mlir::gep_offset(layout, op)?)?;
                current = crate::ir::Gep::of(op)?.base();
            }
            _ => return None,
        }
    }
}

/// The byte ranges written into `slot` (an `llvm.alloca`) besides one
/// `ptxcc.copy_param` into all of it, at its start, in the function's entry
/// block, when the slot holds a copy of a kernel parameter: every use (through
/// casts and constant GEPs) is a load, a store, a copy or fill of constant
/// length into or out of it, a lifetime marker or a debug record, each at a
/// constant offset, or a select or block argument that only loads (Warp's
/// backward kernels pick between an `array_t` and its adjoint). `None` for
/// any other slot, or one whose address goes anywhere else (a call, a
/// store of the address, a merge written through, a GEP with a variable
/// index), where nothing says which bytes are still the parameter's.
pub fn parameter_copy_writes(slot: Value) -> Option<Vec<(i64, i64)>> {
    let layout = DataLayout::nvptx64();
    let mut writes = Vec::new();
    let mut copies = 0;
    let mut work = vec![(slot, 0i64)];
    while let Some((value, at)) = work.pop() {
        for used in uses(value) {
            let op = used.owner;
            let kind = LlvmOp::of(op);
            match (kind, used.index) {
                (LlvmOp::AddrSpaceCast, 0) => work.push((first_result(op)?, at)),
                (LlvmOp::Gep, 0) => {
                    let step = crate::abi::mlir::gep_offset(layout, op)?;
                    work.push((first_result(op)?, at.checked_add(step)?));
                }
                (LlvmOp::Load, 0) => {}
                (LlvmOp::Store, 1) => {
                    let bytes = layout.store_size(&abi_type(Store::of(op)?.value().r#type()).ok()?);
                    writes.push((at, at.checked_add(i64::try_from(bytes).ok()?)?));
                }
                (_, 0) if kind.is_memory_transfer() || kind.is_memory_fill() => {
                    let length = MemIntrinsic::of(op)?.constant_length()?;
                    writes.push((at, at.checked_add(length)?));
                }
                (_, 1) if kind.is_memory_transfer() => {}
                (_, _) if kind.is_lifetime_marker() || kind.is_debug_info() => {}
                // Merged with other pointers for loads only: nothing
                // written through the merge.
                (LlvmOp::Select, 1 | 2) if first_result(op).is_some_and(only_loaded) => {}
                (_, _) if kind.is_branch() && successor_argument(op, used.index).is_some_and(only_loaded) => {}
                _ if op_name(op) == names::COPY_PARAM && used.index == 1 && at == 0 => {
                    let block = op.block()?;
                    let entry = crate::kernel::entry_block(block.parent_operation()?)?;
                    if block.to_raw().ptr != entry.to_raw().ptr {
                        return None;
                    }
                    copies += 1;
                }
                _ => return None,
            }
        }
    }
    (copies == 1).then_some(writes)
}
