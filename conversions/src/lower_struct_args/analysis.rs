//! The plan for one `byval` parameter of a kernel: every use of the
//! parameter and of the pointers derived from it, sorted into what the
//! rewrite does with it, and the strategy that follows.
//!
//! This is seed 002's work list of use edges: each use is decided on its
//! own, so a GEP feeding several loads gives one `load_param` per load.
//! Nothing is changed here; [`super::rewrite`] applies the plan.

use crate::ir::LlvmOp;
use crate::ir::OperationExt;
use melior::ir::{operation::OperationLike, OperationRef, Value, ValueLike};

use ptxcc_dialect::address_space;

use super::{
    decision::{lower_call_argument, CallArgument, CallArgumentLowering},
    readonly::{reads_without_capture, Escape, ReadOnlyAnalysis},
};
use crate::abi::mlir::gep_offset;
use crate::pointer_uses::{classify_pointer_use, PointerUse};
use crate::{
    abi::{layout::common_alignment, mlir::abi_type, DataLayout},
    ir::{call_argument_index, constant_int, integer_attribute, op_name, uses, Use},
    kernel::{parameter_has, parameter_integer, LLVM_BYVAL, NVVM_GRID_CONSTANT},
};

/// How a `byval` parameter of a kernel is lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Every use reads param space: `ptxcc.load_param` for constant
    /// offsets, loads from `!llvm.ptr<101>` otherwise. No copy, no cast.
    ParamSpace,
    /// As `ParamSpace`, and the uses that need a generic address (calls that
    /// only read, select/phi, comparisons) get one `ptxcc.param_to_generic`;
    /// the parameter becomes a grid constant.
    CastOnly,
    /// A local copy (`ptxcc.copy_param` into an alloca at the entry) that
    /// every use then works on.
    Copy,
}

/// A pointer derived from the parameter by constant or dynamic GEPs (node 0
/// is the parameter itself).
#[derive(Clone, Debug)]
pub struct Node<'c, 'a> {
    /// The pointer value.
    pub value: Value<'c, 'a>,
    /// The node it is a GEP of, and that GEP (`None` for the parameter).
    pub parent: Option<(usize, OperationRef<'c, 'a>)>,
    /// Its constant byte offset from the parameter, `None` when an index is
    /// not constant.
    pub offset: Option<i64>,
}

/// What the rewrite does with one use.
#[derive(Clone, Debug)]
pub enum Action<'c, 'a> {
    /// A load at a constant offset becomes `ptxcc.load_param`.
    FieldLoad {
        /// The `llvm.load`.
        load: OperationRef<'c, 'a>,
        /// Byte offset from the parameter.
        offset: i64,
        /// Alignment the param-space access may assume.
        alignment: u64,
    },
    /// The operand reads through the pointer: it gets the param-space view.
    ParamRead(Use<'c, 'a>, usize),
    /// `memcpy` from the parameter: becomes `ptxcc.copy_param` when its
    /// length is constant, a param-space memcpy otherwise.
    CopyFrom {
        /// The `llvm.intr.memcpy`/`memmove`.
        op: OperationRef<'c, 'a>,
        /// The node it copies from.
        node: usize,
        /// Alignment known for the source.
        alignment: u64,
    },
    /// An existing `llvm.addrspacecast` to param space: replaced by the
    /// param-space view.
    ParamView(OperationRef<'c, 'a>, usize),
    /// An `llvm.intr.assume` that names the pointer in a bundle: erased.
    DropAssume(OperationRef<'c, 'a>),
    /// An `llvm.icmp eq`/`ne` of a pointer into the parameter with null, or
    /// an `llvm.ptrtoint` of one whose every use compares it with zero: a
    /// byval parameter is never null, so each comparison becomes a constant
    /// and the conversion goes (LLVM folds the same tests before llc's
    /// lowering sees them).
    NullTest(OperationRef<'c, 'a>),
    /// The operand needs a generic address that is only read through.
    Generic(Use<'c, 'a>, usize),
}

