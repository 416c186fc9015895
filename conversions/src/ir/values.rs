//! Values: their uses, replacing them, what produces them, and the
//! arguments of blocks.

use melior::ir::{
    block::BlockArgument, operation::OperationResult, BlockLike, BlockRef, Location, OperationRef, Type, TypeLike,
    Value, ValueLike,
};

use melior::ir::operation::OperationLike;

use super::{integer_attribute, op_name};

/// One use of a value: the op that uses it and the operand position.
#[derive(Clone, Copy, Debug)]
pub struct Use<'c, 'a> {
    /// The op that has the value as an operand.
    pub owner: OperationRef<'c, 'a>,
    /// The operand position within `owner`.
    pub index: usize,
}

/// Every use of `value`, in MLIR's use-list order.
pub fn uses<'c, 'a>(value: Value<'c, 'a>) -> Vec<Use<'c, 'a>> {
    let mut found = Vec::new();
    // SAFETY: walking the use list of a live value; nothing is changed.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(operand) {
            let owner = OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(operand));
            let index = mlir_sys::mlirOpOperandGetOperandNumber(operand) as usize;
            found.push(Use { owner, index });
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    found
}

/// Whether `value` has no uses.
pub fn has_no_uses(value: Value) -> bool {
    // SAFETY: reading the use list of a live value.
    unsafe { mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(value.to_raw())) }
}

/// `value` as an op result, `None` for a block argument. (Use this, not
/// melior's `OperationResult::try_from`: its error prints the value, which
/// prints and verifies the whole enclosing op; a walk that asks once per
/// value became quadratic in the module size.)
pub fn as_result<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationResult<'c, 'a>> {
    value.is_operation_result().then(|| OperationResult::try_from(value).ok()).flatten()
}

/// `value` as a block argument, `None` for an op result (see [`as_result`]
/// for why not `BlockArgument::try_from`).
pub fn as_argument<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockArgument<'c, 'a>> {
    value.is_block_argument().then(|| BlockArgument::try_from(value).ok()).flatten()
}

/// `value` with the lifetimes of the IR it lives in. melior ties the
/// results of an op inserted through a `BlockRef` to that borrow, although
/// the op is owned by the enclosing body.
///
/// # Safety
/// The op or block that defines `value` must outlive `'a` (and its context
/// `'c`): it is owned by IR that is not erased while the result is used.
pub unsafe fn detached<'c, 'a>(value: Value) -> Value<'c, 'a> {
    // SAFETY: guaranteed by the caller; melior values carry no ownership.
    unsafe { Value::from_raw(value.to_raw()) }
}

/// The integer `value` is known to hold: the result of an integer
/// `llvm.mlir.constant` or `arith.constant`.
pub fn constant_int(value: Value) -> Option<i64> {
    let result = as_result(value)?;
    let owner = result.owner();
    if let Some(constant) = super::Constant::of(owner) {
        return constant.integer();
    }
    (op_name(owner) == "arith.constant").then(|| integer_attribute(owner, "value")).flatten()
}

/// The width and bits (zero-extended from the width) of the integer
/// constant `value` holds, for integers of at most 128 bits: the result of
/// an integer `llvm.mlir.constant` or `arith.constant`.
pub fn constant_bits(value: Value) -> Option<(u32, u128)> {
    let owner = as_result(value)?.owner();
    let is_constant = super::Constant::of(owner).is_some() || op_name(owner) == "arith.constant";
    let attribute = is_constant.then(|| owner.attribute("value").ok()).flatten()?;
    super::integer_attribute_bits(attribute)
}

/// Inserts a new argument of type `ty` at position `index` of `block`
/// (`index` at most the argument count; panics otherwise) and returns it,
/// with the lifetimes of the IR (see [`detached`]).
pub fn insert_argument<'c, 'a>(
    block: BlockRef<'c, '_>,
    index: usize,
    ty: Type<'c>,
    location: Location<'c>,
) -> Value<'c, 'a> {
    assert!(index <= block.argument_count(), "block argument position out of range");
    // SAFETY: inserting at an in-range position of the live block; the
    // type and location belong to its context.
    unsafe {
        Value::from_raw(mlir_sys::mlirBlockInsertArgument(
            block.to_raw(),
            index as isize,
            ty.to_raw(),
            location.to_raw(),
        ))
    }
}

/// The block `argument` belongs to, with the lifetimes of the IR (melior's
/// `BlockArgument::owner` ties the block to the borrow of the argument).
pub fn argument_block<'c, 'a>(argument: BlockArgument<'c, 'a>) -> BlockRef<'c, 'a> {
    // SAFETY: the owner of a live block argument is a live block of the
    // same IR.
    unsafe { BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(argument.to_raw())) }
}
