//! Reading a [`FunctionSignature`] and a [`Target`] from an `llvm.func`.

use std::collections::HashSet;

use melior::ir::{
    attribute::{ArrayAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
    operation::OperationLike,
    OperationRef, RegionLike, Type, TypeLike,
};

use super::{mlir::abi_type, AbiError, FunctionSignature, Linkage, ParamSignature, Target};
use crate::{
    ir::{flat_symbol_name, op_name, uses},
    kernel::{function_type, is_kernel, parameter_attribute, LLVM_BYVAL},
};

/// Functions whose address is taken in `module`: named by an
/// `llvm.mlir.addressof` anywhere (a global's initializer included) whose
/// result is used other than as the callee of an indirect `llvm.call`
/// (which LLVM IR sees as a direct call). An unused `addressof` leaves no
/// use in LLVM IR. (`llvm.used` entries, which LLVM ignores here, count.)
pub fn address_taken_functions(module: OperationRef) -> HashSet<String> {
    let mut taken = HashSet::new();
    module.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        if op_name(op) == "llvm.mlir.addressof" && !only_called(op) {
            if let Some(name) = op.attribute("global_name").ok().and_then(flat_symbol_name) {
                taken.insert(name);
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
    taken
}

/// Whether every use (possibly none) of `addressof`'s result is operand 0
/// of a callee-less `llvm.call`.
fn only_called(addressof: OperationRef) -> bool {
    let Ok(result) = addressof.result(0) else { return false };
    uses(result.into())
        .iter()
        .all(|used| op_name(used.owner) == "llvm.call" && !used.owner.has_attribute("callee") && used.index == 0)
}

/// The linkage of an `llvm.func`, as the prototype prints it.
pub fn function_linkage(func: OperationRef) -> Linkage {
    match crate::kernel::linkage(func) {
        mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageExternal => Linkage::External,
        mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageInternal | mlir_sys::MlirLLVMLinkage_MlirLLVMLinkagePrivate => {
            Linkage::Local
        }
        _ => Linkage::Weak,
    }
}

/// The name of an `llvm.func`.
pub fn function_name(func: OperationRef) -> String {
    func.attribute("sym_name")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_string())
        .unwrap_or_default()
}

/// An alignment attribute: `Ok(None)` when absent, an error unless it is a
/// positive power of two.
fn alignment_attribute(
    attribute: Option<melior::ir::Attribute>,
    name: &str,
    index: usize,
) -> Result<Option<u64>, AbiError> {
    let Some(value) = attribute.and_then(|a| IntegerAttribute::try_from(a).ok()).map(|i| i.value()) else {
        return Ok(None);
    };
    match u64::try_from(value) {
        Ok(align) if align.is_power_of_two() => Ok(Some(align)),
        _ => Err(AbiError::BadAlignment { index, name: name.to_string(), value }),
    }
}

fn has_passthrough(func: OperationRef, name: &str) -> bool {
    let Some(array) = func.attribute("passthrough").ok().and_then(|a| ArrayAttribute::try_from(a).ok()) else {
        return false;
    };
    (0..array.len())
        .filter_map(|i| array.element(i).ok())
        .any(|element| StringAttribute::try_from(element).map(|s| s.value() == name).unwrap_or(false))
}

/// Whether the `!llvm.func` type `ty` is variadic. The C API has no
/// query, but types are uniqued: compare it with its non-variadic twin.
pub fn is_variadic(ty: Type) -> bool {
    let raw = ty.to_raw();
    // SAFETY: queries on a live function type of one context.
    unsafe {
        let count = mlir_sys::mlirLLVMFunctionTypeGetNumInputs(raw);
        let inputs: Vec<_> = (0..count).map(|i| mlir_sys::mlirLLVMFunctionTypeGetInput(raw, i)).collect();
        let result = mlir_sys::mlirLLVMFunctionTypeGetReturnType(raw);
        let fixed = mlir_sys::mlirLLVMFunctionTypeGet(result, count, inputs.as_ptr(), false);
        !mlir_sys::mlirTypeEqual(fixed, raw)
    }
}

/// The signature of `func` as the ABI sees it. `address_taken` comes from
/// [`address_taken_functions`].
pub fn function_signature(func: OperationRef, address_taken: bool) -> Result<FunctionSignature, AbiError> {
    let name = function_name(func);
    let not_a_function = || AbiError::Unsupported { ty: name.clone(), reason: "no LLVM function type".into() };
    let r#type = function_type(func).ok_or_else(not_a_function)?;
    let raw = r#type.to_raw();
    // The C API has neither a type check nor a variadic query for
    // `!llvm.func`, but types are uniqued: compare the kind with a known
    // function type, and the type with its non-variadic twin.
    // SAFETY: queries on live types of the function's context; the
    // accessors run only once the kind is known.
    let (inputs, result, variadic, void) = unsafe {
        let context = mlir_sys::mlirTypeGetContext(raw);
        let void = mlir_sys::mlirLLVMVoidTypeGet(context);
        let reference = mlir_sys::mlirLLVMFunctionTypeGet(void, 0, std::ptr::null(), false);
        if !mlir_sys::mlirTypeIDEqual(mlir_sys::mlirTypeGetTypeID(raw), mlir_sys::mlirTypeGetTypeID(reference)) {
            return Err(not_a_function());
        }
        let count = mlir_sys::mlirLLVMFunctionTypeGetNumInputs(raw);
        let raw_inputs: Vec<_> = (0..count).map(|i| mlir_sys::mlirLLVMFunctionTypeGetInput(raw, i)).collect();
        let raw_result = mlir_sys::mlirLLVMFunctionTypeGetReturnType(raw);
        let inputs: Vec<Type> = raw_inputs.into_iter().map(|t| Type::from_raw(t)).collect();
        (inputs, Type::from_raw(raw_result), is_variadic(r#type), Type::from_raw(void))
    };
    let result = if result == void { None } else { Some(abi_type(result)?) };
    let mut params = Vec::with_capacity(inputs.len());
    for (index, input) in inputs.into_iter().enumerate() {
        let byval = parameter_attribute(func, index, LLVM_BYVAL)
            .and_then(|a| TypeAttribute::try_from(a).ok())
            .map(|t| abi_type(t.value()))
            .transpose()?;
        params.push(ParamSignature {
            ty: abi_type(input)?,
            byval,
            align: alignment_attribute(parameter_attribute(func, index, "llvm.align"), "llvm.align", index)?,
            stack_align: alignment_attribute(
                parameter_attribute(func, index, "llvm.alignstack"),
                "llvm.alignstack",
                index,
            )?,
        });
    }
    let linkage = function_linkage(func);
    let declaration = func.region(0).map(|r| r.first_block().is_none()).unwrap_or(true);
    Ok(FunctionSignature {
        name,
        kernel: is_kernel(func),
        linkage,
        declaration,
        address_taken,
        no_return: has_passthrough(func, "noreturn"),
        variadic,
        result,
        params,
    })
}

/// The target of `func`: its `target_cpu` where it has one, else
/// `default_chip`; the highest of its `+ptxNN` feature and `default_ptx`
/// (see [`Target::resolve`]).
pub fn function_target(func: OperationRef, default_chip: &str, default_ptx: Option<u32>) -> Result<Target, AbiError> {
    let chip = func.attribute("target_cpu").ok().and_then(|a| StringAttribute::try_from(a).ok()).map(|s| s.value());
    let features: Option<Vec<String>> = func.attribute("target_features").ok().map(|a| {
        // `#llvm.target_features<["+ptx81", "+sm_90"]>`
        a.to_string().split('"').skip(1).step_by(2).map(str::to_string).collect()
    });
    Target::resolve(chip, features.as_deref(), default_chip, default_ptx)
}
