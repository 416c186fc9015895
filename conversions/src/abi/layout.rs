//! The NVPTX data layout: size, alignment and field offsets of LLVM types.
//!
//! [`DataLayout`] parses an LLVM data-layout string and answers the same
//! questions LLVM's `DataLayout` answers, with LLVM's defaults and fallback
//! rules (an integer width without an entry takes the next larger entry, a
//! vector width without one takes its natural alignment, and so on). The
//! default is the layout LLVM 22 gives `nvptx64-nvidia-cuda`:
//! [`NVPTX64_LAYOUT`]. MLIR's own `DataLayout` is not used: its importer does
//! not understand the `v16:16`/`v32:32` entries.

use std::fmt;

use super::AbiError;

/// The data layout LLVM 22 uses for `nvptx64-nvidia-cuda` (what clang writes
/// and what `llc` assumes when a module names none).
pub const NVPTX64_LAYOUT: &str = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64";

/// A floating-point type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    /// `half` (MLIR `f16`).
    Half,
    /// `bfloat` (MLIR `bf16`).
    BFloat,
    /// `float` (MLIR `f32`).
    Float,
    /// `double` (MLIR `f64`).
    Double,
    /// `x86_fp80` (MLIR `f80`).
    X86Fp80,
    /// `fp128` (MLIR `f128`).
    Fp128,
}

impl FloatKind {
    /// Width in bits.
    pub fn bits(self) -> u64 {
        match self {
            FloatKind::Half | FloatKind::BFloat => 16,
            FloatKind::Float => 32,
            FloatKind::Double => 64,
            FloatKind::X86Fp80 => 80,
            FloatKind::Fp128 => 128,
        }
    }
}

/// An LLVM type as the ABI sees it: everything that has a size.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AbiType {
    /// `iN`.
    Int(u32),
    /// A floating-point type.
    Float(FloatKind),
    /// `ptr addrspace(N)`.
    Ptr(u32),
    /// `<N x T>` (fixed length).
    Vector(Box<AbiType>, u64),
    /// `[N x T]`.
    Array(Box<AbiType>, u64),
    /// A literal or identified struct.
    Struct(StructType),
}

/// The body of a struct type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructType {
    /// The identifier of an identified struct (`%struct.S`), `None` for a
    /// literal one.
    pub name: Option<String>,
    /// Field types, in order.
    pub fields: Vec<AbiType>,
    /// `<{ ... }>`: no padding, alignment 1.
    pub packed: bool,
}

impl AbiType {
    /// `[count x elem]`.
    pub fn array(elem: AbiType, count: u64) -> Self {
        AbiType::Array(Box::new(elem), count)
    }

    /// `<count x elem>`.
    pub fn vector(elem: AbiType, count: u64) -> Self {
        AbiType::Vector(Box::new(elem), count)
    }

    /// Whether this is a struct or an array.
    pub fn is_aggregate(&self) -> bool {
        matches!(self, AbiType::Struct(_) | AbiType::Array(..))
    }
}

/// Prints the type in LLVM IR syntax (`{ double, i8, [4 x i32] }`).
impl fmt::Display for AbiType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AbiType::Int(bits) => write!(f, "i{bits}"),
            AbiType::Float(kind) => f.write_str(match kind {
                FloatKind::Half => "half",
                FloatKind::BFloat => "bfloat",
                FloatKind::Float => "float",
                FloatKind::Double => "double",
                FloatKind::X86Fp80 => "x86_fp80",
                FloatKind::Fp128 => "fp128",
            }),
            AbiType::Ptr(0) => f.write_str("ptr"),
            AbiType::Ptr(space) => write!(f, "ptr addrspace({space})"),
            AbiType::Vector(elem, count) => write!(f, "<{count} x {elem}>"),
            AbiType::Array(elem, count) => write!(f, "[{count} x {elem}]"),
            AbiType::Struct(StructType { name: Some(name), .. }) => write!(f, "%{name}"),
            AbiType::Struct(StructType { fields, packed, .. }) => {
                let (open, close) = if *packed { ("<{", "}>") } else { ("{", "}") };
                if fields.is_empty() {
                    return write!(f, "{open}{close}");
                }
                write!(f, "{open} ")?;
                for (i, field) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{field}")?;
                }
                write!(f, " {close}")
            }
        }
    }
}

/// ABI and preferred alignment (bytes) of one width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AlignSpec {
    bits: u64,
    abi: u64,
    pref: u64,
}

/// Size and alignment of pointers in one address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PointerSpec {
    space: u32,
    bits: u64,
    abi: u64,
    pref: u64,
}

