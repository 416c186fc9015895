//! `ptxcc-pipeline`: the passes of ptxcc in order, with one set of options.
//!
//! `lower-struct-args` (on the module), then on every function
//! `promote-local-arrays` (with `promote-local=true`, the default),
//! `lower-alloca`, `memory-space-opt` and `convert-ptxcc-to-llvm`, and with
//! `verify=true` `ptxcc-verify` on the result (same chip, PTX version and
//! `opt-byval`). Options
//! shared by several passes live here once: `opt-byval` is one field,
//! [`PipelineOptions::opt_byval`], handed to both `lower-struct-args` and
//! `memory-space-opt` (seed 002: both passes must read the same byte).

use melior::ir::OperationRef;
use melior::pass::{OperationPassManager, Pass, PassManager};
use ptxcc_conversions::{
    lower_alloca::LowerAllocaOptions,
    lower_struct_args::LowerStructArgsOptions,
    memory_space_opt::MemorySpaceOptOptions,
    options::{parse_bool, union, unknown_option},
    pass::{nested_functions_pass, PtxccPass},
    promote_local::PromoteLocalArraysOptions,
    ptxcc_to_llvm::ConvertPtxccToLlvmOptions,
    verify::VerifyOptions,
    OptionError, OptionInfo, PassOptions,
};

use crate::{
    passes::{check_module_anchor, entry, on_functions, AddPassError, PassInfo},
    shim,
};

/// One pass of the pipeline: its registry entry, and how it is made from
/// the pipeline's options.
#[derive(Clone, Copy)]
pub(crate) struct Stage {
    /// The pass's own entry (`--help`, registration by name).
    pub info: PassInfo,
    /// The pipeline option that turns the pass on (listed just before the
    /// pass's own options); `None`: it always runs.
    pub switch: Option<OptionInfo>,
    /// The pass with the pipeline's options; `None` when it is off.
    create: fn(&PipelineOptions) -> Option<Pass>,
    /// Runs it on one function (for a pass on `llvm.func`).
    run: fn(OperationRef, &PipelineOptions) -> bool,
}

/// A pass as a pipeline stage: the options it runs with, taken from the
/// pipeline's.
trait FromPipeline: PtxccPass {
    /// The pipeline option that turns it on, if it is optional.
    const SWITCH: Option<OptionInfo> = None;

    /// Its options under `options`; `None` when it does not run.
    fn from_pipeline(options: &PipelineOptions) -> Option<Self>;
}

impl Stage {
    const fn of<T: FromPipeline>() -> Self {
        Self { info: entry::<T>(), switch: T::SWITCH, create: create_stage::<T>, run: run_stage::<T> }
    }

    fn on_functions(&self) -> bool {
        self.info.anchor == ptxcc_conversions::ir::LLVM_FUNC
    }
}

fn create_stage<T: FromPipeline>(options: &PipelineOptions) -> Option<Pass> {
    T::from_pipeline(options).map(|pass| pass.create_pass())
}

fn run_stage<T: FromPipeline>(func: OperationRef, options: &PipelineOptions) -> bool {
    T::from_pipeline(options).is_none_or(|pass| pass.run(func))
}

