//! Device functions and their call sites (seed 000's NVPTXLowerArgs for
//! non-kernels, seed 003's call-site side).
//!
//! A device function changes signature only when every use of its symbol is
//! a direct `llvm.call` in the module: local linkage (`internal`/`private`)
//! or MLIR's private symbol visibility (`func.func private` lowered),
//! address never taken, not variadic. Its call sites are rewritten with it.
//! Per parameter ([`plan_parameter`]):
//!
//! | parameter | becomes |
//! |---|---|
//! | aggregate (`!llvm.struct`/`!llvm.array` value or `llvm.byval` pointer) of at most `flatten-threshold` bytes whose leaves are scalars, pointers or vectors of at most `vector-threshold` elements | one parameter per leaf, in order |
//! | other `llvm.byval` pointer | stays `byval`, attributes unchanged (llc aligns the `.param` of a function whose calls are all visible to at least 16 by itself) |
//! | other aggregate or vector value | stays as it is: llc declares it `.param .align A .b8 [N]`, the same `.param` a `byval` pointer gets, and the caller needs no memory for it |
//! | scalar, pointer, short vector | stays as it is |
//!
//! An aggregate result above `sret-threshold` bytes becomes a leading `sret`
//! pointer when every call site stores the whole result into memory it
//! already has (return-slot elision, [`elided_slot`]): the callee stores it
//! there at its returns, and the callers' stores go. Where a call site does
//! not, the result stays in param space: an `sret` slot would be new local
//! memory there.
//!
//! The module is split by concern: `plan` decides (eligibility per
//! parameter, flattening against llc's traffic), `sret` finds the
//! callers' return slots, `rewrite` applies the plans; the plan types and
//! the generic function queries stay here.

mod plan;
mod rewrite;
mod sret;

use crate::abi::signature::call_arguments;
use crate::kernel::{is_variadic, parameter_types, result_type};

pub(super) use plan::would_change_as_local;
pub use plan::{leaf_reads, plan_function, plan_parameter, LeafReads, PlanPolicy};
pub use rewrite::rewrite_functions;
pub use sret::elided_slot;

use melior::{
    ir::{attribute::IntegerAttribute, r#type::IntegerType, OperationRef, Type, Value},
    Context,
};

use super::symbols::SymbolUses;
use crate::kernel::{has_body, is_kernel, is_local_symbol};

/// How an aggregate parameter arrives before lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggregateForm {
    /// An SSA value of struct or array type.
    Value,
    /// A `llvm.byval` pointer.
    Byval,
}

/// One leaf of a flattened parameter.
#[derive(Clone, Debug)]
pub struct FlatLeaf<'c> {
    /// Byte offset in the aggregate.
    pub offset: u64,
    /// The `extractvalue` position that reaches it.
    pub path: Vec<i64>,
    /// Its type.
    pub ty: Type<'c>,
}

/// What happens to one parameter of a device function.
#[derive(Clone, Debug)]
pub enum ParamPlan<'c> {
    /// Passed as it is.
    Keep,
    /// One parameter per leaf.
    Flatten {
        /// The form it arrives in.
        form: AggregateForm,
        /// The aggregate type.
        ty: Type<'c>,
        /// The alignment the callee may assume for its `byval` copy.
        align: u64,
        /// The leaves, in order.
        leaves: Vec<FlatLeaf<'c>>,
    },
    /// A `byval` pointer the callee only reads leaf by leaf (or copies
    /// whole), passed as the aggregate's value instead: where one parameter
    /// per leaf would take more `st.param`/`ld.param` than the aggregate's
    /// own `.param` (a `Vec3` is `.v2` + `.b32` there, three `.b32`
    /// flattened), but the caller's memory for it (a local slot, a copy of
    /// a forwarded `byval`) can still go, or the callee reads it outside its
    /// entry block (llc reads a `byval` parameter there through its
    /// address, and ptxas then keeps the parameter in the stack frame). llc
    /// declares the value the same `.param .align A .b8 [N]` as the
    /// `byval`, so the call's `.param` traffic is llc's.
    ByValue {
        /// The aggregate type.
        ty: Type<'c>,
        /// The alignment the callee may assume for its `byval` copy.
        align: u64,
        /// The leaves the callee reads, in order.
        leaves: Vec<FlatLeaf<'c>>,
        /// Whether every read and copy is in the entry block (then only
        /// the caller's memory makes the change worth it).
        in_entry: bool,
        /// The callee writes its copy (at constant offsets): the value is
        /// stored into a slot of the callee's, which takes every use of
        /// the old pointer (`leaves` is then empty).
        stored: bool,
    },
}

