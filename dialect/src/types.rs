//! Small queries on LLVM-dialect types that the C API offers but melior does not wrap.

use melior::ir::{Type, TypeLike};

/// The address space of an `!llvm.ptr`, or `None` for any other type.
pub fn pointer_address_space(r#type: Type) -> Option<u32> {
    // SAFETY: both calls only read the (live) type.
    unsafe {
        mlir_sys::mlirTypeIsALLVMPointerType(r#type.to_raw())
            .then(|| mlir_sys::mlirLLVMPointerTypeGetAddressSpace(r#type.to_raw()))
    }
}

/// `!llvm.ptr<address_space>` in the type's context.
pub fn pointer_type<'c>(context: &'c melior::Context, address_space: u32) -> Type<'c> {
    // SAFETY: the context is alive; the result is owned by it.
    unsafe { Type::from_raw(mlir_sys::mlirLLVMPointerTypeGet(context.to_raw(), address_space)) }
}

/// Whether `llvm.load` can load a value of `type` (ODS's `LLVM_LoadableType`
/// as the translation to LLVM IR accepts it): an integer, a float, a pointer,
/// a fixed-length vector of those, or an array or non-opaque struct of
/// loadable types. Not: `!llvm.token`, `!llvm.void`, functions, labels,
/// metadata, opaque structs, target extension types, scalable vectors,
/// builtin types outside the LLVM dialect's compatible set.
pub fn is_loadable(r#type: Type) -> bool {
    let raw = r#type.to_raw();
    // SAFETY: every call only reads the live type and its element types.
    unsafe {
        if mlir_sys::mlirTypeIsAInteger(raw)
            || mlir_sys::mlirTypeIsAFloat(raw)
            || mlir_sys::mlirTypeIsALLVMPointerType(raw)
        {
            return true;
        }
        if mlir_sys::mlirTypeIsAVector(raw) {
            let element = mlir_sys::mlirShapedTypeGetElementType(raw);
            return !mlir_sys::mlirVectorTypeIsScalable(raw)
                && (mlir_sys::mlirTypeIsAInteger(element)
                    || mlir_sys::mlirTypeIsAFloat(element)
                    || mlir_sys::mlirTypeIsALLVMPointerType(element));
        }
        if mlir_sys::mlirTypeIsALLVMStructType(raw) {
            return !mlir_sys::mlirLLVMStructTypeIsOpaque(raw)
                && (0..mlir_sys::mlirLLVMStructTypeGetNumElementTypes(raw))
                    .all(|i| is_loadable(Type::from_raw(mlir_sys::mlirLLVMStructTypeGetElementType(raw, i))));
        }
        if is_llvm_array(raw) {
            return is_loadable(Type::from_raw(mlir_sys::mlirLLVMArrayTypeGetElementType(raw)));
        }
    }
    false
}

/// Whether `raw` is an `!llvm.array`: the C API has no `IsA` for it, so its
/// type id is compared with that of an array type built in the same context.
fn is_llvm_array(raw: mlir_sys::MlirType) -> bool {
    // SAFETY: reading live types; the sample type is owned by the context.
    unsafe {
        let context = mlir_sys::mlirTypeGetContext(raw);
        let sample = mlir_sys::mlirLLVMArrayTypeGet(mlir_sys::mlirIntegerTypeGet(context, 8), 1);
        mlir_sys::mlirTypeIDEqual(mlir_sys::mlirTypeGetTypeID(raw), mlir_sys::mlirTypeGetTypeID(sample))
    }
}
