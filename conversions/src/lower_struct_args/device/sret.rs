//! Return-slot elision: where every caller already stores a call's whole
//! result, the callee can store it there itself (`sret`).

use super::{i64_attribute, ElidedSlot};
use crate::ir::{Gep, LlvmOp, Store};

use melior::{
    dialect::llvm::{self, LoadStoreOptions},
    ir::{block::BlockLike, operation::OperationLike, OperationRef, RegionLike, Value, ValueLike},
    Context,
};
use ptxcc_dialect::{address_space, types::pointer_address_space};

use crate::abi::mlir::gep_offset;
use crate::ir::is_atomic;
use crate::{
    abi::{layout::common_alignment, DataLayout},
    ir::{first_result, uses},
};

/// Ops that may stand between a call and the stores of its result without
/// touching memory.
fn touches_no_memory(op: OperationRef) -> bool {
    matches!(
        LlvmOp::of(op),
        LlvmOp::Gep
            | LlvmOp::Constant
            | LlvmOp::ExtractValue
            | LlvmOp::InsertValue
            | LlvmOp::Poison
            | LlvmOp::Undef
            | LlvmOp::Zero
            | LlvmOp::Bitcast
            | LlvmOp::AddrSpaceCast
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
        match LlvmOp::of(used.owner) {
            LlvmOp::Store if used.index == 0 => {
                stores.push(slot_store(used.owner, layout, 0)?);
                replaced.push(used.owner);
            }
            LlvmOp::ExtractValue => {
                let path = crate::ir::ExtractValue::of(used.owner)?.position()?;
                let leaf = leaves.iter().find(|leaf| leaf.path.iter().map(|&i| i as i64).eq(path.iter().copied()))?;
                let extracted = first_result(used.owner)?;
                let [store] = uses(extracted)[..] else { return None };
                if LlvmOp::of(store.owner) != LlvmOp::Store || store.index != 0 {
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
    if crate::ir::is_volatile_access(store) || is_atomic(store) {
        return None;
    }
    let align = Store::of(store)?.alignment().and_then(|a| u64::try_from(a).ok()).unwrap_or(1);
    let mut base = Store::of(store)?.address();
    let mut offset = 0i64;
    while let Some(result) = crate::ir::as_result(base) {
        let Some(gep) = Gep::of(result.owner()) else { break };
        offset = offset.checked_add(gep_offset(layout, gep.op())?)?;
        base = gep.base();
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
    let mut remaining = replaced.iter().filter(|op| LlvmOp::of(**op) == LlvmOp::Store).count();
    let mut current = call.next_in_block();
    while let Some(op) = current {
        if remaining == 0 {
            return true;
        }
        if replaced.contains(&op) {
            if LlvmOp::of(op) == LlvmOp::Store {
                remaining -= 1;
            }
        } else if !touches_no_memory(op) {
            return false;
        }
        current = op.next_in_block();
    }
    remaining == 0
}

/// `llvm.return %v` becomes `llvm.store %v, %slot` + `llvm.return`.
pub(super) fn store_at_returns<'c, 'a>(
    context: &'c Context,
    func: OperationRef<'c, 'a>,
    slot: Value<'c, 'a>,
    align: u64,
) {
    let returns: Vec<_> = crate::ir::nested_ops(func)
        .into_iter()
        .filter(|op| LlvmOp::of(*op) == LlvmOp::Return && op.operand_count() == 1)
        .collect();
    for ret in returns {
        let value = crate::ir::Return::of(ret).and_then(crate::ir::Return::value).expect("one operand");
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
        // `llvm.return` takes zero or one operand.
        crate::ir::set_operands(ret, &[]);
    }
}
