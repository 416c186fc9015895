//! `convert-ptxcc-to-llvm`: every `ptxcc` op becomes LLVM/NVVM-dialect ops.
//!
//! | op | becomes |
//! |---|---|
//! | `load_param` | `llvm.getelementptr` (i8, constant offset; none for 0) + `llvm.load` from `!llvm.ptr<101>` with the op's alignment |
//! | `param_to_generic` | `llvm.addrspacecast` 101 -> 0; the kernel parameter gets `nvvm.grid_constant`, the function `nvvm.kernel` |
//! | `param_to_global` | `llvm.addrspacecast` 101 -> 0 -> 1 (NVPTX cannot cast param to global directly); marks as above |
//! | `generic_to_as` | `llvm.addrspacecast` 0 -> N |
//! | `copy_param` | loads/stores of the widest width the alignment allows, up to `inline-copy-threshold` bytes; above, or holding more than 16 registers, a loop of one such access per iteration (`v4.b32` when 16-aligned; bytes for 1-aligned copies) that ptxas must not unroll (`.pragma "nounroll"`), with the tail unrolled |
//!
//! The code's own `llvm.intr.memcpy` and `llvm.intr.memset` of a constant
//! length above 64 bytes, which `llc` 22 expands into a loop of one byte per
//! iteration before its SROA runs, become the same loop of the widest
//! aligned access (a fill of a constant byte: at most 64 stores, or a loop),
//! or one integer access per field into or out of a slot SROA breaks up
//! ([`copy_loop::expand_memory_intrinsics`]; not when LLVM's optimizer runs
//! after ptxcc, `llvm-opt-after`).
//!
//! Without the `nvvm.grid_constant` mark `llc` runs its own NVPTXLowerArgs on
//! the output and copies the whole struct to local memory instead of
//! emitting `cvta.param`.
//!
//! The conversion first checks everything it needs (the ops verify, each
//! param-space cast leads back to a `byval` parameter of a kernel); if
//! anything is wrong it reports every problem at its location and leaves the
//! function untouched.

mod casts;
pub mod copy_loop;
mod copy_param;
mod load_param;

use crate::ir::LlvmOp;
use melior::{
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        OperationRef, ValueLike,
    },
    pass::Pass,
    Context, RewritePatternSet,
};
use ptxcc_dialect::verify::emit_error;

pub use casts::{param_space_parameter, populate_cast_patterns};
pub use copy_param::{plan_inline_copy, populate_copy_param_patterns, Access, AccessKind};
pub use load_param::populate_load_param_patterns;

use crate::options::{declare_pass, LlvmOptAfter};
use crate::{context::context_of, pass::PtxccPass};

declare_pass! {
    /// Options of `convert-ptxcc-to-llvm`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct ConvertPtxccToLlvmOptions {
        /// Copies of at most this many bytes are expanded inline; larger ones
        /// become a copy loop (seed 001's `nvptx-byval-inline-threshold`,
        /// whose 256 is the seed's default). 64: ptxas issues an inline
        /// copy's loads together, so a 128-byte one took 32 registers
        /// where the loop takes 12 and llc's byte loop 31 (ptxas -v, sm_90).
        pub inline_copy_threshold: u64 = option(
            "inline-copy-threshold",
            "64",
            "copy_param of at most this many bytes is expanded into loads and stores; larger copies become a copy loop"
        ),
        /// Use `vector<4xi32>` accesses for 16-byte aligned copies (seed 001's
        /// `nvptx-byval-vector`); scalars of at most 8 bytes otherwise (an
        /// 8-byte piece is an `i64` either way).
        pub vector_copy: bool = option("vector-copy", "true", "expand copies with 16-byte v4 accesses when the alignment allows (8-byte pieces are b64 either way)"),
        /// Whether LLVM's optimizer runs on the output before `llc`: then
        /// `memcpy`s and `memset`s longer than 64 bytes stay (its SROA
        /// splits them), instead of becoming ptxcc's wide loops (llc's are
        /// byte loops, made before its SROA).
        pub llvm_opt_after: LlvmOptAfter = option("llvm-opt-after", "auto", LlvmOptAfter::DESCRIPTION),
    }
    pass "convert-ptxcc-to-llvm" (ConvertPtxccToLlvm) on crate::ir::LLVM_FUNC:
        "Lower every ptxcc op to LLVM/NVVM-dialect ops (ld.param, cvta.param, vectorised copies)";
    fn run(&self, function) -> bool {
        convert_ptxcc_to_llvm(function, self).is_ok()
    }
}

