//! Full unrolling of a [`Counted`] loop, in place.
//!
//! The loop's own blocks stay as its first iteration; each further
//! iteration is a copy. The header's copy of iteration `j` is appended to
//! the latch of iteration `j - 1` (a one-block loop becomes one straight
//! block), the other blocks are copied as new blocks after the previous
//! iteration's. In every iteration the counters are constants; the other
//! header arguments take the values the previous iteration passed back.
//! Each test is decided: a bottom-tested loop's last latch branches to the
//! exit; a top-tested loop's headers go on into the body, and one more
//! copy of its header (which runs once more to leave) branches to the
//! exit. Every use after the loop of a value of the loop takes the last
//! iteration's. A side exit (`break`) stays a branch out of every copy.
//!
//! Each iteration is copied in two steps: every op of every block first
//! (its results mapped to the copies), then every copied operand and
//! successor remapped. The body's blocks are not in dominance order in the
//! region (an `if` inside the loop puts its `then` block after the merge
//! that uses its value), so an operand mapped as its op is copied could
//! name a value of the first iteration that does not dominate the copy.

use melior::ir::{
    block::BlockLike, operation::OperationLike, Block, BlockRef, OperationRef, RegionLike, Value, ValueLike,
};

use super::loops::{edge_operands, Counted};
use crate::ir::Cfg;
use crate::ir::{
    branch, first_result, set_operand, set_successor, uses, wide_integer_constant, BlockExt, HashMap, HashSet,
    OperationExt, Rewriter,
};

/// Raw handle of a value, op or block, as a map key.
type Key = *const std::ffi::c_void;

fn value_key(value: Value) -> Key {
    value.to_raw().ptr
}

/// Where the next op goes: the end of `block`, or before `anchor` in it.
#[derive(Clone, Copy)]
struct Cursor<'c, 'a> {
    block: BlockRef<'c, 'a>,
    anchor: Option<OperationRef<'c, 'a>>,
}

impl<'c, 'a> Cursor<'c, 'a> {
    fn insert(&self, op: melior::ir::Operation<'c>) -> OperationRef<'c, 'a> {
        match self.anchor {
            Some(anchor) => self.block.insert_operation_before(anchor, op),
            None => self.block.append_operation(op),
        }
    }
}