/// A call site whose result is stored into memory the caller already has.
#[derive(Clone, Debug)]
pub struct ElidedSlot<'c, 'a> {
    /// The call.
    pub call: OperationRef<'c, 'a>,
    /// The pointer the caller stores the result at, plus `offset` bytes
    /// (the pointer dominates the call).
    pub slot: Value<'c, 'a>,
    /// Byte offset from `slot`.
    pub offset: u64,
    /// The alignment the stores promise for `slot`.
    pub align: u64,
    /// The stores and `extractvalue`s that the callee's store replaces.
    pub replaced: Vec<OperationRef<'c, 'a>>,
}

/// The plan for one device function.
#[derive(Clone, Debug)]
pub struct DevicePlan<'c, 'a> {
    /// The `llvm.func`.
    pub func: OperationRef<'c, 'a>,
    /// One entry per original parameter.
    pub params: Vec<ParamPlan<'c>>,
    /// The result type and every call site, when the result becomes `sret`.
    pub sret: Option<(Type<'c>, Vec<ElidedSlot<'c, 'a>>)>,
    /// Every call site.
    pub calls: Vec<OperationRef<'c, 'a>>,
}

impl DevicePlan<'_, '_> {
    /// Whether the plan changes anything.
    pub fn changes(&self) -> bool {
        self.sret.is_some() || self.params.iter().any(|p| !matches!(p, ParamPlan::Keep))
    }

    /// Whether the plan takes memory away: a `byval` pointer passed as its
    /// value or its leaves (the caller's copy goes), or a result returned
    /// through `sret`. Flattening an aggregate value only changes how
    /// the `.param`s are declared.
    pub fn frees_memory(&self) -> bool {
        self.sret.is_some()
            || self
                .params
                .iter()
                .any(|p| matches!(p, ParamPlan::ByValue { .. } | ParamPlan::Flatten { form: AggregateForm::Byval, .. }))
    }
}

/// Why a device function keeps its signature, or `None` when every use of
/// it is a direct call that can be rewritten with it.
///
/// A kernel keeps its launch ABI unless `flatten_kernels`
/// (`flatten-kernel-args`); nothing calls a kernel.
pub fn signature_is_fixed(
    func: OperationRef,
    uses: Option<&SymbolUses>,
    flatten_kernels: bool,
) -> Option<&'static str> {
    signature_is_fixed_as(func, uses, flatten_kernels, false)
}

/// [`signature_is_fixed`], with `assume_local`: as if the function had
/// local linkage (what its internal clone will have, see `external.rs`).
fn signature_is_fixed_as(
    func: OperationRef,
    uses: Option<&SymbolUses>,
    flatten_kernels: bool,
    assume_local: bool,
) -> Option<&'static str> {
    if is_kernel(func) {
        let called = uses.is_some_and(|u| u.other || !u.calls.is_empty());
        return (!flatten_kernels || called || crate::kernel::entry_block(func).is_none())
            .then_some("a kernel keeps its launch ABI");
    }
    if !has_body(func) {
        return Some("it is only declared");
    }
    if !assume_local && !is_local_symbol(func) {
        return Some("it is visible outside the module");
    }
    if is_variadic(func) {
        return Some("it is variadic");
    }
    // A naked function has no prologue: its body (inline assembly) reads
    // the parameters where the ABI puts them, and a wrapper could not pass
    // them on.
    if crate::abi::signature::has_passthrough(func, "naked") {
        return Some("it is naked");
    }
    let uses = uses?; // never used: nothing to keep it for
    if uses.other {
        return Some("its address is taken");
    }
    let count = parameter_types(func).len();
    if uses.calls.iter().any(|call| {
        call_arguments(*call).len() != count || crate::ir::Call::of(*call).is_none_or(crate::ir::Call::is_indirect)
    }) {
        return Some("a call site does not match its signature");
    }
    // A `musttail` call needs the caller's and the callee's signatures to
    // agree, so neither side may change.
    if uses.musttail {
        return Some("a musttail call ties its signature to another");
    }
    None
}

/// An `i64` integer attribute.
fn i64_attribute(context: &Context, value: i64) -> IntegerAttribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 64).into(), value)
}
