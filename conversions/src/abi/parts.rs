//! Value parts (seed 003 "value part scheduling"): how `llc` splits a value
//! passed in `.param` space into register-sized parts and which neighbours
//! it merges into one `v2`/`v4` access.
//!
//! The rules are LLVM 22's `ComputePTXValueVTs` (leaves of the type, each
//! legalised to NVPTX register types: `i1 i8 i16 i32 i64 f16 bf16 f32 f64
//! v2i16 v2f16 v2bf16 v4i8`, plus `v2f32 v2i32` on sm_100 with PTX 8.6),
//! `VectorizePTXValueVTs` (greedy from the left: try 16, 8, 4, 2 bytes; merge
//! when the parameter's alignment covers the access, the offset is aligned
//! to it, and 2 or 4 parts of one type are contiguous) and the legaliser's
//! split of accesses that are less aligned than they are wide (packed
//! fields become byte accesses).

use std::fmt;

use super::{layout::FloatKind, AbiError, AbiType, DataLayout, Target};

/// A scalar NVPTX register type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// `i1` (one byte in memory).
    I1,
    /// `i8`.
    I8,
    /// `i16`.
    I16,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `f16`.
    F16,
    /// `bf16`.
    BF16,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

impl Scalar {
    /// Bytes in memory.
    pub fn bytes(self) -> u64 {
        match self {
            Scalar::I1 | Scalar::I8 => 1,
            Scalar::I16 | Scalar::F16 | Scalar::BF16 => 2,
            Scalar::I32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::F64 => 8,
        }
    }
}

/// The register type of one part: a scalar or a short vector of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PartType {
    /// Element type.
    pub scalar: Scalar,
    /// Lanes (1 for a scalar).
    pub lanes: u64,
}

impl PartType {
    fn scalar(scalar: Scalar) -> Self {
        PartType { scalar, lanes: 1 }
    }

    /// Bytes in memory.
    pub fn bytes(self) -> u64 {
        self.scalar.bytes() * self.lanes
    }
}

/// One part: a register-typed piece of the value at a byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// Byte offset in the `.param` value.
    pub offset: u64,
    /// Its register type.
    pub ty: PartType,
}

/// One `ld.param`/`st.param` as `llc` emits it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Access {
    /// Byte offset.
    pub offset: u64,
    /// 1, 2 or 4 (`.v2`, `.v4`).
    pub vector: u64,
    /// Width of each element in bits (`.b32`).
    pub bits: u64,
}

/// `.v2.b32 +16` (the access's suffix and offset).
impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.vector > 1 {
            write!(f, ".v{}", self.vector)?;
        }
        write!(f, ".b{} +{}", self.bits, self.offset)
    }
}

fn legal_vector(scalar: Scalar, lanes: u64, target: &Target) -> bool {
    matches!((scalar, lanes), (Scalar::I16 | Scalar::F16 | Scalar::BF16, 2) | (Scalar::I8, 4))
        || (target.has_f32x2() && matches!((scalar, lanes), (Scalar::F32 | Scalar::I32, 2)))
}

/// The register type of a scalar leaf and how many registers it takes.
fn scalar_register(layout: &DataLayout, ty: &AbiType) -> Result<(Scalar, u64), AbiError> {
    Ok(match ty {
        AbiType::Int(1) => (Scalar::I1, 1),
        AbiType::Int(bits) if *bits <= 8 => (Scalar::I8, 1),
        AbiType::Int(bits) if *bits <= 16 => (Scalar::I16, 1),
        AbiType::Int(bits) if *bits <= 32 => (Scalar::I32, 1),
        AbiType::Int(bits) if *bits <= 64 => (Scalar::I64, 1),
        AbiType::Int(bits) => (Scalar::I64, u64::from(*bits).next_power_of_two() / 64),
        AbiType::Float(FloatKind::Half) => (Scalar::F16, 1),
        AbiType::Float(FloatKind::BFloat) => (Scalar::BF16, 1),
        AbiType::Float(FloatKind::Float) => (Scalar::F32, 1),
        AbiType::Float(FloatKind::Double) => (Scalar::F64, 1),
        AbiType::Float(FloatKind::Fp128) => (Scalar::I64, 2),
        AbiType::Float(FloatKind::X86Fp80) => {
            return Err(AbiError::Unsupported { ty: ty.to_string(), reason: "NVPTX has no x86_fp80".into() })
        }
        AbiType::Ptr(space) if layout.pointer_bits(*space) == 32 => (Scalar::I32, 1),
        AbiType::Ptr(_) => (Scalar::I64, 1),
        _ => return Err(AbiError::Unsupported { ty: ty.to_string(), reason: "not a scalar".into() }),
    })
}

