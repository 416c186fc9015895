//! Verification of `ptxcc` ops beyond what IRDL checks.
//!
//! IRDL (see [`crate::load`]) checks operand and result types and that the
//! required attributes are present and are integers. This module checks the
//! rest, and reports every problem as an MLIR error at the op's location:
//!
//! | op | rule |
//! |---|---|
//! | all | integer attributes have the width the `.td` gives (`I64Attr`: `i64`); operands in the address space the `.td` gives; a `LLVM_LoadableType` operand or result is a type `llvm.load`/`llvm.store` can take (IRDL cannot express it) |
//! | all, by attribute name | `offset` >= 0 and below 32764, `size` > 0 and at most 32764 (nothing in param space lies beyond the largest param space any target has; the passes loop and allocate by these numbers), `alignment` a power of two of at most 2^32 (a new op that names its attributes so gets these rules) |
//! | `copy_param` | `dst` generic or local |
//! | `generic_to_as` | the result is in global, shared, const or local space |
//!
//! Operands are re-checked against the `.td` too (a pointer in address space
//! 101 where the `.td` asks for one), so a context that did not load the IRDL
//! definition still gets the checks.

use melior::ir::{
    attribute::{AttributeLike, IntegerAttribute},
    operation::{OperationLike, WalkOrder, WalkResult},
    r#type::IntegerType,
    Location, OperationRef, ValueLike,
};

use crate::{address_space, names, types::pointer_address_space, Constraint, OpInfo};

/// The largest alignment LLVM IR can express (`llvm::Value::MaxAlignmentExponent`).
pub const MAX_ALIGNMENT: i64 = 1 << 32;

/// The largest param space of any target, in bytes (PTX 8.1 on sm_70 and
/// newer): no byte offset or size in it can exceed this.
pub const MAX_PARAM_SPACE: i64 = 32764;

/// Ptxcc ops that failed verification.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{count} ptxcc op(s) failed verification")]
pub struct VerifyError {
    /// How many errors were reported as diagnostics.
    pub count: usize,
}

/// Checks every `ptxcc` op nested in `root` (and `root` itself).
///
/// Each problem is emitted as an MLIR error diagnostic at the op's location;
/// the result says how many there were.
pub fn verify(root: OperationRef) -> Result<(), VerifyError> {
    let mut count = 0;
    // Op names are uniqued identifiers: each is looked up in the table once
    // (a module holds a handful of names and millions of ops).
    let mut known: std::collections::HashMap<*const std::ffi::c_void, Option<&'static OpInfo>> =
        std::collections::HashMap::new();
    root.walk(WalkOrder::PreOrder, |op| {
        let info = *known.entry(ptxcc_shim::operation_name_key(op.to_raw())).or_insert_with(|| op_info(op));
        if let Some(info) = info {
            count += report(op, info);
        }
        WalkResult::Advance
    });
    if count == 0 {
        Ok(())
    } else {
        Err(VerifyError { count })
    }
}

/// Checks one op (not the ops nested in it): emits an error at its location
/// for each problem and returns how many there were; 0 for ops of other
/// dialects. For passes that already walk the IR and check ops on the way.
pub fn verify_op(op: OperationRef) -> usize {
    op_info(op).map_or(0, |info| report(op, info))
}

/// The table entry of `op`, when it is a ptxcc op.
fn op_info(op: OperationRef) -> Option<&'static OpInfo> {
    OpInfo::find(op.name().as_string_ref().as_str().unwrap_or_default())
}

/// Checks `op`, the ptxcc op `info`, and emits an error for each problem;
/// returns how many there were.
fn report(op: OperationRef, info: &OpInfo) -> usize {
    let problems = problems(op, info);
    for message in &problems {
        emit_error(op.location(), &format!("'{}' op {message}", info.full_name));
    }
    problems.len()
}

/// Emits an error diagnostic at `location`.
pub fn emit_error(location: Location, message: &str) {
    let message = c_message(message);
    ptxcc_shim::emit_error(location.to_raw(), &message)
}

/// `message` as a C string (a NUL inside it becomes a space).
fn c_message(message: &str) -> std::ffi::CString {
    std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default()
}

/// Emits a remark diagnostic at `location` (through the shim: the C API has
/// no `emitRemark`).
pub fn emit_remark(location: Location, message: &str) {
    let message = c_message(message);
    ptxcc_shim::emit_remark(location.to_raw(), &message);
}

/// Emits a warning diagnostic with `message` at `location`.
pub fn emit_warning(location: Location, message: &str) {
    let message = c_message(message);
    ptxcc_shim::emit_warning(location.to_raw(), &message);
}

