//! What one use of a pointer does: the one classifier the pointer analyses
//! share (NVPTXLowerArgs' `ArgUseChecker` is the model). It only names the
//! use; each analysis applies its own policy to the class: the kernel
//! `byval` planner (`lower_struct_args::analysis`) turns reads into
//! param-space reads, the read-only analysis (`lower_struct_args::readonly`)
//! follows derived pointers and stops at the first write or capture.

use crate::ir::LlvmOp;
use melior::ir::{Value, ValueLike};
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
        LlvmOp::Br | LlvmOp::CondBr => PointerUse::BlockArgument(successor_argument(op, used.index)),
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
