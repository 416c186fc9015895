//! Externally visible device functions (CUDA's non-`static` `__device__`
//! functions, `define dso_local` in clang's IR).
//!
//! Their signature cannot change: code outside the module may call them.
//! But the module's own calls can go elsewhere. A function whose lowered
//! ABI would differ is split in two before the device functions are
//! planned:
//!
//! - an internal clone (`name_ptxcc`) takes the body, and every direct call
//!   in the module goes to it; being local with every call in view, the
//!   device-function lowering then flattens, passes `sret` and forwards it
//!   like a `static` function;
//! - the public symbol keeps its ABI as a thin wrapper whose body is one
//!   call of the clone (no body is duplicated), for callers outside the
//!   module and for its address; an address-taken wrapper is marked
//!   `nvptx-libcall-callee` (seed 003's indirect-call wrappers). The clone
//!   goes before the wrapper: llc declares a function ahead of its
//!   definition only for callers it has printed, and never counts a
//!   `nvptx-libcall-callee` function as printed, so a clone after its
//!   wrapper was called undeclared (ptxas: "Unknown symbol").
//!
//! A local function whose address is taken is split the same way (its
//! indirect calls go through the wrapper, its direct calls to the clone).
//! Where the address is taken, the split is made only when the clone frees
//! memory (a `byval` passed as a value, an `sret`): the module's indirect
//! calls pay one call more through the wrapper, a frame more per level
//! where a function recurses through its own address (ptxas: 8 + 16 bytes
//! of stack and spills became 16 + 24 for a `{bf16}` taken as its leaf).
//! With `whole-program` (nothing outside the module calls a device function:
//! `nvcc -rdc=false`, clang without `-fgpu-rdc`) externally visible
//! functions are made internal instead, and a wrapper is left only where
//! the address is taken (internal too).
//!
//! Before:
//!
//! ```mlir
//! llvm.func @dot(%a: !llvm.struct<(f32, f32)>) -> f32 { ... }
//! llvm.func ptx_kernelcc @k(...) { %r = llvm.call @dot(%v) ... }
//! ```
//!
//! After (and after the device-function lowering of `@dot_ptxcc`):
//!
//! ```mlir
//! llvm.func @dot(%a: !llvm.struct<(f32, f32)>) -> f32 {
//!   %x = llvm.extractvalue %a[0] ...   %y = llvm.extractvalue %a[1] ...
//!   %r = llvm.call @dot_ptxcc(%x, %y) : (f32, f32) -> f32
//!   llvm.return %r : f32
//! }
//! llvm.func internal @dot_ptxcc(%x: f32, %y: f32) -> f32 { ... }
//! llvm.func ptx_kernelcc @k(...) { ... llvm.call @dot_ptxcc(%x, %y) ... }
//! ```

use crate::ir::LlvmOp;
use crate::ir::{HashMap, HashSet};

use melior::ir::{
    attribute::{ArrayAttribute, DenseI32ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute},
    block::BlockLike,
    operation::{OperationBuilder, OperationLike},
    r#type::IntegerType,
    Attribute, Block, Identifier, Location, OperationRef, Region, RegionLike, Type, Value,
};

use super::{
    device::{would_change_as_local, PlanPolicy},
    symbols::SymbolUses,
    LowerStructArgsOptions,
};
use crate::kernel::{is_variadic, parameter_types, result_type};
use crate::{
    abi::{classify::Thresholds, DataLayout},
    context::context_of,
    ir::{module_functions, BlockExt, OperationExt},
    kernel::{has_body, is_kernel, is_local_symbol, linkage},
};

/// The suffix of an internal clone's name.
pub const CLONE_SUFFIX: &str = "_ptxcc";

/// Linkages whose definition in this module is the one the module's calls
/// run (ODR kinds included: every definition is equivalent); `weak`,
/// `linkonce`, `available_externally` and the like may be replaced at link
/// time, so their calls must go through the symbol.
fn definition_is_final(func: OperationRef) -> bool {
    matches!(
        linkage(func),
        crate::ir::LlvmLinkage::External | crate::ir::LlvmLinkage::LinkonceOdr | crate::ir::LlvmLinkage::WeakOdr
    )
}

