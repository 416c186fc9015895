//! IR queries that melior does not wrap: the uses of a value, operand
//! segments, integer constants, the indices of `llvm.getelementptr`, the
//! functions of a module and symbol references. (Parameter attributes are
//! in [`crate::kernel`].)

use melior::ir::{
    attribute::{Attribute, AttributeLike, DenseI32ArrayAttribute, IntegerAttribute},
    block::BlockArgument,
    operation::{OperationLike, OperationResult, WalkOrder, WalkResult},
    BlockLike, BlockRef, OperationRef, RegionLike, RegionRef, Value, ValueLike,
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

/// The first result of `op`, if it has one. (Use this, not melior's
/// `result(0)`, on ops that may have none: melior prints the whole op into
/// that error, a walk of its module that once made a pass quadratic.)
pub fn first_result<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    (op.result_count() > 0).then(|| op.result_at(0).ok().map(Into::into)).flatten()
}

/// The name of `op` (`llvm.load`), without copying it: op names are
/// identifiers owned by the context.
pub fn op_name<'c>(op: OperationRef<'c, '_>) -> &'c str {
    // SAFETY: the name of a live op.
    identifier_str(unsafe { mlir_sys::mlirOperationGetName(op.to_raw()) })
}

/// The text of an identifier (an op or attribute name), without copying
/// it; empty if it is not UTF-8.
pub fn identifier_str<'c>(identifier: mlir_sys::MlirIdentifier) -> &'c str {
    // SAFETY: identifiers live as long as their context; the bytes are not
    // NUL-terminated and have the given length.
    let bytes = unsafe {
        let text = mlir_sys::mlirIdentifierStr(identifier);
        std::slice::from_raw_parts(text.data.cast::<u8>(), text.length)
    };
    std::str::from_utf8(bytes).unwrap_or_default()
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

/// Sets the attribute `name` of `op` (inherent or discardable).
pub fn set_attribute(op: OperationRef, name: &str, value: Attribute) {
    // SAFETY: `op` is live and `value` belongs to its context; setting an
    // attribute invalidates nothing.
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), melior::StringRef::new(name).to_raw(), value.to_raw())
    };
}

/// The integer value of an integer attribute `name` of `op`.
pub fn integer_attribute(op: OperationRef, name: &str) -> Option<i64> {
    op.attribute(name).ok().and_then(|a| IntegerAttribute::try_from(a).ok()).map(|a| a.value())
}

/// The elements of a dense `i32` array attribute `name` of `op`
/// (`operandSegmentSizes`, `rawConstantIndices`).
pub fn i32_array_attribute(op: OperationRef, name: &str) -> Option<Vec<i32>> {
    let attribute = DenseI32ArrayAttribute::try_from(op.attribute(name).ok()?).ok()?;
    (0..attribute.len()).map(|i| attribute.element(i).ok()).collect()
}

/// The elements of a dense `i64` array attribute `name` of `op`
/// (`position` of `extractvalue`/`insertvalue`).
pub fn i64_array_attribute(op: OperationRef, name: &str) -> Option<Vec<i64>> {
    let attribute = op.attribute(name).ok()?;
    // SAFETY: reading a live attribute after checking its kind.
    unsafe {
        let raw = attribute.to_raw();
        mlir_sys::mlirAttributeIsADenseI64Array(raw).then(|| {
            (0..mlir_sys::mlirDenseArrayGetNumElements(raw))
                .map(|i| mlir_sys::mlirDenseI64ArrayGetElement(raw, i))
                .collect()
        })
    }
}

/// The integer `value` is known to hold: the result of an integer
/// `llvm.mlir.constant` or `arith.constant`.
pub fn constant_int(value: Value) -> Option<i64> {
    let result = as_result(value)?;
    let owner = result.owner();
    let name = op_name(owner);
    if name != "llvm.mlir.constant" && name != "arith.constant" {
        return None;
    }
    integer_attribute(owner, "value")
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
                Some(constant_int(operand))
            } else {
                Some(Some(i64::from(index)))
            }
        })
        .collect()
}

