//! `ptxcc.copy_param` -> vector/scalar loads and stores, or `llvm.intr.memcpy`.

use crate::ir::LlvmOp;
use crate::ir::OperationExt;
use melior::{
    dialect::llvm::{self, LoadStoreOptions},
    ir::{
        attribute::{ArrayAttribute, BoolAttribute, IntegerAttribute},
        operation::OperationBuilder,
        r#type::IntegerType,
        Identifier, Type, Value, ValueLike,
    },
    Context, RewritePatternSet,
};
use ptxcc_dialect::{address_space, names, types::pointer_address_space, types::pointer_type};

use crate::ir::dictionary;

use super::{add_lowering, ConvertPtxccToLlvmOptions};
use crate::abi::{classify, layout::common_alignment, mlir::abi_type, AbiType, DataLayout};
use crate::ir::integer_attribute;
use crate::slots;

/// The type of one access of an inline copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    /// `vector<4xi32>`: 16 bytes, `ld.param.v4.b32` / `st.local.v4.b32`.
    V4I32,
    /// `i128` (a 16-byte field copied whole).
    I128,
    /// `i64`.
    I64,
    /// `i32`.
    I32,
    /// `i16`.
    I16,
    /// `i8`.
    I8,
    /// `!llvm.ptr`: a generic pointer field of the slot's type, copied as a
    /// pointer. `llc` marks every pointer it loads from a kernel's `byval`
    /// parameter global (CUDA), and after SROA its address-space inference
    /// follows the mark to the uses of the field; loaded as an `i64`, the
    /// pointer reached them through an `inttoptr`, generic (Warp's written
    /// `array_t`: generic atomics, 38 registers where llc alone takes 32).
    Ptr,
}

impl AccessKind {
    /// Bytes moved by one access.
    pub fn bytes(self) -> u64 {
        match self {
            Self::V4I32 | Self::I128 => 16,
            Self::I64 | Self::Ptr => 8,
            Self::I32 => 4,
            Self::I16 => 2,
            Self::I8 => 1,
        }
    }

    /// The MLIR type of the access.
    pub fn r#type(self, context: &Context) -> Type<'_> {
        let integer = |bits| Type::from(IntegerType::new(context, bits));
        let vector = |lanes: u64| Type::vector(&[lanes], integer(32));
        match self {
            Self::V4I32 => vector(4),
            Self::I128 => integer(128),
            Self::I64 => integer(64),
            Self::I32 => integer(32),
            Self::I16 => integer(16),
            Self::I8 => integer(8),
            Self::Ptr => pointer_type(context, address_space::GENERIC),
        }
    }

    /// The access of `bytes` bytes (16: `vector<4xi32>`; 8: `i64`, not
    /// `vector<2xi32>`, which held more registers in SASS for the same one
    /// instruction (ptxas 13.5, sm_90: a 56-byte copy into a slot kept in
    /// local memory took 24 registers in `v2.b32` pieces, 20 in `b64` ones,
    /// as llc's own copy does); 4, 2, 1: integers). `vector_copy` decides
    /// only whether a copy takes 16-byte steps ([`plan_inline_copy`]).
    pub(crate) fn of_width(bytes: u64) -> Self {
        match bytes {
            16 => Self::V4I32,
            8 => Self::I64,
            4 => Self::I32,
            2 => Self::I16,
            _ => Self::I8,
        }
    }
}

/// One load/store pair of an inline copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// Byte offset from the start of both sides.
    pub offset: u64,
    /// What is moved.
    pub kind: AccessKind,
    /// The alignment both sides have at `offset`.
    pub align: u64,
}

/// The most registers an inline copy may hold: ptxas issues all of its
/// loads before the first store (whatever order the PTX has), so each
/// access holds its width in registers, one at least. Measured (ptxas -v,
/// sm_90): a 38-byte 1-aligned copy inlined took 51 registers where llc's
/// byte loop took 32; a 128-byte 16-aligned one 32 where the copy loop
/// takes 12. 16 is a 64-byte `v4` copy, or 16 single bytes.
pub const MAX_INLINE_COPY_REGISTERS: u64 = 16;

/// The accesses of a copy of `size` bytes aligned to `alignment` when it is
/// expanded inline: at most `threshold` bytes, holding at most
/// [`MAX_INLINE_COPY_REGISTERS`]; `None` for a copy the loop takes
/// ([`super::copy_loop`]).
pub fn inline_copy_plan(size: u64, alignment: u64, vector_copy: bool, threshold: u64) -> Option<Vec<Access>> {
    if size > threshold {
        return None;
    }
    let plan = plan_inline_copy(size, alignment, vector_copy);
    let registers: u64 = plan.iter().map(|access| access.kind.bytes().div_ceil(4)).sum();
    (registers <= MAX_INLINE_COPY_REGISTERS).then_some(plan)
}

