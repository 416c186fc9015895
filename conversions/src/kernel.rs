//! Facts about `llvm.func` ops that every pass needs: is it a kernel, what
//! are its parameter attributes, and how to mark a parameter.
//!
//! Kernels are recognised by the `ptx_kernelcc` calling convention (what
//! `mlir-translate --import-llvm` makes of clang's `ptx_kernel`) or by the
//! `nvvm.kernel` attribute (what MLIR's GPU lowering produces).

use crate::ir::LlvmOp;
use crate::ir::OperationExt;
use melior::ir::{
    attribute::{ArrayAttribute, Attribute},
    operation::OperationLike,
    BlockLike, BlockRef, Identifier, OperationRef, RegionLike, Type, Value,
};

use crate::context::context_of;
use crate::ir::{dictionary, dictionary_entries, LlvmLinkage};

pub use ptxcc_dialect::attributes::{LLVM_BYVAL, NVVM_GRID_CONSTANT, NVVM_KERNEL};

/// Whether `func` (an `llvm.func`) is a kernel.
pub fn is_kernel(func: OperationRef) -> bool {
    if crate::ir::has_discardable_attribute(func, NVVM_KERNEL) {
        return true;
    }
    if let Some(is_ptx_kernel) = crate::ir::llvm_func_is_ptx_kernel(func) {
        return is_ptx_kernel;
    }
    let Ok(cconv) = func.attribute("CConv") else { return false };
    // Attributes are uniqued: compare with the one for `ptx_kernelcc`.
    let context = context_of(func);
    cconv == crate::ir::ptx_kernel_cconv(context)
}

/// The linkage of `func` (an `llvm.func`; `external` when not written).
pub fn linkage(func: OperationRef) -> LlvmLinkage {
    crate::ir::llvm_linkage(func)
}

/// Whether `func` has a body (is defined, not only declared).
pub fn has_body(func: OperationRef) -> bool {
    entry_block(func).is_some()
}

/// The entry block of `func`'s body; `None` for a declaration.
pub fn entry_block<'c, 'a>(func: OperationRef<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    func.region_at(0).ok().and_then(|r| r.first_block())
}

/// Whether an `llvm.func` is variadic.
pub fn is_variadic(func: OperationRef) -> bool {
    function_type(func).is_some_and(crate::abi::signature::is_variadic)
}

/// The parameter types of an `llvm.func`.
pub fn parameter_types<'c>(func: OperationRef<'c, '_>) -> Vec<Type<'c>> {
    function_type(func).and_then(crate::ir::as_llvm_function).map_or_else(Vec::new, |ty| ty.inputs())
}

/// The result type of an `llvm.func` (`!llvm.void` for none).
pub fn result_type<'c>(func: OperationRef<'c, '_>) -> Option<Type<'c>> {
    function_type(func).and_then(crate::ir::as_llvm_function).map(|ty| ty.return_type())
}

/// Whether nothing outside its symbol table can refer to `func`: local
/// linkage (`internal`, `private`), or MLIR's private visibility (what
/// `func.func private` becomes through convert-func-to-llvm, with external
/// linkage).
pub fn is_local_symbol(func: OperationRef) -> bool {
    matches!(linkage(func), LlvmLinkage::Internal | LlvmLinkage::Private)
        || func
            .attribute("sym_visibility")
            .ok()
            .and_then(crate::ir::string_value)
            .is_some_and(|visibility| visibility == "private")
}

/// Whether the body of `func` is exactly the one a call runs (LLVM's "exact
/// definition"): external, internal or private linkage. `weak`, `linkonce`,
/// `common` and `extern_weak` bodies can be replaced at link time, and the
/// `_odr` and `available_externally` ones by a copy optimised differently,
/// so nothing may be inferred from them.
pub fn has_exact_definition(func: OperationRef) -> bool {
    matches!(linkage(func), LlvmLinkage::External | LlvmLinkage::Internal | LlvmLinkage::Private) && has_body(func)
}

/// The function type of an `llvm.func`: an `!llvm.func` type (what the
/// `llvm.func` verifier requires; read it through
/// [`crate::ir::as_llvm_function`]). `None` for any other op (a `func.func`'s
/// `function_type` is a builtin function type).
pub fn function_type<'c>(func: OperationRef<'c, '_>) -> Option<melior::ir::Type<'c>> {
    if LlvmOp::of(func) != LlvmOp::Func {
        return None;
    }
    crate::ir::type_attribute(func, "function_type")
}

/// The `llvm.func` that encloses `op` (or `op` itself).
pub fn enclosing_function<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut current = Some(op);
    while let Some(candidate) = current {
        if LlvmOp::of(candidate) == LlvmOp::Func {
            return Some(candidate);
        }
        current = candidate.parent_operation();
    }
    None
}

/// If `value` is a parameter of `func` (an argument of its entry block),
/// its index.
pub fn parameter_index(func: OperationRef, value: Value) -> Option<usize> {
    let argument = crate::ir::as_argument(value)?;
    let owner: BlockRef = argument.owner();
    let entry = func.region_at(0).ok()?.first_block()?;
    (owner == entry).then(|| argument.argument_number())
}

/// The attribute `name` of parameter `index` of `op` (an `llvm.func`, or an
/// `llvm.call` with call-site `arg_attrs`), if it has one.
pub fn parameter_attribute<'c>(op: OperationRef<'c, '_>, index: usize, name: &str) -> Option<Attribute<'c>> {
    // (The verifier of functions and calls guarantees `arg_attrs` holds
    // dictionaries.)
    crate::ir::dictionary_element(parameter_attributes(op, index)?, name)
}

