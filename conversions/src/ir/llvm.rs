//! Typed views of the LLVM-dialect ops ptxcc reads: [`LlvmOp`] says which
//! op an op is (in place of comparing its name with a string), and the
//! views ([`Load`], [`Store`], [`Gep`], [`Alloca`], [`Call`], ...) are made
//! by a checked cast from an op and read its operands and attributes by
//! name (in place of positions).
//!
//! The op names come from melior's generated LLVM-dialect ops
//! (`melior::dialect::ods::llvm::LoadOperation::name()`, generated from
//! MLIR's `LLVMOps.td`), so no pass writes one.
//!
//! ```ignore
//! if let Some(load) = Load::of(op) {
//!     let address = load.address();
//! }
//! match LlvmOp::of(op) {
//!     LlvmOp::Store => ...,
//!     kind if kind.is_memory_transfer() => ...,
//!     _ => ...,
//! }
//! ```

use std::{cell::Cell, sync::OnceLock};

use melior::dialect::ods::llvm as ods;
use melior::ir::{operation::OperationLike, OperationRef, Type, Value};

use super::{op_name, HashMap, OperationExt};

/// The op ptxcc's passes are anchored on, as a pass anchor (a `const`: pass
/// declarations need one).
pub const LLVM_FUNC: &str = "llvm.func";

/// The op module passes are anchored on.
pub const BUILTIN_MODULE: &str = "builtin.module";

macro_rules! llvm_ops {
    ($($(#[$doc:meta])* $variant:ident => $ods:ident,)*) => {
        /// Which LLVM-dialect op an op is ([`LlvmOp::of`]); `Other` for any
        /// op not listed (of the LLVM dialect or not).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum LlvmOp {
            $($(#[$doc])* $variant,)*
            /// Any other op.
            Other,
        }

        impl LlvmOp {
            /// The op's name (`llvm.load`); empty for `Other`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => ods::$ods::name(),)*
                    Self::Other => "",
                }
            }

            /// The name of every listed op.
            pub fn all_names() -> Vec<&'static str> {
                vec![$(ods::$ods::name(),)*]
            }

            /// Every listed op by name.
            fn table() -> &'static HashMap<&'static str, LlvmOp> {
                static TABLE: OnceLock<HashMap<&'static str, LlvmOp>> = OnceLock::new();
                TABLE.get_or_init(|| [$((ods::$ods::name(), Self::$variant),)*].into_iter().collect())
            }
        }
    };
}

