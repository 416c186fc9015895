//! The passes ptxcc offers by name, and their registration with MLIR's
//! pass-pipeline parser.
//!
//! MLIR's C API cannot register a pass by name, so each entry of [`PASSES`]
//! is registered as a named pipeline through the C++ shim. MLIR's own parser
//! then reads `builtin.module(convert-ptxcc-to-llvm{vector-copy=false},cse)`
//! and calls back into [`PassInfo::add`] with the options text.

use std::{
    ffi::{c_char, c_void, CString},
    sync::Once,
};

use melior::pass::OperationPassManager;
use ptxcc_conversions::{
    abi_report::AbiReportOptions,
    lower_alloca::LowerAllocaOptions,
    lower_struct_args::LowerStructArgsOptions,
    memory_space_opt::MemorySpaceOptOptions,
    pass::{PtxccPass, MODULE_OPS},
    ptxcc_to_llvm::ConvertPtxccToLlvmOptions,
    verify::VerifyOptions,
    OptionError, OptionInfo, PassOptions,
};

use crate::{
    pipeline::{add_pipeline_to, PipelineOptions},
    shim,
};

/// Why a pass could not be added to a pass manager.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AddPassError {
    /// Its options did not parse.
    #[error(transparent)]
    Options(#[from] OptionError),
    /// It was placed under an op it cannot run on.
    #[error(
        "pass '{pass}' runs on a module ('builtin.module' or 'gpu.module') and cannot run nested under \
         '{anchor}'; write it directly inside one, e.g. --pass-pipeline='builtin.module({pass})' or \
         'builtin.module(gpu.module({pass}))'"
    )]
    Anchor {
        /// The pass.
        pass: &'static str,
        /// The op the pass manager it was given runs on.
        anchor: String,
    },
}

/// A pass (or pipeline) that ptxcc registers by name.
#[derive(Clone, Copy, Debug)]
pub struct PassInfo {
    /// The command-line name (`convert-ptxcc-to-llvm`).
    pub name: &'static str,
    /// One-line summary, shown by `--help`.
    pub summary: &'static str,
    /// Its options with their defaults.
    pub options: &'static [OptionInfo],
    /// What it runs on: `llvm.func`, or `builtin.module` for a pass on a
    /// module (any of [`MODULE_OPS`]).
    pub anchor: &'static str,
    /// Adds the pass to `pm` (anchored on `anchor`, the op name of `pm`)
    /// with the options parsed from `options`.
    pub add: fn(pm: &OperationPassManager, anchor: &str, options: &str) -> Result<(), AddPassError>,
}

/// The registry entry of the pass `T`.
const fn entry<T: PtxccPass>() -> PassInfo {
    PassInfo { name: T::PASS, summary: T::SUMMARY, options: T::OPTIONS, anchor: T::ANCHOR, add: add_pass::<T> }
}

/// Checks that a module-level pass may be added to a pass manager anchored
/// on `anchor` (one of [`MODULE_OPS`]): the error is the pipeline parser's,
/// at parse time, instead of a pass that fails on every op it meets.
pub(crate) fn check_module_anchor(pass: &'static str, anchor: &str) -> Result<(), AddPassError> {
    if MODULE_OPS.contains(&anchor) {
        Ok(())
    } else {
        Err(AddPassError::Anchor { pass, anchor: anchor.to_string() })
    }
}

/// Adds the pass `T` with the options in `text` to `pm` (anchored on
/// `anchor`). A pass on functions is nested under `llvm.func` (in parallel)
/// and, under a module, also runs on the functions of nested modules; a
/// pass on modules must be given a module pass manager.
fn add_pass<T: PtxccPass>(pm: &OperationPassManager, anchor: &str, text: &str) -> Result<(), AddPassError> {
    let options = T::parse(text)?;
    if T::ANCHOR == "llvm.func" {
        on_functions(pm, anchor, |functions| functions.add_pass(options.create_pass()));
        if MODULE_OPS.contains(&anchor) {
            pm.add_pass(options.create_nested_functions_pass());
        }
    } else {
        check_module_anchor(T::PASS, anchor)?;
        pm.add_pass(options.create_pass());
    }
    Ok(())
}

