//! The control flow of one function body: its blocks and the edges
//! between them ([`Cfg`]), dominators and natural loops, and, with the
//! position of each op in its block ([`BlockGraph`]), questions of liveness
//! ("is this value still needed after that op?") and of loops ("are these
//! two ops in one loop in which that value does not change?").

use melior::ir::{block::BlockLike, operation::OperationLike, BlockRef, OperationRef, RegionLike, Value};

use super::{argument_block, as_argument, as_result, uses, HashMap, LlvmOp, OperationExt};

/// The blocks of one region and the edges between them.
pub struct Cfg<'c, 'a> {
    /// The blocks, in region order.
    pub blocks: Vec<BlockRef<'c, 'a>>,
    /// Each block's position in `blocks`, by raw handle.
    index: HashMap<*mut std::ffi::c_void, usize>,
    /// Successor positions of each block (one entry per edge).
    pub successors: Vec<Vec<usize>>,
    /// Predecessor positions of each block (one entry per edge).
    pub predecessors: Vec<Vec<usize>>,
}

impl<'c, 'a> Cfg<'c, 'a> {
    /// The CFG of the region that starts with `entry`.
    pub fn new(entry: BlockRef<'c, 'a>) -> Self {
        let mut blocks = Vec::new();
        let mut next = Some(entry);
        while let Some(block) = next {
            blocks.push(block);
            next = block.next_in_region();
        }
        let index: HashMap<_, _> = blocks.iter().enumerate().map(|(i, b)| (b.to_raw().ptr, i)).collect();
        let mut successors = vec![Vec::new(); blocks.len()];
        let mut predecessors = vec![Vec::new(); blocks.len()];
        for (from, block) in blocks.iter().enumerate() {
            let Some(terminator) = block.terminator() else { continue };
            for position in 0..terminator.successor_count() {
                let Ok(to) = terminator.successor_at(position) else { continue };
                if let Some(&to) = index.get(&to.to_raw().ptr) {
                    successors[from].push(to);
                    predecessors[to].push(from);
                }
            }
        }
        Self { blocks, index, successors, predecessors }
    }

    /// The position of `block`, if it is in this region.
    pub fn position(&self, block: BlockRef) -> Option<usize> {
        self.index.get(&block.to_raw().ptr).copied()
    }

    /// The immediate dominator of every block reachable from the entry
    /// (`None` for the others; the entry is its own), by the iterative
    /// algorithm of Cooper, Harvey and Kennedy.
    fn dominators(&self) -> Vec<Option<usize>> {
        let order = self.reverse_postorder();
        let mut rank = vec![usize::MAX; self.blocks.len()];
        for (position, &block) in order.iter().enumerate() {
            rank[block] = position;
        }
        let mut idom = vec![None; self.blocks.len()];
        if order.is_empty() {
            return idom;
        }
        idom[order[0]] = Some(order[0]);
        let mut changed = true;
        while changed {
            changed = false;
            for &block in &order[1..] {
                let mut new = None;
                for &pred in &self.predecessors[block] {
                    if idom[pred].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => pred,
                        Some(other) => intersect(&idom, &rank, pred, other),
                    });
                }
                if new.is_some() && idom[block] != new {
                    idom[block] = new;
                    changed = true;
                }
            }
        }
        idom
    }

    /// The blocks reachable from the entry, in reverse postorder (each
    /// before its successors but along back edges).
    pub fn reverse_postorder(&self) -> Vec<usize> {
        let mut seen = vec![false; self.blocks.len()];
        let mut order = Vec::new();
        if self.blocks.is_empty() {
            return order;
        }
        // (block, next successor to visit)
        let mut stack = vec![(0usize, 0usize)];
        seen[0] = true;
        while let Some((block, next)) = stack.pop() {
            if let Some(&successor) = self.successors[block].get(next) {
                stack.push((block, next + 1));
                if !seen[successor] {
                    seen[successor] = true;
                    stack.push((successor, 0));
                }
            } else {
                order.push(block);
            }
        }
        order.reverse();
        order
    }

    /// Whether `a` dominates `b`, given `idom` from [`Self::dominators`].
    fn dominates(idom: &[Option<usize>], a: usize, b: usize) -> bool {
        let mut current = b;
        loop {
            if current == a {
                return true;
            }
            match idom[current] {
                Some(parent) if parent != current => current = parent,
                _ => return false,
            }
        }
    }
}

fn intersect(idom: &[Option<usize>], rank: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while rank[a] > rank[b] {
            a = idom[a].unwrap_or(b);
        }
        while rank[b] > rank[a] {
            b = idom[b].unwrap_or(a);
        }
    }
    a
}

