//! The loops of a function body that can be unrolled fully: natural loops
//! with one latch, tested at the latch or at the header, and a trip count
//! known at compile time.
//!
//! [`Counted`] is the one description of such a loop: what [`counted`]
//! accepts is exactly what [`super::unroll`] rewrites. Its body may be any
//! CFG (diamonds, `switch`, block arguments at any merge, values of side
//! blocks merged at the latch, loops it leaves unrolled); it may leave from
//! other blocks too (`break`, `return`), each copy of such an exit staying
//! a real branch, provided no value of the loop is used after it except
//! through the exit edges' block arguments. What it refuses, it refuses
//! with the rule that refused it ([`NotCounted`]).
//!
//! This is the shape clang -O2 (LLVM's loop rotation) gives a counted
//! `for` loop, and the shape MLIR front ends give one after lowering
//! `scf.for` to a CFG and canonicalizing:
//!
//! ```mlir
//!   llvm.br ^header(%c0 : i32)                  // the only entry edge
//! ^header(%k: i32):                             // more blocks may follow
//!   ...
//!   %next = llvm.add %k, %c1 : i32
//!   %done = llvm.icmp "eq" %next, %c8 : i32
//!   llvm.cond_br %done, ^exit, ^header(%next : i32)   // the latch
//! ```
//!
//! The trip count is found by running the loop's counters: the header
//! arguments whose entry value is a constant and whose next value is an
//! expression ([`super::eval`]) of such arguments. The exit condition must
//! be an expression of them too.

use crate::ir::LlvmOp;
use melior::ir::{block::BlockLike, operation::OperationLike, BlockRef, Value};

use super::eval::{evaluate, key, leaves, Env, Evaluator, Int};
use crate::ir::{integer_width, successor_argument, uses, BlockExt, Cfg, Loop, OperationExt};

/// The most iterations [`counted`] runs a loop's counters for, whatever
/// the options say: the work and memory of the analysis stay bounded by
/// the input (a loop of 2^32 trips is found too long after this many).
pub const MAX_TRIPS_RUN: u64 = 1 << 16;

/// What bounds the loops [`counted`] accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `max-trip-count`: the most iterations of a loop unrolled.
    pub trips: u64,
    /// `max-unrolled-ops`: the ops unrolling may add to a function (a loop
    /// of `n` ops that runs more than `ops / n + 1` times can never fit).
    pub ops: u64,
}

/// A loop that can be unrolled fully, with what unrolling needs to know.
#[derive(Debug)]
pub struct Counted<'c, 'a> {
    /// The loop.
    pub shape: Loop,
    /// The only latch (the block that branches back to the header).
    pub latch: usize,
    /// The only block that leaves the loop: the latch (a bottom-tested
    /// loop, clang's rotated form) or the header (a top-tested one, MLIR's
    /// lowering of `scf.for`).
    pub exiting: usize,
    /// The block the exiting block leaves to.
    pub exit: usize,
    /// The other blocks that leave the loop (`break`, `return` inside it):
    /// each copy keeps its branch out.
    pub side_exits: Vec<usize>,
    /// The block of the loop the exiting block's test goes to when it stays
    /// (the header for a bottom-tested loop).
    pub stay: usize,
    /// How many times the latch runs (the body's iterations).
    pub trips: u64,
    /// The counters (header arguments) and their value each time the header
    /// runs (`trips` values; one more for a top-tested loop, whose header
    /// runs once more to leave).
    pub counters: Vec<(Value<'c, 'a>, Vec<Int>)>,
    /// Ops in the loop's blocks.
    pub ops: usize,
}

impl Counted<'_, '_> {
    /// Whether the loop tests at its latch (and so leaves from it).
    pub fn bottom_tested(&self) -> bool {
        self.exiting == self.latch
    }
}

/// Why a loop cannot be unrolled fully.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotCounted {
    /// More than one block branches back to the header.
    Latches,
    /// The header is entered from more than one block outside the loop.
    Entries,
    /// The loop is tested neither at its latch nor at its header by a
    /// two-way `llvm.cond_br` (or its latch does not simply branch back).
    Exits,
    /// The loop leaves from more than one place and a value of the loop is
    /// used after it other than through the exits' block arguments (the
    /// use would need the value of whichever iteration left).
    LiveOut,
    /// An op in the loop has regions.
    Regions,
    /// The exit condition is not an expression of counters with constant
    /// starts.
    Condition,
    /// The loop never runs its body.
    Empty,
    /// The loop runs more than the limit's iterations (or never stops).
    Trips(u64),
    /// The loop runs more than the given number of iterations, more than
    /// `max-unrolled-ops` allows for its size (or never stops).
    Cost(u64),
    /// The loop runs more than [`MAX_TRIPS_RUN`] iterations, the most any
    /// loop is run to count them (or never stops).
    TooLong,
}

