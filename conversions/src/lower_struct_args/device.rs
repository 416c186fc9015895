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

use crate::ir::{BlockExt, OperationExt};
use std::collections::HashMap;

use melior::{
    dialect::llvm::{self, LoadStoreOptions},
    ir::{
        attribute::{ArrayAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        r#type::IntegerType,
        Attribute, BlockRef, Identifier, Location, Operation, OperationRef, RegionLike, Type, TypeLike, Value,
        ValueLike,
    },
    Context,
};
use ptxcc_dialect::{address_space, types::pointer_address_space};

use super::{
    analysis::gep_offset,
    readonly::{is_atomic, is_debug_info},
    symbols::SymbolUses,
};
use crate::{
    abi::{
        classify::{classify_argument, classify_result, ArgClass, Thresholds},
        layout::common_alignment,
        mlir::abi_type,
        parts::{schedule, value_parts},
        target::Target,
        DataLayout,
    },
    context::context_of,
    ir::{first_result, has_no_uses, i32_array_attribute, i64_array_attribute, op_name, uses},
    kernel::{
        dictionary, function_type, has_body, is_kernel, is_local_symbol, parameter_attribute, parameter_integer,
        LLVM_BYVAL,
    },
};

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
    /// A `byval` pointer the callee only reads leaf by leaf, passed as the
    /// aggregate's value instead: where one parameter per leaf would take
    /// more `st.param`/`ld.param` than the aggregate's own `.param` (a
    /// `Vec3` is `.v2` + `.b32` there, three `.b32` flattened), but the
    /// caller's memory for it (a local slot, a copy of a forwarded `byval`)
    /// can still go. llc declares the value the same `.param .align A .b8
    /// [N]` as the `byval`, so the call's `.param` traffic is llc's.
    ByValue {
        /// The aggregate type.
        ty: Type<'c>,
        /// The alignment the callee may assume for its `byval` copy.
        align: u64,
        /// The leaves the callee reads, in order.
        leaves: Vec<FlatLeaf<'c>>,
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
        return (!flatten_kernels || called || func.region_at(0).ok().and_then(|r| r.first_block()).is_none())
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
    let uses = uses?; // never used: nothing to keep it for
    if uses.other {
        return Some("its address is taken");
    }
    let count = parameter_types(func).len();
    if uses.calls.iter().any(|call| call_arguments(*call).len() != count || !call.has_attribute("callee")) {
        return Some("a call site does not match its signature");
    }
    // A `musttail` call needs the caller's and the callee's signatures to
    // agree, so neither side may change.
    if uses.musttail {
        return Some("a musttail call ties its signature to another");
    }
    None
}

/// Whether an `llvm.func` is variadic.
pub fn is_variadic(func: OperationRef) -> bool {
    function_type(func).is_some_and(crate::abi::signature::is_variadic)
}

/// The parameter types of an `llvm.func`.
pub(super) fn parameter_types<'c>(func: OperationRef<'c, '_>) -> Vec<Type<'c>> {
    let Some(ty) = function_type(func) else { return Vec::new() };
    // SAFETY: queries on a live `!llvm.func` type.
    unsafe {
        (0..mlir_sys::mlirLLVMFunctionTypeGetNumInputs(ty.to_raw()))
            .map(|i| Type::from_raw(mlir_sys::mlirLLVMFunctionTypeGetInput(ty.to_raw(), i)))
            .collect()
    }
}

/// The result type of an `llvm.func` (`!llvm.void` for none).
pub(super) fn result_type<'c>(func: OperationRef<'c, '_>) -> Option<Type<'c>> {
    // SAFETY: a query on a live `!llvm.func` type.
    function_type(func).map(|t| unsafe { Type::from_raw(mlir_sys::mlirLLVMFunctionTypeGetReturnType(t.to_raw())) })
}

/// The argument operands of a direct `llvm.call` (without bundle operands).
pub fn call_arguments<'c, 'a>(call: OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    let count = i32_array_attribute(call, "operandSegmentSizes")
        .and_then(|sizes| sizes.first().copied())
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0);
    (0..count).filter_map(|i| call.operand_at(i).ok()).collect()
}

/// Whether a type is an LLVM struct or array.
fn is_aggregate(ty: Type) -> bool {
    abi_type(ty).is_ok_and(|t| t.is_aggregate())
}

/// The type reached by `path` inside the aggregate `ty`.
fn type_at<'c>(ty: Type<'c>, path: &[i64]) -> Type<'c> {
    let mut current = ty;
    for index in path {
        // SAFETY: `path` comes from the leaves of `ty`, so each step is a
        // struct field or an array element of the current type.
        current = unsafe {
            if mlir_sys::mlirTypeIsALLVMStructType(current.to_raw()) {
                Type::from_raw(mlir_sys::mlirLLVMStructTypeGetElementType(current.to_raw(), *index as isize))
            } else {
                Type::from_raw(mlir_sys::mlirLLVMArrayTypeGetElementType(current.to_raw()))
            }
        };
    }
    current
}

/// The flattened leaves of `ty`, when seed 000 flattens it.
///
/// Leaves that are pointers into spaces other than generic and global are
/// refused: their size comes from the module's data layout (32 bits with
/// `-fcuda-short-ptr`), which ptxcc does not read, so their offsets are not
/// certain. With `in_memory` (a `byval` pointer), the leaves must also
/// cover every byte: a union's data can sit where its LLVM type has
/// padding, and a leaf must hold whole bytes (no `i1`).
fn flat_leaves<'c>(
    layout: &DataLayout,
    ty: Type<'c>,
    thresholds: &Thresholds,
    in_memory: bool,
) -> Option<Vec<FlatLeaf<'c>>> {
    let abi = abi_type(ty).ok()?;
    let classification = classify_argument(layout, &abi, thresholds);
    // (Offsets become i32 GEP indices.)
    if classification.class != ArgClass::Flatten
        || classification.leaves.is_empty()
        || classification.size > i32::MAX as u64
    {
        return None;
    }
    if classification.leaves.iter().any(|leaf| has_uncertain_pointer(&leaf.ty)) {
        return None;
    }
    if in_memory && !covers_every_byte(layout, &classification.leaves, classification.size) {
        return None;
    }
    Some(
        classification
            .leaves
            .iter()
            .map(|leaf| {
                let path: Vec<i64> = leaf.path.iter().map(|&i| i as i64).collect();
                FlatLeaf { offset: leaf.offset, ty: type_at(ty, &path), path }
            })
            .collect(),
    )
}

