//! Integer expressions over loop induction variables: which values an
//! index depends on, and what it is once those values are known.
//!
//! An expression is a tree of integer `llvm.mlir.constant`s, block
//! arguments (the leaves a caller gives values to) and the arithmetic
//! `llvm.add`, `llvm.sub`, `llvm.mul`, `llvm.shl`, `llvm.lshr`,
//! `llvm.ashr`, `llvm.and`, `llvm.or`, `llvm.xor`, `llvm.zext`,
//! `llvm.sext`, `llvm.trunc`, `llvm.icmp` and `llvm.select`. Values are
//! computed with LLVM's wrapping semantics at each op's width; poison
//! flags (`nsw`, `nuw`, `disjoint`, `exact`) are ignored, which is right
//! for a program that has no undefined behaviour.

use crate::ir::LlvmOp;
use melior::ir::{operation::OperationLike, Value, ValueLike};

use crate::ir::{as_argument, as_result, constant_int, integer_width, op_name, HashMap, OperationExt};

/// An integer of `width` bits (1 to 128), kept zero-extended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Int {
    /// Bits of the type.
    pub width: u32,
    /// The value, zero-extended from `width` bits.
    pub bits: u128,
}

impl Int {
    /// `bits` truncated to `width` bits.
    pub fn new(width: u32, bits: u128) -> Self {
        let mask = if width >= 128 { u128::MAX } else { (1u128 << width) - 1 };
        Self { width, bits: bits & mask }
    }

    /// The value read as signed.
    pub fn signed(self) -> i128 {
        if self.width >= 128 {
            return self.bits as i128;
        }
        let shift = 128 - self.width;
        ((self.bits << shift) as i128) >> shift
    }

    /// The value as an `i64` (signed), if it fits.
    pub fn to_i64(self) -> Option<i64> {
        i64::try_from(self.signed()).ok()
    }
}

/// Values given to block arguments, keyed by the argument's raw handle.
pub type Env = HashMap<*const std::ffi::c_void, Int>;

/// The key of `value` in an [`Env`].
pub fn key(value: Value) -> *const std::ffi::c_void {
    value.to_raw().ptr
}

/// Expressions deeper than this are not followed (a chain of additions
/// that long is not an array index).
const MAX_DEPTH: usize = 64;

/// The value of `value` under `env`: `None` when it depends on something
/// `env` does not give (a block argument it lacks, a load, a call) or on an
/// op outside the list above.
pub fn evaluate(value: Value, env: &Env) -> Option<Int> {
    evaluate_at(value, env, 0)
}

fn evaluate_at(value: Value, env: &Env, depth: usize) -> Option<Int> {
    if depth > MAX_DEPTH {
        return None;
    }
    if as_argument(value).is_some() {
        return env.get(&key(value)).copied();
    }
    let width = integer_width(value.r#type())?;
    if let Some(constant) = constant_int(value) {
        return Some(Int::new(width, constant as u128));
    }
    let op = as_result(value)?.owner();
    let operand = |index: usize| evaluate_at(op.operand_at(index).ok()?, env, depth + 1);
    let kind = LlvmOp::of(op);
    match kind {
        LlvmOp::ZExt | LlvmOp::SExt | LlvmOp::Trunc => {
            let source = operand(0)?;
            let bits = if kind == LlvmOp::SExt { source.signed() as u128 } else { source.bits };
            Some(Int::new(width, bits))
        }
        LlvmOp::ICmp => {
            let (lhs, rhs) = (operand(0)?, operand(1)?);
            let predicate = crate::ir::integer_attribute(op, "predicate")?;
            Some(Int::new(1, u128::from(compare(predicate, lhs, rhs)?)))
        }
        LlvmOp::Select => {
            let condition = operand(0)?;
            operand(if condition.bits != 0 { 1 } else { 2 })
        }
        _ => {
            let (lhs, rhs) = (operand(0)?, operand(1)?);
            binary(kind, width, lhs, rhs)
        }
    }
}

/// `lhs OP rhs` for the binary integer ops, at `width` bits; `None` for
/// other ops and for shifts by the width or more (poison).
fn binary(kind: LlvmOp, width: u32, lhs: Int, rhs: Int) -> Option<Int> {
    let shift = || u32::try_from(rhs.bits).ok().filter(|amount| *amount < width);
    let bits = match kind {
        LlvmOp::Add => lhs.bits.wrapping_add(rhs.bits),
        LlvmOp::Sub => lhs.bits.wrapping_sub(rhs.bits),
        LlvmOp::Mul => lhs.bits.wrapping_mul(rhs.bits),
        LlvmOp::And => lhs.bits & rhs.bits,
        LlvmOp::Or => lhs.bits | rhs.bits,
        LlvmOp::Xor => lhs.bits ^ rhs.bits,
        LlvmOp::Shl => lhs.bits << shift()?,
        LlvmOp::LShr => lhs.bits >> shift()?,
        LlvmOp::AShr => (lhs.signed() >> shift()?) as u128,
        _ => return None,
    };
    Some(Int::new(width, bits))
}

/// The `llvm.icmp` predicate numbered `predicate` (LLVM's `ICmpPredicate`
/// enum: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge) on two values.
fn compare(predicate: i64, lhs: Int, rhs: Int) -> Option<bool> {
    let (s, t) = (lhs.signed(), rhs.signed());
    let (u, v) = (lhs.bits, rhs.bits);
    Some(match predicate {
        0 => u == v,
        1 => u != v,
        2 => s < t,
        3 => s <= t,
        4 => s > t,
        5 => s >= t,
        6 => u < v,
        7 => u <= v,
        8 => u > v,
        9 => u >= v,
        _ => return None,
    })
}

/// The block arguments `value` is an expression of (each once, in the
/// order found), or `Err` with the op that makes it something else (a
/// load, a call, a special register) or `Err(None)` when it is too deep or
/// not an integer.
pub fn leaves<'c: 'a, 'a>(value: Value<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, Option<String>> {
    let mut found = Vec::new();
    collect_leaves(value, &mut found, 0)?;
    Ok(found)
}