/// Every pass ptxcc registers, in pipeline order.
pub const PASSES: &[PassInfo] = &[
    entry::<AbiReportOptions>(),
    entry::<LowerStructArgsOptions>(),
    entry::<LowerAllocaOptions>(),
    entry::<MemorySpaceOptOptions>(),
    entry::<ConvertPtxccToLlvmOptions>(),
    entry::<VerifyOptions>(),
    PassInfo {
        name: PipelineOptions::PASS,
        summary: PipelineOptions::SUMMARY,
        options: PipelineOptions::OPTIONS,
        anchor: "builtin.module",
        add: |pm, anchor, text| {
            let options = PipelineOptions::parse(text)?;
            check_module_anchor(PipelineOptions::PASS, anchor)?;
            add_pipeline_to(pm, anchor, &options);
            Ok(())
        },
    },
];

/// The registered pass called `name`.
pub fn find_pass(name: &str) -> Option<&'static PassInfo> {
    PASSES.iter().find(|pass| pass.name == name)
}

/// Upstream MLIR passes that `ptxcc-opt` also offers by name.
pub const UPSTREAM_PASSES: &[(&str, &str)] = &[
    ("canonicalize", "Canonicalize operations"),
    ("cse", "Eliminate common sub-expressions"),
    ("inline", "Inline function calls"),
    ("loop-invariant-code-motion", "Hoist loop invariant instructions outside of the loop"),
    ("mem2reg", "Promote memory slots into values"),
    ("print-ir", "Print IR on the debug stream"),
    ("sccp", "Sparse conditional constant propagation"),
    ("sroa", "Scalar replacement of aggregates"),
    ("strip-debuginfo", "Strip debug info from all operations"),
    ("symbol-dce", "Eliminate dead symbols"),
    ("topological-sort", "Sort regions without SSA dominance in topological order"),
];

/// Runs `add` on a pass manager for `llvm.func` ops: `pm` itself when it is
/// anchored there, a nested one otherwise.
pub(crate) fn on_functions(pm: &OperationPassManager, anchor: &str, add: impl FnOnce(&OperationPassManager)) {
    if anchor == "llvm.func" {
        add(pm);
    } else {
        add(&pm.nested_under("llvm.func"));
    }
}

/// Registers every pass of [`PASSES`] and the upstream passes of
/// [`UPSTREAM_PASSES`] with MLIR's pass registry, once per process, so that
/// MLIR's pass-pipeline parser knows them by name.
pub fn register_passes() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: registration functions of the shim; the registry is global.
        unsafe { shim::ptxccRegisterUpstreamPasses() };
        register_ptxcc_passes();
    });
}

/// Registers every pass of [`PASSES`] (not the upstream ones: a C++ MLIR
/// tool that loads ptxcc as a plugin has those already), once per process.
pub fn register_ptxcc_passes() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for (index, pass) in PASSES.iter().enumerate() {
            // SAFETY: the strings are 'static and the callback is valid for
            // the life of the process; `index` is passed as the user data.
            unsafe {
                shim::ptxccRegisterPassPipeline(
                    shim::string_ref(pass.name),
                    shim::string_ref(pass.summary),
                    build_registered,
                    index as *mut c_void,
                );
            }
        }
    });
}

unsafe extern "C" fn build_registered(
    user_data: *mut c_void,
    pm: mlir_sys::MlirOpPassManager,
    anchor: mlir_sys::MlirStringRef,
    options: mlir_sys::MlirStringRef,
    error: *mut *mut c_char,
) -> bool {
    let Some(pass) = PASSES.get(user_data as usize) else { return false };
    // SAFETY: MLIR passes live strings and pass manager for the call.
    let (anchor, options, pm) =
        unsafe { (shim::to_string(anchor), shim::to_string(options), OperationPassManager::from_raw(pm)) };
    let added = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (pass.add)(&pm, &anchor, &options)));
    let message = match added {
        Ok(Ok(())) => return true,
        Ok(Err(problem)) => problem.to_string(),
        Err(_) => format!("internal error while adding pass '{}'", pass.name),
    };
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    // SAFETY: the C++ side frees the string with free().
    unsafe { *error = libc_strdup(&message) };
    false
}