/// Parameter `index` of `func`'s body.
fn parameter_value<'c, 'a>(func: OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
    let entry = func.region_at(0).ok()?.first_block()?;
    let argument = entry.argument_at(index).ok()?;
    // SAFETY: the argument lives as long as the function body.
    Some(unsafe { Value::from_raw(argument.to_raw()) })
}

/// Whether a leaf type holds a pointer whose size depends on the module's
/// data layout (any space but generic and global).
fn has_uncertain_pointer(ty: &crate::abi::AbiType) -> bool {
    match ty {
        crate::abi::AbiType::Ptr(space) => !matches!(*space, address_space::GENERIC | address_space::GLOBAL),
        crate::abi::AbiType::Vector(elem, _) | crate::abi::AbiType::Array(elem, _) => has_uncertain_pointer(elem),
        crate::abi::AbiType::Struct(body) => body.fields.iter().any(has_uncertain_pointer),
        _ => false,
    }
}

/// Whether `leaves`, in order, tile `0..size` with whole bytes.
fn covers_every_byte(layout: &DataLayout, leaves: &[crate::abi::classify::Leaf], size: u64) -> bool {
    let mut next = 0;
    for leaf in leaves {
        let bytes = layout.store_size(&leaf.ty);
        if leaf.offset != next || layout.size_in_bits(&leaf.ty) != bytes * 8 {
            return false;
        }
        next += bytes;
    }
    next == size
}

/// What the plan of a device function depends on besides the function.
#[derive(Clone, Copy, Debug)]
pub struct PlanPolicy<'p> {
    /// The data layout sizes and offsets come from.
    pub layout: &'p DataLayout,
    /// `flatten-threshold`, `vector-threshold`, `sret-threshold` and
    /// `flatten-always`.
    pub thresholds: &'p Thresholds,
    /// `opt-byval`: without it `byval` pointers are left alone.
    pub lower_byval: bool,
    /// The target llc compiles the function for (which vector parts exist).
    pub target: &'p Target,
}

/// The plan for parameter `index` of `func` under `policy`.
///
/// Flattening pays only in memory: it lets the caller pass leaves it has in
/// registers instead of an aggregate in memory. In `.param` traffic, one
/// parameter per leaf is never better than the aggregate's own `.param`,
/// which llc reads and writes in `.v2`/`.v4` parts (the ABI model's
/// [`schedule`] of its [`value_parts`], at the 16-byte alignment llc gives
/// the parameters of a function whose every call it sees). So an aggregate
/// is flattened only where that costs no more accesses than its parts; else
/// an SSA aggregate stays as it is (no memory to remove) and a `byval`
/// pointer becomes [`ParamPlan::ByValue`] (the caller's memory can still go,
/// at llc's traffic; [`plan_signature`] keeps it `byval` where no call site
/// passes memory that would go).
///
/// `local_linkage`: the function will have internal or private linkage in
/// LLVM IR, where llc aligns its aggregate parameters to 16 bytes (an
/// externally visible one keeps the ABI alignment its other callers use).
pub fn plan_parameter<'c>(
    func: OperationRef<'c, '_>,
    index: usize,
    policy: &PlanPolicy,
    local_linkage: bool,
) -> ParamPlan<'c> {
    match parameter_types(func).get(index) {
        Some(&ty) => plan_parameter_of(func, index, ty, policy, local_linkage),
        None => ParamPlan::Keep,
    }
}