llvm_ops! {
    /// `llvm.func`.
    Func => LLVMFuncOperation,
    /// `llvm.call`.
    Call => CallOperation,
    /// `llvm.return`.
    Return => ReturnOperation,
    /// `llvm.br`.
    Br => BrOperation,
    /// `llvm.cond_br`.
    CondBr => CondBrOperation,
    /// `llvm.switch`.
    Switch => SwitchOperation,
    /// `llvm.unreachable`.
    Unreachable => UnreachableOperation,
    /// `llvm.load`.
    Load => LoadOperation,
    /// `llvm.store`.
    Store => StoreOperation,
    /// `llvm.getelementptr`.
    Gep => GEPOperation,
    /// `llvm.alloca`.
    Alloca => AllocaOperation,
    /// `llvm.addrspacecast`.
    AddrSpaceCast => AddrSpaceCastOperation,
    /// `llvm.bitcast`.
    Bitcast => BitcastOperation,
    /// `llvm.ptrtoint`.
    PtrToInt => PtrToIntOperation,
    /// `llvm.inttoptr`.
    IntToPtr => IntToPtrOperation,
    /// `llvm.select`.
    Select => SelectOperation,
    /// `llvm.icmp`.
    ICmp => ICmpOperation,
    /// `llvm.fcmp`.
    FCmp => FCmpOperation,
    /// `llvm.freeze`.
    Freeze => FreezeOperation,
    /// `llvm.mlir.constant`.
    Constant => ConstantOperation,
    /// `llvm.mlir.addressof`.
    AddressOf => AddressOfOperation,
    /// `llvm.mlir.zero`.
    Zero => ZeroOperation,
    /// `llvm.mlir.undef`.
    Undef => UndefOperation,
    /// `llvm.mlir.poison`.
    Poison => PoisonOperation,
    /// `llvm.mlir.global`.
    Global => GlobalOperation,
    /// `llvm.extractvalue`.
    ExtractValue => ExtractValueOperation,
    /// `llvm.insertvalue`.
    InsertValue => InsertValueOperation,
    /// `llvm.extractelement`.
    ExtractElement => ExtractElementOperation,
    /// `llvm.insertelement`.
    InsertElement => InsertElementOperation,
    /// `llvm.shufflevector`.
    ShuffleVector => ShuffleVectorOperation,
    /// `llvm.atomicrmw`.
    AtomicRmw => AtomicRMWOperation,
    /// `llvm.cmpxchg`.
    CmpXchg => AtomicCmpXchgOperation,
    /// `llvm.fence`.
    Fence => FenceOperation,
    /// `llvm.add`.
    Add => AddOperation,
    /// `llvm.sub`.
    Sub => SubOperation,
    /// `llvm.mul`.
    Mul => MulOperation,
    /// `llvm.sdiv`.
    SDiv => SDivOperation,
    /// `llvm.udiv`.
    UDiv => UDivOperation,
    /// `llvm.srem`.
    SRem => SRemOperation,
    /// `llvm.urem`.
    URem => URemOperation,
    /// `llvm.and`.
    And => AndOperation,
    /// `llvm.or`.
    Or => OrOperation,
    /// `llvm.xor`.
    Xor => XOrOperation,
    /// `llvm.shl`.
    Shl => ShlOperation,
    /// `llvm.lshr`.
    LShr => LShrOperation,
    /// `llvm.ashr`.
    AShr => AShrOperation,
    /// `llvm.fadd`.
    FAdd => FAddOperation,
    /// `llvm.fsub`.
    FSub => FSubOperation,
    /// `llvm.fmul`.
    FMul => FMulOperation,
    /// `llvm.fdiv`.
    FDiv => FDivOperation,
    /// `llvm.frem`.
    FRem => FRemOperation,
    /// `llvm.fneg`.
    FNeg => FNegOperation,
    /// `llvm.sext`.
    SExt => SExtOperation,
    /// `llvm.zext`.
    ZExt => ZExtOperation,
    /// `llvm.trunc`.
    Trunc => TruncOperation,
    /// `llvm.fpext`.
    FpExt => FPExtOperation,
    /// `llvm.fptrunc`.
    FpTrunc => FPTruncOperation,
    /// `llvm.fptosi`.
    FpToSi => FPToSIOperation,
    /// `llvm.fptoui`.
    FpToUi => FPToUIOperation,
    /// `llvm.sitofp`.
    SiToFp => SIToFPOperation,
    /// `llvm.uitofp`.
    UiToFp => UIToFPOperation,
    /// `llvm.intr.memcpy`.
    Memcpy => MemcpyOperation,
    /// `llvm.intr.memcpy.inline`.
    MemcpyInline => MemcpyInlineOperation,
    /// `llvm.intr.memmove`.
    Memmove => MemmoveOperation,
    /// `llvm.intr.memset`.
    Memset => MemsetOperation,
    /// `llvm.intr.memset.inline`.
    MemsetInline => MemsetInlineOperation,
    /// `llvm.intr.lifetime.start`.
    LifetimeStart => LifetimeStartOperation,
    /// `llvm.intr.lifetime.end`.
    LifetimeEnd => LifetimeEndOperation,
    /// `llvm.intr.dbg.declare`.
    DbgDeclare => DbgDeclareOperation,
    /// `llvm.intr.dbg.value`.
    DbgValue => DbgValueOperation,
    /// `llvm.intr.dbg.label`.
    DbgLabel => DbgLabelOperation,
    /// `llvm.intr.assume`.
    Assume => AssumeOperation,
}