/// The type attribute `name` of `op` as a type (`elem_type` of a GEP).
pub fn type_attribute<'c>(op: OperationRef<'c, '_>, name: &str) -> Option<melior::ir::Type<'c>> {
    let attribute = op.attribute(name).ok()?;
    // SAFETY: reading a live attribute after checking its kind.
    unsafe {
        mlir_sys::mlirAttributeIsAType(attribute.to_raw())
            .then(|| melior::ir::Type::from_raw(mlir_sys::mlirTypeAttrGetValue(attribute.to_raw())))
    }
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

/// Every `llvm.func` in `module` (in nested modules too, not inside function
/// bodies), in order; host code ([`is_host_function`]) is not ptxcc's and
/// is left out.
pub fn module_functions<'c, 'a>(module: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut found = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        if op_name(op) != "llvm.func" {
            return WalkResult::Advance;
        }
        if !is_host_function(op) {
            found.push(op.to_raw());
        }
        WalkResult::Skip // nothing inside a function body is a function
    });
    // SAFETY: the walk collected live ops of `module`, which outlives them.
    found.into_iter().map(|raw| unsafe { OperationRef::from_raw(raw) }).collect()
}

/// The attribute MLIR GPU programs put on the module that holds both host
/// code and `gpu.module`s (what `gpu.launch_func` requires).
pub const GPU_CONTAINER_MODULE: &str = "gpu.container_module";

/// Whether `func` is host code: a function directly inside a module marked
/// `gpu.container_module`, whose device code lives in its `gpu.module`s.
/// ptxcc leaves host code as it is.
pub fn is_host_function(func: OperationRef) -> bool {
    func.parent_operation().is_some_and(|parent| parent.has_attribute(GPU_CONTAINER_MODULE))
}

/// The symbol a `FlatSymbolRefAttr` names (`@f` -> `f`).
pub fn flat_symbol_name(attribute: Attribute) -> Option<String> {
    // SAFETY: reading a live attribute after checking its kind.
    unsafe {
        let raw = attribute.to_raw();
        mlir_sys::mlirAttributeIsAFlatSymbolRef(raw).then(|| {
            melior::StringRef::from_raw(mlir_sys::mlirFlatSymbolRefAttrGetValue(raw))
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
    }
}

/// Replaces every use of `old` with `new`.
pub fn replace_uses(old: Value, new: Value) {
    // SAFETY: both values are live; MLIR rewires the use lists.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
}

/// Erases `op`, which must have no uses left.
pub fn erase(op: OperationRef) {
    // SAFETY: the caller has removed every use; the op is owned by its
    // block, which unlinks it.
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
}

/// `llvm.mlir.constant` of the integer `value` with the integer type `ty`.
pub fn integer_constant<'c>(
    ty: melior::ir::Type<'c>,
    value: i64,
    location: melior::ir::Location<'c>,
) -> melior::ir::Operation<'c> {
    // SAFETY: `context_ref` outlives every use of the reference (melior's
    // `to_ref` points into the `ContextRef` itself, which must stay alive).
    let context_ref = melior::ir::r#type::TypeLike::context(&ty);
    let context = unsafe { context_ref.to_ref() };
    melior::ir::operation::OperationBuilder::new("llvm.mlir.constant", location)
        .add_attributes(&[(melior::ir::Identifier::new(context, "value"), IntegerAttribute::new(ty, value).into())])
        .add_results(&[ty])
        .build()
        .expect("an integer constant is valid")
}

