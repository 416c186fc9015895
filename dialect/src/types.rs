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