/// The problems of one op, as messages.
fn problems(op: OperationRef, info: &OpInfo) -> Vec<String> {
    let mut problems = Vec::new();
    for (index, field) in info.operands.iter().enumerate() {
        // Counted first: melior prints the whole op into the error of an
        // out-of-range position.
        if index >= op.operand_count() {
            continue;
        }
        let Ok(value) = op.operand(index) else { continue };
        if let Constraint::PointerInAddressSpace(space) = field.constraint {
            if pointer_address_space(value.r#type()) != Some(space) {
                problems.push(format!(
                    "operand '{}' must be an !llvm.ptr<{space}>, got '{}'",
                    field.name,
                    value.r#type()
                ));
            }
        }
        if field.constraint == Constraint::LoadableType && !crate::types::is_loadable(value.r#type()) {
            problems.push(format!(
                "operand '{}' must be a type llvm.store can store (an integer, float, pointer, fixed vector, or an \
                 array or non-opaque struct of them), got '{}'",
                field.name,
                value.r#type()
            ));
        }
    }
    for (index, field) in info.results.iter().enumerate() {
        if index >= op.result_count() {
            continue;
        }
        let Ok(value) = op.result(index) else { continue };
        if field.constraint == Constraint::LoadableType && !crate::types::is_loadable(value.r#type()) {
            problems.push(format!(
                "result '{}' must be a type llvm.load can load (an integer, float, pointer, fixed vector, or an array or \
                 non-opaque struct of them), got '{}'",
                field.name,
                value.r#type()
            ));
        }
    }
    for field in info.attributes {
        let Constraint::IntegerAttr(width) = field.constraint else { continue };
        let Ok(attribute) = op.attribute(field.name) else {
            problems.push(format!("requires attribute '{}'", field.name));
            continue;
        };
        let actual = IntegerType::try_from(attribute.r#type()).map(|t| t.width()).ok();
        if IntegerAttribute::try_from(attribute).is_err() || actual != Some(width) {
            problems.push(format!("attribute '{}' must be an i{width} integer, got '{attribute}'", field.name));
        }
    }
    if !problems.is_empty() {
        return problems;
    }
    let int = |name: &str| {
        op.attribute(name).ok().and_then(|a| IntegerAttribute::try_from(a).ok()).map(|a| a.value()).unwrap_or_default()
    };
    let power_of_two = |problems: &mut Vec<String>| {
        let alignment = int("alignment");
        if alignment <= 0 || alignment & (alignment - 1) != 0 {
            problems.push(format!("alignment must be a power of two, got {alignment}"));
        } else if alignment > MAX_ALIGNMENT {
            problems.push(format!("alignment must be at most 2^32 (LLVM's limit), got {alignment}"));
        }
    };
    // Rules of the dialect's attribute names, whatever the op: a byte
    // `offset` is not negative, a `size` is positive, both stay within the
    // largest param space (the conversion loops and allocates by them), an
    // `alignment` is a power of two LLVM can express.
    for field in info.attributes {
        match field.name {
            "offset" if int("offset") < 0 => {
                problems.push(format!("offset must not be negative, got {}", int("offset")))
            }
            "offset" if int("offset") >= MAX_PARAM_SPACE => problems.push(format!(
                "offset must be below {MAX_PARAM_SPACE} (the largest param space), got {}",
                int("offset")
            )),
            "size" if int("size") <= 0 => problems.push(format!("size must be positive, got {}", int("size"))),
            "size" if int("size") > MAX_PARAM_SPACE => problems.push(format!(
                "size must be at most {MAX_PARAM_SPACE} bytes (the largest param space), got {}",
                int("size")
            )),
            "alignment" => power_of_two(&mut problems),
            _ => {}
        }
    }
    match info.full_name {
        names::COPY_PARAM => {
            if let Some(dst) = (op.operand_count() > 1).then(|| op.operand(1).ok()).flatten() {
                let space = pointer_address_space(dst.r#type());
                if !matches!(space, Some(address_space::GENERIC | address_space::LOCAL)) {
                    problems.push(format!(
                        "destination must be in the generic (0) or local (5) address space, got '{}'",
                        dst.r#type()
                    ));
                }
            }
        }
        names::GENERIC_TO_AS => {
            if let Some(result) = (op.result_count() > 0).then(|| op.result(0).ok()).flatten() {
                let space = pointer_address_space(result.r#type());
                if !matches!(
                    space,
                    Some(address_space::GLOBAL | address_space::SHARED | address_space::CONST | address_space::LOCAL)
                ) {
                    problems.push(format!(
                        "result must be in the global (1), shared (3), const (4) or local (5) address space, got '{}'",
                        result.r#type()
                    ));
                }
            }
        }
        _ => {}
    }
    problems
}