impl std::fmt::Display for NotCounted {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Self::Latches => write!(f, "the loop has more than one back edge"),
            Self::Entries => write!(f, "the loop is entered from more than one block"),
            Self::Exits => write!(f, "the loop is not tested at its latch or header by a two-way branch"),
            Self::LiveOut => {
                write!(f, "the loop leaves from more than one place and a value of the loop is used after it")
            }
            Self::Regions => write!(f, "the loop holds an op with regions"),
            Self::Condition => write!(f, "the loop's trip count is not a constant"),
            Self::Empty => write!(f, "the loop never runs"),
            Self::Trips(limit) => write!(f, "the loop runs more than {limit} times (max-trip-count)"),
            Self::Cost(limit) => {
                write!(f, "the loop runs more than {limit} times, more than max-unrolled-ops allows for its size")
            }
            Self::TooLong => write!(f, "the loop runs more than {MAX_TRIPS_RUN} times, the most any loop is counted"),
        }
    }
}

/// `shape` as a counted loop, or why it is not one (`limits`: the options
/// that bound what is accepted; the counters are run at most
/// [`MAX_TRIPS_RUN`] times whatever they say).
pub fn counted<'c, 'a>(cfg: &Cfg<'c, 'a>, shape: &Loop, limits: Limits) -> Result<Counted<'c, 'a>, NotCounted> {
    let [latch] = shape.latches[..] else { return Err(NotCounted::Latches) };
    let entries: Vec<usize> = cfg.predecessors[shape.header].iter().copied().filter(|p| !shape.contains(*p)).collect();
    let [entry] = entries[..] else { return Err(NotCounted::Entries) };
    if cfg.predecessors[shape.header].len() != 2 {
        return Err(NotCounted::Entries);
    }
    let exiting: Vec<usize> =
        shape.blocks.iter().copied().filter(|&b| cfg.successors[b].iter().any(|s| !shape.contains(*s))).collect();
    // The test: at the latch (bottom-tested) when it leaves, else at the
    // header (top-tested, the latch branching back unconditionally).
    let tested = if exiting.contains(&latch) { latch } else { shape.header };
    if !exiting.contains(&tested) {
        return Err(NotCounted::Exits);
    }
    let test = cfg.blocks[tested].terminator().ok_or(NotCounted::Exits)?;
    if LlvmOp::of(test) != LlvmOp::CondBr || cfg.successors[tested].len() != 2 {
        return Err(NotCounted::Exits);
    }
    let (first, second) = (cfg.successors[tested][0], cfg.successors[tested][1]);
    let (stays_on_true, stay, exit) = match (shape.contains(first), shape.contains(second)) {
        (true, false) => (true, first, second),
        (false, true) => (false, second, first),
        _ => return Err(NotCounted::Exits),
    };
    let back_edge = cfg.blocks[latch].terminator().ok_or(NotCounted::Exits)?;
    if tested == latch && stay != shape.header {
        return Err(NotCounted::Exits);
    }
    if tested != latch && (LlvmOp::of(back_edge) != LlvmOp::Br || stay == shape.header) {
        return Err(NotCounted::Exits);
    }
    let side_exits: Vec<usize> = exiting.iter().copied().filter(|&b| b != tested).collect();
    let mut ops = 0;
    for &block in &shape.blocks {
        let mut next = cfg.blocks[block].first_operation();
        while let Some(op) = next {
            if op.region_count() > 0 {
                return Err(NotCounted::Regions);
            }
            ops += 1;
            next = op.next_in_block();
        }
    }
    if !side_exits.is_empty() && used_after(cfg, shape) {
        return Err(NotCounted::LiveOut);
    }
    let header = cfg.blocks[shape.header];
    let entry_edge = cfg.blocks[entry].terminator().ok_or(NotCounted::Entries)?;
    let (starts, steps) = (edge_operands(entry_edge, header), edge_operands(back_edge, header));
    // The counters: integer header arguments with a constant start whose
    // next value is an expression of counters (dropping, until none
    // changes, those whose next value needs anything else).
    let mut counters: Vec<(Value, Int, Value)> = Vec::new();
    for position in 0..header.argument_count() {
        let argument: Value = header.argument_at(position).map_err(|_| NotCounted::Condition)?.into();
        if integer_width(melior::ir::ValueLike::r#type(&argument)).is_none() {
            continue;
        }
        let (Some(start), Some(step)) = (starts.get(position), steps.get(position)) else { continue };
        if let Some(start) = evaluate(*start, &Env::default()) {
            counters.push((argument, start, *step));
        }
    }
    let step_leaves: Vec<Option<Vec<_>>> =
        counters.iter().map(|(_, _, step)| leaves(*step).ok().map(|l| l.into_iter().map(key).collect())).collect();
    let mut keep: Vec<bool> = step_leaves.iter().map(Option::is_some).collect();
    loop {
        let known: Vec<_> =
            counters.iter().zip(&keep).filter(|(_, kept)| **kept).map(|((argument, _, _), _)| key(*argument)).collect();
        let before = keep.iter().filter(|k| **k).count();
        for (kept, found) in keep.iter_mut().zip(&step_leaves) {
            *kept = *kept && found.as_ref().is_some_and(|l| l.iter().all(|v| known.contains(v)));
        }
        if keep.iter().filter(|k| **k).count() == before {
            break;
        }
    }
    let mut kept = keep.into_iter();
    counters.retain(|_| kept.next().unwrap_or(false));
    let condition = crate::ir::CondBr::of(test).ok_or(NotCounted::Condition)?.condition();
    // The most iterations accepted, and the refusal beyond them.
    let by_cost = limits.ops / (ops as u64).max(1) + 1;
    let (limit, too_many) = [
        (limits.trips, NotCounted::Trips(limits.trips)),
        (by_cost, NotCounted::Cost(by_cost)),
        (MAX_TRIPS_RUN, NotCounted::TooLong),
    ]
    .into_iter()
    .min_by_key(|(limit, _)| *limit)
    .expect("three limits");
    let mut env: Env = counters.iter().map(|(argument, start, _)| (key(*argument), *start)).collect();
    let mut history: Vec<Vec<Int>> = vec![Vec::new(); counters.len()];
    let mut trips = 0;
    loop {
        for (values, (argument, _, _)) in history.iter_mut().zip(&counters) {
            values.push(env[&key(*argument)]);
        }
        let mut evaluator = Evaluator::new(&env);
        let stays = (evaluator.value(condition).ok_or(NotCounted::Condition)?.bits != 0) == stays_on_true;
        // A bottom-tested loop has run its body when it tests; a top-tested
        // one runs it only when it stays.
        if tested == latch || stays {
            trips += 1;
            if trips > limit {
                return Err(too_many);
            }
        }
        if !stays {
            break;
        }
        let next: Option<Env> =
            counters.iter().map(|(argument, _, step)| evaluator.value(*step).map(|v| (key(*argument), v))).collect();
        env = next.ok_or(NotCounted::Condition)?;
    }
    if trips == 0 {
        return Err(NotCounted::Empty);
    }
    let counters = counters.into_iter().map(|(argument, _, _)| argument).zip(history).collect();
    Ok(Counted { shape: shape.clone(), latch, exiting: tested, exit, side_exits, stay, trips, counters, ops })
}

