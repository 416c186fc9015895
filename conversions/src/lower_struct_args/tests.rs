//! Unit tests of lower-struct-args: the all-or-nothing rule per kernel,
//! the read-only analysis through call cycles, and alignment facts.

use melior::{ir::Module, Context};
use rstest::rstest;

use super::*;
use crate::abi::tests::llvm_context;

fn module<'c>(context: &'c Context, text: &str) -> Module<'c> {
    context.set_allow_unregistered_dialects(true);
    Module::parse(context, text).expect("test module parses")
}

/// The strategy of each byval parameter after `lower-struct-args` with the
/// default options on `text`: (kernel, parameter index, strategy).
fn strategies(text: &str) -> Vec<(String, usize, Strategy)> {
    let context = llvm_context();
    let module = module(&context, text);
    lower_struct_args(module.as_operation(), &LowerStructArgsOptions::default()).expect("lowers")
}

/// The printed `llvm.func @name`.
fn function_text(module: &Module, name: &str) -> String {
    crate::ir::module_functions(module.as_operation())
        .into_iter()
        .find(|f| crate::abi::signature::function_name(*f) == name)
        .map(|f| f.to_string())
        .expect("function exists")
}

#[test]
fn a_kernel_with_a_problem_is_left_unchanged_and_the_others_are_lowered() {
    let context = llvm_context();
    let module = module(
        &context,
        r#"
        llvm.func ptx_kernelcc @bad(%a: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, nvvm.grid_constant},
                                    %b: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %x: i32) attributes {nvvm.kernel} {
          %v = llvm.load %b : !llvm.ptr -> i32
          llvm.store %v, %a : i32, !llvm.ptr
          llvm.return
        }
        llvm.func ptx_kernelcc @good(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
          %v = llvm.load %s : !llvm.ptr -> i32
          llvm.store %v, %out : i32, !llvm.ptr
          llvm.return
        }
        "#,
    );
    let before = function_text(&module, "bad");
    let result = lower_struct_args(module.as_operation(), &LowerStructArgsOptions::default());
    assert_eq!(result, Err(LowerStructArgsError::Kernels { kernels: 1, problems: 1 }));
    assert_eq!(function_text(&module, "bad"), before, "the failing kernel must not be touched");
    let good = function_text(&module, "good");
    assert!(good.contains("ptxcc.load_param"), "{good}");
}

#[test]
fn the_summary_names_each_strategy() {
    let summary = strategies(
        r#"
        llvm.func @reads(%p: !llvm.ptr {llvm.readonly, llvm.nocapture})
        llvm.func ptx_kernelcc @k(%a: !llvm.ptr {llvm.byval = i64}, %b: !llvm.ptr {llvm.byval = i64},
                                  %c: !llvm.ptr {llvm.byval = i64}, %out: !llvm.ptr) {
          %v = llvm.load %a : !llvm.ptr -> i64
          llvm.call @reads(%b) : (!llvm.ptr) -> ()
          llvm.store %v, %c : i64, !llvm.ptr
          llvm.return
        }
        "#,
    );
    let found: Vec<_> = summary.iter().map(|(_, index, strategy)| (*index, *strategy)).collect();
    assert_eq!(found, vec![(0, Strategy::ParamSpace), (1, Strategy::CastOnly), (2, Strategy::Copy)]);
}

