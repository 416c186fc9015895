//! Tables for the data layout and the classification. Expected values are
//! worked out by hand from LLVM's rules (and agree with `llc`, which the
//! oracle test checks independently).

use melior::{
    dialect::{DialectHandle, DialectRegistry},
    ir::Type,
    Context,
};
use rstest::rstest;

use super::*;

/// A context with the LLVM dialect (enough to parse LLVM-dialect types).
pub(crate) fn llvm_context() -> Context {
    let context = Context::new();
    let registry = DialectRegistry::new();
    DialectHandle::llvm().insert_dialect(&registry);
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context
}

/// The ABI type of MLIR type text.
pub(super) fn parse(context: &Context, text: &str) -> AbiType {
    let r#type = Type::parse(context, text).unwrap_or_else(|| panic!("type '{text}' parses"));
    mlir::abi_type(r#type).unwrap_or_else(|e| panic!("type '{text}': {e}"))
}

#[rstest]
// integers: width -> next larger entry (i8 i16 i32 i64 i128 i256), above i256 the largest
#[case("i1", 1, 1, 1, 1)]
#[case("i7", 1, 1, 1, 1)]
#[case("i8", 1, 1, 1, 1)]
#[case("i9", 2, 2, 2, 2)]
#[case("i16", 2, 2, 2, 2)]
#[case("i24", 3, 4, 4, 4)]
#[case("i32", 4, 4, 4, 4)]
#[case("i33", 5, 8, 8, 8)]
#[case("i48", 6, 8, 8, 8)]
#[case("i64", 8, 8, 8, 8)]
#[case("i65", 9, 16, 16, 16)]
#[case("i96", 12, 16, 16, 16)]
#[case("i128", 16, 16, 16, 16)]
#[case("i200", 25, 32, 32, 32)]
#[case("i256", 32, 32, 32, 32)]
#[case("i300", 38, 64, 32, 32)]
// floats; f80 has no entry: store size 10 rounded up to a power of two
#[case("f16", 2, 2, 2, 2)]
#[case("bf16", 2, 2, 2, 2)]
#[case("f32", 4, 4, 4, 4)]
#[case("f64", 8, 8, 8, 8)]
#[case("f80", 10, 16, 16, 16)]
#[case("f128", 16, 16, 16, 16)]
// pointers: 64-bit except address space 6
#[case("!llvm.ptr", 8, 8, 8, 8)]
#[case("!llvm.ptr<1>", 8, 8, 8, 8)]
#[case("!llvm.ptr<3>", 8, 8, 8, 8)]
#[case("!llvm.ptr<5>", 8, 8, 8, 8)]
#[case("!llvm.ptr<6>", 4, 4, 4, 4)]
#[case("!llvm.ptr<7>", 8, 8, 8, 8)]
#[case("!llvm.ptr<101>", 8, 8, 8, 8)]
// vectors: v16/v32/v64/v128 entries, else natural (store size to a power of two)
#[case("vector<2xi1>", 1, 1, 1, 1)]
#[case("vector<16xi1>", 2, 2, 2, 2)]
#[case("vector<17xi1>", 3, 4, 4, 4)]
#[case("vector<2xi8>", 2, 2, 2, 2)]
#[case("vector<3xi8>", 3, 4, 4, 4)]
#[case("vector<5xi8>", 5, 8, 8, 8)]
#[case("vector<2xf16>", 4, 4, 4, 4)]
#[case("vector<3xf16>", 6, 8, 8, 8)]
#[case("vector<6xf16>", 12, 16, 16, 16)]
#[case("vector<3xf32>", 12, 16, 16, 16)]
#[case("vector<4xf32>", 16, 16, 16, 16)]
#[case("vector<5xi32>", 20, 32, 32, 32)]
#[case("vector<32xf64>", 256, 256, 256, 256)]
#[case("vector<3x!llvm.ptr>", 24, 32, 32, 32)]
// arrays: element alignment, N x alloc size
#[case("!llvm.array<3 x i8>", 3, 3, 1, 1)]
#[case("!llvm.array<4 x i24>", 16, 16, 4, 4)]
#[case("!llvm.array<2 x vector<3xi8>>", 8, 8, 4, 4)]
#[case("!llvm.array<0 x i32>", 0, 0, 4, 4)]
// structs: ABI = max field alignment, preferred at least 8; packed: ABI 1
#[case("!llvm.struct<(f64, i8, array<4 x i32>)>", 32, 32, 8, 8)]
#[case("!llvm.struct<(i8, i64)>", 16, 16, 8, 8)]
#[case("!llvm.struct<(i8)>", 1, 1, 1, 8)]
#[case("!llvm.struct<(i8, i16, i32, i64)>", 16, 16, 8, 8)]
#[case("!llvm.struct<(i8, i32, i16, i64)>", 24, 24, 8, 8)]
#[case("!llvm.struct<packed (i8, i32, i16)>", 7, 7, 1, 8)]
#[case("!llvm.struct<packed (i8, struct<(i8, i64)>)>", 17, 17, 1, 8)]
#[case("!llvm.struct<(i128, i8)>", 32, 32, 16, 16)]
#[case("!llvm.struct<(vector<3xf32>, f32)>", 32, 32, 16, 16)]
#[case("!llvm.struct<()>", 0, 0, 1, 8)]
#[case("!llvm.struct<(struct<(i8, i16)>, array<3 x struct<(i32, i8)>>)>", 28, 28, 4, 8)]
#[case("!llvm.array<2 x struct<(f32, i8)>>", 16, 16, 4, 8)]
#[case("!llvm.struct<\"Mat4\", (array<16 x f32>)>", 64, 64, 4, 8)]
#[case("!llvm.struct<(i16, struct<packed (i16, i64, f64)>)>", 20, 20, 2, 8)]
fn data_layout(#[case] text: &str, #[case] store: u64, #[case] alloc: u64, #[case] abi: u64, #[case] pref: u64) {
    let context = llvm_context();
    let ty = parse(&context, text);
    let layout = DataLayout::default();
    assert_eq!(
        (layout.store_size(&ty), layout.alloc_size(&ty), layout.abi_align(&ty), layout.pref_align(&ty)),
        (store, alloc, abi, pref),
        "{text}: (store, alloc, abi, pref)"
    );
}

#[rstest]
#[case("i1", false)]
#[case("i8", true)]
#[case("i12", false)]
#[case("i24", true)]
#[case("i128", true)]
#[case("f16", true)]
#[case("!llvm.ptr<6>", true)]
#[case("vector<4xi1>", false)]
#[case("vector<8xi1>", true)]
#[case("vector<3xi8>", true)]
#[case("!llvm.array<3 x i1>", false)]
#[case("!llvm.array<0 x i1>", false)]
#[case("!llvm.struct<(i32, i8)>", true)]
#[case("!llvm.struct<(i32, struct<(f32, i1)>)>", false)]
#[case("!llvm.struct<()>", true)]
fn fills_its_bytes(#[case] text: &str, #[case] expected: bool) {
    let context = llvm_context();
    assert_eq!(DataLayout::default().fills_its_bytes(&parse(&context, text)), expected, "{text}");
}

#[rstest]
// seed 002's worked example: %S = {f64, i8, [4 x i32]} reads at 0, 8 and 24
#[case("!llvm.struct<(f64, i8, array<4 x i32>)>", &[0, 0], 0)]
#[case("!llvm.struct<(f64, i8, array<4 x i32>)>", &[0, 1], 8)]
#[case("!llvm.struct<(f64, i8, array<4 x i32>)>", &[0, 2, 3], 24)]
#[case("!llvm.struct<(f64, i8, array<4 x i32>)>", &[1, 2, 0], 44)]
#[case("!llvm.struct<packed (i8, i32, i16)>", &[0, 2], 5)]
#[case("!llvm.struct<(struct<(i8, i16)>, array<3 x struct<(i32, i8)>>)>", &[0, 1, 2, 1], 24)]
#[case("!llvm.array<4 x vector<3xf32>>", &[0, 2, 1], 36)]
#[case("i32", &[-2], -8)]
// vector elements step by their store size (i24: 3 bytes), as in LLVM
#[case("!llvm.struct<(i32, vector<2xi24>)>", &[0, 1, 1], 11)]
// GEP arithmetic wraps at 64 bits: 2 * (2^62 + 3) - (2^63 - 1) = 7 (mod 2^64)
#[case("!llvm.array<2 x i8>", &[4611686018427387907, -9223372036854775807], 7)]
fn gep_offsets(#[case] text: &str, #[case] indices: &[i64], #[case] offset: i64) {
    let context = llvm_context();
    let ty = parse(&context, text);
    assert_eq!(DataLayout::default().gep_offset(&ty, indices), Ok(offset));
}

#[test]
fn gep_errors() {
    let context = llvm_context();
    let layout = DataLayout::default();
    let s = parse(&context, "!llvm.struct<(i8, i32)>");
    assert!(matches!(layout.gep_offset(&s, &[0, 2]), Err(AbiError::FieldIndex { index: 2, .. })));
    assert!(matches!(layout.gep_offset(&s, &[0, 1, 0]), Err(AbiError::NotIndexable { .. })));
    // i1 elements of a vector have no byte address.
    let bits = parse(&context, "vector<8xi1>");
    assert!(matches!(layout.gep_offset(&bits, &[0, 3]), Err(AbiError::NotIndexable { .. })));
}

#[rstest]
#[case("e-p:32:32-i64:64", "!llvm.ptr", 4, 4)]
#[case("e-p3:32:32-i64:64", "!llvm.ptr<3>", 4, 4)]
#[case("e-i64:32:64", "i64", 4, 8)]
#[case("e-a:0:32", "!llvm.struct<(i8)>", 1, 4)]
#[case("e-f128:64", "f128", 8, 8)]
#[case("e-v96:32", "vector<3xf32>", 4, 4)]
fn data_layout_strings(#[case] layout: &str, #[case] text: &str, #[case] abi: u64, #[case] pref: u64) {
    let context = llvm_context();
    let ty = parse(&context, text);
    let layout = DataLayout::parse(layout).expect("layout parses");
    assert_eq!((layout.abi_align(&ty), layout.pref_align(&ty)), (abi, pref));
}

#[rstest]
#[case("e-i64:63")]
#[case("e-x:8")]
#[case("e-i:8")]
#[case("e-p:64")]
fn bad_data_layouts(#[case] layout: &str) {
    assert!(matches!(DataLayout::parse(layout), Err(AbiError::DataLayout { .. })));
}

#[rstest]
#[case("i32", ArgClass::Scalar, 0)]
#[case("f16", ArgClass::Scalar, 0)]
#[case("!llvm.ptr<1>", ArgClass::Scalar, 0)]
#[case("vector<4xf32>", ArgClass::Vector, 0)]
#[case("vector<2xi1>", ArgClass::Vector, 0)]
#[case("vector<8xf16>", ArgClass::Byval, 0)]
// seed 000's examples: Vec3 and Complex flatten, Mat4 is byval
#[case("!llvm.struct<(f32, f32, f32)>", ArgClass::Flatten, 3)]
#[case("!llvm.struct<(array<16 x f32>)>", ArgClass::Byval, 16)]
#[case("!llvm.struct<(f64, f64, i32)>", ArgClass::Flatten, 3)]
#[case("!llvm.struct<(f64, i8, array<4 x i32>)>", ArgClass::Flatten, 6)]
#[case("!llvm.struct<(i8, vector<4xi8>)>", ArgClass::Flatten, 2)]
#[case("!llvm.struct<(i8, vector<8xi8>)>", ArgClass::Byval, 2)]
#[case("!llvm.array<4 x struct<(f32, f32)>>", ArgClass::Flatten, 8)]
#[case("!llvm.array<5 x f64>", ArgClass::Byval, 5)]
#[case("!llvm.struct<packed (i8, i32, i16)>", ArgClass::Flatten, 3)]
#[case("!llvm.struct<(array<8 x f32>)>", ArgClass::Flatten, 8)]
#[case("!llvm.struct<(array<9 x f32>)>", ArgClass::Byval, 9)]
fn classification(#[case] text: &str, #[case] class: ArgClass, #[case] leaf_count: usize) {
    let context = llvm_context();
    let ty = parse(&context, text);
    let classified = classify_argument(&DataLayout::default(), &ty, &Thresholds::default());
    assert_eq!((classified.class, classified.leaves.len()), (class, leaf_count), "{text}");
}

#[test]
fn flattened_leaves_have_offsets_and_paths() {
    let context = llvm_context();
    let ty = parse(&context, "!llvm.struct<(f64, i8, array<2 x i32>)>");
    let leaves = classify_argument(&DataLayout::default(), &ty, &Thresholds::default()).leaves;
    let found: Vec<(u64, String, Vec<u64>)> =
        leaves.iter().map(|l| (l.offset, l.ty.to_string(), l.path.clone())).collect();
    assert_eq!(
        found,
        vec![
            (0, "double".to_string(), vec![0]),
            (8, "i8".to_string(), vec![1]),
            (12, "i32".to_string(), vec![2, 0]),
            (16, "i32".to_string(), vec![2, 1]),
        ]
    );
}

#[rstest]
#[case("i8", ArgClass::Scalar)]
#[case("vector<4xf32>", ArgClass::Vector)]
#[case("!llvm.struct<(f32, f32, f32)>", ArgClass::Flatten)]
#[case("!llvm.struct<(f64, f64)>", ArgClass::Flatten)]
#[case("!llvm.struct<(f64, f64, i32)>", ArgClass::Indirect)]
#[case("!llvm.struct<(vector<8xi8>)>", ArgClass::Direct)]
#[case("vector<8xf32>", ArgClass::Indirect)]
fn result_classification(#[case] text: &str, #[case] class: ArgClass) {
    let context = llvm_context();
    let ty = parse(&context, text);
    assert_eq!(classify_result(&DataLayout::default(), &ty, &Thresholds::default()).class, class, "{text}");
}

#[test]
fn thresholds_are_options() {
    let context = llvm_context();
    let layout = DataLayout::default();
    let ty = parse(&context, "!llvm.struct<(f64, f64, i32)>");
    let tight = Thresholds { flatten: 16, ..Thresholds::default() };
    assert_eq!(classify_argument(&layout, &ty, &tight).class, ArgClass::Byval);
    let small = Thresholds { max_byval: 16, ..tight };
    assert!(classify_argument(&layout, &ty, &small).too_large);
    let wide = Thresholds { sret: 32, ..Thresholds::default() };
    assert_eq!(classify_result(&layout, &ty, &wide).class, ArgClass::Flatten);
}

#[rstest]
#[case("sm_90", None, 90, 78, 4096)]
#[case("sm_90", Some(80), 90, 80, 4096)]
#[case("sm_90", Some(81), 90, 81, 32764)]
#[case("sm_90a", None, 90, 80, 4096)]
#[case("sm_70", Some(81), 70, 81, 32764)]
#[case("sm_60", Some(81), 60, 81, 4096)]
#[case("sm_100", None, 100, 86, 32764)]
#[case("sm_100f", None, 100, 88, 32764)]
#[case("sm_52", None, 52, 41, 4096)]
fn targets(#[case] chip: &str, #[case] ptx: Option<u32>, #[case] sm: u32, #[case] version: u32, #[case] limit: u64) {
    let target = Target::new(chip, ptx).expect("known chip");
    assert_eq!((target.sm, target.ptx, target.param_limit()), (sm, version, limit));
}

#[test]
fn target_errors() {
    assert_eq!(
        Target::new("sm_90", Some(70)).unwrap_err().to_string(),
        "PTX 7.0 does not support 'sm_90': it needs PTX 7.8 or later"
    );
    assert!(matches!(Target::new("gfx90a", None), Err(AbiError::UnknownChip(_))));
    let features = ["+ptx81".to_string(), "+sm_90".to_string()];
    let resolved = Target::resolve(None, None, Some("sm_90"), Some(&features)).expect("resolves");
    assert_eq!((resolved.sm, resolved.ptx), (90, 81));
    let fallback = Target::resolve(Some("sm_80"), Some(81), None, None).expect("resolves");
    assert_eq!((fallback.sm, fallback.ptx), (80, 81));
    let neither = Target::resolve(None, None, None, None).expect("resolves");
    assert_eq!((neither.chip.as_str(), neither.ptx), ("sm_90", 78));
}

/// llc compiles for its command line and ignores the functions' target
/// attributes (`.target sm_90` and `cvta.param` for a function that says
/// sm_60 under `llc -mcpu=sm_90`): given options win.
#[test]
fn target_resolution_prefers_the_options_and_knows_real_chips_only() {
    let features = ["+ptx80".to_string()];
    let resolved = Target::resolve(Some("sm_70"), Some(81), Some("sm_60"), Some(&features)).expect("resolves");
    assert_eq!((resolved.chip.as_str(), resolved.ptx), ("sm_70", 81));
    assert!(resolved.has_cvta_param());
    assert_eq!(Target::new("sm_32", None).expect("sm_32").ptx, 40);
    for chip in ["sm_80a", "sm_90f", "sm_86f", "sm_"] {
        assert!(matches!(Target::new(chip, None), Err(AbiError::UnknownChip(_))), "{chip}");
    }
}

/// Inputs that once meant exponential time, endless loops or arithmetic
/// panics: deep nesting, huge arrays of empty structs, `i1` vectors whose
/// parts run past their size, absurd sizes.
#[test]
fn hostile_types_are_answered_quickly() {
    let context = llvm_context();
    let layout = DataLayout::default();
    let target = Target::new("sm_90", Some(80)).expect("a real target");
    let mut deep = "i8".to_string();
    for _ in 0..64 {
        deep = format!("!llvm.struct<({deep}, i16)>");
    }
    let deep = parse(&context, &deep);
    assert_eq!(layout.abi_align(&deep), 2);
    assert_eq!(classify_argument(&layout, &deep, &Thresholds::default()).class, ArgClass::Byval);

    let empty = parse(&context, "!llvm.array<4611686018427387904 x struct<()>>");
    assert_eq!(layout.alloc_size(&empty), 0);
    assert!(classify::leaves(&layout, &empty).expect("listed").is_empty());
    assert!(value_parts(&layout, &empty, &target).expect("parts").is_empty());

    let bits = parse(&context, "!llvm.struct<(vector<3xi1>, i1)>");
    let parts = value_parts(&layout, &bits, &target).expect("parts");
    // Offsets 0, 1, 2, then 1 again: no merge may assume they increase.
    assert_eq!(parts.iter().map(|p| p.offset).collect::<Vec<_>>(), vec![0, 1, 2, 1]);
    assert!(!schedule(&parts, 16, &target).is_empty());

    let absurd = parse(&context, "!llvm.array<4611686018427387904 x array<4611686018427387904 x i64>>");
    assert_eq!(layout.alloc_size(&absurd), u64::MAX);
    assert!(matches!(layout.gep_offset(&absurd, &[1, 1]), Err(AbiError::Unsupported { .. })));
}