/// The prefix of the LLVM dialect's intrinsic ops (`llvm.intr.memcpy`).
const INTRINSIC_PREFIX: &str = "llvm.intr.";

impl LlvmOp {
    /// Which op `op` is.
    ///
    /// Found by name once per op class (and thread), then by the class's
    /// type id, a process-wide constant of MLIR's, in a small direct-mapped
    /// cache: the passes ask millions of times, and hashing the name on each
    /// cost 2.4% of a pipeline run's instructions.
    pub fn of(op: OperationRef) -> Self {
        /// Slots of the cache (a power of two).
        const SLOTS: usize = 256;
        thread_local! {
            /// (type id, kind) of registered op classes seen, by a hash of
            /// the type id; a collision only costs a lookup by name.
            static BY_TYPE_ID: [Cell<(usize, LlvmOp)>; SLOTS] =
                const { [const { Cell::new((0, LlvmOp::Other)) }; SLOTS] };
        }
        // SAFETY: the type id of a live op's (uniqued) name.
        let id = unsafe { mlir_sys::mlirOperationGetTypeID(op.to_raw()) }.ptr as usize;
        let slot = ((id >> 4) ^ (id >> 12)) & (SLOTS - 1);
        let (cached, kind) = BY_TYPE_ID.with(|cache| cache[slot].get());
        if cached == id && id != 0 {
            return kind;
        }
        let name = op_name(op);
        let kind = Self::table().get(name).copied().unwrap_or(Self::Other);
        // Unregistered ops all share one type id: only registered classes
        // are remembered.
        let text = mlir_sys::MlirStringRef { data: name.as_ptr().cast(), length: name.len() };
        // SAFETY: the context of a live op; the name outlives the call.
        let registered =
            unsafe { mlir_sys::mlirContextIsRegisteredOperation(mlir_sys::mlirOperationGetContext(op.to_raw()), text) };
        if id != 0 && registered {
            BY_TYPE_ID.with(|cache| cache[slot].set((id, kind)));
        }
        kind
    }

    /// `llvm.intr.memcpy`, `llvm.intr.memcpy.inline` or `llvm.intr.memmove`
    /// (destination operand 0, source operand 1).
    pub fn is_memory_transfer(self) -> bool {
        matches!(self, Self::Memcpy | Self::MemcpyInline | Self::Memmove)
    }

    /// `llvm.intr.memset` or `llvm.intr.memset.inline` (destination
    /// operand 0).
    pub fn is_memory_fill(self) -> bool {
        matches!(self, Self::Memset | Self::MemsetInline)
    }

    /// `llvm.intr.lifetime.start` or `llvm.intr.lifetime.end`.
    pub fn is_lifetime_marker(self) -> bool {
        matches!(self, Self::LifetimeStart | Self::LifetimeEnd)
    }

    /// One of the debug intrinsics (`llvm.intr.dbg.*`), which only carry
    /// debug information about their operands.
    pub fn is_debug_info(self) -> bool {
        matches!(self, Self::DbgDeclare | Self::DbgValue | Self::DbgLabel)
    }

    /// `llvm.br`, `llvm.cond_br` or `llvm.switch`: a terminator every
    /// operand of which (but a condition or a switch's value) is forwarded
    /// to a successor's block argument ([`crate::ir::successor_argument`]).
    pub fn is_branch(self) -> bool {
        matches!(self, Self::Br | Self::CondBr | Self::Switch)
    }
}

/// Whether `op` is one of the LLVM dialect's intrinsic ops
/// (`llvm.intr.*`), listed in [`LlvmOp`] or not.
pub fn is_llvm_intrinsic(op: OperationRef) -> bool {
    op_name(op).starts_with(INTRINSIC_PREFIX)
}

