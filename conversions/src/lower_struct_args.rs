//! `lower-struct-args`: kernel `byval` aggregates read from param space
//! (seeds 002 and 001).
//!
//! A kernel keeps its launch ABI: the same parameters in the same order, a
//! `byval` parameter still a `byval` pointer (llc declares an
//! `!llvm.ptr<101>` parameter as an 8-byte pointer). The body reads the
//! parameter through its param-space view, `%p = llvm.addrspacecast %arg :
//! !llvm.ptr to !llvm.ptr<101>`, and each use of the parameter and of the
//! pointers derived from it by GEPs is decided on its own
//! ([`analysis::plan_argument`]):
//!
//! | use | becomes |
//! |---|---|
//! | load at a constant offset (GEP chains of any depth) | `ptxcc.load_param %p {offset}` |
//! | load through a dynamic GEP, volatile load | load from the param-space GEP |
//! | `memcpy` from it | `ptxcc.copy_param` (constant length) or a param-space memcpy |
//! | call that only reads, select/phi, icmp | one `ptxcc.param_to_generic %p` (cast-only; the parameter becomes an `nvvm.grid_constant`) |
//! | store through it, memset, memcpy into it, stored address, `ptrtoint`, a call that may write | a local copy: `llvm.alloca` + `ptxcc.copy_param`, every use redirected |
//!
//! "Only reads" comes from the call's or the callee's attributes
//! (`readonly`/`readnone` with `nocapture`, `byval`, `memory_effects`) or
//! from the callee's body when it is defined in the module
//! ([`readonly::ReadOnlyAnalysis`]). The cast-only path needs `cvta.param`
//! (sm_70 and PTX 7.7); below that the parameter is copied.
//!
//! Errors (each at its location; the kernel is then left unchanged): a
//! local copy above `max-byval-size` ("huge 'byval' arguments are
//! unsupported"), a write through an `nvvm.grid_constant` parameter, a
//! copied struct that is also read through an explicit param-space cast, a
//! `byval` type without a layout, and a kernel whose parameters exceed the
//! target's param space.
//!
//! With `opt-byval=false` the pass changes nothing (seed 002); the value it
//! ran with is recorded on the module as `ptxcc.opt_byval`.

pub mod analysis;
pub mod decision;
pub mod device;
pub mod external;
pub mod readonly;
pub mod rewrite;
mod rounds;
pub mod symbols;

use crate::ir::BlockExt;
use melior::{
    ir::{
        attribute::{BoolAttribute, TypeAttribute},
        operation::OperationLike,
        BlockLike, OperationRef, Value, ValueLike,
    },
    pass::Pass,
};
use ptxcc_dialect::{address_space, types::pointer_address_space, verify::emit_error};

pub use analysis::{plan_argument, Action, ArgumentPlan, ByvalParameter, PlanContext, Strategy};
pub use readonly::ReadOnlyAnalysis;
pub use rewrite::rewrite_arguments;
pub(crate) use rounds::device_target;
use rounds::{check_device_byval, lower_device_functions};

use crate::options::declare_pass;
use crate::{
    abi::{check_param_space, classify::Thresholds, signature::function_signature, DataLayout, FunctionSignature},
    context::context_of,
    ir::{body_ops, module_functions, op_name},
    kernel::{is_kernel, parameter_attribute, LLVM_BYVAL},
    options::{LlvmOptAfter, TargetCache, TargetOptions},
    pass::PtxccPass,
};

