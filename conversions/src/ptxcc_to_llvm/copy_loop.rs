//! Large `ptxcc.copy_param` -> a copy loop of the widest access the alignment
//! allows (seed 001, "Vectorized Copies"); the code's own `memcpy` and
//! `memset` above 64 bytes likewise ([`expand_memory_intrinsics`]).
//!
//! Above `inline-copy-threshold` a copy used to become `llvm.intr.memcpy`,
//! which llc's NVPTXLowerAggrCopies expands into a loop of one byte per
//! iteration (NVPTX asks for `i8` as the memcpy loop type): a 1 KB byval
//! struct was copied with 1,024 iterations of `ld.param.b8` /
//! `st.local.b8`. This expansion emits the loop itself, one
//! `ld.param.v4.b32` / `st.local.v4.b32` pair per iteration where both sides
//! are 16-aligned (64 iterations for 1 KB), and the bytes after the last
//! whole step unrolled:
//!
//! ```text
//! // before                                  // after
//! ^bb0:                                      ^bb0:
//!   "ptxcc.copy_param"(%p, %slot)              %d = llvm.addrspacecast %slot : ptr<5> to ptr
//!     {size = 1028, alignment = 16}            llvm.br ^loop(%c0 : i64)
//!   ...                                      ^loop(%i: i64):
//!                                              %s = llvm.getelementptr %p[%i] : (ptr<101>, i64) -> ptr<101>, i8
//!                                              %v = llvm.load %s {alignment = 16} : ptr<101> -> vector<4xi32>
//!                                              %t = llvm.getelementptr %d[%i] : (ptr, i64) -> ptr, i8
//!                                              llvm.store %v, %t {alignment = 16}
//!                                              %n = llvm.add %i, %c16 : i64
//!                                              %more = llvm.icmp "ult" %n, %c1024 : i64
//!                                              llvm.cond_br %more, ^loop(%n : i64), ^rest
//!                                                {loop_annotation = #llvm.loop_annotation<
//!                                                   unroll = #llvm.loop_unroll<disable = true>>}
//!                                            ^rest:
//!                                              (bytes 1024..1028: one i32 load and store)
//!                                              ...
//! ```
//!
//! The loop is marked not to be unrolled (llc writes `.pragma "nounroll"`):
//! ptxas unrolled it fully otherwise, and the copy then took more registers
//! than llc's byte loop.
//!
//! The destination is addressed through its generic cast, as the inline copy
//! does (llc 22 aborts on a GEP of an `addrspace(5)` alloca); llc's
//! address-space inference turns the stores into `st.local`.
//!
//! `llc` 22 makes every `memcpy`, `memmove` and `memset` longer than 64
//! bytes a byte loop too, before its SROA ([`LLC_EXPANDS_ABOVE`]). A
//! `memcpy` or `memset` of the code's own, of a constant length above that,
//! becomes the same loop (a `memset` of a constant byte unrolled when at
//! most 64 stores do), or, into or out of a slot SROA breaks up, one integer
//! access per field, which SROA splits and deletes (an 80-byte struct read
//! from global memory: 0 bytes of stack and 14 registers, where llc alone
//! keeps 80 bytes and takes 32):
//!
//! ```text
//! // before
//! "llvm.intr.memset"(%out, %c7, %c1002) <{arg_attrs = [{llvm.align = 4 : i64}, {}, {}], isVolatile = false}>
//!   : (!llvm.ptr<1>, i8, i64) -> ()
//! // after: 250 iterations of one i32 store, then one i16
//!   %v = llvm.mlir.constant(117901063 : i32) : i32     // 0x07070707
//!   llvm.br ^loop(%c0 : i64)
//! ^loop(%i: i64):
//!   %t = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
//!   llvm.store %v, %t {alignment = 4 : i64} : i32, !llvm.ptr<1>
//!   ...
//! ```

use crate::ir::LlvmOp;
use melior::{
    dialect::llvm,
    ir::{
        attribute::DenseI32ArrayAttribute,
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, Block, BlockRef, Identifier, Location, Operation, OperationRef, RegionLike, Type, TypeLike, Value,
        ValueLike,
    },
    Context,
};
use ptxcc_dialect::{address_space, names, types::pointer_address_space, types::pointer_type};

