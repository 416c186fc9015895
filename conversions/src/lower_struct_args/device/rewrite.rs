//! Applying device plans: call sites first, then each function's
//! signature and body.

use super::{
    call_arguments, i64_attribute, plan::leaf_reads, result_type, sret::store_at_returns, AggregateForm, DevicePlan,
    ElidedSlot, FlatLeaf, ParamPlan,
};

use crate::ir::{BlockExt, HashMap, OperationExt};

use melior::{
    dialect::llvm::{self, LoadStoreOptions},
    ir::{
        attribute::{ArrayAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, BlockRef, Identifier, Location, Operation, OperationRef, Type, Value, ValueLike,
    },
    Context,
};
use ptxcc_dialect::address_space;

use crate::{
    abi::{layout::common_alignment, DataLayout},
    context::context_of,
    ir::dictionary,
    ir::{first_result, has_no_uses, i64_array_attribute, op_name, uses},
    kernel::parameter_integer,
};

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
        // The operands dominate the call; the segment sizes and argument
        // attributes set next match them.
        crate::ir::set_operands(call, &operands);
        crate::ir::set_attribute(call, "operandSegmentSizes", segments.into());
        crate::ir::set_attribute(call, "arg_attrs", argument_attributes.into());
        erase_dead_address_chains(&arguments);
        return call;
    };
    let mut named: Vec<(Identifier, Attribute)> = Vec::new();
    for (key, value) in crate::ir::attributes(call) {
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
            unsafe { crate::ir::erase(*op) };
            erase_dead_geps(address);
        }
    }
    for op in &site.replaced {
        if op_name(*op) == "llvm.extractvalue" {
            // SAFETY: its only use, a store, is gone.
            unsafe { crate::ir::erase(*op) };
        }
    }
    // SAFETY: nothing uses the old call any more.
    unsafe { crate::ir::erase(call) };
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
        unsafe { crate::ir::erase(gep) };
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
            unsafe { crate::ir::erase(op) };
        }
    }
}

/// The new signature and body of a planned function.
fn rewrite_callee(plan: &DevicePlan) {
    let func = plan.func;
    let context = context_of(func);
    let context: &Context = &context;
    let entry = crate::kernel::entry_block(func).expect("a planned function has a body");
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
                    let value = crate::ir::insert_argument(entry, index + 1 + position, leaf.ty, old.location());
                    leaf_values.push(value);
                    per_param[index].push(empty);
                }
                match form {
                    AggregateForm::Value => rebuild_value(context, &mut anchor, old, *ty, leaves, &leaf_values),
                    AggregateForm::Byval => replace_leaf_reads(old, leaves, &leaf_values),
                }
                // SAFETY: every use of the old parameter is gone.
                unsafe { crate::ir::erase_argument(entry, index) };
            }
            ParamPlan::ByValue { ty, leaves, .. } => {
                let old = entry.argument_at(index).expect("a parameter");
                // SAFETY: the argument lives as long as the body.
                let old: Value = unsafe { Value::from_raw(old.to_raw()) };
                let aggregate = crate::ir::insert_argument(entry, index + 1, *ty, old.location());
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
                    // SAFETY: the extract's result has no uses (the filter above).
                    unsafe { crate::ir::erase(crate::ir::as_result(value).expect("an extractvalue result").owner()) };
                }
                // SAFETY: every use of the old parameter is gone.
                unsafe { crate::ir::erase_argument(entry, index) };
            }
        }
    }
    let mut result = result_type(func).expect("an llvm.func has a type");
    if let Some((ty, sites)) = &plan.sret {
        let align = sites.iter().map(|site| site.align).min().unwrap_or(1);
        let pointer = ptxcc_dialect::types::pointer_type(context, address_space::GENERIC);
        let slot: Value = crate::ir::insert_argument(entry, 0, pointer, location);
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
        // They described the old result and the old (read-only) memory
        // behaviour.
        for name in ["res_attrs", "memory_effects"] {
            crate::ir::remove_attribute(func, name);
        }
    }
    new_attributes.extend(per_param.into_iter().flatten());
    let inputs: Vec<Type> =
        (0..entry.argument_count()).map(|i| entry.argument_at(i).expect("in range").r#type()).collect();
    let new_type = crate::ir::llvm_function_type(result, &inputs, false);
    let array = ArrayAttribute::new(context, &new_attributes);
    crate::ir::set_attribute(func, "function_type", TypeAttribute::new(new_type).into());
    crate::ir::set_attribute(func, "arg_attrs", array.into());
}

/// `dictionary_attribute` without the entry `name`.
fn without_entry<'c>(context: &'c Context, dictionary_attribute: Attribute<'c>, name: &str) -> Attribute<'c> {
    let entries: Vec<(Identifier, Attribute)> = crate::ir::dictionary_entries(dictionary_attribute)
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
                // Same type; the extract is erased once unused.
                crate::ir::replace_uses(result, values[position]);
                // SAFETY: every use of the extract now uses the leaf's value.
                unsafe { crate::ir::erase(used.owner) };
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
    // Same type.
    crate::ir::replace_uses(old, aggregate);
}

/// The callee side of a flattened `byval` pointer: each load reads its leaf
/// parameter; the loads, the GEPs and the debug intrinsics go.
fn replace_leaf_reads<'c, 'a>(old: Value<'c, 'a>, leaves: &[FlatLeaf<'c>], values: &[Value<'c, 'a>]) {
    let found = leaf_reads(DataLayout::nvptx64(), old, leaves).expect("the plan checked the uses");
    for (load, position) in found.reads {
        let result = first_result(load).expect("one result");
        // Same type; the load is erased once unused.
        crate::ir::replace_uses(result, values[position]);
        // SAFETY: every use of the load now uses the leaf's value.
        unsafe { crate::ir::erase(load) };
    }
    for op in found.debug {
        // SAFETY: debug intrinsics have no results.
        unsafe { crate::ir::erase(op) };
    }
    for gep in found.geps.into_iter().rev() {
        // SAFETY: every use of the GEP (loads, debug info, inner GEPs) is gone;
        // innermost first.
        unsafe { crate::ir::erase(gep) };
    }
}