declare_pass! {
    /// Options of `lower-struct-args`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct LowerStructArgsOptions {
        /// Lower `byval` parameters at all (seed 002's shared `opt-byval`).
        pub opt_byval: bool = option(
            "opt-byval",
            "true",
            "lower kernel byval parameters to param-space reads; false leaves them as they are"
        ),
        /// Largest local copy of a `byval` parameter, in bytes (seed 001).
        pub max_byval_size: u64 = option(
            "max-byval-size",
            "4096",
            "largest local copy of a byval parameter in bytes; a larger one is an error"
        ),
        /// Largest aggregate, in bytes, a device function receives flattened
        /// (seed 000).
        pub flatten_threshold: u64 = option(
            "flatten-threshold",
            "32",
            "largest aggregate in bytes that a device function receives as one parameter per leaf"
        ),
        /// Most vector elements a flattened leaf may have (seed 000).
        pub vector_threshold: u64 = option(
            "vector-threshold",
            "4",
            "most elements of a vector leaf in a flattened aggregate"
        ),
        /// Aggregate results above this many bytes are returned through `sret`
        /// where every caller has a slot for them (seed 000 phase 5).
        pub sret_threshold: u64 = option(
            "sret-threshold",
            "16",
            "aggregate results above this many bytes are returned through an sret pointer where every caller stores them"
        ),
        /// Flatten kernel parameters too (changes the launch ABI).
        pub flatten_kernel_args: bool = option(
            "flatten-kernel-args",
            "false",
            "flatten small aggregate kernel parameters too (changes the launch ABI)"
        ),
        /// The target of functions that do not name theirs (`cvta.param` and
        /// the param-space limit depend on it).
        pub target: TargetOptions = group(),
        /// Whether LLVM's optimizer runs on the output before `llc`; where it
        /// does, a kernel `byval` parameter is lowered only when every use reads
        /// it at a known place (see [`LlvmOptAfter`]).
        pub llvm_opt_after: LlvmOptAfter = option("llvm-opt-after", "auto", LlvmOptAfter::DESCRIPTION),
        /// Nothing outside the module calls its device functions (`nvcc
        /// -rdc=false`, clang without `-fgpu-rdc`): externally visible ones are
        /// made internal instead of getting an internal clone and a wrapper.
        pub whole_program: bool = option(
            "whole-program",
            "false",
            "nothing outside the module calls its device functions (nvcc -rdc=false): make externally visible ones internal instead of calling an internal clone and keeping a wrapper"
        ),
        /// Flatten every aggregate within `flatten_threshold`, as seed 000 does,
        /// even where one parameter per leaf takes more `st.param`/`ld.param`
        /// than llc's `.v2`/`.v4` parts of the aggregate (off: flattened only
        /// where it costs no more; see [`device::plan_parameter`]).
        pub flatten_always: bool = option(
            "flatten-always",
            "false",
            "flatten every aggregate within flatten-threshold as seed 000 does, even where one .param per leaf takes more st.param/ld.param than llc's .v2/.v4 parts (false: only where it costs no more; a byval pointer then passes the aggregate's value)"
        ),
    }
    pass "lower-struct-args" (LowerStructArgs) on crate::ir::BUILTIN_MODULE:
        "Lower kernel byval parameters: param-space loads, cvta.param for read-only escapes, local copies only when written";
    fn run(&self, module) -> bool {
        lower_struct_args(module, self).is_ok()
    }
}

/// Why `lower-struct-args` failed; the details went out as diagnostics.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LowerStructArgsError {
    /// Some kernels could not be lowered (each left unchanged).
    #[error("{problems} problem(s) in {kernels} kernel(s)")]
    Kernels {
        /// Kernels left unchanged.
        kernels: usize,
        /// Diagnostics emitted.
        problems: usize,
    },
}

/// What the pass did to each `byval` parameter: (kernel, parameter index,
/// strategy).
pub type LoweringSummary = Vec<(String, usize, Strategy)>;

/// Runs `lower-struct-args` on `module`.
///
/// Every kernel is planned first; a kernel with a problem is reported and
/// left unchanged, the others are rewritten.
///
/// On a module marked `gpu.container_module` (an MLIR GPU program: host
/// code beside `gpu.module`s), or one whose only functions are in
/// `gpu.module`s, the host code is left alone and each
/// `gpu.module` is lowered on its own, exactly as
/// `builtin.module(gpu.module(lower-struct-args))` lowers it: each is its own
/// symbol table, and its kernels are launched from host code, so their
/// signatures never change (`flatten-kernel-args` does not apply there).
pub fn lower_struct_args(
    module: OperationRef,
    options: &LowerStructArgsOptions,
) -> Result<LoweringSummary, LowerStructArgsError> {
    // Every op the lowering erases is freed when it returns ([`Rewriter`]).
    let mut rewriter = crate::ir::Rewriter::new();
    if !holds_only_gpu_modules(module) {
        return lower_module(module, options, &mut rewriter);
    }
    let (mut summary, mut kernels, mut problems) = (Vec::new(), 0, 0);
    for gpu_module in body_ops(module).into_iter().filter(|op| op_name(*op) == "gpu.module") {
        match lower_module(gpu_module, options, &mut rewriter) {
            Ok(done) => summary.extend(done),
            Err(LowerStructArgsError::Kernels { kernels: k, problems: p }) => {
                kernels += k;
                problems += p;
            }
        }
    }
    if kernels > 0 {
        return Err(LowerStructArgsError::Kernels { kernels, problems });
    }
    Ok(summary)
}

