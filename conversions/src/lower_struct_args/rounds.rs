//! The device functions' side of `lower-struct-args`: the split of
//! externally visible functions ([`external`]), then rounds of planning and
//! rewriting until no plan changes, then the check of the `byval`
//! parameters device functions keep.
//!
//! Each step works per function on the context's thread pool (planning
//! reads; a rewrite changes one function: the call sites in it, or its own
//! signature and body), and one walk of the module's symbol uses serves
//! them all: the split and each round update it with the calls they
//! change. The output does not depend on the number of threads.

use melior::ir::{operation::OperationLike, OperationRef};
use ptxcc_dialect::verify::{emit_error, emit_remark};

use super::{
    byval_parameters, device, external, plan_argument, symbols, LowerStructArgsOptions, PlanContext, ReadOnlyAnalysis,
};

use crate::{
    abi::{signature::function_signature, DataLayout},
    ir::module_functions,
    kernel::{is_kernel, parameter_attribute, LLVM_BYVAL},
    options::TargetCache,
};

/// Flattens the parameters and `sret`-converts the results of the device
/// functions whose calls are all visible, with their call sites
/// ([`device`]).
pub(super) fn lower_device_functions<'c, 'a>(
    module: OperationRef<'c, 'a>,
    options: &LowerStructArgsOptions,
    layout: &DataLayout,
    rewriter: &mut crate::ir::Rewriter,
) -> crate::ir::HashMap<String, symbols::SymbolUses<'c, 'a>> {
    let thresholds = options.thresholds();
    // Externally visible functions the module calls: an internal clone for
    // the module's calls (or, for a whole program, internal linkage), which
    // the rounds below then lower like any local function.
    // One walk of the module's symbol uses serves the split and every
    // round: the split and the rounds keep it true as they change calls
    // (a walk reads every op of the module: ~2% of a pipeline run).
    let mut symbols = symbols::symbol_uses(module);
    external::split_external_functions(module, &mut symbols, layout, &thresholds, options, rewriter);
    // Calls are rebuilt where they are: who calls whom stays as it is.
    let graph = symbols::CallGraph::new(&symbols);
    // The functions to plan in this round: all of them in the first, then
    // those the last round's rewrites can have changed the plan of.
    let mut to_plan: Option<crate::ir::HashSet<String>> = None;
    // The module's functions and their names, found once: rounds change
    // signatures and bodies, never which functions there are.
    let all: Vec<_> =
        module_functions(module).into_iter().map(|func| (func, crate::abi::signature::function_name(func))).collect();
    // Rounds until nothing changes: rewriting one function's call sites can
    // make its callers' parameters plain leaf reads (a struct forwarded to
    // a flattened callee is read leaf by leaf), which the next round
    // flattens in turn.
    for _ in 0..MAX_ROUNDS {
        let first_round = to_plan.is_none();
        let functions: Vec<_> = all
            .iter()
            .filter(|(_, name)| {
                // The others' plans are what they were in the last round:
                // none (checked in debug builds).
                cfg!(debug_assertions) || to_plan.as_ref().is_none_or(|names| names.contains(name))
            })
            .collect();
        let plan_chunk = |chunk: &[&(OperationRef<'c, 'a>, String)]| {
            let mut targets = TargetCache::default();
            let mut found = Vec::new();
            for &(func, name) in chunk {
                let target = device_target(*func, options, &mut targets);
                let policy = device::PlanPolicy {
                    layout,
                    thresholds: &thresholds,
                    lower_byval: options.opt_byval,
                    target: &target,
                    flatten_kernels: options.flatten_kernel_args,
                };
                let plan = device::plan_function(*func, symbols.get(name.as_str()), &policy);
                if to_plan.as_ref().is_some_and(|names| !names.contains(name)) {
                    debug_assert!(plan.is_none(), "'@{name}' would change after a round that did not touch it");
                    continue;
                }
                found.extend(plan.map(|plan| (name.clone(), plan)));
            }
            found
        };
        // SAFETY: planning only reads the IR (and the symbol map), and each
        // chunk has its own target cache; nothing is rewritten until every
        // chunk is planned.
        let plans = unsafe { crate::ir::parallel_chunks(module, &functions, plan_chunk) };
        if first_round {
            for &(func, name) in &functions {
                if crate::kernel::has_body(*func) && !is_kernel(*func) && crate::kernel::is_variadic(*func) {
                    emit_remark(
                        func.location(),
                        &format!(
                            "lower-struct-args leaves the variadic function '@{name}' as it is: its fixed parameters keep their form, and llc passes the variadic arguments in one .param buffer"
                        ),
                    );
                }
            }
        }
        if plans.is_empty() {
            break;
        }
        let (names, plans): (Vec<String>, Vec<_>) = plans.into_iter().unzip();
        let new_calls = device::rewrite_functions(module, &plans, rewriter);
        for (name, calls) in names.iter().zip(new_calls) {
            if let Some(uses) = symbols.get_mut(name) {
                uses.calls = calls;
            }
        }
        to_plan = Some(graph.affected_by(names.iter().map(String::as_str)));
    }
    debug_assert!(
        symbols::same_uses(&symbols, &symbols::symbol_uses(module)),
        "the symbol uses kept through the rounds are those of the module"
    );
    symbols
}

