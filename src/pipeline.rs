//! `ptxcc-pipeline`: the passes of ptxcc in order, with one set of options.
//!
//! `lower-struct-args` (on the module), then on every function
//! `lower-alloca`, `memory-space-opt` and `convert-ptxcc-to-llvm`, and with
//! `verify=true` `ptxcc-verify` on the result (same chip, PTX version and
//! `opt-byval`). Options
//! shared by several passes live here once: `opt-byval` is one field,
//! [`PipelineOptions::opt_byval`], handed to both `lower-struct-args` and
//! `memory-space-opt` (seed 002: both passes must read the same byte).

use melior::ir::OperationRef;
use melior::pass::{OperationPassManager, PassManager};
use ptxcc_conversions::{
    lower_alloca::{create_lower_alloca_pass, lower_alloca, LowerAllocaOptions},
    lower_struct_args::{create_lower_struct_args_pass, LowerStructArgsOptions},
    memory_space_opt::{create_memory_space_opt_pass, memory_space_opt, MemorySpaceOptOptions},
    options::{parse_bool, unknown_option},
    pass::nested_functions_pass,
    ptxcc_to_llvm::{convert_ptxcc_to_llvm, create_convert_ptxcc_to_llvm_pass, ConvertPtxccToLlvmOptions},
    verify::{create_verify_pass, VerifyOptions},
    OptionError, OptionInfo, PassOptions,
};

use crate::{
    registry::{check_module_anchor, on_functions, AddPassError},
    shim,
};

/// Options of `ptxcc-pipeline`: the union of its passes' options, each once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineOptions {
    /// `opt-byval`, the one value both `lower-struct-args` and
    /// `memory-space-opt` get (their own `opt_byval` fields below are
    /// ignored).
    pub opt_byval: bool,
    /// Options of `lower-struct-args` (`max-byval-size`, the
    /// flatten/vector/sret thresholds, `flatten-kernel-args`, `chip`, `ptx`).
    pub lower: LowerStructArgsOptions,
    /// Options of `lower-alloca` (`dynamic-alloca-size`, `local-allocas`,
    /// `hoist-allocas`; its `llvm-opt-after` is ignored: the pipeline hands
    /// it `lower`'s).
    pub alloca: LowerAllocaOptions,
    /// Options of `memory-space-opt` (`kernel-params-global`).
    pub memory: MemorySpaceOptOptions,
    /// Options of `convert-ptxcc-to-llvm` (`inline-copy-threshold`,
    /// `vector-copy`).
    pub convert: ConvertPtxccToLlvmOptions,
    /// Run `ptxcc-verify` at the end.
    pub verify: bool,
    /// `ptxcc-verify`'s `strict-atomics` (its target and `opt-byval` are
    /// the pipeline's).
    pub strict_atomics: bool,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        let lower = LowerStructArgsOptions::default();
        Self {
            opt_byval: lower.opt_byval,
            lower,
            alloca: LowerAllocaOptions::default(),
            memory: MemorySpaceOptOptions::default(),
            convert: ConvertPtxccToLlvmOptions::default(),
            verify: false,
            strict_atomics: VerifyOptions::default().strict_atomics,
        }
    }
}

impl PipelineOptions {
    /// The options `lower-struct-args` runs with.
    pub fn lower_struct_args(&self) -> LowerStructArgsOptions {
        LowerStructArgsOptions { opt_byval: self.opt_byval, ..self.lower.clone() }
    }

    /// The options `lower-alloca` runs with (`llvm-opt-after`, `chip` and
    /// `ptx` are the ones `lower-struct-args` gets).
    pub fn lower_alloca(&self) -> LowerAllocaOptions {
        LowerAllocaOptions {
            llvm_opt_after: self.lower.llvm_opt_after,
            target: self.lower.target.clone(),
            ..self.alloca.clone()
        }
    }

    /// The options `memory-space-opt` runs with.
    pub fn memory_space_opt(&self) -> MemorySpaceOptOptions {
        MemorySpaceOptOptions { opt_byval: self.opt_byval, llvm_opt_after: self.lower.llvm_opt_after, ..self.memory }
    }

    /// The options `ptxcc-verify` runs with (when `verify` is on).
    pub fn verify_options(&self) -> VerifyOptions {
        VerifyOptions {
            target: self.lower.target.clone(),
            opt_byval: self.opt_byval,
            strict_atomics: self.strict_atomics,
        }
    }
}

const LOWER: &[OptionInfo] = LowerStructArgsOptions::OPTIONS;
const ALLOCA: &[OptionInfo] = LowerAllocaOptions::OPTIONS;
const MEMORY: &[OptionInfo] = MemorySpaceOptOptions::OPTIONS;
const CONVERT: &[OptionInfo] = ConvertPtxccToLlvmOptions::OPTIONS;
const VERIFY: &[OptionInfo] = VerifyOptions::OPTIONS;
/// The pipeline's own option.
const RUN_VERIFY: OptionInfo = OptionInfo {
    name: "verify",
    default: "false",
    description: "run ptxcc-verify at the end (with the pipeline's chip, ptx and opt-byval)",
};

