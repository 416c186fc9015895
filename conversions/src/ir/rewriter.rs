//! The rewriter: the one way a pass erases, replaces, moves and clones IR,
//! so that no handle a pass holds can dangle.
//!
//! **Invariant: no op is freed while a pass runs.** Erasing an op
//! ([`Rewriter::erase`], or [`Rewriter::erase_later`] and
//! [`Rewriter::flush`]) drops the references it holds (its operands' and
//! successors' uses) and unlinks it from its block, as MLIR's
//! `RewriterBase::eraseOp` does, but keeps it allocated in the rewriter's
//! graveyard; the graveyard is freed
//! when the rewriter is dropped, at the end of the pass's run on its op
//! (function or module), when every analysis of that run is gone. A
//! handle to an erased op therefore reads a detached op (no parent, no
//! operands), never freed memory: an analysis that kept a call whose block
//! was rewritten sees a stale op, not a use-after-free.
//!
//! Block arguments are the one thing freed at once
//! ([`Rewriter::erase_argument`]): MLIR has no way to keep an erased
//! argument alive, and the rewriter erases one only when nothing uses it.
//!
//! ```ignore
//! let mut rewriter = Rewriter::new();     // at the pass's entry
//! rewriter.replace_uses(old, new);
//! rewriter.erase_later(load);             // listed: still in the IR
//! rewriter.erase_later_if_unused(gep);
//! rewriter.flush();                       // detached now, freed when `rewriter` goes
//! ```

use melior::ir::{operation::OperationLike, BlockLike, BlockRef, Operation, OperationRef, Value, ValueLike};

use super::HashSet;

/// The rewriter of a pass's run: every erasure, replacement, move and clone
/// of the run goes through it, and what it erases is freed together when
/// it is dropped (see the module's invariant).
///
/// Erasing is immediate ([`Rewriter::erase`]) or deferred: a rewrite that
/// applies several plans made from one analysis lists what they leave dead
/// ([`Rewriter::erase_later`], [`Rewriter::erase_later_if_unused`]) and
/// erases it all at once ([`Rewriter::flush`]) when every plan is applied,
/// so that what a later plan reads is the IR its analysis saw.
#[derive(Default)]
pub struct Rewriter {
    /// Detached ops, each once, freed on drop.
    graveyard: Vec<mlir_sys::MlirOperation>,
    /// Bodies taken out of ops by [`Rewriter::restore_body`], freed on drop.
    bodies: Vec<melior::ir::Region<'static>>,
    /// The ops listed for the next [`Rewriter::flush`].
    pending: EraseList,
}

impl Rewriter {
    /// A rewriter with an empty graveyard.
    pub fn new() -> Self {
        Self::default()
    }

    /// Erases `op` if nothing uses its results and it is in a block:
    /// unlinks it (dropping the uses it makes) and keeps it until the
    /// rewriter is dropped. `false`, changing nothing, otherwise.
    #[must_use = "a false result leaves the op in the IR"]
    pub fn erase(&mut self, op: OperationRef) -> bool {
        if op.block().is_none() || !results_unused(op.to_raw()) {
            return false;
        }
        self.detach(op.to_raw());
        true
    }

    /// Erases argument `index` of `block`, which nothing may use any more;
    /// `false`, changing nothing, when it is out of range or still used.
    /// The argument is freed at once: a handle to it must not be read
    /// again (the one exception to the module's invariant).
    #[must_use = "a false result leaves the argument in the block"]
    pub fn erase_argument(&mut self, block: BlockRef, index: usize) -> bool {
        let Ok(argument) = super::BlockExt::argument_at(&block, index) else { return false };
        if !super::has_no_uses(argument.into()) {
            return false;
        }
        // SAFETY: the position is in range of the live block and the
        // argument has no uses, so no operand refers to it.
        unsafe { mlir_sys::mlirBlockEraseArgument(block.to_raw(), index as u32) };
        true
    }

    /// Lists `op` for the next [`Rewriter::flush`]: by then, nothing may
    /// use its results. An op is listed once however often it is named (two
    /// plans can name one op); an op with regions is not listed (erasing it
    /// would erase the ops inside, which a plan may hold).
    pub fn erase_later(&mut self, op: OperationRef) {
        self.pending.erase(op);
    }

