//! Every byte of a value in memory, for the rewrites that replace a memory
//! operation (a promoted array's `memset`, a parameter's copy): they must
//! write every byte the original wrote.
//!
//! A load or store of a leaf type does not: `{i8, i32}` has three bytes of
//! padding no field covers, an `i24` takes four bytes of which it stores
//! three, and an `i1` stores one byte of which only the low bit is the
//! value (a `memset` of 0xFF leaves 0xFF in a `bool`; `store i1 true`
//! writes 0x01). So the pieces of a type are its leaves at their own type
//! where their bits fill their bytes, else as the integer of their store
//! size (`i1` as `i8`, `i12` as `i16`), and the bytes no leaf stores (the
//! gaps) as integers of 1, 2, 4 or 8 bytes aligned at their offset.
//!
//! ```text
//! { i8, i32, i24, i1 }   bytes 0 | 1 2 3 | 4 5 6 7 | 8 9 10 | 11 | 12 | 13 14 15
//!                        i8   gap:i8,i16   i32       i24     gap  i8   gap:i8,i16
//! ```

use melior::ir::{r#type::IntegerType, Type, TypeLike};

use crate::{
    abi::{layout::AbiType, mlir::abi_type, DataLayout},
    ir::{as_llvm_struct, context_ref, float_type, integer_width, llvm_array},
};

/// Which leaves [`leaves`] accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaves {
    /// Integers of at most 64 bits and floats (what a `memset` can be
    /// written as without casts).
    Scalars,
    /// Any leaf with a layout: pointers and vectors too (what a copy moves).
    Any,
}

/// The leaves of `ty` at byte offset `base`, in order: offset and the type
/// each is accessed as in memory ([`memory_type`]); `None` when `ty` holds
/// a leaf `which` excludes or a type without layout.
pub fn leaves<'c>(ty: Type<'c>, which: Leaves) -> Option<Vec<(u64, Type<'c>)>> {
    let mut out = Vec::new();
    collect(DataLayout::nvptx64(), ty, 0, which, &mut out)?;
    Some(out)
}

fn collect<'c>(
    layout: &DataLayout,
    ty: Type<'c>,
    base: u64,
    which: Leaves,
    out: &mut Vec<(u64, Type<'c>)>,
) -> Option<()> {
    if let Some((element, count)) = llvm_array(ty) {
        let size = layout.alloc_size(&abi_type(element).ok()?);
        for index in 0..count {
            collect(layout, element, base + index * size, which, out)?;
        }
        return Some(());
    }
    if let Some(body) = as_llvm_struct(ty) {
        let AbiType::Struct(abi) = abi_type(ty).ok()? else { return None };
        let offsets = layout.struct_layout(&abi).offsets;
        for (field, offset) in body.fields().into_iter().zip(offsets) {
            collect(layout, field, base + offset, which, out)?;
        }
        return Some(());
    }
    let scalar = integer_width(ty).is_some_and(|w| w <= 64) || float_type(ty).is_some();
    if which == Leaves::Scalars && !scalar {
        return None;
    }
    out.push((base, memory_type(ty)?));
    Some(())
}

/// The type a leaf of type `ty` is loaded and stored as so that every byte
/// it takes is moved: `ty` itself when its bits fill its store size, else
/// the integer of its store size (`i1` -> `i8`, `i24` stays, `i12` ->
/// `i16`, `vector<4xi1>` -> `i8`). `None` without a layout.
pub fn memory_type(ty: Type) -> Option<Type> {
    let layout = DataLayout::nvptx64();
    let abi = abi_type(ty).ok()?;
    if layout.fills_its_bytes(&abi) {
        return Some(ty);
    }
    let bytes = layout.store_size(&abi);
    let bits = u32::try_from(bytes * 8).ok()?;
    Some(IntegerType::new(context_ref(ty.context()), bits).into())
}

/// The store size of a leaf type in bytes.
pub fn store_size(ty: Type) -> Option<u64> {
    abi_type(ty).ok().map(|t| DataLayout::nvptx64().store_size(&t))
}

/// The bytes of `start..end` outside every `(offset, size)` of `covered`
/// (sorted by offset, not overlapping), as pieces of 1, 2, 4 or 8 bytes,
/// each aligned to its size at its offset: `(offset, size)`.
pub fn gaps(covered: &[(u64, u64)], start: u64, end: u64) -> Vec<(u64, u64)> {
    let mut pieces = Vec::new();
    let mut at = start;
    let cut = |from: u64, to: u64, pieces: &mut Vec<(u64, u64)>| {
        let mut at = from;
        while at < to {
            let size =
                [8u64, 4, 2, 1].into_iter().find(|size| at.is_multiple_of(*size) && at + size <= to).unwrap_or(1);
            pieces.push((at, size));
            at += size;
        }
    };
    for &(offset, size) in covered {
        let (from, to) = (offset.max(start), (offset + size).min(end));
        if from >= to {
            continue;
        }
        cut(at, from, &mut pieces);
        at = at.max(to);
    }
    cut(at, end, &mut pieces);
    pieces
}

#[cfg(test)]
mod tests {
    use super::gaps;
    use rstest::rstest;

    #[rstest]
    #[case::none(&[(0, 4), (4, 4)], 0, 8, &[])]
    #[case::struct_padding(&[(0, 1), (4, 4)], 0, 8, &[(1, 1), (2, 2)])]
    #[case::i24_tail(&[(0, 3)], 0, 4, &[(3, 1)])]
    #[case::all(&[], 0, 16, &[(0, 8), (8, 8)])]
    #[case::unaligned_start(&[], 3, 12, &[(3, 1), (4, 4), (8, 4)])]
    #[case::clipped(&[(0, 4), (8, 4)], 2, 10, &[(4, 4)])]
    fn gaps_cover_the_rest(
        #[case] covered: &[(u64, u64)],
        #[case] start: u64,
        #[case] end: u64,
        #[case] expected: &[(u64, u64)],
    ) {
        assert_eq!(gaps(covered, start, end), expected);
    }
}