/// Unrolls `counted` (a loop of `cfg`) fully. Ops left dead (the exit
/// tests, the counters' steps) go to `erase`.
pub fn unroll<'c, 'a>(cfg: &Cfg<'c, 'a>, counted: &Counted<'c, 'a>, rewriter: &mut Rewriter) {
    let header = cfg.blocks[counted.shape.header];
    let latch = cfg.blocks[counted.latch];
    let exit = cfg.blocks[counted.exit];
    let stay = cfg.blocks[counted.stay];
    let bottom = counted.bottom_tested();
    let (Some(back_edge), Some(test)) = (latch.terminator(), cfg.blocks[counted.exiting].terminator()) else { return };
    let Some(region) = header.parent_region() else { return };
    let location = back_edge.location();
    let back_operands = edge_operands(back_edge, header);
    let exit_operands = edge_operands(test, exit);
    let stay_operands = edge_operands(test, stay);
    let condition = crate::ir::CondBr::of(test).map(crate::ir::CondBr::condition);
    let counters: HashMap<Key, &[crate::promote_local::eval::Int]> =
        counted.counters.iter().map(|(argument, values)| (value_key(*argument), values.as_slice())).collect();
    let loop_blocks: Vec<BlockRef> = counted.shape.blocks.iter().map(|&b| cfg.blocks[b]).collect();
    // The ops of each block of the first iteration, taken before any copy
    // is inserted (the header's copies go into the latch, which may be the
    // header itself).
    let block_ops: Vec<Vec<OperationRef>> = loop_blocks.iter().map(|b| ops_of(*b)).collect();
    let mut inside: HashSet<Key> = loop_blocks.iter().map(|b| b.to_raw().ptr as Key).collect();
    let mut last_block = *counted.shape.blocks.iter().max().map(|&b| &cfg.blocks[b]).unwrap_or(&header);

    // The values of the previous iteration (the loop's own values for the
    // first one).
    let mut previous: HashMap<Key, Value> = HashMap::default();
    let lookup =
        |map: &HashMap<Key, Value<'c, 'a>>, value: Value<'c, 'a>| map.get(&value_key(value)).copied().unwrap_or(value);
    let mut cursor = Cursor { block: latch, anchor: Some(back_edge) };
    // Values that may be left unused: the tests, the counters' steps and
    // constants (erased if nothing uses them in the end).
    let mut dead_tests = Vec::new();
    // A top-tested loop runs its header once more, to leave.
    let copies = if bottom { counted.trips - 1 } else { counted.trips } as usize;
    for iteration in 1..=copies {
        let header_only = !bottom && iteration == copies;
        let mut map: HashMap<Key, Value> = HashMap::default();
        for position in 0..header.argument_count() {
            let Ok(argument) = header.argument_at(position) else { continue };
            let argument: Value = argument.into();
            let value = match counters.get(&value_key(argument)) {
                Some(values) => {
                    let constant = wide_integer_constant(argument.r#type(), values[iteration].bits, location);
                    let constant = cursor.insert(constant);
                    // Unused where only the next counter value needed it.
                    dead_tests.extend(first_result(constant));
                    constant.result_at(0).map(Into::into).ok()
                }
                None => back_operands.get(position).map(|v| lookup(&previous, *v)),
            };
            if let Some(value) = value {
                map.insert(value_key(argument), value);
            }
        }
        let mut blocks: HashMap<Key, BlockRef> = HashMap::default();
        for block in loop_blocks.iter().skip(1).filter(|_| !header_only) {
            let arguments: Vec<_> = (0..block.argument_count())
                .filter_map(|i| block.argument_at(i).ok())
                .map(|a| (Value::from(a).r#type(), location))
                .collect();
            let copy = region.insert_block_after(last_block, Block::new(&arguments));
            last_block = copy;
            inside.insert(copy.to_raw().ptr);
            for i in 0..block.argument_count() {
                if let (Ok(old), Ok(new)) = (block.argument_at(i), copy.argument_at(i)) {
                    map.insert(value_key(old.into()), new.into());
                }
            }
            blocks.insert(block.to_raw().ptr, copy);
        }
        let mut copies_made: Vec<OperationRef> = Vec::new();
        for (block, ops) in loop_blocks.iter().zip(&block_ops) {
            let target = if *block == header {
                cursor
            } else if header_only {
                continue;
            } else {
                Cursor { block: blocks[&(block.to_raw().ptr as Key)], anchor: None }
            };
            for &op in ops {
                if op == back_edge || op == test {
                    continue;
                }
                copies_made.push(copy_op(op, target, &mut map, rewriter));
            }
        }
        // Every value of this iteration has its copy now.
        for &copy in &copies_made {
            remap(copy, &map, &blocks);
        }
        match planted_bug() {
            Some("unroll") if iteration == 1 => plant_bug(&copies_made),
            Some("panic") => panic!("a panic planted in the unroller (PTXCC_PLANT_BUG=panic)"),
            _ => {}
        }
        if !bottom {
            // The copy of the header's test, decided (after the header's
            // ops, where the cursor still is).
            let (dest, operands) = if header_only {
                (exit, &exit_operands)
            } else {
                (blocks[&(stay.to_raw().ptr as Key)], &stay_operands)
            };
            let operands: Vec<Value> = operands.iter().map(|v| lookup(&map, *v)).collect();
            cursor.insert(branch(dest, &operands, location));
        }
        dead_tests.extend(condition.map(|c| lookup(&map, c)));
        // The counters' steps, which only fed the next iteration's header.
        for (position, step) in back_operands.iter().enumerate() {
            let counter = header.argument_at(position).ok().map(|a| value_key(a.into()));
            if counter.is_some_and(|c| counters.contains_key(&c)) {
                dead_tests.push(lookup(&map, *step));
                dead_tests.push(lookup(&previous, *step));
            }
        }
        if !header_only {
            let latch_copy = if latch == header { cursor.block } else { blocks[&(latch.to_raw().ptr as Key)] };
            cursor = Cursor { block: latch_copy, anchor: (latch_copy == latch).then_some(back_edge) };
        }
        previous = map;
    }

    if bottom {
        // The last iteration leaves the loop.
        let exit_values: Vec<Value> = exit_operands.iter().map(|v| lookup(&previous, *v)).collect();
        cursor.insert(branch(exit, &exit_values, location));
    } else if let Some(block) = test.block() {
        // The first iteration's header stays.
        block.insert_operation_before(test, branch(stay, &stay_operands, location));
        rewriter.erase_later(test);
    }
    rewriter.erase_later(back_edge);
    dead_tests.extend(condition);

    // Uses after the loop see the last iteration's values.
    if copies > 0 {
        for (block, ops) in loop_blocks.iter().zip(&block_ops) {
            let arguments = (0..block.argument_count()).filter_map(|i| block.argument_at(i).ok()).map(Value::from);
            let results: Vec<Value> = ops
                .iter()
                .filter(|op| **op != back_edge && **op != test)
                .flat_map(|op| (0..op.result_count()).filter_map(|i| op.result_at(i).ok()).map(Value::from))
                .collect();
            for value in arguments.chain(results) {
                let Some(last) = previous.get(&value_key(value)).copied() else { continue };
                for used in uses(value) {
                    let outside = used.owner.block().is_none_or(|b| !inside.contains(&(b.to_raw().ptr as Key)));
                    if outside {
                        set_operand(used.owner, used.index, last);
                    }
                }
            }
        }
    }

    // The first iteration's counters are constants too.
    for (argument, values) in &counted.counters {
        if uses(*argument).is_empty() {
            continue;
        }
        let constant = wide_integer_constant(argument.r#type(), values[0].bits, location);
        let constant = match header.first_operation() {
            Some(first) => header.insert_operation_before(first, constant),
            None => header.append_operation(constant),
        };
        if let Some(value) = first_result(constant) {
            rewriter.replace_uses(*argument, value);
        }
    }
    for test in dead_tests {
        if let Some(op) = crate::ir::as_result(test).map(|r| r.owner()) {
            rewriter.erase_later_if_unused(op);
        }
    }
}

/// Inserts a copy of `op` at `target` and maps its results (its operands
/// and successors are the original's until [`remap`]).
fn copy_op<'c, 'a>(
    op: OperationRef<'c, 'a>,
    target: Cursor<'c, 'a>,
    map: &mut HashMap<Key, Value<'c, 'a>>,
    rewriter: &Rewriter,
) -> OperationRef<'c, 'a> {
    let copy = target.insert(rewriter.clone(op));
    for index in 0..op.result_count() {
        if let (Ok(old), Ok(new)) = (op.result_at(index), copy.result_at(index)) {
            map.insert(value_key(old.into()), new.into());
        }
    }
    copy
}

/// Takes the operands and successors of the copy `copy` from `map` and
/// `blocks` where they have them.
fn remap<'c, 'a>(
    copy: OperationRef<'c, 'a>,
    map: &HashMap<Key, Value<'c, 'a>>,
    blocks: &HashMap<Key, BlockRef<'c, 'a>>,
) {
    for index in 0..copy.operand_count() {
        if let Some(mapped) = copy.operand_at(index).ok().and_then(|operand| map.get(&value_key(operand))) {
            set_operand(copy, index, *mapped);
        }
    }
    for index in 0..copy.successor_count() {
        if let Some(successor) = copy.successor_at(index).ok().and_then(|s| blocks.get(&(s.to_raw().ptr as Key))) {
            set_successor(copy, index, *successor);
        }
    }
}

/// The test hook `PTXCC_PLANT_BUG`: `unroll` makes the unroller break its
/// own output on purpose ([`plant_bug`]), `panic` makes it panic, so that
/// the tests can show that promote-local-arrays' fallback catches both.
/// Never set it otherwise.
fn planted_bug() -> Option<&'static str> {
    static PLANTED: std::sync::OnceLock<Option<&'static str>> = std::sync::OnceLock::new();
    *PLANTED.get_or_init(|| match std::env::var("PTXCC_PLANT_BUG").as_deref() {
        Ok("unroll") => Some("unroll"),
        Ok("panic") => Some("panic"),
        _ => None,
    })
}

/// The planted bug: the first copied op whose first operand has its
/// result's type uses its own result (invalid IR: an operand that does
/// not dominate its use).
fn plant_bug(copies: &[OperationRef]) {
    let found = copies.iter().find_map(|op| {
        let result = first_result(*op)?;
        (op.operand_at(0).ok()?.r#type() == result.r#type()).then_some((*op, result))
    });
    if let Some((op, result)) = found {
        set_operand(op, 0, result);
    }
}

/// The ops of `block`, in order.
fn ops_of<'c, 'a>(block: BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        ops.push(op);
        next = op.next_in_block();
    }
    ops
}