/// Defines a view: a copyable wrapper of an op of one [`LlvmOp`] (or of a
/// family: `where` a test of its kind), made by a checked cast.
macro_rules! view {
    ($(#[$doc:meta])* $view:ident: $kind:ident) => {
        view! { $(#[$doc])* $view where |kind| kind == LlvmOp::$kind }
    };
    ($(#[$doc:meta])* $view:ident where $check:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $view<'c, 'a>(OperationRef<'c, 'a>);

        impl<'c, 'a> $view<'c, 'a> {
            /// `op` as this view; `None` when it is another op.
            pub fn of(op: OperationRef<'c, 'a>) -> Option<Self> {
                let check: fn(LlvmOp) -> bool = $check;
                check(LlvmOp::of(op)).then_some(Self(op))
            }

            /// The op.
            pub fn op(self) -> OperationRef<'c, 'a> {
                self.0
            }
        }
    };
}

view! {
    /// An `llvm.load`.
    Load: Load
}

impl<'c: 'a, 'a> Load<'c, 'a> {
    /// The address it reads.
    pub fn address(self) -> Value<'c, 'a> {
        self.0.operand_at(0).expect("llvm.load has an address")
    }

    /// The value it reads.
    pub fn value(self) -> Value<'c, 'a> {
        super::first_result(self.0).expect("llvm.load has a result")
    }

    /// Whether it is volatile.
    pub fn is_volatile(self) -> bool {
        self.0.has_attribute("volatile_")
    }
}

view! {
    /// An `llvm.store`.
    Store: Store
}

impl<'c: 'a, 'a> Store<'c, 'a> {
    /// The value it writes.
    pub fn value(self) -> Value<'c, 'a> {
        self.0.operand_at(0).expect("llvm.store has a value")
    }

    /// The address it writes.
    pub fn address(self) -> Value<'c, 'a> {
        self.0.operand_at(1).expect("llvm.store has an address")
    }

    /// The alignment written on it, if any.
    pub fn alignment(self) -> Option<i64> {
        super::integer_attribute(self.0, "alignment")
    }

    /// Whether it is volatile.
    pub fn is_volatile(self) -> bool {
        self.0.has_attribute("volatile_")
    }
}

view! {
    /// An `llvm.getelementptr`.
    Gep: Gep
}

impl<'c: 'a, 'a> Gep<'c, 'a> {
    /// The base pointer.
    pub fn base(self) -> Value<'c, 'a> {
        self.0.operand_at(0).expect("llvm.getelementptr has a base")
    }

    /// The pointer it computes.
    pub fn pointer(self) -> Value<'c, 'a> {
        super::first_result(self.0).expect("llvm.getelementptr has a result")
    }

    /// The indices ([`super::gep_indices`]).
    pub fn indices(self) -> Option<Vec<Option<i64>>> {
        super::gep_indices(self.0)
    }

    /// The type it indexes (`elem_type`).
    pub fn element_type(self) -> Option<Type<'c>> {
        super::type_attribute(self.0, "elem_type")
    }

    /// Its indices as written (`rawConstantIndices`: a constant, or
    /// `i32::MIN` for each dynamic index, which is an operand).
    pub fn raw_indices(self) -> Option<Vec<i32>> {
        super::i32_array_attribute(self.0, "rawConstantIndices")
    }
}

view! {
    /// An `llvm.alloca`.
    Alloca: Alloca
}

impl<'c: 'a, 'a> Alloca<'c, 'a> {
    /// The number of elements (operand 0).
    pub fn count(self) -> Value<'c, 'a> {
        self.0.operand_at(0).expect("llvm.alloca has a count")
    }

    /// The element type (`elem_type`).
    pub fn element_type(self) -> Option<Type<'c>> {
        super::type_attribute(self.0, "elem_type")
    }

    /// The alignment written on it, if any.
    pub fn alignment(self) -> Option<i64> {
        super::integer_attribute(self.0, "alignment")
    }
}

