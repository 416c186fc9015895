//! `ptxcc-verify`: rejects, at the operation's location, IR that `llc`
//! would turn into wrong or illegal PTX, or that the PTX calling convention
//! cannot express (seed 002's NVVMIRVerifier, seed 003's atomics checks).
//!
//! | rule | what is rejected | why |
//! |---|---|---|
//! | local launch argument | a kernel parameter of type `!llvm.ptr<5>`; a pointer into a local slot (an alloca, through casts, GEPs, selects and phis) passed to a kernel called from device code or stored into a device-side launch's parameter buffer (`cudaGetParameterBuffer*`) | local memory belongs to one thread: a launched grid cannot read it (seed 002's "pointer-to-local-or-generic launch argument") |
//! | param to generic in a device function | `ptxcc.param_to_generic`, or an `llvm.addrspacecast` from `!llvm.ptr<101>`, in a function that is not a kernel | `cvta.param` exists for kernel parameters only |
//! | byval left with opt-byval | a kernel `byval` parameter used other than through its param-space cast in a module where `lower-struct-args` recorded `opt-byval=true` (IR it has not lowered has no such rule) | seed 002: after `lower-struct-args` with opt-byval every use goes through param space; a use added later reaches `llc` with a generic byval pointer, which it copies |
//! | variadic | a variadic kernel; a `musttail` call of a variadic function | `.entry` has no variadic form; LLVM's variadic lowering cannot forward `...` (`llc` aborts) |
//! | param space | a kernel whose parameters exceed the target's `.param` limit | `ptxas` fails late; `llc` checks nothing |
//! | 128-bit atomics | an atomic of more than 64 bits below sm_90 / PTX 8.3, or below PTX 8.4 at the system scope (no `syncscope`) | `llc` fails ("unsupported cmpxchg"); at `.sys` scope llc 22 emits `atom.sys.*.b128` for PTX 8.3, which `ptxas` rejects ("requires PTX ISA .version 8.4") |
//! | atomics that need a newer target (`strict-atomics`) | a vector `llvm.atomicrmw` below sm_90 / PTX 8.1 ("vector atomics not supported on this architecture!"); a 16-bit `cmpxchg` below sm_70; `fadd` of `f64` below sm_60, `f16` below sm_70, `bf16` below sm_90 | seed 003: the target has no such instruction. `llc` 22 emulates them with a compare-and-swap loop instead, correct but slower: `strict-atomics=false` accepts them as `llc` does |
//!
//! Before (`ptxcc-opt --ptxcc-verify=chip=sm_80`):
//! ```mlir
//! llvm.func @f(%p: !llvm.ptr<1>, %v: vector<2xf16>) {
//!   %0 = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr<1>, vector<2xf16>
//!   llvm.return
//! }
//! ```
//! After: the IR is unchanged; the pass fails with
//! `error: vector atomics not supported on this architecture! 'llvm.atomicrmw fadd' on vector<2xf16> needs sm_90 and PTX 8.1 (atom .v2 .f16); the target is sm_80, PTX 7.0`.

use crate::ir::{BlockExt, HashMap, HashSet, OperationExt};
use crate::ir::{LlvmOp, Store};

use melior::{
    ir::{operation::OperationLike, Location, OperationRef, Type, ValueLike},
    pass::Pass,
};
use ptxcc_dialect::{address_space, names, types::pointer_address_space, verify::emit_error};

use crate::options::declare_pass;
use crate::{
    abi::{
        check_param_space,
        mlir::abi_type,
        signature::{address_taken_functions, call_arguments, direct_callee, function_name, function_signature},
        AbiType, DataLayout, Target,
    },
    ir::{as_result, integer_attribute, nested_ops, op_name},
    kernel::{function_type, is_kernel, parameter_count, parameter_has, recorded_opt_byval, LLVM_BYVAL},
    options::LlvmOptAfter,
    options::TargetOptions,
    pass::PtxccPass,
    spaces::{SpaceAnalysis, SpaceRules},
};