impl PassOptions for PipelineOptions {
    const PASS: &'static str = "ptxcc-pipeline";
    const SUMMARY: &'static str = "The whole ptxcc lowering, with one set of options shared by every pass";
    const OPTIONS: &'static [OptionInfo] = &[
        LOWER[0], LOWER[1], LOWER[2], LOWER[3], LOWER[4], LOWER[5], LOWER[6], LOWER[7], LOWER[8], LOWER[9], LOWER[10],
        ALLOCA[0], ALLOCA[1], ALLOCA[2], MEMORY[1], CONVERT[0], CONVERT[1], RUN_VERIFY, VERIFY[3],
    ];

    fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let has = |options: &[OptionInfo]| options.iter().any(|option| option.name == name);
        let result = if name == "opt-byval" {
            parse_bool(Self::PASS, name, value).map(|on| self.opt_byval = on)
        } else if has(LOWER) {
            self.lower.set(name, value)
        } else if has(ALLOCA) {
            self.alloca.set(name, value)
        } else if has(MEMORY) {
            self.memory.set(name, value)
        } else if has(CONVERT) {
            self.convert.set(name, value)
        } else if name == RUN_VERIFY.name {
            parse_bool(Self::PASS, name, value).map(|on| self.verify = on)
        } else if name == VERIFY[3].name {
            parse_bool(Self::PASS, name, value).map(|on| self.strict_atomics = on)
        } else {
            return Err(unknown_option::<Self>(name));
        };
        result.map_err(|error| error.for_pass(Self::PASS))
    }
}

// The list above names every option of the pipeline's passes, each once:
// `opt-byval` belongs to two passes, `llvm-opt-after` to three, `chip` and
// `ptx` to lower-struct-args and lower-alloca, and each is listed once;
// of ptxcc-verify's options only `strict-atomics` is its own (chip, ptx,
// opt-byval are shared), and `verify` is the pipeline's.
const _: () =
    assert!(PipelineOptions::OPTIONS.len() == LOWER.len() + ALLOCA.len() + MEMORY.len() + CONVERT.len() - 5 + 2);
const _: () = assert!(
    str_eq(LOWER[8].name, "llvm-opt-after")
        && str_eq(ALLOCA[3].name, "llvm-opt-after")
        && str_eq(ALLOCA[4].name, "chip")
        && str_eq(ALLOCA[5].name, "ptx")
        && str_eq(MEMORY[2].name, "llvm-opt-after")
);
const _: () = assert!(str_eq(LOWER[0].name, "opt-byval") && str_eq(MEMORY[0].name, "opt-byval"));
const _: () = assert!(
    VERIFY.len() == 4
        && str_eq(VERIFY[0].name, "chip")
        && str_eq(VERIFY[1].name, "ptx")
        && str_eq(VERIFY[2].name, "opt-byval")
        && str_eq(VERIFY[3].name, "strict-atomics")
);

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A pass manager ptxcc adds passes to: the top-level [`PassManager`] (on
/// `builtin.module`) or a nested [`OperationPassManager`], e.g.
/// `pm.nested_under("gpu.module")` where upstream nests its GPU passes.
pub trait AnyPassManager {
    /// The pass manager as an op pass manager.
    fn op_pass_manager(&self) -> OperationPassManager<'_, '_>;
}

impl AnyPassManager for PassManager<'_> {
    fn op_pass_manager(&self) -> OperationPassManager<'_, '_> {
        self.as_operation_pass_manager()
    }
}

impl AnyPassManager for OperationPassManager<'_, '_> {
    fn op_pass_manager(&self) -> OperationPassManager<'_, '_> {
        *self
    }
}

/// The op name `pm` is anchored on (`builtin.module`, `gpu.module`, ...).
pub fn anchor_of(pm: &impl AnyPassManager) -> String {
    // SAFETY: the pass manager is alive; the name is copied at once.
    unsafe { shim::to_string(shim::ptxccOpPassManagerAnchor(pm.op_pass_manager().to_raw())) }
}

/// Adds the whole pipeline to `pm`, a pass manager on `builtin.module` or
/// `gpu.module` (top-level or nested: `pm.nested_under("gpu.module")`).
/// A pass manager on any other op is an error, not an abort.
pub fn add_pipeline(pm: &impl AnyPassManager, options: &PipelineOptions) -> Result<(), AddPassError> {
    let anchor = anchor_of(pm);
    check_module_anchor(PipelineOptions::PASS, &anchor)?;
    add_pipeline_to(&pm.op_pass_manager(), &anchor, options);
    Ok(())
}

/// Adds the whole pipeline to `pm`, a pass manager on `anchor` (one of
/// [`MODULE_OPS`](ptxcc_conversions::pass::MODULE_OPS)).
pub(crate) fn add_pipeline_to(pm: &OperationPassManager, anchor: &str, options: &PipelineOptions) {
    pm.add_pass(create_lower_struct_args_pass(&options.lower_struct_args()));
    on_functions(pm, anchor, |functions| {
        functions.add_pass(create_lower_alloca_pass(&options.lower_alloca()));
        functions.add_pass(create_memory_space_opt_pass(&options.memory_space_opt()));
        functions.add_pass(create_convert_ptxcc_to_llvm_pass(&options.convert));
    });
    let nested = options.clone();
    pm.add_pass(nested_functions_pass(PipelineOptions::PASS, move |func| run_function_passes(func, &nested)));
    if options.verify {
        pm.add_pass(create_verify_pass(&options.verify_options()));
    }
}

/// Runs the function passes of the pipeline, in order, on one function.
fn run_function_passes(func: OperationRef, options: &PipelineOptions) -> bool {
    lower_alloca(func, &options.lower_alloca()).is_ok()
        && memory_space_opt(func, &options.memory_space_opt()).is_ok()
        && convert_ptxcc_to_llvm(func, &options.convert).is_ok()
}
