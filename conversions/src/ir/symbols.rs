//! Symbols: symbol references, the linkage of functions, and the functions
//! of a module.

use melior::ir::{
    attribute::{Attribute, AttributeLike},
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef,
};

/// The symbol a `FlatSymbolRefAttr` names (`@f` -> `f`).
pub fn flat_symbol_name(attribute: Attribute) -> Option<String> {
    // SAFETY: reading a live attribute after checking its kind.
    unsafe {
        let raw = attribute.to_raw();
        mlir_sys::mlirAttributeIsAFlatSymbolRef(raw)
            .then(|| ptxcc_shim::to_string(mlir_sys::mlirFlatSymbolRefAttrGetValue(raw)))
    }
}

/// The root symbol and the nested references of a `SymbolRefAttr`
/// (`@kernels::@add` -> `kernels` and `[@add]`; a flat reference has no
/// nested ones); `None` for other attributes.
pub fn symbol_ref_parts(attribute: Attribute) -> Option<(String, Vec<Attribute>)> {
    // SAFETY: reading a live attribute after checking its kind; indices in
    // range.
    unsafe {
        let raw = attribute.to_raw();
        mlir_sys::mlirAttributeIsASymbolRef(raw).then(|| {
            let root = ptxcc_shim::to_string(mlir_sys::mlirSymbolRefAttrGetRootReference(raw));
            let nested = (0..mlir_sys::mlirSymbolRefAttrGetNumNestedReferences(raw))
                .map(|i| Attribute::from_raw(mlir_sys::mlirSymbolRefAttrGetNestedReference(raw, i)))
                .collect();
            (root, nested)
        })
    }
}

/// The linkage of an `llvm.func` (LLVM's linkage types, in the C API's
/// order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LlvmLinkage {
    /// `external` (also what an `llvm.func` without `linkage` has).
    External,
    /// `available_externally`.
    AvailableExternally,
    /// `linkonce`.
    Linkonce,
    /// `linkonce_odr`.
    LinkonceOdr,
    /// `weak`.
    Weak,
    /// `weak_odr`.
    WeakOdr,
    /// `appending`.
    Appending,
    /// `internal`.
    Internal,
    /// `private`.
    Private,
    /// `extern_weak`.
    ExternWeak,
    /// `common`.
    Common,
}

impl LlvmLinkage {
    /// Every linkage with the C API's value for it, in that order.
    const ALL: [(Self, mlir_sys::MlirLLVMLinkage); 11] = [
        (Self::External, mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageExternal),
        (Self::AvailableExternally, mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageAvailableExternally),
        (Self::Linkonce, mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageLinkonce),
        (Self::LinkonceOdr, mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageLinkonceODR),
        (Self::Weak, mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageWeak),
        (Self::WeakOdr, mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageWeakODR),
        (Self::Appending, mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageAppending),
        (Self::Internal, mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageInternal),
        (Self::Private, mlir_sys::MlirLLVMLinkage_MlirLLVMLinkagePrivate),
        (Self::ExternWeak, mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageExternWeak),
        (Self::Common, mlir_sys::MlirLLVMLinkage_MlirLLVMLinkageCommon),
    ];
}

/// The linkage of `func` (an `llvm.func`; `external` when not written, and
/// for any other op), read from its properties.
pub fn llvm_linkage(func: OperationRef) -> LlvmLinkage {
    let Some(number) = ptxcc_shim::llvm_func_linkage(func.to_raw()) else { return LlvmLinkage::External };
    LlvmLinkage::ALL.iter().find(|&&(_, kind)| kind == number).map_or(LlvmLinkage::External, |&(linkage, _)| linkage)
}