/// Whether `module`'s device code is all in `gpu.module`s directly inside
/// it: it is a `gpu.container_module` (its own functions are host code), or
/// it holds `gpu.module`s and no function outside them.
fn holds_only_gpu_modules(module: OperationRef) -> bool {
    if op_name(module) == "gpu.module" {
        return false;
    }
    if module.has_attribute(crate::ir::GPU_CONTAINER_MODULE) {
        return true;
    }
    let in_gpu_module = |func: &OperationRef| {
        func.parent_operation().is_some_and(|parent| {
            op_name(parent) == "gpu.module" && parent.parent_operation().is_some_and(|p| p == module)
        })
    };
    let functions = module_functions(module);
    !functions.is_empty() && functions.iter().all(in_gpu_module)
}

/// [`lower_struct_args`] on one symbol table: `module` and the modules
/// nested in it.
fn lower_module<'c, 'a>(
    module: OperationRef<'c, 'a>,
    options: &LowerStructArgsOptions,
    rewriter: &mut crate::ir::Rewriter,
) -> Result<LoweringSummary, LowerStructArgsError> {
    let launched_from_host = op_name(module) == "gpu.module";
    let no_flattening;
    let options = if launched_from_host && options.flatten_kernel_args {
        no_flattening = LowerStructArgsOptions { flatten_kernel_args: false, ..options.clone() };
        &no_flattening
    } else {
        options
    };
    let context = context_of(module);
    crate::ir::set_discardable_attribute(
        module,
        ptxcc_dialect::attributes::OPT_BYVAL,
        BoolAttribute::new(context, options.opt_byval).into(),
    );
    if options.opt_byval {
        promote_scalar_slots(module, options);
    }
    let layout = DataLayout::default();
    let mut targets = TargetCache::default();
    let symbols = lower_device_functions(module, options, &layout, rewriter);
    // After the device functions: the kernels' calls now pass what the
    // callees' new signatures ask for, and callee bodies are final. One
    // analysis (and its table of functions) serves the device check and the
    // kernels.
    let readonly = ReadOnlyAnalysis::new(module);
    let (mut failed, mut problems) = check_device_byval(module, options, &layout, &readonly);
    let kernels: Vec<_> = module_functions(module)
        .into_iter()
        .filter(|func| is_kernel(*func) && crate::kernel::has_body(*func))
        .collect();
    // A kernel's plan reads its own body and the bodies of the device
    // functions it calls, and its rewrite changes only its own body; so the
    // kernels are planned and rewritten on the thread pool, each chunk on
    // its own. Unless some kernel is called, or has its address taken: a
    // plan could then read another kernel, so each is planned after the
    // ones before it are rewritten, in order.
    let kernel_is_used = kernels.iter().any(|func| {
        symbols
            .get(&crate::abi::signature::function_name(*func))
            .is_some_and(|uses| uses.other || !uses.calls.is_empty())
    });
    // Each kernel is planned and rewritten on its own ([`lower_kernel`]);
    // what went wrong is reported here, in the module's order.
    let lowered: Vec<KernelLowered<'c>> = if kernel_is_used {
        let mut readonly = readonly;
        kernels
            .iter()
            .map(|func| {
                // Kernels before this one may have been rewritten.
                readonly.forget_pointers();
                lower_kernel(*func, options, &layout, &mut readonly, &mut targets, rewriter)
            })
            .collect()
    } else {
        let lower_chunk = |chunk: &[OperationRef<'c, 'a>]| {
            let (mut readonly, mut targets) = (readonly.fresh(), TargetCache::default());
            let mut own = crate::ir::Rewriter::new();
            let lowered: Vec<_> = chunk
                .iter()
                .map(|func| lower_kernel(*func, options, &layout, &mut readonly, &mut targets, &mut own))
                .collect();
            vec![(lowered, own)]
        };
        // SAFETY: a chunk reads the module, its own kernels and the device
        // functions they call, and changes only its own kernels (their ops
        // and bodies); no kernel is called or has its address taken, so no
        // chunk reads another's kernels. Each chunk has its own caches and
        // rewriter; the table of functions is shared and only read. What a
        // chunk erased is kept by this pass's rewriter, below.
        let chunks = unsafe { crate::ir::parallel_chunks(module, &kernels, lower_chunk) };
        let mut lowered = Vec::with_capacity(kernels.len());
        for (done, own) in chunks {
            let kept = rewriter.absorb(own);
            debug_assert_eq!(kept, 0, "a kernel rewrite left a listed op in use");
            lowered.extend(done);
        }
        lowered
    };
    let mut summary = Vec::new();
    for (func, lowered) in kernels.into_iter().zip(lowered) {
        match lowered {
            Err(errors) => {
                for (location, message) in &errors {
                    emit_error(*location, message);
                }
                failed += 1;
                problems += errors.len();
            }
            Ok(done) => {
                let name = crate::abi::signature::function_name(func);
                summary.extend(done.into_iter().map(|(index, strategy)| (name.clone(), index, strategy)));
            }
        }
    }
    if failed > 0 {
        return Err(LowerStructArgsError::Kernels { kernels: failed, problems });
    }
    Ok(summary)
}

