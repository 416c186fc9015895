//! Integer expressions over loop induction variables: which values an
//! index depends on, and what it is once those values are known.
//!
//! An expression is a graph of integer `llvm.mlir.constant`s, block
//! arguments (the leaves a caller gives values to) and the arithmetic
//! `llvm.add`, `llvm.sub`, `llvm.mul`, `llvm.shl`, `llvm.lshr`,
//! `llvm.ashr`, `llvm.and`, `llvm.or`, `llvm.xor`, `llvm.zext`,
//! `llvm.sext`, `llvm.trunc`, `llvm.icmp` and `llvm.select`, on integers
//! of at most 128 bits (a wider one is refused: it is not an index, and
//! [`Int`] could not hold it). Values are computed with LLVM's wrapping
//! semantics at each op's width; poison flags (`nsw`, `nuw`, `disjoint`,
//! `exact`) are ignored, which is right for a program that has no
//! undefined behaviour.
//!
//! Both walks visit each value once (a hash whose values are used two or
//! three times each is a DAG, exponential as a tree) and give up beyond
//! [`MAX_VALUES`] values: their work is bounded by the input, whatever it
//! is.

use crate::ir::LlvmOp;
use melior::ir::{operation::OperationLike, Value, ValueLike};

use crate::ir::{as_argument, as_result, constant_bits, integer_width, op_name, HashMap, HashSet, OperationExt};

/// The widest integer evaluated (bits).
pub const MAX_WIDTH: u32 = 128;

/// An integer of `width` bits (1 to [`MAX_WIDTH`]), kept zero-extended.
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

/// Expressions of more values than this are not followed (no array index
/// needs them; the limit bounds the work of one walk).
pub const MAX_VALUES: usize = 4096;

/// The width of `value` when it is an integer the evaluator handles.
fn width_of(value: Value) -> Option<u32> {
    integer_width(value.r#type()).filter(|width| (1..=MAX_WIDTH).contains(width))
}

/// Whether `kind` is one of the ops an expression may hold.
fn supported(kind: LlvmOp) -> bool {
    matches!(
        kind,
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
    )
}

/// The value of `value` under `env`: `None` when it depends on something
/// `env` does not give (a block argument it lacks, a load, a call), on an
/// op outside the list above or on an integer wider than [`MAX_WIDTH`].
pub fn evaluate(value: Value, env: &Env) -> Option<Int> {
    Evaluator::new(env).value(value)
}

/// Evaluates several values under one [`Env`], each value of the graph
/// once (the counters' steps and the exit test of one iteration share
/// their subexpressions).
pub struct Evaluator<'e> {
    env: &'e Env,
    known: HashMap<*const std::ffi::c_void, Option<Int>>,
    /// The values whose operands are being evaluated (seen again before
    /// they are known: a cycle, which valid SSA outside graph regions
    /// never has, but a broken rewrite may).
    visiting: HashSet<*const std::ffi::c_void>,
}

impl<'e> Evaluator<'e> {
    /// An evaluator with nothing computed yet.
    pub fn new(env: &'e Env) -> Self {
        Self { env, known: HashMap::default(), visiting: HashSet::default() }
    }