/// An LLVM data layout: the answers to "how big" and "how aligned".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataLayout {
    ints: Vec<AlignSpec>,
    floats: Vec<AlignSpec>,
    vectors: Vec<AlignSpec>,
    pointers: Vec<PointerSpec>,
    aggregate_abi: u64,
    aggregate_pref: u64,
}

impl DataLayout {
    /// The NVPTX64 layout of LLVM 22 ([`NVPTX64_LAYOUT`]), parsed once: for
    /// the per-op queries of the passes (parsing it costs more than most
    /// of what it answers).
    pub fn nvptx64() -> &'static DataLayout {
        static LAYOUT: std::sync::OnceLock<DataLayout> = std::sync::OnceLock::new();
        LAYOUT.get_or_init(DataLayout::default)
    }
}

impl Default for DataLayout {
    /// The NVPTX64 layout of LLVM 22 ([`NVPTX64_LAYOUT`]).
    fn default() -> Self {
        DataLayout::parse(NVPTX64_LAYOUT).expect("the built-in layout parses")
    }
}

/// `value` rounded up to a multiple of `align`, saturating instead of
/// overflowing (sizes of absurd types stay absurd, not a panic).
/// The alignment known for memory aligned to `align` advanced by `offset`
/// bytes: the largest power of two dividing both (LLVM's
/// `commonAlignment`; an `align` of 0 counts as 1).
pub fn common_alignment(align: u64, offset: i64) -> u64 {
    let align = align.max(1);
    if offset == 0 {
        align
    } else {
        align.min(1 << offset.unsigned_abs().trailing_zeros())
    }
}

/// `value` rounded up to a multiple of `align` (saturating).
pub fn align_to(value: u64, align: u64) -> u64 {
    value.checked_next_multiple_of(align.max(1)).unwrap_or(u64::MAX)
}

fn spec(bits: u64, abi: u64, pref: u64) -> AlignSpec {
    AlignSpec { bits, abi, pref }
}

/// Inserts or replaces the entry for `new.bits`, keeping the list sorted.
fn set_spec(specs: &mut Vec<AlignSpec>, new: AlignSpec) {
    match specs.binary_search_by_key(&new.bits, |s| s.bits) {
        Ok(i) => specs[i] = new,
        Err(i) => specs.insert(i, new),
    }
}

impl DataLayout {
    /// LLVM's defaults, before any layout string is applied.
    fn llvm_defaults() -> Self {
        DataLayout {
            ints: vec![spec(1, 1, 1), spec(8, 1, 1), spec(16, 2, 2), spec(32, 4, 4), spec(64, 4, 8)],
            floats: vec![spec(16, 2, 2), spec(32, 4, 4), spec(64, 8, 8), spec(128, 16, 16)],
            vectors: vec![spec(64, 8, 8), spec(128, 16, 16)],
            pointers: vec![PointerSpec { space: 0, bits: 64, abi: 8, pref: 8 }],
            aggregate_abi: 1,
            aggregate_pref: 8,
        }
    }

    /// Parses an LLVM data-layout string (`e-i64:64-...`) on top of LLVM's
    /// defaults. Entries that do not affect sizes or alignments (`e`, `n`,
    /// `S`, `m`, `A`, `P`, `G`, `F`, `ni`) are accepted and ignored.
    pub fn parse(text: &str) -> Result<Self, AbiError> {
        let mut layout = Self::llvm_defaults();
        let invalid = |why: &str| AbiError::DataLayout { layout: text.to_string(), reason: why.to_string() };
        for item in text.split('-').filter(|item| !item.is_empty()) {
            let (head, rest) = item.split_once(':').unwrap_or((item, ""));
            let numbers = |rest: &str| -> Result<Vec<u64>, AbiError> {
                rest.split(':')
                    .filter(|n| !n.is_empty())
                    .map(|n| n.parse::<u64>().map_err(|_| invalid(&format!("'{item}' holds a non-number"))))
                    .collect()
            };
            let bytes = |bits: u64| -> Result<u64, AbiError> {
                if !bits.is_multiple_of(8) || (bits != 0 && !(bits / 8).is_power_of_two()) {
                    return Err(invalid(&format!("alignment {bits} in '{item}' is not a power-of-two byte count")));
                }
                Ok((bits / 8).max(1))
            };
            let kind = head.chars().next().unwrap_or(' ');
            match kind {
                'i' | 'f' | 'v' => {
                    let bits: u64 = head[1..].parse().map_err(|_| invalid(&format!("'{item}' has no bit width")))?;
                    let values = numbers(rest)?;
                    let abi = bytes(*values.first().ok_or_else(|| invalid(&format!("'{item}' has no alignment")))?)?;
                    let pref = match values.get(1) {
                        Some(&pref) => bytes(pref)?,
                        None => abi,
                    };
                    let list = match kind {
                        'i' => &mut layout.ints,
                        'f' => &mut layout.floats,
                        _ => &mut layout.vectors,
                    };
                    set_spec(list, spec(bits, abi, pref));
                }
                'p' => {
                    let space: u32 = if head.len() > 1 {
                        head[1..].parse().map_err(|_| invalid(&format!("'{item}' has a bad address space")))?
                    } else {
                        0
                    };
                    let values = numbers(rest)?;
                    let [size, abi, ..] = values[..] else {
                        return Err(invalid(&format!("'{item}' needs a size and an alignment")));
                    };
                    let abi = bytes(abi)?;
                    let pref = match values.get(2) {
                        Some(&pref) => bytes(pref)?,
                        None => abi,
                    };
                    let new = PointerSpec { space, bits: size, abi, pref };
                    match layout.pointers.iter_mut().find(|p| p.space == space) {
                        Some(existing) => *existing = new,
                        None => layout.pointers.push(new),
                    }
                }
                'a' => {
                    let values = numbers(rest)?;
                    layout.aggregate_abi = bytes(*values.first().unwrap_or(&0))?;
                    if let Some(&pref) = values.get(1) {
                        layout.aggregate_pref = bytes(pref)?;
                    }
                }
                'e' | 'E' | 'n' | 'S' | 'm' | 'A' | 'P' | 'G' | 'F' => {}
                _ if head == "ni" => {}
                _ => return Err(invalid(&format!("unknown entry '{item}'"))),
            }
        }
        Ok(layout)
    }

