//! Ops: their names, erasing, cloning and moving them, their operands and
//! location, and the few ops ptxcc builds or reads by hand.

use melior::ir::{
    attribute::{Attribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    BlockLike, BlockRef, Identifier, Location, Operation, OperationRef, Type, TypeLike, Value, ValueLike,
};

use super::{i32_array_attribute, OperationExt};

/// The name of `op` (`llvm.load`), without copying it: op names are
/// identifiers owned by the context.
pub fn op_name<'c>(op: OperationRef<'c, '_>) -> &'c str {
    // SAFETY: the name of a live op.
    // SAFETY: the name of a live op, uniqued in the context of `'c`.
    unsafe { identifier_str(mlir_sys::mlirOperationGetName(op.to_raw())) }
}

/// A key equal for all ops of one name, and only for them: op names are
/// uniqued identifiers, so this compares no strings (for tables of what to
/// do per op name, filled once per name).
pub fn op_name_key(op: OperationRef) -> *const std::ffi::c_void {
    ptxcc_shim::operation_name_key(op.to_raw())
}

/// The text of an identifier (an op or attribute name), without copying
/// it; empty if it is not UTF-8.
///
/// # Safety
/// `identifier` must be a live identifier of a context that outlives `'c`
/// (identifiers live as long as their context).
pub(crate) unsafe fn identifier_str<'c>(identifier: mlir_sys::MlirIdentifier) -> &'c str {
    // SAFETY: the identifier outlives `'c` (the caller's guarantee).
    let bytes = unsafe { string_ref_bytes(mlir_sys::mlirIdentifierStr(identifier)) };
    // Op and attribute names are ASCII, checked inline: the passes ask for
    // millions of names, and a call to `from_utf8` per name cost 218 M
    // instructions at 5000 functions, against 1.2 G for all the passes.
    if bytes.is_ascii() {
        // SAFETY: ASCII is UTF-8.
        return unsafe { std::str::from_utf8_unchecked(bytes) };
    }
    std::str::from_utf8(bytes).unwrap_or_default()
}

/// The bytes of an MLIR string reference: empty for an empty one, whose
/// data pointer may be null (melior's `StringRef::as_str` panics on an
/// empty string, and on text that is not UTF-8: attribute strings from
/// user input are both).
///
/// # Safety
/// The referenced bytes must outlive `'c` (strings owned by a context
/// live as long as it).
pub(crate) unsafe fn string_ref_bytes<'c>(text: mlir_sys::MlirStringRef) -> &'c [u8] {
    if text.length == 0 || text.data.is_null() {
        return &[];
    }
    // SAFETY: non-null, `length` bytes (not NUL-terminated), alive for `'c`
    // (the caller's guarantee).
    unsafe { std::slice::from_raw_parts(text.data.cast::<u8>(), text.length) }
}

/// `identifier_str` of a melior identifier.
pub fn identifier_text<'c>(identifier: Identifier<'c>) -> &'c str {
    // SAFETY: a melior identifier of the context of `'c`.
    unsafe { identifier_str(identifier.to_raw()) }
}

/// Sets operand `index` of `op` to `value` (a value that dominates `op`,
/// of a type the op accepts: what the verifier checks). Panics when `op`
/// has no operand `index`.
pub fn set_operand(op: OperationRef, index: usize, value: Value) {
    assert!(index < op.operand_count(), "operand position out of range");
    // SAFETY: the position is in range of the live op; `value` is live.
    unsafe { mlir_sys::mlirOperationSetOperand(op.to_raw(), index as isize, value.to_raw()) };
}

/// Replaces all the operands of `op` with `values` (any number: the caller
/// keeps attributes such as `operandSegmentSizes` in step).
pub fn set_operands(op: OperationRef, values: &[Value]) {
    let raw: Vec<mlir_sys::MlirValue> = values.iter().map(|v| v.to_raw()).collect();
    // SAFETY: the op and the values are live; `raw` outlives the call,
    // which copies the operands.
    unsafe { mlir_sys::mlirOperationSetOperands(op.to_raw(), raw.len() as isize, raw.as_ptr()) };
}

