//! Which stack slots share the frame: the allocas live at each point of a
//! function by their lifetime markers, as `llc`'s stack colouring sees
//! them, and the frame a choice of allocas to promote leaves.
//!
//! `llc` (StackColoring) lets two allocas whose `llvm.intr.lifetime.start`
//! / `end` ranges never overlap share one place in the frame: largest
//! first, each alloca joins the first place whose allocas it overlaps
//! nowhere ([`SlotLiveness::frame`] does the same, then lays the places out
//! in order with their alignments). An array whose place stays taken by
//! arrays kept in local memory frees no stack when promoted (NVIDIA Warp's
//! float16 spatial matrices: ten 72-byte temporaries live one after the
//! other, beside ten live throughout).
//!
//! An alloca without a lifetime marker (MLIR front ends, `-O0`) is live
//! everywhere, as it is to `llc`.
//!
//! Which allocas are in the frame depends on the choice: an array with a
//! dynamic index or an escaping address stays unless promoted, and one
//! SROA splits (constant indices only) stays too where it is copied
//! (`memcpy`, `memmove`) to or from one that stays: `llc`'s SROA keeps a
//! slice only copied whole (Warp's zeroed matrix rows, copied into the
//! matrix a loop indexes) as a slot of its own. So promoting such a matrix
//! frees its rows' stack as well.

use melior::ir::{block::BlockLike, operation::OperationLike, OperationRef};

use super::candidates::{accesses, walk};
use crate::abi::{frame::size_and_align, DataLayout};
use crate::ir::{first_result, Cfg, HashMap, HashSet, LlvmOp, OperationExt};
use crate::slots::root_alloca;

/// The allocas of one function and the distinct sets of them live at
/// some point.
#[derive(Debug)]
pub struct SlotLiveness {
    /// Each alloca's size in bytes (0 where unknown: a dynamic size).
    sizes: Vec<u64>,
    /// Each alloca's alignment.
    aligns: Vec<u64>,
    /// Whether each alloca has lifetime markers (else `llc` gives it a
    /// place of its own).
    marked: Vec<bool>,
    /// Whether each alloca stays in the frame unless promoted (a dynamic
    /// index or an escaping address); the others SROA splits.
    stays: Vec<bool>,
    /// The allocas each one is copied to or from (`memcpy`, `memmove`).
    partners: Vec<Vec<usize>>,
    /// How many distinct live sets there are.
    set_count: usize,
    /// The live sets each alloca of a nonzero size is in.
    sets_of: Vec<Vec<usize>>,
}

/// A marker's effect: the alloca's position and whether it starts (or
/// ends) its lifetime.
type Marker = (usize, bool);

/// Whether bit `i` of `set` is set.
fn has(set: &[u64], i: usize) -> bool {
    set[i / 64] >> (i % 64) & 1 == 1
}

/// Sets (or clears) bit `i` of `set`.
fn put(set: &mut [u64], i: usize, on: bool) {
    match on {
        true => set[i / 64] |= 1 << (i % 64),
        false => set[i / 64] &= !(1 << (i % 64)),
    }
}

