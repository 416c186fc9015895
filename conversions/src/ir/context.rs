//! The context of an op as the `&'c Context` melior's builders ask for.

use std::cell::Cell;

use melior::{ir::OperationRef, Context, ContextRef};

/// The context `op` belongs to, for as long as the context lives.
///
/// melior hands out a context as a `ContextRef` value, whose `&Context`
/// (`ContextRef::to_ref`) points into that value, so it cannot outlive the
/// local that holds it: builders then tie what they make to that local.
/// Here the `ContextRef` of each context is kept once, for the life of the
/// process (one small allocation per context ever seen, remembered per
/// thread), so the reference lives as long as the context itself.
pub fn context_of<'c>(op: OperationRef<'c, '_>) -> &'c Context {
    // SAFETY: the context of a live op.
    context_of_raw(unsafe { mlir_sys::mlirOperationGetContext(op.to_raw()) })
}

/// `context` (a `ContextRef` melior hands out, as to a pass's
/// `initialize`) for as long as the context lives (see [`context_of`]).
pub fn context_ref<'c>(context: ContextRef<'c>) -> &'c Context {
    // SAFETY: the reference is used at once, while `context` is alive.
    context_of_raw(unsafe { context.to_ref() }.to_raw())
}

/// [`context_of`] of a live context's raw handle.
fn context_of_raw<'c>(raw: mlir_sys::MlirContext) -> &'c Context {
    thread_local! {
        /// The last context asked for on this thread, and its kept `ContextRef`.
        static LAST: Cell<Option<(usize, &'static ContextRef<'static>)>> = const { Cell::new(None) };
    }
    let key = raw.ptr as usize;
    let kept = match LAST.get() {
        Some((last, kept)) if last == key => kept,
        _ => {
            let kept = keep(raw);
            LAST.set(Some((key, kept)));
            kept
        }
    };
    // SAFETY: `kept` holds the raw handle of `op`'s context, which lives for
    // `'c`; `to_ref` reinterprets the `ContextRef` (which lives forever) as
    // the `Context` it wraps (melior's own layout), and the result is
    // narrowed to `'c`. No `Context` is owned, so none is dropped.
    let context: &'static Context = unsafe { kept.to_ref() };
    context
}

/// The kept `ContextRef` of the raw context `raw` (made on first use).
fn keep(raw: mlir_sys::MlirContext) -> &'static ContextRef<'static> {
    // (Context handle, address of its kept `ContextRef`.)
    static KEPT: std::sync::Mutex<Vec<(usize, usize)>> = std::sync::Mutex::new(Vec::new());
    let mut kept = KEPT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, found)) = kept.iter().find(|(key, _)| *key == raw.ptr as usize) {
        // SAFETY: the address of a `ContextRef` leaked below, never freed.
        return unsafe { &*(*found as *const ContextRef<'static>) };
    }
    // SAFETY: a live context's handle; the `ContextRef` only carries it (a
    // context freed later, and another made at the same address, is the
    // same handle value).
    let made: &'static ContextRef<'static> = Box::leak(Box::new(unsafe { ContextRef::from_raw(raw) }));
    kept.push((raw.ptr as usize, made as *const ContextRef<'static> as usize));
    made
}
