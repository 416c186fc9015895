//! Written `byval` parameters of device functions, as slots SROA promotes.
//!
//! A device function that writes its `byval` parameter writes the `.param`
//! itself: `llc` takes the parameter's address, which PTX makes a `.local`
//! copy (ptxas adds it to the frame). Where every use of the parameter is
//! a load or a store at a constant offset, a load of the whole aggregate
//! from the parameter into a slot of its own, with every use moved to the
//! slot, lets SROA keep the aggregate in registers: `ld.param` of each
//! field, and `st.param` into the next call's `.param` where it is passed
//! on, as nvcc does (issue 31's `scale`). Parameters of at most
//! [`COPY_LIMIT`] bytes, the sixteen registers one copy keeps in flight.

use melior::dialect::llvm::{self, LoadStoreOptions};
use melior::ir::{
    attribute::{IntegerAttribute, TypeAttribute},
    block::BlockLike,
    operation::OperationLike,
    r#type::IntegerType,
    Location, OperationRef, Value, ValueLike,
};

use ptxcc_dialect::types::pointer_address_space;

use crate::{
    abi::{mlir::abi_type, DataLayout},
    context::context_of,
    ir::{first_result, BlockExt},
    kernel::{entry_block, is_kernel, parameter_attribute, parameter_integer, LLVM_BYVAL},
};

/// The largest parameter copied (bytes).
pub const COPY_LIMIT: u64 = 64;

/// Copies every written `byval` parameter of the device function `func`
/// whose uses SROA can follow into a slot (see the module documentation),
/// in order, while their bytes stay within `budget`; returns the location
/// and size of each copied parameter.
pub fn copy_written_byval<'c>(
    func: OperationRef<'c, '_>,
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
        let align = parameter_integer(func, index, "llvm.align").unwrap_or(1).max(layout.abi_align(&abi) as i64);
        let context = context_of(func);
        let location = func.location();
        let i32_type = IntegerType::new(context, 32).into();
        let aligned =
            || LoadStoreOptions::new().align(Some(IntegerAttribute::new(IntegerType::new(context, 64).into(), align)));
        let Some(first) = entry.first_operation() else { continue };
        let one = entry.insert_operation_before(first, crate::ir::integer_constant(i32_type, 1, location));
        let Some(one) = first_result(one) else { continue };
        let slot = crate::ir::alloca(one, ty, align, argument.r#type(), location);
        let Some(slot) = first_result(entry.insert_operation_before(first, slot)) else { continue };
        let load = entry.insert_operation_before(first, llvm::load(context, argument, ty, location, aligned()));
        let Some(value) = first_result(load) else { continue };
        entry.insert_operation_before(first, llvm::store(context, value, slot, location, aligned()));
        rewriter.replace_uses_except(argument, slot, &[load]);
        copied.push((location, size));
    }
    copied
}