/// Why the conversion failed; the details went out as diagnostics.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConversionError {
    /// Some ptxcc ops do not verify or cannot be lowered (reported at their locations).
    #[error("{0} ptxcc op(s) cannot be lowered")]
    Illegal(usize),
}

/// Adds every lowering pattern of the conversion to `patterns`.
pub fn populate_ptxcc_to_llvm_patterns(
    patterns: &RewritePatternSet,
    context: &Context,
    options: &ConvertPtxccToLlvmOptions,
) {
    populate_load_param_patterns(patterns, context);
    populate_cast_patterns(patterns, context);
    populate_copy_param_patterns(patterns, context, options);
}

/// The parameters that the param-space casts of `ops` convert: (the cast,
/// the byval parameter's index). Checks every ptxcc op of `ops` first and
/// reports each problem as an error at its op: the op must verify
/// ([`ptxcc_dialect::verify_op`]: among its rules, offsets and sizes within
/// the largest param space, so a `load_param` offset fits a GEP index and a
/// copy is never larger than 32764 bytes), and every
/// `param_to_generic`/`param_to_global` must convert the
/// param-space view of a `byval` parameter of the kernel it is in. `Err`
/// holds how many problems there were.
///
/// `memory-space-opt` runs the same check before it folds any cast: folding
/// first made an invalid `param_to_generic` disappear into a load.
pub fn check_ptxcc_ops<'c, 'a>(
    ops: &[OperationRef<'c, 'a>],
) -> Result<Vec<(OperationRef<'c, 'a>, usize)>, ConversionError> {
    let mut problems = 0;
    let mut grid_constants = Vec::new();
    for &op in ops {
        // (One name lookup for the ops of other dialects, most of them.)
        if ptxcc_dialect::OpInfo::find(crate::ir::op_name(op)).is_none() {
            continue;
        }
        let invalid = ptxcc_dialect::verify_op(op);
        if invalid > 0 {
            problems += invalid;
            continue;
        }
        match casts::check(op) {
            Ok(Some(index)) => grid_constants.push((op, index)),
            Ok(None) => {}
            Err(message) => {
                emit_error(op.location(), &message);
                problems += 1;
            }
        }
    }
    if problems > 0 {
        return Err(ConversionError::Illegal(problems));
    }
    Ok(grid_constants)
}

/// Lowers every ptxcc op inside `root` (an `llvm.func`, or a module).
///
/// Checks first ([`check_ptxcc_ops`]) and changes nothing when a check
/// fails. Then marks the parameters the param-space casts convert
/// `nvvm.grid_constant` (and the kernel `nvvm.kernel`), expands the large
/// copies (`copy_param`, and the code's own `memcpy`/`memset` that `llc`
/// would make byte loops: [`copy_loop::expand_memory_intrinsics`]) and
/// applies the patterns once to every op.
pub fn convert_ptxcc_to_llvm(root: OperationRef, options: &ConvertPtxccToLlvmOptions) -> Result<(), ConversionError> {
    // Collected first: a panic cannot unwind through MLIR's walk callback.
    // Only ptxcc ops are checked; most functions of a large module hold
    // none, and then no pattern can apply either, so the pattern driver (a
    // walk and a worklist) is skipped.
    let is_ptxcc = |op: &OperationRef| ptxcc_dialect::OpInfo::find(crate::ir::op_name(*op)).is_some();
    let ops: Vec<_> = std::iter::once(root).chain(crate::ir::nested_ops(root)).filter(is_ptxcc).collect();
    if ops.is_empty() {
        copy_loop::expand_memory_intrinsics(root, options);
        return Ok(());
    }
    let grid_constants = check_ptxcc_ops(&ops)?;
    for (op, index) in grid_constants {
        if let Some(func) = crate::kernel::enclosing_function(op) {
            casts::mark_grid_constant(func, index);
        }
    }
    copy_loop::expand_copy_loops(root, options);
    copy_loop::expand_memory_intrinsics(root, options);

    let context = context_of(root);
    let patterns = RewritePatternSet::new(context);
    populate_ptxcc_to_llvm_patterns(&patterns, context, options);
    melior::walk_and_apply_patterns(root, patterns.freeze());

    let mut left = 0;
    root.walk(WalkOrder::PreOrder, |op| {
        if ptxcc_dialect::OpInfo::find(crate::ir::op_name(op)).is_some() {
            emit_error(op.location(), "failed to lower this ptxcc op to the LLVM dialect");
            left += 1;
        }
        WalkResult::Advance
    });
    if left > 0 {
        return Err(ConversionError::Illegal(left));
    }
    Ok(())
}