fn collect_leaves<'c: 'a, 'a>(
    value: Value<'c, 'a>,
    found: &mut Vec<Value<'c, 'a>>,
    depth: usize,
) -> Result<(), Option<String>> {
    if depth > MAX_DEPTH {
        return Err(None);
    }
    if as_argument(value).is_some() {
        if !found.contains(&value) {
            found.push(value);
        }
        return Ok(());
    }
    if integer_width(value.r#type()).is_none() {
        return Err(None);
    }
    if constant_int(value).is_some() {
        return Ok(());
    }
    let Some(result) = as_result(value) else { return Err(None) };
    let op = result.owner();
    let supported = matches!(
        LlvmOp::of(op),
        LlvmOp::Add
            | LlvmOp::Sub
            | LlvmOp::Mul
            | LlvmOp::Shl
            | LlvmOp::LShr
            | LlvmOp::AShr
            | LlvmOp::And
            | LlvmOp::Or
            | LlvmOp::Xor
            | LlvmOp::ZExt
            | LlvmOp::SExt
            | LlvmOp::Trunc
            | LlvmOp::ICmp
            | LlvmOp::Select
    );
    if !supported {
        return Err(Some(op_name(op).to_owned()));
    }
    for index in 0..op.operand_count() {
        let operand = op.operand_at(index).map_err(|_| None)?;
        collect_leaves(operand, found, depth + 1)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::wraps(8, 300, 44)]
    #[case::keeps(32, 7, 7)]
    #[case::negative(4, u128::MAX, 15)]
    fn truncates(#[case] width: u32, #[case] bits: u128, #[case] expected: u128) {
        assert_eq!(Int::new(width, bits).bits, expected);
    }

    #[rstest]
    #[case::slt(2, (32, u128::from(u32::MAX)), (32, 0), true)]
    #[case::ult(6, (32, u128::from(u32::MAX)), (32, 0), false)]
    #[case::eq(0, (8, 8), (8, 8), true)]
    #[case::uge(9, (16, 3), (16, 4), false)]
    fn compares(#[case] predicate: i64, #[case] lhs: (u32, u128), #[case] rhs: (u32, u128), #[case] expected: bool) {
        let (lhs, rhs) = (Int::new(lhs.0, lhs.1), Int::new(rhs.0, rhs.1));
        assert_eq!(compare(predicate, lhs, rhs), Some(expected));
    }

    #[rstest]
    #[case::add(LlvmOp::Add, 8, 250, 10, Some(4))]
    #[case::shl_by_width(LlvmOp::Shl, 8, 1, 8, None)]
    #[case::ashr(LlvmOp::AShr, 8, 0x80, 7, Some(0xff))]
    #[case::lshr(LlvmOp::LShr, 8, 0x80, 7, Some(1))]
    fn computes(
        #[case] kind: LlvmOp,
        #[case] width: u32,
        #[case] lhs: u128,
        #[case] rhs: u128,
        #[case] expected: Option<u128>,
    ) {
        let result = binary(kind, width, Int::new(width, lhs), Int::new(width, rhs));
        assert_eq!(result.map(|value| value.bits), expected);
    }
}