/// [`plan_parameter`] for parameter `index`, of type `ty`.
fn plan_parameter_of<'c>(
    func: OperationRef<'c, '_>,
    index: usize,
    ty: Type<'c>,
    policy: &PlanPolicy,
    local_linkage: bool,
) -> ParamPlan<'c> {
    // Most parameters are scalars and pointers that are not `byval`.
    if !crate::abi::mlir::may_be_aggregate(ty) && parameter_attribute(func, index, LLVM_BYVAL).is_none() {
        return ParamPlan::Keep;
    }
    let PlanPolicy { layout, thresholds, lower_byval, target } = *policy;
    let param_align = |align: u64| if local_linkage { align.max(16) } else { align };
    // A kernel's parameters (flattened only with `flatten-kernel-args`) are
    // written by the launch, not by `st.param`s of a caller.
    let always = thresholds.flatten_always || is_kernel(func);
    if let Some(byval) = parameter_attribute(func, index, LLVM_BYVAL) {
        let Ok(aggregate) = TypeAttribute::try_from(byval).map(|t| t.value()) else { return ParamPlan::Keep };
        if !lower_byval || pointer_address_space(ty) != Some(address_space::GENERIC) {
            return ParamPlan::Keep;
        }
        let Ok(abi) = abi_type(aggregate) else { return ParamPlan::Keep };
        let declared = parameter_integer(func, index, "llvm.align").and_then(|a| u64::try_from(a).ok());
        let align = declared.unwrap_or(layout.abi_align(&abi));
        // Flattened only when the callee just reads leaves: anything else
        // would need the struct in memory again, which llc's own handling
        // of a byval parameter already does as well as a rebuilt slot.
        let leaves = flat_leaves(layout, aggregate, thresholds, true)
            .filter(|leaves| parameter_value(func, index).is_some_and(|old| leaf_reads(layout, old, leaves).is_some()));
        return match leaves {
            Some(leaves)
                if flattening_costs_no_traffic(
                    layout,
                    &abi,
                    param_align(align.max(layout.abi_align(&abi))),
                    &leaves,
                    target,
                    always,
                ) =>
            {
                ParamPlan::Flatten { form: AggregateForm::Byval, ty: aggregate, align, leaves }
            }
            Some(leaves) => ParamPlan::ByValue { ty: aggregate, align, leaves },
            // Stays as it is. llc gives the `.param` of a function whose
            // every call is visible at least 16 bytes of alignment by itself;
            // raising the callee's `llvm.align` in the IR as well made it
            // disagree with its call sites, whose `align` says how the
            // caller's memory is aligned (a host build of the IR lays the two
            // copies out differently).
            None => ParamPlan::Keep,
        };
    }
    if !is_aggregate(ty) {
        return ParamPlan::Keep;
    }
    let Ok(abi) = abi_type(ty) else { return ParamPlan::Keep };
    match flat_leaves(layout, ty, thresholds, false) {
        Some(leaves)
            if flattening_costs_no_traffic(
                layout,
                &abi,
                param_align(layout.abi_align(&abi)),
                &leaves,
                target,
                always,
            ) =>
        {
            ParamPlan::Flatten { form: AggregateForm::Value, ty, align: 1, leaves }
        }
        _ => ParamPlan::Keep,
    }
}

/// Whether passing `leaves` as one parameter each takes no more
/// `st.param` (and `ld.param`) than the aggregate `abi` in its own `.param`
/// aligned to `align`. A leaf is one access (a vector leaf one `.vN`).
/// `always` (`flatten-always`): seed 000's rule, yes.
fn flattening_costs_no_traffic(
    layout: &DataLayout,
    abi: &crate::abi::AbiType,
    align: u64,
    leaves: &[FlatLeaf],
    target: &Target,
    always: bool,
) -> bool {
    if always {
        return true;
    }
    match value_parts(layout, abi, target) {
        Ok(parts) => leaves.len() <= schedule(&parts, align, target).len(),
        // No model of its parts: seed 000's rule.
        Err(_) => true,
    }
}

/// Whether the memory the argument `argument` of `call` points at would go
/// if the call passed the aggregate's value instead of the pointer: the
/// caller's own stack slot (an `llvm.alloca`), or a `byval` parameter of the
/// caller (which llc copies to local memory when it is passed on as a
/// pointer).
fn passes_memory_that_would_go(call: OperationRef, argument: Value) -> bool {
    let root = crate::slots::pointer_root(argument);
    if crate::kernel::defining_op(root, "llvm.alloca").is_some() {
        return true;
    }
    crate::kernel::enclosing_function(call)
        .and_then(|caller| Some((caller, crate::kernel::parameter_index(caller, root)?)))
        .is_some_and(|(caller, index)| parameter_attribute(caller, index, LLVM_BYVAL).is_some())
}

/// Plans `func` given every use of its symbol, or `None` when it keeps its
/// signature.
pub fn plan_function<'c, 'a>(
    func: OperationRef<'c, 'a>,
    uses: Option<&SymbolUses<'c, 'a>>,
    policy: &PlanPolicy,
    flatten_kernels: bool,
) -> Option<DevicePlan<'c, 'a>> {
    if signature_is_fixed(func, uses, flatten_kernels).is_some() {
        return None;
    }
    let local = crate::abi::signature::function_linkage(func) == crate::abi::Linkage::Local;
    let calls = uses.map(|u| u.calls.clone()).unwrap_or_default();
    plan_signature(func, calls, policy, local)
}

/// Whether `func`, an externally visible device function, would change
/// signature if it had local linkage and `calls` were every use of it: what
/// its internal clone would gain.
pub(super) fn would_change_as_local<'c, 'a>(
    func: OperationRef<'c, 'a>,
    calls: Vec<OperationRef<'c, 'a>>,
    policy: &PlanPolicy,
) -> bool {
    let uses = SymbolUses { calls, other: false, musttail: false };
    signature_is_fixed_as(func, Some(&uses), false, true).is_none()
        // (The clone that would take the body is internal.)
        && plan_signature(func, uses.calls, policy, true).is_some()
}

/// The plan of a function free to change signature, called at `calls`;
/// `None` when nothing would change.
fn plan_signature<'c, 'a>(
    func: OperationRef<'c, 'a>,
    calls: Vec<OperationRef<'c, 'a>>,
    policy: &PlanPolicy,
    local_linkage: bool,
) -> Option<DevicePlan<'c, 'a>> {
    let PlanPolicy { layout, thresholds, .. } = *policy;
    let params = parameter_types(func)
        .into_iter()
        .enumerate()
        .map(|(index, ty)| match plan_parameter_of(func, index, ty, policy, local_linkage) {
            // By value only where it frees memory at some call site.
            ParamPlan::ByValue { .. }
                if !calls.iter().any(|call| {
                    call_arguments(*call).get(index).is_some_and(|a| passes_memory_that_would_go(*call, *a))
                }) =>
            {
                ParamPlan::Keep
            }
            plan => plan,
        })
        .collect();
    let sret = result_type(func).filter(|ty| is_aggregate(*ty)).and_then(|ty| {
        let abi = abi_type(ty).ok()?;
        if classify_result(layout, &abi, thresholds).class != ArgClass::Indirect
            || calls.is_empty()
            || has_uncertain_pointer(&abi)
        {
            return None;
        }
        let leaves = crate::abi::classify::leaves(layout, &abi);
        let sites: Option<Vec<_>> = calls.iter().map(|call| elided_slot(*call, layout, &leaves)).collect();
        Some((ty, sites?))
    });
    let plan = DevicePlan { func, params, sret, calls };
    plan.changes().then_some(plan)
}

