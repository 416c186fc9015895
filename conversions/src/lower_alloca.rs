//! `lower-alloca`: stack slots into PTX's local address space (seed 004,
//! upstream NVPTXLowerAlloca + NVPTXAllocaHoisting).
//!
//! PTX has no stack: every slot lives in the function's `.local` depot.
//! The pass makes that explicit so that later passes (and `llc`) address
//! slots with `ld.local`/`st.local` instead of generic accesses:
//!
//! - every generic `llvm.alloca` gets a local view (`llvm.addrspacecast` to
//!   `!llvm.ptr<5>`) and one cast back to generic, which replaces the old
//!   result (`memory-space-opt` then moves the loads and stores to the
//!   view); the alloca itself stays generic, as in `llc`'s own lowering.
//!   A slot `llc`'s SROA deletes altogether ([`slots::promotable`]) gets no
//!   view: the round trip through the local space stood in SROA's way;
//! - an alloca written in address space 5 is rewritten to the same form:
//!   `llc` 22.1 miscompiles such allocas (it addresses them through the
//!   generic `%SP` and applies `cvta.local` again) and crashes on a GEP in
//!   space 5 of one;
//! - `local-allocas=true` gives seed 004's form instead (the alloca in
//!   space 5, one cast back to generic; space-5 allocas left alone), for
//!   backends that handle it;
//! - allocas in other specific spaces are left alone;
//! - a slot of the entry block below an op that may become a loop (a large
//!   copy, which `llc` expands into a loop before its SROA, splitting the
//!   block; a `ptxcc.copy_param`) moves above the first such op, keeping
//!   the slots' order: `llc`'s SROA only looks at allocas left in the
//!   entry block. Any other slot stays where it is: `llc` computes a slot's
//!   local address where the alloca stands, and one moved to the top was
//!   live across the calls above it (ptxas spilled it). A slot of another
//!   block stays there, as in the input `llc` alone gets: `llc`'s
//!   NVPTXAllocaHoisting moves it to the entry block after its SROA has run
//!   (`hoist-allocas=true` moves them all to the top of the entry block, as
//!   seed 004 says). Except a slot SROA deletes ([`slots::promotable`]): it
//!   moves to the end of the entry block (above an op that may become a
//!   loop) now, where SROA looks, also with `llvm-opt-after` (LLVM's SROA
//!   looks at the entry block alone too). Left in a loop, `llc` forwarded
//!   its store to its load and kept the store, and ptxas kept a frame for
//!   it;
//! - lifetime markers and debug records keep naming the alloca itself;
//! - a dynamic alloca (its size is not a constant) is left to `llc`, which
//!   lowers it to PTX's own `alloca` (sm_52 and PTX 7.3 or later); on an
//!   older target it is an error at its location. `dynamic-alloca-size=N`
//!   reserves N bytes for it in the frame instead (seed 004's conservative
//!   maximum; nothing checks at run time that the program stays within N
//!   bytes).
//!
//! Before:
//! ```mlir
//! llvm.func @f(%i: i64) -> i32 {
//!   %c1 = llvm.mlir.constant(1 : i32) : i32
//!   %a = llvm.alloca %c1 x !llvm.array<8 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
//!   %p = llvm.getelementptr %a[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8 x i32>
//!   %v = llvm.load %p : !llvm.ptr -> i32
//!   llvm.return %v : i32
//! }
//! ```
//! After:
//! ```mlir
//! llvm.func @f(%i: i64) -> i32 {
//!   %c1 = llvm.mlir.constant(1 : i32) : i32
//!   %0 = llvm.alloca %c1 x !llvm.array<8 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
//!   %1 = llvm.addrspacecast %0 : !llvm.ptr to !llvm.ptr<5>
//!   %a = llvm.addrspacecast %1 : !llvm.ptr<5> to !llvm.ptr
//!   %p = llvm.getelementptr %a[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8 x i32>
//!   %v = llvm.load %p : !llvm.ptr -> i32
//!   llvm.return %v : i32
//! }
//! ```
//!
//! [`frame_layout`](crate::abi::frame::frame_layout) lays the slots out as seed 004's phases 2 and 3 do
//! (in order, each at the next offset aligned to its alignment; the depot
//! is aligned to the largest); `ptxcc-abi-report` prints it. `llc` orders
//! its slots differently, rounds the depot up to its alignment and may
//! share slots whose lifetimes do not overlap, so its `__local_depot` size
//! can differ either way.

