//! The passes ptxcc offers by name, and their registration with MLIR's
//! pass-pipeline parser.
//!
//! MLIR's C API cannot register a pass by name, so each entry of [`PASSES`]
//! is registered as a named pipeline through the C++ shim. MLIR's own parser
//! then reads `builtin.module(convert-ptxcc-to-llvm{vector-copy=false},cse)`
//! and calls back into [`PassInfo::add`] with the options text.

use std::sync::Once;

use ptxcc_conversions::abi_report::AbiReportOptions;

pub use crate::passes::{AddPassError, PassInfo};
use crate::{
    passes::entry,
    pipeline::{PIPELINE, STAGES},
    shim,
};

/// Every pass ptxcc registers: `ptxcc-abi-report`, the pipeline's passes
/// in pipeline order, then `ptxcc-pipeline` itself.
pub const PASSES: &[PassInfo] = &pass_table::<{ STAGES.len() + 2 }>();

const fn pass_table<const N: usize>() -> [PassInfo; N] {
    let mut table = [PIPELINE; N];
    table[0] = entry::<AbiReportOptions>();
    let mut index = 0;
    while index < STAGES.len() {
        table[index + 1] = STAGES[index].info;
        index += 1;
    }
    table
}

/// The registered pass called `name`.
pub fn find_pass(name: &str) -> Option<&'static PassInfo> {
    PASSES.iter().find(|pass| pass.name == name)
}

/// Upstream MLIR passes that `ptxcc-opt` also offers by name: (name,
/// summary), in `--help` order. The list is the shim's (the one it
/// registers); the summaries are the passes' own.
pub fn upstream_passes() -> &'static [(String, String)] {
    static LIST: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    LIST.get_or_init(shim::upstream_passes)
}

/// Registers every pass of [`PASSES`] and the upstream passes of
/// [`upstream_passes`] with MLIR's pass registry, once per process, so that
/// MLIR's pass-pipeline parser knows them by name.
pub fn register_passes() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        shim::register_upstream_passes();
        register_ptxcc_passes();
    });
}

/// Registers every pass of [`PASSES`] (not the upstream ones: a C++ MLIR
/// tool that loads ptxcc as a plugin has those already), once per process.
pub fn register_ptxcc_passes() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for pass in PASSES.iter() {
            let add = pass.add;
            shim::register_pass_pipeline(
                pass.name,
                pass.summary,
                Box::new(move |pm, anchor, options| {
                    ptxcc_conversions::ir::with_op_pass_manager(pm, |pm| {
                        add(pm, anchor, options).map_err(|problem| problem.to_string())
                    })
                }),
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create_context;
    use crate::PipelineOptions;
    use melior::pass::PassManager;
    use ptxcc_conversions::{
        lower_alloca::LowerAllocaOptions, lower_struct_args::LowerStructArgsOptions,
        memory_space_opt::MemorySpaceOptOptions, ptxcc_to_llvm::ConvertPtxccToLlvmOptions, verify::VerifyOptions,
        PassOptions,
    };

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
        // The seeds' defaults, as the guide documents them (`Default` is
        // parsed from the listed text, so the comparisons below only prove
        // that the text parses; these pin the values).
        assert_eq!(LowerStructArgsOptions::default().max_byval_size, 4096);
        assert_eq!(LowerStructArgsOptions::default().flatten_threshold, 32);
        assert_eq!(LowerStructArgsOptions::default().sret_threshold, 16);
        assert!(LowerStructArgsOptions::default().opt_byval);
        assert_eq!(ConvertPtxccToLlvmOptions::default().inline_copy_threshold, 64);
        assert!(ConvertPtxccToLlvmOptions::default().vector_copy);
        assert_eq!(LowerAllocaOptions::default().dynamic_alloca_size, 0);
        assert!(MemorySpaceOptOptions::default().kernel_params_global);
        assert!(VerifyOptions::default().strict_atomics);
        assert_eq!(AbiReportOptions::default().vector_threshold, 4);
        assert_eq!(parse_listed_defaults::<ConvertPtxccToLlvmOptions>(), ConvertPtxccToLlvmOptions::default());
        assert_eq!(parse_listed_defaults::<PipelineOptions>(), PipelineOptions::default());
        assert_eq!(parse_listed_defaults::<AbiReportOptions>(), AbiReportOptions::default());
        assert_eq!(parse_listed_defaults::<LowerStructArgsOptions>(), LowerStructArgsOptions::default());
        assert_eq!(parse_listed_defaults::<VerifyOptions>(), VerifyOptions::default());
        assert_eq!(parse_listed_defaults::<LowerAllocaOptions>(), LowerAllocaOptions::default());
        assert_eq!(parse_listed_defaults::<MemorySpaceOptOptions>(), MemorySpaceOptOptions::default());
    }

    /// The options struct that the defaults listed in `OPTIONS` (what
    /// `--help` prints) describe.
    fn parse_listed_defaults<T: PassOptions + std::fmt::Debug>() -> T {
        let text: Vec<String> = T::OPTIONS.iter().map(|o| format!("{}={}", o.name, o.default)).collect();
        T::parse(&text.join(" ")).expect("listed defaults parse")
    }

    /// The guide's pass table (docs/guide/passes.md) names every option of
    /// every pass in the pass's row, so the documentation cannot fall behind
    /// a declaration (the generated reference below it is checked by
    /// `scripts/check_docs.py`).
    #[test]
    fn guide_pass_table_names_every_option() {
        let readme = include_str!("../docs/guide/passes.md");
        for pass in PASSES {
            let row = readme
                .lines()
                .find(|line| line.starts_with(&format!("| `{}` |", pass.name)))
                .unwrap_or_else(|| panic!("docs/guide/passes.md has no pass-table row for {}", pass.name));
            for option in pass.options {
                assert!(
                    row.contains(&format!("`{}`", option.name)),
                    "docs/guide/passes.md's row of {} lacks `{}`",
                    pass.name,
                    option.name
                );
            }
        }
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
        for pass in PASSES.iter().filter(|pass| pass.anchor != ptxcc_conversions::ir::LLVM_FUNC) {
            for anchor in [ptxcc_conversions::ir::LLVM_FUNC, "any", "func.func"] {
                let pm = PassManager::new(&context);
                let error = crate::parse_pass_pipeline(&pm, &format!("builtin.module({anchor}({}))", pass.name))
                    .expect_err(pass.name);
                assert!(error.to_string().contains("cannot run nested under"), "{error}");
            }
        }
        let pm = PassManager::new(&context);
        assert!(matches!(
            crate::add_pipeline(&pm.nested_under(ptxcc_conversions::ir::LLVM_FUNC), &PipelineOptions::default()),
            Err(AddPassError::Anchor { .. })
        ));

        let collector = crate::diagnostics::DiagnosticCollector::attach(&context);
        let mut module = melior::ir::Module::parse(&context, "llvm.func @f() { llvm.return }").expect("parses");
        let pm = PassManager::new(&context);
        pm.nested_under(ptxcc_conversions::ir::LLVM_FUNC)
            .add_pass(crate::create_lower_struct_args_pass(&LowerStructArgsOptions::default()));
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
        assert!(upstream_passes().iter().any(|(name, _)| name == "cse"), "{:?}", upstream_passes());
        for (name, _) in upstream_passes() {
            let pm = PassManager::new(&context);
            crate::parse_pass_pipeline(&pm, &format!("builtin.module({name})"))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert!(find_pass("convert-ptxcc-to-llvm").is_some());
        assert!(find_pass("no-such-pass").is_none());
    }
}
