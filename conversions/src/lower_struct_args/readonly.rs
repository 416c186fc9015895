//! Does memory reached through a pointer only get read?
//!
//! The question behind the cast-only fast path: a kernel's `byval` struct
//! whose address escapes can stay in param space (`cvta.param`, no copy)
//! when nothing writes through any copy of that address. MLIR front ends
//! emit no `readonly`/`nocapture` attributes, so besides the attributes this
//! analysis reads the bodies of the callees defined in the module, through
//! calls of any depth (cycles included), and answers conservatively
//! everywhere else.

use crate::ir::LlvmOp;
use crate::ir::{BlockExt, HashMap, HashSet};

use melior::ir::{operation::OperationLike, BlockLike, OperationRef, Value, ValueLike};
use ptxcc_dialect::types::pointer_address_space;

use crate::pointer_uses::{classify_pointer_use, PointerUse};
use crate::{
    abi::signature::function_name,
    ir::{call_argument_index, module_functions, op_name, uses},
    kernel::{function_type, has_exact_definition, parameter_has},
};

/// Calls nested deeper than this are not followed (the answer is "may write").
const MAX_CALL_DEPTH: usize = 16;

/// Why a pointer is not read-only: the op and what it does.
#[derive(Clone, Debug)]
pub struct Escape<'c, 'a> {
    /// The op that writes or lets the address escape.
    pub op: OperationRef<'c, 'a>,
    /// What it does, as a phrase ("is written by 'llvm.store'").
    pub reason: String,
    /// Whether the op writes through the pointer (rather than letting the
    /// address escape).
    pub write: bool,
}

impl<'c, 'a> Escape<'c, 'a> {
    pub(super) fn write(op: OperationRef<'c, 'a>, reason: impl Into<String>) -> Self {
        Self { op, reason: reason.into(), write: true }
    }

    pub(super) fn capture(op: OperationRef<'c, 'a>, reason: impl Into<String>) -> Self {
        Self { op, reason: reason.into(), write: false }
    }
}

/// The read-only analysis over one module, with a cache of the callee
/// parameters it has decided.
pub struct ReadOnlyAnalysis<'c, 'a> {
    /// The functions by name (shared by [`Self::fresh`] copies).
    functions: std::sync::Arc<HashMap<String, Option<OperationRef<'c, 'a>>>>,
    decided: HashMap<(String, usize), bool>,
    in_progress: HashSet<(String, usize)>,
    /// How many times an in-progress parameter was assumed read-only (a
    /// result that relied on such an assumption is not cached).
    assumptions: usize,
    /// Pointers already answered ([`Self::only_read`]): every pointer a
    /// successful walk reached is read-only, and every pointer on the path
    /// from the start of a failed walk to the op that broke it escapes with
    /// that op. Without it, a chain of n selects merging a byval parameter
    /// was walked once per select (quadratic). Valid while the function the
    /// pointers live in is unchanged: see [`Self::forget_pointers`].
    pointers: HashMap<usize, Result<(), Escape<'c, 'a>>>,
}

impl<'c, 'a> ReadOnlyAnalysis<'c, 'a> {
    /// The analysis of the functions of `module`. A name defined twice (in
    /// nested modules) is treated as unknown.
    pub fn new(module: OperationRef<'c, 'a>) -> Self {
        let mut functions = HashMap::default();
        for func in module_functions(module) {
            functions.entry(function_name(func)).and_modify(|known| *known = None).or_insert(Some(func));
        }
        // (Shared with the `fresh` copies other threads use: only read.)
        #[allow(clippy::arc_with_non_send_sync)]
        Self::with_functions(std::sync::Arc::new(functions))
    }

    /// An analysis of the same module with empty caches, sharing the table
    /// of functions (for another thread: the table is only read).
    pub fn fresh(&self) -> Self {
        Self::with_functions(std::sync::Arc::clone(&self.functions))
    }

    fn with_functions(functions: std::sync::Arc<HashMap<String, Option<OperationRef<'c, 'a>>>>) -> Self {
        Self {
            functions,
            decided: HashMap::default(),
            in_progress: HashSet::default(),
            assumptions: 0,
            pointers: HashMap::default(),
        }
    }

    /// Forgets the answers about individual pointers: call it before
    /// asking about a function that was rewritten since (values of erased
    /// ops may be reused). The answers about callee parameters stay.
    pub fn forget_pointers(&mut self) {
        self.pointers.clear();
    }

    /// `Ok` when memory is only read through `pointer` and every pointer
    /// derived from it (GEP, casts, select, block arguments), and no copy
    /// of the address outlives the uses seen here (no store of it, no
    /// `ptrtoint`, no return); otherwise the first op that breaks this.
    pub fn only_read(&mut self, pointer: Value<'c, 'a>) -> Result<(), Escape<'c, 'a>> {
        self.only_read_at(pointer, 0)
    }

