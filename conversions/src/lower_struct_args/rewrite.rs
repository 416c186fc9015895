//! Applies an [`ArgumentPlan`]: the param-space view at the entry, then per
//! strategy `ptxcc.load_param`, param-space operands, one
//! `ptxcc.param_to_generic`, or a local copy.

use crate::ir::LlvmOp;
use crate::ir::{HashMap, OperationExt};

use melior::{
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, Operation, OperationRef, Type, Value, ValueLike,
    },
    Context,
};
use ptxcc_dialect::{address_space, ops, types::pointer_type};

use super::analysis::{null_test_predicate, Action, ArgumentPlan, Strategy};
use crate::{
    context::context_of,
    ir::{constant_int, uses, Rewriter, Use},
    kernel::{mark_kernel, set_parameter_attribute, NVVM_GRID_CONSTANT},
};

/// Which view of a pointer an operand needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Space {
    Param,
    Generic,
}

/// Rewrites the uses of one parameter of `func` as `plan` says. What the
/// rewrite leaves without use goes on `dead`: one list for every plan of the
/// function (two plans can name one op, an `llvm.intr.assume` bundle of two
/// parameters; and no plan may free what a later one still reads), erased
/// once all of them are applied ([`rewrite_arguments`]).
fn rewrite_argument<'c, 'a>(func: OperationRef<'c, 'a>, plan: &ArgumentPlan<'c, 'a>, rewriter: &mut Rewriter) {
    let context = context_of(func);
    let entry = crate::kernel::entry_block(func).expect("a kernel with a body");
    let parameter = plan.nodes[0].value;
    let location = parameter.location();
    let i64_type: Type = IntegerType::new(context, 64).into();

    // %p = llvm.addrspacecast %arg : !llvm.ptr to !llvm.ptr<101>
    let param_type = pointer_type(context, address_space::PARAM);
    let view = OperationBuilder::new(LlvmOp::AddrSpaceCast.name(), location)
        .add_operands(&[parameter])
        .add_results(&[param_type])
        .build()
        .expect("valid addrspacecast");
    let view = insert_at_entry(entry, None, view);
    let view_value: Value = view.result_at(0).expect("one result").into();

    if plan.strategy == Strategy::Copy {
        // (The plan has rejected explicit param-space casts of a copied
        // parameter: every use but the view goes to the copy.)
        let one = crate::ir::integer_constant(IntegerType::new(context, 32).into(), 1, location);
        let one = insert_at_entry(entry, Some(view), one);
        let alloca = crate::ir::alloca(
            one.result_at(0).expect("one result").into(),
            plan.mlir_type,
            plan.local_alignment as i64,
            pointer_type(context, address_space::GENERIC),
            location,
        );
        let alloca = insert_at_entry(entry, Some(one), alloca);
        let slot: Value = alloca.result_at(0).expect("one result").into();
        if plan.size > 0 {
            let copy = ops::copy_param(
                context,
                view_value,
                slot,
                IntegerAttribute::new(i64_type, plan.size as i64),
                // (What both sides have: the copy may be aligned less
                // than the `.param`.)
                IntegerAttribute::new(i64_type, plan.alignment.min(plan.local_alignment) as i64),
                location,
            );
            insert_at_entry(entry, Some(alloca), copy.into());
        }
        // The only use kept is the view.
        rewriter.replace_uses_except(parameter, slot, &[view]);
        return;
    }

    let mut applier = Applier { context, view: view_value, memo: HashMap::default(), plan, rewriter };
    if plan.strategy == Strategy::CastOnly {
        let generic =
            ops::param_to_generic(context, pointer_type(context, address_space::GENERIC), view_value, location);
        let generic = insert_at_entry(entry, Some(view), generic.into());
        applier.memo.insert((0, Space::Generic), generic.result_at(0).expect("one result").into());
        mark_kernel(func);
        set_parameter_attribute(func, plan.index, NVVM_GRID_CONSTANT, Attribute::unit(context));
    }

    for action in &plan.actions {
        match action {
            // An assume has no results; another plan may name it too.
            Action::DropAssume(assume) => applier.rewriter.erase_later(*assume),
            Action::NullTest(op) => fold_null_tests(*op, applier.rewriter),
            Action::FieldLoad { load, offset, alignment } => applier.field_load(*load, *offset, *alignment),
            Action::ParamRead(used, node) => applier.set_operand(*used, *node, Space::Param),
            Action::Generic(used, node) => applier.set_operand(*used, *node, Space::Generic),
            Action::ParamView(cast, node) => applier.replace_param_view(*cast, *node),
            Action::CopyFrom { op, node, alignment } => applier.copy_from(*op, *node, *alignment),
        }
    }
    // The original GEPs are dead once the ops above are gone: innermost
    // first.
    for node in plan.nodes.iter().rev() {
        if let Some((_, gep)) = node.parent {
            rewriter.erase_later_if_unused(gep);
        }
    }
}