/// Where LLVM's optimizer runs after ptxcc (`llvm-opt-after`), promotes
/// each function's scalar stack slots to SSA values first, as the
/// optimizer's mem2reg will ([`ptxcc_shim::promote_memory_slots`]):
/// unoptimized input (an MLIR compiler's, clang's -O0) keeps a pointer to a
/// `byval` parameter, a loop counter or an index in a slot, where the
/// analyses below would take the stored pointer for an escape and
/// promote-local-arrays could not count the loop. What the optimizer does
/// anyway, done before ptxcc decides instead of after. (Aggregates stay:
/// MLIR's sroa rewrote a field of a packed struct at the wrong offset. With
/// `opt-byval=false` the pass changes nothing, this included.)
fn promote_scalar_slots(module: OperationRef, options: &LowerStructArgsOptions) {
    let functions: Vec<_> = module_functions(module)
        .into_iter()
        .filter(|func| crate::kernel::has_body(*func) && options.llvm_opt_after.applies_to(*func))
        .collect();
    if functions.is_empty() {
        return;
    }
    let promote = |chunk: &[OperationRef]| {
        for func in chunk {
            ptxcc_shim::promote_memory_slots(func.to_raw());
        }
        Vec::<()>::new()
    };
    // SAFETY: each chunk changes only the bodies of its own functions
    // (slots are function-local), and reads nothing outside them but the
    // module's data layout.
    unsafe { crate::ir::parallel_chunks(module, &functions, promote) };
}

/// Problems, each at its location.
type Problems<'c> = Vec<(melior::ir::Location<'c>, String)>;

/// What lowering a kernel did to each `byval` parameter (index, strategy),
/// or the problems that left it unchanged.
type KernelLowered<'c> = Result<Vec<(usize, Strategy)>, Problems<'c>>;

/// Plans kernel `func` ([`plan_kernel`]) and, where it has no problem,
/// rewrites it: changes only `func` and its body.
fn lower_kernel<'c, 'a>(
    func: OperationRef<'c, 'a>,
    options: &LowerStructArgsOptions,
    layout: &DataLayout,
    readonly: &mut ReadOnlyAnalysis<'c, 'a>,
    targets: &mut TargetCache,
    rewriter: &mut crate::ir::Rewriter,
) -> KernelLowered<'c> {
    let mut plans = plan_kernel(func, options, layout, readonly, targets)?;
    if options.llvm_opt_after.applies_to(func) {
        // LLVM's optimizer comes next: what it can still improve (a copy it
        // would delete, an escape it would prove harmless) is left for llc
        // to decide after it; reads at known places and the copies of
        // written parameters are lowered.
        plans.retain(lowered_before_the_optimizer);
    }
    rewrite_arguments(func, &plans, rewriter);
    Ok(plans.iter().map(|plan| (plan.index, plan.strategy)).collect())
}