    fn only_read_at(&mut self, pointer: Value<'c, 'a>, depth: usize) -> Result<(), Escape<'c, 'a>> {
        let start = pointer.to_raw().ptr as usize;
        if let Some(known) = self.pointers.get(&start) {
            return known.clone();
        }
        let assumptions = self.assumptions;
        // Each pointer reached, with the pointer it was reached from.
        let mut parent: HashMap<usize, usize> = HashMap::default();
        parent.insert(start, start);
        let mut work = vec![pointer];
        let mut outcome = Ok(());
        let mut failed_at = start;
        'walk: while let Some(value) = work.pop() {
            let here = value.to_raw().ptr as usize;
            match self.pointers.get(&here) {
                Some(Ok(())) => continue,
                Some(Err(escape)) => {
                    outcome = Err(escape.clone());
                    failed_at = here;
                    break;
                }
                None => {}
            }
            for used in uses(value) {
                let mut reached = |next: Value<'c, 'a>| {
                    parent.entry(next.to_raw().ptr as usize).or_insert_with(|| {
                        work.push(next);
                        here
                    });
                };
                if let Err(escape) = self.use_only_reads(used, depth, &mut reached) {
                    outcome = Err(escape);
                    failed_at = here;
                    break 'walk;
                }
            }
        }
        // Remember the answer where it is sure: a walk that relied on an
        // assumption about a call cycle in progress is not.
        if self.assumptions == assumptions {
            match &outcome {
                Ok(()) => self.pointers.extend(parent.keys().map(|key| (*key, Ok(())))),
                Err(escape) => {
                    let mut current = failed_at;
                    loop {
                        self.pointers.insert(current, Err(escape.clone()));
                        let next = parent.get(&current).copied().unwrap_or(current);
                        if next == current {
                            break;
                        }
                        current = next;
                    }
                }
            }
        }
        outcome
    }

    /// `Ok` when the use `used` of a pointer only reads through it;
    /// pointers derived from it (GEP, cast, select, block argument) go to
    /// `reached`, to be looked at in turn.
    fn use_only_reads(
        &mut self,
        used: crate::ir::Use<'c, 'a>,
        depth: usize,
        reached: &mut impl FnMut(Value<'c, 'a>),
    ) -> Result<(), Escape<'c, 'a>> {
        let op = used.owner;
        match classify_pointer_use(used) {
            PointerUse::Gep { result, .. } | PointerUse::Cast { result, .. } | PointerUse::Select { result } => {
                if let Some(result) = result {
                    reached(result);
                }
                Ok(())
            }
            // Atomic or not, a load only reads.
            PointerUse::Load { .. } | PointerUse::Compare | PointerUse::Assume | PointerUse::DebugInfo => Ok(()),
            PointerUse::Write { by } => Err(Escape::write(op, format!("is written by '{}'", by.name()))),
            PointerUse::Stored => Err(Escape::capture(op, "is stored to memory")),
            PointerUse::CopySource => Ok(()),
            PointerUse::BlockArgument(Some(argument)) => {
                reached(argument);
                Ok(())
            }
            PointerUse::BlockArgument(None) => Err(Escape::capture(op, "is used by a branch ptxcc does not follow")),
            PointerUse::CallOperand => self.call_only_reads(op, used.index, depth),
            // An address only compared with zero gives nothing away.
            PointerUse::PtrToInt if super::analysis::only_null_tests(op) => Ok(()),
            PointerUse::PtrToInt => Err(Escape::capture(op, "is converted to an integer")),
            PointerUse::Returned => Err(Escape::capture(op, "is returned")),
            PointerUse::Other => Err(Escape::capture(
                op,
                format!("is used by '{}', which ptxcc does not know to only read", op_name(op)),
            )),
        }
    }

    /// The parameter of the body a direct call runs that operand `operand`
    /// of `call` becomes, for the alignment its accesses claim: an exact
    /// definition in the module, or one the one-definition rule makes
    /// equivalent to any other linked in its place (`linkonce_odr`,
    /// `weak_odr`: C++ templates and inline functions; every definition of
    /// the same source claims the same alignments, though another may be
    /// less defined, which is why whether it only reads is not taken from
    /// it). `None` for an indirect call, a declaration, a replaceable body
    /// or an operand that is no argument.
    pub fn callee_parameter(&self, call: OperationRef<'c, 'a>, operand: usize) -> Option<Value<'c, 'a>> {
        let index = call_argument_index(call, operand)?;
        let callee = crate::ir::Call::of(call).and_then(crate::ir::Call::callee)?;
        let function = (*self.functions.get(&callee)?)?;
        let odr = matches!(
            crate::kernel::linkage(function),
            crate::ir::LlvmLinkage::LinkonceOdr | crate::ir::LlvmLinkage::WeakOdr
        );
        let entry = crate::kernel::entry_block(function).filter(|_| odr || has_exact_definition(function))?;
        entry.argument_at(index).ok().map(Into::into)
    }

    /// `Ok` when the call `call` only reads through its operand `operand`.
    pub fn call_only_reads(
        &mut self,
        call: OperationRef<'c, 'a>,
        operand: usize,
        depth: usize,
    ) -> Result<(), Escape<'c, 'a>> {
        let Some(index) = call_argument_index(call, operand) else {
            return Err(Escape::capture(call, "is the callee or an operand bundle of a call"));
        };
        if promises_read_only(call, index) || (reads_memory_only(call) && promises_no_capture(call, index)) {
            return Ok(());
        }
        let Some(callee) = crate::ir::Call::of(call).and_then(crate::ir::Call::callee) else {
            return Err(Escape::capture(call, "is passed to an indirect call"));
        };
        let Some(&Some(function)) = self.functions.get(&callee) else {
            return Err(Escape::capture(call, format!("is passed to '@{callee}', which is not in the module")));
        };
        let no_capture = promises_no_capture(call, index) || promises_no_capture(function, index);
        if promises_read_only(function, index)
            || ((reads_memory_only(call) || reads_memory_only(function)) && no_capture)
        {
            return Ok(());
        }
        let may_write = || Escape::capture(call, format!("is passed to '@{callee}', which may write through it"));
        // Only an exact definition is the body the call runs.
        let entry = crate::kernel::entry_block(function).filter(|_| has_exact_definition(function));
        let Some(entry) = entry.filter(|entry| index < entry.argument_count() && depth < MAX_CALL_DEPTH) else {
            return Err(may_write());
        };
        let key = (callee.clone(), index);
        if let Some(&decided) = self.decided.get(&key) {
            return if decided { Ok(()) } else { Err(may_write()) };
        }
        if self.in_progress.contains(&key) {
            self.assumptions += 1;
            return Ok(()); // a cycle adds no writes of its own
        }
        let parameter: Value = entry.argument_at(index).map_err(|_| may_write())?.into();
        let assumptions = self.assumptions;
        self.in_progress.insert(key.clone());
        let answer = self.only_read_at(parameter, depth + 1);
        self.in_progress.remove(&key);
        if answer.is_err() || self.assumptions == assumptions {
            self.decided.insert(key, answer.is_ok());
        }
        answer.map_err(|_| may_write())
    }
}

