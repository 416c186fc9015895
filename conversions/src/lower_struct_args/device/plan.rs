//! Planning a device function: which parameters are flattened, passed by
//! value or kept, and whether its aggregate result goes through `sret`.

use super::{
    call_arguments, parameter_types, result_type, signature_is_fixed, signature_is_fixed_as, sret::elided_slot,
    AggregateForm, DevicePlan, FlatLeaf, ParamPlan,
};
use crate::ir::LlvmOp;

use crate::ir::{BlockExt, OperationExt};

use melior::ir::{
    attribute::TypeAttribute, operation::OperationLike, OperationRef, RegionLike, Type, Value, ValueLike,
};
use ptxcc_dialect::{address_space, types::pointer_address_space};

use super::super::symbols::SymbolUses;
use crate::ir::is_atomic;
use crate::{
    abi::{
        classify::{classify_argument, classify_result, ArgClass, Thresholds},
        mlir::abi_type,
        parts::{schedule, value_parts},
        prototype::{FunctionSignature, ParamSignature},
        registers::stack_passed_bytes,
        target::Target,
        DataLayout,
    },
    abi::{mlir::gep_offset, Linkage},
    ir::{first_result, uses},
    kernel::{is_kernel, parameter_attribute, parameter_integer, LLVM_BYVAL},
};

/// Whether a type is an LLVM struct or array.
fn is_aggregate(ty: Type) -> bool {
    abi_type(ty).is_ok_and(|t| t.is_aggregate())
}

