//! Which allocas become registers: the analysis and the cost decision.
//!
//! An alloca is a candidate when it is indexed dynamically (else `llc`'s
//! SROA already promotes it, or cannot for a reason unrolling does not
//! remove) and every dynamic index is an expression ([`super::eval`]) of
//! the counters of counted loops ([`super::loops`]) that hold the access.
//! Its uses must be those SROA handles once the indices are constants:
//! loads and stores (not volatile), GEPs and casts of it, `memcpy`,
//! `memmove` and `memset` of a constant length, lifetime markers, debug
//! records and ptxcc's own `ptxcc.copy_param` into it.

use crate::ir::LlvmOp;
use melior::ir::{operation::OperationLike, OperationRef, Value, ValueLike};
use ptxcc_dialect::names;

use super::eval::leaves;
use super::loops::{Counted, NotCounted};
use crate::ir::{Cfg, Loop};
use crate::{
    abi::{mlir::abi_type, DataLayout},
    ir::{as_argument, constant_int, first_result, gep_indices, op_name, uses, HashSet, OperationExt, Use},
};

/// Why an alloca stays in local memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Its address goes somewhere SROA cannot follow (the op named).
    Escapes(String),
    /// A volatile access.
    Volatile,
    /// An index is computed by an op that is not integer arithmetic on
    /// counters (a load, a special register, a call: the op named).
    Index(String),
    /// An index depends on a function argument.
    Argument,
    /// An index depends on a block argument that is not a counter of a
    /// counted loop around the access.
    NotCounter,
    /// An index is a counter of a loop that cannot be unrolled.
    Loop(NotCounted),
    /// Promoting it would exceed the register budget (bytes it needs,
    /// bytes left).
    Registers(u64, u64),
    /// Unrolling its loops would exceed the size budget (ops it would add,
    /// ops left).
    Size(u64, u64),
    /// An index no unrolling makes constant, used inside a loop (selects
    /// would run every iteration: local memory is cheaper there).
    InLoop,
    /// An index no unrolling makes constant may reach more elements than
    /// `max-select-elements` (elements, limit).
    Elements(u64, u64),
    /// An access selects cannot stand for (why).
    NotSelectable(String),
    /// Why unrolling cannot make it constant, and why selects cannot
    /// either.
    Neither(Box<Refusal>, Box<Refusal>),
    /// Its place in the frame is shared with arrays that stay in local
    /// memory (their lifetimes follow one another): promoting it would
    /// free no stack ([`super::frame`]).
    SharedFrame,
    /// The pass's rewrite of the function did not verify (the verifier's
    /// message): the function was put back as it came.
    Internal(String),
}

impl Refusal {
    /// Whether the array is promotable but for indices unrolling cannot
    /// make constant (selects may still).
    pub fn only_indices(&self) -> bool {
        matches!(self, Self::Index(_) | Self::Argument | Self::NotCounter | Self::Loop(_))
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Self::Escapes(op) => write!(f, "its address is used by '{op}'"),
            Self::Volatile => write!(f, "it is accessed volatile"),
            Self::Index(op) => write!(f, "an index is computed by '{op}', not by counted loops"),
            Self::Argument => write!(f, "an index depends on a function argument"),
            Self::NotCounter => write!(f, "an index depends on a value that is not a counted loop's counter"),
            Self::Loop(why) => write!(f, "{why}"),
            Self::Registers(need, left) => {
                write!(f, "its {need} bytes exceed the {left} bytes of registers left (max-promoted-registers)")
            }
            Self::Size(need, left) => {
                write!(f, "unrolling its loops adds {need} ops, more than the {left} left (max-unrolled-ops)")
            }
            Self::InLoop => write!(f, "selects on the index would run in a loop"),
            Self::Elements(count, limit) => {
                write!(f, "an index may reach {count} elements, more than {limit} (max-select-elements)")
            }
            Self::NotSelectable(why) => write!(f, "{why} cannot be written as selects"),
            Self::Neither(unroll, select) => write!(f, "{unroll}, and {select}"),
            Self::SharedFrame => {
                write!(f, "its stack is shared with arrays kept in local memory: promoting it frees none")
            }
            Self::Internal(why) => write!(f, "internal error in promote-local-arrays ({why}); please report"),
        }
    }
}

/// An alloca that unrolling makes promotable.
#[derive(Debug)]
pub struct Candidate<'c, 'a> {
    /// The `llvm.alloca`.
    pub alloca: OperationRef<'c, 'a>,
    /// Its size in bytes.
    pub bytes: u64,
    /// The loops (positions in `counted`) to unroll, by their headers.
    pub loops: Vec<usize>,
    /// The GEPs whose indices no unrolling makes constant: only selects
    /// ([`super::select`]) can stand for them.
    pub selects: Vec<OperationRef<'c, 'a>>,
    /// Why unrolling cannot make the `selects` constant (their first).
    pub why: Option<Refusal>,
}

