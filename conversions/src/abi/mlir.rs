//! From MLIR's LLVM-dialect types to [`AbiType`].
//!
//! The C API has a query for every type family except the element count of
//! `!llvm.array`, which the shim answers (`ptxcc_shim::array_length`).

use melior::ir::{OperationRef, Type};

use super::{layout::FloatKind, AbiError, AbiType, DataLayout, StructType};
use crate::ir::{self, FloatType};

/// Whether `ty` may be an LLVM struct or array, from cheap queries: false
/// for integers, floats, pointers and vectors, which most parameters are.
pub fn may_be_aggregate(ty: Type) -> bool {
    !ir::is_integer_float_pointer_or_vector(ty)
}

/// The ABI view of an MLIR type, or why it has none (`index`, a scalable
/// vector, an opaque struct, a type outside the LLVM dialect).
pub fn abi_type(r#type: Type) -> Result<AbiType, AbiError> {
    let unsupported = |reason: &str| AbiError::Unsupported { ty: r#type.to_string(), reason: reason.to_string() };
    if let Some(width) = ir::integer_width(r#type) {
        return Ok(AbiType::Int(width));
    }
    if let Some(float) = ir::float_type(r#type) {
        return match float {
            FloatType::BF16 => Ok(AbiType::Float(FloatKind::BFloat)),
            FloatType::F16 => Ok(AbiType::Float(FloatKind::Half)),
            FloatType::F32 => Ok(AbiType::Float(FloatKind::Float)),
            FloatType::F64 => Ok(AbiType::Float(FloatKind::Double)),
            FloatType::Other(80) => Ok(AbiType::Float(FloatKind::X86Fp80)),
            FloatType::Other(128) => Ok(AbiType::Float(FloatKind::Fp128)),
            FloatType::Other(_) => Err(unsupported("this float type has no LLVM IR equivalent")),
        };
    }
    if let Some(address_space) = ptxcc_dialect::types::pointer_address_space(r#type) {
        return Ok(AbiType::Ptr(address_space));
    }
    if let Some(vector) = ir::as_vector(r#type) {
        if vector.is_scalable() {
            return Err(unsupported("scalable vectors do not exist on NVPTX"));
        }
        if vector.rank() != 1 {
            return Err(unsupported("only one-dimensional vectors are LLVM vectors"));
        }
        let count = vector.dimension(0).expect("a one-dimensional vector");
        let elem = abi_type(vector.element())?;
        return Ok(AbiType::vector(elem, count as u64));
    }
    if let Some(structure) = ir::as_llvm_struct(r#type) {
        if structure.is_opaque() {
            return Err(unsupported("an opaque struct has no size"));
        }
        let name = structure.name();
        let fields = structure.fields().into_iter().map(abi_type).collect::<Result<Vec<_>, _>>()?;
        let packed = structure.is_packed();
        return Ok(AbiType::Struct(StructType { name, fields, packed }));
    }
    if let Some((elem, count)) = ir::llvm_array(r#type) {
        return Ok(AbiType::array(abi_type(elem)?, count));
    }
    Err(unsupported("not a sized LLVM type"))
}

/// The constant byte offset of an `llvm.getelementptr`, `None` when an
/// index is not constant (or the type has no ABI layout).
pub fn gep_offset(layout: &DataLayout, gep: OperationRef) -> Option<i64> {
    let indices: Option<Vec<i64>> = crate::ir::gep_indices(gep)?.into_iter().collect();
    let source = abi_type(crate::ir::Gep::of(gep)?.element_type()?).ok()?;
    layout.gep_offset(&source, &indices?).ok()
}