use super::copy_param::{aligned, inline_copy_plan, plan_field_copy, plan_inline_copy, slot_type, Access, AccessKind};
use super::ConvertPtxccToLlvmOptions;
use crate::{
    abi::layout::{common_alignment, DataLayout},
    ir::{
        addrspacecast, first_result, integer_attribute, integer_constant, op_name, wide_integer_constant, BlockExt,
        OperationExt,
    },
    slots,
};

/// The width of one iteration of the copy loop for buffers aligned to
/// `alignment`: the widest access it allows (16 bytes with `vector_copy`, 8
/// without).
pub fn loop_step(alignment: u64, vector_copy: bool) -> u64 {
    alignment.clamp(1, if vector_copy { 16 } else { 8 })
}

/// Whether `copy` (a `ptxcc.copy_param`) becomes a copy loop under
/// `options`: not inlined ([`inline_copy_plan`]: above the inline threshold,
/// or holding more registers than an inline copy may), at least one step
/// long, into a slot that llc's SROA will not break up (those get the
/// field-by-field copy at any size); 1-aligned copies too, one byte per
/// iteration. Sizes are at most 32764 bytes (verified).
fn wants_loop(copy: OperationRef, options: &ConvertPtxccToLlvmOptions) -> bool {
    let (Some(size), Some(alignment)) = (integer_attribute(copy, "size"), integer_attribute(copy, "alignment")) else {
        return false;
    };
    let (Ok(size), Ok(alignment)) = (u64::try_from(size), u64::try_from(alignment)) else { return false };
    let Ok(dst) = copy.operand_at(1) else { return false };
    let step = loop_step(alignment, options.vector_copy);
    // The loop runs its first step untested: a copy smaller than one step
    // is unrolled instead (it copied a whole step into a smaller slot).
    // (1-aligned copies too: llc expands a small memcpy inline, and ptxas
    // then holds every byte in a register: 53 for 38 bytes, fuzz seed 1003.)
    inline_copy_plan(size, alignment, options.vector_copy, options.inline_copy_threshold).is_none()
        && size >= step
        && !slots::breakable(dst)
}

/// Expands every large `ptxcc.copy_param` inside `root` into a copy loop
/// (see the module documentation); the others are left for the patterns.
/// Returns how many were expanded.
pub fn expand_copy_loops(root: OperationRef, options: &ConvertPtxccToLlvmOptions) -> usize {
    let copies: Vec<_> = std::iter::once(root)
        .chain(crate::ir::nested_ops(root))
        .filter(|op| op_name(*op) == names::COPY_PARAM && wants_loop(*op, options))
        .collect();
    let mut rewriter = crate::ir::Rewriter::new();
    for copy in &copies {
        expand(*copy, options.vector_copy, &mut rewriter);
    }
    copies.len()
}

/// Whether `op`, after a copy in the entry block `entry`, stays there: a
/// constant, or an alloca whose operands are all still in `entry` (defined
/// before the copy, or constants that stay).
fn stays_in_entry(op: OperationRef, entry: BlockRef) -> bool {
    match LlvmOp::of(op) {
        LlvmOp::Constant => true,
        LlvmOp::Alloca => (0..op.operand_count()).all(|index| {
            op.operand_at(index).ok().is_some_and(|operand| match crate::ir::as_result(operand) {
                Some(result) => result.owner().block() == Some(entry),
                None => true,
            })
        }),
        _ => false,
    }
}

/// Inserts `op` before `before`, or at the end of `block`.
fn insert<'c, 'a>(
    block: BlockRef<'c, 'a>,
    before: Option<OperationRef<'c, 'a>>,
    op: Operation<'c>,
) -> OperationRef<'c, 'a> {
    match before {
        Some(anchor) => block.insert_operation_before(anchor, op),
        None => block.append_operation(op),
    }
}

/// [`insert`]s `op` and returns its first result.
fn place<'c, 'a>(block: BlockRef<'c, 'a>, before: Option<OperationRef<'c, 'a>>, op: Operation<'c>) -> Value<'c, 'a> {
    let result = first_result(insert(block, before, op)).expect("the op has a result");
    result
}