/// Applies the plans of `func`'s parameters (`rewrite_argument`), then
/// erases what they left without use.
pub fn rewrite_arguments<'c, 'a>(func: OperationRef<'c, 'a>, plans: &[ArgumentPlan<'c, 'a>], rewriter: &mut Rewriter) {
    for plan in plans {
        rewrite_argument(func, plan, rewriter);
    }
    rewriter.flush();
}

/// Replaces an `icmp eq`/`ne` of a non-null pointer with null, or every
/// such comparison of an `llvm.ptrtoint` result with zero, by the constant a
/// non-null pointer gives; the comparisons and the conversion are listed
/// for erasure (the analysis checked that these are its only uses).
fn fold_null_tests<'c, 'a>(op: OperationRef<'c, 'a>, rewriter: &mut Rewriter) {
    let Ok(result) = op.result_at(0) else { return };
    let is_compare = LlvmOp::of(op) == LlvmOp::ICmp;
    let tests = if is_compare { vec![op] } else { uses(result.into()).into_iter().map(|u| u.owner).collect() };
    for icmp in tests {
        let (Some(non_null), Ok(compared)) = (null_test_predicate(icmp), icmp.result_at(0)) else { continue };
        let constant = crate::ir::integer_constant(compared.r#type(), i64::from(non_null), icmp.location());
        let constant = icmp.block().expect("an icmp is in a block").insert_operation_before(icmp, constant);
        rewriter.replace_uses(compared.into(), constant.result_at(0).expect("one result").into());
        rewriter.erase_later(icmp);
    }
    if !is_compare {
        rewriter.erase_later_if_unused(op);
    }
}

/// Inserts `op` at the start of `entry`, or after `after`.
fn insert_at_entry<'c, 'a>(
    entry: melior::ir::BlockRef<'c, 'a>,
    after: Option<OperationRef<'c, 'a>>,
    op: Operation<'c>,
) -> OperationRef<'c, 'a> {
    match after {
        Some(previous) => entry.insert_operation_after(previous, op),
        None => entry.insert_operation(0, op),
    }
}

/// Applies one parameter's plan: the views it materializes, memoized.
struct Applier<'p, 'c, 'a> {
    context: &'p Context,
    view: Value<'c, 'a>,
    memo: HashMap<(usize, Space), Value<'c, 'a>>,
    plan: &'p ArgumentPlan<'c, 'a>,
    /// The pass run's rewriter.
    rewriter: &'p mut Rewriter,
}