/// `llvm.addrspacecast` of the pointer `value` to the pointer type `to`.
pub fn addrspacecast<'c>(
    value: Value<'c, '_>,
    to: melior::ir::Type<'c>,
    location: melior::ir::Location<'c>,
) -> melior::ir::Operation<'c> {
    melior::ir::operation::OperationBuilder::new("llvm.addrspacecast", location)
        .add_operands(&[value])
        .add_results(&[to])
        .build()
        .expect("an addrspacecast between pointers is valid")
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
pub fn as_argument<'c, 'a>(value: Value<'c, 'a>) -> Option<melior::ir::block::BlockArgument<'c, 'a>> {
    value.is_block_argument().then(|| melior::ir::block::BlockArgument::try_from(value).ok()).flatten()
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

/// `value` with the lifetimes of the IR it lives in. melior ties the
/// results of an op inserted through a `BlockRef` to that borrow; the op is
/// owned by the enclosing body, which outlives the pass that made it.
pub fn detached<'c, 'a>(value: Value) -> Value<'c, 'a> {
    // SAFETY: see above; melior values carry no ownership.
    unsafe { Value::from_raw(value.to_raw()) }
}

/// Fewest items worth handing to other threads: below this,
/// [`parallel_chunks`] runs on the calling thread.
const PARALLEL_MIN_ITEMS: usize = 512;

/// Items per task of [`parallel_chunks`].
const PARALLEL_CHUNK: usize = 128;

/// `work` on consecutive chunks of `items`, concurrently on the thread pool
/// of `op`'s context (in order on the calling thread when the context is
/// not multi-threaded, or for fewer than [`PARALLEL_MIN_ITEMS`] items); the
/// chunks' results, concatenated in the order of `items`.
///
/// Each chunk is handed to `work` once; results do not depend on the
/// scheduling as long as `work` on one chunk does not depend on another.
///
/// # Safety
/// MLIR handles are not `Send`: what `work` does with `items` and the IR
/// must be safe from several threads at once. Reading ops, types and
/// attributes, and creating types and attributes in the (multi-threaded)
/// context, are; changing an op that another chunk reads or changes is not.
/// What `work` captures is shared by the threads, and what it returns is
/// handed back to the calling thread.
pub unsafe fn parallel_chunks<T, R>(op: OperationRef, items: &[T], work: impl Fn(&[T]) -> Vec<R>) -> Vec<R> {
    if items.len() < PARALLEL_MIN_ITEMS {
        return work(items);
    }
    /// Lets a value cross threads (see the contract above).
    struct Crossing<V>(V);
    // SAFETY: the caller promises that `work` only does what is safe from
    // several threads at once, with the items and with what it returns.
    unsafe impl<V> Send for Crossing<V> {}
    // SAFETY: as above.
    unsafe impl<V> Sync for Crossing<V> {}
    impl<V> Crossing<V> {
        // (A method, so that closures capture the whole wrapper.)
        fn get(&self) -> &V {
            &self.0
        }
    }
    let chunks: Vec<&[T]> = items.chunks(PARALLEL_CHUNK).collect();
    let results: Vec<std::sync::Mutex<Option<Crossing<Vec<R>>>>> =
        chunks.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let shared = Crossing((&chunks, &work));
    let run = |index: usize| {
        let (chunks, work) = shared.get();
        let found = work(chunks[index]);
        *results[index].lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Crossing(found));
    };
    // SAFETY: the context of a live op.
    let context = unsafe { op.context().to_ref().to_raw() };
    ptxcc_shim::parallel_for(context, chunks.len(), &run);
    results
        .into_iter()
        .flat_map(|slot| {
            slot.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner).map_or_else(Vec::new, |found| found.0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    /// melior's positional accessors print the whole op (or block) into
    /// their error: the passes use [`super::OperationExt`] and
    /// [`super::BlockExt`] instead. This keeps it that way.
    #[test]
    fn passes_use_the_cheap_positional_accessors() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let mut offenders = Vec::new();
        let mut stack = vec![std::path::PathBuf::from(root)];
        while let Some(path) = stack.pop() {
            if path.is_dir() {
                stack.extend(std::fs::read_dir(&path).unwrap().map(|entry| entry.unwrap().path()));
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (number, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or_default();
                for method in ["operand", "result", "region", "successor", "argument"] {
                    if code.contains(&format!(".{method}(")) {
                        offenders.push(format!("{}:{}: {}", path.display(), number + 1, line.trim()));
                    }
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "use operand_at/result_at/region_at/successor_at/argument_at:\n{}",
            offenders.join("\n")
        );
    }
}
