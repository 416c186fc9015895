//! A description of every `ptxcc` op, generated from the ODS source.

/// What a field of an op (operand, attribute or result) must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// Any `!llvm.ptr`.
    AnyPointer,
    /// `!llvm.ptr<N>`.
    PointerInAddressSpace(u32),
    /// Any type IRDL lets through (ODS may say more).
    AnyType,
    /// A type with a size that `llvm.load` can load (`LLVM_LoadableType`):
    /// integers, floats, pointers, fixed vectors of them, arrays and
    /// non-opaque structs of loadable types. IRDL cannot say it; the Rust
    /// verifier checks it.
    LoadableType,
    /// An integer attribute of exactly this width.
    IntegerAttr(u32),
}

/// One operand, attribute or result of an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// Name in the `.td` (and the attribute name in IR).
    pub name: &'static str,
    /// Its constraint.
    pub constraint: Constraint,
}

/// One op of the dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpInfo {
    /// Name without the dialect prefix (`load_param`).
    pub name: &'static str,
    /// Name with the dialect prefix (`ptxcc.load_param`).
    pub full_name: &'static str,
    /// One-line summary from the `.td`.
    pub summary: &'static str,
    /// Operands, in order.
    pub operands: &'static [Field],
    /// Required attributes.
    pub attributes: &'static [Field],
    /// Results, in order.
    pub results: &'static [Field],
}

impl OpInfo {
    /// The op with the given full name (`ptxcc.load_param`), if the dialect has it.
    pub fn find(full_name: &str) -> Option<&'static OpInfo> {
        // (Most names asked about are other dialects' ops.)
        if !full_name.strip_prefix(crate::DIALECT_NAME).is_some_and(|rest| rest.starts_with('.')) {
            return None;
        }
        OPS.iter().find(|op| op.full_name == full_name)
    }
}

include!(concat!(env!("OUT_DIR"), "/op_table.rs"));
