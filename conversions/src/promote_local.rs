//! `promote-local-arrays`: per-thread arrays indexed by counted loops
//! become registers instead of `.local` memory, as NVIDIA's compiler
//! (cicc) keeps them.
//!
//! A per-thread array (`float acc[8][8]`, llm.c's `Packed128` values)
//! indexed by the counter of a loop with a constant trip count stays in
//! local memory after LLVM's -O2 whenever its unroller finds the loop too
//! expensive to unroll (inline asm, many `fma`s): SROA cannot split an
//! array indexed dynamically, and `llc` addresses it with `ld.local` /
//! `st.local` (hundreds of cycles a miss, and stack for every thread).
//! This pass unrolls such loops fully where the arrays they index fit the
//! register budget, and makes every index a constant; `llc`'s SROA (and
//! LLVM's, where `-O2` runs after ptxcc) then promotes the arrays.
//!
//! What it does, per function:
//! - copies a device function's written `byval` parameter (at most 64
//!   bytes, written at constant offsets) into a slot of its own
//!   ([`params`]), which SROA promotes where the `.param` itself was
//!   written through its address (a `.local` copy in PTX);
//! - finds the natural loops with one latch that leave from one place (the
//!   latch, or the header) and have a constant trip count (any nesting;
//!   [`loops`]);
//! - finds the allocas with a dynamic index ([`candidates`]) whose indices
//!   are expressions ([`eval`]) of such loops' counters, or sit outside
//!   every loop and reach at most `max-select-elements` elements
//!   ([`select`]), and whose other uses SROA handles (loads, stores, GEPs,
//!   casts, `memcpy`, `memmove`, `memset`, lifetime markers,
//!   `ptxcc.copy_param`);
//! - decides by cost, in order: an alloca is promoted while the promoted
//!   bytes stay within `max-promoted-registers` 32-bit registers and the ops
//!   unrolling and selects add within `max-unrolled-ops` (each alloca's
//!   loops counted once, inner loops unrolled inside outer ones); an alloca
//!   that frees no stack, its place in `llc`'s frame shared (by lifetime
//!   markers, [`frame`]) with allocas that stay in local memory, is kept,
//!   and the others are chosen again without it;
//! - unrolls the chosen loops, innermost first ([`unroll`]), writes each
//!   access at an index outside loops as selects over the elements it may
//!   reach, writes every index of the promoted allocas as a constant in its
//!   GEP (where MLIR's own `sroa` and `mem2reg` see it too), and writes
//!   their `memset`s as stores ([`memset`]: `llc` would make each a loop).
//!
//! With `promote-remarks=true` each alloca it considered gets a remark at its
//! location: promoted (bytes, loops unrolled) or kept, with the reason.
//!
//! Before:
//! ```mlir
//! llvm.func @sum(%out: !llvm.ptr, %v: f32) {
//!   %c0 = llvm.mlir.constant(0 : i32) : i32
//!   %c1 = llvm.mlir.constant(1 : i32) : i32
//!   %c4 = llvm.mlir.constant(4 : i32) : i32
//!   %a = llvm.alloca %c1 x !llvm.array<4 x f32> : (i32) -> !llvm.ptr
//!   llvm.br ^loop(%c0 : i32)
//! ^loop(%k: i32):
//!   %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x f32>
//!   llvm.store %v, %p : f32, !llvm.ptr
//!   %next = llvm.add %k, %c1 : i32
//!   %done = llvm.icmp "eq" %next, %c4 : i32
//!   llvm.cond_br %done, ^exit, ^loop(%next : i32)
//! ^exit:
//!   llvm.return
//! }
//! ```
//! After (the four iterations in one block, every index a constant):
//! ```mlir
//!   llvm.br ^loop(%c0 : i32)
//! ^loop(%k: i32):
//!   %p0 = llvm.getelementptr %a[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
//!   llvm.store %v, %p0 : f32, !llvm.ptr
//!   %p1 = llvm.getelementptr %a[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x f32>
//!   llvm.store %v, %p1 : f32, !llvm.ptr
//!   ...
//!   llvm.br ^exit
//! ```