/// What [`analyze`] found for one alloca with a dynamic index.
pub type Analysis<'c, 'a> = Result<Candidate<'c, 'a>, Refusal>;

/// The allocas of `func` to consider: constant-size ones whose accesses
/// include a dynamic index, with their verdicts. `loops` are the natural
/// loops of `cfg` and what [`super::loops::counted`] said of each.
pub fn analyze<'c, 'a>(
    cfg: &Cfg<'c, 'a>,
    loops: &[(Loop, Result<Counted<'c, 'a>, NotCounted>)],
    allocas: &[OperationRef<'c, 'a>],
) -> Vec<(OperationRef<'c, 'a>, Analysis<'c, 'a>)> {
    let layout = DataLayout::nvptx64();
    let mut found = Vec::new();
    for &alloca in allocas {
        let Some(bytes) = alloca_bytes(layout, alloca) else { continue };
        let Some(root) = first_result(alloca) else { continue };
        match accesses(root) {
            Err(refusal) => {
                if has_dynamic_index(root) {
                    found.push((alloca, Err(refusal)));
                }
            }
            Ok(geps) if geps.is_empty() => {}
            Ok(geps) => {
                let analysis = requirements(cfg, loops, &geps).map(|r| Candidate {
                    alloca,
                    bytes,
                    loops: r.needed,
                    selects: r.selects,
                    why: r.why,
                });
                found.push((alloca, analysis));
            }
        }
    }
    found
}

/// Bytes of a constant-size alloca whose type has a layout.
pub fn alloca_bytes(layout: &DataLayout, alloca: OperationRef) -> Option<u64> {
    let count = u64::try_from(crate::abi::frame::alloca_count(alloca)?).ok()?;
    let ty = abi_type(crate::ir::Alloca::of(alloca)?.element_type()?).ok()?;
    layout.alloc_size(&ty).checked_mul(count)
}

/// Whether a GEP has an index that is not a constant.
fn dynamic(gep: OperationRef) -> bool {
    gep_indices(gep).is_some_and(|indices| indices.iter().any(Option::is_none))
}

