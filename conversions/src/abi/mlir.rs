//! From MLIR's LLVM-dialect types to [`AbiType`].
//!
//! The C API has a query for every type family except the element count of
//! `!llvm.array`, which the shim answers (`ptxcc_shim::array_length`).

use melior::ir::{Type, TypeLike};

use super::{layout::FloatKind, AbiError, AbiType, StructType};

/// Whether `ty` may be an LLVM struct or array, from cheap queries: false
/// for integers, floats, pointers and vectors, which most parameters are.
pub fn may_be_aggregate(ty: Type) -> bool {
    let raw = ty.to_raw();
    // SAFETY: type-kind queries on a live type.
    unsafe {
        !(mlir_sys::mlirTypeIsAInteger(raw)
            || mlir_sys::mlirTypeIsAFloat(raw)
            || mlir_sys::mlirTypeIsALLVMPointerType(raw)
            || mlir_sys::mlirTypeIsAVector(raw))
    }
}

/// The ABI view of an MLIR type, or why it has none (`index`, a scalable
/// vector, an opaque struct, a type outside the LLVM dialect).
pub fn abi_type(r#type: Type) -> Result<AbiType, AbiError> {
    let raw = r#type.to_raw();
    let unsupported = |reason: &str| AbiError::Unsupported { ty: r#type.to_string(), reason: reason.to_string() };
    // SAFETY: every call below only reads the live type `raw`, after the
    // matching `mlirTypeIsA*` check.
    unsafe {
        if mlir_sys::mlirTypeIsAInteger(raw) {
            return Ok(AbiType::Int(mlir_sys::mlirIntegerTypeGetWidth(raw)));
        }
        if mlir_sys::mlirTypeIsABF16(raw) {
            return Ok(AbiType::Float(FloatKind::BFloat));
        }
        if mlir_sys::mlirTypeIsAF16(raw) {
            return Ok(AbiType::Float(FloatKind::Half));
        }
        if mlir_sys::mlirTypeIsAF32(raw) {
            return Ok(AbiType::Float(FloatKind::Float));
        }
        if mlir_sys::mlirTypeIsAF64(raw) {
            return Ok(AbiType::Float(FloatKind::Double));
        }
        if mlir_sys::mlirTypeIsAFloat(raw) {
            return match mlir_sys::mlirFloatTypeGetWidth(raw) {
                80 => Ok(AbiType::Float(FloatKind::X86Fp80)),
                128 => Ok(AbiType::Float(FloatKind::Fp128)),
                _ => Err(unsupported("this float type has no LLVM IR equivalent")),
            };
        }
        if mlir_sys::mlirTypeIsALLVMPointerType(raw) {
            return Ok(AbiType::Ptr(mlir_sys::mlirLLVMPointerTypeGetAddressSpace(raw)));
        }
        if mlir_sys::mlirTypeIsAVector(raw) {
            if mlir_sys::mlirVectorTypeIsScalable(raw) {
                return Err(unsupported("scalable vectors do not exist on NVPTX"));
            }
            if mlir_sys::mlirShapedTypeGetRank(raw) != 1 {
                return Err(unsupported("only one-dimensional vectors are LLVM vectors"));
            }
            let count = mlir_sys::mlirShapedTypeGetDimSize(raw, 0);
            let elem = abi_type(Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)))?;
            return Ok(AbiType::vector(elem, count as u64));
        }
        if mlir_sys::mlirTypeIsALLVMStructType(raw) {
            if mlir_sys::mlirLLVMStructTypeIsOpaque(raw) {
                return Err(unsupported("an opaque struct has no size"));
            }
            let name = (!mlir_sys::mlirLLVMStructTypeIsLiteral(raw)).then(|| {
                let identifier = mlir_sys::mlirLLVMStructTypeGetIdentifier(raw);
                melior::StringRef::from_raw(identifier).as_str().unwrap_or_default().to_string()
            });
            let fields = (0..mlir_sys::mlirLLVMStructTypeGetNumElementTypes(raw))
                .map(|i| abi_type(Type::from_raw(mlir_sys::mlirLLVMStructTypeGetElementType(raw, i))))
                .collect::<Result<Vec<_>, _>>()?;
            let packed = mlir_sys::mlirLLVMStructTypeIsPacked(raw);
            return Ok(AbiType::Struct(StructType { name, fields, packed }));
        }
    }
    if let Some(count) = ptxcc_shim::array_length(raw) {
        // SAFETY: the shim says this is an LLVM array type.
        let elem = unsafe { Type::from_raw(mlir_sys::mlirLLVMArrayTypeGetElementType(raw)) };
        return Ok(AbiType::array(abi_type(elem)?, count));
    }
    Err(unsupported("not a sized LLVM type"))
}
