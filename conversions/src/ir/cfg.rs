//! The control flow of one function body: its blocks' successors and
//! predecessors and the position of each op in its block, for questions of
//! liveness ("is this value still needed after that op?") and of loops
//! ("do these two ops lie on one cycle?").

use melior::ir::{block::BlockLike, operation::OperationLike, BlockRef, OperationRef, RegionLike, Value};

use super::{argument_block, as_argument, as_result, uses, HashMap, HashSet, OperationExt};

/// The blocks of a function body and where its ops are (built once per
/// function; ops inserted afterwards have no position and make the queries
/// answer conservatively).
pub struct BlockGraph {
    successors: HashMap<usize, Vec<usize>>,
    predecessors: HashMap<usize, Vec<usize>>,
    position: HashMap<usize, usize>,
    /// Blocks [`BlockGraph::on_common_cycle`] may still visit: its searches
    /// stop (answering `false`) once a function has spent them.
    cycle_budget: std::cell::Cell<usize>,
}

/// Blocks the cycle searches of one function may visit in all.
const CYCLE_BUDGET: usize = 1 << 20;

/// A block's identity in a [`BlockGraph`].
fn block_key(block: BlockRef) -> usize {
    block.to_raw().ptr as usize
}

/// An op's identity in a [`BlockGraph`].
fn op_key(op: OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// The block that defines `value`.
fn defining_block<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    match as_result(value) {
        Some(result) => result.owner().block(),
        None => as_argument(value).map(argument_block),
    }
}

impl BlockGraph {
    /// The graph of the first region of `func` (an `llvm.func`).
    pub fn of(func: OperationRef) -> Self {
        let mut graph = Self {
            successors: HashMap::default(),
            predecessors: HashMap::default(),
            position: HashMap::default(),
            cycle_budget: std::cell::Cell::new(CYCLE_BUDGET),
        };
        let Ok(region) = func.region_at(0) else { return graph };
        let mut next = region.first_block();
        while let Some(block) = next {
            let mut op = block.first_operation();
            let mut index = 0;
            while let Some(current) = op {
                graph.position.insert(op_key(current), index);
                index += 1;
                op = current.next_in_block();
                if op.is_none() {
                    for i in 0..current.successor_count() {
                        if let Ok(successor) = current.successor_at(i) {
                            graph.successors.entry(block_key(block)).or_default().push(block_key(successor));
                            graph.predecessors.entry(block_key(successor)).or_default().push(block_key(block));
                        }
                    }
                }
            }
            next = block.next_in_region();
        }
        graph
    }

    /// The position of `op` in its block, and the block; `None` for an op
    /// the graph does not know.
    fn place(&self, op: OperationRef) -> Option<(usize, usize)> {
        let block = op.block()?;
        Some((block_key(block), *self.position.get(&op_key(op))?))
    }

