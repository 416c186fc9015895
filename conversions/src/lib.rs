//! The ptxcc passes and the analyses they share.
//!
//! One module per pass or conversion, each exposing its logic as plain
//! functions (`populate_*_patterns`, `convert_*`) and a thin pass wrapper:
//!
//! | module | pass | status |
//! |---|---|---|
//! | [`abi_report`] | `ptxcc-abi-report` | prototypes, parameter table, call sequences, param-space check |
//! | [`verify`] | `ptxcc-verify` | IR that would become wrong PTX; atomics the target lacks |
//! | [`lower_struct_args`] | `lower-struct-args` | kernel byval: param-space reads, cast-only, local copies |
//! | [`ptxcc_to_llvm`] | `convert-ptxcc-to-llvm` | every ptxcc op lowered |
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
pub mod ptxcc_to_llvm;
pub mod slots;
pub mod verify;

pub use options::{OptionError, OptionInfo, PassOptions};