/// A malloc'ed copy of `text`, for the C++ side to free.
fn libc_strdup(text: &CString) -> *mut c_char {
    unsafe extern "C" {
        fn strdup(text: *const c_char) -> *mut c_char;
    }
    // SAFETY: `text` is a valid C string.
    unsafe { strdup(text.as_ptr()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create_context;
    use melior::pass::PassManager;

    /// `--help` prints `OPTIONS`; the defaults it shows must be the ones the
    /// pass really starts from, and every option must be accepted.
    #[test]
    fn help_defaults_are_the_real_defaults() {
        for pass in PASSES {
            let context = create_context().expect("context");
            for option in pass.options {
                let text = format!("{}={}", option.name, option.default);
                let pm = PassManager::new(&context);
                (pass.add)(&pm.as_operation_pass_manager(), "builtin.module", &text)
                    .unwrap_or_else(|e| panic!("{}: default of {} rejected: {e}", pass.name, option.name));
            }
        }
        assert_eq!(parse_listed_defaults::<ConvertPtxccToLlvmOptions>(), ConvertPtxccToLlvmOptions::default());
        assert_eq!(parse_listed_defaults::<PipelineOptions>(), PipelineOptions::default());
        assert_eq!(parse_listed_defaults::<AbiReportOptions>(), AbiReportOptions::default());
        assert_eq!(parse_listed_defaults::<LowerStructArgsOptions>(), LowerStructArgsOptions::default());
        assert_eq!(parse_listed_defaults::<VerifyOptions>(), VerifyOptions::default());
    }

    /// The options struct that the defaults listed in `OPTIONS` (what
    /// `--help` prints) describe.
    fn parse_listed_defaults<T: PassOptions + std::fmt::Debug>() -> T {
        let text: Vec<String> = T::OPTIONS.iter().map(|o| format!("{}={}", o.name, o.default)).collect();
        T::parse(&text.join(" ")).expect("listed defaults parse")
    }

    #[test]
    fn bad_options_are_errors_not_panics() {
        let context = create_context().expect("context");
        let pm = PassManager::new(&context);
        for pass in PASSES {
            assert!((pass.add)(&pm.as_operation_pass_manager(), "builtin.module", "no-such-option=1").is_err());
        }
        // `set` is public: an unknown name is an error there too.
        assert!(PipelineOptions::default().set("no-such-option", None).is_err());
        assert!(LowerStructArgsOptions::default().set("no-such-option", None).is_err());
        assert!(AbiReportOptions::default().set("no-such-option", None).is_err());
        assert!(ConvertPtxccToLlvmOptions::default().set("no-such-option", None).is_err());
    }

    /// Under any op but a module a module pass is a parse-time error (MLIR
    /// used to abort the process), and a module pass a library user put on
    /// functions fails with an error at the function.
    #[test]
    fn module_passes_are_refused_under_other_ops() {
        let context = create_context().expect("context");
        for pass in PASSES.iter().filter(|pass| pass.anchor != "llvm.func") {
            for anchor in ["llvm.func", "any", "func.func"] {
                let pm = PassManager::new(&context);
                let error = crate::parse_pass_pipeline(&pm, &format!("builtin.module({anchor}({}))", pass.name))
                    .expect_err(pass.name);
                assert!(error.to_string().contains("cannot run nested under"), "{error}");
            }
        }
        let pm = PassManager::new(&context);
        assert!(matches!(
            crate::add_pipeline(&pm.nested_under("llvm.func"), &PipelineOptions::default()),
            Err(AddPassError::Anchor { .. })
        ));

        let collector = crate::diagnostics::DiagnosticCollector::attach(&context);
        let mut module = melior::ir::Module::parse(&context, "llvm.func @f() { llvm.return }").expect("parses");
        let pm = PassManager::new(&context);
        pm.nested_under("llvm.func").add_pass(crate::create_lower_struct_args_pass(&LowerStructArgsOptions::default()));
        assert!(pm.run(&mut module).is_err());
        let reported: Vec<String> = collector.take().into_iter().map(|d| d.message).collect();
        assert!(
            reported.iter().any(|m| m.contains(
                "'lower-struct-args' runs on a module ('builtin.module' or 'gpu.module'), not on 'llvm.func'"
            )),
            "{reported:?}"
        );
    }

    /// Every pass runs under `builtin.module` and nests under `gpu.module`.
    #[test]
    fn every_pass_is_reachable_by_name() {
        let context = create_context().expect("context");
        for pass in PASSES {
            for pipeline in
                [format!("builtin.module({})", pass.name), format!("builtin.module(gpu.module({}))", pass.name)]
            {
                let pm = PassManager::new(&context);
                crate::parse_pass_pipeline(&pm, &pipeline).unwrap_or_else(|e| panic!("{pipeline}: {e}"));
            }
        }
        for (name, _) in UPSTREAM_PASSES {
            let pm = PassManager::new(&context);
            crate::parse_pass_pipeline(&pm, &format!("builtin.module({name})"))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert!(find_pass("convert-ptxcc-to-llvm").is_some());
        assert!(find_pass("no-such-pass").is_none());
    }
}
