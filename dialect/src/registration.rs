//! Run-time registration of the dialect through IRDL.

use melior::{
    ir::{operation::OperationLike, Module},
    utility::load_irdl_dialects,
    Context,
};

/// The IRDL definition of the dialect, generated from the ODS source.
///
/// Upstream tools read it too: `mlir-opt --irdl-file=ptxcc.irdl.mlir` parses
/// and verifies ptxcc IR (`ptxcc-opt --print-irdl` writes the file).
pub const IRDL: &str = include_str!(concat!(env!("OUT_DIR"), "/ptxcc.irdl.mlir"));

/// Why the dialect could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum DialectError {
    /// A dialect the IRDL definition needs is not registered in the context.
    #[error("the `{0}` dialect must be registered in the context before ptxcc is loaded")]
    MissingDialect(&'static str),
    /// The IRDL module did not parse or verify (a bug in the generator).
    #[error("the generated IRDL definition of ptxcc does not parse")]
    InvalidIrdl,
    /// MLIR refused to load the IRDL dialect.
    #[error("MLIR could not load the IRDL definition of ptxcc")]
    LoadFailed,
}

/// Loads the `ptxcc` dialect into `context`, once.
///
/// The context's registry must hold the `llvm` and `irdl` dialects (the IRDL
/// constraints name `!llvm.ptr`). After this call MLIR's verifier rejects
/// unknown `ptxcc.*` ops and ops whose operands, results or attributes do
/// not match the ODS definition. Calling it again is a no-op.
pub fn load(context: &Context) -> Result<(), DialectError> {
    if context.is_registered_operation(crate::names::LOAD_PARAM) {
        return Ok(());
    }
    for dialect in ["llvm", "irdl"] {
        if !ptxcc_shim::load_dialect(context.to_raw(), dialect) {
            return Err(DialectError::MissingDialect(dialect));
        }
    }
    let module = Module::parse(context, IRDL).ok_or(DialectError::InvalidIrdl)?;
    if !module.as_operation().verify() {
        return Err(DialectError::InvalidIrdl);
    }
    if !load_irdl_dialects(&module) {
        return Err(DialectError::LoadFailed);
    }
    Ok(())
}