    fn pointer(&self, space: u32) -> PointerSpec {
        self.pointers
            .iter()
            .find(|p| p.space == space)
            .or_else(|| self.pointers.iter().find(|p| p.space == 0))
            .copied()
            .unwrap_or(PointerSpec { space: 0, bits: 64, abi: 8, pref: 8 })
    }

    /// Size of a pointer in address space `space`, in bits.
    pub fn pointer_bits(&self, space: u32) -> u64 {
        self.pointer(space).bits
    }

    /// `getTypeSizeInBits`: the exact width (an `i1` is 1 bit, `<4 x i1>` 4).
    pub fn size_in_bits(&self, ty: &AbiType) -> u64 {
        match ty {
            AbiType::Int(bits) => u64::from(*bits),
            AbiType::Float(kind) => kind.bits(),
            AbiType::Ptr(space) => self.pointer_bits(*space),
            AbiType::Vector(elem, count) => self.size_in_bits(elem).saturating_mul(*count),
            AbiType::Array(..) | AbiType::Struct(_) => self.alloc_size(ty).saturating_mul(8),
        }
    }

    /// Whether every bit of every byte a store of `ty` writes is a bit of
    /// the value: not an `i1`, an `i12`, a `<4 x i1>`, nor an aggregate
    /// holding one (those leave bits that a load of the type does not
    /// read, and that SROA and a by-value copy drop).
    pub fn fills_its_bytes(&self, ty: &AbiType) -> bool {
        match ty {
            AbiType::Array(element, _) => self.fills_its_bytes(element),
            AbiType::Struct(body) => body.fields.iter().all(|field| self.fills_its_bytes(field)),
            _ => self.size_in_bits(ty) == self.store_size(ty) * 8,
        }
    }

    /// `getTypeStoreSize`: bytes written by a store of the type.
    pub fn store_size(&self, ty: &AbiType) -> u64 {
        match ty {
            AbiType::Array(..) | AbiType::Struct(_) => self.alloc_size(ty),
            _ => self.size_in_bits(ty).div_ceil(8),
        }
    }

    /// `getTypeAllocSize`: the distance between two elements of an array of
    /// the type (store size rounded up to the ABI alignment).
    pub fn alloc_size(&self, ty: &AbiType) -> u64 {
        self.size_and_align(ty).0
    }

    /// ABI alignment in bytes.
    pub fn abi_align(&self, ty: &AbiType) -> u64 {
        match ty {
            AbiType::Array(..) | AbiType::Struct(_) => self.size_and_align(ty).1,
            _ => self.alignment(ty, true),
        }
    }

    /// Alloc size and ABI alignment together, visiting each nested struct
    /// once (asking for them separately would be exponential in the
    /// nesting depth).
    fn size_and_align(&self, ty: &AbiType) -> (u64, u64) {
        match ty {
            AbiType::Array(elem, count) => {
                let (size, align) = self.size_and_align(elem);
                (size.saturating_mul(*count), align)
            }
            AbiType::Struct(body) => {
                let layout = self.struct_layout(body);
                let align = if body.packed { 1 } else { self.aggregate_abi.max(layout.align) };
                (align_to(layout.size, align), align)
            }
            _ => {
                let align = self.alignment(ty, true);
                (align_to(self.store_size(ty), align), align)
            }
        }
    }