/// A cycle of callees: @k1 asks about @f, which calls @g, which calls @f
/// again (assumed read-only while in progress). When @f then turns out to
/// write, @g's answer must not have been kept: @k2, which calls @g, needs a
/// copy too.
#[rstest]
#[case::both_read(false, Strategy::CastOnly)]
#[case::f_writes(true, Strategy::Copy)]
fn call_cycles_are_decided_soundly(#[case] f_writes: bool, #[case] expected: Strategy) {
    // The write goes through a GEP made first, so that the walk (newest use
    // first) reaches the call to @g before it finds the write.
    let write = if f_writes { "llvm.store %n, %q : i32, !llvm.ptr" } else { "" };
    let text = format!(
        r#"
        llvm.func @f(%p: !llvm.ptr, %n: i32) -> i32 {{
          %q = llvm.getelementptr %p[4] : (!llvm.ptr) -> !llvm.ptr, i8
          %v = llvm.load %p : !llvm.ptr -> i32
          %r = llvm.call @g(%p, %n) : (!llvm.ptr, i32) -> i32
          {write}
          llvm.return %r : i32
        }}
        llvm.func @g(%p: !llvm.ptr, %n: i32) -> i32 {{
          %r = llvm.call @f(%p, %n) : (!llvm.ptr, i32) -> i32
          llvm.return %r : i32
        }}
        llvm.func ptx_kernelcc @k1(%s: !llvm.ptr {{llvm.byval = !llvm.struct<(i32, i32)>}}, %n: i32) {{
          %r = llvm.call @f(%s, %n) : (!llvm.ptr, i32) -> i32
          llvm.return
        }}
        llvm.func ptx_kernelcc @k2(%s: !llvm.ptr {{llvm.byval = !llvm.struct<(i32, i32)>}}, %n: i32) {{
          %r = llvm.call @g(%s, %n) : (!llvm.ptr, i32) -> i32
          llvm.return
        }}
        "#
    );
    for (kernel, _, strategy) in strategies(&text) {
        assert_eq!(strategy, expected, "{kernel}");
    }
}

#[rstest]
#[case(8, 0, 8)]
#[case(8, 4, 4)]
#[case(16, 24, 8)]
#[case(16, 32, 16)]
#[case(4, 22, 2)]
#[case(128, -8, 8)]
#[case(0, 0, 1)]
fn alignment_at_an_offset(#[case] base: u64, #[case] offset: i64, #[case] expected: u64) {
    assert_eq!(crate::abi::layout::common_alignment(base, offset), expected);
}