/// Whether the attributes of parameter `index` of `op` (a call or a
/// function) promise that the callee only reads through the pointer:
/// `byval` (the callee gets a copy), or [`reads_without_capture`].
fn promises_read_only(op: OperationRef, index: usize) -> bool {
    parameter_has(op, index, "llvm.byval") || reads_without_capture(op, index)
}

/// Whether parameter `index` of `op` is `readonly` or `readnone`, and
/// `nocapture`: only read, and no copy of the address kept.
pub(super) fn reads_without_capture(op: OperationRef, index: usize) -> bool {
    parameter_has(op, index, "llvm.nocapture")
        && (parameter_has(op, index, "llvm.readonly") || parameter_has(op, index, "llvm.readnone"))
}

/// Whether the attributes of parameter `index` of `op` promise the callee
/// keeps no copy of the address (`nocapture`, or `byval`: the callee gets a
/// copy of the memory, not the address).
fn promises_no_capture(op: OperationRef, index: usize) -> bool {
    parameter_has(op, index, "llvm.nocapture") || parameter_has(op, index, "llvm.byval")
}

/// Whether the `memory_effects` of a call or function say it writes no
/// memory a pointer argument could reach and returns no pointer. Not enough
/// on its own: a read-only function can still hand the address back as an
/// integer or keep it in inaccessible memory, so callers also need
/// `nocapture`.
fn reads_memory_only(op: OperationRef) -> bool {
    let Ok(effects) = op.attribute("memory_effects") else { return false };
    let Some((other, arg_mem)) = ptxcc_shim::memory_effects(melior::ir::attribute::AttributeLike::to_raw(&effects))
    else {
        return false;
    };
    !other.writes() && !arg_mem.writes() && !returns_pointer(op)
}

/// Whether a call, or a function, returns a pointer.
fn returns_pointer(op: OperationRef) -> bool {
    if LlvmOp::of(op) == LlvmOp::Call {
        return op.results().any(|r| pointer_address_space(r.r#type()).is_some());
    }
    let Some(function_type) = function_type(op).and_then(crate::ir::as_llvm_function) else { return true };
    let result = function_type.return_type();
    pointer_address_space(result).is_some()
}