/// The passes of the pipeline, in order: the one place the order is
/// written (the pass manager, the nested-modules runner, the option table
/// and the registry's order all follow it).
pub(crate) const STAGES: &[Stage] = &[
    Stage::of::<LowerStructArgsOptions>(),
    Stage::of::<PromoteLocalArraysOptions>(),
    Stage::of::<LowerAllocaOptions>(),
    Stage::of::<MemorySpaceOptOptions>(),
    Stage::of::<ConvertPtxccToLlvmOptions>(),
    Stage::of::<VerifyOptions>(),
];

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
    /// Run `promote-local-arrays` (after `lower-struct-args`, before
    /// `lower-alloca`).
    pub promote_local: bool,
    /// Options of `promote-local-arrays` (`max-promoted-registers`,
    /// `max-unrolled-ops`, `max-trip-count`, `promote-remarks`).
    pub promote: PromoteLocalArraysOptions,
    /// Options of `lower-alloca` (`dynamic-alloca-size`, `local-allocas`,
    /// `hoist-allocas`; its `llvm-opt-after` is ignored: the pipeline hands
    /// it `lower`'s).
    pub alloca: LowerAllocaOptions,
    /// Options of `memory-space-opt` (`kernel-params-global`).
    pub memory: MemorySpaceOptOptions,
    /// Options of `convert-ptxcc-to-llvm` (`inline-copy-threshold`,
    /// `vector-copy`; its `llvm-opt-after` is ignored: the pipeline hands it
    /// `lower`'s).
    pub convert: ConvertPtxccToLlvmOptions,
    /// Run `ptxcc-verify` at the end.
    pub verify: bool,
    /// Options of `ptxcc-verify` (`strict-atomics`; its `chip`, `ptx` and
    /// `opt-byval` are ignored: the pipeline hands it `lower`'s and
    /// [`PipelineOptions::opt_byval`]).
    pub verifier: VerifyOptions,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        let lower = LowerStructArgsOptions::default();
        Self {
            opt_byval: lower.opt_byval,
            lower,
            promote_local: true,
            promote: PromoteLocalArraysOptions::default(),
            alloca: LowerAllocaOptions::default(),
            memory: MemorySpaceOptOptions::default(),
            convert: ConvertPtxccToLlvmOptions::default(),
            verify: false,
            verifier: VerifyOptions::default(),
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

    /// The options `convert-ptxcc-to-llvm` runs with (`llvm-opt-after` is
    /// the one `lower-struct-args` gets).
    pub fn convert_options(&self) -> ConvertPtxccToLlvmOptions {
        ConvertPtxccToLlvmOptions { llvm_opt_after: self.lower.llvm_opt_after, ..self.convert }
    }

    /// The options `ptxcc-verify` runs with (when `verify` is on).
    pub fn verify_options(&self) -> VerifyOptions {
        VerifyOptions { target: self.lower.target.clone(), opt_byval: self.opt_byval, ..self.verifier.clone() }
    }
}

impl FromPipeline for LowerStructArgsOptions {
    fn from_pipeline(options: &PipelineOptions) -> Option<Self> {
        Some(options.lower_struct_args())
    }
}

impl FromPipeline for PromoteLocalArraysOptions {
    const SWITCH: Option<OptionInfo> = Some(OptionInfo {
        name: "promote-local",
        default: "true",
        description:
            "run promote-local-arrays: unroll counted loops over per-thread arrays so that they become registers",
    });

    fn from_pipeline(options: &PipelineOptions) -> Option<Self> {
        options.promote_local.then(|| options.promote.clone())
    }
}

impl FromPipeline for LowerAllocaOptions {
    fn from_pipeline(options: &PipelineOptions) -> Option<Self> {
        Some(options.lower_alloca())
    }
}

impl FromPipeline for MemorySpaceOptOptions {
    fn from_pipeline(options: &PipelineOptions) -> Option<Self> {
        Some(options.memory_space_opt())
    }
}

impl FromPipeline for ConvertPtxccToLlvmOptions {
    fn from_pipeline(options: &PipelineOptions) -> Option<Self> {
        Some(options.convert_options())
    }
}

impl FromPipeline for VerifyOptions {
    const SWITCH: Option<OptionInfo> = Some(OptionInfo {
        name: "verify",
        default: "false",
        description: "run ptxcc-verify at the end (with the pipeline's chip, ptx and opt-byval)",
    });

    fn from_pipeline(options: &PipelineOptions) -> Option<Self> {
        options.verify.then(|| options.verify_options())
    }
}