/// Ops that may stand between a call and the stores of its result without
/// touching memory.
fn touches_no_memory(name: &str) -> bool {
    matches!(
        name,
        "llvm.getelementptr"
            | "llvm.mlir.constant"
            | "llvm.extractvalue"
            | "llvm.insertvalue"
            | "llvm.mlir.poison"
            | "llvm.mlir.undef"
            | "llvm.mlir.zero"
            | "llvm.bitcast"
            | "llvm.addrspacecast"
    )
}

/// Where the caller of `call` stores its whole result, when it does so
/// right after the call: one `llvm.store` of the result, or one store of
/// every leaf (`extractvalue`) at its offset from one base pointer, with
/// nothing in between that touches memory. The base must be defined before
/// the call (a parameter, an op of the entry block, or an op before the call
/// in its block) and be a generic pointer.
pub fn elided_slot<'c, 'a>(
    call: OperationRef<'c, 'a>,
    layout: &DataLayout,
    leaves: &[crate::abi::classify::Leaf],
) -> Option<ElidedSlot<'c, 'a>> {
    let result = first_result(call)?;
    let mut replaced = Vec::new();
    let mut stores: Vec<SlotStore> = Vec::new();
    for used in uses(result) {
        match op_name(used.owner) {
            "llvm.store" if used.index == 0 => {
                stores.push(slot_store(used.owner, layout, 0)?);
                replaced.push(used.owner);
            }
            "llvm.extractvalue" => {
                let path = i64_array_attribute(used.owner, "position")?;
                let leaf = leaves.iter().find(|leaf| leaf.path.iter().map(|&i| i as i64).eq(path.iter().copied()))?;
                let extracted = first_result(used.owner)?;
                let [store] = uses(extracted)[..] else { return None };
                if op_name(store.owner) != "llvm.store" || store.index != 0 {
                    return None;
                }
                stores.push(slot_store(store.owner, layout, leaf.offset)?);
                replaced.push(store.owner);
                replaced.push(used.owner);
            }
            _ => return None,
        }
    }
    let first = stores.first()?;
    let base = first.base;
    // Every store lands at the same distance from its leaf's offset: the
    // result goes to `base + delta`.
    let delta = first.delta().filter(|d| (0..=i64::from(i32::MAX)).contains(d))?;
    let whole = stores.len() == 1 && first.leaf == 0 && replaced.len() == 1;
    let every_leaf = stores.len() == leaves.len() && {
        let mut offsets: Vec<u64> = stores.iter().map(|s| s.leaf).collect();
        offsets.sort_unstable();
        offsets.dedup();
        offsets.len() == leaves.len()
    };
    if !(whole || every_leaf)
        || stores.iter().any(|store| store.base != base || store.delta() != Some(delta))
        || pointer_address_space(base.r#type()) != Some(address_space::GENERIC)
        || !defined_before(base, call)
        || !nothing_between(call, &replaced)
    {
        return None;
    }
    let align = stores.iter().map(|store| common_alignment(store.align, store.leaf as i64)).min().unwrap_or(1);
    Some(ElidedSlot { call, slot: base, offset: delta as u64, align, replaced })
}

/// One store of (part of) a call's result.
struct SlotStore<'c, 'a> {
    /// The pointer it stores through, with constant GEPs stripped.
    base: Value<'c, 'a>,
    /// Its byte offset from `base`.
    offset: i64,
    /// Its alignment.
    align: u64,
    /// The offset in the result of what it stores.
    leaf: u64,
}

impl SlotStore<'_, '_> {
    /// Where the result would start: `offset - leaf`.
    fn delta(&self) -> Option<i64> {
        self.offset.checked_sub(i64::try_from(self.leaf).ok()?)
    }
}

/// The store `store` of the part of a result at offset `leaf`, unless it is
/// volatile or atomic.
fn slot_store<'c, 'a>(store: OperationRef<'c, 'a>, layout: &DataLayout, leaf: u64) -> Option<SlotStore<'c, 'a>> {
    if store.has_attribute("volatile_") || is_atomic(store) {
        return None;
    }
    let align = crate::ir::integer_attribute(store, "alignment").and_then(|a| u64::try_from(a).ok()).unwrap_or(1);
    let mut base = store.operand_at(1).ok()?;
    let mut offset = 0i64;
    while let Some(result) = crate::ir::as_result(base) {
        let gep = result.owner();
        if op_name(gep) != "llvm.getelementptr" {
            break;
        }
        offset = offset.checked_add(gep_offset(layout, gep)?)?;
        base = gep.operand_at(0).ok()?;
    }
    Some(SlotStore { base, offset, align, leaf })
}

/// Whether `value` is available at `call`: a parameter or block argument of
/// the entry block or of the call's block, an op of the entry block, or an
/// op before the call in its block.
fn defined_before(value: Value, call: OperationRef) -> bool {
    let Some(block) = call.block() else { return false };
    let entry = block.parent_region().and_then(|r| r.first_block());
    if let Some(argument) = crate::ir::as_argument(value) {
        let owner = argument.owner();
        return owner == block || Some(owner) == entry;
    }
    let Some(result) = crate::ir::as_result(value) else { return false };
    let definer = result.owner();
    let Some(defined_in) = definer.block() else { return false };
    if defined_in != block {
        return Some(defined_in) == entry;
    }
    let mut current = definer.next_in_block();
    while let Some(op) = current {
        if op == call {
            return true;
        }
        current = op.next_in_block();
    }
    false
}

/// Whether everything from `call` to the last of `replaced` (all in the
/// call's block) touches no memory, apart from `replaced` themselves.
fn nothing_between(call: OperationRef, replaced: &[OperationRef]) -> bool {
    let mut remaining = replaced.iter().filter(|op| op_name(**op) == "llvm.store").count();
    let mut current = call.next_in_block();
    while let Some(op) = current {
        if remaining == 0 {
            return true;
        }
        if replaced.contains(&op) {
            if op_name(op) == "llvm.store" {
                remaining -= 1;
            }
        } else if !touches_no_memory(op_name(op)) {
            return false;
        }
        current = op.next_in_block();
    }
    remaining == 0
}

/// Applies the plans: every call site first (they read the callers'
/// values as they are), then each function's signature and body. Returns
/// the calls that replace each plan's [`DevicePlan::calls`], in plan order
/// (what keeps a symbol-use map true without walking the module again).
pub fn rewrite_functions<'c, 'a>(plans: &[DevicePlan<'c, 'a>]) -> Vec<Vec<OperationRef<'c, 'a>>> {
    let mut new_calls = Vec::with_capacity(plans.len());
    for plan in plans {
        let elided: HashMap<_, _> =
            plan.sret.iter().flat_map(|(_, sites)| sites.iter()).map(|site| (site.call.to_raw().ptr, site)).collect();
        new_calls.push(
            plan.calls.iter().map(|call| rewrite_call(plan, *call, elided.get(&call.to_raw().ptr).copied())).collect(),
        );
    }
    for plan in plans {
        rewrite_callee(plan);
    }
    new_calls
}

/// Inserts `op` before `anchor` and returns its first result.
fn emit<'c, 'a>(anchor: OperationRef<'c, 'a>, op: Operation<'c>) -> Value<'c, 'a> {
    let block = anchor.block().expect("an op in a block");
    let inserted = block.insert_operation_before(anchor, op);
    let result = first_result(inserted).expect("one result");
    // SAFETY: the value lives in the IR as long as its block.
    unsafe { Value::from_raw(result.to_raw()) }
}

fn i64_attribute(context: &Context, value: i64) -> IntegerAttribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, 64).into(), value)
}