use crate::ir::LlvmOp;
use melior::{
    ir::{
        attribute::{IntegerAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, Identifier, OperationRef, Value, ValueLike,
    },
    pass::Pass,
};
use ptxcc_dialect::{address_space, types::pointer_type, verify::emit_error};

use crate::abi::frame::{alloca_count, alloca_space, allocas};
use crate::options::declare_pass;
use crate::{
    abi::{mlir::abi_type, DataLayout},
    context::context_of,
    ir::{addrspacecast, first_result, integer_attribute, integer_constant, type_attribute, uses},
    options::{LlvmOptAfter, TargetOptions},
    pass::PtxccPass,
    slots,
};

declare_pass! {
    /// Options of `lower-alloca`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct LowerAllocaOptions {
        /// Bytes reserved for each dynamic alloca (seed 004's conservative
        /// maximum); 0 leaves a dynamic alloca to `llc` (PTX's own `alloca`)
        /// where the target has it, and makes it an error where it does not.
        pub dynamic_alloca_size: u64 = option(
            "dynamic-alloca-size",
            "0",
            "bytes reserved for each dynamic alloca (seed 004's conservative maximum, unchecked at run time); 0 = leave it to llc (PTX alloca, sm_52 and PTX 7.3 or later), an error on older targets"
        ),
        /// Emit allocas in address space 5 (seed 004, upstream LLVM after 22)
        /// instead of a generic alloca with a local view; `llc` 22.1
        /// miscompiles allocas in space 5.
        pub local_allocas: bool = option(
            "local-allocas",
            "false",
            "allocas in address space 5 as seed 004 says (llc 22.1 miscompiles them); default: generic alloca + local view"
        ),
        /// Hoist the constant-size allocas of every block to the top of the
        /// entry block (seed 004); by default a slot of the entry block
        /// moves only above an op that may become a loop, one of another
        /// block only where SROA deletes it, and `llc` hoists the others
        /// after its SROA.
        pub hoist_allocas: bool = option(
            "hoist-allocas",
            "false",
            "hoist constant-size allocas of every block to the top of the entry block as seed 004 says; default: an entry-block slot moves only above a copy that may become a loop, a slot of another block only to the end of the entry block where SROA deletes it (llc hoists the others after its SROA)"
        ),
        /// Whether LLVM's optimizer runs on the output before `llc`: then the
        /// slots stay as they are (dynamic ones are still checked), for `llc`
        /// to move to local memory after it. A local view hides the slot's
        /// alignment from LLVM's alignment inference, which then cannot pair
        /// its stores (upstream's non-portable-cluster-launch: 8 st.local.b32
        /// instead of 4 st.local.v2.b32).
        pub llvm_opt_after: LlvmOptAfter = option("llvm-opt-after", "auto", LlvmOptAfter::DESCRIPTION),
        /// The target `llc` compiles for: whether it has PTX's `alloca`.
        pub target: TargetOptions = group(),
    }
    pass "lower-alloca" (LowerAlloca) on crate::ir::LLVM_FUNC:
        "Move stack slots to the local address space (one cast back to generic), hoist constant-size ones to the entry block";
    fn run(&self, function) -> bool {
        lower_alloca(function, self).is_ok()
    }
}

/// Why `lower-alloca` failed; the details went out as diagnostics.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LowerAllocaError {
    /// Dynamic allocas on a target without PTX's `alloca`, with
    /// `dynamic-alloca-size=0` (reported at their locations; the function is
    /// unchanged).
    #[error("{0} dynamic alloca(s) cannot be placed in the local depot")]
    Dynamic(usize),
}