/// A natural loop of a [`Cfg`] (positions in its `blocks`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// The block every iteration starts in.
    pub header: usize,
    /// The blocks of the loop, the header first, then in region order.
    pub blocks: Vec<usize>,
    /// The blocks that branch back to the header.
    pub latches: Vec<usize>,
}

impl Loop {
    /// Whether block `block` is in the loop.
    pub fn contains(&self, block: usize) -> bool {
        self.blocks.contains(&block)
    }
}

/// The natural loops of `cfg`, one per header (back edges are edges to a
/// block that dominates their source), innermost first (fewest blocks).
pub fn natural_loops(cfg: &Cfg) -> Vec<Loop> {
    let idom = cfg.dominators();
    let mut loops: Vec<Loop> = Vec::new();
    for (from, successors) in cfg.successors.iter().enumerate() {
        for &to in successors {
            if idom[from].is_none() || !Cfg::dominates(&idom, to, from) {
                continue;
            }
            match loops.iter_mut().find(|l| l.header == to) {
                Some(existing) if existing.latches.contains(&from) => {}
                Some(existing) => existing.latches.push(from),
                None => loops.push(Loop { header: to, blocks: Vec::new(), latches: vec![from] }),
            }
        }
    }
    for l in &mut loops {
        let mut member = vec![false; cfg.blocks.len()];
        member[l.header] = true;
        let mut work = l.latches.clone();
        while let Some(block) = work.pop() {
            if !member[block] {
                member[block] = true;
                work.extend(cfg.predecessors[block].iter().copied());
            }
        }
        l.blocks =
            std::iter::once(l.header).chain((0..cfg.blocks.len()).filter(|&b| member[b] && b != l.header)).collect();
    }
    loops.sort_by_key(|l| l.blocks.len());
    loops
}

/// A function body's [`Cfg`] with the position of each op in its block
/// (built once per function; ops inserted afterwards have no position and
/// make the queries answer `None`).
pub struct BlockGraph<'c, 'a> {
    /// The blocks and edges.
    pub cfg: Cfg<'c, 'a>,
    /// Each op's position in its block, by raw handle.
    position: HashMap<*mut std::ffi::c_void, usize>,
    /// The natural loops, found on first use.
    loops: std::cell::OnceCell<Vec<Loop>>,
}

/// The block that defines `value`.
fn defining_block<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    match as_result(value) {
        Some(result) => result.owner().block(),
        None => as_argument(value).map(argument_block),
    }
}

impl<'c, 'a> BlockGraph<'c, 'a> {
    /// The graph of the body of `func` (an `llvm.func`); `None` for a
    /// declaration.
    pub fn of(func: OperationRef<'c, 'a>) -> Option<Self> {
        let entry = func.region_at(0).ok()?.first_block()?;
        let cfg = Cfg::new(entry);
        let mut position = HashMap::default();
        for block in &cfg.blocks {
            let mut next = block.first_operation();
            let mut index = 0;
            while let Some(op) = next {
                position.insert(op.to_raw().ptr, index);
                index += 1;
                next = op.next_in_block();
            }
        }
        Some(Self { cfg, position, loops: std::cell::OnceCell::new() })
    }

    /// The block (its position in the CFG) and the position in it of
    /// `op`; `None` for an op the graph does not know.
    fn place(&self, op: OperationRef) -> Option<(usize, usize)> {
        Some((self.cfg.position(op.block()?)?, *self.position.get(&op.to_raw().ptr)?))
    }

