//! The address-space conversions: `param_to_generic`, `param_to_global`,
//! `generic_to_as` -> `llvm.addrspacecast`.

use crate::ir::OperationExt;
use melior::{
    ir::BlockLike as _,
    ir::{attribute::Attribute, OperationRef, Value, ValueLike},
    Context, RewritePatternSet,
};
use ptxcc_dialect::{address_space, names, types::pointer_type};

use super::add_lowering;
use crate::context::context_of;
use crate::kernel::{
    enclosing_function, is_kernel, mark_kernel, parameter_attribute, parameter_index, set_parameter_attribute,
    LLVM_BYVAL, NVVM_GRID_CONSTANT,
};

/// The kernel parameter whose param-space view `value` is: follows
/// `llvm.getelementptr` and `llvm.addrspacecast` back to an argument of the
/// function's entry block. Returns the function and the parameter index.
pub fn param_space_parameter<'c, 'a>(value: Value<'c, 'a>) -> Option<(OperationRef<'c, 'a>, usize)> {
    let root = crate::slots::pointer_root(value);
    let argument = crate::ir::as_argument(root)?;
    let func = crate::ir::argument_block(argument).parent_operation()?;
    parameter_index(func, root).map(|index| (func, index))
}

/// Checks a param-space cast: it is inside a kernel and converts the
/// param-space view of one of its `byval` parameters. Returns that parameter
/// (to be marked a grid constant), or `None` for other ops.
pub(super) fn check(op: OperationRef) -> Result<Option<usize>, String> {
    let name = crate::ir::op_name(op);
    if name != names::PARAM_TO_GENERIC && name != names::PARAM_TO_GLOBAL {
        return Ok(None);
    }
    let Some(func) = enclosing_function(op) else {
        return Err(format!("'{name}' op must be inside an llvm.func"));
    };
    if !is_kernel(func) {
        return Err(format!(
            "'{name}' op is only valid in a kernel (ptx_kernelcc or nvvm.kernel): cvta.param on a device function's parameter gives an invalid pointer"
        ));
    }
    let source = op.operand_at(0).map_err(|e| e.to_string())?;
    match param_space_parameter(source) {
        Some((owner, index)) if owner == func => {
            if parameter_attribute(func, index, LLVM_BYVAL).is_none() {
                return Err(format!(
                    "'{name}' op converts the param-space view of parameter {index}, which is not a byval parameter"
                ));
            }
            Ok(Some(index))
        }
        _ => Err(format!(
            "'{name}' op must convert the param-space view (llvm.addrspacecast to !llvm.ptr<101>) of a byval parameter of the enclosing kernel"
        )),
    }
}

/// Marks parameter `index` of `func` `nvvm.grid_constant` and `func`
/// `nvvm.kernel` (MLIR's translation accepts the former only with the latter).
pub(super) fn mark_grid_constant(func: OperationRef, index: usize) {
    let context = context_of(func);
    mark_kernel(func);
    set_parameter_attribute(func, index, NVVM_GRID_CONSTANT, Attribute::unit(context));
}

/// Adds `ParamToGenericLowering`, `ParamToGlobalLowering` and
/// `GenericToAsLowering`.
pub fn populate_cast_patterns(patterns: &RewritePatternSet, context: &Context) {
    add_lowering(patterns, context, names::PARAM_TO_GENERIC, |emit, op| {
        let generic = pointer_type(emit.context, address_space::GENERIC);
        Some(vec![emit.addrspacecast(op.operand_at(0).ok()?, generic)?])
    });
    add_lowering(patterns, context, names::PARAM_TO_GLOBAL, |emit, op| {
        let generic = pointer_type(emit.context, address_space::GENERIC);
        let global = pointer_type(emit.context, address_space::GLOBAL);
        let cast = emit.addrspacecast(op.operand_at(0).ok()?, generic)?;
        Some(vec![emit.addrspacecast(cast, global)?])
    });
    add_lowering(patterns, context, names::GENERIC_TO_AS, |emit, op| {
        let to = op.result_at(0).ok()?.r#type();
        Some(vec![emit.addrspacecast(op.operand_at(0).ok()?, to)?])
    });
}