    /// Whether `value` is live right after some op of `points`: used later
    /// in that op's block, or on a path from the block's end. `None` where
    /// an op is not in the graph.
    pub fn live_after_any(&self, value: Value, points: &[OperationRef]) -> Option<bool> {
        let def = block_key(defining_block(value)?);
        let mut users = Vec::new();
        for used in uses(value) {
            users.push(self.place(used.owner)?);
        }
        // Blocks where the value is live on entry: those that use it (but
        // its own), and every predecessor of one up to its definition.
        let mut live_in: HashSet<usize> = HashSet::default();
        let mut work: Vec<usize> = users.iter().map(|(block, _)| *block).filter(|b| *b != def).collect();
        live_in.extend(work.iter().copied());
        while let Some(block) = work.pop() {
            for predecessor in self.predecessors.get(&block).into_iter().flatten() {
                if *predecessor != def && live_in.insert(*predecessor) {
                    work.push(*predecessor);
                }
            }
        }
        for point in points {
            let (block, at) = self.place(*point)?;
            let later = users.iter().any(|(b, p)| *b == block && *p > at);
            let out = self.successors.get(&block).into_iter().flatten().any(|s| live_in.contains(s));
            if later || out {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether some op of `first` and some op of `second` lie on one cycle
    /// of blocks that passes through none of `avoid` (blocks of a loop in
    /// which what `avoid` defines does not change). At most 16 ops of each
    /// are tried, and the searches of one graph visit at most
    /// `CYCLE_BUDGET` blocks in all; `false` past either.
    pub fn on_common_cycle(&self, first: &[OperationRef], second: &[OperationRef], avoid: &HashSet<usize>) -> bool {
        let reaches = |from: usize, to: usize| -> bool {
            let mut seen: HashSet<usize> = HashSet::default();
            let mut work: Vec<usize> = self.successors.get(&from).cloned().unwrap_or_default();
            while let Some(block) = work.pop() {
                if block == to {
                    return true;
                }
                if avoid.contains(&block) || !seen.insert(block) {
                    continue;
                }
                let left = self.cycle_budget.get();
                if left == 0 {
                    return false;
                }
                self.cycle_budget.set(left - 1);
                work.extend(self.successors.get(&block).into_iter().flatten().copied());
            }
            false
        };
        let blocks = |ops: &[OperationRef]| -> Vec<usize> {
            let mut found: Vec<usize> =
                ops.iter().take(16).filter_map(|op| op.block().map(block_key)).filter(|b| !avoid.contains(b)).collect();
            found.sort_unstable();
            found.dedup();
            found
        };
        let (first, second) = (blocks(first), blocks(second));
        first.iter().any(|a| second.iter().any(|b| reaches(*a, *b) && reaches(*b, *a)))
    }

    /// The blocks that define the operands of `op` (a loop that passes
    /// through none of them leaves `op`'s result unchanged).
    pub fn operand_blocks(op: OperationRef) -> HashSet<usize> {
        (0..op.operand_count())
            .filter_map(|i| op.operand_at(i).ok())
            .filter_map(|operand| defining_block(operand).map(block_key))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::BlockGraph;
    use crate::ir::{first_result, nested_ops, HashSet, LlvmOp, OperationExt};
    use melior::ir::{block::BlockLike, operation::OperationLike, Module};

    /// A loop `^bb1 -> ^bb2 -> ^bb1` after the entry, with an exit.
    const LOOP: &str = "llvm.func @f(%p: !llvm.ptr, %c: i1) {\n\
        %q = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, i32\n\
        %a = llvm.load %q : !llvm.ptr -> i32\n\
        llvm.br ^bb1\n\
        ^bb1:\n\
        %b = llvm.load %p : !llvm.ptr -> i32\n\
        llvm.cond_br %c, ^bb2, ^bb3\n\
        ^bb2:\n\
        %d = llvm.load %p : !llvm.ptr -> i32\n\
        llvm.br ^bb1\n\
        ^bb3:\n\
        llvm.return\n}";

    /// Liveness after an op: a later use in the block, or a use on a path
    /// from the block's end (around the loop too); the definition's block
    /// ends the search.
    #[test]
    fn live_after_follows_uses_and_loops() {
        let context = crate::abi::tests::llvm_context();
        let module = Module::parse(&context, LOOP).expect("parses");
        let func = module.body().first_operation().expect("the function");
        let graph = BlockGraph::of(func);
        let ops = nested_ops(func);
        let loads: Vec<_> = ops.iter().copied().filter(|op| LlvmOp::of(*op) == LlvmOp::Load).collect();
        let gep = ops.iter().copied().find(|op| LlvmOp::of(*op) == LlvmOp::Gep).expect("the GEP");
        let q = first_result(gep).expect("one result");
        let p = gep.operand_at(0).expect("the base");
        // %q: its one use is the first load, so it is live after the GEP and
        // not after that load.
        assert_eq!(graph.live_after_any(q, &[gep]), Some(true));
        assert_eq!(graph.live_after_any(q, &[loads[0]]), Some(false));
        // %p: read in the loop, so live after the last load in it (around
        // the back edge), and after the entry's load.
        assert_eq!(graph.live_after_any(p, &[loads[2]]), Some(true));
        assert_eq!(graph.live_after_any(p, &[loads[0]]), Some(true));
        // The loop's two loads share a cycle; the entry's load is on none;
        // a cycle through an avoided block does not count.
        let none = HashSet::default();
        assert!(graph.on_common_cycle(&[loads[1]], &[loads[2]], &none));
        assert!(!graph.on_common_cycle(&[loads[0]], &[loads[2]], &none));
        let header: HashSet<usize> = [super::block_key(loads[1].block().expect("in a block"))].into_iter().collect();
        assert!(!graph.on_common_cycle(&[loads[2]], &[loads[2]], &header));
        assert!(graph.on_common_cycle(&[loads[2]], &[loads[2]], &none));
    }
}