/// The `convert-ptxcc-to-llvm` pass, anchored on `llvm.func`.
pub fn create_convert_ptxcc_to_llvm_pass(options: &ConvertPtxccToLlvmOptions) -> Pass {
    options.create_pass()
}

/// Builds the replacement of one op at its position.
pub(crate) struct Emitter<'c> {
    rewriter: melior::RewriterBase<'c, 'c>,
    /// The context, for type and attribute builders.
    pub context: &'c Context,
    /// The location of the op being replaced; every new op gets it.
    pub location: melior::ir::Location<'c>,
}

impl<'c> Emitter<'c> {
    /// Inserts `operation` before the op being replaced and returns its first
    /// result (if any).
    pub fn emit(&self, operation: melior::ir::Operation<'c>) -> Option<melior::ir::Value<'c, 'c>> {
        crate::ir::insert_through(&self.rewriter, operation)
    }

    /// `base` advanced by `offset` bytes (an i8 `llvm.getelementptr`; `base`
    /// itself for 0).
    pub fn byte_offset(&self, base: melior::ir::Value<'c, 'c>, offset: u64) -> Option<melior::ir::Value<'c, 'c>> {
        if offset == 0 {
            return Some(base);
        }
        self.emit(melior::dialect::llvm::get_element_ptr(
            self.context,
            base,
            melior::ir::attribute::DenseI32ArrayAttribute::new(self.context, &[i32::try_from(offset).ok()?]),
            melior::ir::r#type::IntegerType::new(self.context, 8).into(),
            base.r#type(),
            self.location,
        ))
    }

    /// `value` cast to the pointer type `to` (`llvm.addrspacecast`).
    pub fn addrspacecast(
        &self,
        value: melior::ir::Value<'c, 'c>,
        to: melior::ir::Type<'c>,
    ) -> Option<melior::ir::Value<'c, 'c>> {
        self.emit(
            melior::ir::operation::OperationBuilder::new(LlvmOp::AddrSpaceCast.name(), self.location)
                .add_operands(&[value])
                .add_results(&[to])
                .build()
                .ok()?,
        )
    }
}

/// Adds a pattern that replaces every `root` op with what `lower` builds.
///
/// `lower` returns the values that replace the op's results (empty for an op
/// without results), or `None` to leave the op alone.
pub(crate) fn add_lowering<F>(patterns: &RewritePatternSet, context: &Context, root: &'static str, lower: F)
where
    F: for<'c> Fn(&Emitter<'c>, OperationRef<'c, 'c>) -> Option<Vec<melior::ir::Value<'c, 'c>>> + 'static,
{
    crate::ir::add_op_pattern(patterns, context, root, move |op, base| {
        base.set_insertion_point_before(op);
        let context = context_of(op);
        let emitter = Emitter { rewriter: base, context, location: op.location() };
        // A panic cannot unwind through MLIR's pattern driver: it becomes
        // an error at the op, which then stays (and fails the pass).
        let lowered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lower(&emitter, op)));
        let lowered = match lowered {
            Ok(lowered) => lowered,
            Err(_) => {
                emit_error(
                    op.location(),
                    "internal error while lowering this op; please report it with the input that caused it",
                );
                None
            }
        };
        match lowered {
            Some(values) => {
                if values.is_empty() {
                    base.erase_op(op);
                } else {
                    base.replace_op_with_values(op, &values);
                }
                true
            }
            None => false,
        }
    });
}