    /// The value of `value` (see [`evaluate`]).
    pub fn value(&mut self, value: Value) -> Option<Int> {
        // (value, stage): stage 0 asks for the operands it needs first, 1
        // (a select whose condition is known) for the operand it chooses,
        // 2 computes.
        let mut stack = vec![(value, 0u8)];
        while let Some((current, stage)) = stack.pop() {
            if self.known.contains_key(&key(current)) {
                continue;
            }
            if self.known.len() > MAX_VALUES {
                return None;
            }
            if stage == 0 && !self.visiting.insert(key(current)) {
                self.known.insert(key(current), None);
                continue;
            }
            if as_argument(current).is_some() {
                let given = self.env.get(&key(current)).copied().filter(|v| width_of(current) == Some(v.width));
                self.known.insert(key(current), given);
                continue;
            }
            let Some(width) = width_of(current) else {
                self.known.insert(key(current), None);
                continue;
            };
            if let Some((bits_width, bits)) = constant_bits(current) {
                self.known.insert(key(current), (bits_width == width).then(|| Int::new(width, bits)));
                continue;
            }
            let Some(op) = as_result(current).map(|r| r.owner()) else {
                self.known.insert(key(current), None);
                continue;
            };
            let kind = LlvmOp::of(op);
            if !supported(kind) {
                self.known.insert(key(current), None);
                continue;
            }
            let operands: Vec<Value> = (0..op.operand_count()).filter_map(|i| op.operand_at(i).ok()).collect();
            let get = |known: &HashMap<_, Option<Int>>, v: Value| known.get(&key(v)).copied().flatten();
            match (kind, stage) {
                (LlvmOp::Select, 0) => {
                    let [condition, ..] = operands[..] else {
                        self.known.insert(key(current), None);
                        continue;
                    };
                    stack.push((current, 1));
                    stack.push((condition, 0));
                }
                (LlvmOp::Select, 1) => {
                    let [condition, on_true, on_false] = operands[..] else {
                        self.known.insert(key(current), None);
                        continue;
                    };
                    match get(&self.known, condition) {
                        None => {
                            self.known.insert(key(current), None);
                        }
                        Some(c) => {
                            stack.push((current, 2));
                            stack.push((if c.bits != 0 { on_true } else { on_false }, 0));
                        }
                    }
                }
                (LlvmOp::Select, _) => {
                    let chosen = match operands[..] {
                        [condition, on_true, on_false] => get(&self.known, condition)
                            .map(|c| if c.bits != 0 { on_true } else { on_false })
                            .and_then(|v| get(&self.known, v)),
                        _ => None,
                    };
                    self.known.insert(key(current), chosen);
                }
                (_, 0) => {
                    stack.push((current, 2));
                    stack.extend(operands.iter().filter(|v| !self.known.contains_key(&key(**v))).map(|v| (*v, 0)));
                }
                _ => {
                    let values: Option<Vec<Int>> = operands.iter().map(|v| get(&self.known, *v)).collect();
                    let result = values.and_then(|values| compute(op, kind, width, &values));
                    self.known.insert(key(current), result);
                }
            }
        }
        self.known.get(&key(value)).copied().flatten()
    }
}

/// The result of the op `op` (of kind `kind`, `width` bits) on `operands`.
fn compute(op: melior::ir::OperationRef, kind: LlvmOp, width: u32, operands: &[Int]) -> Option<Int> {
    match (kind, operands) {
        (LlvmOp::ZExt | LlvmOp::SExt | LlvmOp::Trunc, [source]) => {
            let bits = if kind == LlvmOp::SExt { source.signed() as u128 } else { source.bits };
            Some(Int::new(width, bits))
        }
        (LlvmOp::ICmp, [lhs, rhs]) => {
            let predicate = crate::ir::integer_attribute(op, "predicate")?;
            Some(Int::new(1, u128::from(compare(predicate, *lhs, *rhs)?)))
        }
        (_, [lhs, rhs]) => binary(kind, width, *lhs, *rhs),
        _ => None,
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
/// order a depth-first walk finds them), or `Err` with the op that makes it
/// something else (a load, a call, a special register) or `Err(None)` when
/// it holds more than [`MAX_VALUES`] values or a value that is not an
/// integer of at most [`MAX_WIDTH`] bits.
pub fn leaves<'c: 'a, 'a>(value: Value<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, Option<String>> {
    let mut found = Vec::new();
    let mut seen = HashSet::default();
    let mut stack = vec![value];
    while let Some(current) = stack.pop() {
        if !seen.insert(key(current)) {
            continue;
        }
        if seen.len() > MAX_VALUES {
            return Err(None);
        }
        if as_argument(current).is_some() {
            found.push(current);
            continue;
        }
        if width_of(current).is_none() {
            return Err(None);
        }
        if constant_bits(current).is_some() {
            continue;
        }
        let Some(result) = as_result(current) else { return Err(None) };
        let op = result.owner();
        if !supported(LlvmOp::of(op)) {
            return Err(Some(op_name(op).to_owned()));
        }
        // Reversed: the first operand is walked first.
        for index in (0..op.operand_count()).rev() {
            stack.push(op.operand_at(index).map_err(|_| None)?);
        }
    }
    Ok(found)
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