/// Splits every device function that the module calls, whose lowered ABI
/// would differ, and that is externally visible (with a final definition)
/// or has its address taken; with `whole_program` an externally visible one
/// whose address is not taken is made internal instead. `symbols` are the
/// module's symbol uses ([`super::symbols::symbol_uses`]), kept true
/// through the splits (no walk of the module again). Returns how many it
/// changed.
///
/// Which functions change is decided on the context's thread pool: a
/// decision reads the function, its calls and its callers' bodies, and a
/// split changes none of what another decision reads (it moves a body op
/// for op and renames the callee of the function's own calls). The changes
/// are then made in the module's order.
pub fn split_external_functions<'c, 'a>(
    module: OperationRef<'c, 'a>,
    symbols: &mut HashMap<String, SymbolUses<'c, 'a>>,
    layout: &DataLayout,
    thresholds: &Thresholds,
    options: &LowerStructArgsOptions,
    rewriter: &crate::ir::Rewriter,
) -> usize {
    let (lower_byval, whole_program) = (options.opt_byval, options.whole_program);
    let functions = module_functions(module);
    // (Names are read as the context's strings: no copy per function.)
    let mut defined: HashMap<&'c str, usize> = HashMap::default();
    for func in &functions {
        *defined.entry(crate::ir::symbol_name(*func)).or_default() += 1;
    }
    let position: HashMap<_, usize> =
        functions.iter().enumerate().map(|(index, func)| (func.to_raw().ptr, index)).collect();
    let candidates: Vec<(OperationRef<'c, 'a>, &'c str)> = functions
        .iter()
        .map(|func| (*func, crate::ir::symbol_name(*func)))
        .filter(|(func, name)| {
            if is_kernel(*func) || !has_body(*func) || is_variadic(*func) || defined.get(name) != Some(&1) {
                return false;
            }
            let local = is_local_symbol(*func);
            // A local function whose address is not taken has every use in
            // view already; one whose definition may be replaced at link
            // time must be called through its symbol.
            symbols.get(*name).is_some_and(|uses| {
                !uses.calls.is_empty()
                    && !uses.musttail
                    && (uses.other || !local)
                    && (local || definition_is_final(*func))
            })
        })
        .collect();
    let shared: &HashMap<String, SymbolUses<'c, 'a>> = symbols;
    let decide_chunk = |chunk: &[(OperationRef<'c, 'a>, &'c str)]| {
        let mut targets = crate::options::TargetCache::default();
        chunk
            .iter()
            .map(|(func, name)| {
                let uses = &shared[*name];
                let target = super::device_target(*func, options, &mut targets);
                let policy = PlanPolicy { layout, thresholds, lower_byval, target: &target, flatten_kernels: false };
                // Where the address is taken, the module's indirect calls
                // reach the wrapper, which calls the clone: one call more (a
                // frame more per level where it recurses through its
                // address), worth it only where the clone frees memory;
                // redeclaring an aggregate value as its leaves is not.
                would_change_as_local(*func, uses.calls.clone(), &policy)
                    .is_some_and(|plan| !uses.other || plan.frees_memory())
            })
            .collect()
    };
    // SAFETY: deciding only reads the IR and the symbol uses; each chunk
    // has its own target cache. Nothing changes until every chunk is done.
    let changes: Vec<bool> = unsafe { crate::ir::parallel_chunks(module, &candidates, decide_chunk) };
    // Every symbol of the module (globals, aliases, ifuncs, functions, and
    // the clones made below): a clone's name must be free of all of them.
    let module_symbols: HashSet<&'c str> =
        crate::ir::body_ops(module).into_iter().map(crate::ir::symbol_name).collect();
    let mut made: HashSet<String> = HashSet::default();
    let mut changed = 0;
    for ((func, name), _) in candidates.into_iter().zip(changes).filter(|(_, change)| *change) {
        let local = is_local_symbol(func);
        let Some(uses) = symbols.remove(name) else { continue };
        if !uses.other && !local && whole_program {
            // Nothing outside the module calls it and nothing takes its
            // address: internal, and every use is a call in view.
            make_internal(func);
            symbols.insert(name.to_string(), uses);
        } else {
            let clone = fresh_name(name, |candidate| {
                module_symbols.contains(candidate) || defined.contains_key(candidate) || made.contains(candidate)
            });
            made.insert(clone.clone());
            let wrapper_call = split(func, &clone, &uses.calls, uses.other, rewriter);
            if !local && whole_program {
                make_internal(func);
            }
            // The clone takes every call, and the wrapper's, which comes
            // after those in functions up to the wrapper (the clone, just
            // before it, included) in the module's order, as a walk finds it.
            let at = position[&func.to_raw().ptr];
            let before = uses.calls.partition_point(|call| {
                crate::kernel::enclosing_function(*call)
                    .is_some_and(|caller| position.get(&caller.to_raw().ptr).map_or(at, |p| *p) <= at)
            });
            let mut calls = uses.calls;
            calls.insert(before, wrapper_call);
            symbols.insert(clone, SymbolUses { calls, other: false, musttail: false });
            symbols.insert(name.to_string(), SymbolUses { calls: Vec::new(), other: uses.other, musttail: false });
        }
        changed += 1;
    }
    changed
}

/// `name_ptxcc`, or `name_ptxcc_N` for the first `N` that no symbol has.
fn fresh_name(name: &str, taken: impl Fn(&str) -> bool) -> String {
    let base = format!("{name}{CLONE_SUFFIX}");
    if !taken(&base) {
        return base;
    }
    // Finitely many names are taken: some candidate is free.
    (1..=usize::MAX).map(|n| format!("{base}_{n}")).find(|c| !taken(c)).unwrap_or(base)
}

/// Gives `func` internal linkage, and the default visibility that local
/// linkage requires (LLVM's verifier rejects a `hidden` or `protected`
/// symbol with local linkage).
fn make_internal(func: OperationRef) {
    let context = context_of(func);
    if let Some(attribute) = Attribute::parse(context, "#llvm.linkage<internal>") {
        crate::ir::set_attribute(func, "linkage", attribute);
    }
    crate::ir::set_attribute(
        func,
        "visibility_",
        IntegerAttribute::new(IntegerType::new(context, 64).into(), 0).into(),
    );
}

/// Moves the body of `func` into an internal clone called `clone_name`,
/// sends `calls` there, and leaves `func` as a wrapper that calls it;
/// returns the wrapper's call.
fn split<'c, 'a>(
    func: OperationRef<'c, 'a>,
    clone_name: &str,
    calls: &[OperationRef<'c, 'a>],
    address_taken: bool,
    rewriter: &crate::ir::Rewriter,
) -> OperationRef<'c, 'a> {
    let context = context_of(func);
    // The calls first: a recursive call in the body is then copied into the
    // clone already calling the clone (cloned first, it kept calling the
    // wrapper, which passes its struct in memory: a local slot per level).
    let callee: Attribute = FlatSymbolRefAttribute::new(context, clone_name).into();
    for call in calls {
        crate::ir::set_attribute(*call, "callee", callee);
    }
    // The body moves into the clone, op for op (nothing is copied or freed:
    // what analyses hold of it stays valid, now inside the clone). The
    // clone is made while the function has no body, so cloning copies
    // only the function op.
    let region = func.region_at(0).expect("a function body");
    let body = Region::new();
    let moved_out = rewriter.move_body(&region, &body);
    debug_assert!(moved_out, "a fresh region is empty");
    // (The clone is owned until inserted below.) It goes before the
    // wrapper: llc declares a function ahead of its definition only for
    // callers it has already emitted, and never counts a function marked
    // `nvptx-libcall-callee` as emitted, so a clone after an address-taken
    // wrapper was called undeclared ("Unknown symbol" from ptxas).
    let clone = rewriter.clone(func);
    let block = func.block().expect("a function in a module");
    let clone = block.insert_operation_before(func, clone);
    let moved_in = rewriter.move_body(&body, &clone.region_at(0).expect("an llvm.func has a body region"));
    debug_assert!(moved_in, "a clone of a function without a body has none");
    crate::ir::set_attribute(clone, "sym_name", StringAttribute::new(context, clone_name).into());
    crate::ir::remove_attribute(clone, "sym_visibility");
    make_internal(clone);

    // The wrapper: the body went to the clone, one call remains. A
    // debug-info location names the subprogram the clone now owns; LLVM
    // allows one function per subprogram, so the wrapper gets a plain one.
    let location = plain_location(func.location());
    crate::ir::set_location(func, location);
    let parameters = parameter_types(func);
    let entry = Block::new(&parameters.iter().map(|ty| (*ty, location)).collect::<Vec<_>>());
    let arguments: Vec<Value> =
        (0..parameters.len()).filter_map(|i| entry.argument_at(i).ok().map(Into::into)).collect();
    let result = result_type(func).filter(|ty| !is_void(*ty));
    let mut attributes = vec![
        (Identifier::new(context, "callee"), callee),
        (
            Identifier::new(context, "operandSegmentSizes"),
            DenseI32ArrayAttribute::new(context, &[arguments.len() as i32, 0]).into(),
        ),
        (Identifier::new(context, "op_bundle_sizes"), DenseI32ArrayAttribute::new(context, &[]).into()),
    ];
    // The call passes what the function receives, with its parameter
    // attributes (`byval` above all: the clone's copy is the wrapper's).
    if let Ok(parameter_attributes) = func.attribute("arg_attrs") {
        attributes.push((Identifier::new(context, "arg_attrs"), parameter_attributes));
    }
    if let Ok(result_attributes) = func.attribute("res_attrs") {
        attributes.push((Identifier::new(context, "res_attrs"), result_attributes));
    }
    let call = OperationBuilder::new(LlvmOp::Call.name(), location)
        .add_operands(&arguments)
        .add_attributes(&attributes)
        .add_results(&result.into_iter().collect::<Vec<_>>())
        .build()
        .expect("a valid call");
    let call = entry.append_operation(call);
    let returned: Vec<Value> = call.result_at(0).ok().map(Into::into).into_iter().collect();
    entry.append_operation(
        OperationBuilder::new(LlvmOp::Return.name(), location).add_operands(&returned).build().expect("a valid return"),
    );
    region.append_block(entry);
    if address_taken {
        mark_libcall_callee(func);
    }
    call
}

/// Adds `["nvptx-libcall-callee", "true"]` to the `passthrough` of `func`.
fn mark_libcall_callee(func: OperationRef) {
    let context = context_of(func);
    let mut entries: Vec<Attribute> = func
        .attribute("passthrough")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok())
        .map(|array| (0..array.len()).filter_map(|i| array.element(i).ok()).collect())
        .unwrap_or_default();
    let pair =
        [StringAttribute::new(context, "nvptx-libcall-callee").into(), StringAttribute::new(context, "true").into()];
    entries.push(ArrayAttribute::new(context, &pair).into());
    crate::ir::set_attribute(func, "passthrough", ArrayAttribute::new(context, &entries).into());
}

/// `location` without the debug-info subprogram it may name, at any depth
/// (`fused<#sp>[...]`, `"name"(fused<#sp>[...])`, `callsite(fused<#sp>[...]
/// at ...)`, fused inside fused): the clone keeps the subprogram.
fn plain_location(location: Location) -> Location {
    crate::ir::location_without_subprogram(location)
}

/// Whether `ty` is `!llvm.void`.
fn is_void(ty: Type) -> bool {
    ty == crate::ir::llvm_void_like(ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_names_avoid_taken_ones() {
        let taken: HashSet<String> = ["f_ptxcc".to_string(), "f_ptxcc_1".to_string()].into_iter().collect();
        assert_eq!(fresh_name("f", |c| taken.contains(c)), "f_ptxcc_2");
        assert_eq!(fresh_name("g", |c| taken.contains(c)), "g_ptxcc");
    }
}