pub mod bytes;
pub mod candidates;
pub mod eval;
pub mod frame;
pub mod loops;
pub mod memset;
pub mod params;
pub mod select;
pub mod unroll;

use melior::ir::{block::BlockLike, operation::OperationLike, Location, OperationRef, RegionLike};
use ptxcc_dialect::verify::emit_remark;

use crate::ir::{natural_loops, Cfg};
use crate::{
    abi::frame::allocas,
    ir::{as_result, first_result, fold_gep_index, HashMap, HashSet, OperationExt, Rewriter},
    options::declare_pass,
    pass::PtxccPass,
};
use candidates::{added_ops, analyze, Refusal};
use eval::{evaluate, Env};
use loops::{counted, Limits};

declare_pass! {
    /// Options of `promote-local-arrays`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct PromoteLocalArraysOptions {
        /// The 32-bit registers the promoted arrays of one function may
        /// take in all (their bytes / 4), out of PTX's 255 per thread.
        pub max_promoted_registers: u64 = option(
            "max-promoted-registers",
            "128",
            "32-bit registers the promoted arrays of one function may take in all (bytes / 4), of the 255 a thread has"
        ),
        /// The ops unrolling and selects may add to one function.
        pub max_unrolled_ops: u64 = option(
            "max-unrolled-ops",
            "4096",
            "ops unrolling and selects may add to one function"
        ),
        /// The most elements a dynamic index outside loops may reach for
        /// its loads and stores to become selects.
        pub max_select_elements: u64 = option(
            "max-select-elements",
            "16",
            "the most elements an index outside loops (that no unrolling makes constant) may reach for its loads and stores to become selects over them"
        ),
        /// The most iterations of a loop it unrolls.
        pub max_trip_count: u64 = option(
            "max-trip-count",
            "128",
            "the most iterations of a loop it unrolls fully"
        ),
        /// A remark at every alloca considered: promoted or kept, and why.
        pub remarks: bool = option(
            "promote-remarks",
            "false",
            "a remark at every alloca with a dynamic index: promoted (bytes, loops) or kept in local memory, and why"
        ),
    }
    pass "promote-local-arrays" (PromoteLocalArrays) on crate::ir::LLVM_FUNC:
        "Unroll counted loops that index per-thread arrays so that the arrays become registers, within a register and size budget";
    fn run(&self, function) -> bool {
        promote_local_arrays(function, self).is_ok()
    }
}

/// What became of one alloca with a dynamic index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Promoted: its size in bytes, the trip counts of the loops unrolled
    /// for it, and the dynamic accesses written as selects (how many, over
    /// at most how many elements).
    Promoted(u64, Vec<u64>, Option<(usize, i64)>),
    /// Kept in local memory, and why.
    Kept(Refusal),
    /// A written `byval` parameter of a device function copied into a slot
    /// SROA promotes ([`params`]): its size in bytes.
    Copied(u64),
}

impl std::fmt::Display for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Self::Promoted(bytes, trips, selects) => {
                write!(f, "promoted to registers: {bytes} bytes")?;
                if !trips.is_empty() {
                    let trips: Vec<String> = trips.iter().map(u64::to_string).collect();
                    write!(f, "; loops unrolled with {} iterations", trips.join(", "))?;
                }
                if let Some((accesses, elements)) = selects {
                    write!(f, "; {accesses} dynamic access(es) as selects over {elements} elements")?;
                }
                Ok(())
            }
            Self::Kept(why) => write!(f, "kept in local memory: {why}"),
            Self::Copied(bytes) => write!(f, "written byval parameter copied to registers: {bytes} bytes"),
        }
    }
}

/// An internal error of the pass: what it did to a function did not
/// verify (or it panicked), and the function was put back as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("internal error in promote-local-arrays: {0}")]
pub struct InternalError(pub String);