/// Register parts of one vector leaf: `(type, count)`.
fn vector_registers(
    layout: &DataLayout,
    elem: &AbiType,
    lanes: u64,
    target: &Target,
) -> Result<(PartType, u64), AbiError> {
    let (scalar, per_elem) = scalar_register(layout, elem)?;
    if lanes == 1 {
        return Ok((PartType::scalar(scalar), per_elem));
    }
    // NVPTX splits vectors of i1 into single bits, one byte each.
    if scalar == Scalar::I1 {
        return Ok((PartType::scalar(Scalar::I1), lanes));
    }
    let exact = matches!(elem, AbiType::Int(8 | 16 | 32 | 64) | AbiType::Float(_) | AbiType::Ptr(_));
    if exact && per_elem == 1 && legal_vector(scalar, lanes, target) {
        return Ok((PartType { scalar, lanes }, 1));
    }
    if let AbiType::Int(bits) = elem {
        let bits = u64::from(*bits);
        if !lanes.is_power_of_two() {
            // Odd integer vectors widen to the next power of two if that is legal.
            let wide = lanes.next_power_of_two();
            if exact && legal_vector(scalar, wide, target) {
                return Ok((PartType { scalar, lanes: wide }, 1));
            }
        } else {
            // Promote the elements to a legal vector of the same length.
            let promoted = [(Scalar::I8, 8), (Scalar::I16, 16), (Scalar::I32, 32)]
                .into_iter()
                .find(|&(wider, wider_bits)| wider_bits > bits && legal_vector(wider, lanes, target));
            if let Some((wider, _)) = promoted {
                return Ok((PartType { scalar: wider, lanes }, 1));
            }
        }
    }
    if !lanes.is_power_of_two() {
        return Ok((PartType::scalar(scalar), lanes.saturating_mul(per_elem)));
    }
    let mut sub = lanes;
    while sub > 1 && !(exact && legal_vector(scalar, sub, target)) {
        sub /= 2;
    }
    if sub > 1 {
        Ok((PartType { scalar, lanes: sub }, lanes / sub))
    } else {
        Ok((PartType::scalar(scalar), lanes.saturating_mul(per_elem)))
    }
}

/// The most register parts [`value_parts`] lists: twice the largest param
/// space in bytes (a part is at least one byte; a kernel's parameters fit in
/// 32764 bytes, and a device function's in what ptxas accepts, far less
/// than this).
pub const MAX_VALUE_PARTS: u64 = 2 * ptxcc_dialect::verify::MAX_PARAM_SPACE as u64;