/// The attribute dictionary of parameter `index` of `op` (an `llvm.func`,
/// or an `llvm.call` with call-site `arg_attrs`), if it has one.
pub fn parameter_attributes<'c>(op: OperationRef<'c, '_>, index: usize) -> Option<Attribute<'c>> {
    ArrayAttribute::try_from(op.attribute("arg_attrs").ok()?).ok()?.element(index).ok()
}

/// Whether parameter `index` of `op` has the attribute `name`
/// (`llvm.nocapture`, `nvvm.grid_constant`, ...).
pub fn parameter_has(op: OperationRef, index: usize, name: &str) -> bool {
    parameter_attribute(op, index, name).is_some()
}

/// The integer attribute `name` of parameter `index` of `op` (`llvm.align`).
pub fn parameter_integer(op: OperationRef, index: usize, name: &str) -> Option<i64> {
    parameter_attribute(op, index, name)
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
        .map(|a| a.value())
}

/// The alignment known for the pointer operand `index` of `op` (a memcpy's
/// destination, say): its `llvm.align` there, or the alignment of the
/// `llvm.alloca` it is, whichever is larger; 1 when neither says.
pub fn operand_alignment(op: OperationRef, index: usize) -> u64 {
    let declared = parameter_integer(op, index, "llvm.align").and_then(|a| u64::try_from(a).ok()).unwrap_or(1);
    let allocated = op
        .operand_at(index)
        .ok()
        .and_then(|pointer| defining_op(pointer, LlvmOp::Alloca))
        .and_then(|alloca| crate::ir::Alloca::of(alloca)?.alignment())
        .and_then(|a| u64::try_from(a).ok())
        .unwrap_or(1);
    declared.max(allocated).max(1)
}

/// Sets `name = value` in the attributes of parameter `index` of `func`,
/// creating the `arg_attrs` array if the function has none.
pub fn set_parameter_attribute<'c>(func: OperationRef<'c, '_>, index: usize, name: &str, value: Attribute<'c>) {
    let context = context_of(func);
    let count = parameter_count(func);
    let existing = func.attribute("arg_attrs").ok().and_then(|a| ArrayAttribute::try_from(a).ok());
    let mut dictionaries = Vec::with_capacity(count);
    for position in 0..count {
        let mut entries: Vec<(Identifier, Attribute)> =
            existing.and_then(|array| array.element(position).ok()).map(dictionary_entries).unwrap_or_default();
        if position == index {
            entries.retain(|(key, _)| crate::ir::identifier_text(*key) != name);
            entries.push((Identifier::new(context, name), value));
        }
        dictionaries.push(dictionary(context, &entries));
    }
    let array = ArrayAttribute::new(context, &dictionaries);
    crate::ir::set_attribute(func, "arg_attrs", array.into());
}

/// Marks `func` as a kernel with the `nvvm.kernel` unit attribute.
pub fn mark_kernel(func: OperationRef) {
    if !func.has_attribute(NVVM_KERNEL) {
        let context = context_of(func);
        let unit = Attribute::unit(context);
        crate::ir::set_discardable_attribute(func, NVVM_KERNEL, unit);
    }
}

/// Number of parameters of an `llvm.func` (arguments of its entry block, or
/// of its function type for a declaration).
pub fn parameter_count(func: OperationRef) -> usize {
    if let Some(entry) = entry_block(func) {
        return entry.argument_count();
    }
    function_type(func).and_then(crate::ir::as_llvm_function).map_or(0, |ty| ty.input_count())
}

/// Whether a value is produced by an op of the given name, and that op.
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>, kind: LlvmOp) -> Option<OperationRef<'c, 'a>> {
    let result = crate::ir::as_result(value)?;
    let owner = result.owner();
    (LlvmOp::of(owner) == kind).then_some(owner)
}

/// The `opt-byval` value `lower-struct-args` recorded
/// ([`ptxcc_dialect::attributes::OPT_BYVAL`]) on the nearest op around `op`
/// that has one.
pub fn recorded_opt_byval(op: OperationRef) -> Option<bool> {
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        if let Ok(attribute) = parent.attribute(ptxcc_dialect::attributes::OPT_BYVAL) {
            return melior::ir::attribute::BoolAttribute::try_from(attribute).ok().map(|a| a.value());
        }
        current = parent.parent_operation();
    }
    None
}

#[cfg(test)]
mod tests {
    use melior::ir::Module;
    use rstest::rstest;

    use super::*;
    use crate::abi::tests::llvm_context;

    /// A kernel is marked by `nvvm.kernel` or by the `ptx_kernelcc` calling
    /// convention (read from an `llvm.func`'s properties, and looked up by
    /// name on any other op).
    #[rstest]
    #[case("llvm.func @f() attributes {nvvm.kernel} {\n  llvm.return\n}", true)]
    #[case("llvm.func ptx_kernelcc @f() {\n  llvm.return\n}", true)]
    #[case("llvm.func @f() {\n  llvm.return\n}", false)]
    #[case("llvm.func ptx_devicecc @f() {\n  llvm.return\n}", false)]
    #[case("\"test.func\"() {CConv = #llvm.cconv<ptx_kernelcc>} : () -> ()", true)]
    #[case("\"test.func\"() {CConv = #llvm.cconv<ccc>} : () -> ()", false)]
    #[case("\"test.func\"() {nvvm.kernel} : () -> ()", true)]
    fn kernels(#[case] text: &str, #[case] expected: bool) {
        let context = llvm_context();
        context.set_allow_unregistered_dialects(true);
        let module = Module::parse(&context, text).expect("parses");
        let func = crate::ir::nested_ops(module.as_operation())
            .into_iter()
            .find(|op| LlvmOp::of(*op) == LlvmOp::Func || crate::ir::op_name(*op) == "test.func");
        assert_eq!(func.map(is_kernel), Some(expected));
    }
}
