//! Reading a [`FunctionSignature`] and a [`Target`] from an `llvm.func`.

use crate::ir::LlvmOp;
use crate::ir::{HashMap, HashSet, OperationExt};

use melior::ir::{
    attribute::{ArrayAttribute, AttributeLike, IntegerAttribute, TypeAttribute},
    operation::OperationLike,
    OperationRef, RegionLike, Type, ValueLike,
};

use super::{mlir::abi_type, AbiError, FunctionSignature, Linkage, ParamSignature, Target};
use crate::{
    ir::{flat_symbol_name, uses},
    kernel::{function_type, is_kernel, parameter_attribute, LLVM_BYVAL},
};

/// Functions whose address is taken in `module`: named by an
/// `llvm.mlir.addressof` anywhere (a global's initializer included) whose
/// result is used other than as the callee of an indirect `llvm.call`
/// (which LLVM IR sees as a direct call) or than by dead code. An unused
/// `addressof` leaves no use in LLVM IR, and `llc -O2` deletes dead
/// instructions (address arithmetic, comparisons, plain loads whose results
/// nothing uses) before it decides a `.param`'s alignment: a function whose
/// address only such code takes is aligned as one whose address is not
/// taken. (`llvm.used` entries, which LLVM ignores here, count.)
pub fn address_taken_functions(module: OperationRef) -> HashSet<String> {
    let mut taken = HashSet::default();
    for op in crate::ir::nested_ops(module) {
        if LlvmOp::of(op) == LlvmOp::AddressOf && !only_called(op) {
            if let Some(name) = op.attribute("global_name").ok().and_then(flat_symbol_name) {
                taken.insert(name);
            }
        }
    }
    taken
}

/// Whether every use (possibly none) of `addressof`'s result is operand 0
/// of a callee-less `llvm.call`, or dead code.
fn only_called(addressof: OperationRef) -> bool {
    let Ok(result) = addressof.result_at(0) else { return false };
    uses(result.into()).iter().all(|used| {
        (crate::ir::Call::of(used.owner).is_some_and(crate::ir::Call::is_indirect) && used.index == 0)
            || is_dead(used.owner)
    })
}

/// Ops `llc -O2` deletes when nothing uses their results.
fn is_removable(op: OperationRef) -> bool {
    match LlvmOp::of(op) {
        LlvmOp::Load => !crate::ir::is_volatile_access(op) && !crate::ir::is_atomic(op),
        LlvmOp::Gep
        | LlvmOp::Bitcast
        | LlvmOp::AddrSpaceCast
        | LlvmOp::PtrToInt
        | LlvmOp::IntToPtr
        | LlvmOp::ICmp
        | LlvmOp::Select
        | LlvmOp::Add
        | LlvmOp::Sub
        | LlvmOp::Mul
        | LlvmOp::And
        | LlvmOp::Or
        | LlvmOp::Xor
        | LlvmOp::Shl
        | LlvmOp::LShr
        | LlvmOp::AShr
        | LlvmOp::Trunc
        | LlvmOp::ZExt
        | LlvmOp::SExt
        | LlvmOp::ExtractValue
        | LlvmOp::InsertValue
        | LlvmOp::AddressOf => true,
        _ => false,
    }
}

/// Whether `op` is dead code: removable, and every user of its results
/// dead in turn (looked at up to a bound, beyond which it counts as live).
fn is_dead(op: OperationRef) -> bool {
    const MAX_OPS: usize = 64;
    let mut seen = HashSet::default();
    let mut work = vec![op];
    while let Some(op) = work.pop() {
        if !seen.insert(op.to_raw().ptr) {
            continue;
        }
        if seen.len() > MAX_OPS || !is_removable(op) {
            return false;
        }
        for index in 0..op.result_count() {
            let Ok(result) = op.result_at(index) else { return false };
            work.extend(uses(result.into()).iter().map(|used| used.owner));
        }
    }
    true
}

/// The linkage of an `llvm.func`, as the prototype prints it.
pub fn function_linkage(func: OperationRef) -> Linkage {
    match crate::kernel::linkage(func) {
        crate::ir::LlvmLinkage::External => Linkage::External,
        crate::ir::LlvmLinkage::Internal | crate::ir::LlvmLinkage::Private => Linkage::Local,
        _ => Linkage::Weak,
    }
}

/// The functions of `module` by name.
pub fn functions_by_name<'c, 'a>(module: OperationRef<'c, 'a>) -> HashMap<String, OperationRef<'c, 'a>> {
    crate::ir::module_functions(module).into_iter().map(|func| (function_name(func), func)).collect()
}

