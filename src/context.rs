//! Contexts with exactly the dialects ptxcc uses.

use melior::{dialect::DialectRegistry, Context};

use crate::{shim, Error};

/// Inserts the dialects ptxcc works with into `registry`: `builtin`, `func`,
/// `llvm`, `nvvm` and `irdl` (which carries the `ptxcc` definition), plus the
/// translations of `builtin`, `llvm` and `nvvm` to LLVM IR.
///
/// Only these are linked into `ptxcc-opt`, which keeps it about a third of
/// the size of a binary that registers every MLIR dialect.
pub fn register_dialects(registry: &DialectRegistry) {
    // SAFETY: the registry is alive for the call.
    unsafe { shim::ptxccRegisterDialects(registry.to_raw()) }
}

/// Makes `context` ready for ptxcc IR: appends the dialects of
/// [`register_dialects`], loads them, and loads the `ptxcc` dialect.
///
/// Use it on a context your compiler already owns; afterwards MLIR's
/// verifier checks `ptxcc.*` ops.
pub fn prepare_context(context: &Context) -> Result<(), Error> {
    let registry = DialectRegistry::new();
    register_dialects(&registry);
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    ptxcc_dialect::load(context)?;
    Ok(())
}

/// A new (multi-threaded) context prepared with [`prepare_context`].
pub fn create_context() -> Result<Context, Error> {
    let context = Context::new();
    prepare_context(&context)?;
    Ok(context)
}