/// Visits every use of the address `root` (an alloca's result) and of the
/// pointers derived from it by `llvm.addrspacecast` and
/// `llvm.getelementptr`, each once, with the constant byte offset from
/// `root` of the pointer used (`None` below a dynamic index or a type
/// without layout); stops at the first `Err` of `visit`.
pub fn walk<'c: 'a, 'a, E>(
    root: Value<'c, 'a>,
    mut visit: impl FnMut(Use<'c, 'a>, Option<i64>) -> Result<(), E>,
) -> Result<(), E> {
    let layout = DataLayout::nvptx64();
    let mut work = vec![(root, Some(0i64))];
    let mut seen = HashSet::default();
    while let Some((value, offset)) = work.pop() {
        if !seen.insert(value.to_raw().ptr) {
            continue;
        }
        for used in uses(value) {
            visit(used, offset)?;
            let op = used.owner;
            match (LlvmOp::of(op), used.index) {
                (LlvmOp::AddrSpaceCast, 0) => work.extend(first_result(op).map(|r| (r, offset))),
                (LlvmOp::Gep, 0) => {
                    let step = crate::abi::mlir::gep_offset(layout, op);
                    work.extend(first_result(op).map(|r| (r, offset.zip(step).map(|(base, step)| base + step))));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Whether some GEP of `root` (through casts and GEPs) has a dynamic index.
pub fn has_dynamic_index(root: Value) -> bool {
    walk(root, |used, _| match (LlvmOp::of(used.owner), used.index) {
        (LlvmOp::Gep, 0) if dynamic(used.owner) => Err(()),
        _ => Ok(()),
    })
    .is_err()
}

/// Every GEP of `root`, through casts and GEPs.
pub fn all_geps<'c, 'a>(root: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut geps = Vec::new();
    let _ = walk(root, |used, _| {
        if (LlvmOp::of(used.owner), used.index) == (LlvmOp::Gep, 0) {
            geps.push(used.owner);
        }
        Ok::<(), ()>(())
    });
    geps
}

/// The GEPs with a dynamic index among the uses of `root` (through casts
/// and GEPs), or why SROA could not promote it even with constant indices.
pub fn accesses<'c, 'a>(root: Value<'c, 'a>) -> Result<Vec<OperationRef<'c, 'a>>, Refusal> {
    let mut geps = Vec::new();
    walk(root, |used, _| {
        let op = used.owner;
        match (LlvmOp::of(op), used.index) {
            (LlvmOp::AddrSpaceCast, 0) => {}
            (LlvmOp::Gep, 0) => {
                if dynamic(op) {
                    geps.push(op);
                }
            }
            (LlvmOp::Load, 0) | (LlvmOp::Store, 1) if crate::ir::is_volatile_access(op) => {
                return Err(Refusal::Volatile)
            }
            (LlvmOp::Load, 0) | (LlvmOp::Store, 1) => {}
            (LlvmOp::Memcpy | LlvmOp::Memmove | LlvmOp::MemcpyInline, 0 | 1)
            | (LlvmOp::Memset | LlvmOp::MemsetInline, 0)
                if crate::ir::MemIntrinsic::of(op).and_then(|m| m.constant_length()).is_some() => {}
            (_, 1) if op_name(op) == names::COPY_PARAM => {}
            (kind, _) if kind.is_lifetime_marker() => {}
            (kind, _) if kind.is_debug_info() => {}
            _ => return Err(Refusal::Escapes(op_name(op).to_owned())),
        }
        Ok(())
    })?;
    Ok(geps)
}

/// What makes every index of an alloca's GEPs a constant.
struct Requirements<'c, 'a> {
    /// The loops (positions in `loops`) to unroll.
    needed: Vec<usize>,
    /// The GEPs whose indices no unrolling makes constant, which only
    /// selects can stand for.
    selects: Vec<OperationRef<'c, 'a>>,
    /// Why unrolling cannot make the first of them constant.
    why: Option<Refusal>,
}

/// The [`Requirements`] of `geps`, or why neither unrolling nor selects can
/// make their indices constant.
fn requirements<'c, 'a>(
    cfg: &Cfg,
    loops: &[(Loop, Result<Counted, NotCounted>)],
    geps: &[OperationRef<'c, 'a>],
) -> Result<Requirements<'c, 'a>, Refusal> {
    let mut needed = Vec::new();
    let mut selects = Vec::new();
    let mut why = None;
    for gep in geps {
        match gep_requirements(cfg, loops, *gep) {
            Ok(positions) => {
                for position in positions {
                    if !needed.contains(&position) {
                        needed.push(position);
                    }
                }
            }
            Err(refusal) if refusal.only_indices() => {
                selects.push(*gep);
                why.get_or_insert(refusal);
            }
            Err(refusal) => return Err(refusal),
        }
    }
    Ok(Requirements { needed, selects, why })
}

/// The loops whose unrolling makes every index of `gep` a constant, or why
/// there are none.
fn gep_requirements(
    cfg: &Cfg,
    loops: &[(Loop, Result<Counted, NotCounted>)],
    gep: OperationRef,
) -> Result<Vec<usize>, Refusal> {
    let mut needed = Vec::new();
    let block = gep.block().and_then(|b| cfg.position(b));
    for index in 1..gep.operand_count() {
        let Ok(operand) = gep.operand_at(index) else { continue };
        if constant_int(operand).is_some() {
            continue;
        }
        let leaves = leaves(operand).map_err(|op| Refusal::Index(op.unwrap_or_else(|| "an unsupported op".into())))?;
        for leaf in leaves {
            let owner = as_argument(leaf).and_then(|a| cfg.position(a.owner()));
            let Some(owner) = owner else { return Err(Refusal::NotCounter) };
            if owner == 0 {
                return Err(Refusal::Argument);
            }
            let found =
                loops.iter().position(|(shape, _)| shape.header == owner && block.is_some_and(|b| shape.contains(b)));
            let Some(position) = found else { return Err(Refusal::NotCounter) };
            match &loops[position].1 {
                Err(why) => return Err(Refusal::Loop(why.clone())),
                Ok(counted) if !counted.counters.iter().any(|(argument, _)| *argument == leaf) => {
                    return Err(Refusal::NotCounter)
                }
                Ok(_) => {
                    if !needed.contains(&position) {
                        needed.push(position);
                    }
                }
            }
        }
    }
    Ok(needed)
}

/// Ops unrolling the loops `chosen` (positions in `loops`) adds, inner
/// loops unrolled inside outer ones.
pub fn added_ops(loops: &[(Loop, Result<Counted, NotCounted>)], chosen: &[usize]) -> u64 {
    // Innermost first: `loops` is sorted by size, so an inner loop comes
    // before every loop around it.
    let mut order: Vec<usize> = chosen.to_vec();
    order.sort_unstable();
    let mut grown: Vec<(usize, u64)> = Vec::new();
    let mut total = 0u64;
    for &position in &order {
        let (shape, Ok(counted)) = &loops[position] else { continue };
        let own = counted.ops as u64;
        // The chosen loops directly inside this one.
        let inner: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| i != position && shape.contains(loops[i].0.header))
            .filter(|&i| {
                !order.iter().any(|&j| {
                    j != i
                        && j != position
                        && shape.contains(loops[j].0.header)
                        && loops[j].0.contains(loops[i].0.header)
                })
            })
            .collect();
        let growth: u64 = inner.iter().filter_map(|i| grown.iter().find(|(p, _)| p == i).map(|(_, g)| *g)).sum();
        let body = own.saturating_add(growth);
        let added = body.saturating_mul(counted.trips).saturating_sub(own);
        grown.push((position, added));
        let outer = order.iter().any(|&j| {
            j != position && loops[j].0.contains(shape.header) && loops[j].0.blocks.len() > shape.blocks.len()
        });
        if !outer {
            total = total.saturating_add(added);
        }
    }
    total
}