/// The name of an `llvm.func`.
pub fn function_name(func: OperationRef) -> String {
    crate::ir::symbol_name(func).to_string()
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

pub(crate) fn has_passthrough(func: OperationRef, name: &str) -> bool {
    let Some(array) = func.attribute("passthrough").ok().and_then(|a| ArrayAttribute::try_from(a).ok()) else {
        return false;
    };
    (0..array.len())
        .filter_map(|i| array.element(i).ok())
        // (`try_from` prints the attribute into its error: the key-value
        // pairs would be printed on every call.)
        .any(|element| crate::ir::string_value(element).is_some_and(|text| text == name))
}

/// Whether the `!llvm.func` type `ty` is variadic. The C API has no
/// query, but types are uniqued: compare it with its non-variadic twin.
/// `false` for a type that is not an `!llvm.func`.
pub fn is_variadic(ty: Type) -> bool {
    crate::ir::as_llvm_function(ty).is_some_and(crate::ir::LlvmFunctionType::is_variadic)
}

/// The signature of `func` as the ABI sees it. `address_taken` comes from
/// [`address_taken_functions`].
pub fn function_signature(func: OperationRef, address_taken: bool) -> Result<FunctionSignature, AbiError> {
    let name = function_name(func);
    let not_a_function = || AbiError::Unsupported { ty: name.clone(), reason: "no LLVM function type".into() };
    let r#type = function_type(func).ok_or_else(not_a_function)?;
    // The C API has neither a type check nor a variadic query for
    // `!llvm.func`, but types are uniqued: compare the kind with a known
    // function type, and the type with its non-variadic twin.
    let function = crate::ir::as_llvm_function(r#type).ok_or_else(not_a_function)?;
    let (inputs, result) = (function.inputs(), function.return_type());
    let (variadic, void) = (function.is_variadic(), crate::ir::llvm_void_like(r#type));
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
    let declaration = func.region_at(0).map(|r| r.first_block().is_none()).unwrap_or(true);
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
pub fn function_target(func: OperationRef, chip: Option<&str>, ptx: Option<u32>) -> Result<Target, AbiError> {
    // An empty `target_cpu` names no chip (llc then takes its `-mcpu`).
    let function_chip =
        func.attribute("target_cpu").ok().and_then(crate::ir::string_value).filter(|chip| !chip.is_empty());
    let features: Option<Vec<String>> = func.attribute("target_features").ok().map(|a| {
        // `#llvm.target_features<["+ptx81", "+sm_90"]>`; anything else (a
        // string) as printed.
        ptxcc_shim::target_features(a.to_raw())
            .unwrap_or_else(|| a.to_string().split('"').skip(1).step_by(2).map(str::to_string).collect())
    });
    if function_chip.is_none() && features.is_none() {
        if let Some(target) = gpu_module_target(func) {
            return Target::resolve(chip, ptx, Some(&target.chip), Some(&target.features));
        }
    }
    Target::resolve(chip, ptx, function_chip.as_deref(), features.as_deref())
}

/// One `#nvvm.target` of a `gpu.module`: what upstream's
/// `gpu-module-to-binary` compiles the module for, with MLIR 22's defaults
/// for what the attribute leaves out (`O = 2`, `sm_50`, no features: the
/// chip's minimum PTX version).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NvvmTarget {
    /// The optimization level LLVM's pipeline runs at before codegen.
    pub opt_level: u32,
    /// The chip (`sm_90`).
    pub chip: String,
    /// The target features (`+ptx80`).
    pub features: Vec<String>,
}

impl NvvmTarget {
    /// The chip's number (`sm_90a` -> 90), for comparing chips.
    fn sm(&self) -> u32 {
        self.chip.trim_start_matches("sm_").trim_end_matches(|c: char| c.is_ascii_alphabetic()).parse().unwrap_or(0)
    }
}

/// The NVVM targets of the `gpu.module` around `func`; `None` outside a
/// `gpu.module` or in one without targets.
///
/// The C API has no accessors for `#nvvm.target`'s parameters, so they are
/// read from the attribute's printed form (short: one per target).
pub fn gpu_module_targets(func: OperationRef) -> Option<Vec<NvvmTarget>> {
    let mut current = func.parent_operation();
    while let Some(op) = current {
        if crate::ir::op_name(op) == "gpu.module" {
            let parsed = nvvm_targets(op);
            return (!parsed.is_empty()).then_some(parsed);
        }
        current = op.parent_operation();
    }
    None
}

/// The NVVM targets of the `gpu.module` op `gpu_module`, in order; empty
/// when it has none (other targets, such as `#rocdl.target`, are left out).
pub fn nvvm_targets(gpu_module: OperationRef) -> Vec<NvvmTarget> {
    let Ok(targets) = gpu_module.attribute("targets") else { return Vec::new() };
    targets.to_string().split("#nvvm.target").skip(1).map(parse_nvvm_target).collect()
}

/// Reads `<O = 3, chip = "sm_90", features = "+ptx80">` (the text after
/// `#nvvm.target`; the parameters are printed only when they differ from
/// the defaults).
fn parse_nvvm_target(text: &str) -> NvvmTarget {
    // A bare `#nvvm.target` has no parameters: what follows it is the next
    // target's.
    let body = text.strip_prefix('<').and_then(|rest| rest.split('>').next()).unwrap_or_default();
    let quoted = |name: &str| {
        body.split(&format!("{name} = \"")).nth(1).and_then(|rest| rest.split('"').next()).map(str::to_string)
    };
    let opt_level = body
        .split("O = ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(2);
    NvvmTarget {
        opt_level,
        chip: quoted("chip").unwrap_or_else(|| "sm_50".into()),
        // MLIR 22's default is no feature at all: the chip's minimum PTX
        // version, which `gpu-module-to-binary` compiles for.
        features: quoted("features")
            .map(|features| features.split(',').filter(|f| !f.is_empty()).map(str::to_string).collect())
            .unwrap_or_default(),
    }
}

/// The target ptxcc decides for in a `gpu.module` with several NVVM
/// targets: the one with the oldest chip (the output must assemble for
/// each).
pub fn gpu_module_target(func: OperationRef) -> Option<NvvmTarget> {
    gpu_module_targets(func)?.into_iter().min_by_key(NvvmTarget::sm)
}

/// The optimization level `gpu-module-to-binary` compiles the `gpu.module`
/// around `func` at (the lowest of its NVVM targets').
pub fn gpu_module_opt_level(func: OperationRef) -> Option<u32> {
    gpu_module_targets(func)?.iter().map(|t| t.opt_level).min()
}

/// The input types and variadic flag of an `!llvm.func` type, or `None`
/// for another type.
fn function_type_inputs(ty: Type) -> Option<(Vec<Type>, bool)> {
    let function = crate::ir::as_llvm_function(ty)?;
    Some((function.inputs(), function.is_variadic()))
}

/// The function a call reaches directly, as `llc` sees it: the `callee`
/// symbol, or an `llvm.mlir.addressof` of a function of the call's type
/// (LLVM IR calls the function itself then).
pub fn direct_callee<'c, 'a>(
    call: OperationRef<'c, 'a>,
    functions: &HashMap<String, OperationRef<'c, 'a>>,
) -> Option<(String, Option<OperationRef<'c, 'a>>)> {
    if let Some(name) = crate::ir::Call::of(call).and_then(crate::ir::Call::callee) {
        let func = functions.get(&name).copied();
        return Some((name, func));
    }
    let pointer = crate::ir::Call::of(call)?.callee_pointer()?;
    let addressof = crate::kernel::defining_op(pointer, LlvmOp::AddressOf)?;
    let name = addressof.attribute("global_name").ok().and_then(flat_symbol_name)?;
    let func = *functions.get(&name)?;
    let (inputs, variadic) = function_type_inputs(function_type(func)?)?;
    let arguments = call_arguments(call);
    let same = !variadic
        && inputs.len() == arguments.len()
        && inputs.iter().zip(&arguments).all(|(input, argument)| *input == argument.r#type())
        && call.result_count() == usize::from(function_result(func).is_some())
        && (0..call.result_count()).all(|i| call.result_at(i).ok().map(|r| r.r#type()) == function_result(func));
    same.then_some((name, Some(func)))
}

/// The result type of an `llvm.func`, `None` for `void`.
fn function_result<'c>(func: OperationRef<'c, '_>) -> Option<Type<'c>> {
    let ty = function_type(func)?;
    let (result, void) = (crate::ir::as_llvm_function(ty)?.return_type(), crate::ir::llvm_void_like(ty));
    (result != void).then_some(result)
}

/// The argument operands of an `llvm.call` (without the callee pointer of
/// an indirect call and without operand bundles).
pub fn call_arguments<'c, 'a>(call: OperationRef<'c, 'a>) -> Vec<melior::ir::Value<'c, 'a>> {
    crate::ir::Call::of(call).map_or_else(Vec::new, crate::ir::Call::arguments)
}

/// The callee of an `llvm.call` as the call site sees it, and how it is
/// reached: argument types from the call, `byval`/`align` from the call's
/// `arg_attrs` or else the direct callee's, `alignstack`, linkage and
/// whether its address is taken from a direct callee (an indirect call
/// sees an external function). Variadic calls keep their fixed arguments
/// (the buffer pointer is implied). `None` for calls of LLVM intrinsics,
/// which have no call sequence.
pub fn call_site_signature(
    call: OperationRef,
    functions: &HashMap<String, OperationRef>,
    taken: &HashSet<String>,
) -> Result<Option<(FunctionSignature, super::call::Callee)>, AbiError> {
    let direct = direct_callee(call, functions);
    if direct.as_ref().is_some_and(|(name, _)| name.starts_with("llvm.")) {
        return Ok(None);
    }
    let callee_func = direct.as_ref().and_then(|(_, func)| *func);
    let arguments = call_arguments(call);
    // Fixed parameters: the callee's type (`var_callee_type` for a variadic
    // call through a pointer), else every argument.
    let callee_type =
        callee_func.and_then(function_type).or_else(|| crate::ir::type_attribute(call, "var_callee_type"));
    let (fixed, variadic) = match callee_type.and_then(function_type_inputs) {
        Some((inputs, variadic)) => (inputs.len().min(arguments.len()), variadic),
        None => (arguments.len(), false),
    };
    let mut params = Vec::with_capacity(fixed);
    for (index, argument) in arguments.iter().take(fixed).enumerate() {
        let attribute = |name: &str| {
            crate::kernel::parameter_attribute(call, index, name)
                .or_else(|| callee_func.and_then(|f| crate::kernel::parameter_attribute(f, index, name)))
        };
        let byval = attribute(LLVM_BYVAL)
            .and_then(|a| TypeAttribute::try_from(a).ok())
            .map(|t| abi_type(t.value()))
            .transpose()?;
        params.push(ParamSignature {
            ty: abi_type(argument.r#type())?,
            byval,
            align: alignment_attribute(attribute("llvm.align"), "llvm.align", index)?,
            stack_align: alignment_attribute(
                callee_func.and_then(|f| crate::kernel::parameter_attribute(f, index, "llvm.alignstack")),
                "llvm.alignstack",
                index,
            )?,
        });
    }
    let result = match crate::ir::first_result(call) {
        Some(value) => Some(abi_type(value.r#type())?),
        None => None,
    };
    let (name, linkage, address_taken) = match (&direct, callee_func) {
        (Some((name, Some(func))), _) => (name.clone(), function_linkage(*func), taken.contains(name)),
        (Some((name, None)), _) => (name.clone(), Linkage::External, false),
        (None, _) => (String::new(), Linkage::External, true),
    };
    let signature = FunctionSignature {
        name,
        kernel: false,
        linkage,
        declaration: callee_func.is_none_or(|f| f.region_at(0).map(|r| r.first_block().is_none()).unwrap_or(true)),
        address_taken,
        no_return: callee_func.is_some_and(|f| has_passthrough(f, "noreturn")),
        variadic,
        result,
        params,
    };
    let callee = match direct {
        Some(_) => super::call::Callee::Direct(signature.symbol()),
        None => super::call::Callee::Indirect,
    };
    Ok(Some((signature, callee)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// The printed `#nvvm.target` leaves out what equals NVVM's defaults.
    #[rstest]
    #[case("<>", 2, "sm_50", &[])]
    #[case("<O = 3, chip = \"sm_90\", features = \"+ptx80\">", 3, "sm_90", &["+ptx80"])]
    #[case("<O = 0, chip = \"sm_90a\">", 0, "sm_90a", &[])]
    #[case("<chip = \"sm_80\", features = \"+ptx75,+ptx80\", flags = {fast}>", 2, "sm_80", &["+ptx75", "+ptx80"])]
    // A bare target followed by another target: nothing of the other's.
    #[case(", #rocdl.target<O = 3, chip = \"gfx90a\">]", 2, "sm_50", &[])]
    fn reads_printed_nvvm_targets(
        #[case] text: &str,
        #[case] opt_level: u32,
        #[case] chip: &str,
        #[case] features: &[&str],
    ) {
        let target = parse_nvvm_target(text);
        assert_eq!((target.opt_level, target.chip.as_str()), (opt_level, chip));
        assert_eq!(target.features, features);
    }
}
