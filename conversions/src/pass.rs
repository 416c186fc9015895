//! The one way ptxcc wraps its plain functions as MLIR passes, and the one
//! place where a panic inside a pass becomes an error instead of an abort.
//!
//! MLIR calls a pass (and a rewrite pattern) through a C callback; a Rust
//! panic cannot unwind through it and aborts the whole process, the compiler
//! that embeds ptxcc included. [`pass_from_fn`] runs every pass body under
//! [`contain_panics`], which turns a panic into an error at the op the pass
//! runs on ("internal error in lower-struct-args: ...; please report it") and
//! a pass failure. Code that calls back from C itself (the pattern helper,
//! walks) collects first and works outside the callback, or contains its own
//! panics.

use crate::ir::LlvmOp;
use std::panic::{catch_unwind, AssertUnwindSafe};

use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, r#type::TypeId, OperationRef},
    pass::{create_external, ExternalPass, Pass, RunExternalPass},
    ContextRef,
};
use ptxcc_dialect::verify::emit_error;

use crate::{
    ir::{body_ops, module_functions, op_name},
    options::PassOptions,
};

/// The ops a module-level ptxcc pass runs on: MLIR's top-level module and
/// the `gpu.module`s of MLIR GPU programs, where upstream nests its own GPU
/// passes (`builtin.module(gpu.module(ptxcc-pipeline))`).
pub const MODULE_OPS: &[&str] = &["builtin.module", "gpu.module"];

/// The op name a pass anchored on `anchor` is created with: module-level
/// passes are generic operation passes (MLIR lets them run under any pass
/// manager; the body checks the op is one of [`MODULE_OPS`]), function
/// passes are anchored on `llvm.func`.
fn creation_anchor(anchor: &'static str) -> &'static str {
    if anchor == MODULE_OPS[0] {
        ""
    } else {
        anchor
    }
}

/// Whether a pass anchored on `anchor` may run on `op`; reports why not at
/// the op. Host functions (see [`crate::ir::is_host_function`]) are skipped
/// silently by function passes.
fn runs_on(pass: &str, anchor: &str, op: OperationRef) -> Option<bool> {
    let name = op_name(op);
    if anchor == MODULE_OPS[0] {
        if MODULE_OPS.contains(&name) {
            return Some(true);
        }
        emit_error(
            op.location(),
            &format!("'{pass}' runs on a module ('builtin.module' or 'gpu.module'), not on '{name}'"),
        );
        return None;
    }
    Some(!crate::ir::is_host_function(op))
}

/// The dialects every ptxcc pass creates ops of, which the pass manager
/// loads before any pass runs (as `getDependentDialects` does for a C++
/// pass): `llvm`. (`ptxcc` itself is loaded by [`PtxccExternal`]'s
/// `initialize`, through its IRDL definition; no pass creates NVVM ops,
/// only `nvvm.*` attributes.)
fn dependent_dialects() -> [DialectHandle; 1] {
    [DialectHandle::llvm()]
}

/// The identity MLIR knows a pass by: one `static` per pass.
#[repr(align(8))]
pub struct PassId;

/// A ptxcc pass, described by its options type: everything a registry or a
/// pass manager needs to know about it.
pub trait PtxccPass: PassOptions {
    /// The C++-style name MLIR shows in timings (`LowerStructArgs`).
    const NAME: &'static str;
    /// The op it runs on: `llvm.func`, or `builtin.module` for a pass that
    /// runs on a module (any of [`MODULE_OPS`]).
    const ANCHOR: &'static str;
    /// The pass's identity (a `static PassId` of its own).
    const ID: &'static PassId;

    /// Runs the pass on `op` (an op named [`Self::ANCHOR`]) with these
    /// options; false when it failed (after reporting why as diagnostics).
    fn run(&self, op: OperationRef) -> bool;

    /// The pass with these options.
    fn create_pass(&self) -> Pass {
        let options = self.clone();
        pass_from_fn::<Self>(Self::ID, move |op| options.run(op))
    }

    /// For a pass on `llvm.func`: a pass on a module that runs it on the
    /// functions of the module's nested modules (which a pass manager nested
    /// on `llvm.func` does not reach), one after the other.
    fn create_nested_functions_pass(&self) -> Pass {
        let options = self.clone();
        nested_functions_pass(Self::PASS, move |func| options.run(func))
    }
}

/// A ptxcc pass body as MLIR's external pass: it loads the `ptxcc` dialect
/// into the context when the pass manager initialises it (before any pass
/// runs, and before MLIR's threads start), so the passes also work in a
/// context that ptxcc did not prepare: a compiler's own, or upstream
/// `mlir-opt` with the ptxcc plugin.
#[derive(Clone)]
struct PtxccExternal<F>(F);

impl<'c, F: FnMut(OperationRef<'c, '_>, ExternalPass<'_>) + Clone> RunExternalPass<'c> for PtxccExternal<F> {
    fn initialize(&mut self, context: ContextRef<'c>) {
        let context = crate::ir::context_ref(context);
        // A failure shows later, as ops that do not verify.
        let _ = ptxcc_dialect::load(context);
    }

    fn run(&mut self, operation: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        (self.0)(operation, pass)
    }
}

