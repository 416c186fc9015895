//! Dynamic indices outside loops, as selects over the array's elements.
//!
//! An array written or read once at an index that no unrolling makes
//! constant (a thread index, a function argument) still fits in registers
//! when it is small: each load becomes a load of every element the index
//! may reach and a chain of `llvm.select`s on the index; each store, a
//! store of `select(index == e, value, old)` into every element. Then every
//! index is a constant and SROA promotes the array (NVIDIA's compiler does
//! the same: issue 30's `scatter`, 32 bytes of stack with llc, none with
//! nvcc). Only accesses outside every loop are rewritten: in a loop (a
//! histogram) the selects would run each iteration, and local memory is
//! cheaper, which is also what nvcc decides.
//!
//! The elements an index may reach are those whose access stays inside the
//! alloca (anything else is undefined behaviour) and whose number the
//! index's type can hold, read as signed as a GEP reads it (an `i1` index
//! reaches elements -1 and 0): a store at an index out of them changes
//! nothing, a load gives the first element.

use crate::ir::{LlvmOp, Rewriter};
use melior::ir::{
    attribute::IntegerAttribute, block::BlockLike, operation::OperationLike, r#type::IntegerType, OperationRef, Value,
    ValueLike,
};

use super::candidates::Refusal;
use crate::ir::{Cfg, Loop};
use crate::{
    abi::{mlir::abi_type, DataLayout},
    context::context_of,
    ir::{first_result, gep_indices, integer_constant, op_name, set_operand, uses, OperationExt},
};

/// One GEP with a dynamic index and the loads and stores through it.
#[derive(Debug)]
pub struct Access<'c, 'a> {
    gep: OperationRef<'c, 'a>,
    /// The operand position of the dynamic index.
    operand: usize,
    /// The index values whose accesses stay inside the alloca.
    first: i64,
    count: i64,
    users: Vec<OperationRef<'c, 'a>>,
}

/// The rewrite of one alloca: its dynamic accesses and the ops they add.
#[derive(Debug)]
pub struct SelectPlan<'c, 'a> {
    /// The accesses to rewrite.
    pub accesses: Vec<Access<'c, 'a>>,
    /// Ops the rewrite adds (loads, compares, selects, stores, GEPs).
    pub ops: u64,
    /// The most elements one index may reach.
    pub elements: i64,
}

/// The select rewrite of the GEPs of the alloca `root` (of `size` bytes)
/// that `rewrite` names, or why there is none: each must have one dynamic
/// index, lie at a constant offset from the alloca, be used only as the
/// address of non-atomic loads and stores, and sit outside every loop of
/// `loops`; an index may reach at most `max_elements` elements. (The
/// others are left to unrolling.)
pub fn plan<'c, 'a>(
    cfg: &Cfg,
    loops: &[Loop],
    root: Value<'c, 'a>,
    size: u64,
    max_elements: u64,
    rewrite: impl Fn(OperationRef<'c, 'a>) -> bool,
) -> Result<SelectPlan<'c, 'a>, Refusal> {
    let mut accesses = Vec::new();
    let not_selectable = |why: &str| Refusal::NotSelectable(why.to_owned());
    super::candidates::walk(root, |used, offset| {
        let op = used.owner;
        if (LlvmOp::of(op), used.index) != (LlvmOp::Gep, 0) {
            return Ok(());
        }
        let indices = gep_indices(op).ok_or_else(|| not_selectable("a GEP without indices"))?;
        let dynamic: Vec<usize> = indices.iter().enumerate().filter(|(_, i)| i.is_none()).map(|(p, _)| p).collect();
        match (&dynamic[..], offset) {
            // Constant (or left to unrolling).
            ([], _) => Ok(()),
            (_, _) if !rewrite(op) => Ok(()),
            ([position], Some(offset)) => {
                accesses.push(access(cfg, loops, op, &indices, *position, offset, size)?);
                Ok(())
            }
            ([_], None) => Err(not_selectable("a GEP at no constant offset")),
            _ => Err(not_selectable("a GEP with two dynamic indices")),
        }
    })?;
    let elements = accesses.iter().map(|a| a.count).max().unwrap_or(0);
    if elements as u64 > max_elements {
        return Err(Refusal::Elements(elements as u64, max_elements));
    }
    let ops = accesses
        .iter()
        .map(|a| {
            let per_user: u64 = a.users.iter().map(|u| if LlvmOp::of(*u) == LlvmOp::Load { 3 } else { 5 }).sum();
            per_user * a.count as u64
        })
        .sum();
    Ok(SelectPlan { accesses, ops, elements })
}