/// `readwrite` is not `read`: the levels are read whole. (With `nocapture`
/// on the parameter; without it memory effects vouch for nothing.)
#[rstest]
#[case("argMem = read, other = none", true)]
#[case("other = read, argMem = readwrite", false)]
#[case("other = readwrite, argMem = read", false)]
#[case("other = none, argMem = none", true)]
#[case("other = none, argMem = write", false)]
fn memory_effects_are_read_exactly(#[case] effects: &str, #[case] reads_only: bool) {
    let text = format!(
        r#"
        llvm.func @f(!llvm.ptr {{llvm.nocapture}}) attributes {{memory_effects = #llvm.memory_effects<{effects}, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none>}}
        llvm.func ptx_kernelcc @k(%s: !llvm.ptr {{llvm.byval = !llvm.struct<(i32, i32)>}}) {{
          llvm.call @f(%s) : (!llvm.ptr) -> ()
          llvm.return
        }}
        "#
    );
    let expected = if reads_only { Strategy::CastOnly } else { Strategy::Copy };
    assert_eq!(strategies(&text)[0].2, expected, "{effects}");
}

/// The device-function plan of `@f(%p: <parameter>)` with the default
/// thresholds on sm_90, as text: "keep", "flatten <form> <leaf types>",
/// "by-value <leaf types>" or "by-value stored".
fn device_plan(parameter: &str) -> String {
    device_plan_of(parameter, "")
}

/// [`device_plan`] of `@f` with `body` before its return.
fn device_plan_of(parameter: &str, body: &str) -> String {
    let context = llvm_context();
    let module = module(&context, &format!("llvm.func internal @f(%p: {parameter}) {{\n{body}\n llvm.return\n}}"));
    let func = crate::ir::module_functions(module.as_operation())[0];
    let layout = crate::abi::DataLayout::default();
    let target = crate::abi::target::Target::new("sm_90", None).unwrap();
    let thresholds = LowerStructArgsOptions::default().thresholds();
    let leaf_types = |leaves: &[device::FlatLeaf]| -> String {
        leaves.iter().map(|l| format!("{}@{}", l.ty, l.offset)).collect::<Vec<_>>().join(" ")
    };
    let policy = device::PlanPolicy {
        layout: &layout,
        thresholds: &thresholds,
        lower_byval: true,
        target: &target,
        flatten_kernels: false,
    };
    match device::plan_parameter(func, 0, &policy, crate::abi::Linkage::Local) {
        device::ParamPlan::Keep => "keep".into(),
        device::ParamPlan::Flatten { form, leaves, .. } => format!("flatten {form:?} {}", leaf_types(&leaves)),
        device::ParamPlan::ByValue { stored: true, .. } => "by-value stored".into(),
        device::ParamPlan::ByValue { leaves, .. } => format!("by-value {}", leaf_types(&leaves)),
    }
}

/// A device function that writes its `byval` copy at constant offsets
/// takes the value into a slot of its own, where the value carries every
/// byte of the memory (no padding, no `i1`), and the writes are plain
/// stores at constant offsets (a copy out of it of constant length too).
#[rstest]
#[case::vec3("!llvm.struct<(f32, f32, f32)>", "llvm.store %x, %p : f32, !llvm.ptr", "by-value stored")]
#[case::copied_out(
    "!llvm.struct<(f32, f32, f32)>",
    "llvm.store %x, %p : f32, !llvm.ptr\n %n = llvm.mlir.constant(12 : i64) : i64\n %g = llvm.mlir.zero : !llvm.ptr\n \"llvm.intr.memcpy\"(%g, %p, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()",
    "by-value stored"
)]
#[case::padding(
    "!llvm.struct<(i8, f32)>",
    "%q = llvm.getelementptr %p[4] : (!llvm.ptr) -> !llvm.ptr, i8\n llvm.store %x, %q : f32, !llvm.ptr",
    "keep"
)]
#[case::i1(
    "!llvm.struct<(i1, i8, i16, f32)>",
    "%q = llvm.getelementptr %p[4] : (!llvm.ptr) -> !llvm.ptr, i8\n llvm.store %x, %q : f32, !llvm.ptr",
    "keep"
)]
#[case::tail_padding("!llvm.struct<(f64, f32)>", "llvm.store %x, %p : f32, !llvm.ptr", "keep")]
#[case::volatile("!llvm.struct<(f32, f32, f32)>", "llvm.store volatile %x, %p : f32, !llvm.ptr", "keep")]
#[case::dynamic_index(
    "!llvm.array<4 x f32>",
    "%i = llvm.mlir.poison : i32\n %q = llvm.getelementptr %p[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x f32>\n llvm.store %x, %q : f32, !llvm.ptr",
    "keep"
)]
#[case::above_64_bytes("!llvm.array<17 x f32>", "llvm.store %x, %p : f32, !llvm.ptr", "keep")]
fn written_device_parameters_take_the_value_into_their_own_slot(
    #[case] aggregate: &str,
    #[case] body: &str,
    #[case] expected: &str,
) {
    let parameter = format!("!llvm.ptr {{llvm.byval = {aggregate}, llvm.align = 4 : i64}}");
    let body = format!("%x = llvm.mlir.constant(1.0 : f32) : f32\n {body}");
    assert_eq!(device_plan_of(&parameter, &body), expected);
}

