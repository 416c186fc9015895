//! Small queries on LLVM-dialect types that the C API offers but melior does not wrap.

use melior::ir::{Type, TypeLike};

/// The address space of an `!llvm.ptr`, or `None` for any other type.
pub fn pointer_address_space(r#type: Type) -> Option<u32> {
    ptxcc_shim::llvm_pointer_address_space(r#type.to_raw())
}

/// `!llvm.ptr<address_space>` in the type's context.
pub fn pointer_type<'c>(context: &'c melior::Context, address_space: u32) -> Type<'c> {
    melior::dialect::llvm::r#type::pointer(context, address_space)
}

/// Whether `llvm.load` can load a value of `type` (ODS's `LLVM_LoadableType`
/// as the translation to LLVM IR accepts it): an integer, a float, a pointer,
/// a fixed-length vector of those, or an array or non-opaque struct of
/// loadable types. Not: `!llvm.token`, `!llvm.void`, functions, labels,
/// metadata, opaque structs, target extension types, scalable vectors,
/// builtin types outside the LLVM dialect's compatible set.
pub fn is_loadable(r#type: Type) -> bool {
    ptxcc_shim::is_llvm_loadable(r#type.to_raw())
}
