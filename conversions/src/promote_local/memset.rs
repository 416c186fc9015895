//! `memset`s of a promoted array, written as the stores SROA needs.
//!
//! `llc` expands every `llvm.memset` into a loop of byte stores (NVPTX has
//! no `memset`; NVPTXLowerAggrCopies runs before its SROA), and a loop
//! that writes the array through a dynamic index keeps it in local memory
//! however constant its other indices are: clang writes `float acc[8][8] =
//! {}` as a 256-byte `memset`. A `memset` of a promoted array with a
//! constant value and length becomes one store per scalar it covers (the
//! value repeated in every byte; floats only for 0), at the array's own
//! element types, which SROA turns into the registers' first values.

use crate::ir::{LlvmOp, Rewriter};
use melior::{
    dialect::llvm::{self, LoadStoreOptions},
    ir::{
        attribute::{DenseI32ArrayAttribute, FloatAttribute, IntegerAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Identifier, OperationRef, Type, Value, ValueLike,
    },
};

use crate::{
    abi::{
        layout::{common_alignment, AbiType},
        mlir::abi_type,
        DataLayout,
    },
    context::context_of,
    ir::{as_llvm_struct, constant_int, first_result, float_type, integer_width, llvm_array, FloatType},
};

/// The scalars of `ty` (at byte offset `base`): offset and type of each,
/// in order; `None` when `ty` holds something else (a vector, a pointer).
fn scalars<'c>(layout: &DataLayout, ty: Type<'c>, base: u64, out: &mut Vec<(u64, Type<'c>)>) -> Option<()> {
    if let Some((element, count)) = llvm_array(ty) {
        let size = layout.alloc_size(&abi_type(element).ok()?);
        for index in 0..count {
            scalars(layout, element, base + index * size, out)?;
        }
        return Some(());
    }
    if let Some(body) = as_llvm_struct(ty) {
        let AbiType::Struct(abi) = abi_type(ty).ok()? else { return None };
        let offsets = layout.struct_layout(&abi).offsets;
        for (field, offset) in body.fields().into_iter().zip(offsets) {
            scalars(layout, field, base + offset, out)?;
        }
        return Some(());
    }
    if integer_width(ty).is_some_and(|w| w <= 64) || float_type(ty).is_some() {
        out.push((base, ty));
        return Some(());
    }
    None
}

/// Writes every `memset` of the alloca `alloca` (directly or through
/// constant GEPs and casts) with a constant value and length as stores;
/// the memsets go to `erase`. A memset it cannot write so (a scalar cut by
/// its ends, a float for a byte other than 0, a vector) stays.
pub fn expand_memsets(alloca: OperationRef, rewriter: &mut Rewriter) {
    let layout = DataLayout::nvptx64();
    let Some(root) = first_result(alloca) else { return };
    let Some(element) = crate::ir::Alloca::of(alloca).and_then(crate::ir::Alloca::element_type) else { return };
    let count = crate::abi::frame::alloca_count(alloca).unwrap_or(1);
    let mut leaves = Vec::new();
    let Ok(element_size) = abi_type(element).map(|t| layout.alloc_size(&t)) else { return };
    for index in 0..u64::try_from(count).unwrap_or(0) {
        if scalars(layout, element, index * element_size, &mut leaves).is_none() {
            return;
        }
    }
    let align = u64::try_from(crate::ir::Alloca::of(alloca).and_then(crate::ir::Alloca::alignment).unwrap_or(1))
        .unwrap_or(1)
        .max(1);
    let _ = super::candidates::walk(root, |used, offset| {
        let op = used.owner;
        if let ((LlvmOp::Memset, 0), Some(offset)) = ((LlvmOp::of(op), used.index), offset) {
            if expand(op, root, offset, &leaves, align) {
                rewriter.erase_later(op);
            }
        }
        Ok::<(), ()>(())
    });
}

/// Writes the memset `memset` (of the bytes from `offset` of the alloca
/// `root`) as stores before it; `false` (nothing written) when it cannot.
fn expand(memset: OperationRef, root: Value, offset: i64, leaves: &[(u64, Type)], align: u64) -> bool {
    let Some(fill) = crate::ir::MemIntrinsic::of(memset).filter(|fill| !fill.is_volatile()) else { return false };
    let (Some(byte), Some(length)) = (fill.fill_value().and_then(constant_int), fill.constant_length()) else {
        return false;
    };
    let (Ok(start), Ok(length)) = (u64::try_from(offset), u64::try_from(length)) else { return false };
    let end = start + length;
    let byte = (byte as u64) & 0xff;
    let layout = DataLayout::nvptx64();
    let mut stores = Vec::new();
    for &(at, ty) in leaves {
        let Ok(size) = abi_type(ty).map(|t| layout.store_size(&t)) else { return false };
        if at + size <= start || at >= end {
            continue;
        }
        if at < start || at + size > end {
            return false;
        }
        let bits = (0..size).fold(0u64, |acc, _| (acc << 8) | byte);
        match float_type(ty) {
            Some(_) if byte != 0 => return false,
            Some(FloatType::Other(_)) => return false,
            _ => {}
        }
        stores.push((at, ty, bits));
    }
    let context = context_of(memset);
    let location = memset.location();
    let Some(block) = memset.block() else { return false };
    // One constant per type and value.
    let mut constants: Vec<(Type, u64, Value)> = Vec::new();
    for (at, ty, bits) in stores {
        let known = constants.iter().find(|(t, b, _)| *t == ty && *b == bits).map(|(_, _, v)| *v);
        let constant = match known {
            Some(constant) => constant,
            None => {
                let attribute = match float_type(ty) {
                    Some(_) => FloatAttribute::new(context, ty, 0.0).into(),
                    None => IntegerAttribute::new(ty, bits as i64).into(),
                };
                let constant = OperationBuilder::new(LlvmOp::Constant.name(), location)
                    .add_attributes(&[(Identifier::new(context, "value"), attribute)])
                    .add_results(&[ty])
                    .build()
                    .expect("a scalar constant is valid");
                let Some(constant) = first_result(block.insert_operation_before(memset, constant)) else {
                    return false;
                };
                constants.push((ty, bits, constant));
                constant
            }
        };
        let mut address = root;
        if at > 0 {
            let gep = llvm::get_element_ptr(
                context,
                root,
                DenseI32ArrayAttribute::new(context, &[at as i32]),
                IntegerType::new(context, 8).into(),
                root.r#type(),
                location,
            );
            let Some(gep) = first_result(block.insert_operation_before(memset, gep)) else { return false };
            address = gep;
        }
        let alignment = common_alignment(align, at as i64) as i64;
        let i64_type = IntegerType::new(context, 64).into();
        let store = llvm::store(
            context,
            constant,
            address,
            location,
            LoadStoreOptions::new().align(Some(IntegerAttribute::new(i64_type, alignment))),
        );
        block.insert_operation_before(memset, store);
    }
    true
}
