//! The ptxcc passes and the analyses they share.
//!
//! One module per pass or conversion, each exposing its logic as plain
//! functions (`populate_*_patterns`, `convert_*`) and declaring its pass
//! once, with [`options::declare_pass!`](crate::options): options, defaults,
//! anchor, summary and body in one block.
//!
//! | module | pass | on | what it does |
//! |---|---|---|---|
//! | [`abi_report`] | `ptxcc-abi-report` | module | prototypes, parameter table, call sequences, param-space check |
//! | [`lower_struct_args`] | `lower-struct-args` | module | kernel byval: param-space reads, cast-only, local copies; device functions flattened |
//! | [`promote_local`] | `promote-local-arrays` | `llvm.func` | counted loops over per-thread arrays unrolled, other dynamic indices as selects: the arrays become registers |
//! | [`lower_alloca`] | `lower-alloca` | `llvm.func` | stack slots to local memory, hoisted; dynamic allocas checked |
//! | [`memory_space_opt`] | `memory-space-opt` | `llvm.func` | address spaces inferred, accesses moved there |
//! | [`ptxcc_to_llvm`] | `convert-ptxcc-to-llvm` | `llvm.func` | every ptxcc op lowered |
//! | [`verify`] | `ptxcc-verify` | module | IR that would become wrong PTX; atomics the target lacks |
//!
//! (The pipeline's order is written once, in the driver library's
//! `pipeline::STAGES`.)
//!
//! [`abi`] is the NVPTX ABI model every pass shares (data layout,
//! classification, value parts, PTX prototypes, targets).
//! [`options`] holds the option parsing every pass shares, [`kernel`] the
//! facts about `llvm.func` ops (kernel or not, parameter attributes) and
//! [`slots`] what `llc`'s SROA will do with a stack slot.

pub mod abi;
pub mod abi_report;
pub mod context;
pub mod ir;
pub mod kernel;
pub mod lower_alloca;
pub mod lower_struct_args;
pub mod memory_space_opt;
pub mod options;
pub mod pass;
pub mod pointer_uses;
pub mod promote_local;
pub mod ptxcc_to_llvm;
pub mod slots;
pub mod spaces;
pub mod verify;

pub use options::{OptionError, OptionInfo, PassOptions};
