//! IR in and out for drivers: parsing MLIR, importing LLVM IR, and the
//! op pass managers MLIR hands a registered pipeline, as melior objects
//! (the shim does the work on raw handles).

use melior::{
    ir::{Module, Operation},
    pass::OperationPassManager,
    Context,
};

/// Parses MLIR text or bytecode `source` (read from `filename`) into a
/// module of `context`; `None` after reporting the errors as diagnostics.
pub fn parse_module<'c>(context: &'c Context, source: &[u8], filename: &str) -> Option<Module<'c>> {
    let raw = ptxcc_shim::parse_module(context.to_raw(), source, filename)?;
    // SAFETY: the parser returned a fresh builtin.module of `context`, owned
    // by nobody: the `Operation` takes it.
    Module::from_operation(unsafe { Operation::from_raw(raw) })
}

/// Imports LLVM IR text or bitcode `source` (read from `filename`) into a
/// module of the LLVM dialect in `context`; `None` after reporting the
/// problem as a diagnostic.
pub fn import_llvm_ir<'c>(context: &'c Context, source: &[u8], filename: &str) -> Option<Module<'c>> {
    let raw = ptxcc_shim::import_llvm_ir(context.to_raw(), source, filename)?;
    // SAFETY: as in `parse_module`: a fresh module nobody owns.
    Module::from_operation(unsafe { Operation::from_raw(raw) })
}

/// Runs `f` on the op pass manager `pm` that MLIR hands a registered
/// pipeline's builder ([`ptxcc_shim::register_pass_pipeline`]), which is
/// live for the builder's call.
pub fn with_op_pass_manager<R>(
    pm: ptxcc_shim::MlirOpPassManager,
    f: impl for<'p> FnOnce(&OperationPassManager<'p, 'p>) -> R,
) -> R {
    // SAFETY: the handle is live for the call (the builder's contract), and
    // `f` cannot keep the pass manager past it.
    let pm = unsafe { OperationPassManager::from_raw(pm) };
    f(&pm)
}