#[rstest]
#[case::scalar("i32", "keep")]
#[case::pointer("!llvm.ptr", "keep")]
#[case::short_vector("vector<4xf32>", "keep")]
// Three .b32 flattened against .v2 + .b32 in the struct's own .param: the
// value stays, the byval pointer passes the value (where that frees memory).
#[case::vec3_value("!llvm.struct<(f32, f32, f32)>", "keep")]
#[case::vec3_byval("!llvm.ptr {llvm.byval = !llvm.struct<(f32, f32, f32)>}", "by-value f32@0 f32@4 f32@8")]
// One .v4.b32 against four .b32.
#[case::four_i32_value("!llvm.struct<(i32, i32, i32, i32)>", "keep")]
#[case::four_i32_byval(
    "!llvm.ptr {llvm.byval = !llvm.struct<(i32, i32, i32, i32)>}",
    "by-value i32@0 i32@4 i32@8 i32@12"
)]
// Two accesses either way: flattened, as seed 000 says.
#[case::pair_value("!llvm.struct<(i32, f32)>", "flatten Value i32@0 f32@4")]
#[case::pair_byval("!llvm.ptr {llvm.byval = !llvm.struct<(i32, f32)>}", "flatten Byval i32@0 f32@4")]
#[case::padding("!llvm.struct<(i8, f64)>", "flatten Value i8@0 f64@8")]
#[case::padding_in_memory("!llvm.ptr {llvm.byval = !llvm.struct<(i8, f64)>}", "keep")]
#[case::i1_in_memory("!llvm.ptr {llvm.byval = !llvm.struct<(i1, i8)>}", "keep")]
#[case::shared_pointer("!llvm.struct<(ptr<3>, i32)>", "keep")]
#[case::global_pointer("!llvm.struct<(ptr<1>, i32)>", "flatten Value !llvm.ptr<1>@0 i32@8")]
#[case::nested_array(
    "!llvm.struct<(i16, array<2 x struct<(i8, f32)>>)>",
    "flatten Value i16@0 i8@4 f32@8 i8@12 f32@16"
)]
#[case::vector_leaf("!llvm.struct<(vector<2xf32>, i32)>", "flatten Value vector<2xf32>@0 i32@8")]
// Two .v4.b32 against eight .b32.
#[case::exactly_32_bytes("!llvm.array<8 x f32>", "keep")]
#[case::exactly_32_mixed("!llvm.struct<(i32, f32, i64, f64, i8)>", "flatten Value i32@0 f32@4 i64@8 f64@16 i8@24")]
#[case::above_threshold_value("!llvm.array<9 x f32>", "keep")]
#[case::long_vector_leaf("!llvm.struct<(vector<8xi8>)>", "keep")]
// Above flatten-threshold and at most 64 bytes, a byval pointer read leaf by
// leaf passes the value (where a call passes local memory: plan_signature).
#[case::mat4_byval("!llvm.ptr {llvm.byval = !llvm.array<16 x f32>, llvm.align = 4 : i64}", "by-value f32@0 f32@4 f32@8 f32@12 f32@16 f32@20 f32@24 f32@28 f32@32 f32@36 f32@40 f32@44 f32@48 f32@52 f32@56 f32@60")]
#[case::already_aligned("!llvm.ptr {llvm.byval = !llvm.array<16 x f32>, llvm.align = 16 : i64}", "by-value f32@0 f32@4 f32@8 f32@12 f32@16 f32@20 f32@24 f32@28 f32@32 f32@36 f32@40 f32@44 f32@48 f32@52 f32@56 f32@60")]
// Above 64 bytes it stays.
#[case::no_declared_alignment("!llvm.ptr {llvm.byval = !llvm.array<9 x i128>}", "keep")]
#[case::more_than_16("!llvm.ptr {llvm.byval = !llvm.array<2 x i32>, llvm.align = 32 : i64}", "by-value i32@0 i32@4")]
#[case::big_over_aligned("!llvm.ptr {llvm.byval = !llvm.array<16 x i32>, llvm.align = 32 : i64}", "by-value i32@0 i32@4 i32@8 i32@12 i32@16 i32@20 i32@24 i32@28 i32@32 i32@36 i32@40 i32@44 i32@48 i32@52 i32@56 i32@60")]
#[case::above_64_bytes("!llvm.ptr {llvm.byval = !llvm.array<17 x f32>, llvm.align = 4 : i64}", "keep")]
#[case::empty("!llvm.struct<()>", "keep")]
fn device_parameters_are_classified_as_seed_000_says(#[case] parameter: &str, #[case] expected: &str) {
    assert_eq!(device_plan(parameter), expected);
}