/// The accesses that copy `size` bytes between two buffers aligned to
/// `alignment` (a power of two): the widest width the alignment allows (16
/// bytes with `vector_copy`, 8 without), then narrower ones for the tail.
/// Every access is aligned to its own width.
pub fn plan_inline_copy(size: u64, alignment: u64, vector_copy: bool) -> Vec<Access> {
    let widest = alignment.clamp(1, if vector_copy { 16 } else { 8 });
    let mut accesses = Vec::new();
    let mut offset = 0;
    while offset < size {
        let mut width = widest;
        while width > size - offset {
            width /= 2;
        }
        accesses.push(Access { offset, kind: AccessKind::of_width(width), align: width });
        offset += width;
    }
    accesses
}

/// The most accesses [`plan_field_copy`] makes; a type with more leaves is
/// copied by [`plan_inline_copy`] instead.
const MAX_FIELD_ACCESSES: usize = 512;

/// The accesses that copy a value of `ty` (`size` bytes, both sides aligned
/// to `alignment`) field by field: one integer access per leaf of 1, 2, 4, 8
/// or 16 bytes, and the bytes between and after the leaves (padding, where a
/// union may keep data) and leaves of other sizes in the widest integers
/// their offset allows. SROA then splits the copy exactly along the fields
/// the code uses and deletes the rest, as it does with a memcpy. `None`
/// when the type does not fill `size` bytes or has too many leaves.
pub fn plan_field_copy(layout: &DataLayout, ty: &AbiType, size: u64, alignment: u64) -> Option<Vec<Access>> {
    if layout.alloc_size(ty) != size || classify::leaf_count(ty) > MAX_FIELD_ACCESSES as u64 {
        return None;
    }
    let mut accesses = Vec::new();
    let fill = |from: u64, to: u64, accesses: &mut Vec<Access>| {
        let mut offset = from;
        while offset < to {
            let mut width = 8;
            while width > to - offset || !offset.is_multiple_of(width) {
                width /= 2;
            }
            let kind = AccessKind::of_width(width);
            accesses.push(Access { offset, kind, align: common_alignment(alignment, offset as i64).min(width) });
            offset += width;
        }
    };
    let mut next = 0;
    for leaf in classify::leaves(layout, ty)? {
        let bytes = layout.store_size(&leaf.ty);
        if leaf.offset < next || leaf.offset + bytes > size {
            return None;
        }
        fill(next, leaf.offset, &mut accesses);
        match bytes {
            16 => accesses.push(Access {
                offset: leaf.offset,
                kind: AccessKind::I128,
                align: common_alignment(alignment, leaf.offset as i64).min(16),
            }),
            8 if leaf.ty == AbiType::Ptr(address_space::GENERIC) => accesses.push(Access {
                offset: leaf.offset,
                kind: AccessKind::Ptr,
                align: common_alignment(alignment, leaf.offset as i64).min(8),
            }),
            1 | 2 | 4 | 8 => accesses.push(Access {
                offset: leaf.offset,
                kind: AccessKind::of_width(bytes),
                align: common_alignment(alignment, leaf.offset as i64).min(bytes),
            }),
            _ => fill(leaf.offset, leaf.offset + bytes, &mut accesses),
        }
        next = leaf.offset + bytes;
    }
    fill(next, size, &mut accesses);
    (accesses.len() <= MAX_FIELD_ACCESSES).then_some(accesses)
}

/// The type of the `llvm.alloca` that `pointer` is (through casts).
pub(super) fn slot_type(pointer: Value) -> Option<AbiType> {
    let alloca = crate::kernel::defining_op(slots::root_alloca(pointer)?, LlvmOp::Alloca)?;
    (crate::abi::frame::alloca_count(alloca) == Some(1)).then_some(())?;
    abi_type(crate::ir::Alloca::of(alloca)?.element_type()?).ok()
}

/// A load's or store's options with `alignment`.
pub(super) fn aligned(context: &Context, alignment: u64) -> LoadStoreOptions<'_> {
    let i64_type = IntegerType::new(context, 64).into();
    LoadStoreOptions::new().align(Some(IntegerAttribute::new(i64_type, alignment as i64)))
}

