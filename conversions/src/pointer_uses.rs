//! What one use of a pointer does: the one classifier the pointer analyses
//! share (NVPTXLowerArgs' `ArgUseChecker` is the model). It only names the
//! use; each analysis applies its own policy to the class: the kernel
//! `byval` planner (`lower_struct_args::analysis`) turns reads into
//! param-space reads, the read-only analysis (`lower_struct_args::readonly`)
//! follows derived pointers and stops at the first write or capture.

use crate::ir::LlvmOp;
use melior::ir::{block::BlockLike, operation::OperationLike, Value, ValueLike};
use ptxcc_dialect::types::pointer_address_space;

use crate::ir::{successor_argument, OperationExt, Use};

/// What a use of a pointer does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerUse<'c, 'a> {
    /// An `llvm.getelementptr` with the pointer as its base (`base`) or
    /// elsewhere; `one_pointer`: it yields one pointer, not a vector.
    Gep {
        /// The pointer is the base operand.
        base: bool,
        /// The result is one pointer (not a vector of pointers).
        one_pointer: bool,
        /// The derived pointer.
        result: Option<Value<'c, 'a>>,
    },
    /// An `llvm.addrspacecast` of the pointer into `space`.
    Cast {
        /// The derived pointer.
        result: Option<Value<'c, 'a>>,
        /// Its address space.
        space: Option<u32>,
    },
    /// An `llvm.select` that may choose the pointer.
    Select {
        /// The chosen pointer.
        result: Option<Value<'c, 'a>>,
    },
    /// A branch operand: the successor's block argument it flows into
    /// (`None` for an operand no block argument receives).
    BlockArgument(Option<Value<'c, 'a>>),
    /// An `llvm.load` through the pointer.
    Load {
        /// The load is atomic.
        atomic: bool,
    },
    /// An `llvm.icmp` of the pointer.
    Compare,
    /// An `llvm.intr.assume` about the pointer (an `align` bundle).
    Assume,
    /// Debug information naming the pointer.
    DebugInfo,
    /// The source of a copy (`memcpy`, `memmove`).
    CopySource,
    /// Memory behind the pointer is written by the op named `by` (a store
    /// through it, the destination of a copy, a `memset`).
    Write {
        /// The op that writes.
        by: LlvmOp,
    },
    /// The pointer itself is stored to memory.
    Stored,
    /// An operand of an `llvm.call`.
    CallOperand,
    /// An `llvm.ptrtoint` of the pointer.
    PtrToInt,
    /// The pointer is returned.
    Returned,
    /// Any other use.
    Other,
}