/// Whether `@make`'s result becomes `sret` when `@user` has `body` after
/// `%r = llvm.call @make() : () -> !llvm.array<8 x f32>`.
fn becomes_sret(parameters: &str, body: &str) -> bool {
    let context = llvm_context();
    let text = format!(
        r#"
        llvm.func internal @make() -> !llvm.array<8 x f32> {{
          %u = llvm.mlir.poison : !llvm.array<8 x f32>
          llvm.return %u : !llvm.array<8 x f32>
        }}
        llvm.func @user({parameters}) {{
          %r = llvm.call @make() : () -> !llvm.array<8 x f32>
          {body}
          llvm.return
        }}
        "#
    );
    let module = module(&context, &text);
    lower_struct_args(module.as_operation(), &LowerStructArgsOptions::default()).expect("lowers");
    function_text(&module, "make").contains("llvm.sret")
}

#[rstest]
#[case::whole_store("%out: !llvm.ptr", "llvm.store %r, %out : !llvm.array<8 x f32>, !llvm.ptr", true)]
#[case::volatile("%out: !llvm.ptr", "llvm.store volatile %r, %out : !llvm.array<8 x f32>, !llvm.ptr", false)]
#[case::other_space("%out: !llvm.ptr<1>", "llvm.store %r, %out : !llvm.array<8 x f32>, !llvm.ptr<1>", false)]
#[case::unused("%out: !llvm.ptr", "", false)]
#[case::stored_twice(
    "%out: !llvm.ptr, %other: !llvm.ptr",
    "llvm.store %r, %out : !llvm.array<8 x f32>, !llvm.ptr\n llvm.store %r, %other : !llvm.array<8 x f32>, !llvm.ptr",
    false
)]
#[case::pointer_defined_after(
    "%out: !llvm.ptr",
    "%q = llvm.getelementptr %out[32] : (!llvm.ptr) -> !llvm.ptr, i8\n llvm.store %r, %q : !llvm.array<8 x f32>, !llvm.ptr",
    true
)]
#[case::loaded_pointer(
    "%pp: !llvm.ptr",
    "%q = llvm.load %pp : !llvm.ptr -> !llvm.ptr\n llvm.store %r, %q : !llvm.array<8 x f32>, !llvm.ptr",
    false
)]
#[case::one_field_only(
    "%out: !llvm.ptr",
    "%e = llvm.extractvalue %r[0] : !llvm.array<8 x f32>\n llvm.store %e, %out : f32, !llvm.ptr",
    false
)]
fn an_sret_result_needs_every_caller_to_store_it_whole(
    #[case] parameters: &str,
    #[case] body: &str,
    #[case] expected: bool,
) {
    assert_eq!(becomes_sret(parameters, body), expected);
}

/// The alignment of a `byval` parameter's local copy (issue 41, rule B):
/// the declared `llvm.align` (the type's without one), raised to what the
/// accesses claim, never above the `.param`'s; the `.param`'s where the
/// address escapes.
#[rstest]
// (type alignment, declared, .param alignment, claimed) -> copy alignment
#[case(32, Some(8), 32, Some(1), 8)]
#[case(32, Some(8), 32, Some(16), 16)]
#[case(32, Some(8), 32, Some(64), 32)]
#[case(32, Some(8), 32, None, 32)]
#[case(32, None, 32, Some(1), 32)]
#[case(4, Some(16), 16, None, 16)]
#[case(4, None, 4, Some(1), 4)]
fn copy_alignment_follows_the_declaration_and_the_claims(
    #[case] type_align: u64,
    #[case] declared: Option<u64>,
    #[case] at_most: u64,
    #[case] claimed: Option<u64>,
    #[case] expected: u64,
) {
    assert_eq!(crate::pointer_uses::copy_alignment(type_align, declared, at_most, || claimed), expected);
}
