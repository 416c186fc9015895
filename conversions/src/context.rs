//! Borrowing an op's context as the `&Context` melior builders ask for.

use melior::{ir::operation::OperationLike, ir::OperationRef, Context, ContextRef};

/// The context of an op, kept where melior builders that want a `&Context`
/// can borrow it from.
pub struct BorrowedContext<'c>(ContextRef<'c>);

impl std::ops::Deref for BorrowedContext<'_> {
    type Target = Context;

    fn deref(&self) -> &Context {
        // SAFETY: `ContextRef` has the layout of `Context`; the reference
        // points into `self`, which lives as long as the borrow.
        unsafe { self.0.to_ref() }
    }
}

/// The context of `op`.
pub fn context_of<'c>(op: OperationRef<'c, '_>) -> BorrowedContext<'c> {
    BorrowedContext(op.context())
}