/// Whether an internal error of an optimization is an error (the compile
/// fails) rather than a warning (the function is compiled as it came):
/// `PTXCC_FALLBACK=error` or `=warn`, and otherwise an error in debug
/// builds and a warning in release ones. The test suite and the fuzzers
/// set `error`, so that the fallback never hides a bug from us.
pub fn fallback_is_error() -> bool {
    static MODE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *MODE.get_or_init(|| match std::env::var("PTXCC_FALLBACK").as_deref() {
        Ok("error") => true,
        Ok("warn") => false,
        _ => cfg!(debug_assertions),
    })
}

/// Promotes what it can of `func`'s per-thread arrays (see the module
/// documentation); returns each considered alloca's location and
/// decision, in the function's order.
///
/// The pass is an optimization, so it never fails a compile: when what it
/// did to `func` does not verify (or it panics), `func` is put back as it
/// was before the pass touched it, with a warning at each alloca it had
/// changed ("not promoted: internal error ..., please report"), and the
/// compile goes on with `llc`'s code. Where [`fallback_is_error`] says so,
/// the same is an error instead, and the result is `Err`.
pub fn promote_local_arrays<'c>(
    func: OperationRef<'c, '_>,
    options: &PromoteLocalArraysOptions,
) -> Result<Vec<(Location<'c>, Decision)>, InternalError> {
    if !might_change(func) {
        return Ok(Vec::new());
    }
    // Every op the pass erases is freed when it returns ([`Rewriter`]).
    let mut rewriter = Rewriter::new();
    let snapshot = rewriter.clone(func);
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| promote(func, options, &mut rewriter)));
    let (decisions, problem) = match outcome {
        Ok(decisions) => {
            rewriter.flush();
            let changed = decisions.iter().any(|(_, d)| matches!(d, Decision::Promoted(..) | Decision::Copied(_)));
            let problem = changed.then(|| ptxcc_shim::verify_quietly(func.to_raw()).err()).flatten();
            (decisions, problem)
        }
        // (What the panicking run listed for erasure is in the body that
        // goes: nothing is flushed.)
        Err(payload) => (Vec::new(), Some(crate::pass::panic_message(payload.as_ref()))),
    };
    let Some(problem) = problem else { return Ok(report(decisions, options)) };
    rewriter.restore_body(func, snapshot);
    let mut changed: Vec<Location> = decisions
        .iter()
        .filter(|(_, d)| matches!(d, Decision::Promoted(..) | Decision::Copied(_)))
        .map(|(location, _)| *location)
        .collect();
    if changed.is_empty() {
        changed.push(func.location());
    }
    let error = fallback_is_error();
    for location in changed {
        match error {
            true => ptxcc_dialect::verify::emit_error(
                location,
                &format!("internal error in promote-local-arrays: {problem} (PTXCC_FALLBACK=error); please report"),
            ),
            false => ptxcc_dialect::verify::emit_warning(
                location,
                &format!("not promoted: internal error in promote-local-arrays ({problem}); the function is compiled as it came; please report"),
            ),
        }
    }
    if error {
        return Err(InternalError(problem));
    }
    let decisions = decisions
        .into_iter()
        .map(|(location, decision)| match decision {
            Decision::Promoted(..) | Decision::Copied(_) => {
                (location, Decision::Kept(Refusal::Internal(problem.clone())))
            }
            kept => (location, kept),
        })
        .collect();
    Ok(report(decisions, options))
}

/// Whether `func` has anything the pass may change: an alloca with a
/// dynamic index, or (a device function) a `byval` parameter. (Cheap: most
/// functions have neither, and pay for no snapshot.)
fn might_change(func: OperationRef) -> bool {
    let byval = !crate::kernel::is_kernel(func)
        && crate::kernel::entry_block(func).is_some_and(|entry| {
            (0..entry.argument_count())
                .any(|index| crate::kernel::parameter_attribute(func, index, crate::kernel::LLVM_BYVAL).is_some())
        });
    byval || allocas(func).into_iter().any(|alloca| first_result(alloca).is_some_and(candidates::has_dynamic_index))
}