/// The plans of kernel `func`'s `byval` parameters, or its problems: a
/// target that cannot be worked out, a parameter type without an ABI, a
/// `byval` parameter that cannot be lowered, parameters over the
/// param-space limit. Only reads the IR.
fn plan_kernel<'c, 'a>(
    func: OperationRef<'c, 'a>,
    options: &LowerStructArgsOptions,
    layout: &DataLayout,
    readonly: &mut ReadOnlyAnalysis<'c, 'a>,
    targets: &mut TargetCache,
) -> Result<Vec<ArgumentPlan<'c, 'a>>, Problems<'c>> {
    let target =
        options.target.target_of_cached(func, targets).map_err(|error| vec![(func.location(), error.to_string())])?;
    // The signature fails only on types without an ABI; a byval one is
    // reported at its parameter by the plan below instead.
    let signature = function_signature(func, false);
    let (signature_problem, too_big) = match signature.as_ref().map(|s| check_param_space(s, layout, &target)) {
        Ok(Ok(None)) => (None, None),
        Ok(Ok(Some(too_big))) => (None, Some((func.location(), too_big.to_string()))),
        Ok(Err(error)) => (Some((func.location(), error.to_string())), None),
        Err(error) => (Some((func.location(), error.to_string())), None),
    };
    let mut plans = Vec::new();
    let mut errors = Vec::new();
    if options.opt_byval {
        let plan_context = PlanContext {
            layout,
            has_cvta_param: target.has_cvta_param(),
            max_copy: options.max_byval_size,
            kernel: true,
        };
        for parameter in byval_parameters(func, signature.as_ref().ok(), layout) {
            match plan_argument(func, parameter, plan_context, readonly) {
                Ok(plan) => plans.push(plan),
                Err(found) => errors.extend(found.into_iter().map(|p| (p.location, p.message))),
            }
        }
    }
    if let Some(problem) = signature_problem.filter(|_| errors.is_empty()) {
        errors.push(problem);
    }
    errors.extend(too_big);
    if errors.is_empty() {
        Ok(plans)
    } else {
        Err(errors)
    }
}

/// Whether the plan `plan` is lowered where LLVM's optimizer comes next:
/// every use reads the parameter at a place known here (param-space loads
/// and views, no `memcpy` from it, no generic address), which the optimizer
/// handles as well on the lowered form as on the original; or the kernel
/// writes the parameter, so that a copy is made whatever the optimizer
/// proves, and ptxcc's copy is better than the one llc makes after it:
/// promote-local-arrays sees it (a copy written at a dynamic index becomes
/// registers), and above `inline-copy-threshold` it is a loop of the
/// widest access the alignment allows, where LLVM expands a memcpy above
/// 128 bytes into a loop of single bytes for NVPTX. An escape alone is
/// left: inlining may show the callee only reads.
fn lowered_before_the_optimizer(plan: &ArgumentPlan) -> bool {
    match plan.strategy {
        Strategy::ParamSpace => !plan.actions.iter().any(|action| matches!(action, Action::CopyFrom { .. })),
        Strategy::Copy => plan.escape.as_ref().is_some_and(|escape| escape.write),
        Strategy::CastOnly => false,
    }
}

impl LowerStructArgsOptions {
    /// The classification thresholds these options give.
    pub fn thresholds(&self) -> Thresholds {
        Thresholds {
            flatten: self.flatten_threshold,
            vector: self.vector_threshold,
            sret: self.sret_threshold,
            max_byval: self.max_byval_size,
            flatten_always: self.flatten_always,
        }
    }
}

/// The `byval` parameters of `func` that are generic pointers (anything
/// else is not the kernel-parameter byval of the PTX ABI and is left as it
/// is), with the alignments `signature` gives them.
fn byval_parameters<'c, 'a>(
    func: OperationRef<'c, 'a>,
    signature: Option<&FunctionSignature>,
    layout: &DataLayout,
) -> Vec<ByvalParameter<'c, 'a>> {
    let Some(entry) = crate::kernel::entry_block(func) else { return Vec::new() };
    let mut found = Vec::new();
    for index in 0..entry.argument_count() {
        let Some(byval) = parameter_attribute(func, index, LLVM_BYVAL) else { continue };
        let Ok(mlir_type) = TypeAttribute::try_from(byval).map(|t| t.value()) else { continue };
        let Ok(argument) = entry.argument_at(index) else { continue };
        let value = Value::from(argument);
        if pointer_address_space(value.r#type()) != Some(address_space::GENERIC) {
            continue;
        }
        found.push(ByvalParameter {
            index,
            value,
            mlir_type,
            param_align: signature.map_or(1, |s| s.param_align(layout, index)),
            declared_align: signature.and_then(|s| s.params.get(index)).and_then(|p| p.align),
        });
    }
    found
}

/// The `lower-struct-args` pass, anchored on `builtin.module` (it reads
/// callees' bodies to decide the cast-only path).
pub fn create_lower_struct_args_pass(options: &LowerStructArgsOptions) -> Pass {
    options.create_pass()
}

#[cfg(test)]
mod tests;