view! {
    /// An `llvm.addrspacecast`.
    AddrSpaceCast: AddrSpaceCast
}

impl<'c: 'a, 'a> AddrSpaceCast<'c, 'a> {
    /// The pointer it casts.
    pub fn source(self) -> Value<'c, 'a> {
        self.0.operand_at(0).expect("llvm.addrspacecast has a source")
    }
}

view! {
    /// An `llvm.call`.
    Call: Call
}

impl<'c: 'a, 'a> Call<'c, 'a> {
    /// The function it calls directly; `None` for an indirect call.
    pub fn callee(self) -> Option<String> {
        self.0.attribute("callee").ok().and_then(super::flat_symbol_name)
    }

    /// Whether it calls through a pointer (operand 0).
    pub fn is_indirect(self) -> bool {
        !self.0.has_attribute("callee")
    }

    /// The arguments it passes, in order: the operands less an indirect
    /// call's function pointer and the operand bundles.
    pub fn arguments(self) -> Vec<Value<'c, 'a>> {
        let operands: Vec<_> = self.0.operands().collect();
        let count = super::i32_array_attribute(self.0, "operandSegmentSizes")
            .and_then(|sizes| sizes.first().and_then(|n| usize::try_from(*n).ok()))
            .unwrap_or(operands.len())
            .min(operands.len());
        let skip = usize::from(self.is_indirect()).min(count);
        operands[skip..count].to_vec()
    }

    /// The function pointer of an indirect call (operand 0); `None` for a
    /// direct call.
    pub fn callee_pointer(self) -> Option<Value<'c, 'a>> {
        if self.is_indirect() {
            self.0.operand_at(0).ok()
        } else {
            None
        }
    }
}

view! {
    /// A memory intrinsic: a transfer (`llvm.intr.memcpy`,
    /// `llvm.intr.memcpy.inline`, `llvm.intr.memmove`: destination, source,
    /// length) or a fill (`llvm.intr.memset`, `llvm.intr.memset.inline`:
    /// destination, byte value, length).
    MemIntrinsic where |kind| kind.is_memory_transfer() || kind.is_memory_fill()
}

impl<'c: 'a, 'a> MemIntrinsic<'c, 'a> {
    /// The address written.
    pub fn destination(self) -> Value<'c, 'a> {
        self.0.operand_at(0).expect("a memory intrinsic has a destination")
    }

    /// The byte value a fill writes; `None` for a transfer.
    pub fn fill_value(self) -> Option<Value<'c, 'a>> {
        LlvmOp::of(self.0).is_memory_fill().then(|| self.0.operand_at(1).ok()).flatten()
    }

    /// The length operand; `None` for the `.inline` forms, whose length is
    /// an attribute.
    pub fn length(self) -> Option<Value<'c, 'a>> {
        self.0.operand_at(2).ok()
    }

    /// The length, when it is a constant operand.
    pub fn constant_length(self) -> Option<i64> {
        super::constant_int(self.length()?)
    }

    /// Whether it is volatile.
    pub fn is_volatile(self) -> bool {
        super::bool_attribute_is_true(self.0, "isVolatile")
    }
}

view! {
    /// An `llvm.extractvalue`.
    ExtractValue: ExtractValue
}

impl ExtractValue<'_, '_> {
    /// The path of the element it reads (`position`).
    pub fn position(self) -> Option<Vec<i64>> {
        super::i64_array_attribute(self.0, "position")
    }
}

/// Whether `op` is a volatile `llvm.load` or `llvm.store`.
pub fn is_volatile_access(op: OperationRef) -> bool {
    Load::of(op).is_some_and(Load::is_volatile) || Store::of(op).is_some_and(Store::is_volatile)
}

/// Whether `op` is atomic: it has a non-default `ordering` (an atomic
/// `llvm.load` or `llvm.store`, `llvm.atomicrmw`, `llvm.cmpxchg`).
pub fn is_atomic(op: OperationRef) -> bool {
    super::integer_attribute(op, "ordering").unwrap_or(0) != 0
}

