//! Ops: their names, erasing, cloning and moving them, their operands and
//! location, and the few ops ptxcc builds or reads by hand.

use melior::ir::{
    attribute::{Attribute, IntegerAttribute},
    operation::{OperationBuilder, OperationLike},
    BlockLike, BlockRef, Identifier, Location, Operation, OperationRef, Type, TypeLike, Value, ValueLike,
};

use super::{i32_array_attribute, BlockExt, OperationExt};

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

/// [`identifier_str`] of a melior identifier.
pub fn identifier_text<'c>(identifier: Identifier<'c>) -> &'c str {
    // SAFETY: a melior identifier of the context of `'c`.
    unsafe { identifier_str(identifier.to_raw()) }
}

/// Erases `op` (owned by its block, which unlinks it).
///
/// # Safety
/// Every use of `op`'s results must be gone (removed or replaced), and no
/// reference to `op` (or to an op, block or value inside it) may be used
/// afterwards.
pub unsafe fn erase(op: OperationRef) {
    // SAFETY: guaranteed by the caller.
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
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

/// A copy of `op` (its regions included), owned by the caller until it is
/// inserted into a block.
pub fn clone<'c>(op: OperationRef<'c, '_>) -> Operation<'c> {
    // SAFETY: cloning a live op gives a new op without a parent, which the
    // returned `Operation` owns (and destroys if it is never inserted).
    unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) }
}

/// Moves `op` from its block to the end of `block`, which takes ownership.
pub fn move_to_end(op: OperationRef, block: BlockRef) {
    // SAFETY: `op` is live and detached from its block here, then handed
    // to `block`, which owns it from then on; no op is freed.
    unsafe {
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirBlockAppendOwnedOperation(block.to_raw(), op.to_raw());
    }
}

/// Moves `op` from its block to just before `anchor` (in the same or
/// another block).
pub fn move_before(op: OperationRef, anchor: OperationRef) {
    // SAFETY: both ops are live and in blocks; MLIR unlinks `op` and links it
    // before `anchor`, whose block owns it from then on; no op is freed.
    unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), anchor.to_raw()) };
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
    OperationBuilder::new("llvm.br", location)
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

/// The rewriter base of the pattern rewriter MLIR hands a rewrite
/// pattern's callback (what melior's `create_op_rewrite_pattern` passes).
///
/// # Safety
/// `rewriter` must be the live rewriter of the running callback, and the
/// result must not be used after the callback returns (melior attaches
/// only phantom lifetimes to it).
pub unsafe fn rewriter_base<'c, 'a>(rewriter: mlir_sys::MlirPatternRewriter) -> melior::RewriterBase<'c, 'a> {
    // SAFETY: guaranteed by the caller.
    unsafe { melior::RewriterBase::from_raw(mlir_sys::mlirPatternRewriterAsBase(rewriter)) }
}

/// The `TailCallKind` of an `llvm.call` that makes it a `musttail` call
/// (the C API has no accessor for the kind; attributes are uniqued, so one
/// parsed copy compares with the call's).
pub const MUSTTAIL: &str = "#llvm.tailcallkind<musttail>";

/// Whether `call` is a `musttail` call.
pub fn is_musttail(call: OperationRef) -> bool {
    let Ok(kind) = call.attribute("TailCallKind") else { return false };
    let context = crate::context::context_of(call);
    Attribute::parse(&context, MUSTTAIL) == Some(kind)
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
    let context = gep.context();
    // SAFETY: the context outlives the attribute, which is uniqued in it.
    let attribute = melior::ir::attribute::DenseI32ArrayAttribute::new(unsafe { context.to_ref() }, &raw);
    super::set_attribute(gep, "rawConstantIndices", attribute.into());
    set_operands(gep, &operands);
    true
}

/// The block argument that operand `index` of the branch `terminator`
/// flows into, for `llvm.br` and `llvm.cond_br`; `None` for the condition
/// and for other terminators.
pub fn successor_argument<'c, 'a>(terminator: OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
    let (successor, position) = match op_name(terminator) {
        "llvm.br" => (0, index),
        "llvm.cond_br" => {
            let sizes = i32_array_attribute(terminator, "operandSegmentSizes")?;
            let condition = usize::try_from(*sizes.first()?).ok()?;
            let on_true = usize::try_from(*sizes.get(1)?).ok()?;
            match index.checked_sub(condition)? {
                position if position < on_true => (0, position),
                position => (1, position - on_true),
            }
        }
        _ => return None,
    };
    let block = terminator.successor_at(successor).ok()?;
    let argument = block.argument_at(position).ok()?;
    // SAFETY: the block argument lives in the IR as long as the terminator.
    Some(unsafe { Value::from_raw(argument.to_raw()) })
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

/// `llvm.mlir.constant` of the integer `value` with the integer type `ty`.
pub fn integer_constant<'c>(ty: Type<'c>, value: i64, location: Location<'c>) -> Operation<'c> {
    // SAFETY: `context_ref` outlives every use of the reference (melior's
    // `to_ref` points into the `ContextRef` itself, which must stay alive).
    let context_ref = TypeLike::context(&ty);
    let context = unsafe { context_ref.to_ref() };
    OperationBuilder::new("llvm.mlir.constant", location)
        .add_attributes(&[(Identifier::new(context, "value"), IntegerAttribute::new(ty, value).into())])
        .add_results(&[ty])
        .build()
        .expect("an integer constant is valid")
}

/// `llvm.addrspacecast` of the pointer `value` to the pointer type `to`.
pub fn addrspacecast<'c>(value: Value<'c, '_>, to: Type<'c>, location: Location<'c>) -> Operation<'c> {
    OperationBuilder::new("llvm.addrspacecast", location)
        .add_operands(&[value])
        .add_results(&[to])
        .build()
        .expect("an addrspacecast between pointers is valid")
}

/// Moves the body (every block) of `from` into `into`, which must be empty:
/// nothing is freed, so every op, block and value of the body stays valid
/// (an analysis that holds one keeps a live handle; only the function
/// around it changes). Returns `false`, moving nothing, when `into` has a
/// block or is `from` itself.
pub fn move_body<'c: 'a, 'a>(
    from: &impl melior::ir::RegionLike<'c, 'a>,
    into: &impl melior::ir::RegionLike<'c, 'a>,
) -> bool {
    if into.first_block().is_some() || from.to_raw().ptr == into.to_raw().ptr {
        return false;
    }
    // SAFETY: both regions are live; `into` has no block, so taking the body
    // destroys nothing; `from` is left empty.
    unsafe { mlir_sys::mlirRegionTakeBody(into.to_raw(), from.to_raw()) };
    true
}

