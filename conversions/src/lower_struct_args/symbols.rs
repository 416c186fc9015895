//! Who names which function symbol in a module ([`symbol_uses`]), and who
//! calls whom ([`CallGraph`]): what decides whether a device function may
//! change signature, and which plans a round of rewriting can change.
//!
//! The module is walked once per pass run: a round of rewriting updates the
//! map with the calls it built ([`SymbolUses::calls`]) instead of walking
//! the module again (each walk of a large module costs a few percent of a
//! pipeline run).

use crate::ir::{HashMap, HashSet};

use melior::{
    ir::{block::BlockLike, operation::OperationLike, Attribute, OperationRef, RegionLike},
    Context,
};

use crate::ir::{flat_symbol_name, op_name, LlvmOp, OperationExt};

/// The uses of each function symbol in a module: its direct calls, and
/// whether anything else names it.
#[derive(Default, Debug)]
pub struct SymbolUses<'c, 'a> {
    /// `llvm.call`s that name it as `callee`.
    pub calls: Vec<OperationRef<'c, 'a>>,
    /// Whether anything else names it (`llvm.mlir.addressof`, a ctor list,
    /// an `llvm.invoke`, ...).
    pub other: bool,
    /// Whether it makes or receives a `musttail` call (which needs the two
    /// signatures to agree).
    pub musttail: bool,
}

/// What the walk reads of an op, decided once per op name.
#[derive(Clone, Copy)]
enum OpKind {
    /// `llvm.func`: starts a function; its `sym_name` is no use.
    Func,
    /// `llvm.call`: its `callee` is a call, anything else a use.
    Call,
    /// An op that keeps its attributes as properties, of which only these
    /// inherent ones (and the discardable ones) can name a symbol.
    Inherent(&'static [&'static str]),
    /// Any other op: every attribute is read.
    All,
}

/// Every use of every symbol in `module`, by name.
///
/// The ops directly in the module are walked in chunks on the context's
/// thread pool ([`crate::ir::parallel_chunks`]: the walk reads each of a
/// large module's millions of ops, a few percent of a pipeline run), and
/// what the chunks found is merged in the module's order.
pub fn symbol_uses<'c, 'a>(module: OperationRef<'c, 'a>) -> HashMap<String, SymbolUses<'c, 'a>> {
    let context: &Context = crate::ir::context_of(module);
    // Attributes are uniqued: one comparison finds `musttail`.
    let musttail = Attribute::parse(context, crate::ir::MUSTTAIL);
    // The ops directly in the module, in the order a pre-order walk visits
    // them: walking each in turn visits what walking the module does.
    let tops = direct_ops(module);
    // SAFETY: the walk reads the IR; the one thing it may create in the
    // context is an op's attribute dictionary (for ops of kind `All`), which
    // a multi-threaded context allows from any thread.
    let parts = unsafe { crate::ir::parallel_chunks(module, &tops, |chunk| vec![walk_part(chunk, musttail)]) };
    merge(parts)
}

/// The ops directly in `op`'s regions, region by region, block by block.
fn direct_ops<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    for index in 0..op.region_count() {
        let mut block = op.region_at(index).ok().and_then(|r| r.first_block());
        while let Some(current) = block {
            let mut next = current.first_operation();
            while let Some(found) = next {
                ops.push(found);
                next = found.next_in_block();
            }
            block = current.next_in_region();
        }
    }
    ops
}

/// What the walk of some ops found, in walk order.
#[derive(Default)]
struct Part<'c, 'a> {
    /// Direct calls: callee and call.
    calls: Vec<(String, OperationRef<'c, 'a>)>,
    /// Names used otherwise.
    other: Vec<String>,
    /// Callees of `musttail` calls, and the functions that make them.
    musttail: Vec<String>,
    /// Function definitions.
    defined: Vec<String>,
}