/// The pass's work on `func` (see [`promote_local_arrays`]), every change
/// made through `rewriter`.
fn promote<'c>(
    func: OperationRef<'c, '_>,
    options: &PromoteLocalArraysOptions,
    rewriter: &mut Rewriter,
) -> Vec<(Location<'c>, Decision)> {
    let budget = options.max_promoted_registers.saturating_mul(4);
    // Written byval parameters first: their copies take from the budget.
    let copied = params::copy_written_byval(func, budget, rewriter);
    let copied_bytes: u64 = copied.iter().map(|(_, bytes)| bytes).sum();
    let mut decisions: Vec<(Location<'c>, Decision)> =
        copied.into_iter().map(|(location, bytes)| (location, Decision::Copied(bytes))).collect();
    // Most functions have no alloca with a dynamic index: they pay one walk.
    let every = allocas(func);
    let slots: Vec<_> = every
        .iter()
        .copied()
        .filter(|alloca| first_result(*alloca).is_some_and(candidates::has_dynamic_index))
        .collect();
    let Some(entry) = func.region_at(0).ok().and_then(|r| r.first_block()) else { return decisions };
    let limits = Limits { trips: options.max_trip_count, ops: options.max_unrolled_ops };
    if slots.is_empty() {
        return decisions;
    }
    let cfg = Cfg::new(entry);
    let found: Vec<_> = natural_loops(&cfg)
        .into_iter()
        .map(|l| {
            let verdict = counted(&cfg, &l, limits);
            (l, verdict)
        })
        .collect();
    let analysis = analyze(&cfg, &found, &slots);
    if analysis.is_empty() {
        return decisions;
    }

    let dynamic: HashSet<_> = analysis.iter().map(|(alloca, _)| alloca.to_raw().ptr).collect();
    let liveness = frame::SlotLiveness::of(&cfg, &every, |alloca| dynamic.contains(&alloca.to_raw().ptr));
    let slot_of: HashMap<_, usize> = every.iter().enumerate().map(|(i, op)| (op.to_raw().ptr, i)).collect();
    let slots: Vec<Option<usize>> =
        analysis.iter().map(|(alloca, _)| slot_of.get(&alloca.to_raw().ptr).copied()).collect();
    let shapes: Vec<crate::ir::Loop> = found.iter().map(|(shape, _)| shape.clone()).collect();
    let choice = Choice { cfg: &cfg, found: &found, shapes: &shapes, slots: &slots, copied_bytes, budget, options };
    // An array whose place in the frame stays taken by arrays kept in
    // local memory frees no stack: it is kept, and the others are chosen
    // again without it (the budgets it took are free), until every
    // promoted array frees stack (or for a few rounds: what is left out
    // after the last is kept; a function too large to weigh each array's
    // frame keeps what the budgets chose).
    let mut shared = vec![false; analysis.len()];
    let mut rounds = 0;
    let (kept, promoted) = loop {
        let (mut kept, mut promoted) = choice.choose(&analysis, &shared);
        if promoted.len().saturating_mul(liveness.cost()) > MAX_FRAME_WORK {
            break (kept, promoted);
        }
        let mut mask = vec![false; every.len()];
        for chosen in &promoted {
            mask[chosen.slot] = true;
        }
        let stack = liveness.frame(&mask);
        let before = promoted.len();
        for at in (0..promoted.len()).rev() {
            let chosen = &promoted[at];
            mask[chosen.slot] = false;
            if liveness.frame(&mask) > stack {
                mask[chosen.slot] = true;
            } else {
                shared[chosen.position] = true;
                kept[chosen.position] = Decision::Kept(Refusal::SharedFrame);
                promoted.remove(at);
            }
        }
        rounds += 1;
        if promoted.len() == before || rounds == MAX_ROUNDS {
            break (kept, promoted);
        }
    };
    for ((alloca, _), kept) in analysis.iter().zip(kept) {
        decisions.push((alloca.location(), kept));
    }
    let mut chosen = Vec::<usize>::new();
    let mut selects = Vec::new();
    let mut arrays = Vec::new();
    for promoted in promoted {
        for l in promoted.loops {
            if !chosen.contains(&l) {
                chosen.push(l);
            }
        }
        selects.extend(promoted.plan);
        arrays.push(promoted.alloca);
    }
    let promoted = arrays;

    // Unroll, innermost first (the analysis is redone after each: the
    // blocks change).
    let mut headers: HashSet<*mut std::ffi::c_void> =
        chosen.iter().map(|&l| cfg.blocks[found[l].0.header].to_raw().ptr).collect();
    drop(found);
    drop(shapes);
    while !headers.is_empty() {
        let cfg = Cfg::new(entry);
        let next = natural_loops(&cfg).into_iter().find(|l| headers.contains(&cfg.blocks[l.header].to_raw().ptr));
        let Some(next) = next else { break };
        headers.remove(&cfg.blocks[next.header].to_raw().ptr);
        if let Ok(loop_) = counted(&cfg, &next, limits) {
            unroll::unroll(&cfg, &loop_, rewriter);
            drop(loop_);
            // (The old back edge, dead exit tests: the CFG and the loop are
            // dropped or rebuilt before the next use.)
            rewriter.flush();
        }
    }

    // Every index of a promoted alloca is now a constant, and the others'
    // dynamic accesses are selects.
    for plan in &selects {
        select::expand(plan, rewriter);
    }
    for &alloca in &promoted {
        memset::expand_memsets(alloca, rewriter);
    }
    for alloca in promoted {
        let Some(root) = first_result(alloca) else { continue };
        for gep in candidates::all_geps(root) {
            // From the last operand: folding one removes it.
            for index in (1..gep.operand_count()).rev() {
                let Ok(operand) = gep.operand_at(index) else { continue };
                let Some(value) = evaluate(operand, &Env::default()) else { continue };
                let Some(value) = value.to_i64() else { continue };
                if fold_gep_index(gep, index, value) {
                    list_expression(operand, rewriter);
                }
            }
        }
    }
    rewriter.flush();
    decisions
}

/// The most rounds of the decision ([`Choice::choose`], then the arrays
/// that free no stack left out).
const MAX_ROUNDS: usize = 8;

/// The most work ([`frame::SlotLiveness::cost`] per promoted array) one
/// round may spend weighing the frame each promoted array frees.
const MAX_FRAME_WORK: usize = 1 << 26;

/// An alloca [`Choice::choose`] promotes.
struct Chosen<'c, 'a> {
    /// Its position in the analysis.
    position: usize,
    /// Its position among the function's allocas ([`frame::SlotLiveness`]).
    slot: usize,
    /// The `llvm.alloca`.
    alloca: OperationRef<'c, 'a>,
    /// The loops (positions in the counted loops) to unroll for it.
    loops: Vec<usize>,
    /// Its accesses written as selects.
    plan: Option<select::SelectPlan<'c, 'a>>,
}

/// What the decision of one function looks at.
struct Choice<'x, 'c, 'a> {
    cfg: &'x Cfg<'c, 'a>,
    found: &'x [(crate::ir::Loop, Result<loops::Counted<'c, 'a>, loops::NotCounted>)],
    shapes: &'x [crate::ir::Loop],
    /// Each analysed alloca's position among the function's allocas.
    slots: &'x [Option<usize>],
    /// Bytes of written byval parameters copied to registers.
    copied_bytes: u64,
    /// max-promoted-registers in bytes.
    budget: u64,
    options: &'x PromoteLocalArraysOptions,
}