/// The pass `T` (identified by `id`, a `static PassId` of its own) that runs
/// `body` on its op and fails when `body` returns false or panics.
pub fn pass_from_fn<T: PtxccPass>(id: &'static PassId, body: impl Fn(OperationRef) -> bool + Clone + 'static) -> Pass {
    create_external(
        PtxccExternal(move |operation: OperationRef<'_, '_>, pass: ExternalPass<'_>| {
            let ok = match runs_on(T::PASS, T::ANCHOR, operation) {
                None => false,
                Some(false) => true,
                Some(true) => contain_panics(T::PASS, operation, || body(operation)),
            };
            if !ok {
                pass.signal_failure();
            }
        }),
        TypeId::create(id),
        T::NAME,
        T::PASS,
        T::SUMMARY,
        creation_anchor(T::ANCHOR),
        &dependent_dialects(),
    )
}

/// Runs `body`; a panic inside it becomes an error at `op` naming `pass`
/// and the panic's message, and the result false.
pub fn contain_panics(pass: &str, op: OperationRef, body: impl FnOnce() -> bool) -> bool {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(ok) => ok,
        Err(payload) => {
            let message = panic_message(payload.as_ref());
            emit_error(
                op.location(),
                &format!("internal error in {pass}: {message}; please report it with the input that caused it"),
            );
            false
        }
    }
}

/// The message a panic carried (its `&str` or `String` payload).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

static NESTED_FUNCTIONS_ID: PassId = PassId;

/// A pass on a module (any of [`MODULE_OPS`]) that runs `body` on every
/// `llvm.func` inside the module's nested modules (`builtin.module`,
/// `gpu.module`, at any depth), one after the other: the functions a pass
/// manager nested on `llvm.func` does not reach. `pass` names the work in
/// errors.
pub fn nested_functions_pass(pass: &'static str, body: impl Fn(OperationRef) -> bool + Clone + 'static) -> Pass {
    create_external(
        PtxccExternal(move |module: OperationRef<'_, '_>, external: ExternalPass<'_>| {
            let ok = runs_on(pass, MODULE_OPS[0], module).is_some()
                && contain_panics(pass, module, || {
                    // Only the ops beside the functions are looked into: walking
                    // the whole module cost as much as a pass on large modules.
                    let mut ok = true;
                    for op in body_ops(module) {
                        if LlvmOp::of(op) != LlvmOp::Func && op.region_count() > 0 {
                            for func in module_functions(op) {
                                ok &= body(func);
                            }
                        }
                    }
                    ok
                });
            if !ok {
                external.signal_failure();
            }
        }),
        TypeId::create(&NESTED_FUNCTIONS_ID),
        "PtxccNestedFunctions",
        pass,
        "Runs a function pass on the functions inside nested modules",
        creation_anchor(MODULE_OPS[0]),
        &dependent_dialects(),
    )
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use melior::{ir::Module, pass::PassManager};

    use super::*;
    use crate::{
        abi::tests::llvm_context,
        options::{OptionError, OptionInfo},
    };

    /// A pass whose body panics: what a bug in any pass would do.
    #[derive(Clone, Default)]
    struct Panicking;

    impl PassOptions for Panicking {
        const PASS: &'static str = "test-panicking";
        const SUMMARY: &'static str = "Panics";
        const OPTIONS: &'static [OptionInfo] = &[];

        fn set(&mut self, name: &str, _: Option<&str>) -> Result<(), OptionError> {
            Err(crate::options::unknown_option::<Self>(name))
        }
    }

    static PANICKING_ID: PassId = PassId;

    impl PtxccPass for Panicking {
        const NAME: &'static str = "TestPanicking";
        const ANCHOR: &'static str = crate::ir::LLVM_FUNC;
        const ID: &'static PassId = &PANICKING_ID;

        fn run(&self, _: OperationRef) -> bool {
            panic!("an IR shape nobody expected")
        }
    }

    /// A panic inside a pass body, on MLIR's worker threads or in the
    /// nested-modules pass, is an error at the op the pass ran on and a pass
    /// failure; the process (a compiler that embeds ptxcc) lives on.
    #[test]
    fn a_panic_in_a_pass_is_an_error_at_the_op_not_an_abort() {
        let context = llvm_context();
        let messages = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&messages);
        context.attach_diagnostic_handler(move |diagnostic| {
            sink.lock().unwrap().push(format!("{}: {}", diagnostic.location(), diagnostic));
            true
        });
        let mut module = Module::parse(
            &context,
            "llvm.func @top() { llvm.return }\nmodule @inner { llvm.func @nested() { llvm.return } }",
        )
        .expect("parses");
        let pm = PassManager::new(&context);
        pm.nested_under(crate::ir::LLVM_FUNC).add_pass(Panicking.create_pass());
        pm.add_pass(Panicking.create_nested_functions_pass());
        assert!(pm.run(&mut module).is_err());
        let reported = std::mem::take(&mut *messages.lock().unwrap());
        assert!(
            reported
                .iter()
                .any(|m| m.contains("internal error in test-panicking: an IR shape nobody expected; please report")),
            "{reported:?}"
        );

        let pm = PassManager::new(&context);
        pm.add_pass(Panicking.create_nested_functions_pass());
        assert!(pm.run(&mut module).is_err(), "the nested-modules pass fails too");
    }
}