/// The type reached by `path` inside the aggregate `ty`.
fn type_at<'c>(ty: Type<'c>, path: &[i64]) -> Type<'c> {
    let mut current = ty;
    for index in path {
        // `path` comes from the leaves of `ty`, so each step is a struct
        // field or an array element of the current type.
        current = match crate::ir::as_llvm_struct(current) {
            Some(structure) => structure.field(*index as usize).expect("a field of the struct"),
            None => crate::ir::llvm_array(current).expect("a struct or an array").0,
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

/// The largest aggregate (bytes) a local callee takes by value instead of
/// through a `byval` pointer when it only reads its leaves: sixteen 32-bit
/// registers, as much as one copy keeps in flight
/// (`ptxcc_to_llvm`'s `MAX_INLINE_COPY_REGISTERS`).
const BY_VALUE_LIMIT: u64 = 64;

/// Parameter `index` of `func`'s body.
fn parameter_value<'c, 'a>(func: OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
    let entry = func.region_at(0).ok()?.first_block()?;
    let argument = entry.argument_at(index).ok()?;
    Some(Value::from(argument))
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

/// Whether `func`'s body calls a function (`llvm.call`, `llvm.invoke`):
/// an `sret` pointer would be live across that call, and ptxas spills it
/// (24 -> 48 bytes of stack and spills on issue 41's rule E), where the
/// result returned in `func_retval0` keeps nothing live. Intrinsics and
/// inline assembly are no calls.
fn makes_calls(func: OperationRef) -> bool {
    crate::ir::nested_ops(func)
        .into_iter()
        .any(|op| LlvmOp::of(op) == LlvmOp::Call || crate::ir::op_name(op) == "llvm.invoke")
}

/// Whether `leaves`, in order, tile `0..size` with whole bytes.
fn covers_every_byte(layout: &DataLayout, leaves: &[crate::abi::classify::Leaf], size: u64) -> bool {
    let mut next = 0;
    for leaf in leaves {
        let bytes = layout.store_size(&leaf.ty);
        if leaf.offset != next || !layout.fills_its_bytes(&leaf.ty) {
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
    /// `flatten-kernel-args`: kernels may change signature too.
    pub flatten_kernels: bool,
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
/// at llc's traffic; `plan_signature` keeps it `byval` where no call site
/// passes memory that would go).
///
/// `linkage`: the linkage the function will have in LLVM IR; with
/// [`Linkage::Local`] (internal or private) llc aligns its aggregate
/// parameters to 16 bytes (an externally visible one keeps the ABI
/// alignment its other callers use).
pub fn plan_parameter<'c>(
    func: OperationRef<'c, '_>,
    index: usize,
    policy: &PlanPolicy,
    linkage: Linkage,
) -> ParamPlan<'c> {
    match parameter_types(func).get(index) {
        Some(&ty) => plan_parameter_of(func, index, ty, policy, linkage),
        None => ParamPlan::Keep,
    }
}

/// [`plan_parameter`] for parameter `index`, of type `ty`.
fn plan_parameter_of<'c>(
    func: OperationRef<'c, '_>,
    index: usize,
    ty: Type<'c>,
    policy: &PlanPolicy,
    linkage: Linkage,
) -> ParamPlan<'c> {
    // Most parameters are scalars and pointers that are not `byval`.
    if !crate::abi::mlir::may_be_aggregate(ty) && parameter_attribute(func, index, LLVM_BYVAL).is_none() {
        return ParamPlan::Keep;
    }
    let PlanPolicy { layout, thresholds, lower_byval, target, .. } = *policy;
    let param_align = |align: u64| if linkage == Linkage::Local { align.max(16) } else { align };
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
        // A callee that copies the whole struct (clang at -O0) takes it as
        // one value, which the copy stores.
        let size = layout.store_size(&abi);
        let reads = flat_leaves(layout, aggregate, thresholds, true).and_then(|leaves| {
            let reads = parameter_value(func, index).and_then(|old| leaf_reads(layout, old, &leaves, Some(size)))?;
            Some((leaves, reads))
        });
        // Above `flatten-threshold`, a local callee that only reads leaves
        // takes the aggregate by value (the same `.param .b8[size]`): its
        // callers' memory can then go (a caller that wrote its own copy of
        // a byval parameter keeps it in registers and stores them into the
        // `.param`, as nvcc does; issue 31's `scaler`). `plan_signature`
        // keeps it `byval` where no call passes memory that would go.
        if reads.is_none()
            && linkage == Linkage::Local
            && !always
            && size > thresholds.flatten
            && size <= BY_VALUE_LIMIT
        {
            let wide = Thresholds { flatten: BY_VALUE_LIMIT, ..*thresholds };
            let large = flat_leaves(layout, aggregate, &wide, true).and_then(|leaves| {
                let reads =
                    parameter_value(func, index).and_then(|old| leaf_reads(layout, old, &leaves, Some(size)))?;
                Some((leaves, reads))
            });
            if let Some((leaves, reads)) = large {
                return ParamPlan::ByValue {
                    ty: aggregate,
                    align,
                    leaves,
                    in_entry: !reads.outside_entry(),
                    stored: false,
                };
            }
        }
        if let Some((leaves, reads)) = reads.as_ref().filter(|(_, reads)| !reads.copies.is_empty()) {
            return ParamPlan::ByValue {
                ty: aggregate,
                align,
                leaves: leaves.clone(),
                in_entry: !reads.outside_entry(),
                stored: false,
            };
        }
        // A local callee that updates its copy field by field (`acc =
        // f(acc, ...)`, where `f` adds to `acc`'s fields) takes the
        // aggregate's value and stores it into a slot of its own, which
        // SROA promotes as it promotes the copy promote-local-arrays would
        // make of the `byval` (`copy_written_byval`): the caller's memory
        // for it can then go too (`plan_signature` keeps the pointer where
        // no call's would). Only where the leaves cover every byte of the
        // memory: no padding, no `i1` leaf (a copy moves those bytes, a
        // value does not).
        if reads.is_none()
            && linkage == Linkage::Local
            && !always
            && size <= BY_VALUE_LIMIT
            && crate::abi::classify::leaves(layout, &abi)
                .is_some_and(|leaves| covers_every_byte(layout, &leaves, layout.alloc_size(&abi)))
            && parameter_value(func, index).is_some_and(|old| crate::slots::written_at_constant_offsets(old, false))
        {
            // The slot is aligned as a copy of the parameter would be: as
            // declared, raised to what its accesses claim (an i128 load
            // that says 16 of a parameter declared 8-aligned), up to the
            // `.param`'s own alignment.
            let type_align = layout.abi_align(&abi);
            let align =
                crate::pointer_uses::copy_alignment(type_align, declared, param_align(align.max(type_align)), || {
                    parameter_value(func, index)
                        .and_then(|old| crate::pointer_uses::claimed_alignment(old, layout, |_, _| None))
                });
            return ParamPlan::ByValue { ty: aggregate, align, leaves: Vec::new(), in_entry: true, stored: true };
        }
        let in_entry = reads.as_ref().is_none_or(|(_, reads)| !reads.outside_entry());
        let leaves = reads.map(|(leaves, _)| leaves);
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
            Some(leaves) => ParamPlan::ByValue { ty: aggregate, align, leaves, in_entry, stored: false },
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

/// The caller's memory an argument of a call points at.
enum CallerMemory<'c, 'a> {
    /// The caller's own stack slot (an `llvm.alloca`).
    Slot,
    /// A `byval` parameter of `caller`, `root` in its body.
    ByvalParameter { caller: OperationRef<'c, 'a>, root: Value<'c, 'a> },
}

/// What the argument `argument` of `call` points at, when it is memory of
/// the caller's own; `None` otherwise.
fn caller_memory<'c: 'a, 'a>(call: OperationRef<'c, 'a>, argument: Value<'c, 'a>) -> Option<CallerMemory<'c, 'a>> {
    let root = crate::slots::pointer_root(argument);
    if crate::kernel::defining_op(root, LlvmOp::Alloca).is_some() {
        return Some(CallerMemory::Slot);
    }
    let caller = crate::kernel::enclosing_function(call)?;
    let index = crate::kernel::parameter_index(caller, root)?;
    parameter_attribute(caller, index, LLVM_BYVAL).map(|_| CallerMemory::ByvalParameter { caller, root })
}

/// Whether the memory the argument `argument` of `call` points at would go
/// if the call passed the aggregate's value instead of the pointer: the
/// caller's own stack slot, or a `byval` parameter of the caller (which llc
/// copies to local memory when it is passed on as a pointer).
fn passes_memory_that_would_go(call: OperationRef, argument: Value) -> bool {
    caller_memory(call, argument).is_some()
}

/// Whether the argument `argument` of `call` is local memory that would go
/// if the call passed the aggregate's value: the caller's own stack slot,
/// or a `byval` parameter the caller (a device function) writes, which
/// `promote-local-arrays` copies into a slot SROA promotes. (A kernel's
/// `byval` parameter is param space: passing its value frees nothing.)
fn passes_local_memory(call: OperationRef, argument: Value) -> bool {
    match caller_memory(call, argument) {
        Some(CallerMemory::Slot) => true,
        Some(CallerMemory::ByvalParameter { caller, root }) => {
            !is_kernel(caller) && crate::slots::written_at_constant_offsets(root, true)
        }
        None => false,
    }
}

/// Plans `func` given every use of its symbol, or `None` when it keeps its
/// signature.
pub fn plan_function<'c, 'a>(
    func: OperationRef<'c, 'a>,
    uses: Option<&SymbolUses<'c, 'a>>,
    policy: &PlanPolicy,
) -> Option<DevicePlan<'c, 'a>> {
    if signature_is_fixed(func, uses, policy.flatten_kernels).is_some() {
        return None;
    }
    let linkage = crate::abi::signature::function_linkage(func);
    let calls = uses.map(|u| u.calls.clone()).unwrap_or_default();
    plan_signature(func, calls, policy, linkage)
}

/// The plan `func`, an externally visible device function, would get if it
/// had local linkage and `calls` were every use of it (what its internal
/// clone would gain), or `None` when its signature would not change.
pub(in crate::lower_struct_args) fn would_change_as_local<'c, 'a>(
    func: OperationRef<'c, 'a>,
    calls: Vec<OperationRef<'c, 'a>>,
    policy: &PlanPolicy,
) -> Option<DevicePlan<'c, 'a>> {
    let uses = SymbolUses { calls, other: false, musttail: false };
    if signature_is_fixed_as(func, Some(&uses), false, true).is_some() {
        return None;
    }
    // (The clone that would take the body is internal.)
    plan_signature(func, uses.calls, policy, Linkage::Local)
}

/// The plan of a function free to change signature, called at `calls`;
/// `None` when nothing would change.
fn plan_signature<'c, 'a>(
    func: OperationRef<'c, 'a>,
    calls: Vec<OperationRef<'c, 'a>>,
    policy: &PlanPolicy,
    linkage: Linkage,
) -> Option<DevicePlan<'c, 'a>> {
    let PlanPolicy { layout, thresholds, .. } = *policy;
    let mut params: Vec<ParamPlan> = parameter_types(func)
        .into_iter()
        .enumerate()
        .map(|(index, ty)| match plan_parameter_of(func, index, ty, policy, linkage) {
            // Above `flatten-threshold`, by value only where a call passes
            // local memory that goes with it.
            ParamPlan::ByValue { ty, .. }
                if abi_type(ty).is_ok_and(|abi| layout.store_size(&abi) > thresholds.flatten)
                    && !calls.iter().any(|call| {
                        call_arguments(*call).get(index).is_some_and(|a| passes_local_memory(*call, *a))
                    }) =>
            {
                ParamPlan::Keep
            }
            // By value only where it frees memory at some call site, or
            // where the callee reads the struct outside its entry block
            // (kept, the parameter would sit in the callee's stack frame).
            ParamPlan::ByValue { in_entry: true, .. }
                if !calls.iter().any(|call| {
                    call_arguments(*call).get(index).is_some_and(|a| passes_memory_that_would_go(*call, *a))
                }) =>
            {
                ParamPlan::Keep
            }
            plan => plan,
        })
        .collect();
    // (`flatten-always` is seed 000's rule as it stands: every leaf its own
    // parameter, whatever ptxas makes of it.)
    // (Nor for a kernel, whose parameters never travel in registers.)
    if !thresholds.flatten_always && !is_kernel(func) {
        keep_parameters_in_registers(func, &mut params, &calls, layout, linkage);
    }
    let sret = result_type(func).filter(|ty| is_aggregate(*ty)).and_then(|ty| {
        let abi = abi_type(ty).ok()?;
        if classify_result(layout, &abi, thresholds).class != ArgClass::Indirect
            || calls.is_empty()
            || has_uncertain_pointer(&abi)
            || makes_calls(func)
        {
            return None;
        }
        let leaves = crate::abi::classify::leaves(layout, &abi)?;
        let sites: Option<Vec<_>> = calls.iter().map(|call| elided_slot(*call, layout, &leaves)).collect();
        Some((ty, sites?))
    });
    let plan = DevicePlan { func, params, sret, calls };
    plan.changes().then_some(plan)
}

/// Undoes flattening where it would put more parameter bytes on the stack
/// in SASS than the parameters as they are ([`stack_passed_bytes`]: twelve
/// words of registers; each leaf takes at least one, and a local function's
/// `f16` or `i8` leaf is aligned to four, so flattened leaves fill them
/// sooner than their aggregate). From the last flattened parameter: a
/// `byval` pointer goes by value instead where that is worth it on its own
/// (as [`plan_signature`] decides: a call's memory goes, or the callee
/// reads it outside its entry block), else stays; an aggregate value stays.
fn keep_parameters_in_registers<'c, 'a>(
    func: OperationRef<'c, 'a>,
    params: &mut [ParamPlan<'c>],
    calls: &[OperationRef<'c, 'a>],
    layout: &DataLayout,
    linkage: Linkage,
) {
    let Ok(mut signature) = crate::abi::signature::function_signature(func, false) else { return };
    signature.linkage = linkage;
    let Ok(before) = stack_passed_bytes(layout, &signature) else { return };
    loop {
        let planned: Option<Vec<Vec<ParamSignature>>> = params
            .iter()
            .zip(&signature.params)
            .map(|(plan, original)| match plan {
                ParamPlan::Keep => Some(vec![original.clone()]),
                ParamPlan::Flatten { leaves, .. } => {
                    leaves.iter().map(|leaf| abi_type(leaf.ty).ok().map(plain_parameter)).collect()
                }
                ParamPlan::ByValue { ty, .. } => abi_type(*ty).ok().map(|ty| vec![plain_parameter(ty)]),
            })
            .collect();
        let Some(planned) = planned else { return };
        let after = FunctionSignature { params: planned.concat(), ..signature.clone() };
        if stack_passed_bytes(layout, &after).is_ok_and(|after| after <= before) {
            return;
        }
        let Some(last) = params.iter().rposition(|plan| matches!(plan, ParamPlan::Flatten { .. })) else { return };
        params[last] = match &params[last] {
            ParamPlan::Flatten { form: AggregateForm::Byval, ty, align, leaves } => {
                let frees = calls.iter().any(|call| {
                    call_arguments(*call).get(last).is_some_and(|a| passes_memory_that_would_go(*call, *a))
                });
                let outside = parameter_value(func, last)
                    .and_then(|old| leaf_reads(layout, old, leaves, None))
                    .is_some_and(|reads| reads.outside_entry());
                if frees || outside {
                    ParamPlan::ByValue {
                        ty: *ty,
                        align: *align,
                        leaves: leaves.clone(),
                        in_entry: !outside,
                        stored: false,
                    }
                } else {
                    ParamPlan::Keep
                }
            }
            _ => ParamPlan::Keep,
        };
    }
}

/// A parameter of type `ty` with no attributes.
fn plain_parameter(ty: crate::abi::AbiType) -> ParamSignature {
    ParamSignature { ty, byval: None, align: None, stack_align: None }
}

/// How a callee reads a `byval` pointer it would receive flattened: each
/// load of exactly one leaf (through constant GEPs) with the leaf it reads,
/// the copies of the whole struct, the debug intrinsics that name the
/// pointer, and the GEPs.
pub struct LeafReads<'c, 'a> {
    /// Each load of one leaf, with the leaf's position.
    pub(super) reads: Vec<(OperationRef<'c, 'a>, usize)>,
    /// Each `llvm.intr.memcpy`/`memmove` of the whole struct out of the
    /// pointer (what clang emits at -O0 to pass it on, or to copy it into a
    /// variable): with the struct as a value, a store of it.
    pub(super) copies: Vec<OperationRef<'c, 'a>>,
    /// The debug intrinsics that name the pointer.
    pub(super) debug: Vec<OperationRef<'c, 'a>>,
    /// The GEPs between the pointer and the loads.
    pub(super) geps: Vec<OperationRef<'c, 'a>>,
}

impl LeafReads<'_, '_> {
    /// Whether a read or a copy is outside the function's entry block:
    /// llc reads a device function's `byval` parameter with `ld.param` only
    /// in the entry block, and elsewhere through its address, which makes
    /// ptxas keep the parameter in the stack frame.
    pub(super) fn outside_entry(&self) -> bool {
        let outside = |op: &OperationRef| {
            let entry = crate::kernel::enclosing_function(*op).and_then(crate::kernel::entry_block);
            op.block() != entry
        };
        self.reads.iter().any(|(op, _)| outside(op)) || self.copies.iter().any(outside)
    }
}

/// The leaf reads of `pointer`, or `None` when anything else uses it (a
/// write, an escape, a dynamic index, a load that is not one leaf, a copy
/// of anything but `whole` bytes from its start; no copy at all without
/// `whole`).
pub fn leaf_reads<'c, 'a>(
    layout: &DataLayout,
    pointer: Value<'c, 'a>,
    leaves: &[FlatLeaf<'c>],
    whole: Option<u64>,
) -> Option<LeafReads<'c, 'a>> {
    let mut nodes: Vec<(Value, i64)> = vec![(pointer, 0)];
    let mut found = LeafReads { reads: Vec::new(), copies: Vec::new(), debug: Vec::new(), geps: Vec::new() };
    let mut next = 0;
    while next < nodes.len() {
        let (value, offset) = nodes[next];
        next += 1;
        for used in uses(value) {
            let op = used.owner;
            match LlvmOp::of(op) {
                LlvmOp::Gep if used.index == 0 => {
                    let result = first_result(op).filter(|r| pointer_address_space(r.r#type()).is_some())?;
                    nodes.push((result, offset.checked_add(gep_offset(layout, op)?)?));
                    found.geps.push(op);
                }
                LlvmOp::Load if !crate::ir::is_volatile_access(op) && !is_atomic(op) => {
                    let loaded = first_result(op).map(|r| r.r#type());
                    let leaf =
                        leaves.iter().position(|leaf| leaf.offset as i64 == offset && Some(leaf.ty) == loaded)?;
                    found.reads.push((op, leaf));
                }
                LlvmOp::Memcpy | LlvmOp::Memmove
                    if used.index == 1 && offset == 0 && whole.is_some() && is_whole_copy(op, whole?) =>
                {
                    found.copies.push(op)
                }
                kind if kind.is_debug_info() => found.debug.push(op),
                _ => return None,
            }
        }
    }
    Some(found)
}

/// Whether `op` (a memcpy or memmove) copies exactly `size` bytes, not
/// volatile.
fn is_whole_copy(op: OperationRef, size: u64) -> bool {
    crate::ir::MemIntrinsic::of(op).is_some_and(|copy| {
        !copy.is_volatile() && copy.constant_length().and_then(|n| u64::try_from(n).ok()) == Some(size)
    })
}