/// Whether a value defined in `shape` (a block argument or an op result)
/// is used by an op outside it.
fn used_after(cfg: &Cfg, shape: &Loop) -> bool {
    let outside =
        |op: melior::ir::OperationRef| op.block().and_then(|b| cfg.position(b)).is_none_or(|b| !shape.contains(b));
    shape.blocks.iter().any(|&block| {
        let block = cfg.blocks[block];
        let arguments = (0..block.argument_count()).filter_map(|i| block.argument_at(i).ok()).map(Value::from);
        let mut results = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            results.extend((0..op.result_count()).filter_map(|i| op.result_at(i).ok()).map(Value::from));
            next = op.next_in_block();
        }
        arguments.chain(results).any(|value| uses(value).iter().any(|used| outside(used.owner)))
    })
}

/// The operands `terminator` passes to `block`'s arguments, in order
/// (empty when it does not branch there).
pub fn edge_operands<'c, 'a>(terminator: melior::ir::OperationRef<'c, 'a>, block: BlockRef) -> Vec<Value<'c, 'a>> {
    let mut operands = Vec::new();
    for index in 0..terminator.operand_count() {
        let Some(argument) = successor_argument(terminator, index) else { continue };
        let owner = melior::ir::block::BlockArgument::try_from(argument).ok().map(|a| a.owner().to_raw().ptr);
        if owner == Some(block.to_raw().ptr) {
            if let Ok(operand) = terminator.operand_at(index) {
                operands.push(operand);
            }
        }
    }
    operands
}