/// The plan for one parameter.
#[derive(Clone, Debug)]
pub struct ArgumentPlan<'c, 'a> {
    /// Parameter index.
    pub index: usize,
    /// The `byval` type as MLIR writes it.
    pub mlir_type: melior::ir::Type<'c>,
    /// Its allocation size in bytes.
    pub size: u64,
    /// The alignment of its `.param`: what param-space reads may assume.
    pub alignment: u64,
    /// The alignment of a local copy ([`crate::pointer_uses::copy_alignment`]).
    pub local_alignment: u64,
    /// Pointers derived from the parameter.
    pub nodes: Vec<Node<'c, 'a>>,
    /// What happens to each use (for `ParamSpace` and `CastOnly`).
    pub actions: Vec<Action<'c, 'a>>,
    /// The first use that writes or lets the address escape (why a copy is
    /// made).
    pub escape: Option<Escape<'c, 'a>>,
    /// The chosen strategy.
    pub strategy: Strategy,
}

/// A problem that stops a kernel from being lowered.
#[derive(Clone, Debug)]
pub struct Problem<'c> {
    /// Where to report it.
    pub location: melior::ir::Location<'c>,
    /// The message.
    pub message: String,
    /// Whether it is "huge 'byval' arguments are unsupported".
    pub huge: bool,
}

/// Facts that decide between the strategies.
#[derive(Clone, Copy, Debug)]
pub struct PlanContext<'l> {
    /// The data layout.
    pub layout: &'l DataLayout,
    /// Whether the target has `cvta.param`.
    pub has_cvta_param: bool,
    /// Largest local copy allowed, in bytes.
    pub max_copy: u64,
    /// Whether the parameter belongs to a kernel (a device function's
    /// `byval` parameter never has a generic address but its copy's).
    pub kernel: bool,
}

/// A `byval` parameter of a kernel, as the ABI model describes it.
#[derive(Clone, Copy, Debug)]
pub struct ByvalParameter<'c, 'a> {
    /// Its index.
    pub index: usize,
    /// The parameter (an argument of the entry block).
    pub value: Value<'c, 'a>,
    /// The `byval` type.
    pub mlir_type: melior::ir::Type<'c>,
    /// The alignment of its `.param` (`FunctionSignature::param_align`).
    pub param_align: u64,
    /// Its `llvm.align`, if any (`ParamSignature::align`).
    pub declared_align: Option<u64>,
}

