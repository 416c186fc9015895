//! `ptxcc-pipeline`: the passes of ptxcc in order, with one set of options.
//!
//! Today the pipeline is `lower-struct-args` then `convert-ptxcc-to-llvm`;
//! `lower-alloca` and `memory-space-opt` join it between the two as they
//! land. Options shared by several passes (such as `opt-byval`) live here
//! once and are handed to every pass that reads them.

use melior::pass::{OperationPassManager, PassManager};
use ptxcc_conversions::{
    lower_struct_args::{create_lower_struct_args_pass, LowerStructArgsOptions},
    options::unknown_option,
    ptxcc_to_llvm::{create_convert_ptxcc_to_llvm_pass, ConvertPtxccToLlvmOptions},
    OptionError, OptionInfo, PassOptions,
};

use crate::registry::on_functions;

/// Options of `ptxcc-pipeline`: the union of its passes' options, each once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PipelineOptions {
    /// Options of `lower-struct-args` (`opt-byval`, `max-byval-size`, the
    /// flatten/vector/sret thresholds, `flatten-kernel-args`, `chip`, `ptx`).
    pub lower: LowerStructArgsOptions,
    /// Options of `convert-ptxcc-to-llvm` (`inline-copy-threshold`,
    /// `vector-copy`).
    pub convert: ConvertPtxccToLlvmOptions,
}

const LOWER: &[OptionInfo] = LowerStructArgsOptions::OPTIONS;
const CONVERT: &[OptionInfo] = ConvertPtxccToLlvmOptions::OPTIONS;

impl PassOptions for PipelineOptions {
    const PASS: &'static str = "ptxcc-pipeline";
    const SUMMARY: &'static str = "The whole ptxcc lowering, with one set of options shared by every pass";
    const OPTIONS: &'static [OptionInfo] =
        &[LOWER[0], LOWER[1], LOWER[2], LOWER[3], LOWER[4], LOWER[5], LOWER[6], LOWER[7], CONVERT[0], CONVERT[1]];

    fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let has = |options: &[OptionInfo]| options.iter().any(|option| option.name == name);
        let result = if has(LOWER) {
            self.lower.set(name, value)
        } else if has(CONVERT) {
            self.convert.set(name, value)
        } else {
            return Err(unknown_option::<Self>(name));
        };
        result.map_err(|error| error.for_pass(Self::PASS))
    }
}

// The list above names every option of the pipeline's passes, each once.
const _: () = assert!(PipelineOptions::OPTIONS.len() == LOWER.len() + CONVERT.len());

/// Adds the whole pipeline to `pm`, a pass manager on `builtin.module`.
pub fn add_pipeline(pm: &PassManager, options: &PipelineOptions) {
    add_pipeline_to(&pm.as_operation_pass_manager(), "builtin.module", options);
}

/// Adds the whole pipeline to `pm`, anchored on the op named `anchor`.
pub(crate) fn add_pipeline_to(pm: &OperationPassManager, anchor: &str, options: &PipelineOptions) {
    pm.add_pass(create_lower_struct_args_pass(&options.lower));
    on_functions(pm, anchor, |functions| {
        functions.add_pass(create_convert_ptxcc_to_llvm_pass(&options.convert));
    });
}