/// The register parts of `ty`, in offset order (LLVM's
/// `ComputePTXValueVTs`); an error above [`MAX_VALUE_PARTS`] parts, found
/// before listing more than that many (a 64 MB array is not walked element
/// by element).
pub fn value_parts(layout: &DataLayout, ty: &AbiType, target: &Target) -> Result<Vec<Part>, AbiError> {
    fn walk(
        layout: &DataLayout,
        ty: &AbiType,
        offset: u64,
        target: &Target,
        out: &mut Vec<Part>,
    ) -> Result<(), AbiError> {
        match ty {
            AbiType::Struct(body) => {
                let struct_layout = layout.struct_layout(body);
                for (field, field_offset) in body.fields.iter().zip(&struct_layout.offsets) {
                    walk(layout, field, offset.saturating_add(*field_offset), target, out)?;
                }
                return Ok(());
            }
            AbiType::Array(elem, count) => {
                if super::classify::leaf_count(elem) == 0 {
                    return Ok(());
                }
                let stride = layout.alloc_size(elem);
                for i in 0..*count {
                    walk(layout, elem, offset.saturating_add(i.saturating_mul(stride)), target, out)?;
                }
                return Ok(());
            }
            _ => {}
        }
        let (mut part, count) = match ty {
            AbiType::Vector(elem, lanes) => vector_registers(layout, elem, *lanes, target)?,
            _ => {
                let (scalar, count) = scalar_register(layout, ty)?;
                (PartType::scalar(scalar), count)
            }
        };
        // `llc` keeps i8 (and i8 pairs) at their own width instead of the
        // i16 registers they live in.
        let elem_is_i8 = match ty {
            AbiType::Vector(elem, _) => **elem == AbiType::Int(8),
            other => *other == AbiType::Int(8),
        };
        if elem_is_i8 && part.scalar == Scalar::I16 {
            part.scalar = Scalar::I8;
        }
        if (out.len() as u64).saturating_add(count) > MAX_VALUE_PARTS {
            return Err(AbiError::TooManyParts { limit: MAX_VALUE_PARTS });
        }
        for i in 0..count {
            out.push(Part { offset: offset.saturating_add(i.saturating_mul(part.bytes())), ty: part });
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(layout, ty, 0, target, &mut out)?;
    Ok(out)
}

/// How many parts from `index` on merge into one access (LLVM's
/// `canMergeParamLoadStoresStartingAt`), given the parameter's alignment:
/// 2 or 4 parts, or 8 bytes (`llc` 22 loads eight `i8` as one `.b64`).
fn merge_count(parts: &[Part], index: usize, align: u64) -> usize {
    let first = parts[index];
    let bytewise = first.ty.lanes == 1 && matches!(first.ty.scalar, Scalar::I1 | Scalar::I8);
    for access in [16u64, 8, 4, 2] {
        let elem = first.ty.bytes();
        if align < access || !first.offset.is_multiple_of(access) || elem >= access || !access.is_multiple_of(elem) {
            continue;
        }
        let count = (access / elem) as usize;
        if !(count == 2 || count == 4 || (count == 8 && bytewise)) || index + count > parts.len() {
            continue;
        }
        let run = &parts[index..index + count];
        if run.windows(2).all(|pair| pair[1].ty == first.ty && pair[0].offset.checked_add(elem) == Some(pair[1].offset))
        {
            return count;
        }
    }
    1
}

/// The `ld.param`/`st.param` accesses `llc` makes for `parts` of a
/// parameter aligned to `align`: merged groups, then groups split where
/// they are less aligned than wide.
pub fn schedule(parts: &[Part], align: u64, target: &Target) -> Vec<Access> {
    let mut accesses = Vec::new();
    let mut index = 0;
    while index < parts.len() {
        let count = merge_count(parts, index, align);
        let first = parts[index];
        let total = first.ty.bytes() * count as u64;
        let aligned = super::layout::common_alignment(align, first.offset as i64);
        if aligned < total {
            let piece = aligned.max(1);
            for k in 0..total / piece {
                accesses.push(Access { offset: first.offset + k * piece, vector: 1, bits: piece * 8 });
            }
        } else {
            accesses.push(group_access(first.ty, count as u64, first.offset, target));
        }
        index += count;
    }
    accesses
}

/// The PTX form of `count` parts of type `ty` accessed together: bytes
/// merge into words (4 -> `.b32`, 8 -> `.b64`; 2 stay `.v2.b8`); pairs of a
/// type with a packed register (`v2f16`, `v2i16`, `v2f32` on sm_100) travel
/// as one word each (`.b32`, `.v2.b32`); other scalar groups as `.v2`/`.v4`.
fn group_access(ty: PartType, count: u64, offset: u64, target: &Target) -> Access {
    let lanes = ty.lanes * count;
    let elem_bits = ty.scalar.bytes() * 8;
    if ty.lanes == 1 {
        let bytewise = matches!(ty.scalar, Scalar::I1 | Scalar::I8);
        return match count {
            4 | 8 if bytewise => Access { offset, vector: 1, bits: elem_bits * count },
            2 | 4 if !bytewise && legal_vector(ty.scalar, 2, target) => {
                Access { offset, vector: count / 2, bits: elem_bits * 2 }
            }
            _ => Access { offset, vector: count, bits: elem_bits },
        };
    }
    // Packed vectors travel as 32- or 64-bit words; i8 pairs as bytes.
    let word_bits = elem_bits * ty.lanes;
    if word_bits >= 32 {
        Access { offset, vector: count, bits: word_bits }
    } else if lanes * elem_bits >= 32 {
        let total = lanes * elem_bits;
        Access { offset, vector: total / 32, bits: 32 }
    } else {
        Access { offset, vector: lanes, bits: elem_bits }
    }
}