/// Plans the `byval` parameter `parameter` of the kernel `func`.
pub fn plan_argument<'c, 'a>(
    func: OperationRef<'c, 'a>,
    parameter: ByvalParameter<'c, 'a>,
    context: PlanContext,
    readonly: &mut ReadOnlyAnalysis<'c, 'a>,
) -> Result<ArgumentPlan<'c, 'a>, Vec<Problem<'c>>> {
    let ByvalParameter { index, value, mlir_type, param_align, declared_align } = parameter;
    let ty = abi_type(mlir_type).map_err(|e| {
        vec![Problem {
            location: value.location(),
            message: format!("cannot lower this byval parameter: {e}"),
            huge: false,
        }]
    })?;
    let mut plan = ArgumentPlan {
        index,
        mlir_type,
        size: context.layout.alloc_size(&ty),
        alignment: param_align,
        local_alignment: param_align.max(declared_align.unwrap_or(1)),
        nodes: vec![Node { value, parent: None, offset: Some(0) }],
        actions: Vec::new(),
        escape: None,
        strategy: Strategy::ParamSpace,
    };
    // Each escape with the use that caused it.
    let mut escapes: Vec<(Use, usize, Escape)> = Vec::new();
    let mut needs_generic = None;
    let mut next = 0;
    while next < plan.nodes.len() {
        let node = plan.nodes[next].clone();
        for used in uses(node.value) {
            match classify_use(&mut plan, next, &node, used, context, readonly) {
                Ok(UseClass::Done) => {}
                Ok(UseClass::NeedsGeneric(op)) => {
                    needs_generic.get_or_insert(op);
                }
                Err(escape) => escapes.push((used, next, escape)),
            }
        }
        next += 1;
    }

    let grid_constant = parameter_has(func, index, NVVM_GRID_CONSTANT);
    if grid_constant {
        let problems: Vec<Problem> = escapes
            .iter()
            .filter(|(_, _, escape)| escape.write)
            .map(|(_, _, escape)| Problem {
                location: escape.op.location(),
                message: format!(
                    "parameter {index} is an nvvm.grid_constant, but it {}; a grid constant is read-only",
                    escape.reason
                ),
                huge: false,
            })
            .collect();
        if !problems.is_empty() {
            return Err(problems);
        }
    }
    // A grid constant (explicit, or `readonly` + `nocapture`) is read-only
    // by contract: when no escape writes, each use that escaped needs only
    // the generic address.
    let promised = grid_constant || reads_without_capture(func, index);
    if promised && escapes.iter().all(|(_, _, escape)| !escape.write) {
        for (used, position, escape) in escapes {
            needs_generic.get_or_insert(escape.op);
            plan.actions.push(Action::Generic(used, position));
        }
    } else {
        plan.escape =
            escapes.iter().map(|(_, _, e)| e).find(|e| e.write).or(escapes.first().map(|(_, _, e)| e)).cloned();
    }
    plan.strategy = match (&plan.escape, needs_generic) {
        (Some(_), _) => Strategy::Copy,
        (None, Some(_)) if context.has_cvta_param => Strategy::CastOnly,
        (None, Some(op)) => {
            plan.escape = Some(Escape::capture(
                op,
                if context.kernel {
                    "needs a generic address, and the target has no cvta.param (sm_70 and PTX 7.7 or later)"
                } else {
                    "needs a generic address, which a device function's byval parameter only has as a local copy"
                },
            ));
            Strategy::Copy
        }
        (None, None) => Strategy::ParamSpace,
    };
    if plan.strategy == Strategy::Copy {
        plan.local_alignment = crate::pointer_uses::copy_alignment(
            context.layout.abi_align(&ty),
            declared_align,
            plan.local_alignment,
            || {
                crate::pointer_uses::claimed_alignment(value, context.layout, |call, operand| {
                    readonly.callee_parameter(call, operand)
                })
            },
        );
        if let Some(Action::ParamView(cast, _)) = plan.actions.iter().find(|a| matches!(a, Action::ParamView(..))) {
            return Err(vec![Problem {
                location: cast.location(),
                message: format!(
                    "parameter {index} needs a local copy (it {}), but this cast reads it in param space, which the copy cannot follow",
                    plan.escape.as_ref().map_or("escapes", |e| e.reason.as_str())
                ),
                huge: false,
            }]);
        }
    }
    if plan.strategy == Strategy::Copy && plan.size > context.max_copy {
        let escape = plan.escape.as_ref().expect("a copy has a reason");
        return Err(vec![Problem {
            location: value.location(),
            message: format!(
                "huge 'byval' arguments are unsupported: parameter {index} ({} bytes) needs a local copy because it {} (at {}), and copies are limited to max-byval-size={} bytes",
                plan.size,
                escape.reason,
                location_text(escape.op.location()),
                context.max_copy
            ),
            huge: true,
        }]);
    }
    Ok(plan)
}

/// `file:line:col` of a location (the first inside a name, call-site or
/// fused location); otherwise the location as printed, without the
/// `loc(...)` wrapper.
pub fn location_text(location: melior::ir::Location) -> String {
    match ptxcc_shim::file_line_col(location.to_raw()) {
        Some((file, 0, _)) => return file,
        Some((file, line, column)) => return format!("{file}:{line}:{column}"),
        None => {}
    }
    let text = location.to_string();
    let inner = text.strip_prefix("loc(").and_then(|t| t.strip_suffix(')')).unwrap_or(&text);
    inner.replace('"', "")
}

enum UseClass<'c, 'a> {
    Done,
    NeedsGeneric(OperationRef<'c, 'a>),
}