/// The ops a rewrite has done with, erased together once the rewrite is
/// over ([`EraseList::finish`]).
///
/// A rewrite that applies several plans made from one analysis (the kernel
/// `byval` parameters of one function, the device functions of one round)
/// erases through one list: an op two plans refer to (an `llvm.intr.assume`
/// naming two parameters, a GEP two plans read) is listed twice but erased
/// once, and no op a later plan still holds is freed while that plan runs.
/// Ops that have regions are never listed (erasing one would free the ops
/// inside it, which a plan may hold).
#[derive(Default)]
pub struct EraseList {
    /// Ops to erase, in order; every use of their results must be gone by
    /// the end.
    dead: Vec<mlir_sys::MlirOperation>,
    /// Ops to erase if nothing uses their results by the end (GEPs a
    /// rewrite may have left without uses), in order.
    if_unused: Vec<mlir_sys::MlirOperation>,
    /// Every op listed, to list each once.
    listed: super::HashSet<*mut std::ffi::c_void>,
}

impl EraseList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Lists `op` for erasure: by the end, nothing may use its results.
    /// An op with regions is not listed (see the type's documentation).
    pub fn erase(&mut self, op: OperationRef) {
        if op.region_count() == 0 && self.listed.insert(op.to_raw().ptr) {
            self.dead.push(op.to_raw());
        }
    }

    /// Lists `op` for erasure if, by the end, nothing uses its results.
    pub fn erase_if_unused(&mut self, op: OperationRef) {
        if op.region_count() == 0 && self.listed.insert(op.to_raw().ptr) {
            self.if_unused.push(op.to_raw());
        }
    }

    /// Erases the listed ops: first those listed with [`Self::erase`], in
    /// order, then those listed with [`Self::erase_if_unused`] that nothing
    /// uses, in order; erasing an op tries again the listed ops that define
    /// its operands (a GEP chain goes whole, in whatever order its links
    /// were listed). An op listed with [`Self::erase`] whose results are
    /// still used is kept (a dead op left in the IR, never a dangling use)
    /// and counted in the result, which debug builds check is zero.
    ///
    /// # Safety
    /// Every listed op must still be live and in its block (nothing erased
    /// or moved it out by other means since it was listed), and no handle
    /// to a listed op (or to its results) may be used after this call.
    pub unsafe fn finish(self) -> usize {
        use mlir_sys::*;
        // SAFETY (all blocks below): the ops are live until destroyed here
        // (the caller's guarantee), each is destroyed at most once (`pending`
        // holds those not yet destroyed), and only ops without regions are
        // listed.
        let unused = |raw: MlirOperation| unsafe {
            (0..mlirOperationGetNumResults(raw))
                .all(|i| mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(raw, i))))
        };
        // The ops that define `raw`'s operands.
        let definers = |raw: MlirOperation| -> Vec<MlirOperation> {
            unsafe {
                (0..mlirOperationGetNumOperands(raw))
                    .map(|i| mlirOperationGetOperand(raw, i))
                    .filter(|value| mlirValueIsAOpResult(*value))
                    .map(|value| mlirOpResultGetOwner(value))
                    .collect()
            }
        };
        let mut kept = 0;
        for raw in self.dead {
            if unused(raw) {
                unsafe { mlirOperationDestroy(raw) };
            } else {
                kept += 1;
            }
        }
        let mut pending: super::HashSet<*mut std::ffi::c_void> = self.if_unused.iter().map(|raw| raw.ptr).collect();
        for raw in self.if_unused {
            let mut stack = vec![raw];
            while let Some(op) = stack.pop() {
                if !pending.contains(&op.ptr) || !unused(op) {
                    continue;
                }
                let operands = definers(op);
                pending.remove(&op.ptr);
                unsafe { mlirOperationDestroy(op) };
                stack.extend(operands);
            }
        }
        debug_assert_eq!(kept, 0, "an op listed for erasure is still used");
        kept
    }
}