fn expand(copy: OperationRef, vector_copy: bool, rewriter: &mut crate::ir::Rewriter) {
    let src = copy.operand_at(0).expect("copy_param has a source");
    let dst = copy.operand_at(1).expect("copy_param has a destination");
    let size = integer_attribute(copy, "size").and_then(|s| u64::try_from(s).ok()).expect("checked");
    let alignment = integer_attribute(copy, "alignment").and_then(|a| u64::try_from(a).ok()).expect("checked");
    emit_loop(copy, Bytes::From(src), dst, size, alignment, vector_copy, rewriter);
}

/// What a loop writes: the bytes of a source, or one byte value repeated.
#[derive(Clone, Copy)]
enum Bytes<'c, 'a> {
    /// Copied from this pointer.
    From(Value<'c, 'a>),
    /// This byte, repeated (a `memset` of a constant).
    Repeated(u8),
}

/// The constant of `kind`'s type whose every byte is `byte` (a pointer
/// field is filled with the bytes as an `i64`).
fn splat<'c>(byte: u8, kind: AccessKind, context: &'c Context, location: Location<'c>) -> Operation<'c> {
    let ty = if kind == AccessKind::Ptr { IntegerType::new(context, 64).into() } else { kind.r#type(context) };
    match kind {
        AccessKind::V4I32 => {
            let lane = i32::from_le_bytes([byte; 4]);
            let value =
                Attribute::parse(context, &format!("dense<{lane}> : vector<4xi32>")).expect("a splat vector attribute");
            OperationBuilder::new(LlvmOp::Constant.name(), location)
                .add_attributes(&[(Identifier::new(context, "value"), value)])
                .add_results(&[ty])
                .build()
                .expect("a valid constant")
        }
        _ => wide_integer_constant(ty, u128::from_le_bytes([byte; 16]), location),
    }
}

/// Replaces `op` (with no results) by a loop writing `size` bytes at `dst`
/// (both sides aligned to `alignment`): one access of the widest width the
/// alignment allows per iteration ([`loop_step`]), the tail unrolled after
/// it. The ops after `op` move to the block the loop exits to, except
/// constant-size allocas of the entry block (see the module
/// documentation).
fn emit_loop<'c, 'a>(
    op: OperationRef<'c, 'a>,
    bytes: Bytes<'c, 'a>,
    mut dst: Value<'c, 'a>,
    size: u64,
    alignment: u64,
    vector_copy: bool,
    rewriter: &mut crate::ir::Rewriter,
) {
    let context: &'c Context = crate::ir::context_of(op);
    let location = op.location();
    let step = loop_step(alignment, vector_copy);
    let body = size / step * step;
    let block = op.block().expect("the op is in a block");
    let region = block.parent_region().expect("the block is in a region");
    let i64_type: Type = IntegerType::new(context, 64).into();
    let i8_type: Type = IntegerType::new(context, 8).into();

    // The rest of the block, from the op after the copy on, moves to a new
    // block that the loop exits to; but in the entry block its allocas of
    // a constant size stay there (with the constants they take): an alloca
    // anywhere else is a dynamic one to llc, which then kept a pointer slot
    // its own frame drops (fuzz seed 1003: 88 bytes of stack for llc's 80).
    let rest = region.insert_block_after(block, Block::new(&[]));
    let in_entry = crate::kernel::enclosing_function(op).and_then(crate::kernel::entry_block) == Some(block);
    let mut next = op.next_in_block();
    while let Some(later) = next {
        next = later.next_in_block();
        if in_entry && stays_in_entry(later, block) {
            rewriter.move_before(later, op);
        } else {
            // `rest` takes ownership; the order is kept.
            rewriter.move_to_end(later, rest);
        }
    }
    let looped = region.insert_block_after(block, Block::new(&[(i64_type, location)]));

    // Before the loop: generic local pointers (llc aborts on a GEP of an
    // `addrspace(5)` alloca), the repeated value and the first index.
    dst = generic_if_local(block, op, dst);
    let bytes = bytes.generic_if_local(block, op);
    let kind = AccessKind::of_width(step);
    let repeated = match bytes {
        Bytes::Repeated(byte) => Some(place(block, Some(op), splat(byte, kind, context, location))),
        Bytes::From(_) => None,
    };
    let zero = place(block, Some(op), integer_constant(i64_type, 0, location));
    block.insert_operation_before(
        op,
        OperationBuilder::new(LlvmOp::Br.name(), location)
            .add_operands(&[zero])
            .add_successors(&[&looped])
            .build()
            .expect("a valid branch"),
    );

    // The loop: one access of `step` bytes per iteration.
    let index: Value = looped.argument_at(0).expect("the loop block has an index").into();
    let value = match (bytes, repeated) {
        (Bytes::From(src), _) => {
            let from = place(
                looped,
                None,
                llvm::get_element_ptr_dynamic(context, src, &[index], i8_type, src.r#type(), location),
            );
            place(looped, None, llvm::load(context, from, kind.r#type(context), location, aligned(context, step)))
        }
        (Bytes::Repeated(_), repeated) => repeated.expect("made before the loop"),
    };
    let to =
        place(looped, None, llvm::get_element_ptr_dynamic(context, dst, &[index], i8_type, dst.r#type(), location));
    looped.append_operation(llvm::store(context, value, to, location, aligned(context, step)));
    let step_value = place(looped, None, integer_constant(i64_type, step as i64, location));
    let advanced = place(
        looped,
        None,
        OperationBuilder::new(LlvmOp::Add.name(), location)
            .add_operands(&[index, step_value])
            .add_results(&[i64_type])
            .build()
            .expect("a valid add"),
    );
    let limit = place(looped, None, integer_constant(i64_type, body as i64, location));
    let unsigned_less = Attribute::parse(context, "6 : i64").expect("an ICmpPredicate (ult)");
    let more = place(
        looped,
        None,
        OperationBuilder::new(LlvmOp::ICmp.name(), location)
            .add_attributes(&[(Identifier::new(context, "predicate"), unsigned_less)])
            .add_operands(&[advanced, limit])
            .add_results(&[IntegerType::new(context, 1).into()])
            .build()
            .expect("a valid compare"),
    );
    // Not unrolled, by LLVM or by ptxas (llc writes `.pragma "nounroll"`):
    // ptxas unrolled the 64 iterations of a 1 KB copy fully and kept its
    // loads in flight, 42 registers where llc's byte loop takes 31 and this
    // loop 22 (ptxas -v, sm_90; docs/guide/measurements.md).
    let no_unroll = Attribute::parse(context, "#llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>")
        .expect("a valid loop annotation");
    looped.append_operation(
        OperationBuilder::new(LlvmOp::CondBr.name(), location)
            .add_attributes(&[
                (
                    Identifier::new(context, "operandSegmentSizes"),
                    DenseI32ArrayAttribute::new(context, &[1, 1, 0]).into(),
                ),
                (Identifier::new(context, "loop_annotation"), no_unroll),
            ])
            .add_operands(&[more, advanced])
            .add_successors(&[&looped, &rest])
            .build()
            .expect("a valid conditional branch"),
    );

    // After the loop: the tail, unrolled (loads first, then stores).
    let first = rest.first_operation();
    let tail = plan_inline_copy(size - body, common_alignment(alignment, body as i64), vector_copy);
    write_unrolled(rest, first, bytes, dst, body, &tail, location);
    let erased = rewriter.erase(op);
    debug_assert!(erased, "the op has no results");
}

impl<'c, 'a> Bytes<'c, 'a> {
    /// The same bytes, a local source read through its generic cast
    /// ([`generic_if_local`]).
    fn generic_if_local(self, block: BlockRef<'c, 'a>, op: OperationRef<'c, 'a>) -> Self {
        match self {
            Self::From(src) => Self::From(generic_if_local(block, op, src)),
            repeated => repeated,
        }
    }
}

/// `pointer`, or its cast to generic before `op` (in `block`) where it is
/// a local one: `llc` 22's NVPTXLowerAlloca replaces every use of an
/// `addrspace(5)` alloca with a generic cast, which leaves a GEP on it in
/// the wrong address space, and `llc` aborts; its address-space inference
/// still makes the accesses `ld/st.local`.
fn generic_if_local<'c, 'a>(
    block: BlockRef<'c, 'a>,
    op: OperationRef<'c, 'a>,
    pointer: Value<'c, 'a>,
) -> Value<'c, 'a> {
    if pointer_address_space(pointer.r#type()) != Some(address_space::LOCAL) {
        return pointer;
    }
    let context: &Context = crate::ir::context_of(op);
    place(block, Some(op), addrspacecast(pointer, pointer_type(context, address_space::GENERIC), op.location()))
}

/// Inserts before `before` in `block` the accesses of `plan`, `start`
/// bytes into `dst` (and into the source, when `bytes` copies): every load
/// first, then the stores (llc keeps wide pairs that way).
fn write_unrolled<'c, 'a>(
    block: BlockRef<'c, 'a>,
    before: Option<OperationRef<'c, 'a>>,
    bytes: Bytes<'c, 'a>,
    dst: Value<'c, 'a>,
    start: u64,
    plan: &[Access],
    location: Location<'c>,
) {
    let context: &Context = crate::ir::context_ref(TypeLike::context(&dst.r#type()));
    let i8_type: Type = IntegerType::new(context, 8).into();
    // `offset` bytes after `start` in `base`.
    let byte_address = |base: Value<'c, 'a>, offset: u64| {
        let offset = DenseI32ArrayAttribute::new(context, &[(start + offset) as i32]);
        place(block, before, llvm::get_element_ptr(context, base, offset, i8_type, base.r#type(), location))
    };
    let parts: Vec<_> = plan
        .iter()
        .map(|access| match bytes {
            Bytes::From(src) => {
                let from = byte_address(src, access.offset);
                let load =
                    llvm::load(context, from, access.kind.r#type(context), location, aligned(context, access.align));
                place(block, before, load)
            }
            Bytes::Repeated(byte) => place(block, before, splat(byte, access.kind, context, location)),
        })
        .collect();
    for (access, value) in plan.iter().zip(parts) {
        let to = byte_address(dst, access.offset);
        insert(block, before, llvm::store(context, value, to, location, aligned(context, access.align)));
    }
}

/// Memory intrinsics above this many bytes become a loop of one byte per
/// iteration in `llc` 22: its PreISelIntrinsicLowering expands every
/// `memcpy`, `memmove` and `memset` longer than the target's
/// `getMaxMemIntrinsicInlineSizeThreshold` (NVPTX keeps LLVM's default, 64;
/// it has no libcall to call instead), before its SROA runs, with the loop
/// type NVPTX asks for (`i8`, whatever the alignment).
pub const LLC_EXPANDS_ABOVE: u64 = 64;

/// The most accesses a `memset` above [`LLC_EXPANDS_ABOVE`] is unrolled
/// into (stores of a constant hold no register, and SROA splits them where
/// a loop keeps the slot); longer ones are a loop. 64: with 16, Warp's
/// float16/32/64 spatial-matrix backward kernels kept 144 to 576 more
/// bytes of stack, and a tile kernel's 100-byte fill in a loop took 4 more
/// registers than llc's byte loop (ptxas 13.5, sm_90).
pub const MAX_UNROLLED_FILL: usize = 64;

/// Expands every `llvm.intr.memcpy` and `llvm.intr.memset` inside `root`
/// that `llc` would make a byte loop ([`LLC_EXPANDS_ABOVE`]) and whose
/// alignment allows wider accesses, unless LLVM's optimizer runs after
/// ptxcc on its function (its SROA splits such copies; a loop would keep
/// the slot): a copy becomes a loop of the widest aligned access, a fill of
/// a constant byte the same, or at most [`MAX_UNROLLED_FILL`] stores. Left
/// alone: volatile ones, lengths that are not constants, fills of a
/// variable byte, `memmove` (the direction depends on the overlap), the
/// `.inline` forms (never expanded into loops), and 1-aligned ones (the
/// loop would be llc's). Returns how many were expanded.
pub fn expand_memory_intrinsics(root: OperationRef, options: &ConvertPtxccToLlvmOptions) -> usize {
    let chosen: Vec<_> = std::iter::once(root)
        .chain(crate::ir::nested_ops(root))
        .filter_map(|op| widened(op, options).map(|plan| (op, plan)))
        .collect();
    let mut rewriter = crate::ir::Rewriter::new();
    for (op, (bytes_of, size, alignment)) in &chosen {
        // Its constant length and byte go with it where nothing else uses them.
        for operand in [1, 2].into_iter().filter_map(|index| op.operand_at(index).ok()) {
            if let Some(constant) = crate::kernel::defining_op(operand, LlvmOp::Constant) {
                rewriter.erase_later_if_unused(constant);
            }
        }
        let dst = op.operand_at(0).expect("a memory intrinsic has a destination");
        let bytes = match bytes_of {
            Some(byte) => Bytes::Repeated(*byte),
            None => Bytes::From(op.operand_at(1).expect("a memcpy has a source")),
        };
        // Into or out of a slot llc's SROA can break up: one integer access
        // per field, every byte once, which SROA splits (as copy_param's).
        let fields = |pointer: Value| {
            let ty = slots::breakable(pointer).then(|| slot_type(pointer)).flatten()?;
            plan_field_copy(DataLayout::nvptx64(), &ty, *size, *alignment)
        };
        let unrolled = match bytes {
            Bytes::From(src) => fields(dst).or_else(|| fields(src)),
            Bytes::Repeated(_) => fields(dst).or_else(|| {
                Some(plan_inline_copy(*size, *alignment, options.vector_copy))
                    .filter(|plan| plan.len() <= MAX_UNROLLED_FILL)
            }),
        };
        if let Some(plan) = unrolled {
            let block = op.block().expect("the op is in a block");
            let dst = generic_if_local(block, *op, dst);
            let bytes = bytes.generic_if_local(block, *op);
            write_unrolled(block, Some(*op), bytes, dst, 0, &plan, op.location());
            let erased = rewriter.erase(*op);
            debug_assert!(erased, "a memory intrinsic has no results");
        } else {
            emit_loop(*op, bytes, dst, *size, *alignment, options.vector_copy, &mut rewriter);
        }
    }
    rewriter.flush();
    chosen.len()
}

/// For a memory intrinsic [`expand_memory_intrinsics`] takes: the repeated
/// byte (`None` for a copy), the length and the alignment both sides have.
fn widened(op: OperationRef, options: &ConvertPtxccToLlvmOptions) -> Option<(Option<u8>, u64, u64)> {
    let kind = LlvmOp::of(op);
    if !matches!(kind, LlvmOp::Memcpy | LlvmOp::Memset) {
        return None;
    }
    let intrinsic = crate::ir::MemIntrinsic::of(op)?;
    let size = u64::try_from(intrinsic.constant_length()?).ok()?;
    if intrinsic.is_volatile() || size <= LLC_EXPANDS_ABOVE || size > i32::MAX as u64 {
        return None;
    }
    // In the function's own body: a loop splits the block, which a
    // single-block region of another op cannot take.
    let func = crate::kernel::enclosing_function(op)?;
    if options.llvm_opt_after.applies_to(func) || op.block()?.parent_operation() != Some(func) {
        return None;
    }
    let mut alignment = known_alignment(op, 0);
    let byte = match intrinsic.fill_value() {
        Some(value) => Some(crate::ir::constant_int(value)? as u8),
        None => {
            alignment = alignment.min(known_alignment(op, 1));
            None
        }
    };
    let alignment = alignment.min(16);
    (loop_step(alignment, options.vector_copy) > 1).then_some((byte, size, alignment))
}

/// The alignment known for the pointer operand `index` of `op`: its
/// `llvm.align`, or that of the stack slot it points into at a constant
/// offset (through casts and GEPs: `memory-space-opt` gave the intrinsic
/// the slot's local view), whichever is larger; 1 when neither says.
fn known_alignment(op: OperationRef, index: usize) -> u64 {
    let declared = crate::kernel::operand_alignment(op, index);
    let in_slot = op
        .operand_at(index)
        .ok()
        .and_then(slots::slot_offset)
        .and_then(|(slot, offset)| {
            let align = crate::ir::Alloca::of(crate::ir::as_result(slot)?.owner())?.alignment()?;
            Some(common_alignment(u64::try_from(align).ok()?, offset))
        })
        .unwrap_or(1);
    declared.max(in_slot)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(16, true, 16)]
    #[case(32, true, 16)]
    #[case(16, false, 8)]
    #[case(8, true, 8)]
    #[case(4, true, 4)]
    #[case(1, true, 1)]
    fn steps_by_the_widest_aligned_access(#[case] alignment: u64, #[case] vector_copy: bool, #[case] step: u64) {
        assert_eq!(loop_step(alignment, vector_copy), step);
    }
}
