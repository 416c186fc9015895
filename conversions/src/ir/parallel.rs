//! Running work on chunks of items on the thread pool of the context.

use melior::ir::OperationRef;

/// Fewest items worth handing to other threads: below this,
/// [`parallel_chunks`] runs on the calling thread.
const PARALLEL_MIN_ITEMS: usize = 512;

/// Items per task of [`parallel_chunks`].
const PARALLEL_CHUNK: usize = 128;

/// `work` on consecutive chunks of `items`, concurrently on the thread pool
/// of `op`'s context (in order on the calling thread when the context is
/// not multi-threaded, or for fewer than `PARALLEL_MIN_ITEMS` (512) items); the
/// chunks' results, concatenated in the order of `items`.
///
/// Each chunk is handed to `work` once; results do not depend on the
/// scheduling as long as `work` on one chunk does not depend on another.
///
/// # Safety
/// MLIR handles are not `Send`: what `work` does with `items` and the IR
/// must be safe from several threads at once. Reading ops, types and
/// attributes, and creating types and attributes in the (multi-threaded)
/// context, are; changing an op that another chunk reads or changes is not.
/// What `work` captures is shared by the threads, and what it returns is
/// handed back to the calling thread.
pub unsafe fn parallel_chunks<T, R>(op: OperationRef, items: &[T], work: impl Fn(&[T]) -> Vec<R>) -> Vec<R> {
    if items.len() < PARALLEL_MIN_ITEMS {
        return work(items);
    }
    /// Lets a value cross threads (see the contract above).
    struct Crossing<V>(V);
    // SAFETY: the caller promises that `work` only does what is safe from
    // several threads at once, with the items and with what it returns.
    unsafe impl<V> Send for Crossing<V> {}
    // SAFETY: as above.
    unsafe impl<V> Sync for Crossing<V> {}
    impl<V> Crossing<V> {
        // (A method, so that closures capture the whole wrapper.)
        fn get(&self) -> &V {
            &self.0
        }
    }
    let chunks: Vec<&[T]> = items.chunks(PARALLEL_CHUNK).collect();
    let results: Vec<std::sync::Mutex<Option<Crossing<Vec<R>>>>> =
        chunks.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let shared = Crossing((&chunks, &work));
    let run = |index: usize| {
        let (chunks, work) = shared.get();
        let found = work(chunks[index]);
        *results[index].lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Crossing(found));
    };
    let context = super::context_of(op).to_raw();
    ptxcc_shim::parallel_for(context, chunks.len(), &run);
    results
        .into_iter()
        .flat_map(|slot| {
            slot.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner).map_or_else(Vec::new, |found| found.0)
        })
        .collect()
}