/// The access through `gep` (dynamic index at `position` of its indices,
/// its base `offset` bytes into an alloca of `size` bytes).
fn access<'c, 'a>(
    cfg: &Cfg,
    loops: &[Loop],
    gep: OperationRef<'c, 'a>,
    indices: &[Option<i64>],
    position: usize,
    offset: i64,
    size: u64,
) -> Result<Access<'c, 'a>, Refusal> {
    let layout = DataLayout::nvptx64();
    let not_selectable = |why: &str| Refusal::NotSelectable(why.to_owned());
    let in_loop = |op: OperationRef| {
        let block = op.block().and_then(|b| cfg.position(b));
        block.is_none_or(|b| loops.iter().any(|l| l.contains(b)))
    };
    if in_loop(gep) {
        return Err(Refusal::InLoop);
    }
    let source = crate::ir::Gep::of(gep)
        .and_then(crate::ir::Gep::element_type)
        .and_then(|t| abi_type(t).ok())
        .ok_or_else(|| not_selectable("a GEP through a type without layout"))?;
    let at = |value: i64| {
        let indices: Vec<i64> =
            indices.iter().enumerate().map(|(p, i)| if p == position { value } else { i.unwrap_or(0) }).collect();
        layout.gep_offset(&source, &indices).ok()
    };
    let (Some(zero), Some(one)) = (at(0), at(1)) else {
        return Err(not_selectable("a GEP through a type without layout"));
    };
    let stride = one - zero;
    let mut users = Vec::new();
    let mut widest = 0u64;
    let result = first_result(gep).ok_or_else(|| not_selectable("a GEP without a result"))?;
    for used in uses(result) {
        let op = used.owner;
        let accessed = match (LlvmOp::of(op), used.index) {
            (LlvmOp::Load, 0) => crate::ir::Load::of(op).map(|load| load.value().r#type()),
            (LlvmOp::Store, 1) => crate::ir::Store::of(op).map(|store| store.value().r#type()),
            _ => return Err(Refusal::Escapes(op_name(op).to_owned())),
        };
        if in_loop(op) {
            return Err(Refusal::InLoop);
        }
        // LLVM's AtomicOrdering: not_atomic is 0.
        if crate::ir::is_atomic(op) {
            return Err(not_selectable("an atomic access"));
        }
        let bytes = accessed.and_then(|t| abi_type(t).ok()).map(|t| layout.store_size(&t));
        widest = widest.max(bytes.ok_or_else(|| not_selectable("an access of a type without layout"))?);
        users.push(op);
    }
    if stride <= 0 {
        return Err(not_selectable("an index with no stride"));
    }
    // The index values whose bytes stay inside the alloca.
    let base = offset + zero;
    // The smallest e with base + e * stride >= 0 (negative where the base
    // is inside the alloca: LLVM allows any index that stays in the object).
    let first = -base.div_euclid(stride);
    let last = (size as i64 - widest as i64 - base).div_euclid(stride);
    // (A constant index written as an operand counts as constant for
    // `gep_indices`: the operand position is counted on the raw indices.)
    let operand = operand_of(gep, position).ok_or_else(|| not_selectable("an index that is not an operand"))?;
    // A GEP reads its index as signed: an `i1` index is 0 or -1, an `i2`
    // one -2 to 1. Element numbers its type cannot hold are not reachable
    // (and two of them would be one constant of that type).
    let width = gep
        .operand_at(operand)
        .ok()
        .and_then(|index| crate::ir::integer_width(index.r#type()))
        .ok_or_else(|| not_selectable("an index that is not an integer"))?;
    let (first, last) = match width {
        1..=63 => (first.max(-(1i64 << (width - 1))), last.min((1i64 << (width - 1)) - 1)),
        _ => (first, last),
    };
    Ok(Access { gep, operand, first, count: (last - first + 1).max(0), users })
}

/// The operand position of index `position` of `gep`, when that index is
/// an operand.
fn operand_of(gep: OperationRef, position: usize) -> Option<usize> {
    let raw = crate::ir::Gep::of(gep)?.raw_indices()?;
    if raw.get(position)? != &i32::MIN {
        return None;
    }
    Some(1 + raw[..position].iter().filter(|i| **i == i32::MIN).count())
}

/// Rewrites the accesses of `plan` (see the module documentation); the old
/// loads, stores and GEPs go to `erase`.
pub fn expand(plan: &SelectPlan, rewriter: &mut Rewriter) {
    for access in &plan.accesses {
        let Ok(index) = access.gep.operand_at(access.operand) else { continue };
        let location = access.gep.location();
        let context = context_of(access.gep);
        for &user in &access.users {
            let Some(user_block) = user.block() else { continue };
            // One GEP per element, next to the access.
            let mut elements = Vec::new();
            for e in access.first..access.first + access.count {
                let constant = user_block.insert_operation_before(user, integer_constant(index.r#type(), e, location));
                let copy = user_block.insert_operation_before(user, rewriter.clone(access.gep));
                if !crate::ir::fold_gep_index(copy, access.operand, e) {
                    if let Some(constant) = first_result(constant) {
                        set_operand(copy, access.operand, constant);
                    }
                }
                let equal = compare(user_block, user, index, first_result(constant), context);
                elements.push((first_result(copy), equal));
            }
            if LlvmOp::of(user) == LlvmOp::Load {
                let mut chosen: Option<Value> = None;
                for (address, equal) in &elements {
                    let (Some(address), Some(equal)) = (address, equal) else { continue };
                    let load = user_block.insert_operation_before(user, rewriter.clone(user));
                    set_operand(load, 0, *address);
                    let Some(loaded) = first_result(load) else { continue };
                    chosen = Some(match chosen {
                        None => loaded,
                        Some(previous) => select(user_block, user, *equal, loaded, previous),
                    });
                }
                if let (Some(chosen), Some(old)) = (chosen, first_result(user)) {
                    rewriter.replace_uses(old, chosen);
                    rewriter.erase_later(user);
                }
            } else {
                let Some(value) = crate::ir::Store::of(user).map(|store| store.value()) else { continue };
                for (address, equal) in &elements {
                    let (Some(address), Some(equal)) = (address, equal) else { continue };
                    let old = melior::dialect::llvm::load(
                        context,
                        *address,
                        value.r#type(),
                        location,
                        melior::dialect::llvm::LoadStoreOptions::new().align(
                            crate::ir::Store::of(user)
                                .and_then(crate::ir::Store::alignment)
                                .map(|a| IntegerAttribute::new(IntegerType::new(context, 64).into(), a)),
                        ),
                    );
                    let Some(old) = first_result(user_block.insert_operation_before(user, old)) else { continue };
                    let new = select(user_block, user, *equal, value, old);
                    let store = user_block.insert_operation_before(user, rewriter.clone(user));
                    set_operand(store, 0, new);
                    set_operand(store, 1, *address);
                }
                rewriter.erase_later(user);
            }
        }
        rewriter.erase_later_if_unused(access.gep);
    }
}

/// `llvm.icmp "eq" index, constant`, before `anchor`.
fn compare<'c, 'a>(
    block: melior::ir::BlockRef<'c, 'a>,
    anchor: OperationRef<'c, 'a>,
    index: Value<'c, 'a>,
    constant: Option<Value<'c, 'a>>,
    context: &'c melior::Context,
) -> Option<Value<'c, 'a>> {
    let i64_type = IntegerType::new(context, 64).into();
    let op = melior::ir::operation::OperationBuilder::new(LlvmOp::ICmp.name(), anchor.location())
        .add_operands(&[index, constant?])
        // LLVM's ICmpPredicate: eq is 0.
        .add_attributes(&[(
            melior::ir::Identifier::new(context, "predicate"),
            IntegerAttribute::new(i64_type, 0).into(),
        )])
        .add_results(&[IntegerType::new(context, 1).into()])
        .build()
        .ok()?;
    first_result(block.insert_operation_before(anchor, op))
}

/// `llvm.select condition, on_true, on_false`, before `anchor`.
fn select<'c, 'a>(
    block: melior::ir::BlockRef<'c, 'a>,
    anchor: OperationRef<'c, 'a>,
    condition: Value<'c, 'a>,
    on_true: Value<'c, 'a>,
    on_false: Value<'c, 'a>,
) -> Value<'c, 'a> {
    let op = melior::ir::operation::OperationBuilder::new(LlvmOp::Select.name(), anchor.location())
        .add_operands(&[condition, on_true, on_false])
        .add_results(&[on_true.r#type()])
        .build()
        .expect("a select of two values of one type is valid");
    first_result(block.insert_operation_before(anchor, op)).expect("a select has a result")
}