impl<'c, 'a> Choice<'_, 'c, 'a> {
    /// The decision for each alloca of `analysis`, in order, within both
    /// budgets, those marked in `shared` kept for sharing their place in
    /// the frame; and the promoted ones.
    fn choose(
        &self,
        analysis: &[(OperationRef<'c, 'a>, candidates::Analysis<'c, 'a>)],
        shared: &[bool],
    ) -> (Vec<Decision>, Vec<Chosen<'c, 'a>>) {
        let (found, options, budget) = (self.found, self.options, self.budget);
        let mut used = self.copied_bytes;
        let mut chosen = Vec::<usize>::new();
        let mut promoted = Vec::new();
        let mut select_ops = 0u64;
        let mut decisions = Vec::new();
        for (position, (alloca, verdict)) in analysis.iter().enumerate() {
            let decision = match (verdict, self.slots[position]) {
                (Err(why), _) => Decision::Kept(why.clone()),
                _ if shared[position] => Decision::Kept(Refusal::SharedFrame),
                (Ok(_), None) => Decision::Kept(Refusal::NotCounter),
                (Ok(candidate), Some(slot)) => {
                    let mut with: Vec<usize> = chosen.clone();
                    with.extend(candidate.loops.iter().filter(|l| !chosen.contains(l)));
                    let before = added_ops(found, &chosen) + select_ops;
                    let plan = match candidate.selects.is_empty() {
                        true => Ok(None),
                        false => first_result(*alloca)
                            .ok_or(Refusal::NotCounter)
                            .and_then(|root| {
                                select::plan(
                                    self.cfg,
                                    self.shapes,
                                    root,
                                    candidate.bytes,
                                    options.max_select_elements,
                                    |gep| candidate.selects.contains(&gep),
                                )
                            })
                            .map(Some),
                    };
                    let added = plan.as_ref().map_or(0, |p| p.as_ref().map_or(0, |p| p.ops));
                    let after = added_ops(found, &with) + select_ops + added;
                    match plan {
                        Err(other) => {
                            let why = candidate.why.clone().unwrap_or(Refusal::NotCounter);
                            Decision::Kept(Refusal::Neither(Box::new(why), Box::new(other)))
                        }
                        Ok(_) if used.saturating_add(candidate.bytes) > budget => {
                            Decision::Kept(Refusal::Registers(candidate.bytes, budget.saturating_sub(used)))
                        }
                        Ok(_) if after > options.max_unrolled_ops => Decision::Kept(Refusal::Size(
                            after - before,
                            options.max_unrolled_ops.saturating_sub(before),
                        )),
                        Ok(plan) => {
                            used += candidate.bytes;
                            chosen = with;
                            select_ops += plan.as_ref().map_or(0, |p| p.ops);
                            let trips = candidate
                                .loops
                                .iter()
                                .filter_map(|l| found[*l].1.as_ref().ok().map(|c| c.trips))
                                .collect();
                            let selected = plan.as_ref().map(|p| (p.accesses.len(), p.elements));
                            promoted.push(Chosen {
                                position,
                                slot,
                                alloca: *alloca,
                                loops: candidate.loops.clone(),
                                plan,
                            });
                            Decision::Promoted(candidate.bytes, trips, selected)
                        }
                    }
                }
            };
            decisions.push(decision);
        }
        (decisions, promoted)
    }
}

