//! Borrowing an op's context as the `&Context` melior builders ask for
//! (kept in [`crate::ir`], re-exported here).

pub use crate::ir::context_of;