declare_pass! {
    /// Options of `ptxcc-verify`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct VerifyOptions {
        /// The target of functions that do not name theirs.
        pub target: TargetOptions = group(),
        /// Whether `lower-struct-args` ran with `opt-byval` (when the module
        /// does not record it).
        pub opt_byval: bool = option(
            "opt-byval",
            "true",
            "whether lower-struct-args ran with opt-byval, for modules that do not record it"
        ),
        /// Reject atomics the target has no instruction for (seed 003), not
        /// only those `llc` cannot lower.
        pub strict_atomics: bool = option(
            "strict-atomics",
            "true",
            "reject atomics the target has no instruction for (vector atomics below sm_90, 16-bit cas below sm_70, ...); false: only those llc cannot lower"
        ),
    }
    pass "ptxcc-verify" (PtxccVerify) on crate::ir::BUILTIN_MODULE:
        "Reject IR that would become wrong or illegal PTX (local launch arguments, cvta.param in device functions, byval left with opt-byval, inexpressible variadics, param space, atomics the target lacks)";
    fn run(&self, module) -> bool {
        verify_module(module, self) == 0
    }
}

/// One thing `ptxcc-verify` rejects.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// A kernel parameter in local space.
    #[error(
        "pointer-to-local-or-generic launch argument: parameter {index} of kernel @{kernel} points into local memory, which no launch can pass (local memory belongs to one thread)"
    )]
    LocalKernelParameter {
        /// The kernel.
        kernel: String,
        /// The parameter.
        index: usize,
    },
    /// A pointer into a local slot handed to a launched kernel.
    #[error(
        "pointer-to-local-or-generic launch argument: {what} is a pointer into a local slot of @{function}; the launched kernel cannot read another thread's local memory"
    )]
    LocalLaunchArgument {
        /// `argument 1 of the call of kernel @k`, `the value stored into the parameter buffer`.
        what: String,
        /// The function the slot belongs to.
        function: String,
    },
    /// `cvta.param` outside a kernel.
    #[error(
        "'{op}' converts a param-space pointer in device function @{function}: cvta.param exists only for kernel parameters (device-function parameters have no address in param space)"
    )]
    ParamToGenericInDevice {
        /// The op.
        op: String,
        /// The function.
        function: String,
    },
    /// A kernel byval parameter still used as a generic pointer after
    /// lower-struct-args ran with opt-byval.
    #[error(
        "byval parameter {index} of kernel @{kernel} is used through its generic address although lower-struct-args ran with opt-byval=true, which reads every byval parameter through its param-space view: a pass after lower-struct-args added this use (run the ptxcc passes last, or ptxcc-pipeline{{verify=true}}); llc would copy the struct to local memory"
    )]
    ByvalLeft {
        /// The kernel.
        kernel: String,
        /// The parameter.
        index: usize,
    },
    /// A variadic kernel.
    #[error("kernel @{0} is variadic: a PTX .entry has no variadic parameters")]
    VariadicKernel(String),
    /// A musttail call of a variadic function.
    #[error(
        "musttail call of variadic @{0}: PTX has no variadic functions and LLVM's lowering of them cannot forward '...' (llc aborts)"
    )]
    VariadicMustTail(String),
    /// Param space over the limit.
    #[error("{0}")]
    ParamSpace(String),
    /// An atomic the target cannot do.
    #[error("{prefix}'{op}' on {ty} needs {needs} ({instruction}); the target is {target}{hint}")]
    Atomic {
        /// `vector atomics not supported on this architecture! ` or empty.
        prefix: &'static str,
        /// `llvm.atomicrmw fadd`.
        op: String,
        /// The value type.
        ty: String,
        /// `sm_90 and PTX 8.1`.
        needs: String,
        /// The PTX instruction.
        instruction: &'static str,
        /// The target, printed.
        target: String,
        /// What else to do.
        hint: &'static str,
    },
}

/// What an atomic needs from the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtomicRequirement {
    /// Lowest SM version.
    pub sm: u32,
    /// Lowest PTX version, times ten.
    pub ptx: u32,
    /// The PTX instruction.
    pub instruction: &'static str,
    /// Whether `llc` lowers the atomic anyway (with a compare-and-swap loop)
    /// on older targets: only `strict-atomics` rejects it.
    pub emulated: bool,
    /// Whether it is a vector atomic (seed 003's diagnostic).
    pub vector: bool,
}

/// Names of `llvm.atomicrmw`'s `bin_op` values (LLVM's `AtomicRMWInst`).
const BIN_OPS: &[&str] = &[
    "xchg",
    "add",
    "sub",
    "and",
    "nand",
    "or",
    "xor",
    "max",
    "min",
    "umax",
    "umin",
    "fadd",
    "fsub",
    "fmax",
    "fmin",
    "uinc_wrap",
    "udec_wrap",
    "usub_cond",
    "usub_sat",
    "fmaximum",
    "fminimum",
];