/// `base + offset` bytes (an i8 GEP), inserted before `anchor`.
fn byte_address<'c, 'a>(
    context: &'c Context,
    anchor: OperationRef<'c, 'a>,
    base: Value<'c, 'a>,
    offset: u64,
    location: Location<'c>,
) -> Value<'c, 'a> {
    if offset == 0 {
        return base;
    }
    emit(
        anchor,
        llvm::get_element_ptr(
            context,
            base,
            DenseI32ArrayAttribute::new(context, &[offset as i32]),
            IntegerType::new(context, 8).into(),
            base.r#type(),
            location,
        ),
    )
}

/// Rebuilds `call` for `plan` (with its result stored through `elided`'s
/// slot when given); returns the new call.
fn rewrite_call<'c, 'a>(
    plan: &DevicePlan<'c, 'a>,
    call: OperationRef<'c, 'a>,
    elided: Option<&ElidedSlot<'c, 'a>>,
) -> OperationRef<'c, 'a> {
    // SAFETY: `context_ref` outlives every use of the reference (melior's
    // `to_ref` points into the `ContextRef` itself); what is built from it
    // holds the raw context, which outlives the module.
    let context_ref = call.context();
    let context: &'c Context = unsafe { context_ref.to_ref() };
    let location = call.location();
    let arguments = call_arguments(call);
    let mut operands: Vec<Value> = Vec::new();
    let mut attributes: Vec<Attribute> = Vec::new();
    let empty = dictionary(context, &[]);
    if let Some(site) = elided {
        operands.push(byte_address(context, call, site.slot, site.offset, location));
        attributes.push(empty);
    }
    for (index, (argument, param)) in arguments.iter().zip(&plan.params).enumerate() {
        match param {
            ParamPlan::Keep => {
                operands.push(*argument);
                attributes.push(crate::kernel::parameter_attributes(call, index).unwrap_or(empty));
            }
            ParamPlan::Flatten { form: AggregateForm::Value, leaves, .. } => {
                for leaf in leaves {
                    operands.push(emit(
                        call,
                        llvm::extract_value(
                            context,
                            *argument,
                            DenseI64ArrayAttribute::new(context, &leaf.path),
                            leaf.ty,
                            location,
                        ),
                    ));
                    attributes.push(empty);
                }
            }
            ParamPlan::Flatten { form: AggregateForm::Byval, align, leaves, .. } => {
                // The call-site `llvm.align` of a byval argument holds for
                // the memory it copies (LLVM's own copy relies on it).
                let align =
                    parameter_integer(call, index, "llvm.align").and_then(|a| u64::try_from(a).ok()).unwrap_or(*align);
                for leaf in leaves {
                    let address = byte_address(context, call, *argument, leaf.offset, location);
                    let alignment = common_alignment(align, leaf.offset as i64);
                    operands.push(emit(
                        call,
                        llvm::load(
                            context,
                            address,
                            leaf.ty,
                            location,
                            LoadStoreOptions::new().align(Some(i64_attribute(context, alignment as i64))),
                        ),
                    ));
                    attributes.push(empty);
                }
            }
            ParamPlan::ByValue { ty, align, .. } => {
                let align =
                    parameter_integer(call, index, "llvm.align").and_then(|a| u64::try_from(a).ok()).unwrap_or(*align);
                operands.push(emit(
                    call,
                    llvm::load(
                        context,
                        *argument,
                        *ty,
                        location,
                        LoadStoreOptions::new().align(Some(i64_attribute(context, align as i64))),
                    ),
                ));
                attributes.push(empty);
            }
        }
    }
    let bundles: Vec<Value> = (arguments.len()..call.operand_count()).filter_map(|i| call.operand_at(i).ok()).collect();
    let bundle_count = bundles.len() as i32;
    operands.extend(bundles);
    let segments = DenseI32ArrayAttribute::new(context, &[operands.len() as i32 - bundle_count, bundle_count]);
    let argument_attributes = ArrayAttribute::new(context, &attributes);
    let Some(site) = elided else {
        // Same results: the call changes in place (rebuilding it would read
        // its attributes one index at a time, each read building the op's
        // whole attribute dictionary).
        let raw_operands: Vec<_> = operands.iter().map(|v| v.to_raw()).collect();
        // SAFETY: the operands are live values that dominate the call; the
        // segment sizes and argument attributes set next match them.
        unsafe {
            mlir_sys::mlirOperationSetOperands(call.to_raw(), raw_operands.len() as isize, raw_operands.as_ptr());
        }
        crate::ir::set_attribute(call, "operandSegmentSizes", segments.into());
        crate::ir::set_attribute(call, "arg_attrs", argument_attributes.into());
        erase_dead_address_chains(&arguments);
        return call;
    };
    let mut named: Vec<(Identifier, Attribute)> = Vec::new();
    // SAFETY: reading the attributes of the live call.
    let count = unsafe { mlir_sys::mlirOperationGetNumAttributes(call.to_raw()) };
    for i in 0..count {
        // SAFETY: `i` is in range; the attribute belongs to the live call.
        let (key, value) = unsafe {
            let named = mlir_sys::mlirOperationGetAttribute(call.to_raw(), i);
            (Identifier::from_raw(named.name), Attribute::from_raw(named.attribute))
        };
        // The call now writes through the slot, which may be a local of the
        // caller: not a tail call, not read-only any more.
        let skip = ["operandSegmentSizes", "arg_attrs", "res_attrs", "memory_effects", "TailCallKind"];
        if skip.iter().any(|s| key.as_string_ref().as_str() == Ok(s)) {
            continue;
        }
        named.push((key, value));
    }
    named.push((Identifier::new(context, "operandSegmentSizes"), segments.into()));
    named.push((Identifier::new(context, "arg_attrs"), argument_attributes.into()));
    // No results: the callee stores its result through the slot.
    let new_call = OperationBuilder::new("llvm.call", location)
        .add_operands(&operands)
        .add_attributes(&named)
        .build()
        .expect("a valid call");
    let block = call.block().expect("a call in a block");
    let new_call = block.insert_operation_before(call, new_call);
    for op in &site.replaced {
        if op_name(*op) == "llvm.store" {
            let address = op.operand_at(1).expect("a store has an address");
            // SAFETY: a store has no results.
            unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
            erase_dead_geps(address);
        }
    }
    for op in &site.replaced {
        if op_name(*op) == "llvm.extractvalue" {
            // SAFETY: its only use, a store, is gone.
            unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
        }
    }
    // SAFETY: nothing uses the old call any more.
    unsafe { mlir_sys::mlirOperationDestroy(call.to_raw()) };
    erase_dead_address_chains(&arguments);
    // SAFETY: the new call is owned by its block, which outlives the pass.
    unsafe { OperationRef::from_raw(new_call.to_raw()) }
}