    /// Lists `op` for the next [`Rewriter::flush`], to be erased if by then
    /// nothing uses its results (address arithmetic a rewrite may have left
    /// without uses).
    pub fn erase_later_if_unused(&mut self, op: OperationRef) {
        self.pending.erase_if_unused(op);
    }

    /// Erases the ops listed since the last flush: first those listed with
    /// [`Rewriter::erase_later`], in order, then those listed with
    /// [`Rewriter::erase_later_if_unused`] that nothing uses, in order;
    /// erasing an op tries again the listed ops that define its operands (a
    /// GEP chain goes whole, in whatever order its links were listed). An
    /// op listed with `erase_later` whose results are still used is kept (a
    /// dead op left in the IR, never a dangling use) and counted in the
    /// result, which debug builds check is zero. An op no longer in a
    /// block (erased since it was listed) is skipped.
    pub fn flush(&mut self) -> usize {
        let list = std::mem::take(&mut self.pending);
        self.finish(list)
    }

    /// [`Rewriter::flush`] of `list`.
    fn finish(&mut self, list: EraseList) -> usize {
        let mut kept = 0;
        for raw in list.dead {
            if !in_block(raw) {
                continue;
            }
            if results_unused(raw) {
                self.detach(raw);
            } else {
                kept += 1;
            }
        }
        let mut pending: HashSet<*mut std::ffi::c_void> = list.if_unused.iter().map(|raw| raw.ptr).collect();
        for raw in list.if_unused {
            let mut stack = vec![raw];
            while let Some(op) = stack.pop() {
                if !pending.contains(&op.ptr) || !in_block(op) || !results_unused(op) {
                    continue;
                }
                let operands = definers(op);
                pending.remove(&op.ptr);
                self.detach(op);
                stack.extend(operands);
            }
        }
        debug_assert_eq!(kept, 0, "an op listed for erasure is still used");
        kept
    }

    /// Replaces every use of `old` with `new`.
    pub fn replace_uses(&self, old: Value, new: Value) {
        // SAFETY: both values are live; MLIR rewires the use lists.
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
    }

    /// Replaces every use of `old` with `new`, except the uses by the ops
    /// in `exceptions`.
    pub fn replace_uses_except(&self, old: Value, new: Value, exceptions: &[OperationRef]) {
        let exceptions: Vec<mlir_sys::MlirOperation> = exceptions.iter().map(|op| op.to_raw()).collect();
        // SAFETY: both values and the excepted ops are live; MLIR rewires
        // the use lists and only reads the exceptions (the C API's pointer
        // is not const, but the array is not written).
        unsafe {
            mlir_sys::mlirValueReplaceAllUsesExcept(
                old.to_raw(),
                new.to_raw(),
                exceptions.len() as isize,
                exceptions.as_ptr() as *mut _,
            );
        }
    }

