//! `ptxcc-pipeline`: the passes of ptxcc in order, with one set of options.
//!
//! Today the pipeline is `convert-ptxcc-to-llvm`; `lower-struct-args`,
//! `lower-alloca` and `memory-space-opt` join it, in that order and before
//! the conversion, as they land. Options shared by several passes (such as
//! `opt-byval`) live here once and are handed to every pass that reads them.

use melior::pass::{OperationPassManager, PassManager};
use ptxcc_conversions::{
    ptxcc_to_llvm::{create_convert_ptxcc_to_llvm_pass, ConvertPtxccToLlvmOptions},
    OptionError, OptionInfo, PassOptions,
};

use crate::registry::on_functions;

/// Options of `ptxcc-pipeline`: the union of its passes' options, each once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PipelineOptions {
    /// Options of `convert-ptxcc-to-llvm`.
    pub convert: ConvertPtxccToLlvmOptions,
}

impl PassOptions for PipelineOptions {
    const PASS: &'static str = "ptxcc-pipeline";
    const OPTIONS: &'static [OptionInfo] = ConvertPtxccToLlvmOptions::OPTIONS;

    fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        self.convert.set(name, value)
    }

    fn to_text(&self) -> String {
        self.convert.to_text()
    }
}

/// Adds the whole pipeline to `pm`, a pass manager on `builtin.module`.
pub fn add_pipeline(pm: &PassManager, options: &PipelineOptions) {
    add_pipeline_to(&pm.as_operation_pass_manager(), "builtin.module", options);
}

/// Adds the whole pipeline to `pm`, anchored on the op named `anchor`.
pub(crate) fn add_pipeline_to(pm: &OperationPassManager, anchor: &str, options: &PipelineOptions) {
    on_functions(pm, anchor, |functions| {
        functions.add_pass(create_convert_ptxcc_to_llvm_pass(&options.convert));
    });
}
