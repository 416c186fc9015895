//! The NVPTX ABI model: everything ptxcc needs to know about how `llc`
//! passes values, as plain Rust.
//!
//! | module | what |
//! |---|---|
//! | [`layout`] | sizes, alignments, struct layouts and GEP offsets under the NVPTX data layout |
//! | [`classify`] | seed 000's argument classes (scalar / vector / flatten / byval / indirect) |
//! | [`parts`] | seed 003's value parts and their `v2`/`v4` merging |
//! | [`prototype`] | the `.entry`/`.func` header and `.param` declarations `llc` prints |
//! | [`call`] | the call sequence `llc` emits for a call site (seed 003) |
//! | [`frame`] | a function's local depot: its stack slots laid out (seed 004) |
//! | [`registers`] | which parameters ptxas passes in registers and which on the stack (measured with ptxas 13.5) |
//! | [`target`] | chip and PTX version, the param-space limit |
//! | [`mlir`], [`signature`] | reading the above from MLIR types and `llvm.func` ops |
//!
//! `llc` is the oracle: the tests compare the model with what `llc` 22
//! prints for the same functions.

pub mod call;
pub mod classify;
pub mod frame;
pub mod layout;
pub mod mlir;
pub mod parts;
pub mod prototype;
pub mod registers;
pub mod signature;
pub mod target;

#[cfg(test)]
mod oracle;
#[cfg(test)]
pub(crate) mod tests;

pub use call::{CallSequence, Callee};
pub use classify::{classify_argument, classify_result, ArgClass, Classification, Leaf, Thresholds};
pub use layout::{AbiType, DataLayout, FloatKind, StructType, NVPTX64_LAYOUT};
pub use parts::{schedule, value_parts, Access, Part, PartType};
pub use prototype::{check_param_space, FunctionSignature, Linkage, ParamSignature};
pub use target::{ParamSpaceError, Target};

/// Why the ABI model has no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AbiError {
    /// A data-layout string did not parse.
    #[error("invalid data layout '{layout}': {reason}")]
    DataLayout {
        /// The layout string.
        layout: String,
        /// What is wrong.
        reason: String,
    },
    /// A type the ABI cannot place.
    #[error("type '{ty}' has no PTX ABI: {reason}")]
    Unsupported {
        /// The type, printed.
        ty: String,
        /// Why.
        reason: String,
    },
    /// A value too large to pass in registers or param space: more parts
    /// than any param space holds (`value_parts` stops counting there).
    #[error("the value has more than {limit} register parts: too large to pass by value in param space")]
    TooManyParts {
        /// The most parts listed.
        limit: u64,
    },
    /// A GEP field index out of range.
    #[error("field index {index} is out of range for '{ty}'")]
    FieldIndex {
        /// The index.
        index: i64,
        /// The struct, printed.
        ty: String,
    },
    /// A GEP index into a scalar.
    #[error("cannot index into '{ty}'")]
    NotIndexable {
        /// The type, printed.
        ty: String,
    },
    /// An alignment attribute that is not a positive power of two.
    #[error("parameter {index}: {name} = {value} is not a positive power of two")]
    BadAlignment {
        /// The parameter.
        index: usize,
        /// The attribute (`llvm.align`, `llvm.alignstack`).
        name: String,
        /// Its value.
        value: i64,
    },
    /// A chip `llc` 22 does not know.
    #[error("unknown chip '{0}' (expected sm_XY, sm_XYa or sm_XYf, e.g. sm_90)")]
    UnknownChip(String),
    /// A PTX version LLVM 22 does not know (`llc` warns, then compiles for
    /// the chip's minimum version instead).
    #[error(
        "PTX {}.{} is not a version LLVM 22 knows (the highest is {}.{})",
        .0 / 10, .0 % 10, target::HIGHEST_PTX / 10, target::HIGHEST_PTX % 10
    )]
    UnknownPtx(u32),
    /// A PTX version below what the chip needs (llc fails the same way).
    #[error("PTX {}.{} does not support '{chip}': it needs PTX {}.{} or later", .ptx / 10, .ptx % 10, .minimum / 10, .minimum % 10)]
    PtxTooOld {
        /// The chip.
        chip: String,
        /// The requested version, times ten.
        ptx: u32,
        /// The chip's minimum, times ten.
        minimum: u32,
    },
}
