//! The one way ptxcc wraps its plain functions as MLIR passes.

use melior::{
    ir::{r#type::TypeId, OperationRef},
    pass::{create_external, ExternalPass, Pass},
};

use crate::options::PassOptions;

/// The identity MLIR knows a pass by: one `static` per pass.
#[repr(align(8))]
pub struct PassId;

/// A ptxcc pass, described by its options type: everything a registry or a
/// pass manager needs to know about it.
pub trait PtxccPass: PassOptions {
    /// The C++-style name MLIR shows in timings (`LowerStructArgs`).
    const NAME: &'static str;
    /// The op it runs on (`builtin.module`, `llvm.func`).
    const ANCHOR: &'static str;

    /// The pass with these options.
    fn create_pass(&self) -> Pass;
}

/// The pass `T` (identified by `id`, a `static PassId` of its own) that runs
/// `body` on its op and fails when `body` returns false.
pub fn pass_from_fn<T: PtxccPass>(id: &'static PassId, body: impl Fn(OperationRef) -> bool + Clone + 'static) -> Pass {
    create_external(
        move |operation: OperationRef<'_, '_>, pass: ExternalPass<'_>| {
            if !body(operation) {
                pass.signal_failure();
            }
        },
        TypeId::create(id),
        T::NAME,
        T::PASS,
        T::SUMMARY,
        T::ANCHOR,
        &[],
    )
}