    /// Preferred alignment in bytes (what a global without `align` gets).
    pub fn pref_align(&self, ty: &AbiType) -> u64 {
        self.alignment(ty, false)
    }

    fn alignment(&self, ty: &AbiType, abi: bool) -> u64 {
        let pick = |s: &AlignSpec| if abi { s.abi } else { s.pref };
        match ty {
            AbiType::Int(bits) => {
                // Exact or next larger entry; above the largest, the largest.
                let bits = u64::from(*bits);
                let entry = self.ints.iter().find(|s| s.bits >= bits).or(self.ints.last());
                entry.map(pick).unwrap_or(1)
            }
            AbiType::Float(kind) => match self.floats.iter().find(|s| s.bits == kind.bits()) {
                Some(entry) => pick(entry),
                None => self.store_size(ty).max(1).checked_next_power_of_two().unwrap_or(1 << 63),
            },
            AbiType::Ptr(space) => {
                let pointer = self.pointer(*space);
                if abi {
                    pointer.abi
                } else {
                    pointer.pref
                }
            }
            AbiType::Vector(..) => {
                let bits = self.size_in_bits(ty);
                match self.vectors.iter().find(|s| s.bits == bits) {
                    Some(entry) => pick(entry),
                    // Natural alignment: the store size rounded up to a power of two.
                    None => self.store_size(ty).max(1).checked_next_power_of_two().unwrap_or(1 << 63),
                }
            }
            AbiType::Array(elem, _) => self.alignment(elem, abi),
            AbiType::Struct(_) if abi => self.size_and_align(ty).1,
            AbiType::Struct(body) => self.aggregate_pref.max(self.struct_layout(body).align),
        }
    }

    /// Field offsets, size and alignment of a struct body.
    pub fn struct_layout(&self, body: &StructType) -> StructLayout {
        let mut offsets = Vec::with_capacity(body.fields.len());
        let mut size = 0u64;
        let mut align = 1u64;
        for field in &body.fields {
            let (field_size, field_abi) = self.size_and_align(field);
            let field_align = if body.packed { 1 } else { field_abi };
            size = align_to(size, field_align);
            align = align.max(field_align);
            offsets.push(size);
            size = size.saturating_add(field_size);
        }
        StructLayout { offsets, size: align_to(size, align), align }
    }

    /// Byte offset of a `getelementptr` over `source` with constant
    /// `indices`, as LLVM computes it: the first index steps over whole
    /// `source` values, each further index selects a struct field or an
    /// array/vector element (any depth). This is seed 002's
    /// `composite_offset` when the first index is 0.
    pub fn gep_offset(&self, source: &AbiType, indices: &[i64]) -> Result<i64, AbiError> {
        let Some((&first, rest)) = indices.split_first() else { return Ok(0) };
        // GEP arithmetic wraps at the 64-bit index width, as in LLVM; a
        // type whose size does not even fit has no meaningful offset.
        let stride = |ty: &AbiType, size: u64| {
            i64::try_from(size).map_err(|_| AbiError::Unsupported {
                ty: ty.to_string(),
                reason: "its size does not fit a 64-bit GEP index".into(),
            })
        };
        let mut offset = first.wrapping_mul(stride(source, self.alloc_size(source))?);
        let mut current = source;
        for &index in rest {
            match current {
                AbiType::Struct(body) => {
                    let field = usize::try_from(index)
                        .ok()
                        .filter(|&i| i < body.fields.len())
                        .ok_or_else(|| AbiError::FieldIndex { index, ty: current.to_string() })?;
                    offset = offset.wrapping_add(stride(current, self.struct_layout(body).offsets[field])?);
                    current = &body.fields[field];
                }
                AbiType::Array(elem, _) => {
                    offset = offset.wrapping_add(index.wrapping_mul(stride(elem, self.alloc_size(elem))?));
                    current = elem;
                }
                // Vector elements are packed: the stride is the store size,
                // and only byte-sized elements can be addressed.
                AbiType::Vector(elem, _) if self.size_in_bits(elem).is_multiple_of(8) => {
                    offset = offset.wrapping_add(index.wrapping_mul(stride(elem, self.store_size(elem))?));
                    current = elem;
                }
                _ => return Err(AbiError::NotIndexable { ty: current.to_string() }),
            }
        }
        Ok(offset)
    }
}

/// Where each field of a struct lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructLayout {
    /// Byte offset of each field.
    pub offsets: Vec<u64>,
    /// Alloc size, tail padding included.
    pub size: u64,
    /// Alignment of the body (1 for a packed struct).
    pub align: u64,
}