/// What the atomic `op` (`cmpxchg` or an `atomicrmw` operation name) on
/// `ty` needs from the target, if anything beyond what every target has.
/// `system_scope`: the atomic has LLVM's default scope (no `syncscope`),
/// which llc emits as `.sys`.
pub fn atomic_requirement(
    op: &str,
    ty: &AbiType,
    layout: &DataLayout,
    system_scope: bool,
) -> Option<AtomicRequirement> {
    let bits = layout.store_size(ty) * 8;
    let need = |sm, ptx, instruction, emulated| AtomicRequirement { sm, ptx, instruction, emulated, vector: false };
    if bits > 64 {
        // Only sm_90 with PTX 8.3 has 128-bit atom.cas/exch; llc fails
        // otherwise. At `.sys` scope ptxas wants PTX 8.4 ("Feature '.b128
        // with .sys' requires PTX ISA .version 8.4"), which llc 22 does not
        // check: it emits the instruction for PTX 8.3 all the same.
        let (ptx, instruction) = match (op == "xchg", system_scope) {
            (true, true) => (84, "atom.sys.exch.b128"),
            (true, false) => (83, "atom.exch.b128"),
            (false, true) => (84, "atom.sys.cas.b128"),
            (false, false) => (83, "atom.cas.b128"),
        };
        return Some(AtomicRequirement {
            vector: matches!(ty, AbiType::Vector(..)),
            ..need(90, ptx, instruction, false)
        });
    }
    if let AbiType::Vector(..) = ty {
        return Some(AtomicRequirement { vector: true, ..need(90, 81, "atom with .v2/.v4/.v8 vectors", true) });
    }
    use crate::abi::layout::FloatKind;
    match (op, ty) {
        ("cmpxchg", AbiType::Int(9..=16)) => Some(need(70, 63, "atom.cas.b16", true)),
        ("fadd", AbiType::Float(FloatKind::Double)) => Some(need(60, 50, "atom.add.f64", true)),
        ("fadd", AbiType::Float(FloatKind::Half)) => Some(need(70, 63, "atom.add.noftz.f16", true)),
        ("fadd", AbiType::Float(FloatKind::BFloat)) => Some(need(90, 78, "atom.add.noftz.bf16", true)),
        _ => None,
    }
}

/// The atomic operation of `op` (`cmpxchg`, `fadd`, ...), its value type
/// and whether it has the system scope (no `syncscope`, or `""`), for
/// `llvm.atomicrmw` and `llvm.cmpxchg`.
fn atomic_of<'c>(op: OperationRef<'c, '_>) -> Option<(String, Type<'c>, bool)> {
    let ty = op.operand_at(1).ok()?.r#type();
    let system_scope = op.attribute("syncscope").ok().and_then(crate::ir::string_value).is_none_or(|s| s.is_empty());
    let name = match LlvmOp::of(op) {
        LlvmOp::CmpXchg => "cmpxchg".to_string(),
        LlvmOp::AtomicRmw => {
            let code = integer_attribute(op, "bin_op")?;
            usize::try_from(code)
                .ok()
                .and_then(|i| BIN_OPS.get(i))
                .map_or_else(|| format!("op {code}"), |n| n.to_string())
        }
        _ => return None,
    };
    Some((name, ty, system_scope))
}

/// The value a chain of casts and GEPs starts from.
fn base_of<'c: 'a, 'a>(mut value: melior::ir::Value<'c, 'a>) -> melior::ir::Value<'c, 'a> {
    while let Some(result) = as_result(value) {
        let owner = result.owner();
        match LlvmOp::of(owner) {
            LlvmOp::Gep | LlvmOp::AddrSpaceCast | LlvmOp::Bitcast => match owner.operand_at(0) {
                Ok(source) => value = source,
                Err(_) => break,
            },
            _ => break,
        }
    }
    value
}

/// Whether `value` comes from a device-side launch's parameter buffer.
fn is_parameter_buffer(value: melior::ir::Value) -> bool {
    as_result(base_of(value)).is_some_and(|result| {
        let owner = result.owner();
        crate::ir::Call::of(owner)
            .and_then(crate::ir::Call::callee)
            .is_some_and(|name| name.starts_with("cudaGetParameterBuffer"))
    })
}