/// Adds `CopyParamLowering`.
///
/// Inline copies load every part first and then store them, so that `llc`
/// keeps the `ld.param.v4` / `st.local.v4` pairs. Into a slot `llc`'s SROA
/// can break up ([`slots::breakable`]) the parts are integers instead, one
/// per field of the slot's type where it has one (`plan_field_copy`; a
/// generic pointer field as a pointer), whatever the size: SROA splits them along the fields the code uses and
/// deletes the rest. Copies that are not inlined (`inline_copy_plan`) were
/// made copy loops before the patterns run ([`super::copy_loop`]); none is
/// left for `llvm.intr.memcpy` but a copy the loop cannot take (shorter
/// than one step yet not inlined), with both alignments.
///
/// A destination in the local space is cast to generic first and addressed
/// from there: `llc` 22's NVPTXLowerAlloca replaces every use of an
/// `addrspace(5)` alloca with a generic cast, which leaves a GEP on it (ours,
/// or the one a memcpy expands into) in the wrong address space, and `llc`
/// aborts ("GEP address space doesn't match type"). Its address-space
/// inference still turns the generic stores into `st.local`.
pub fn populate_copy_param_patterns(
    patterns: &RewritePatternSet,
    context: &Context,
    options: &ConvertPtxccToLlvmOptions,
) {
    let options = *options;
    add_lowering(patterns, context, names::COPY_PARAM, move |emit, op| {
        let src = op.operand_at(0).ok()?;
        let mut dst = op.operand_at(1).ok()?;
        let size = u64::try_from(integer_attribute(op, "size")?).ok()?;
        let alignment = u64::try_from(integer_attribute(op, "alignment")?).ok()?;
        let breakable = slots::breakable(dst);
        let vector_copy = options.vector_copy && !breakable;
        if pointer_address_space(dst.r#type()) != Some(address_space::GENERIC) {
            let generic = pointer_type(emit.context, address_space::GENERIC);
            dst = emit.addrspacecast(dst, generic)?;
        }
        // A slot SROA breaks up gets the integer copy whatever its size: llc
        // expands a memcpy from param space into a byte loop before its SROA
        // runs, which keeps the whole slot in local memory (fuzz seed 600:
        // 408 bytes where llc alone, whose own copy SROA splits, has 120).
        let inline = inline_copy_plan(size, alignment, vector_copy, options.inline_copy_threshold);
        if breakable || inline.is_some() {
            let fields = breakable.then(|| slot_type(dst)).flatten();
            let plan = fields
                .and_then(|ty| plan_field_copy(DataLayout::nvptx64(), &ty, size, alignment))
                .or(inline)
                .unwrap_or_else(|| plan_inline_copy(size, alignment, vector_copy));
            let mut parts = Vec::with_capacity(plan.len());
            for access in &plan {
                let r#type = access.kind.r#type(emit.context);
                let from = emit.byte_offset(src, access.offset)?;
                let options = aligned(emit.context, access.align);
                parts.push(emit.emit(llvm::load(emit.context, from, r#type, emit.location, options))?);
            }
            for (access, value) in plan.iter().zip(parts) {
                let to = emit.byte_offset(dst, access.offset)?;
                let options = aligned(emit.context, access.align);
                emit.emit(llvm::store(emit.context, value, to, emit.location, options));
            }
            return Some(vec![]);
        }
        let i64_type = IntegerType::new(emit.context, 64).into();
        let length = emit.emit(
            OperationBuilder::new(LlvmOp::Constant.name(), emit.location)
                .add_attributes(&[(
                    Identifier::new(emit.context, "value"),
                    IntegerAttribute::new(i64_type, size as i64).into(),
                )])
                .add_results(&[i64_type])
                .build()
                .ok()?,
        )?;
        let align =
            [(Identifier::new(emit.context, "llvm.align"), IntegerAttribute::new(i64_type, alignment as i64).into())];
        let arg_attrs = ArrayAttribute::new(
            emit.context,
            &[dictionary(emit.context, &align), dictionary(emit.context, &align), dictionary(emit.context, &[])],
        );
        emit.emit(
            OperationBuilder::new(LlvmOp::Memcpy.name(), emit.location)
                .add_operands(&[dst, src, length])
                .add_attributes(&[
                    (Identifier::new(emit.context, "isVolatile"), BoolAttribute::new(emit.context, false).into()),
                    (Identifier::new(emit.context, "arg_attrs"), arg_attrs.into()),
                ])
                .build()
                .ok()?,
        );
        Some(vec![])
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;
    use AccessKind::*;

    fn kinds(plan: &[Access]) -> Vec<(u64, AccessKind)> {
        plan.iter().map(|a| (a.offset, a.kind)).collect()
    }

    #[rstest]
    #[case::v4_exact(32, 16, true, vec![(0, V4I32), (16, V4I32)])]
    #[case::v4_with_tail(28, 16, true, vec![(0, V4I32), (16, I64), (24, I32)])]
    #[case::eight_byte_pieces_are_b64(24, 8, true, vec![(0, I64), (8, I64), (16, I64)])]
    #[case::scalar_i64_without_vectors(32, 16, false, vec![(0, I64), (8, I64), (16, I64), (24, I64)])]
    #[case::align4(12, 4, true, vec![(0, I32), (4, I32), (8, I32)])]
    #[case::align1(3, 1, true, vec![(0, I8), (1, I8), (2, I8)])]
    #[case::odd_tail(7, 8, true, vec![(0, I32), (4, I16), (6, I8)])]
    #[case::overaligned(16, 64, true, vec![(0, V4I32)])]
    fn plans_copies(
        #[case] size: u64,
        #[case] alignment: u64,
        #[case] vector: bool,
        #[case] expected: Vec<(u64, AccessKind)>,
    ) {
        assert_eq!(kinds(&plan_inline_copy(size, alignment, vector)), expected);
    }

    #[rstest]
    #[case(1)]
    #[case(17)]
    #[case(255)]
    #[case(4096)]
    fn covers_every_byte_once_aligned(#[case] size: u64) {
        for alignment in [1, 2, 4, 8, 16] {
            let plan = plan_inline_copy(size, alignment, true);
            let mut next = 0;
            for access in &plan {
                assert_eq!(access.offset, next);
                assert_eq!(access.offset % access.kind.bytes(), 0);
                assert_eq!(access.align, access.kind.bytes());
                assert!(access.kind.bytes() <= alignment.max(1));
                next += access.kind.bytes();
            }
            assert_eq!(next, size);
        }
    }

    /// (offset, kind, align) of a field copy of the type `text`.
    fn field_plan(text: &str, alignment: u64) -> Option<Vec<(u64, AccessKind, u64)>> {
        let context = crate::abi::tests::llvm_context();
        let ty = melior::ir::Type::parse(&context, text).expect("type parses");
        let ty = abi_type(ty).expect("has an ABI");
        let layout = DataLayout::default();
        plan_field_copy(&layout, &ty, layout.alloc_size(&ty), alignment)
            .map(|plan| plan.iter().map(|a| (a.offset, a.kind, a.align)).collect())
    }

    #[rstest]
    #[case::padding_between("!llvm.struct<(i32, f64)>", 8, vec![(0, I32, 4), (4, I32, 4), (8, I64, 8)])]
    #[case::packed_underaligned("!llvm.struct<packed (i8, i32)>", 1, vec![(0, I8, 1), (1, I32, 1)])]
    #[case::wide_field("!llvm.struct<(i16, i128)>", 16, vec![(0, I16, 2), (2, I16, 2), (4, I32, 4), (8, I64, 8), (16, I128, 16)])]
    #[case::odd_sized_leaf(
        "!llvm.struct<(vector<3xi8>, i8)>",
        4,
        vec![(0, I16, 2), (2, I8, 1), (3, I8, 1), (4, I8, 1), (5, I8, 1), (6, I16, 2)]
    )]
    #[case::tail_padding("!llvm.struct<(f64, i8)>", 8, vec![(0, I64, 8), (8, I8, 1), (9, I8, 1), (10, I16, 2), (12, I32, 4)])]
    #[case::pointers("!llvm.struct<(ptr, ptr<1>, i32)>", 8, vec![(0, Ptr, 8), (8, I64, 8), (16, I32, 4), (20, I32, 4)])]
    #[case::array_of_pairs("!llvm.array<2 x struct<(i8, i16)>>", 2, vec![(0, I8, 1), (1, I8, 1), (2, I16, 2), (4, I8, 1), (5, I8, 1), (6, I16, 2)])]
    fn copies_field_by_field(#[case] ty: &str, #[case] alignment: u64, #[case] expected: Vec<(u64, AccessKind, u64)>) {
        assert_eq!(field_plan(ty, alignment), Some(expected));
    }

    /// Every byte is copied once (a union can keep data where its LLVM type
    /// has padding), each access claiming no more alignment than its offset
    /// and the copy's alignment give.
    #[rstest]
    #[case("!llvm.struct<(i8, struct<(f32, i1)>, array<3 x i16>, f64)>")]
    #[case("!llvm.struct<packed (i8, f64, vector<2xf16>, i1)>")]
    #[case("!llvm.struct<(ptr, ptr<3>, i128, bf16)>")]
    #[case("!llvm.array<5 x struct<(i8, f32)>>")]
    fn field_copies_cover_every_byte_once(#[case] ty: &str) {
        for alignment in [1, 4, 16] {
            let plan = field_plan(ty, alignment).expect("a field plan");
            let mut next = 0;
            for (offset, kind, align) in plan {
                assert_eq!(offset, next, "{ty}");
                assert!(align <= alignment.max(1) && offset % align == 0, "{ty}: {offset} {align}");
                next += kind.bytes();
            }
            let context = crate::abi::tests::llvm_context();
            let size =
                DataLayout::default().alloc_size(&abi_type(melior::ir::Type::parse(&context, ty).unwrap()).unwrap());
            assert_eq!(next, size, "{ty}");
        }
    }
}