/// Walks `roots` and every op in them (pre-order), as [`symbol_uses`] does.
fn walk_part<'c, 'a>(roots: &[OperationRef<'c, 'a>], musttail: Option<Attribute>) -> Part<'c, 'a> {
    let mut part = Part::default();
    let mut kinds: HashMap<*const std::ffi::c_void, OpKind> = HashMap::default();
    let mut named_attributes = Vec::new();
    for &root in roots {
        // Collected first: a panic cannot unwind through MLIR's walk callback.
        for op in std::iter::once(root).chain(crate::ir::nested_ops(root)) {
            // Op names are uniqued identifiers: what to read of an op is
            // decided once per name, not by comparing strings on every op.
            let kind = *kinds.entry(crate::ir::op_name_key(op)).or_insert_with(|| op_kind(op));
            let is_call = matches!(kind, OpKind::Call);
            if matches!(kind, OpKind::Func) {
                part.defined.push(crate::abi::signature::function_name(op));
            }
            let is_musttail = is_call && musttail.is_some() && op.attribute("TailCallKind").ok() == musttail;
            if is_musttail {
                if let Some(caller) = crate::kernel::enclosing_function(op) {
                    part.musttail.push(crate::abi::signature::function_name(caller));
                }
            }
            // Reading every attribute of an op that keeps them as
            // properties builds its attribute dictionary (uniqued under the
            // context's lock) once per attribute read: most of this walk's
            // time on large modules. For the ops that fill modules only the
            // discardable attributes and the named inherent ones that can
            // hold a symbol are read; any other op has all its attributes
            // read.
            named_attributes.clear();
            match kind {
                OpKind::Func | OpKind::Call | OpKind::Inherent(_) => {
                    crate::ir::append_discardable_attributes(op, &mut named_attributes);
                    for name in inherent_names(kind) {
                        if let Some(value) = crate::ir::inherent_attribute(op, name) {
                            named_attributes.push((name, value));
                        }
                    }
                }
                OpKind::All => crate::ir::append_attributes(op, &mut named_attributes),
            }
            for &(key, attribute) in &named_attributes {
                if matches!(kind, OpKind::Func) && key == "sym_name" {
                    continue;
                }
                let callee = is_call && key == "callee";
                for name in symbols_in(attribute) {
                    if callee {
                        if is_musttail {
                            part.musttail.push(name.clone());
                        }
                        part.calls.push((name, op));
                    } else {
                        part.other.push(name);
                    }
                }
            }
        }
    }
    part
}

/// The symbol uses the parts found, in order.
fn merge<'c, 'a>(parts: Vec<Part<'c, 'a>>) -> HashMap<String, SymbolUses<'c, 'a>> {
    let mut found: HashMap<String, SymbolUses> = HashMap::default();
    let mut defined: HashMap<String, usize> = HashMap::default();
    for part in parts {
        for (name, call) in part.calls {
            found.entry(name).or_default().calls.push(call);
        }
        for name in part.other {
            found.entry(name).or_default().other = true;
        }
        for name in part.musttail {
            found.entry(name).or_default().musttail = true;
        }
        for name in part.defined {
            *defined.entry(name).or_default() += 1;
        }
    }
    // A name defined in several (nested) modules: which calls reach which
    // definition is a symbol-table question this map does not answer.
    for (name, count) in defined {
        if count > 1 {
            found.entry(name).or_default().other = true;
        }
    }
    found
}

/// The inherent attributes of an op of `kind` that may name a symbol.
const fn inherent_names(kind: OpKind) -> &'static [&'static str] {
    match kind {
        OpKind::Func => &["personality", "comdat"],
        OpKind::Call => &["callee"],
        OpKind::Inherent(names) => names,
        OpKind::All => &[],
    }
}

/// What the walk reads of an op named `name`: for the ops that fill modules
/// only the inherent attributes (properties) that may name a symbol (none
/// for the ops of function bodies); for any other op all its attributes.
fn op_kind(op: OperationRef) -> OpKind {
    use LlvmOp as L;
    const NONE: &[&str] = &[];
    let name = op_name(op);
    if crate::ir::is_llvm_intrinsic(op) || name.starts_with("nvvm.") || name.starts_with("ptxcc.") {
        return OpKind::Inherent(NONE);
    }
    match LlvmOp::of(op) {
        L::Func => OpKind::Func,
        L::Call => OpKind::Call,
        L::Load
        | L::Store
        | L::Gep
        | L::Alloca
        | L::Constant
        | L::Zero
        | L::Undef
        | L::Poison
        | L::Br
        | L::CondBr
        | L::Switch
        | L::Return
        | L::Unreachable
        | L::ExtractValue
        | L::InsertValue
        | L::ExtractElement
        | L::InsertElement
        | L::ShuffleVector
        | L::ICmp
        | L::FCmp
        | L::Select
        | L::Freeze
        | L::Add
        | L::Sub
        | L::Mul
        | L::SDiv
        | L::UDiv
        | L::SRem
        | L::URem
        | L::And
        | L::Or
        | L::Xor
        | L::Shl
        | L::LShr
        | L::AShr
        | L::FAdd
        | L::FSub
        | L::FMul
        | L::FDiv
        | L::FRem
        | L::FNeg
        | L::SExt
        | L::ZExt
        | L::Trunc
        | L::FpExt
        | L::FpTrunc
        | L::FpToSi
        | L::FpToUi
        | L::SiToFp
        | L::UiToFp
        | L::Bitcast
        | L::AddrSpaceCast
        | L::PtrToInt
        | L::IntToPtr
        | L::AtomicRmw
        | L::CmpXchg
        | L::Fence => OpKind::Inherent(NONE),
        _ => OpKind::All,
    }
}