/// Rewrites every generic alloca of `func` (see the module documentation).
/// On a dynamic alloca without `dynamic-alloca-size`, reports it at its
/// location and changes nothing.
pub fn lower_alloca(func: OperationRef, options: &LowerAllocaOptions) -> Result<(), LowerAllocaError> {
    // Every op the pass erases is freed when it returns ([`Rewriter`]).
    let mut rewriter = crate::ir::Rewriter::new();
    // The allocas to rewrite: generic ones, and (in the form llc 22 needs)
    // those written in space 5.
    let mut targets: Vec<_> = allocas(func)
        .into_iter()
        .filter(|a| match alloca_space(*a) {
            Some(address_space::GENERIC) => true,
            Some(address_space::LOCAL) => !options.local_allocas,
            _ => false,
        })
        .collect();
    let dynamic: Vec<_> = if options.dynamic_alloca_size == 0 {
        targets.iter().copied().filter(|a| alloca_count(*a).is_none()).collect()
    } else {
        Vec::new()
    };
    // (The target is worked out only when it matters, for a dynamic alloca.)
    if !dynamic.is_empty() {
        match options.target.target_of(func) {
            // llc lowers it to PTX's own alloca: left as it is.
            Ok(target) if target.has_dynamic_alloca() => targets.retain(|a| !dynamic.contains(a)),
            target => {
                let target = target.map(|t| t.to_string()).unwrap_or_else(|_| "the target".into());
                for alloca in &dynamic {
                    emit_error(
                        alloca.location(),
                        &format!(
                            "dynamic alloca: {target} has no PTX alloca (sm_52 and PTX 7.3 or later), so the local \
                             frame must have a fixed size; make the size a constant, target a newer chip, or pass \
                             'dynamic-alloca-size=N' to lower-alloca to reserve N bytes for it"
                        ),
                    );
                }
                return Err(LowerAllocaError::Dynamic(dynamic.len()));
            }
        }
    }
    let Some(entry) = crate::kernel::entry_block(func) else { return Ok(()) };
    // A constant-size generic slot of another block of the body (not of a
    // nested region) that SROA deletes once it is in the entry block (the
    // only block SROA looks at).
    let body = entry.parent_region();
    let elsewhere = |alloca: &OperationRef| {
        alloca.block().is_some_and(|b| b != entry && b.parent_region() == body) && alloca_count(*alloca).is_some()
    };
    // Whether llc's SROA deletes the slot (then it gets no view).
    let promotable = |alloca: &OperationRef| {
        alloca_space(*alloca) == Some(address_space::GENERIC) && first_result(*alloca).is_some_and(slots::promotable)
    };
    let opt_after = options.llvm_opt_after.applies_to(func);
    if opt_after {
        // LLVM's optimizer moves the slots to local memory itself (after its
        // SROA); only those SROA would delete move, to where it looks.
        targets.retain(|alloca| elsewhere(alloca) && promotable(alloca));
    }
    if targets.is_empty() {
        return Ok(());
    }
    // With `hoist-allocas`, every slot goes to the top of the entry block,
    // in order: before the first op that is neither one of them nor a
    // constant (the loop below erases only those).
    let hoisted = |alloca: &OperationRef| options.hoist_allocas && alloca.block().is_none_or(|b| b != entry);
    let is_target: crate::ir::HashSet<_> = targets.iter().map(|op| op.to_raw().ptr).collect();
    let mut anchor = entry.first_operation();
    while let Some(op) = anchor.filter(|op| is_target.contains(&op.to_raw().ptr) || LlvmOp::of(*op) == LlvmOp::Constant)
    {
        anchor = op.next_in_block();
    }
    let Some(entry_anchor) = anchor else { return Ok(()) };
    let (entry_anchors, splitter) = entry_slot_anchors(entry, &is_target, entry_anchor, options.hoist_allocas);
    // Where a slot of another block that SROA would delete goes: the end of
    // the entry block, or above its first op that may become a loop.
    let entry_end = splitter.or_else(|| entry.terminator());
    let context = context_of(func);
    let local = pointer_type(context, address_space::LOCAL);
    let generic = pointer_type(context, address_space::GENERIC);
    let slot_type = if options.local_allocas { local } else { generic };
    // The old slots (and their size constants) go once every slot is
    // replaced: an old slot is the insertion point of its replacement.
    for alloca in targets {
        let location = alloca.location();
        let Some(size) = crate::ir::Alloca::of(alloca).map(crate::ir::Alloca::count) else { continue };
        let count = alloca_count(alloca);
        let attributes = slot_attributes(alloca, count.is_none());
        let new = OperationBuilder::new(LlvmOp::Alloca.name(), location)
            .add_attributes(&attributes)
            .add_results(&[slot_type]);
        // A new size: the element count, or a dynamic one's reserved bytes.
        let (ty, count) = match count {
            Some(count) => (size.r#type(), count),
            None => {
                (IntegerType::new(context, 64).into(), i64::try_from(options.dynamic_alloca_size).unwrap_or(i64::MAX))
            }
        };
        let old = owned(first_result(alloca));
        let deleted_by_sroa = opt_after || promotable(&alloca);
        // A slot of another block stays where it is (llc's own
        // NVPTXAllocaHoisting moves it to the end of the entry block after
        // its SROA has run), unless SROA deletes it there: then it moves
        // there now, before SROA. Left in a loop, its stores stayed after
        // llc had forwarded them to the loads, and ptxas keeps a frame for
        // dead sub-word or round-trip local stores (fuzz seeds 5011, 5245,
        // 5265: 0 -> 8 bytes).
        let (block, anchor) = if let Some(anchor) = entry_anchors.get(&alloca.to_raw().ptr) {
            (entry, *anchor)
        } else if hoisted(&alloca) {
            (entry, entry_anchor)
        } else if let Some(end) = entry_end.filter(|_| deleted_by_sroa && elsewhere(&alloca)) {
            (entry, end)
        } else {
            let Some(block) = alloca.block() else { continue };
            (block, alloca)
        };
        let size_value =
            owned(first_result(block.insert_operation_before(anchor, integer_constant(ty, count, location))));
        let slot = owned(first_result(
            block.insert_operation_before(anchor, new.add_operands(&[size_value]).build().expect("valid alloca")),
        ));
        let insert =
            |value, to| owned(first_result(block.insert_operation_before(anchor, addrspacecast(value, to, location))));
        let replacement = if options.local_allocas {
            insert(slot, generic)
        } else if deleted_by_sroa {
            // llc's SROA deletes it: a local view would only stand in the
            // way (a round trip through the local space made SROA keep a
            // byte of a slot: fuzz seed 11518).
            slot
        } else {
            let view = insert(slot, local);
            if alloca_space(alloca) == Some(address_space::LOCAL) {
                view
            } else {
                insert(view, generic)
            }
        };
        // Lifetime markers and debug records must name the alloca itself
        // (LLVM's verifier: "llvm.lifetime.start/end can only be used on
        // alloca or poison"); everything else goes through the casts.
        for user in uses(old) {
            if matches!(
                LlvmOp::of(user.owner),
                LlvmOp::LifetimeStart | LlvmOp::LifetimeEnd | LlvmOp::DbgDeclare | LlvmOp::DbgValue
            ) {
                // The new alloca dominates every user of the old one.
                crate::ir::set_operand(user.owner, user.index, slot);
            }
        }
        rewriter.replace_uses(old, replacement);
        rewriter.erase_later(alloca);
        if let Some(constant) = crate::kernel::defining_op(size, LlvmOp::Constant) {
            // (Another slot may share the constant.)
            rewriter.erase_later_if_unused(constant);
        }
    }
    // The slots are all replaced; nothing reads the old ones after.
    rewriter.flush();
    Ok(())
}

/// Per slot (its op by pointer), the op its replacement goes before.
type Anchors<'c, 'a> = crate::ir::HashMap<*mut std::ffi::c_void, OperationRef<'c, 'a>>;

/// Where each slot of the entry block `entry` (of `targets`, the slots'
/// ops by pointer) goes: its replacement is placed before the op named. llc expands some copies into loops before
/// its SROA, splitting the entry block, and SROA only looks at the allocas
/// left in it: a slot below such a copy was never promoted (fuzz seed 71).
/// So a slot below the first op that may split the block moves above it,
/// in order; any other stays where it is: at the top, its local address
/// (which llc computes where the alloca stands) was live across the calls
/// before it, and ptxas spilled it (issue 41, rule D: 12 -> 28 bytes of
/// spills). With `hoist-allocas` every slot goes to `top`, as seed 004 says.
/// Also returns that first op that may split the block, if any.
fn entry_slot_anchors<'c, 'a>(
    entry: melior::ir::BlockRef<'c, 'a>,
    targets: &crate::ir::HashSet<*mut std::ffi::c_void>,
    top: OperationRef<'c, 'a>,
    hoist_all: bool,
) -> (Anchors<'c, 'a>, Option<OperationRef<'c, 'a>>) {
    let mut anchors = Anchors::default();
    let mut splitter = None;
    let mut next = entry.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if targets.contains(&op.to_raw().ptr) {
            let anchor = if hoist_all { top } else { splitter.unwrap_or(op) };
            anchors.insert(op.to_raw().ptr, anchor);
        } else if splitter.is_none() && may_become_a_loop(op) {
            splitter = Some(op);
        }
    }
    (anchors, splitter)
}