    /// A copy of `op` (its regions included), owned by the caller until it
    /// is inserted into a block.
    pub fn clone<'c>(&self, op: OperationRef<'c, '_>) -> Operation<'c> {
        // SAFETY: cloning a live op gives a new op without a parent, which
        // the returned `Operation` owns (and destroys if it is never
        // inserted).
        unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) }
    }

    /// Moves `op` from its block to the end of `block`, which takes
    /// ownership.
    pub fn move_to_end(&self, op: OperationRef, block: BlockRef) {
        // SAFETY: `op` is live and detached from its block here, then handed
        // to `block`, which owns it from then on; no op is freed.
        unsafe {
            mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
            mlir_sys::mlirBlockAppendOwnedOperation(block.to_raw(), op.to_raw());
        }
    }

    /// Moves `op` from its block to just before `anchor` (in the same or
    /// another block).
    pub fn move_before(&self, op: OperationRef, anchor: OperationRef) {
        // SAFETY: both ops are live and in blocks; MLIR unlinks `op` and
        // links it before `anchor`, whose block owns it from then on; no op
        // is freed.
        unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), anchor.to_raw()) };
    }

    /// Moves the body (every block) of `from` into `into`, which must be
    /// empty: nothing is freed, so every op, block and value of the body
    /// stays valid (an analysis that holds one keeps a live handle; only
    /// the function around it changes). Returns `false`, moving nothing,
    /// when `into` has a block or is `from` itself.
    pub fn move_body<'c: 'a, 'a>(
        &self,
        from: &impl melior::ir::RegionLike<'c, 'a>,
        into: &impl melior::ir::RegionLike<'c, 'a>,
    ) -> bool {
        if into.first_block().is_some() || from.to_raw().ptr == into.to_raw().ptr {
            return false;
        }
        // SAFETY: both regions are live; `into` has no block, so taking the
        // body destroys nothing; `from` is left empty.
        unsafe { mlir_sys::mlirRegionTakeBody(into.to_raw(), from.to_raw()) };
        true
    }

    /// Gives `op` back the body (first region) of `snapshot`, a clone of
    /// `op` made before it changed: the changed body is taken out (kept
    /// until the rewriter is dropped, like an erased op) and the
    /// snapshot's moves in. The rewrite that changed the body must be over
    /// (flushed): what it listed for erasure is in the body taken out.
    /// Returns `false`, changing nothing, when either has no region.
    pub fn restore_body(&mut self, op: OperationRef, snapshot: Operation) -> bool {
        // SAFETY: both ops are live; a region count checked before each
        // region is read.
        let (region, saved) = unsafe {
            let (live, saved) = (op.to_raw(), snapshot.to_raw());
            if mlir_sys::mlirOperationGetNumRegions(live) == 0 || mlir_sys::mlirOperationGetNumRegions(saved) == 0 {
                return false;
            }
            (mlir_sys::mlirOperationGetRegion(live, 0), mlir_sys::mlirOperationGetRegion(saved, 0))
        };
        let taken = melior::ir::Region::new();
        // SAFETY: the three regions are live and distinct; `taken` is empty,
        // so taking the body into it destroys nothing, and `region` is empty
        // when the snapshot's body moves in. Nothing is freed: the changed
        // body lives in `taken` until the rewriter is dropped, and
        // `snapshot` is dropped with an empty region.
        unsafe {
            mlir_sys::mlirRegionTakeBody(melior::ir::RegionLike::to_raw(&taken), region);
            mlir_sys::mlirRegionTakeBody(region, saved);
        }
        self.bodies.push(taken);
        true
    }

    /// Takes over what `other` erased (after flushing what it listed), so
    /// that it is freed when this rewriter is: a pass that rewrites
    /// functions on several threads gives each its own rewriter and
    /// absorbs them on its own thread, keeping the invariant for the whole
    /// run. Returns the ops `other`'s flush kept, as [`Rewriter::flush`].
    pub fn absorb(&mut self, mut other: Rewriter) -> usize {
        let kept = other.flush();
        self.graveyard.append(&mut other.graveyard);
        self.bodies.append(&mut other.bodies);
        kept
    }

    /// Unlinks `raw` (in a block) and keeps it for the drop.
    fn detach(&mut self, raw: mlir_sys::MlirOperation) {
        ptxcc_shim::operation_detach(raw);
        self.graveyard.push(raw);
    }
}

impl Drop for Rewriter {
    fn drop(&mut self) {
        for raw in self.graveyard.drain(..) {
            // SAFETY: each op was detached once (only ops in a block are
            // detached, and a detached op is in none), holds no reference,
            // and is owned by nothing else.
            unsafe { mlir_sys::mlirOperationDestroy(raw) };
        }
    }
}

/// Whether the live op `raw` is in a block.
fn in_block(raw: mlir_sys::MlirOperation) -> bool {
    // SAFETY: reading the parent of a live op (listed ops are never freed
    // while their rewriter lives).
    !unsafe { mlir_sys::mlirOperationGetBlock(raw) }.ptr.is_null()
}