/// The violations of one function. `functions` are the module's
/// functions by name.
pub fn verify_function<'c>(
    func: OperationRef<'c, '_>,
    functions: &HashMap<String, OperationRef>,
    taken: &HashSet<String>,
    options: &VerifyOptions,
) -> Vec<(Location<'c>, Violation)> {
    let mut found = Vec::new();
    let name = function_name(func);
    let kernel = is_kernel(func);
    let layout = DataLayout::default();
    let target = options.target.target_of(func);
    let ops = nested_ops(func);
    if kernel {
        verify_kernel_signature(func, &name, taken, &layout, target.as_ref().ok(), &mut found);
        // Only IR that lower-struct-args lowered with opt-byval has a rule
        // here: before it ran, a byval parameter used in place is what every
        // front end emits (and llc copies it as needed).
        if recorded_opt_byval(func) == Some(true) {
            verify_byval_rewritten(func, &name, &mut found);
        }
    }
    // (What memory-space-opt assumes with its default options.)
    let space_options = SpaceRules {
        opt_byval: recorded_opt_byval(func).unwrap_or(options.opt_byval),
        kernel_params_global: true,
        llvm_opt_after: LlvmOptAfter::Auto,
    };
    let mut analysis: Option<SpaceAnalysis> = None;
    for op in &ops {
        let kind = LlvmOp::of(*op);
        // cvta.param outside kernels.
        if !kernel {
            let op_text = op_name(*op);
            let from_param = kind == LlvmOp::AddrSpaceCast
                && op.operand_at(0).is_ok_and(|v| pointer_address_space(v.r#type()) == Some(address_space::PARAM));
            if op_text == names::PARAM_TO_GENERIC || op_text == names::PARAM_TO_GLOBAL || from_param {
                found.push((
                    op.location(),
                    Violation::ParamToGenericInDevice { op: op_text.to_string(), function: name.clone() },
                ));
            }
        }
        // Local pointers handed to a launch.
        let local = |analysis: &mut Option<SpaceAnalysis>, value: melior::ir::Value| {
            let analysis = analysis.get_or_insert_with(|| SpaceAnalysis::new(func, &ops, &space_options));
            analysis.specific(value) == Some(address_space::LOCAL)
        };
        if kind == LlvmOp::Call {
            if let Some((callee, Some(callee_func))) = direct_callee(*op, functions) {
                if is_kernel(callee_func) {
                    for (index, argument) in call_arguments(*op).into_iter().enumerate() {
                        if pointer_address_space(argument.r#type()).is_some() && local(&mut analysis, argument) {
                            found.push((
                                op.location(),
                                Violation::LocalLaunchArgument {
                                    what: format!("argument {index} of the call of kernel @{callee}"),
                                    function: name.clone(),
                                },
                            ));
                        }
                    }
                }
                if crate::kernel::is_variadic(callee_func) && crate::ir::is_musttail(*op) {
                    found.push((op.location(), Violation::VariadicMustTail(callee)));
                }
            }
        }
        if kind == LlvmOp::Store {
            if let Some((stored, address)) = Store::of(*op).map(|store| (store.value(), store.address())) {
                if pointer_address_space(stored.r#type()).is_some()
                    && is_parameter_buffer(address)
                    && local(&mut analysis, stored)
                {
                    found.push((
                        op.location(),
                        Violation::LocalLaunchArgument {
                            what: "the pointer stored into a launch's parameter buffer".to_string(),
                            function: name.clone(),
                        },
                    ));
                }
            }
        }
        // Atomics.
        if let (Some((atomic, ty, system_scope)), Ok(target)) = (atomic_of(*op), target.as_ref()) {
            let strict = options.strict_atomics;
            if let Some(violation) = atomic_violation(kind.name(), &atomic, ty, system_scope, target, strict, &layout) {
                found.push((op.location(), violation));
            }
        }
    }
    found
}

/// The violation of an atomic `atomic` on `ty`, if `target` cannot do it.
fn atomic_violation(
    op_name: &str,
    atomic: &str,
    ty: Type,
    system_scope: bool,
    target: &Target,
    strict: bool,
    layout: &DataLayout,
) -> Option<Violation> {
    let abi = abi_type(ty).ok()?;
    let requirement = atomic_requirement(atomic, &abi, layout, system_scope)?;
    if (target.sm >= requirement.sm && target.ptx >= requirement.ptx) || (requirement.emulated && !strict) {
        return None;
    }
    let shown = if atomic == "cmpxchg" { op_name.to_string() } else { format!("{op_name} {atomic}") };
    Some(Violation::Atomic {
        prefix: if requirement.vector { "vector atomics not supported on this architecture! " } else { "" },
        op: shown,
        ty: ty.to_string(),
        needs: format!("sm_{} and PTX {}.{}", requirement.sm, requirement.ptx / 10, requirement.ptx % 10),
        instruction: requirement.instruction,
        target: target.to_string(),
        hint: if requirement.emulated {
            " (strict-atomics=false lets llc emulate it with a compare-and-swap loop)"
        } else {
            " (llc cannot lower it)"
        },
    })
}

/// The signature rules of a kernel: local pointer parameters, variadic,
/// param space.
fn verify_kernel_signature<'c>(
    func: OperationRef<'c, '_>,
    name: &str,
    taken: &HashSet<String>,
    layout: &DataLayout,
    target: Option<&Target>,
    found: &mut Vec<(Location<'c>, Violation)>,
) {
    let Some(ty) = function_type(func) else { return };
    if crate::abi::signature::is_variadic(ty) {
        found.push((func.location(), Violation::VariadicKernel(name.to_string())));
    }
    if let Some(entry) = crate::kernel::entry_block(func) {
        use melior::ir::block::BlockLike;
        for index in 0..entry.argument_count() {
            let Ok(argument) = entry.argument_at(index) else { continue };
            if pointer_address_space(argument.r#type()) == Some(address_space::LOCAL) {
                found.push((func.location(), Violation::LocalKernelParameter { kernel: name.to_string(), index }));
            }
        }
    }
    let (Some(target), Ok(signature)) = (target, function_signature(func, taken.contains(name))) else { return };
    if let Ok(Some(excess)) = check_param_space(&signature, layout, target) {
        found.push((func.location(), Violation::ParamSpace(excess.to_string())));
    }
}

/// Kernel `byval` parameters used other than through their param-space
/// cast (`lower-struct-args` with opt-byval rewrites every use into one, or
/// leaves the parameter as it was for `llc`).
fn verify_byval_rewritten<'c>(func: OperationRef<'c, '_>, name: &str, found: &mut Vec<(Location<'c>, Violation)>) {
    let Some(entry) = crate::kernel::entry_block(func) else { return };
    for index in 0..parameter_count(func) {
        if !parameter_has(func, index, LLVM_BYVAL) {
            continue;
        }
        let Ok(argument) = entry.argument_at(index) else { continue };
        let uses = crate::ir::uses(argument.into());
        let to_param = |user: OperationRef| {
            LlvmOp::of(user) == LlvmOp::AddrSpaceCast
                && crate::ir::first_result(user)
                    .is_some_and(|r| pointer_address_space(r.r#type()) == Some(address_space::PARAM))
        };
        // A parameter with no param-space view was left for llc on purpose
        // (`llvm-opt-after`: the optimizer runs first); one with a view was
        // lowered, and any other use came later.
        let lowered = uses.iter().any(|used| to_param(used.owner));
        let generic_use = uses.iter().any(|used| !to_param(used.owner) && !op_name(used.owner).starts_with("ptxcc."));
        if lowered && generic_use {
            found.push((func.location(), Violation::ByvalLeft { kernel: name.to_string(), index }));
        }
    }
}

/// Checks every function of `module`, reporting each violation as an error
/// at its location; returns how many there were.
pub fn verify_module(module: OperationRef, options: &VerifyOptions) -> usize {
    let functions = crate::abi::signature::functions_by_name(module);
    let taken = address_taken_functions(module);
    let mut count = 0;
    for func in crate::ir::module_functions(module) {
        for (location, violation) in verify_function(func, &functions, &taken, options) {
            emit_error(location, &violation.to_string());
            count += 1;
        }
        if let Err(error) = options.target.target_of(func) {
            emit_error(func.location(), &format!("@{}: {error}", function_name(func)));
            count += 1;
        }
    }
    count
}

/// The `ptxcc-verify` pass, anchored on `builtin.module`; it changes
/// nothing and fails when it finds a violation.
pub fn create_verify_pass(options: &VerifyOptions) -> Pass {
    options.create_pass()
}