/// Makes successor `index` of the terminator `op` be `block` (its
/// operands stay as they are); panics when out of range.
pub fn set_successor(op: OperationRef, index: usize, block: BlockRef) {
    assert!(index < op.successor_count(), "successor position out of range");
    // SAFETY: the position is in range of the live op, and `block` is a
    // live block; MLIR only rewires the successor's use list.
    unsafe { mlir_sys::mlirOperationSetSuccessor(op.to_raw(), index as isize, block.to_raw()) };
}

/// `llvm.br` to `dest` with `operands` for its arguments.
pub fn branch<'c>(dest: BlockRef<'c, '_>, operands: &[Value<'c, '_>], location: Location<'c>) -> Operation<'c> {
    OperationBuilder::new(super::LlvmOp::Br.name(), location)
        .add_operands(operands)
        .add_successors(&[&dest])
        .build()
        .expect("a branch is valid")
}

/// Sets the location of `op`.
pub fn set_location<'c>(op: OperationRef<'c, '_>, location: Location<'c>) {
    // SAFETY: the op is live; the location belongs to its context.
    unsafe { mlir_sys::mlirOperationSetLocation(op.to_raw(), location.to_raw()) };
}

/// The `TailCallKind` of an `llvm.call` that makes it a `musttail` call
/// (the C API has no accessor for the kind; attributes are uniqued, so one
/// parsed copy compares with the call's).
pub const MUSTTAIL: &str = "#llvm.tailcallkind<musttail>";

/// Whether `call` is a `musttail` call.
pub fn is_musttail(call: OperationRef) -> bool {
    let Ok(kind) = call.attribute("TailCallKind") else { return false };
    let context = crate::context::context_of(call);
    Attribute::parse(context, MUSTTAIL) == Some(kind)
}

/// `rawConstantIndices` marks a dynamic GEP index with this value.
const GEP_DYNAMIC_INDEX: i32 = i32::MIN;

/// The indices of an `llvm.getelementptr`: `Some(constant)` for constant
/// indices (written in the op or produced by a constant op), `None` for
/// dynamic ones. `None` overall when the op is malformed.
pub fn gep_indices(gep: OperationRef) -> Option<Vec<Option<i64>>> {
    let raw = i32_array_attribute(gep, "rawConstantIndices")?;
    let mut next_operand = 1;
    raw.into_iter()
        .map(|index| {
            if index == GEP_DYNAMIC_INDEX {
                let operand = gep.operand_at(next_operand).ok()?;
                next_operand += 1;
                Some(super::constant_int(operand))
            } else {
                Some(Some(i64::from(index)))
            }
        })
        .collect()
}

/// Makes the dynamic index that is operand `operand` of the GEP `gep` the
/// constant `value`, written in the op (as canonicalization writes it, so
/// that MLIR's own SROA sees a constant index); `false`, changing nothing,
/// when the operand is not a dynamic index or the value does not fit.
pub fn fold_gep_index(gep: OperationRef, operand: usize, value: i64) -> bool {
    let Some(mut raw) = i32_array_attribute(gep, "rawConstantIndices") else { return false };
    let Ok(value) = i32::try_from(value) else { return false };
    if value == GEP_DYNAMIC_INDEX || operand == 0 {
        return false;
    }
    let Some(position) =
        raw.iter().enumerate().filter(|(_, i)| **i == GEP_DYNAMIC_INDEX).nth(operand - 1).map(|(p, _)| p)
    else {
        return false;
    };
    raw[position] = value;
    let operands: Vec<Value> =
        (0..gep.operand_count()).filter(|i| *i != operand).filter_map(|i| gep.operand_at(i).ok()).collect();
    let attribute = melior::ir::attribute::DenseI32ArrayAttribute::new(super::context_of(gep), &raw);
    super::set_attribute(gep, "rawConstantIndices", attribute.into());
    set_operands(gep, &operands);
    true
}

/// The block argument that operand `index` of the terminator `terminator`
/// becomes in one of its successors: for every branch (`llvm.br`,
/// `llvm.cond_br`, `llvm.switch`, `llvm.indirectbr`, `llvm.invoke`, read
/// through MLIR's branch interface); `None` for an operand that is not
/// forwarded (a condition, a switch's value) or an op that is no branch.
pub fn successor_argument<'c, 'a>(terminator: OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
    let argument = ptxcc_shim::successor_block_argument(terminator.to_raw(), index)?;
    // SAFETY: the block argument lives in the IR as long as the terminator.
    Some(unsafe { Value::from_raw(argument) })
}