/// The target a device function's parameters are decided for: its own (or
/// the options'), else the default chip (a bad `chip` option was reported
/// when the pass started).
pub(crate) fn device_target(
    func: OperationRef,
    options: &LowerStructArgsOptions,
    cache: &mut TargetCache,
) -> crate::abi::target::Target {
    options.target.target_of_cached(func, cache).unwrap_or_else(|_| {
        crate::abi::target::Target::new(crate::options::DEFAULT_CHIP, None).expect("the default chip is known")
    })
}

/// Checks the `byval` parameters that remain in device functions: one that
/// needs a local copy above `max-byval-size` is an error. Returns
/// (functions with problems, problems).
pub(super) fn check_device_byval<'c, 'a>(
    module: OperationRef<'c, 'a>,
    options: &LowerStructArgsOptions,
    layout: &DataLayout,
    readonly: &ReadOnlyAnalysis<'c, 'a>,
) -> (usize, usize) {
    if !options.opt_byval {
        return (0, 0);
    }
    // (The signature is worked out only for a function with a `byval`
    // parameter: most have none.)
    let functions: Vec<_> = module_functions(module)
        .into_iter()
        .filter(|func| !is_kernel(*func) && crate::kernel::has_body(*func) && has_byval_parameter(*func))
        .collect();
    let check_chunk = |chunk: &[OperationRef<'c, 'a>]| {
        let mut readonly = readonly.fresh();
        let context = PlanContext { layout, has_cvta_param: false, max_copy: options.max_byval_size, kernel: false };
        chunk
            .iter()
            .map(|func| {
                let signature = function_signature(*func, false);
                let mut huge = Vec::new();
                for parameter in byval_parameters(*func, signature.as_ref().ok(), layout) {
                    if let Err(errors) = plan_argument(*func, parameter, context, &mut readonly) {
                        huge.extend(errors.into_iter().filter(|p| p.huge).map(|p| (p.location, p.message)));
                    }
                }
                huge
            })
            .collect()
    };
    // SAFETY: planning only reads the IR; each chunk has its own caches.
    let found: Vec<Vec<_>> = unsafe { crate::ir::parallel_chunks(module, &functions, check_chunk) };
    let (mut failed, mut problems) = (0, 0);
    for huge in found.iter().filter(|huge| !huge.is_empty()) {
        for (location, message) in huge {
            emit_error(*location, message);
        }
        failed += 1;
        problems += huge.len();
    }
    (failed, problems)
}

/// Most rounds of device-function lowering (each may enable the next one
/// level up a chain of calls that forward a struct).
const MAX_ROUNDS: usize = 8;

/// Whether some parameter of `func` is `byval`.
fn has_byval_parameter(func: OperationRef) -> bool {
    (0..crate::kernel::parameter_count(func)).any(|index| parameter_attribute(func, index, LLVM_BYVAL).is_some())
}