/// Erases `address` when it is a GEP without uses, and its bases after it.
fn erase_dead_geps(address: Value) {
    let mut current = address;
    while let Some(result) = crate::ir::as_result(current) {
        let gep = result.owner();
        if op_name(gep) != "llvm.getelementptr" || !has_no_uses(current) {
            return;
        }
        let base = gep.operand_at(0).expect("a GEP has a base");
        // SAFETY: the GEP has no uses.
        unsafe { mlir_sys::mlirOperationDestroy(gep.to_raw()) };
        current = base;
    }
}

/// Erases GEPs left without uses on the pointers the rewrite read.
fn erase_dead_address_chains(values: &[Value]) {
    for value in values {
        let mut dead: Vec<OperationRef> = Vec::new();
        for used in uses(*value) {
            if op_name(used.owner) == "llvm.getelementptr" && first_result(used.owner).is_some_and(has_no_uses) {
                dead.push(used.owner);
            }
        }
        for op in dead {
            // SAFETY: the GEP has no uses.
            unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
        }
    }
}

/// The new signature and body of a planned function.
fn rewrite_callee(plan: &DevicePlan) {
    let func = plan.func;
    let context = context_of(func);
    let context: &Context = &context;
    let entry = func.region_at(0).ok().and_then(|r| r.first_block()).expect("a planned function has a body");
    let location = func.location();
    let existing = func.attribute("arg_attrs").ok().and_then(|a| ArrayAttribute::try_from(a).ok());
    let empty = dictionary(context, &[]);
    let old_attributes: Vec<Attribute> =
        (0..plan.params.len()).map(|i| existing.and_then(|array| array.element(i).ok()).unwrap_or(empty)).collect();
    let mut new_attributes: Vec<Attribute> = Vec::new();
    let mut anchor = EntryAnchor::new(entry);

    // Parameters, last first, so earlier indices stay valid.
    let mut per_param: Vec<Vec<Attribute>> = vec![Vec::new(); plan.params.len()];
    for (index, param) in plan.params.iter().enumerate().rev() {
        match param {
            ParamPlan::Keep => per_param[index].push(old_attributes[index]),
            ParamPlan::Flatten { form, ty, leaves, .. } => {
                let old = entry.argument_at(index).expect("a parameter");
                // SAFETY: the argument lives as long as the body.
                let old: Value = unsafe { Value::from_raw(old.to_raw()) };
                let mut leaf_values = Vec::new();
                for (position, leaf) in leaves.iter().enumerate() {
                    // SAFETY: inserting an argument into the live entry block.
                    let value = unsafe {
                        Value::from_raw(mlir_sys::mlirBlockInsertArgument(
                            entry.to_raw(),
                            (index + 1 + position) as isize,
                            leaf.ty.to_raw(),
                            old.location().to_raw(),
                        ))
                    };
                    leaf_values.push(value);
                    per_param[index].push(empty);
                }
                match form {
                    AggregateForm::Value => rebuild_value(context, &mut anchor, old, *ty, leaves, &leaf_values),
                    AggregateForm::Byval => replace_leaf_reads(old, leaves, &leaf_values),
                }
                // SAFETY: every use of the old parameter is gone.
                unsafe { mlir_sys::mlirBlockEraseArgument(entry.to_raw(), index as u32) };
            }
            ParamPlan::ByValue { ty, leaves, .. } => {
                let old = entry.argument_at(index).expect("a parameter");
                // SAFETY: the argument lives as long as the body.
                let old: Value = unsafe { Value::from_raw(old.to_raw()) };
                // SAFETY: inserting an argument into the live entry block.
                let aggregate = unsafe {
                    Value::from_raw(mlir_sys::mlirBlockInsertArgument(
                        entry.to_raw(),
                        (index + 1) as isize,
                        ty.to_raw(),
                        old.location().to_raw(),
                    ))
                };
                per_param[index].push(empty);
                let leaf_values: Vec<Value> = leaves
                    .iter()
                    .map(|leaf| {
                        anchor.push(llvm::extract_value(
                            context,
                            aggregate,
                            DenseI64ArrayAttribute::new(context, &leaf.path),
                            leaf.ty,
                            old.location(),
                        ))
                    })
                    .collect();
                replace_leaf_reads(old, leaves, &leaf_values);
                // The extracts of leaves the callee never reads.
                for value in leaf_values.into_iter().filter(|v| has_no_uses(*v)) {
                    crate::ir::erase(crate::ir::as_result(value).expect("an extractvalue result").owner());
                }
                // SAFETY: every use of the old parameter is gone.
                unsafe { mlir_sys::mlirBlockEraseArgument(entry.to_raw(), index as u32) };
            }
        }
    }
    let mut result = result_type(func).expect("an llvm.func has a type");
    if let Some((ty, sites)) = &plan.sret {
        let align = sites.iter().map(|site| site.align).min().unwrap_or(1);
        let pointer = ptxcc_dialect::types::pointer_type(context, address_space::GENERIC);
        // SAFETY: inserting an argument into the live entry block.
        let slot: Value = unsafe {
            Value::from_raw(mlir_sys::mlirBlockInsertArgument(entry.to_raw(), 0, pointer.to_raw(), location.to_raw()))
        };
        store_at_returns(context, func, slot, align);
        new_attributes.push(dictionary(
            context,
            &[
                (Identifier::new(context, "llvm.sret"), TypeAttribute::new(*ty).into()),
                (Identifier::new(context, "llvm.align"), i64_attribute(context, align as i64).into()),
            ],
        ));
        result = llvm::r#type::void(context);
        // A caller may pass its slot as another argument too (`*o = f(o)`):
        // the callee's store at its return then writes memory such a
        // parameter reads, which `noalias` would forbid.
        per_param = per_param
            .into_iter()
            .map(|dictionaries| dictionaries.into_iter().map(|d| without_entry(context, d, "llvm.noalias")).collect())
            .collect();
        // SAFETY: removing attributes that described the old result and the
        // old (read-only) memory behaviour.
        unsafe {
            for name in ["res_attrs", "memory_effects"] {
                mlir_sys::mlirOperationRemoveAttributeByName(func.to_raw(), melior::StringRef::new(name).to_raw());
            }
        }
    }
    new_attributes.extend(per_param.into_iter().flatten());
    let inputs: Vec<mlir_sys::MlirType> =
        (0..entry.argument_count()).map(|i| entry.argument_at(i).expect("in range").r#type().to_raw()).collect();
    // SAFETY: building a function type from live types.
    let new_type = unsafe {
        Type::from_raw(mlir_sys::mlirLLVMFunctionTypeGet(
            result.to_raw(),
            inputs.len() as isize,
            inputs.as_ptr(),
            false,
        ))
    };
    let array = ArrayAttribute::new(context, &new_attributes);
    crate::ir::set_attribute(func, "function_type", TypeAttribute::new(new_type).into());
    crate::ir::set_attribute(func, "arg_attrs", array.into());
}

/// `dictionary_attribute` without the entry `name`.
fn without_entry<'c>(context: &'c Context, dictionary_attribute: Attribute<'c>, name: &str) -> Attribute<'c> {
    let entries: Vec<(Identifier, Attribute)> = crate::kernel::dictionary_entries(dictionary_attribute)
        .into_iter()
        .filter(|(key, _)| key.as_string_ref().as_str() != Ok(name))
        .collect();
    dictionary(context, &entries)
}

/// Where new ops go at the start of the entry block: after those placed
/// before them, before the original first op.
struct EntryAnchor<'c, 'a> {
    entry: BlockRef<'c, 'a>,
    last: Option<OperationRef<'c, 'a>>,
}

impl<'c, 'a> EntryAnchor<'c, 'a> {
    fn new(entry: BlockRef<'c, 'a>) -> Self {
        Self { entry, last: None }
    }

    fn push(&mut self, op: Operation<'c>) -> Value<'c, 'a> {
        let inserted = match self.last {
            Some(last) => self.entry.insert_operation_after(last, op),
            None => self.entry.insert_operation(0, op),
        };
        self.last = Some(inserted);
        let result = first_result(inserted).expect("ops placed at the entry have a result");
        // SAFETY: the value lives in the IR as long as its block.
        unsafe { Value::from_raw(result.to_raw()) }
    }
}

/// The callee side of a flattened SSA aggregate: `extractvalue`s of a leaf
/// read the leaf parameter; anything else gets the aggregate rebuilt with
/// `insertvalue`s.
fn rebuild_value<'c, 'a>(
    context: &'c Context,
    anchor: &mut EntryAnchor<'c, 'a>,
    old: Value<'c, 'a>,
    ty: Type<'c>,
    leaves: &[FlatLeaf<'c>],
    values: &[Value<'c, 'a>],
) {
    let mut rest = false;
    for used in uses(old) {
        let leaf = (op_name(used.owner) == "llvm.extractvalue")
            .then(|| i64_array_attribute(used.owner, "position"))
            .flatten()
            .and_then(|path| leaves.iter().position(|leaf| leaf.path == path));
        match leaf {
            Some(position) => {
                let result = first_result(used.owner).expect("one result");
                // SAFETY: same type; the extract is erased once unused.
                unsafe {
                    mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), values[position].to_raw());
                    mlir_sys::mlirOperationDestroy(used.owner.to_raw());
                }
            }
            None => rest = true,
        }
    }
    if !rest {
        return;
    }
    let location = old.location();
    let mut aggregate = anchor.push(llvm::poison(ty, location));
    for (leaf, value) in leaves.iter().zip(values) {
        aggregate = anchor.push(llvm::insert_value(
            context,
            aggregate,
            DenseI64ArrayAttribute::new(context, &leaf.path),
            *value,
            location,
        ));
    }
    // SAFETY: same type.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), aggregate.to_raw()) };
}

