//! The one way ptxcc wraps its plain functions as MLIR passes.

use melior::{
    ir::{r#type::TypeId, OperationRef},
    pass::{create_external, ExternalPass, Pass},
};

/// The identity MLIR knows a pass by: one `static` per pass.
#[repr(align(8))]
pub struct PassId;

/// What a pass is called and where it runs.
pub struct PassDescription {
    /// The identity (a `static PassId` of the pass's own).
    pub id: &'static PassId,
    /// The C++-style name (`LowerStructArgs`).
    pub name: &'static str,
    /// The command-line argument (`lower-struct-args`).
    pub argument: &'static str,
    /// One line for `--help`.
    pub description: &'static str,
    /// The op it runs on (`builtin.module`, `llvm.func`).
    pub anchor: &'static str,
}

/// A pass that runs `body` on its op and fails when `body` returns false.
pub fn pass_from_fn(description: PassDescription, body: impl Fn(OperationRef) -> bool + Clone + 'static) -> Pass {
    create_external(
        move |operation: OperationRef<'_, '_>, pass: ExternalPass<'_>| {
            if !body(operation) {
                pass.signal_failure();
            }
        },
        TypeId::create(description.id),
        description.name,
        description.argument,
        description.description,
        description.anchor,
        &[],
    )
}