/// Emits the remarks of `decisions` when `promote-remarks` asks for them;
/// returns them.
fn report<'c>(
    decisions: Vec<(Location<'c>, Decision)>,
    options: &PromoteLocalArraysOptions,
) -> Vec<(Location<'c>, Decision)> {
    if options.remarks {
        for (location, decision) in &decisions {
            emit_remark(*location, &decision.to_string());
        }
    }
    decisions
}

/// Lists the ops that compute `value` (an index expression, see
/// [`eval`]) for erasure where nothing else uses them, the counter
/// constants at their leaves included.
fn list_expression(value: melior::ir::Value, rewriter: &mut Rewriter) {
    let mut work = vec![value];
    let mut seen = HashSet::default();
    while let Some(value) = work.pop() {
        let Some(op) = as_result(value).map(|r| r.owner()) else { continue };
        if !seen.insert(op.to_raw().ptr) || op.region_count() > 0 {
            continue;
        }
        rewriter.erase_later_if_unused(op);
        work.extend((0..op.operand_count()).filter_map(|i| op.operand_at(i).ok()));
    }
}

/// The `promote-local-arrays` pass, anchored on `llvm.func`.
pub fn create_promote_local_arrays_pass(options: &PromoteLocalArraysOptions) -> melior::pass::Pass {
    options.create_pass()
}