/// How a callee reads a `byval` pointer it would receive flattened: each
/// load of exactly one leaf (through constant GEPs) with the leaf it reads,
/// the debug intrinsics that name the pointer, and the GEPs.
pub struct LeafReads<'c, 'a> {
    reads: Vec<(OperationRef<'c, 'a>, usize)>,
    debug: Vec<OperationRef<'c, 'a>>,
    geps: Vec<OperationRef<'c, 'a>>,
}

/// The leaf reads of `pointer`, or `None` when anything else uses it (a
/// write, an escape, a dynamic index, a load that is not one leaf).
pub fn leaf_reads<'c, 'a>(
    layout: &DataLayout,
    pointer: Value<'c, 'a>,
    leaves: &[FlatLeaf<'c>],
) -> Option<LeafReads<'c, 'a>> {
    let mut nodes: Vec<(Value, i64)> = vec![(pointer, 0)];
    let mut found = LeafReads { reads: Vec::new(), debug: Vec::new(), geps: Vec::new() };
    let mut next = 0;
    while next < nodes.len() {
        let (value, offset) = nodes[next];
        next += 1;
        for used in uses(value) {
            let op = used.owner;
            match op_name(op) {
                "llvm.getelementptr" if used.index == 0 => {
                    let result = first_result(op).filter(|r| pointer_address_space(r.r#type()).is_some())?;
                    nodes.push((result, offset.checked_add(gep_offset(layout, op)?)?));
                    found.geps.push(op);
                }
                "llvm.load" if !op.has_attribute("volatile_") && !is_atomic(op) => {
                    let loaded = first_result(op).map(|r| r.r#type());
                    let leaf =
                        leaves.iter().position(|leaf| leaf.offset as i64 == offset && Some(leaf.ty) == loaded)?;
                    found.reads.push((op, leaf));
                }
                name if is_debug_info(name) => found.debug.push(op),
                _ => return None,
            }
        }
    }
    Some(found)
}

/// The callee side of a flattened `byval` pointer: each load reads its leaf
/// parameter; the loads, the GEPs and the debug intrinsics go.
fn replace_leaf_reads<'c, 'a>(old: Value<'c, 'a>, leaves: &[FlatLeaf<'c>], values: &[Value<'c, 'a>]) {
    let found = leaf_reads(&DataLayout::default(), old, leaves).expect("the plan checked the uses");
    for (load, position) in found.reads {
        let result = first_result(load).expect("one result");
        // SAFETY: same type; the load is erased once unused.
        unsafe {
            mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), values[position].to_raw());
            mlir_sys::mlirOperationDestroy(load.to_raw());
        }
    }
    for op in found.debug {
        // SAFETY: debug intrinsics have no results.
        unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
    }
    for gep in found.geps.into_iter().rev() {
        // SAFETY: every use of the GEP (loads, debug info, inner GEPs) is
        // gone; innermost first.
        unsafe { mlir_sys::mlirOperationDestroy(gep.to_raw()) };
    }
}

/// `llvm.return %v` becomes `llvm.store %v, %slot` + `llvm.return`.
fn store_at_returns<'c, 'a>(context: &'c Context, func: OperationRef<'c, 'a>, slot: Value<'c, 'a>, align: u64) {
    let mut returns: Vec<mlir_sys::MlirOperation> = Vec::new();
    func.walk(WalkOrder::PreOrder, |op| {
        if op_name(op) == "llvm.return" && op.operand_count() == 1 {
            returns.push(op.to_raw());
        }
        WalkResult::Advance
    });
    for raw in returns {
        // SAFETY: collected from the live function just above.
        let ret = unsafe { OperationRef::from_raw(raw) };
        let value = ret.operand_at(0).expect("one operand");
        let block = ret.block().expect("a return in a block");
        block.insert_operation_before(
            ret,
            llvm::store(
                context,
                value,
                slot,
                ret.location(),
                LoadStoreOptions::new().align(Some(i64_attribute(context, align as i64))),
            ),
        );
        // SAFETY: `llvm.return` takes zero or one operand.
        unsafe { mlir_sys::mlirOperationSetOperands(ret.to_raw(), 0, std::ptr::null()) };
    }
}