/// Whether llc (NVPTXLowerAggrCopies, before its SROA) or the conversion
/// (`ptxcc.copy_param`) may expand `op` into a loop: a memory intrinsic of
/// a length that is not a constant of at most 128 bytes, a store of an
/// aggregate above 128 bytes, a copy of a `byval` parameter.
fn may_become_a_loop(op: OperationRef) -> bool {
    /// llc's `MaxAggrCopySize`.
    const LARGEST_INLINE_COPY: i64 = 128;
    if crate::ir::op_name(op) == ptxcc_dialect::names::COPY_PARAM {
        return true;
    }
    if let Some(intrinsic) = crate::ir::MemIntrinsic::of(op) {
        return intrinsic.constant_length().is_none_or(|length| length > LARGEST_INLINE_COPY);
    }
    let stored = crate::ir::Store::of(op).and_then(|store| crate::abi::mlir::abi_type(store.value().r#type()).ok());
    stored.is_some_and(|abi| {
        abi.is_aggregate() && crate::abi::DataLayout::nvptx64().store_size(&abi) > LARGEST_INLINE_COPY as u64
    })
}

/// The result of a newly inserted op that has exactly one.
fn owned<'c, 'a>(value: Option<Value<'c, 'a>>) -> Value<'c, 'a> {
    value.expect("one result")
}

/// The attributes of the alloca replacing `alloca`: the same, except that a
/// dynamic one reserves bytes (`i8` elements) aligned as its element was.
fn slot_attributes<'c>(alloca: OperationRef<'c, '_>, dynamic: bool) -> Vec<(Identifier<'c>, Attribute<'c>)> {
    let mut attributes: Vec<_> = alloca.attributes().collect();
    if dynamic {
        let context = crate::ir::context_of(alloca);
        let align = integer_attribute(alloca, "alignment").filter(|a| *a > 0).or_else(|| {
            let element = abi_type(type_attribute(alloca, "elem_type")?).ok()?;
            i64::try_from(DataLayout::nvptx64().pref_align(&element)).ok()
        });
        let i8_type = IntegerType::new(context, 8).into();
        let i64_type = IntegerType::new(context, 64).into();
        attributes.retain(|(name, _)| !matches!(crate::ir::identifier_text(*name), "elem_type" | "alignment"));
        attributes.push((Identifier::new(context, "elem_type"), TypeAttribute::new(i8_type).into()));
        if let Some(align) = align {
            attributes.push((Identifier::new(context, "alignment"), IntegerAttribute::new(i64_type, align).into()));
        }
    }
    attributes
}

/// The `lower-alloca` pass, anchored on `llvm.func`.
pub fn create_lower_alloca_pass(options: &LowerAllocaOptions) -> Pass {
    options.create_pass()
}