    /// Whether `value` is live right after some op of `points`: used later
    /// in that op's block, or on a path from the block's end (a block
    /// argument's value passed by a terminator counts as used there).
    /// `None` where an op is not in the graph.
    pub fn live_after_any(&self, value: Value, points: &[OperationRef]) -> Option<bool> {
        let def = self.cfg.position(defining_block(value)?)?;
        let users = uses(value).into_iter().map(|used| self.place(used.owner)).collect::<Option<Vec<_>>>()?;
        // Blocks where the value is live on entry: those that use it (but
        // its own), and every predecessor of one up to its definition.
        let mut live_in = vec![false; self.cfg.blocks.len()];
        let mut work: Vec<usize> = users.iter().map(|(block, _)| *block).filter(|b| *b != def).collect();
        while let Some(block) = work.pop() {
            if std::mem::replace(&mut live_in[block], true) {
                continue;
            }
            work.extend(self.cfg.predecessors[block].iter().copied().filter(|p| *p != def));
        }
        for point in points {
            let (block, at) = self.place(*point)?;
            let later = users.iter().any(|(b, p)| *b == block && *p > at);
            if later || self.cfg.successors[block].iter().any(|s| live_in[*s]) {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether some op of `first` and some op of `second` are in one
    /// natural loop in which `op`'s result does not change: no operand of
    /// `op` is defined in the loop, but constants (llc hoists such an
    /// address out of it). Irreducible cycles do not count.
    pub fn in_invariant_loop(&self, first: &[OperationRef], second: &[OperationRef], op: OperationRef) -> bool {
        let blocks = |ops: &[OperationRef]| -> Vec<usize> {
            ops.iter().filter_map(|op| op.block().and_then(|b| self.cfg.position(b))).collect()
        };
        let (first, second) = (blocks(first), blocks(second));
        if first.is_empty() || second.is_empty() {
            return false;
        }
        let defined_in: Vec<usize> = (0..op.operand_count())
            .filter_map(|i| op.operand_at(i).ok())
            .filter(|operand| !is_constant(*operand))
            .filter_map(|operand| defining_block(operand).and_then(|b| self.cfg.position(b)))
            .collect();
        self.loops.get_or_init(|| natural_loops(&self.cfg)).iter().any(|l| {
            first.iter().any(|b| l.contains(*b))
                && second.iter().any(|b| l.contains(*b))
                && !defined_in.iter().any(|b| l.contains(*b))
        })
    }
}

/// Whether `value` is a constant: the result of an op that computes it
/// from nothing (`llvm.mlir.constant`, `zero`, `addressof`, `undef`,
/// `poison`), the same wherever it is.
pub fn is_constant(value: Value) -> bool {
    as_result(value).is_some_and(|result| {
        matches!(
            LlvmOp::of(result.owner()),
            LlvmOp::Constant | LlvmOp::Zero | LlvmOp::AddressOf | LlvmOp::Undef | LlvmOp::Poison
        )
    })
}

#[cfg(test)]
mod tests {
    use super::BlockGraph;
    use crate::ir::{first_result, nested_ops, LlvmOp, OperationExt};
    use melior::ir::{block::BlockLike, Module};

    /// A loop `^bb1 -> ^bb2 -> ^bb1` after the entry, with an exit; in the
    /// loop, a GEP of the parameter by a constant made in the loop, and one
    /// by a value loaded in the loop.
    const LOOP: &str = "llvm.func @f(%p: !llvm.ptr, %c: i1) {\n\
        %q = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, i32\n\
        %a = llvm.load %q : !llvm.ptr -> i32\n\
        llvm.br ^bb1\n\
        ^bb1:\n\
        %b = llvm.load %p : !llvm.ptr -> i32\n\
        llvm.cond_br %c, ^bb2, ^bb3\n\
        ^bb2:\n\
        %d = llvm.load %p : !llvm.ptr -> i32\n\
        %two = llvm.mlir.constant(2 : i32) : i32\n\
        %r = llvm.getelementptr %p[%two] : (!llvm.ptr, i32) -> !llvm.ptr, i32\n\
        %s = llvm.getelementptr %p[%d] : (!llvm.ptr, i32) -> !llvm.ptr, i32\n\
        llvm.br ^bb1\n\
        ^bb3:\n\
        llvm.return\n}";

    /// Liveness after an op: a later use in the block, or a use on a path
    /// from the block's end (around the loop too), the definition's block
    /// ending the search; loops in which an op's operands do not change.
    #[test]
    fn liveness_and_invariant_loops() {
        let context = crate::abi::tests::llvm_context();
        let module = Module::parse(&context, LOOP).expect("parses");
        let func = module.body().first_operation().expect("the function");
        let graph = BlockGraph::of(func).expect("a body");
        let ops = nested_ops(func);
        let of = |kind| -> Vec<_> { ops.iter().copied().filter(|op| LlvmOp::of(*op) == kind).collect() };
        let (loads, geps) = (of(LlvmOp::Load), of(LlvmOp::Gep));
        let q = first_result(geps[0]).expect("one result");
        let p = geps[0].operand_at(0).expect("the base");
        // %q: its one use is the first load, so it is live after the GEP and
        // not after that load.
        assert_eq!(graph.live_after_any(q, &[geps[0]]), Some(true));
        assert_eq!(graph.live_after_any(q, &[loads[0]]), Some(false));
        // %p: read in the loop, so live after the last load in it (around
        // the back edge), and after the entry's load.
        assert_eq!(graph.live_after_any(p, &[loads[2]]), Some(true));
        assert_eq!(graph.live_after_any(p, &[loads[0]]), Some(true));
        // The loop's two loads are in one loop, in which %r (a parameter
        // and a constant) does not change and %s (a loaded index) does; the
        // entry's load is in no loop.
        assert!(graph.in_invariant_loop(&[loads[1]], &[loads[2]], geps[1]));
        assert!(!graph.in_invariant_loop(&[loads[1]], &[loads[2]], geps[2]));
        assert!(!graph.in_invariant_loop(&[loads[0]], &[loads[2]], geps[1]));
    }
}