impl SlotLiveness {
    /// The allocas of a function (all of them, `allocas`) and their
    /// liveness over the blocks of `cfg`: forward, a slot live from a
    /// `lifetime.start` of it (at offset 0, through casts and GEPs) until a
    /// `lifetime.end`, on some path; one without markers always.
    /// `dynamic` tells the allocas with a dynamic index.
    pub fn of(cfg: &Cfg, allocas: &[OperationRef], dynamic: impl Fn(OperationRef) -> bool) -> Self {
        let layout = DataLayout::nvptx64();
        let (sizes, aligns): (Vec<u64>, Vec<u64>) =
            allocas.iter().map(|a| size_and_align(*a, layout, 0).ok().flatten().unwrap_or((0, 1))).unzip();
        let stays: Vec<bool> = allocas
            .iter()
            .map(|a| dynamic(*a) || first_result(*a).is_none_or(|root| accesses(root).is_err()))
            .collect();
        let index: HashMap<_, usize> = allocas.iter().enumerate().map(|(i, a)| (a.to_raw().ptr, i)).collect();
        let words = allocas.len().div_ceil(64).max(1);
        // Each alloca's copies, seen from its side (the other's walk adds
        // the other direction).
        let mut partners = vec![Vec::new(); allocas.len()];
        let mut marked = Vec::with_capacity(allocas.len());
        let mut markers: HashMap<*mut std::ffi::c_void, Marker> = HashMap::default();
        for (slot, alloca) in allocas.iter().enumerate() {
            let Some(root) = first_result(*alloca) else {
                marked.push(false);
                continue;
            };
            let mut found = false;
            let _ = walk(root, |used, offset| {
                let kind = LlvmOp::of(used.owner);
                if kind.is_lifetime_marker() && offset == Some(0) {
                    markers.insert(used.owner.to_raw().ptr, (slot, kind == LlvmOp::LifetimeStart));
                    found = true;
                }
                if kind.is_memory_transfer() && used.index < 2 {
                    let other = used
                        .owner
                        .operand_at(1 - used.index)
                        .ok()
                        .and_then(root_alloca)
                        .and_then(crate::ir::as_result)
                        .and_then(|result| index.get(&result.owner().to_raw().ptr).copied());
                    partners[slot].extend(other.filter(|other| *other != slot));
                }
                Ok::<(), ()>(())
            });
            marked.push(found);
        }
        let mut always = vec![0u64; words];
        for (slot, marked) in marked.iter().enumerate() {
            put(&mut always, slot, !marked);
        }
        // The markers of each block, in order.
        let effects: Vec<Vec<Marker>> = cfg
            .blocks
            .iter()
            .map(|block| {
                let mut list = Vec::new();
                let mut next = block.first_operation();
                while let Some(op) = next {
                    list.extend(markers.get(&op.to_raw().ptr).copied());
                    next = op.next_in_block();
                }
                list
            })
            .collect();
        // Live on entry to each block: the union over its predecessors of
        // what is live at their ends, to a fixed point (the sets only grow;
        // in reverse postorder, a pass more than the loops' nesting).
        let order = cfg.reverse_postorder();
        let mut live_in = vec![vec![0u64; words]; cfg.blocks.len()];
        let mut changed = true;
        while changed {
            changed = false;
            for &block in &order {
                let mut out = live_in[block].clone();
                for &(slot, start) in &effects[block] {
                    put(&mut out, slot, start);
                }
                for &successor in &cfg.successors[block] {
                    for (word, bits) in live_in[successor].iter_mut().zip(&out) {
                        if *word | bits != *word {
                            *word |= bits;
                            changed = true;
                        }
                    }
                }
            }
        }
        let mut sets = HashSet::default();
        for (block, effects) in effects.iter().enumerate() {
            let mut set = live_in[block].clone();
            sets.insert(with(&set, &always));
            for &(slot, start) in effects {
                put(&mut set, slot, start);
                sets.insert(with(&set, &always));
            }
        }
        let mut sets_of = vec![Vec::new(); sizes.len()];
        for (id, set) in sets.iter().enumerate() {
            for (slot, of) in sets_of.iter_mut().enumerate() {
                if sizes[slot] > 0 && has(set, slot) {
                    of.push(id);
                }
            }
        }
        Self { sizes, aligns, marked, stays, partners, set_count: sets.len(), sets_of }
    }

    /// The work of one [`Self::frame`]: each alloca against every place
    /// in the live sets, and their copies.
    pub fn cost(&self) -> usize {
        let places: usize = self.sets_of.iter().map(Vec::len).sum();
        self.sizes.len().saturating_mul(places.saturating_add(1)) + self.partners.iter().map(Vec::len).sum::<usize>()
    }

    /// The allocas in the frame when those marked in `promoted` are
    /// registers: those that stay but are not promoted, and every alloca
    /// SROA splits that is copied to or from one in the frame (through
    /// such copies).
    pub fn in_frame(&self, promoted: &[bool]) -> Vec<bool> {
        let mut frame: Vec<bool> = (0..self.sizes.len()).map(|slot| self.stays[slot] && !promoted[slot]).collect();
        let mut work: Vec<usize> = (0..frame.len()).filter(|slot| frame[*slot]).collect();
        while let Some(slot) = work.pop() {
            for &other in &self.partners[slot] {
                if !self.stays[other] && !frame[other] {
                    frame[other] = true;
                    work.push(other);
                }
            }
        }
        frame
    }

    /// The frame `llc` lays out when the allocas marked in `promoted` are
    /// registers: those [`Self::in_frame`] coloured as StackColoring does
    /// (largest first, stable; each alloca with markers joins the first
    /// place none of whose allocas is live where it is), the places laid
    /// out in order (of their first alloca), each at its largest alignment.
    pub fn frame(&self, promoted: &[bool]) -> u64 {
        let in_frame = self.in_frame(promoted);
        let mut order: Vec<usize> = (0..self.sizes.len()).filter(|s| in_frame[*s] && self.sizes[*s] > 0).collect();
        order.sort_by(|a, b| self.sizes[*b].cmp(&self.sizes[*a]));
        let mut merged = vec![false; self.sizes.len()];
        let mut places = Vec::new();
        let words = self.set_count.div_ceil(64).max(1);
        for (at, &first) in order.iter().enumerate() {
            if merged[first] {
                continue;
            }
            let (size, mut align) = (self.sizes[first], self.aligns[first]);
            if self.marked[first] {
                let mut covered = vec![0u64; words];
                for &set in &self.sets_of[first] {
                    put(&mut covered, set, true);
                }
                for &second in &order[at + 1..] {
                    let disjoint = || self.sets_of[second].iter().all(|set| !has(&covered, *set));
                    if merged[second] || !self.marked[second] || !disjoint() {
                        continue;
                    }
                    merged[second] = true;
                    align = align.max(self.aligns[second]);
                    for &set in &self.sets_of[second] {
                        put(&mut covered, set, true);
                    }
                }
            }
            places.push((first, size, align));
        }
        places.sort_unstable();
        places.into_iter().fold(0u64, |offset, (_, size, align)| {
            offset.div_ceil(align.max(1)).saturating_mul(align.max(1)).saturating_add(size)
        })
    }
}