/// The operand position of `value` seen as argument `index` of a call:
/// `llvm.call` lists the callee pointer first when it is indirect.
pub fn call_argument_index(call: OperationRef, operand: usize) -> Option<usize> {
    let sizes = i32_array_attribute(call, "operandSegmentSizes")?;
    let arguments = usize::try_from(*sizes.first()?).ok()?;
    if operand >= arguments {
        return None; // an operand bundle
    }
    if call.has_attribute("callee") {
        Some(operand)
    } else {
        operand.checked_sub(1)
    }
}

/// `llvm.mlir.constant` of the integer `value` (sign-extended to the type's
/// width) with the integer type `ty`.
pub fn integer_constant<'c>(ty: Type<'c>, value: i64, location: Location<'c>) -> Operation<'c> {
    wide_integer_constant(ty, value as i128 as u128, location)
}

/// `llvm.mlir.constant` of the integer type `ty` whose bits are `bits`
/// truncated to the type's width (a negative value given as its two's
/// complement: `-4i128 as u128`), built at the type's own width (melior's
/// builder goes through an `i64` and zero-extends it: an `i128` -4 would
/// be 2^64 - 4).
pub fn wide_integer_constant<'c>(ty: Type<'c>, bits: u128, location: Location<'c>) -> Operation<'c> {
    let context = super::context_ref(TypeLike::context(&ty));
    let attribute = ptxcc_shim::integer_attribute_from_bits(ty.to_raw(), bits)
        // SAFETY: a live attribute the shim made in `ty`'s context.
        .map(|raw| unsafe { melior::ir::Attribute::from_raw(raw) })
        .expect("an integer constant has an integer type");
    OperationBuilder::new(super::LlvmOp::Constant.name(), location)
        .add_attributes(&[(Identifier::new(context, "value"), attribute)])
        .add_results(&[ty])
        .build()
        .expect("an integer constant is valid")
}

/// `llvm.alloca` of `count` elements of type `ty`, aligned to `alignment`
/// bytes, giving a pointer of type `pointer` (a stack slot).
pub fn alloca<'c>(
    count: Value<'c, '_>,
    ty: Type<'c>,
    alignment: i64,
    pointer: Type<'c>,
    location: Location<'c>,
) -> Operation<'c> {
    let context = super::context_ref(TypeLike::context(&ty));
    let i64_type = melior::ir::r#type::IntegerType::new(context, 64).into();
    OperationBuilder::new(super::LlvmOp::Alloca.name(), location)
        .add_operands(&[count])
        .add_attributes(&[
            (Identifier::new(context, "alignment"), IntegerAttribute::new(i64_type, alignment).into()),
            (Identifier::new(context, "elem_type"), melior::ir::attribute::TypeAttribute::new(ty).into()),
        ])
        .add_results(&[pointer])
        .build()
        .expect("an alloca of a sized type is valid")
}

/// `llvm.addrspacecast` of the pointer `value` to the pointer type `to`.
pub fn addrspacecast<'c>(value: Value<'c, '_>, to: Type<'c>, location: Location<'c>) -> Operation<'c> {
    OperationBuilder::new(super::LlvmOp::AddrSpaceCast.name(), location)
        .add_operands(&[value])
        .add_results(&[to])
        .build()
        .expect("an addrspacecast between pointers is valid")
}

/// `base + offset` bytes (an `i8` GEP) inserted before `anchor`; `base`
/// itself for offset 0.
pub fn byte_address<'c, 'a>(
    anchor: OperationRef<'c, 'a>,
    base: Value<'c, 'a>,
    offset: u64,
    location: Location<'c>,
) -> Value<'c, 'a> {
    if offset == 0 {
        return base;
    }
    let context = super::context_of(anchor);
    let gep = melior::dialect::llvm::get_element_ptr(
        context,
        base,
        melior::ir::attribute::DenseI32ArrayAttribute::new(context, &[offset as i32]),
        melior::ir::r#type::IntegerType::new(context, 8).into(),
        base.r#type(),
        location,
    );
    let block = anchor.block().expect("an anchor in a block");
    super::first_result(block.insert_operation_before(anchor, gep)).expect("a GEP has a result")
}
