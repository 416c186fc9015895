//! `memset`s of a promoted array, written as the stores SROA needs.
//!
//! `llc` expands every `llvm.memset` into a loop of byte stores (NVPTX has
//! no `memset`; NVPTXLowerAggrCopies runs before its SROA), and a loop
//! that writes the array through a dynamic index keeps it in local memory
//! however constant its other indices are: clang writes `float acc[8][8] =
//! {}` as a 256-byte `memset`. A `memset` of a promoted array with a
//! constant value and length becomes one store per scalar it covers (the
//! value repeated in every byte; a float as `0.0` for the byte 0, else as
//! the integer of its bits), at the array's own element types (an `i1` as
//! the byte, [`super::bytes::memory_type`]), which SROA turns into the
//! registers' first values, and stores of the bytes between them (struct
//! padding, the byte after an `i24`): every byte the `memset` wrote is
//! written ([`super::bytes`]), so a later copy of the whole array reads
//! the same padding.

use crate::ir::{LlvmOp, Rewriter};
use melior::{
    dialect::llvm::{self, LoadStoreOptions},
    ir::{
        attribute::{FloatAttribute, IntegerAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Identifier, OperationRef, Type, Value,
    },
};

use super::bytes::{gaps, leaves, store_size, Leaves};
use crate::{
    abi::{layout::common_alignment, mlir::abi_type, DataLayout},
    context::context_of,
    ir::{byte_address, constant_int, first_result, float_type, integer_width, wide_integer_constant},
};

/// Writes every `memset` of the alloca `alloca` (directly or through
/// constant GEPs and casts) with a constant value and length as stores;
/// the memsets go to `erase`. A memset it cannot write so (a scalar cut by
/// its ends, a vector or pointer in the array) stays.
pub fn expand_memsets(alloca: OperationRef, rewriter: &mut Rewriter) {
    let Some(root) = first_result(alloca) else { return };
    let Some(element) = crate::ir::Alloca::of(alloca).and_then(crate::ir::Alloca::element_type) else { return };
    let count = crate::abi::frame::alloca_count(alloca).unwrap_or(1);
    let Ok(element_size) = abi_type(element).map(|t| DataLayout::nvptx64().alloc_size(&t)) else { return };
    let Some(one) = leaves(element, Leaves::Scalars) else { return };
    let mut all = Vec::new();
    for index in 0..u64::try_from(count).unwrap_or(0) {
        all.extend(one.iter().map(|(at, ty)| (index * element_size + at, *ty)));
    }
    let align = u64::try_from(crate::ir::Alloca::of(alloca).and_then(crate::ir::Alloca::alignment).unwrap_or(1))
        .unwrap_or(1)
        .max(1);
    let _ = super::candidates::walk(root, |used, offset| {
        let op = used.owner;
        if let ((LlvmOp::Memset, 0), Some(offset)) = ((LlvmOp::of(op), used.index), offset) {
            if expand(op, root, offset, &all, align) {
                rewriter.erase_later(op);
            }
        }
        Ok::<(), ()>(())
    });
}

/// Writes the memset `memset` (of the bytes from `offset` of the alloca
/// `root`, whose scalars are `leaves`) as stores before it; `false`
/// (nothing written) when it cannot.
fn expand(memset: OperationRef, root: Value, offset: i64, leaves: &[(u64, Type)], align: u64) -> bool {
    let Some(fill) = crate::ir::MemIntrinsic::of(memset).filter(|fill| !fill.is_volatile()) else { return false };
    let (Some(byte), Some(length)) = (fill.fill_value().and_then(constant_int), fill.constant_length()) else {
        return false;
    };
    let (Ok(start), Ok(length)) = (u64::try_from(offset), u64::try_from(length)) else { return false };
    let end = start + length;
    let byte = (byte as u64) & 0xff;
    let context = context_of(memset);
    let mut stores: Vec<(u64, Type, bool)> = Vec::new();
    let mut covered = Vec::new();
    for &(at, ty) in leaves {
        let Some(size) = store_size(ty) else { return false };
        if at + size <= start || at >= end {
            continue;
        }
        if at < start || at + size > end {
            return false;
        }
        covered.push((at, size));
        // A float of the byte 0 is `0.0`; any other as the integer of its
        // bits.
        match float_type(ty) {
            Some(_) if byte == 0 => stores.push((at, ty, true)),
            Some(_) => stores.push((at, integer(context, size), false)),
            None => stores.push((at, ty, false)),
        }
    }
    for (at, size) in gaps(&covered, start, end) {
        stores.push((at, integer(context, size), false));
    }
    stores.sort_by_key(|(at, _, _)| *at);
    let location = memset.location();
    let Some(block) = memset.block() else { return false };
    // One constant per type.
    let mut constants: Vec<(Type, Value)> = Vec::new();
    for (at, ty, float) in stores {
        let known = constants.iter().find(|(t, _)| *t == ty).map(|(_, v)| *v);
        let constant = match known {
            Some(constant) => constant,
            None => {
                let op = match float {
                    true => OperationBuilder::new(LlvmOp::Constant.name(), location)
                        .add_attributes(&[(
                            Identifier::new(context, "value"),
                            FloatAttribute::new(context, ty, 0.0).into(),
                        )])
                        .add_results(&[ty])
                        .build()
                        .expect("a float constant is valid"),
                    false => {
                        let bits = integer_width(ty).unwrap_or(8);
                        let pattern = (0..bits.div_ceil(8)).fold(0u128, |acc, _| (acc << 8) | u128::from(byte as u8));
                        wide_integer_constant(ty, pattern, location)
                    }
                };
                let Some(constant) = first_result(block.insert_operation_before(memset, op)) else {
                    return false;
                };
                constants.push((ty, constant));
                constant
            }
        };
        let address = byte_address(memset, root, at, location);
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

/// The integer type of `bytes` bytes.
fn integer(context: &melior::Context, bytes: u64) -> Type<'_> {
    IntegerType::new(context, (bytes * 8) as u32).into()
}