/// `set` with the bits of `always` added.
fn with(set: &[u64], always: &[u64]) -> Vec<u64> {
    set.iter().zip(always).map(|(a, b)| a | b).collect()
}

#[cfg(test)]
mod tests {
    use super::SlotLiveness;
    use crate::abi::frame::allocas;
    use crate::ir::{Cfg, OperationExt};
    use melior::ir::{block::BlockLike, operation::OperationLike, Module, RegionLike};

    /// `%a` (16 bytes, a dynamic index) lives in `^bb1` only, on one branch;
    /// `%b` (8 bytes, escaping) from the start to the join; `%c` (4 bytes,
    /// constant indices) is copied into `%b`; `%d` (32 bytes, no markers)
    /// always.
    fn frame_ir() -> String {
        format!(
            "llvm.func @sink(!llvm.ptr)\n\
        llvm.func @f(%k: i32, %x: i1) {{\n\
        %one = llvm.mlir.constant(1 : i32) : i32\n\
        %n = llvm.mlir.constant(4 : i64) : i64\n\
        %a = llvm.alloca %one x !llvm.array<4 x i32> : (i32) -> !llvm.ptr\n\
        %b = llvm.alloca %one x !llvm.array<2 x i32> : (i32) -> !llvm.ptr\n\
        %c = llvm.alloca %one x i32 : (i32) -> !llvm.ptr\n\
        %d = llvm.alloca %one x !llvm.array<8 x i32> : (i32) -> !llvm.ptr\n\
        llvm.intr.lifetime.start %b : !llvm.ptr\n\
        llvm.intr.lifetime.start %c : !llvm.ptr\n\
        \"{memcpy}\"(%b, %c, %n) <{{isVolatile = false}}> : (!llvm.ptr, !llvm.ptr, i64) -> ()\n\
        llvm.intr.lifetime.end %c : !llvm.ptr\n\
        llvm.call @sink(%b) : (!llvm.ptr) -> ()\n\
        llvm.call @sink(%d) : (!llvm.ptr) -> ()\n\
        llvm.cond_br %x, ^bb1, ^bb2\n\
        ^bb1:\n\
        llvm.intr.lifetime.start %a : !llvm.ptr\n\
        %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>\n\
        llvm.store %k, %p : i32, !llvm.ptr\n\
        llvm.intr.lifetime.end %a : !llvm.ptr\n\
        llvm.br ^bb2\n\
        ^bb2:\n\
        llvm.intr.lifetime.end %b : !llvm.ptr\n\
        llvm.return\n}}",
            memcpy = crate::ir::LlvmOp::Memcpy.name()
        )
    }

    /// The frame as llc colours it: allocas live at no point together share
    /// a place; those SROA splits count only where copied to or from one
    /// that stays; promoted arrays leave it.
    #[test]
    fn frame_by_lifetimes_and_copies() {
        let context = crate::abi::tests::llvm_context();
        let module = Module::parse(&context, &frame_ir()).expect("parses");
        let func = module.body().first_operation().and_then(|op| op.next_in_block()).expect("the function");
        let every = allocas(func);
        let entry = func.region_at(0).ok().and_then(|r| r.first_block()).expect("a body");
        let cfg = Cfg::new(entry);
        let liveness = SlotLiveness::of(&cfg, &every, |alloca| alloca == every[0]);
        // %c is in the frame while %b (escaping) is.
        assert_eq!(liveness.in_frame(&[false; 4]), vec![true, true, true, true]);
        // Where %c lives: %b + %c + %d = 44; in ^bb1: %a + %b + %d = 56.
        assert_eq!(liveness.frame(&[false; 4]), 56);
        // Promoting %a leaves 44; %b cannot be promoted, but were it, %c
        // would go with it (SROA splits it): 16 + 32.
        assert_eq!(liveness.frame(&[true, false, false, false]), 44);
        assert_eq!(liveness.in_frame(&[false, true, false, false]), vec![true, false, false, true]);
        assert_eq!(liveness.frame(&[false, true, false, false]), 48);
    }
}