/// What the use `used` of a pointer does.
pub fn classify_pointer_use<'c, 'a>(used: Use<'c, 'a>) -> PointerUse<'c, 'a> {
    let op = used.owner;
    let result = || op.result_at(0).ok().map(Value::from);
    match LlvmOp::of(op) {
        LlvmOp::Gep => PointerUse::Gep {
            base: used.index == 0,
            one_pointer: op.result_at(0).is_ok_and(|r| pointer_address_space(r.r#type()).is_some()),
            result: result(),
        },
        LlvmOp::AddrSpaceCast => PointerUse::Cast {
            result: result(),
            space: op.result_at(0).ok().and_then(|r| pointer_address_space(r.r#type())),
        },
        LlvmOp::Select => PointerUse::Select { result: result() },
        // Any branch (`llvm.br`, `llvm.cond_br`, `llvm.switch`, ...): the
        // block argument the operand becomes, if it is forwarded.
        _ if op.successor_count() > 0 => PointerUse::BlockArgument(successor_argument(op, used.index)),
        LlvmOp::Load => PointerUse::Load { atomic: crate::ir::is_atomic(op) },
        LlvmOp::ICmp => PointerUse::Compare,
        LlvmOp::Assume => PointerUse::Assume,
        kind if kind.is_debug_info() => PointerUse::DebugInfo,
        LlvmOp::Store if used.index == 1 => PointerUse::Write { by: LlvmOp::Store },
        LlvmOp::Store => PointerUse::Stored,
        // A copy reads operand 1 and writes operand 0; a fill writes.
        LlvmOp::Memcpy | LlvmOp::Memmove | LlvmOp::MemcpyInline if used.index == 1 => PointerUse::CopySource,
        by @ (LlvmOp::Memcpy | LlvmOp::Memmove | LlvmOp::MemcpyInline | LlvmOp::Memset | LlvmOp::MemsetInline) => {
            PointerUse::Write { by }
        }
        LlvmOp::Call => PointerUse::CallOperand,
        LlvmOp::PtrToInt => PointerUse::PtrToInt,
        LlvmOp::Return => PointerUse::Returned,
        _ => PointerUse::Other,
    }
}

/// The alignment of the local copy of a `byval` parameter whose type is
/// aligned to `type_align`, declared aligned to `declared` (its
/// `llvm.align`), whose `.param` is aligned to `at_most`, and through which
/// the code's accesses claim `claimed()` (`None`: the address escapes).
///
/// llc aligns its copy to the declared alignment (the type's when none is
/// declared): a `.param .align 32` copied into a 32-aligned slot makes
/// ptxas pad the frame where 8 would do (issue 41's rule B). ptxcc does so
/// where it sees every access, keeping what they claim (a load that says
/// 32 reads a 32-aligned copy); where the address escapes, the code it
/// reaches may rely on the alignment the `.param` really had, and the copy
/// keeps that (llc's copy does not: a callee's `ld.v4` can find it
/// misaligned).
pub fn copy_alignment(
    type_align: u64,
    declared: Option<u64>,
    at_most: u64,
    claimed: impl FnOnce() -> Option<u64>,
) -> u64 {
    let wanted = declared.unwrap_or(type_align).max(1);
    if wanted >= at_most {
        return at_most;
    }
    claimed().map_or(at_most, |claimed| wanted.max(claimed).min(at_most))
}

/// The largest alignment any access through `pointer` or a pointer derived
/// from it (GEPs, casts, selects, block arguments) claims: a load's,
/// store's `alignment`, a memory intrinsic's `llvm.align` on the operand,
/// a call's `llvm.align` on the argument, a `byval` argument's alignment
/// (the call's `llvm.align`, else its type's ABI alignment in `layout`: what
/// llc reads it at), an `llvm.intr.assume`'s "align" bundle; 1 when none
/// claims one. A call's argument is followed into the body it runs where
/// `callee_parameter` gives one (the parameter the operand becomes there,
/// whose own `llvm.align` counts); a `byval` argument is only read. `None`
/// when the pointer escapes to code this walk cannot read (a call it cannot
/// follow, a store of the pointer, an integer made of it, an atomic, an op
/// it does not know, an assumption it cannot read), which may rely on any
/// alignment the pointer really has. What a
/// copy that replaces the memory behind `pointer` must be aligned to at
/// least. (Linear: each derived pointer is visited once.)
pub fn claimed_alignment<'c: 'a, 'a>(
    pointer: Value<'c, 'a>,
    layout: &crate::abi::layout::DataLayout,
    callee_parameter: impl Fn(melior::ir::OperationRef<'c, 'a>, usize) -> Option<Value<'c, 'a>>,
) -> Option<u64> {
    let mut claimed = 1;
    let mut seen = std::collections::HashSet::new();
    let root = crate::slots::pointer_root(pointer);
    let mut work = vec![pointer];
    while let Some(value) = work.pop() {
        if !seen.insert(value.to_raw().ptr) {
            continue;
        }
        for used in crate::ir::uses(value) {
            let op = used.owner;
            let access = match classify_pointer_use(used) {
                PointerUse::Gep { base: true, one_pointer: true, result: Some(result) }
                | PointerUse::Cast { result: Some(result), .. }
                | PointerUse::Select { result: Some(result) }
                | PointerUse::BlockArgument(Some(result)) => {
                    work.push(result);
                    1
                }
                PointerUse::Write { by: LlvmOp::Store } | PointerUse::Load { .. } => {
                    crate::ir::integer_attribute(op, "alignment").and_then(|a| u64::try_from(a).ok()).unwrap_or(1)
                }
                PointerUse::Write { .. } | PointerUse::CopySource => crate::kernel::operand_alignment(op, used.index),
                PointerUse::Compare | PointerUse::DebugInfo => 1,
                // An "align" bundle claims an alignment too.
                PointerUse::Assume => assumed_alignment(op, used.index)?,
                // Kept in a slot of its own and read back (clang -O0): the
                // loaded addresses are this one again.
                PointerUse::Stored => {
                    let slot = crate::ir::Store::of(op).map(crate::ir::Store::address)?;
                    work.extend(crate::slots::spill_loads(slot, root)?);
                    1
                }
                PointerUse::CallOperand => {
                    let index = crate::ir::call_argument_index(op, used.index)?;
                    let declared =
                        crate::kernel::parameter_integer(op, index, "llvm.align").and_then(|a| u64::try_from(a).ok());
                    let site = declared.unwrap_or(1);
                    if let Some(byval) = crate::kernel::parameter_attribute(op, index, crate::kernel::LLVM_BYVAL) {
                        // llc reads a `byval` argument at the call's
                        // alignment, else at its type's ABI alignment (a
                        // struct with an i128: `ld.local.v2.b64` at 16).
                        match declared {
                            Some(declared) => declared,
                            None => byval_type_alignment(byval, layout)?,
                        }
                    } else {
                        let parameter = callee_parameter(op, used.index)?;
                        work.push(parameter);
                        site.max(parameter_alignment(parameter))
                    }
                }
                _ => return None,
            };
            claimed = claimed.max(access);
        }
    }
    Some(claimed)
}

/// The ABI alignment (in `layout`) of the type a `llvm.byval` attribute
/// names; `None` when it names no type the ABI model knows.
fn byval_type_alignment(byval: melior::ir::Attribute, layout: &crate::abi::layout::DataLayout) -> Option<u64> {
    let ty = melior::ir::attribute::TypeAttribute::try_from(byval).ok()?.value();
    Some(layout.abi_align(&crate::abi::mlir::abi_type(ty).ok()?))
}

/// The `llvm.align` of the function parameter `parameter` (an argument of
/// a function's entry block); 1 when it has none.
fn parameter_alignment(parameter: Value) -> u64 {
    let Some(argument) = crate::ir::as_argument(parameter) else { return 1 };
    let function = crate::ir::argument_block(argument).parent_operation();
    function
        .and_then(|function| crate::kernel::parameter_integer(function, argument.argument_number(), "llvm.align"))
        .and_then(|a| u64::try_from(a).ok())
        .unwrap_or(1)
}

/// The alignment the `llvm.intr.assume` `assume` claims for its operand
/// `index`: the constant of an "align" bundle the operand is the pointer of
/// (with no offset, or a zero one); 1 for the operand of another bundle
/// ("nonnull", say); `None` when that cannot be read.
fn assumed_alignment(assume: melior::ir::OperationRef, index: usize) -> Option<u64> {
    let sizes = crate::ir::i32_array_attribute(assume, "op_bundle_sizes")?;
    let tags = crate::ir::array_elements(assume.attribute("op_bundle_tags").ok()?)?;
    let mut start = 1; // after the condition
    for (size, tag) in sizes.iter().zip(tags) {
        let size = usize::try_from(*size).ok()?;
        if (start..start + size).contains(&index) {
            if crate::ir::string_value(tag)?.as_ref() != "align" {
                return Some(1);
            }
            let operand = |at: usize| assume.operand_at(at).ok().and_then(crate::ir::constant_int);
            // The pointer comes first; an offset, if any, last.
            if index != start || (size > 2 && operand(start + 2)? != 0) {
                return None;
            }
            return u64::try_from(operand(start + 1)?).ok().filter(|a| a.is_power_of_two());
        }
        start += size;
    }
    None
}
