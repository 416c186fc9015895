//! Applying device plans: call sites first, then each function's
//! signature and body.

use super::{
    call_arguments, i64_attribute, plan::leaf_reads, result_type, sret::store_at_returns, AggregateForm, DevicePlan,
    ElidedSlot, FlatLeaf, ParamPlan,
};
use crate::ir::{Gep, LlvmOp, MemIntrinsic, Rewriter, Store};

use crate::ir::{BlockExt, HashMap, OperationExt};

use melior::{
    dialect::llvm::{self, LoadStoreOptions},
    ir::{
        attribute::{ArrayAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        Attribute, BlockRef, Identifier, Operation, OperationRef, Type, Value, ValueLike,
    },
    Context,
};
use ptxcc_dialect::address_space;

use crate::{
    abi::{layout::common_alignment, DataLayout},
    context::context_of,
    ir::dictionary,
    ir::{first_result, has_no_uses, uses},
    kernel::parameter_integer,
};

/// Applies the plans: every call site first (they read the callers'
/// values as they are), then each function's signature and body. Returns
/// the calls that replace each plan's [`DevicePlan::calls`], in plan order
/// (what keeps a symbol-use map true without walking the module again).
///
/// Both steps run on the thread pool of `module`'s context, each piece of
/// work changing one function only: the call sites grouped by the function
/// they are in (each group in plan order, then call order, as one thread
/// rewrites them), then one planned function per piece. Each chunk of work
/// has its own rewriter, which `rewriter` absorbs: nothing is freed before
/// the pass ends.
///
/// Nothing a plan holds is freed while plans are applied: the ops the call
/// sites leave behind (old calls, the stores and extracts an `sret` slot
/// replaces, address arithmetic left without uses) are listed and erased
/// ([`Rewriter::flush`]) once every call site of their function is
/// rewritten, before any callee is; each callee's dead ops are erased
/// before its old parameters.
pub fn rewrite_functions<'c, 'a>(
    module: OperationRef<'c, 'a>,
    plans: &[DevicePlan<'c, 'a>],
    rewriter: &mut crate::ir::Rewriter,
) -> Vec<Vec<OperationRef<'c, 'a>>> {
    let elided: Vec<HashMap<_, _>> = plans
        .iter()
        .map(|plan| {
            plan.sret.iter().flat_map(|(_, sites)| sites.iter()).map(|site| (site.call.to_raw().ptr, site)).collect()
        })
        .collect();
    // (plan, call) of every call site, by the function it is in, in the
    // order each function first appears.
    let mut callers: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut caller_index: HashMap<Option<*mut std::ffi::c_void>, usize> = HashMap::default();
    for (p, plan) in plans.iter().enumerate() {
        for (c, call) in plan.calls.iter().enumerate() {
            let caller = crate::kernel::enclosing_function(*call).map(|func| func.to_raw().ptr);
            let index = *caller_index.entry(caller).or_insert_with(|| {
                callers.push(Vec::new());
                callers.len() - 1
            });
            callers[index].push((p, c));
        }
    }
    let rewrite_sites = |chunk: &[Vec<(usize, usize)>]| {
        let mut own = Rewriter::new();
        let mut done = Vec::new();
        for sites in chunk {
            let mut read = Vec::new();
            for &(p, c) in sites {
                let (plan, call) = (&plans[p], plans[p].calls[c]);
                let site = elided[p].get(&call.to_raw().ptr).copied();
                done.push((p, c, rewrite_call(plan, call, site, &mut own, &mut read)));
            }
            list_dead_address_chains(&read, &mut own);
        }
        vec![(done, own)]
    };
    // SAFETY: each group changes only the function its call sites are in
    // (ops inserted before its calls, its calls changed or replaced, dead
    // ops of its body erased), and reads that function and the plans, which
    // no group changes. No two groups are in one function.
    let sites = unsafe { crate::ir::parallel_chunks(module, &callers, rewrite_sites) };
    let mut new_calls: Vec<Vec<Option<OperationRef>>> = plans.iter().map(|plan| vec![None; plan.calls.len()]).collect();
    for (done, own) in sites {
        // Absorbing flushes what the call sites listed: the callee rewrites
        // below read only their own functions' bodies, and the new calls
        // replace the old ones in the symbol uses.
        rewriter.absorb(own);
        for (p, c, call) in done {
            new_calls[p][c] = Some(call);
        }
    }
    let rewrite_callees = |chunk: &[DevicePlan<'c, 'a>]| {
        let mut own = Rewriter::new();
        for plan in chunk {
            rewrite_callee(plan, &mut own);
        }
        vec![own]
    };
    // SAFETY: each plan's rewrite changes its own function (signature,
    // attributes, body) and reads nothing else; planned functions are
    // distinct.
    for own in unsafe { crate::ir::parallel_chunks(module, plans, rewrite_callees) } {
        rewriter.absorb(own);
    }
    new_calls
        .into_iter()
        .map(|calls| calls.into_iter().map(|call| call.expect("every call site was rewritten")).collect())
        .collect()
}

/// Inserts `op` before `anchor` and returns its first result.
fn emit<'c, 'a>(anchor: OperationRef<'c, 'a>, op: Operation<'c>) -> Value<'c, 'a> {
    let block = anchor.block().expect("an op in a block");
    let inserted = block.insert_operation_before(anchor, op);
    let result = first_result(inserted).expect("one result");
    result
}

/// Rebuilds `call` for `plan` (with its result stored through `elided`'s
/// slot when given); returns the new call.
///
/// What the rewrite leaves without use goes on `dead`; the pointers the old
/// call passed go on `read`, whose dead address arithmetic is listed once
/// all calls are rewritten ([`list_dead_address_chains`]).
fn rewrite_call<'c, 'a>(
    plan: &DevicePlan<'c, 'a>,
    call: OperationRef<'c, 'a>,
    elided: Option<&ElidedSlot<'c, 'a>>,
    rewriter: &mut Rewriter,
    read: &mut Vec<Value<'c, 'a>>,
) -> OperationRef<'c, 'a> {
    let context: &'c Context = crate::ir::context_of(call);
    let location = call.location();
    let arguments = call_arguments(call);
    let mut operands: Vec<Value> = Vec::new();
    let mut attributes: Vec<Attribute> = Vec::new();
    let empty = dictionary(context, &[]);
    if let Some(site) = elided {
        operands.push(crate::ir::byte_address(call, site.slot, site.offset, location));
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
                    let address = crate::ir::byte_address(call, *argument, leaf.offset, location);
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
        read.extend(arguments);
        return call;
    };
    let mut named: Vec<(Identifier, Attribute)> = Vec::new();
    for (key, value) in crate::ir::attributes(call) {
        // The call now writes through the slot, which may be a local of the
        // caller: not a tail call, not read-only any more.
        let skip = ["operandSegmentSizes", "arg_attrs", "res_attrs", "memory_effects", "TailCallKind"];
        if skip.contains(&crate::ir::identifier_text(key)) {
            continue;
        }
        named.push((key, value));
    }
    named.push((Identifier::new(context, "operandSegmentSizes"), segments.into()));
    named.push((Identifier::new(context, "arg_attrs"), argument_attributes.into()));
    // No results: the callee stores its result through the slot.
    let new_call = OperationBuilder::new(LlvmOp::Call.name(), location)
        .add_operands(&operands)
        .add_attributes(&named)
        .build()
        .expect("a valid call");
    let block = call.block().expect("a call in a block");
    let new_call = block.insert_operation_before(call, new_call);
    // The stores first, then the extracts they stored, then the call whose
    // results the extracts read: each goes once its users have.
    let mut addresses = Vec::new();
    for op in &site.replaced {
        if let Some(store) = Store::of(*op) {
            addresses.push(store.address());
            rewriter.erase_later(*op);
        }
    }
    for op in &site.replaced {
        if LlvmOp::of(*op) == LlvmOp::ExtractValue {
            rewriter.erase_later(*op);
        }
    }
    rewriter.erase_later(call);
    list_gep_chains(&addresses, rewriter);
    read.extend(arguments);
    new_call
}

/// Lists each of `addresses` that is a GEP, and its GEP bases after it,
/// for erasure where nothing uses them by the end.
fn list_gep_chains<'c, 'a>(addresses: &[Value<'c, 'a>], rewriter: &mut Rewriter) {
    for address in addresses {
        let mut current = *address;
        while let Some(result) = crate::ir::as_result(current) {
            let Some(gep) = Gep::of(result.owner()) else { break };
            rewriter.erase_later_if_unused(gep.op());
            current = gep.base();
        }
    }
}

/// Lists, for erasure where nothing uses them by the end, the GEPs on the
/// pointers rewritten calls passed (`read`) that have no uses now. Each
/// pointer's uses are read once however many calls passed it (a pointer
/// passed by thousands of calls has thousands of uses: reading them per
/// call was quadratic).
fn list_dead_address_chains<'c, 'a>(read: &[Value<'c, 'a>], rewriter: &mut Rewriter) {
    let mut seen = crate::ir::HashSet::default();
    for value in read {
        if !seen.insert(value.to_raw().ptr) {
            continue;
        }
        for used in uses(*value) {
            if LlvmOp::of(used.owner) == LlvmOp::Gep && first_result(used.owner).is_some_and(has_no_uses) {
                rewriter.erase_later_if_unused(used.owner);
            }
        }
    }
}

/// The new signature and body of a planned function.
fn rewrite_callee(plan: &DevicePlan, rewriter: &mut crate::ir::Rewriter) {
    let func = plan.func;
    let context = context_of(func);
    let context: &Context = context;
    let entry = crate::kernel::entry_block(func).expect("a planned function has a body");
    let location = func.location();
    let existing = func.attribute("arg_attrs").ok().and_then(|a| ArrayAttribute::try_from(a).ok());
    let empty = dictionary(context, &[]);
    let old_attributes: Vec<Attribute> =
        (0..plan.params.len()).map(|i| existing.and_then(|array| array.element(i).ok()).unwrap_or(empty)).collect();
    let mut new_attributes: Vec<Attribute> = Vec::new();
    let mut anchor = EntryAnchor::new(entry);
    // What the body no longer needs, erased before the old parameters it
    // used (and never while `anchor` may still place ops after it).
    let mut old_parameters = Vec::new();

    // Parameters, last first, so earlier indices stay valid.
    let mut per_param: Vec<Vec<Attribute>> = vec![Vec::new(); plan.params.len()];
    for (index, param) in plan.params.iter().enumerate().rev() {
        match param {
            ParamPlan::Keep => per_param[index].push(old_attributes[index]),
            ParamPlan::Flatten { form, ty, leaves, .. } => {
                let old = entry.argument_at(index).expect("a parameter");
                let old: Value = Value::from(old);
                let mut leaf_values = Vec::new();
                for (position, leaf) in leaves.iter().enumerate() {
                    let value = crate::ir::insert_argument(entry, index + 1 + position, leaf.ty, old.location());
                    leaf_values.push(value);
                    per_param[index].push(empty);
                }
                match form {
                    AggregateForm::Value => {
                        rebuild_value(context, &mut anchor, old, *ty, leaves, &leaf_values, rewriter)
                    }
                    AggregateForm::Byval => replace_leaf_reads(old, leaves, &leaf_values, None, rewriter),
                }
                old_parameters.push(old);
            }
            ParamPlan::ByValue { ty, align, stored: true, .. } => {
                let old = entry.argument_at(index).expect("a parameter");
                let old: Value = Value::from(old);
                let aggregate = crate::ir::insert_argument(entry, index + 1, *ty, old.location());
                per_param[index].push(empty);
                // The callee's own copy: a slot holding the value, which
                // every use of the pointer now reads and writes.
                let i32_type = melior::ir::r#type::IntegerType::new(context, 32).into();
                let one = anchor.push(crate::ir::integer_constant(i32_type, 1, location));
                let slot = anchor.push(crate::ir::alloca(one, *ty, *align as i64, old.r#type(), location));
                let alignment = LoadStoreOptions::new().align(Some(i64_attribute(context, *align as i64)));
                anchor.place(llvm::store(context, aggregate, slot, location, alignment));
                rewriter.replace_uses(old, slot);
                old_parameters.push(old);
            }
            ParamPlan::ByValue { ty, leaves, .. } => {
                let old = entry.argument_at(index).expect("a parameter");
                let old: Value = Value::from(old);
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
                replace_leaf_reads(old, leaves, &leaf_values, Some((*ty, aggregate)), rewriter);
                // The extracts of leaves the callee never reads.
                for value in leaf_values {
                    rewriter
                        .erase_later_if_unused(crate::ir::as_result(value).expect("an extractvalue result").owner());
                }
                old_parameters.push(old);
            }
        }
    }
    let kept = rewriter.flush();
    // A kept op would still read an old parameter: erasing that would leave
    // a dangling operand (a contained panic is an error at the op instead).
    assert_eq!(kept, 0, "an op that reads an old parameter of '@{}' is still used", crate::ir::symbol_name(func));
    for old in old_parameters {
        let index = crate::ir::as_argument(old).expect("a parameter").argument_number();
        // Every use of the old parameter was replaced, and the ops that
        // still read it were erased just above; it is not used again.
        let erased = rewriter.erase_argument(entry, index);
        assert!(erased, "an old parameter of '@{}' is still used", crate::ir::symbol_name(func));
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
    // Where each old parameter is now (an `sret` slot comes first).
    let mut new_index = Vec::with_capacity(per_param.len());
    let mut next = usize::from(plan.sret.is_some());
    for dictionaries in &per_param {
        new_index.push(next);
        next += dictionaries.len();
    }
    remap_allocsize(func, &new_index);
    new_attributes.extend(per_param.into_iter().flatten());
    let inputs: Vec<Type> =
        (0..entry.argument_count()).map(|i| entry.argument_at(i).expect("in range").r#type()).collect();
    let new_type = crate::ir::llvm_function_type(result, &inputs, false);
    let array = ArrayAttribute::new(context, &new_attributes);
    crate::ir::set_attribute(func, "function_type", TypeAttribute::new(new_type).into());
    crate::ir::set_attribute(func, "arg_attrs", array.into());
}

/// Renumbers the parameters an `allocsize` attribute of `func` names
/// (`passthrough = [["allocsize", "N"]]`: the element-size parameter in the
/// high 32 bits of N, the count parameter or 0xFFFFFFFF in the low ones)
/// after the signature changed: old parameter `i` is now `new_index[i]`.
/// The parameters it names are integers, which keep their form.
fn remap_allocsize(func: OperationRef, new_index: &[usize]) {
    let Some(entries) = func.attribute("passthrough").ok().and_then(crate::ir::array_elements) else { return };
    let context = context_of(func);
    let remap = |index: u64| -> Option<u64> { new_index.get(usize::try_from(index).ok()?).map(|&i| i as u64) };
    let mut changed = false;
    let remapped: Vec<Attribute> = entries
        .into_iter()
        .map(|entry| {
            let pair = crate::ir::array_elements(entry).unwrap_or_default();
            let (Some(key), Some(value)) = (
                pair.first().and_then(|k| crate::ir::string_value(*k)),
                pair.get(1).and_then(|v| crate::ir::string_value(*v)),
            ) else {
                return entry;
            };
            let Some(packed) = (key == "allocsize").then(|| value.parse::<u64>().ok()).flatten() else { return entry };
            let (size, count) = (packed >> 32, packed & 0xFFFF_FFFF);
            let Some(size) = remap(size) else { return entry };
            let count = if count == 0xFFFF_FFFF { Some(count) } else { remap(count) };
            let Some(count) = count else { return entry };
            changed = true;
            let text = ((size << 32) | count).to_string();
            ArrayAttribute::new(context, &[pair[0], melior::ir::attribute::StringAttribute::new(context, &text).into()])
                .into()
        })
        .collect();
    if changed {
        crate::ir::set_attribute(func, "passthrough", ArrayAttribute::new(context, &remapped).into());
    }
}

/// `dictionary_attribute` without the entry `name`.
fn without_entry<'c>(context: &'c Context, dictionary_attribute: Attribute<'c>, name: &str) -> Attribute<'c> {
    let entries: Vec<(Identifier, Attribute)> = crate::ir::dictionary_entries(dictionary_attribute)
        .into_iter()
        .filter(|(key, _)| crate::ir::identifier_text(*key) != name)
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
        let inserted = self.place(op);
        let result = first_result(inserted).expect("ops placed at the entry have a result");
        result
    }

    /// Places `op` after the ops placed before it.
    fn place(&mut self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        let inserted = match self.last {
            Some(last) => self.entry.insert_operation_after(last, op),
            None => self.entry.insert_operation(0, op),
        };
        self.last = Some(inserted);
        inserted
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
    rewriter: &mut Rewriter,
) {
    let mut rest = false;
    for used in uses(old) {
        let leaf = (LlvmOp::of(used.owner) == LlvmOp::ExtractValue)
            .then(|| crate::ir::ExtractValue::of(used.owner).and_then(crate::ir::ExtractValue::position))
            .flatten()
            .and_then(|path| leaves.iter().position(|leaf| leaf.path == path));
        match leaf {
            Some(position) => {
                let result = first_result(used.owner).expect("one result");
                // Same type; the extract is erased once unused.
                rewriter.replace_uses(result, values[position]);
                rewriter.erase_later(used.owner);
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
    rewriter.replace_uses(old, aggregate);
}

/// Stores `value` where `copy` (a memcpy/memmove of the whole struct) wrote
/// it, just before the copy, with the destination's declared alignment.
fn store_copied_value(copy: OperationRef, value: Value) {
    let context = context_of(copy);
    let destination = MemIntrinsic::of(copy).expect("a memcpy or memmove").destination();
    let alignment = crate::kernel::operand_alignment(copy, 0) as i64;
    let store = llvm::store(
        context,
        value,
        destination,
        copy.location(),
        LoadStoreOptions::new().align(Some(i64_attribute(context, alignment))),
    );
    copy.block().expect("a copy in a block").insert_operation_before(copy, store);
}

/// The callee side of a flattened `byval` pointer: each load reads its leaf
/// parameter; each copy of the whole struct (only with `aggregate`: its
/// type and value) stores the value; the loads, the copies, the GEPs and
/// the debug intrinsics go.
fn replace_leaf_reads<'c, 'a>(
    old: Value<'c, 'a>,
    leaves: &[FlatLeaf<'c>],
    values: &[Value<'c, 'a>],
    aggregate: Option<(Type<'c>, Value<'c, 'a>)>,
    rewriter: &mut Rewriter,
) {
    let layout = DataLayout::nvptx64();
    let whole = aggregate.and_then(|(ty, _)| crate::abi::mlir::abi_type(ty).ok()).map(|abi| layout.store_size(&abi));
    let found = leaf_reads(layout, old, leaves, whole).expect("the plan checked the uses");
    for copy in found.copies {
        let (_, value) = aggregate.expect("copies are planned only for a value");
        store_copied_value(copy, value);
        rewriter.erase_later(copy);
    }
    for (load, position) in found.reads {
        let result = first_result(load).expect("one result");
        // Same type; the load is erased once unused.
        rewriter.replace_uses(result, values[position]);
        rewriter.erase_later(load);
    }
    for op in found.debug {
        rewriter.erase_later(op);
    }
    // Innermost first: each after its users (loads, debug info, inner GEPs).
    for gep in found.geps.into_iter().rev() {
        rewriter.erase_later(gep);
    }
}
