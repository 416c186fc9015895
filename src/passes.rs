//! A ptxcc pass as the registry and the pipeline see it: its entry
//! ([`PassInfo`]: name, summary, options, anchor, how to add it) and the
//! rules for adding a pass to a pass manager on a given op.
//!
//! The bottom of the driver library's layers: `pipeline` builds on it, and
//! `registry` on both.

use melior::pass::OperationPassManager;
use ptxcc_conversions::ir::LLVM_FUNC;
use ptxcc_conversions::{
    pass::{PtxccPass, MODULE_OPS},
    OptionError, OptionInfo,
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
pub(crate) const fn entry<T: PtxccPass>() -> PassInfo {
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
    if T::ANCHOR == LLVM_FUNC {
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

/// Runs `add` on a pass manager for `llvm.func` ops: `pm` itself when it is
/// anchored there, a nested one otherwise.
pub(crate) fn on_functions(pm: &OperationPassManager, anchor: &str, add: impl FnOnce(&OperationPassManager)) {
    if anchor == LLVM_FUNC {
        add(pm);
    } else {
        add(&pm.nested_under(LLVM_FUNC));
    }
}
