//! Written `byval` parameters of device functions, as slots SROA promotes.
//!
//! A device function that writes its `byval` parameter writes the `.param`
//! itself: `llc` takes the parameter's address, which PTX makes a `.local`
//! copy (ptxas adds it to the frame). Where every use of the parameter is
//! a load or a store at a constant offset, a copy of the parameter into a
//! slot of its own, with every use moved to the slot, lets SROA keep the
//! aggregate in registers: `ld.param` of each field, and `st.param` into
//! the next call's `.param` where it is passed on, as nvcc does (issue
//! 31's `scale`). Parameters of at most [`COPY_LIMIT`] bytes, the sixteen
//! registers one copy keeps in flight.
//!
//! The copy moves every byte ([`super::bytes`]): each leaf at the type it
//! is stored as, and the padding between them. (A load and store of the
//! aggregate type would move its fields only: a read of 8 bytes over
//! `{i32, f64}`'s first field and padding would see the slot's bytes, not
//! the caller's.)

use melior::dialect::llvm::{self, LoadStoreOptions};
use melior::ir::{
    attribute::{IntegerAttribute, TypeAttribute},
    block::BlockLike,
    operation::OperationLike,
    r#type::IntegerType,
    Location, OperationRef, Type, Value, ValueLike,
};

use ptxcc_dialect::types::pointer_address_space;

use super::bytes::{gaps, leaves, Leaves};
use crate::{
    abi::{layout::common_alignment, mlir::abi_type, DataLayout},
    context::context_of,
    ir::{as_result, byte_address, first_result, BlockExt},
    kernel::{entry_block, is_kernel, parameter_attribute, parameter_integer, LLVM_BYVAL},
};

/// The largest parameter copied (bytes).
pub const COPY_LIMIT: u64 = 64;

/// Copies every written `byval` parameter of the device function `func`
/// whose uses SROA can follow into a slot (see the module documentation),
/// in order, while their bytes stay within `budget`; returns the location
/// and size of each copied parameter.
pub fn copy_written_byval<'c, 'a>(
    func: OperationRef<'c, 'a>,
    budget: u64,
    rewriter: &crate::ir::Rewriter,
) -> Vec<(Location<'c>, u64)> {
    let mut left = budget;
    let mut copied = Vec::new();
    if is_kernel(func) {
        return copied;
    }
    let Some(entry) = entry_block(func) else { return copied };
    let layout = DataLayout::nvptx64();
    for index in 0..entry.argument_count() {
        let Some(byval) = parameter_attribute(func, index, LLVM_BYVAL) else { continue };
        let Ok(ty) = TypeAttribute::try_from(byval).map(|t| t.value()) else { continue };
        let Ok(argument) = entry.argument_at(index) else { continue };
        let argument: Value = argument.into();
        if pointer_address_space(argument.r#type()) != Some(0) {
            continue;
        }
        let Ok(abi) = abi_type(ty) else { continue };
        let size = layout.alloc_size(&abi);
        if size == 0 || size > COPY_LIMIT || size > left || !crate::slots::written_at_constant_offsets(argument, false)
        {
            continue;
        }
        left -= size;
        // Aligned as llc aligns its copy (issue 41's rule B), or as the
        // accesses through the parameter claim.
        let declared = parameter_integer(func, index, "llvm.align").and_then(|a| u64::try_from(a).ok());
        let type_align = layout.abi_align(&abi);
        let at_most = declared.unwrap_or(1).max(type_align);
        let align = crate::pointer_uses::copy_alignment(type_align, declared, at_most, || {
            crate::pointer_uses::claimed_alignment(argument, layout, |_, _| None)
        }) as i64;
        let context = context_of(func);
        let location = func.location();
        let i32_type = IntegerType::new(context, 32).into();
        let Some(pieces) = pieces(ty) else { continue };
        let Some(first) = entry.first_operation() else { continue };
        let one = entry.insert_operation_before(first, crate::ir::integer_constant(i32_type, 1, location));
        let Some(one) = first_result(one) else { continue };
        let slot = crate::ir::alloca(one, ty, align, argument.r#type(), location);
        let Some(slot) = first_result(entry.insert_operation_before(first, slot)) else { continue };
        let mut reads = Vec::new();
        for (at, piece) in pieces {
            let (from, to) = (byte_address(first, argument, at, location), byte_address(first, slot, at, location));
            let aligned = || {
                let alignment = common_alignment(align as u64, at as i64) as i64;
                LoadStoreOptions::new()
                    .align(Some(IntegerAttribute::new(IntegerType::new(context, 64).into(), alignment)))
            };
            let load = entry.insert_operation_before(first, llvm::load(context, from, piece, location, aligned()));
            let Some(value) = first_result(load) else { continue };
            entry.insert_operation_before(first, llvm::store(context, value, to, location, aligned()));
            reads.push(load);
            if let Some(gep) = as_result(from).map(|r| r.owner()) {
                reads.push(gep);
            }
        }
        rewriter.replace_uses_except(argument, slot, &reads);
        copied.push((location, size));
    }
    copied
}

/// The pieces a copy of a value of type `ty` moves, in order of offset:
/// every leaf and every gap between them ([`super::bytes`]); `None` when a
/// leaf has no layout.
fn pieces(ty: Type) -> Option<Vec<(u64, Type)>> {
    let context = crate::ir::context_ref(melior::ir::TypeLike::context(&ty));
    let found = leaves(ty, Leaves::Any)?;
    let size = abi_type(ty).ok().map(|t| DataLayout::nvptx64().alloc_size(&t))?;
    let covered: Option<Vec<(u64, u64)>> =
        found.iter().map(|(at, piece)| super::bytes::store_size(*piece).map(|bytes| (*at, bytes))).collect();
    let mut pieces = found;
    for (at, bytes) in gaps(&covered?, 0, size) {
        pieces.push((at, IntegerType::new(context, (bytes * 8) as u32).into()));
    }
    pieces.sort_by_key(|(at, _)| *at);
    Some(pieces)
}
