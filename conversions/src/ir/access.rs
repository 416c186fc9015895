//! Positional access to operands, results, regions, successors and block
//! arguments that costs nothing out of range, and the ops inside an op.

use melior::ir::{
    block::BlockArgument,
    operation::{OperationLike, OperationResult, WalkOrder, WalkResult},
    BlockLike, BlockRef, OperationRef, RegionLike, RegionRef, Value,
};

/// The error of an out-of-range position, without the text of the op.
fn out_of_bounds(name: &'static str, index: usize) -> melior::Error {
    melior::Error::PositionOutOfBounds { name, value: String::new(), index }
}

/// Positional access to an op's operands, results, regions and successors
/// that costs nothing when the position is out of range.
///
/// melior's `operand(i)`, `result(i)`, `region(i)` and `successor(i)` print
/// the whole op into their error (and printing verifies it and numbers every
/// value of the enclosing module): asking for an operand an op does not
/// have, once per op, made `ptxcc-verify` quadratic. ptxcc uses these instead
/// (a test keeps the melior methods out of the passes).
pub trait OperationExt<'c: 'a, 'a>: OperationLike<'c, 'a> + Sized {
    /// Operand `index`.
    fn operand_at(&self, index: usize) -> Result<Value<'c, 'a>, melior::Error> {
        if index < self.operand_count() {
            // SAFETY: the position is in range of the live op.
            Ok(unsafe { Value::from_raw(mlir_sys::mlirOperationGetOperand(self.to_raw(), index as isize)) })
        } else {
            Err(out_of_bounds("operation operand", index))
        }
    }

    /// Result `index`.
    fn result_at(&self, index: usize) -> Result<OperationResult<'c, 'a>, melior::Error> {
        if index < self.result_count() {
            // SAFETY: the position is in range of the live op.
            Ok(unsafe { OperationResult::from_raw(mlir_sys::mlirOperationGetResult(self.to_raw(), index as isize)) })
        } else {
            Err(out_of_bounds("operation result", index))
        }
    }

    /// Region `index`.
    fn region_at(&self, index: usize) -> Result<RegionRef<'c, 'a>, melior::Error> {
        if index < self.region_count() {
            // SAFETY: the position is in range of the live op.
            Ok(unsafe { RegionRef::from_raw(mlir_sys::mlirOperationGetRegion(self.to_raw(), index as isize)) })
        } else {
            Err(out_of_bounds("region", index))
        }
    }

    /// Successor block `index`.
    fn successor_at(&self, index: usize) -> Result<BlockRef<'c, 'a>, melior::Error> {
        if index < self.successor_count() {
            // SAFETY: the position is in range of the live op.
            Ok(unsafe { BlockRef::from_raw(mlir_sys::mlirOperationGetSuccessor(self.to_raw(), index as isize)) })
        } else {
            Err(out_of_bounds("successor", index))
        }
    }
}

impl<'c: 'a, 'a, T: OperationLike<'c, 'a>> OperationExt<'c, 'a> for T {}

/// Block arguments by position, at no cost when out of range (see
/// [`OperationExt`]; melior's `argument(i)` prints the whole block).
pub trait BlockExt<'c: 'a, 'a>: BlockLike<'c, 'a> + Sized {
    /// Argument `index`.
    fn argument_at(&self, index: usize) -> Result<BlockArgument<'c, 'a>, melior::Error> {
        if index < self.argument_count() {
            // SAFETY: the position is in range of the live block.
            Ok(unsafe { BlockArgument::from_raw(mlir_sys::mlirBlockGetArgument(self.to_raw(), index as isize)) })
        } else {
            Err(out_of_bounds("block argument", index))
        }
    }
}

impl<'c: 'a, 'a, T: BlockLike<'c, 'a>> BlockExt<'c, 'a> for T {}

/// The first result of `op`, if it has one. (Use this, not melior's
/// `result(0)`, on ops that may have none: melior prints the whole op into
/// that error, a walk of its module that once made a pass quadratic.)
pub fn first_result<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    (op.result_count() > 0).then(|| op.result_at(0).ok().map(Into::into)).flatten()
}

/// The ops directly in the body of `op` (the first block of its first
/// region: a module's functions, globals and nested modules), in order.
pub fn body_ops<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let mut next = op.region_at(0).ok().and_then(|r| r.first_block()).and_then(|b| b.first_operation());
    while let Some(op) = next {
        ops.push(op);
        next = op.next_in_block();
    }
    ops
}

/// Every op nested in `root` (not `root` itself), in pre-order.
pub fn nested_ops<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut found = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op.to_raw().ptr != root.to_raw().ptr {
            found.push(op.to_raw());
        }
        WalkResult::Advance
    });
    // SAFETY: the walk collected live ops of `root`, which outlives them.
    found.into_iter().map(|raw| unsafe { OperationRef::from_raw(raw) }).collect()
}
