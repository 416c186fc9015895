//! Large `ptxcc.copy_param` -> a copy loop of the widest access the alignment
//! allows (seed 001, "Vectorized Copies").
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

use crate::ir::LlvmOp;
use melior::{
    dialect::llvm,
    ir::{
        attribute::DenseI32ArrayAttribute,
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, Block, BlockRef, Identifier, Operation, OperationRef, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use ptxcc_dialect::{address_space, names, types::pointer_address_space, types::pointer_type};

use super::copy_param::{aligned, inline_copy_plan, plan_inline_copy};
use super::ConvertPtxccToLlvmOptions;
use crate::{
    abi::layout::common_alignment,
    ir::{addrspacecast, first_result, integer_attribute, integer_constant, op_name, BlockExt, OperationExt},
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
    let context: &Context = crate::ir::context_of(copy);
    let location = copy.location();
    let src = copy.operand_at(0).expect("copy_param has a source");
    let mut dst = copy.operand_at(1).expect("copy_param has a destination");
    let size = integer_attribute(copy, "size").and_then(|s| u64::try_from(s).ok()).expect("checked");
    let alignment = integer_attribute(copy, "alignment").and_then(|a| u64::try_from(a).ok()).expect("checked");
    let step = loop_step(alignment, vector_copy);
    let body = size / step * step;
    let block = copy.block().expect("copy_param is in a block");
    let region = block.parent_region().expect("the block is in a region");
    let i64_type: Type = IntegerType::new(context, 64).into();
    let i8_type: Type = IntegerType::new(context, 8).into();

    // The rest of the block, from the op after the copy on, moves to a new
    // block that the loop exits to; but in the entry block its allocas of
    // a constant size stay there (with the constants they take): an alloca
    // anywhere else is a dynamic one to llc, which then kept a pointer slot
    // its own frame drops (fuzz seed 1003: 88 bytes of stack for llc's 80).
    let rest = region.insert_block_after(block, Block::new(&[]));
    let in_entry = crate::kernel::enclosing_function(copy).and_then(crate::kernel::entry_block) == Some(block);
    let mut next = copy.next_in_block();
    while let Some(op) = next {
        next = op.next_in_block();
        if in_entry && stays_in_entry(op, block) {
            rewriter.move_before(op, copy);
        } else {
            // `rest` takes ownership; the order is kept.
            rewriter.move_to_end(op, rest);
        }
    }
    let looped = region.insert_block_after(block, Block::new(&[(i64_type, location)]));

    // Before the loop: the generic destination and the first index.
    if pointer_address_space(dst.r#type()) != Some(address_space::GENERIC) {
        dst = place(block, Some(copy), addrspacecast(dst, pointer_type(context, address_space::GENERIC), location));
    }
    let zero = place(block, Some(copy), integer_constant(i64_type, 0, location));
    block.insert_operation_before(
        copy,
        OperationBuilder::new(LlvmOp::Br.name(), location)
            .add_operands(&[zero])
            .add_successors(&[&looped])
            .build()
            .expect("a valid branch"),
    );

    // The loop: one access of `step` bytes per iteration.
    let index: Value = looped.argument_at(0).expect("the loop block has an index").into();
    let kind = super::copy_param::AccessKind::of_width(step);
    let from =
        place(looped, None, llvm::get_element_ptr_dynamic(context, src, &[index], i8_type, src.r#type(), location));
    let value = place(looped, None, llvm::load(context, from, kind.r#type(context), location, aligned(context, step)));
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
    // `offset` bytes after the loop's end in the source (or the destination).
    let byte_address = |in_destination: bool, offset: u64| {
        let base = if in_destination { dst } else { src };
        let offset = DenseI32ArrayAttribute::new(context, &[(body + offset) as i32]);
        place(rest, first, llvm::get_element_ptr(context, base, offset, i8_type, base.r#type(), location))
    };
    let parts: Vec<_> = tail
        .iter()
        .map(|access| {
            let from = byte_address(false, access.offset);
            let load = llvm::load(context, from, access.kind.r#type(context), location, aligned(context, access.align));
            place(rest, first, load)
        })
        .collect();
    for (access, value) in tail.iter().zip(parts) {
        let to = byte_address(true, access.offset);
        insert(rest, first, llvm::store(context, value, to, location, aligned(context, access.align)));
    }
    let erased = rewriter.erase(copy);
    debug_assert!(erased, "a copy_param has no results");
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