fn classify_use<'c, 'a>(
    plan: &mut ArgumentPlan<'c, 'a>,
    position: usize,
    node: &Node<'c, 'a>,
    used: Use<'c, 'a>,
    context: PlanContext,
    readonly: &mut ReadOnlyAnalysis<'c, 'a>,
) -> Result<UseClass<'c, 'a>, Escape<'c, 'a>> {
    let op = used.owner;
    let escape = |reason: String| Err(Escape::capture(op, reason));
    let write = |reason: String| Err(Escape::write(op, reason));
    match classify_pointer_use(used) {
        PointerUse::Gep { base: true, one_pointer: false, .. } => escape("is indexed with a vector of indices".into()),
        PointerUse::Gep { base: true, result, .. } => {
            let offset = node.offset.and_then(|base| gep_offset(context.layout, op).map(|o| base.checked_add(o))?);
            if let Some(result) = result {
                plan.nodes.push(Node { value: result, parent: Some((position, op)), offset });
            }
            Ok(UseClass::Done)
        }
        // Debug information only names the pointer; it keeps the original.
        PointerUse::DebugInfo => Ok(UseClass::Done),
        // An assumption about the pointer (an `align` bundle) is dropped:
        // on the param-space view llc would not recognise it and would copy
        // the struct behind our back, and dropping an assumption is always
        // correct. (With a copy it stays, on the copy.)
        PointerUse::Assume => {
            plan.actions.push(Action::DropAssume(op));
            Ok(UseClass::Done)
        }
        // An atomic load reads param memory, which nothing writes while the
        // kernel runs: it stays a load (atomic, as llc alone keeps it) from
        // the param-space view, without an offset claim.
        PointerUse::Load { atomic: true } => {
            plan.actions.push(Action::ParamRead(used, position));
            Ok(UseClass::Done)
        }
        PointerUse::Load { atomic: false } => {
            let volatile = crate::ir::is_volatile_access(op);
            let loaded = op.result_at(0).ok().and_then(|r| abi_type(r.r#type()).ok());
            match (node.offset, loaded) {
                (Some(offset), Some(loaded)) if !volatile => {
                    let bytes = context.layout.store_size(&loaded);
                    let end = offset.checked_add(i64::try_from(bytes).unwrap_or(i64::MAX));
                    if offset < 0 || end.is_none_or(|end| end as u64 > plan.size) {
                        // Outside the struct: undefined if it ever runs, but
                        // it may be guarded or dead. Read param space as
                        // llc would, without a claim about the offset.
                        plan.actions.push(Action::ParamRead(used, position));
                        return Ok(UseClass::Done);
                    }
                    // What is known for certain: the `.param` alignment and
                    // the offset. A load's own (or implied ABI) alignment
                    // can claim more than the param space gives.
                    let alignment = common_alignment(plan.alignment, offset);
                    plan.actions.push(Action::FieldLoad { load: op, offset, alignment });
                }
                _ => plan.actions.push(Action::ParamRead(used, position)),
            }
            Ok(UseClass::Done)
        }
        PointerUse::Write { by } => write(format!("is written by '{}'", by.name())),
        PointerUse::Stored => escape("is stored to memory".into()),
        PointerUse::CopySource => {
            let declared = parameter_integer(op, 1, "llvm.align").and_then(|a| u64::try_from(a).ok()).unwrap_or(1);
            let alignment = node.offset.map_or(declared, |offset| common_alignment(plan.alignment, offset));
            plan.actions.push(Action::CopyFrom { op, node: position, alignment });
            Ok(UseClass::Done)
        }
        PointerUse::Cast { space: Some(address_space::PARAM), .. } => {
            plan.actions.push(Action::ParamView(op, position));
            Ok(UseClass::Done)
        }
        PointerUse::Cast { .. } => escape("is cast to another address space".into()),
        PointerUse::PtrToInt if in_bounds(node, plan) && only_null_tests(op) => {
            plan.actions.push(Action::NullTest(op));
            Ok(UseClass::Done)
        }
        PointerUse::PtrToInt => escape("is converted to an integer".into()),
        PointerUse::Compare if in_bounds(node, plan) && is_null_test(op, used.index) => {
            plan.actions.push(Action::NullTest(op));
            Ok(UseClass::Done)
        }
        PointerUse::Compare => {
            plan.actions.push(Action::Generic(used, position));
            Ok(UseClass::NeedsGeneric(op))
        }
        PointerUse::CallOperand if passes_byval(op, used.index) => {
            // The callee gets its own copy: seed 003's table says where the
            // copy is made from.
            let argument = CallArgument {
                kernel_param: context.kernel,
                byval: true,
                grid_constant: context.kernel && context.has_cvta_param,
                // (A call operand: `op` is an `llvm.call`.)
                direct: crate::ir::Call::of(op).is_some_and(|call| !call.is_indirect()),
            };
            match lower_call_argument(argument) {
                CallArgumentLowering::FromParamSpace => {
                    plan.actions.push(Action::Generic(used, position));
                    Ok(UseClass::NeedsGeneric(op))
                }
                CallArgumentLowering::FromLocalCopy => escape(
                    "is passed byval to a call, and the target has no cvta.param (sm_70 and PTX 7.7 or later) to make the call's copy from param space".into(),
                ),
                _ => escape("is passed byval to a call, whose copy llc makes from memory".into()),
            }
        }
        PointerUse::CallOperand => {
            readonly.call_only_reads(op, used.index, 0)?;
            plan.actions.push(Action::Generic(used, position));
            Ok(UseClass::NeedsGeneric(op))
        }
        PointerUse::Select { result } => {
            let merged = result.ok_or_else(|| Escape::capture(op, "is malformed"))?;
            merge(plan, used, position, merged, readonly)
        }
        PointerUse::BlockArgument(Some(merged)) => merge(plan, used, position, merged, readonly),
        PointerUse::BlockArgument(None) => escape("is used by a branch ptxcc does not follow".into()),
        PointerUse::Gep { base: false, .. } | PointerUse::Returned | PointerUse::Other => {
            escape(format!("is used by '{}', which ptxcc does not know to only read", op_name(op)))
        }
    }
}

/// Whether the node points into the parameter (or one past its end), so it
/// is not null.
fn in_bounds(node: &Node, plan: &ArgumentPlan) -> bool {
    node.offset.is_some_and(|offset| offset >= 0 && offset as u64 <= plan.size)
}

/// Whether the `llvm.ptrtoint` keeps the whole address (an integer of at
/// least 64 bits: a generic pointer's width) and every use of its result
/// is an `llvm.icmp eq` or `ne` against the constant zero (and there is at
/// least one). A narrower integer keeps only the low bits, which are zero
/// for many non-null addresses (an `i1` of an aligned address is 0).
pub(super) fn only_null_tests(ptrtoint: OperationRef) -> bool {
    let Ok(result) = ptrtoint.result_at(0) else { return false };
    if crate::ir::integer_width(result.r#type()).is_none_or(|width| width < 64) {
        return false;
    }
    let uses = uses(result.into());
    !uses.is_empty() && uses.iter().all(|used| is_null_test(used.owner, used.index))
}

/// Whether `op` is an `llvm.icmp eq`/`ne` whose operand other than
/// `operand` is zero (the integer constant, or `llvm.mlir.zero`).
fn is_null_test(op: OperationRef, operand: usize) -> bool {
    LlvmOp::of(op) == LlvmOp::ICmp
        && operand < 2
        && null_test_predicate(op).is_some()
        && op.operand_at(1 - operand).is_ok_and(|other| {
            constant_int(other) == Some(0) || crate::kernel::defining_op(other, LlvmOp::Zero).is_some()
        })
}

/// For an `llvm.icmp` with predicate `eq` (0) or `ne` (1): whether a
/// non-null pointer makes it true (`ne`).
pub(super) fn null_test_predicate(icmp: OperationRef) -> Option<bool> {
    match integer_attribute(icmp, "predicate")? {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    }
}

/// A select or block argument that merges the pointer with others: the
/// merged value is generic, so the edge needs the generic address, and
/// everything done with the merged value must only read.
fn merge<'c, 'a>(
    plan: &mut ArgumentPlan<'c, 'a>,
    used: Use<'c, 'a>,
    position: usize,
    merged: Value<'c, 'a>,
    readonly: &mut ReadOnlyAnalysis<'c, 'a>,
) -> Result<UseClass<'c, 'a>, Escape<'c, 'a>> {
    readonly.only_read(merged)?;
    plan.actions.push(Action::Generic(used, position));
    Ok(UseClass::NeedsGeneric(used.owner))
}

/// Whether operand `operand` of `call` is a `byval` argument (by the call
/// site's attributes: they are what LLVM's call lowering goes by).
fn passes_byval(call: OperationRef, operand: usize) -> bool {
    call_argument_index(call, operand).is_some_and(|index| parameter_has(call, index, LLVM_BYVAL))
}