/// The option tables of the stages, in order, each switch before its
/// pass's options.
const fn stage_tables<const N: usize>() -> [&'static [OptionInfo]; N] {
    let mut tables: [&'static [OptionInfo]; N] = [&[]; N];
    let mut index = 0;
    while index < STAGES.len() {
        if let Some(switch) = &STAGES[index].switch {
            tables[2 * index] = std::slice::from_ref(switch);
        }
        tables[2 * index + 1] = STAGES[index].info.options;
        index += 1;
    }
    tables
}

/// Every option of the stages, each name once, at its first place: an
/// option two passes share (`opt-byval`, `llvm-opt-after`, `chip`, `ptx`)
/// is one option of the pipeline.
const OPTION_TABLE: ([OptionInfo; TOTAL], usize) = union::<TOTAL>(&TABLES);
const TABLES: [&[OptionInfo]; 2 * STAGES.len()] = stage_tables();
/// How many options the stages have in all, shared ones counted each time.
const TOTAL: usize = {
    let (mut total, mut index) = (0, 0);
    while index < TABLES.len() {
        total += TABLES[index].len();
        index += 1;
    }
    total
};

impl PassOptions for PipelineOptions {
    const PASS: &'static str = "ptxcc-pipeline";
    const SUMMARY: &'static str = "The whole ptxcc lowering, with one set of options shared by every pass";
    const OPTIONS: &'static [OptionInfo] = OPTION_TABLE.0.split_at(OPTION_TABLE.1).0;

    fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let has = |options: &[OptionInfo]| options.iter().any(|option| option.name == name);
        // Shared options go to the first pass that has them; the accessors
        // above hand them to the others.
        let result = if name == "opt-byval" {
            parse_bool(Self::PASS, name, value).map(|on| self.opt_byval = on)
        } else if has(LowerStructArgsOptions::OPTIONS) {
            self.lower.set(name, value)
        } else if PromoteLocalArraysOptions::SWITCH.is_some_and(|switch| switch.name == name) {
            parse_bool(Self::PASS, name, value).map(|on| self.promote_local = on)
        } else if has(PromoteLocalArraysOptions::OPTIONS) {
            self.promote.set(name, value)
        } else if has(LowerAllocaOptions::OPTIONS) {
            self.alloca.set(name, value)
        } else if has(MemorySpaceOptOptions::OPTIONS) {
            self.memory.set(name, value)
        } else if has(ConvertPtxccToLlvmOptions::OPTIONS) {
            self.convert.set(name, value)
        } else if VerifyOptions::SWITCH.is_some_and(|switch| switch.name == name) {
            parse_bool(Self::PASS, name, value).map(|on| self.verify = on)
        } else if has(VerifyOptions::OPTIONS) {
            self.verifier.set(name, value)
        } else {
            return Err(unknown_option::<Self>(name));
        };
        result.map_err(|error| error.for_pass(Self::PASS))
    }
}

/// The pipeline's registry entry.
pub(crate) const PIPELINE: PassInfo = PassInfo {
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
};

/// A pass manager ptxcc adds passes to: the top-level [`PassManager`] (on
/// `builtin.module`) or a nested [`OperationPassManager`], e.g.
/// `pm.nested_under("gpu.module")` where upstream nests its GPU passes.
pub trait AnyPassManager {
    /// The pass manager as an op pass manager.
    fn op_pass_manager(&self) -> OperationPassManager<'_, '_>;

    /// The op it runs on, where its anchor does not say: a top-level
    /// [`PassManager`] is anchored on `any` in MLIR 22 but runs on the
    /// `builtin.module` given to [`PassManager::run`].
    fn runs_on(&self) -> Option<&'static str> {
        None
    }
}

impl AnyPassManager for PassManager<'_> {
    fn op_pass_manager(&self) -> OperationPassManager<'_, '_> {
        self.as_operation_pass_manager()
    }

    fn runs_on(&self) -> Option<&'static str> {
        Some(ptxcc_conversions::pass::MODULE_OPS[0])
    }
}

impl AnyPassManager for OperationPassManager<'_, '_> {
    fn op_pass_manager(&self) -> OperationPassManager<'_, '_> {
        *self
    }
}

/// The op name `pm` is anchored on (`builtin.module`, `gpu.module`, ...).
pub fn anchor_of(pm: &impl AnyPassManager) -> String {
    let anchor = shim::op_pass_manager_anchor(pm.op_pass_manager().to_raw());
    match pm.runs_on() {
        Some(op) if anchor == "any" => op.to_string(),
        _ => anchor,
    }
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
/// [`MODULE_OPS`](ptxcc_conversions::pass::MODULE_OPS)), in [`STAGES`]
/// order: a module pass as it is; each run of function passes nested on
/// `llvm.func` (in parallel), followed by one pass that runs them in
/// order on the functions of nested modules.
pub(crate) fn add_pipeline_to(pm: &OperationPassManager, anchor: &str, options: &PipelineOptions) {
    let mut index = 0;
    while index < STAGES.len() {
        if !STAGES[index].on_functions() {
            if let Some(pass) = (STAGES[index].create)(options) {
                pm.add_pass(pass);
            }
            index += 1;
            continue;
        }
        let end = index + STAGES[index..].iter().take_while(|stage| stage.on_functions()).count();
        let run: &'static [Stage] = &STAGES[index..end];
        on_functions(pm, anchor, |functions| {
            for pass in run.iter().filter_map(|stage| (stage.create)(options)) {
                functions.add_pass(pass);
            }
        });
        let nested = options.clone();
        pm.add_pass(nested_functions_pass(PipelineOptions::PASS, move |func| {
            run.iter().all(|stage| (stage.run)(func, &nested))
        }));
        index = end;
    }
}