view! {
    /// An `llvm.cond_br`.
    CondBr: CondBr
}

impl<'c: 'a, 'a> CondBr<'c, 'a> {
    /// The condition.
    pub fn condition(self) -> Value<'c, 'a> {
        self.0.operand_at(0).expect("llvm.cond_br has a condition")
    }
}

view! {
    /// An `llvm.return`.
    Return: Return
}

impl<'c: 'a, 'a> Return<'c, 'a> {
    /// The value it returns, if any.
    pub fn value(self) -> Option<Value<'c, 'a>> {
        self.0.operand_at(0).ok()
    }
}

view! {
    /// An `llvm.mlir.constant`.
    Constant: Constant
}

impl Constant<'_, '_> {
    /// Its integer value, if it is an integer.
    pub fn integer(self) -> Option<i64> {
        super::integer_attribute(self.0, "value")
    }
}

#[cfg(test)]
mod tests {
    use super::{Gep, LlvmOp, Load, Store};
    use melior::ir::Module;

    /// The kinds of the ops of `text`'s function body, in order.
    fn kinds_in(context: &melior::Context, text: &str) -> Vec<LlvmOp> {
        let module = Module::parse(context, text).expect("parses");
        super::super::nested_ops(module.as_operation()).into_iter().map(LlvmOp::of).collect()
    }

    /// `LlvmOp::of` finds each op, in two contexts (its cache is keyed by
    /// MLIR's process-wide type ids), and leaves unregistered ops `Other`
    /// whatever name they have; the views read their operands by name.
    #[test]
    fn kinds_hold_across_contexts_and_unregistered_ops() {
        let source = "llvm.func @f(%p: !llvm.ptr) {\n\
                      %v = llvm.load %p : !llvm.ptr -> i32\n\
                      %q = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, i32\n\
                      llvm.store %v, %q : i32, !llvm.ptr\n\
                      \"test.thing\"() : () -> ()\n\
                      \"test.other\"() : () -> ()\n\
                      llvm.return\n}";
        let expected =
            [LlvmOp::Func, LlvmOp::Load, LlvmOp::Gep, LlvmOp::Store, LlvmOp::Other, LlvmOp::Other, LlvmOp::Return];
        for _ in 0..2 {
            let context = crate::abi::tests::llvm_context();
            context.set_allow_unregistered_dialects(true);
            assert_eq!(kinds_in(&context, source), expected);
            let module = Module::parse(&context, source).expect("parses");
            let ops = super::super::nested_ops(module.as_operation());
            let (load, gep, store) = (Load::of(ops[1]).unwrap(), Gep::of(ops[2]).unwrap(), Store::of(ops[3]).unwrap());
            assert!(Load::of(ops[3]).is_none() && Store::of(ops[1]).is_none());
            assert_eq!(gep.base(), load.address());
            assert_eq!(store.value(), load.value());
            assert_eq!(store.address(), gep.pointer());
            assert_eq!(gep.indices(), Some(vec![Some(1)]));
        }
    }

    /// Every listed op has a distinct name of the LLVM dialect, which is
    /// how [`LlvmOp::of`] finds it back.
    #[test]
    fn names_are_distinct_llvm_op_names() {
        let table = LlvmOp::table();
        assert_eq!(table.len(), LlvmOp::all_names().len(), "two kinds share a name");
        for (name, kind) in table {
            assert!(name.starts_with("llvm."), "{name}");
            assert_eq!(kind.name(), *name);
        }
        assert_eq!(LlvmOp::Gep.name(), "llvm.getelementptr");
        assert_eq!(LlvmOp::Memcpy.name(), "llvm.intr.memcpy");
        assert_eq!(LlvmOp::Constant.name(), "llvm.mlir.constant");
        assert_eq!(LlvmOp::Other.name(), "");
    }
}
