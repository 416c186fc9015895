//! A function's local depot as `llc` lays it out (seed 004's phases 2 and
//! 3): each stack slot at the next offset aligned to its alignment, the
//! depot aligned to its largest slot, which `ptxcc-abi-report` prints; and
//! the alloca queries `lower-alloca` shares.

use crate::ir::LlvmOp;
use melior::ir::{OperationRef, ValueLike};
use ptxcc_dialect::types::pointer_address_space;

use super::{layout::align_to, mlir::abi_type, AbiError, DataLayout};
use crate::ir::{constant_int, nested_ops, OperationExt};

/// One slot of a function's local depot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameSlot {
    /// Byte offset in the depot.
    pub offset: u64,
    /// Bytes it takes (element size times count).
    pub size: u64,
    /// Its alignment.
    pub align: u64,
    /// The slot's address space (5 after `lower-alloca`, 0 before).
    pub space: u32,
    /// Whether the size came from `dynamic-alloca-size` rather than the IR
    /// (the alloca's count is not a constant).
    pub dynamic: bool,
}

/// A function's local depot (seed 004, phases 2 and 3).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameLayout {
    /// Every alloca in order of appearance.
    pub slots: Vec<FrameSlot>,
    /// Total bytes of the depot (`.local .align A .b8 __local_depot[size]`).
    pub size: u64,
    /// The depot's alignment: the largest slot alignment (1 when empty).
    pub align: u64,
}

/// Lays out every alloca of `func` in order: each at the next offset
/// aligned to its alignment (its `alignment` attribute, or the preferred
/// alignment of its element type). A dynamic alloca takes
/// `dynamic_size` bytes.
pub fn frame_layout(func: OperationRef, layout: &DataLayout, dynamic_size: u64) -> Result<FrameLayout, AbiError> {
    let mut frame = FrameLayout { align: 1, ..FrameLayout::default() };
    for alloca in allocas(func) {
        let Some((size, align)) = size_and_align(alloca, layout, dynamic_size)? else { continue };
        let offset = align_to(frame.size, align);
        frame.slots.push(FrameSlot {
            offset,
            size,
            align,
            space: alloca_space(alloca).unwrap_or(0),
            dynamic: alloca_count(alloca).is_none(),
        });
        frame.size = offset.saturating_add(size);
        frame.align = frame.align.max(align);
    }
    Ok(frame)
}

/// The bytes an alloca takes (its element's size times its count, or
/// `dynamic_size` where the count is not a constant) and its alignment (its
/// `alignment` attribute, or the preferred alignment of its element type);
/// `None` for an op that is not an alloca.
pub fn size_and_align(
    alloca: OperationRef,
    layout: &DataLayout,
    dynamic_size: u64,
) -> Result<Option<(u64, u64)>, AbiError> {
    let Some(view) = crate::ir::Alloca::of(alloca) else { return Ok(None) };
    let Some(element) = view.element_type().map(abi_type).transpose()? else { return Ok(None) };
    let size = match alloca_count(alloca) {
        Some(count) => layout.alloc_size(&element).saturating_mul(u64::try_from(count).unwrap_or(0)),
        None => dynamic_size,
    };
    let align = view.alignment().and_then(|a| u64::try_from(a).ok()).filter(|a| *a > 0);
    Ok(Some((size, align.unwrap_or_else(|| layout.pref_align(&element)))))
}

/// The `llvm.alloca` ops of `func`, in order.
pub fn allocas<'c, 'a>(func: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    nested_ops(func).into_iter().filter(|op| LlvmOp::of(*op) == LlvmOp::Alloca).collect()
}

/// The result address space of an alloca.
pub fn alloca_space(alloca: OperationRef) -> Option<u32> {
    pointer_address_space(alloca.result_at(0).ok()?.r#type())
}

/// The constant element count of an alloca (`None` when dynamic).
pub fn alloca_count(alloca: OperationRef) -> Option<i64> {
    constant_int(crate::ir::Alloca::of(alloca)?.count())
}