/// The symbols an attribute names, through arrays and dictionaries: a flat
/// reference's name, and a nested one's (`@kernels::@add`, what
/// `gpu.launch_func` holds) every part, so that a function reached that way
/// keeps its signature.
fn symbols_in(attribute: Attribute) -> Vec<String> {
    if let Some(name) = flat_symbol_name(attribute) {
        return vec![name];
    }
    if let Some((root, nested)) = crate::ir::symbol_ref_parts(attribute) {
        let mut names = vec![root];
        for reference in nested {
            names.extend(symbols_in(reference));
        }
        return names;
    }
    if let Some(elements) = crate::ir::array_elements(attribute) {
        return elements.into_iter().flat_map(symbols_in).collect();
    }
    if crate::ir::is_dictionary(attribute) {
        return crate::ir::dictionary_entries(attribute).into_iter().flat_map(|(_, value)| symbols_in(value)).collect();
    }
    Vec::new()
}

/// Who calls whom, by function name, from a module's direct calls. A call
/// is rewritten in place (same block, same caller), so the graph stays true
/// while rounds rewrite calls and signatures.
#[derive(Debug, Default)]
pub struct CallGraph {
    /// The functions each function calls.
    callees: HashMap<String, HashSet<String>>,
    /// The functions that call each function.
    callers: HashMap<String, HashSet<String>>,
}

impl CallGraph {
    /// The call graph of the direct calls in `symbols`.
    pub fn new(symbols: &HashMap<String, SymbolUses>) -> Self {
        /// Adds `value` to `key`'s set, copying a name only when it is new
        /// there (a module has many calls, few distinct edges).
        fn add(map: &mut HashMap<String, HashSet<String>>, key: &str, value: &str) {
            match map.get_mut(key) {
                Some(set) if set.contains(value) => {}
                Some(set) => {
                    set.insert(value.to_string());
                }
                None => {
                    map.insert(key.to_string(), std::iter::once(value.to_string()).collect());
                }
            }
        }
        let mut graph = Self::default();
        for (callee, uses) in symbols {
            for call in &uses.calls {
                let Some(caller) = crate::kernel::enclosing_function(*call) else { continue };
                let caller = crate::ir::symbol_name(caller);
                add(&mut graph.callees, caller, callee);
                add(&mut graph.callers, callee, caller);
            }
        }
        graph
    }

    /// The functions whose plans may differ once `rewritten` changed
    /// signature. A plan reads the function's body, its call sites and its
    /// symbol's uses; a round changes the bodies of the rewritten functions
    /// and of their callers (each call of a rewritten function is rebuilt),
    /// so the functions affected are those, and every function called from
    /// one of those bodies (its call sites changed). Symbol uses only
    /// change by calls being rebuilt.
    pub fn affected_by<'n>(&self, rewritten: impl IntoIterator<Item = &'n str>) -> HashSet<String> {
        let mut changed_bodies: HashSet<String> = HashSet::default();
        for name in rewritten {
            changed_bodies.insert(name.to_string());
            changed_bodies.extend(self.callers.get(name).into_iter().flatten().cloned());
        }
        let mut affected = changed_bodies.clone();
        for body in &changed_bodies {
            affected.extend(self.callees.get(body).into_iter().flatten().cloned());
        }
        affected
    }
}

/// Whether two symbol-use maps say the same: the same calls (in any order),
/// the same other uses and `musttail` ties (a name with no use at all may be
/// missing from either). For checking, in debug builds, that the map a pass
/// keeps up to date is the module's.
pub fn same_uses(a: &HashMap<String, SymbolUses>, b: &HashMap<String, SymbolUses>) -> bool {
    let summary = |map: &HashMap<String, SymbolUses>| -> HashMap<String, (Vec<usize>, bool, bool)> {
        map.iter()
            .filter(|(_, uses)| !uses.calls.is_empty() || uses.other || uses.musttail)
            .map(|(name, uses)| {
                let mut calls: Vec<usize> = uses.calls.iter().map(|call| call.to_raw().ptr as usize).collect();
                calls.sort_unstable();
                (name.clone(), (calls, uses.other, uses.musttail))
            })
            .collect()
    };
    summary(a) == summary(b)
}
