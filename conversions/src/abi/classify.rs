//! Argument classification (seed 000): how a device-function argument or
//! result crosses a call.
//!
//! | class | what | when |
//! |---|---|---|
//! | `Scalar` | passed as is | integers, floats, pointers |
//! | `Vector` | passed as is | vectors of at most `vector-threshold` elements |
//! | `Flatten` | one parameter per leaf | aggregates of at most `flatten-threshold` bytes whose leaves are scalars or small vectors |
//! | `Byval` | `byval` pointer | other aggregates and long vectors (arguments) |
//! | `Indirect` | leading `sret` pointer | results above `sret-threshold` bytes |
//! | `Direct` | one `.param` array | small results that cannot be flattened (what llc does with any aggregate) |
//!
//! Seed 000 flattens nested aggregates only one level deep and arrays only
//! of scalars; ptxcc flattens any depth, since the leaves are what crosses
//! the call either way. `Direct` is ptxcc's: the seed has no class for a
//! 12-byte struct holding `<8 x i8>`.

use std::fmt;

use super::{AbiType, DataLayout};

/// How a value crosses a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgClass {
    /// An integer, float or pointer, passed as is.
    Scalar,
    /// A vector of at most `vector-threshold` elements, passed as is.
    Vector,
    /// A small aggregate passed as one parameter per leaf.
    Flatten,
    /// An aggregate (or long vector) passed as a `byval` pointer.
    Byval,
    /// A result returned through a leading `sret` pointer.
    Indirect,
    /// A small result returned whole in one `.param` array.
    Direct,
}

impl fmt::Display for ArgClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ArgClass::Scalar => "scalar",
            ArgClass::Vector => "vector",
            ArgClass::Flatten => "flatten",
            ArgClass::Byval => "byval",
            ArgClass::Indirect => "indirect",
            ArgClass::Direct => "direct",
        })
    }
}

/// The thresholds of seed 000 and 001 (pass options of `lower-struct-args`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// Largest aggregate, in bytes, that is flattened (`flatten-threshold`).
    pub flatten: u64,
    /// Most vector elements passed as a vector (`vector-threshold`).
    pub vector: u64,
    /// Results above this many bytes are returned through `sret`
    /// (`sret-threshold`).
    pub sret: u64,
    /// Largest byval argument in bytes (`max-byval-size`).
    pub max_byval: u64,
    /// Flatten within `flatten` bytes even where it takes more `.param`
    /// accesses than the aggregate's parts (`flatten-always`, seed 000's
    /// rule); the ABI model's classification itself does not depend on it.
    pub flatten_always: bool,
}

impl Default for Thresholds {
    /// The seeds' defaults: 32, 4, 16 and 4096.
    fn default() -> Self {
        Thresholds { flatten: 32, vector: 4, sret: 16, max_byval: 4096, flatten_always: false }
    }
}

/// One leaf of a flattened aggregate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// Byte offset in the aggregate.
    pub offset: u64,
    /// The leaf's type (a scalar or a vector).
    pub ty: AbiType,
    /// Indices that reach it (`extractvalue` positions).
    pub path: Vec<u64>,
}

/// The classification of one argument or result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classification {
    /// How it crosses the call.
    pub class: ArgClass,
    /// Alloc size in bytes.
    pub size: u64,
    /// ABI alignment in bytes.
    pub align: u64,
    /// The leaves, in order (for `Flatten`; for other aggregates too, as
    /// information, up to [`MAX_LISTED_LEAVES`]).
    pub leaves: Vec<Leaf>,
    /// A `Byval` above `max-byval-size` ("huge 'byval' arguments are
    /// unsupported").
    pub too_large: bool,
}

/// The scalar and vector leaves of `ty` with their offsets and index paths
/// (the order of `extractvalue`); zero-sized members contribute nothing.
/// `None` above [`MAX_LISTED_LEAVES`]: the list is built by counting first,
/// never by walking the elements of an aggregate of any size (a 64 MB array
/// has 64 million leaves).
pub fn leaves(layout: &DataLayout, ty: &AbiType) -> Option<Vec<Leaf>> {
    if leaf_count(ty) > MAX_LISTED_LEAVES {
        return None;
    }
    fn walk(layout: &DataLayout, ty: &AbiType, offset: u64, path: &mut Vec<u64>, out: &mut Vec<Leaf>) {
        match ty {
            AbiType::Struct(body) => {
                let struct_layout = layout.struct_layout(body);
                for (i, field) in body.fields.iter().enumerate() {
                    path.push(i as u64);
                    walk(layout, field, offset.saturating_add(struct_layout.offsets[i]), path, out);
                    path.pop();
                }
            }
            AbiType::Array(elem, count) => {
                if leaf_count(elem) == 0 {
                    return;
                }
                let stride = layout.alloc_size(elem);
                for i in 0..*count {
                    path.push(i);
                    walk(layout, elem, offset.saturating_add(i.saturating_mul(stride)), path, out);
                    path.pop();
                }
            }
            _ => out.push(Leaf { offset, ty: ty.clone(), path: path.clone() }),
        }
    }
    let mut out = Vec::new();
    walk(layout, ty, 0, &mut Vec::new(), &mut out);
    Some(out)
}

/// How many leaves [`leaves`] would return, without building them.
pub fn leaf_count(ty: &AbiType) -> u64 {
    match ty {
        AbiType::Struct(body) => body.fields.iter().map(leaf_count).fold(0u64, u64::saturating_add),
        AbiType::Array(elem, count) => leaf_count(elem).saturating_mul(*count),
        _ => 1,
    }
}

/// Aggregates with more leaves than this get no leaf list (they are far
/// above any flatten threshold).
pub const MAX_LISTED_LEAVES: u64 = 4096;

fn flattenable(leaves: &[Leaf], thresholds: &Thresholds) -> bool {
    // Leaves are scalars or vectors; only long vectors prevent flattening.
    leaves.iter().all(|leaf| match &leaf.ty {
        AbiType::Vector(_, count) => *count <= thresholds.vector,
        _ => true,
    })
}

/// Classifies an argument of a device function.
pub fn classify_argument(layout: &DataLayout, ty: &AbiType, thresholds: &Thresholds) -> Classification {
    let size = layout.alloc_size(ty);
    let align = layout.abi_align(ty);
    let listed_leaves = ty.is_aggregate().then(|| leaves(layout, ty)).flatten();
    let listed = listed_leaves.is_some();
    let leaves = listed_leaves.unwrap_or_default();
    let class = match ty {
        AbiType::Vector(_, count) if *count <= thresholds.vector => ArgClass::Vector,
        AbiType::Vector(..) => ArgClass::Byval,
        _ if ty.is_aggregate() => {
            if listed && size <= thresholds.flatten && flattenable(&leaves, thresholds) {
                ArgClass::Flatten
            } else {
                ArgClass::Byval
            }
        }
        _ => ArgClass::Scalar,
    };
    let too_large = class == ArgClass::Byval && size > thresholds.max_byval;
    Classification { class, size, align, leaves, too_large }
}

/// Classifies the result of a device function.
pub fn classify_result(layout: &DataLayout, ty: &AbiType, thresholds: &Thresholds) -> Classification {
    let mut classification = classify_argument(layout, ty, thresholds);
    classification.too_large = false;
    if classification.class == ArgClass::Scalar || classification.class == ArgClass::Vector {
        return classification;
    }
    if classification.size > thresholds.sret {
        classification.class = ArgClass::Indirect;
    } else if classification.class != ArgClass::Flatten {
        classification.class = ArgClass::Direct;
    }
    classification
}