impl<'c, 'a> Applier<'_, 'c, 'a> {
    /// The `space` view of node `node`: the view (or its generic
    /// conversion) for the parameter, a copy of the GEP on that view for a
    /// derived pointer, placed right after the original GEP.
    fn materialize(&mut self, node: usize, space: Space) -> Value<'c, 'a> {
        if node == 0 && space == Space::Param {
            return self.view;
        }
        if let Some(value) = self.memo.get(&(node, space)) {
            return *value;
        }
        let (parent, gep) = self.plan.nodes[node].parent.expect("only the parameter has no parent");
        let base = self.materialize(parent, space);
        // The clone is inserted into the block right away, which takes
        // ownership.
        let clone = self.rewriter.clone(gep);
        let block = gep.block().expect("a GEP in a block");
        let clone = block.insert_operation_after(gep, clone);
        // Operand 0 of a GEP is its base; both types are pointers.
        crate::ir::set_operand(clone, 0, base);
        let result: Value = clone.result_at(0).expect("one result").into();
        let address_space = match space {
            Space::Param => address_space::PARAM,
            Space::Generic => address_space::GENERIC,
        };
        result.set_type(pointer_type(self.context, address_space));
        self.memo.insert((node, space), result);
        result
    }

    fn set_operand(&mut self, used: Use<'c, 'a>, node: usize, space: Space) {
        let value = self.materialize(node, space);
        // A value of a pointer type the op accepts.
        crate::ir::set_operand(used.owner, used.index, value);
    }

    fn field_load(&mut self, load: OperationRef<'c, 'a>, offset: i64, alignment: u64) {
        let i64_type: Type = IntegerType::new(self.context, 64).into();
        let result_type = load.result_at(0).expect("one result").r#type();
        let replacement = ops::load_param(
            self.context,
            result_type,
            self.view,
            IntegerAttribute::new(i64_type, offset),
            IntegerAttribute::new(i64_type, alignment as i64),
            load.location(),
        );
        let block = load.block().expect("a load in a block");
        let replacement = block.insert_operation_before(load, replacement.into());
        // Both ops have one result of the same type.
        self.rewriter.replace_uses(
            load.result_at(0).expect("one result").into(),
            replacement.result_at(0).expect("one result").into(),
        );
        self.rewriter.erase_later(load);
    }

    fn replace_param_view(&mut self, cast: OperationRef<'c, 'a>, node: usize) {
        let value = self.materialize(node, Space::Param);
        // The cast's result and `value` are both `!llvm.ptr<101>`.
        self.rewriter.replace_uses(cast.result_at(0).expect("one result").into(), value);
        self.rewriter.erase_later(cast);
    }

    /// `memcpy(dst, node, len)`: `ptxcc.copy_param` (vectorised by the
    /// conversion) when the length is constant and the copy not volatile,
    /// otherwise the same memcpy from param space.
    fn copy_from(&mut self, op: OperationRef<'c, 'a>, node: usize, alignment: u64) {
        let source = self.materialize(node, Space::Param);
        // (A copy longer than any param space can only be dead code: it
        // stays a memcpy, which ptxcc.copy_param's verifier would refuse.)
        let copy = crate::ir::MemIntrinsic::of(op).expect("a memcpy or memmove");
        let length = copy
            .length()
            .and_then(constant_int)
            .filter(|length| *length > 0 && *length <= ptxcc_dialect::verify::MAX_PARAM_SPACE);
        let volatile = copy.is_volatile();
        let destination = copy.destination();
        let local_or_generic = matches!(
            ptxcc_dialect::types::pointer_address_space(destination.r#type()),
            Some(address_space::GENERIC | address_space::LOCAL)
        );
        let (Some(length), false, true) = (length, volatile, local_or_generic) else {
            // Operand 1 of a memcpy is its source pointer.
            crate::ir::set_operand(op, 1, source);
            return;
        };
        // (An alloca's own alignment counts: clang's -O0 temporaries carry
        // none on the memcpy, and a 2-byte copy into a 2-aligned slot done
        // byte by byte kept the slot on ptxas's stack where llc's `.b16`
        // pair did not.)
        let destination_alignment = crate::kernel::operand_alignment(op, 0);
        let i64_type: Type = IntegerType::new(self.context, 64).into();
        let copy = ops::copy_param(
            self.context,
            source,
            destination,
            IntegerAttribute::new(i64_type, length),
            IntegerAttribute::new(i64_type, alignment.min(destination_alignment).max(1) as i64),
            op.location(),
        );
        let block = op.block().expect("a memcpy in a block");
        block.insert_operation_before(op, copy.into());
        // A memcpy has no results.
        self.rewriter.erase_later(op);
    }
}