/// The symbol name of `op` (`sym_name`); empty when it has none or it is
/// not UTF-8. An `llvm.func`'s is read from its properties: the lookup by
/// name that `OperationLike::attribute` makes asks the op for its context
/// first, through its location, which costs a cache miss per call on a large
/// module.
pub fn symbol_name<'c>(op: OperationRef<'c, '_>) -> &'c str {
    // SAFETY: the op is alive; its name is a string of its context, which
    // outlives `'c`.
    let name = unsafe { ptxcc_shim::symbol_name::<'c>(op.to_raw()) };
    name.and_then(|bytes| std::str::from_utf8(bytes).ok()).unwrap_or_default()
}

/// Every `llvm.func` in `module` (in nested modules too, not inside function
/// bodies), in order; host code ([`is_host_function`]) is not ptxcc's and
/// is left out.
pub fn module_functions<'c, 'a>(module: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut found = Vec::new();
    module.walk(WalkOrder::PreOrder, |op| {
        if super::LlvmOp::of(op) != super::LlvmOp::Func {
            return WalkResult::Advance;
        }
        if !is_host_function(op) {
            found.push(op.to_raw());
        }
        WalkResult::Skip // nothing inside a function body is a function
    });
    // SAFETY: the walk collected live ops of `module`, which outlives them.
    found.into_iter().map(|raw| unsafe { OperationRef::from_raw(raw) }).collect()
}

/// The attribute MLIR GPU programs put on the module that holds both host
/// code and `gpu.module`s (what `gpu.launch_func` requires).
pub const GPU_CONTAINER_MODULE: &str = "gpu.container_module";

/// Whether `func` is host code: a function directly inside a module marked
/// `gpu.container_module`, whose device code lives in its `gpu.module`s.
/// ptxcc leaves host code as it is.
pub fn is_host_function(func: OperationRef) -> bool {
    func.parent_operation().is_some_and(|parent| parent.has_attribute(GPU_CONTAINER_MODULE))
}

#[cfg(test)]
mod tests {
    use melior::ir::Module;
    use rstest::rstest;

    use super::*;
    use crate::abi::tests::llvm_context;

    /// The linkage read from an `llvm.func`'s properties is the one written
    /// (the shim's numbering is the C API's).
    #[rstest]
    #[case("llvm.func @f() {\n  llvm.return\n}", LlvmLinkage::External)]
    #[case("llvm.func @f()", LlvmLinkage::External)]
    #[case("llvm.func available_externally @f() {\n  llvm.return\n}", LlvmLinkage::AvailableExternally)]
    #[case("llvm.func linkonce @f() {\n  llvm.return\n}", LlvmLinkage::Linkonce)]
    #[case("llvm.func linkonce_odr @f() {\n  llvm.return\n}", LlvmLinkage::LinkonceOdr)]
    #[case("llvm.func weak @f() {\n  llvm.return\n}", LlvmLinkage::Weak)]
    #[case("llvm.func weak_odr @f() {\n  llvm.return\n}", LlvmLinkage::WeakOdr)]
    #[case("llvm.func internal @f() {\n  llvm.return\n}", LlvmLinkage::Internal)]
    #[case("llvm.func private @f() {\n  llvm.return\n}", LlvmLinkage::Private)]
    #[case("llvm.func extern_weak @f()", LlvmLinkage::ExternWeak)]
    fn linkage_from_properties(#[case] text: &str, #[case] expected: LlvmLinkage) {
        let context = llvm_context();
        let module = Module::parse(&context, text).expect("parses");
        assert_eq!(llvm_linkage(module_functions(module.as_operation())[0]), expected);
    }

    /// `symbol_name` reads an `llvm.func`'s name from its properties and any
    /// other symbol's from its `sym_name` attribute.
    #[rstest]
    #[case("llvm.func @kernel_1()", "llvm.func", "kernel_1")]
    #[case("llvm.mlir.global internal @table(0 : i32) : i32", "llvm.mlir.global", "table")]
    #[case("llvm.func @f() {\n  llvm.return\n}", "llvm.return", "")]
    fn symbol_names(#[case] text: &str, #[case] op: &str, #[case] expected: &str) {
        let context = llvm_context();
        let module = Module::parse(&context, text).expect("parses");
        let found = crate::ir::nested_ops(module.as_operation())
            .into_iter()
            .find(|candidate| crate::ir::op_name(*candidate) == op);
        assert_eq!(found.map(symbol_name), Some(expected));
    }
}