/// Whether nothing uses the results of the live op `raw`.
fn results_unused(raw: mlir_sys::MlirOperation) -> bool {
    // SAFETY: reading the use lists of a live op's results.
    unsafe {
        (0..mlir_sys::mlirOperationGetNumResults(raw)).all(|i| {
            mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(mlir_sys::mlirOperationGetResult(raw, i)))
        })
    }
}

/// The ops that define the operands of the live op `raw`.
fn definers(raw: mlir_sys::MlirOperation) -> Vec<mlir_sys::MlirOperation> {
    // SAFETY: reading the operands of a live op.
    unsafe {
        (0..mlir_sys::mlirOperationGetNumOperands(raw))
            .map(|i| mlir_sys::mlirOperationGetOperand(raw, i))
            .filter(|value| mlir_sys::mlirValueIsAOpResult(*value))
            .map(|value| mlir_sys::mlirOpResultGetOwner(value))
            .collect()
    }
}

/// The ops a rewrite has done with, erased together by [`Rewriter::flush`]
/// (the kernel `byval` parameters of one function, the device functions of
/// one round: an op two plans refer to, an `llvm.intr.assume` naming two
/// parameters, is listed twice but erased once).
#[derive(Default)]
struct EraseList {
    /// Ops to erase, in order; every use of their results must be gone by
    /// the end.
    dead: Vec<mlir_sys::MlirOperation>,
    /// Ops to erase if nothing uses their results by the end (GEPs a
    /// rewrite may have left without uses), in order.
    if_unused: Vec<mlir_sys::MlirOperation>,
    /// Every op listed, to list each once.
    listed: HashSet<*mut std::ffi::c_void>,
}

impl EraseList {
    /// Lists `op` for erasure: by the end, nothing may use its results.
    fn erase(&mut self, op: OperationRef) {
        if op.region_count() == 0 && self.listed.insert(op.to_raw().ptr) {
            self.dead.push(op.to_raw());
        }
    }

    /// Lists `op` for erasure if, by the end, nothing uses its results.
    fn erase_if_unused(&mut self, op: OperationRef) {
        if op.region_count() == 0 && self.listed.insert(op.to_raw().ptr) {
            self.if_unused.push(op.to_raw());
        }
    }
}

/// Adds to `patterns` a pattern on every `root` op: `rewrite` gets the op
/// and MLIR's rewriter (positioned nowhere in particular) and says whether
/// it changed the op. Through MLIR's rewriter, what it inserts, replaces
/// and erases is seen by the pattern driver (MLIR's own invariant).
pub fn add_op_pattern<F>(
    patterns: &melior::RewritePatternSet,
    context: &melior::Context,
    root: &'static str,
    rewrite: F,
) where
    F: for<'c> Fn(OperationRef<'c, 'c>, melior::RewriterBase<'c, 'c>) -> bool + 'static,
{
    let pattern = melior::create_op_rewrite_pattern(
        root,
        1,
        context,
        move |_, raw_op, raw_rewriter| {
            // SAFETY: MLIR hands the callback a live op and rewriter, both
            // valid for the call; the lifetimes melior attaches are phantom,
            // and `rewrite` cannot keep either past the call (`for<'c>`).
            let (op, base) = unsafe {
                (
                    OperationRef::from_raw(raw_op),
                    melior::RewriterBase::from_raw(mlir_sys::mlirPatternRewriterAsBase(raw_rewriter)),
                )
            };
            rewrite(op, base)
        },
        &[],
    );
    patterns.add(pattern);
}

/// Inserts `op` at `rewriter`'s insertion point and returns its first
/// result, with the lifetimes of the IR (melior ties an inserted op to the
/// borrow of the rewriter).
pub fn insert_through<'c>(
    rewriter: &melior::RewriterBase<'c, 'c>,
    op: melior::ir::Operation<'c>,
) -> Option<melior::ir::Value<'c, 'c>> {
    let inserted = rewriter.insert(op);
    // SAFETY: the op is owned by the IR the rewriter works on, which
    // outlives the callback the rewriter belongs to; melior values carry no
    // ownership.
    super::first_result(inserted)
        .map(|value| unsafe { melior::ir::Value::from_raw(melior::ir::ValueLike::to_raw(&value)) })
}
