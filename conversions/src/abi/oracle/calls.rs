//! The call-sequence oracle: one caller per [`CALL_SHAPES`] entry, and the
//! call sequence (declarations, stores, prototype, call, loads) the ABI
//! model predicts for it, compared with `llc`'s.

use crate::ir::LlvmOp;
use std::{collections::HashMap, fmt::Write as _};

use melior::ir::{operation::OperationLike, Module};

use super::{compile, llvm_context};
use crate::abi::{
    signature::{address_taken_functions, function_name},
    DataLayout, Target,
};

/// One call shape of the call-sequence oracle: a callee and a caller that
/// passes it its own arguments and returns its result (so that `llc` keeps
/// every load of the result).
struct CallShape {
    /// What the shape covers.
    what: &'static str,
    /// Parameter types; `byval T` and `byval T align N` for `byval`.
    params: &'static [&'static str],
    /// The result type.
    result: Option<&'static str>,
    /// How the caller reaches the callee.
    kind: CallKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum CallKind {
    /// An external declaration, called directly.
    External,
    /// An `internal` definition nobody takes the address of (alignment 16).
    Local,
    /// Through a pointer parameter of the caller.
    Indirect,
    /// Through `llvm.mlir.addressof` of the declaration (direct in LLVM IR).
    AddressOf,
    /// Direct, without call-site `arg_attrs` (the callee's `byval` counts).
    NoCallAttrs,
    /// A variadic declaration `(fixed..., ...)` called with these extra
    /// arguments (the shape's params: fixed first, then `...`, then extra).
    Variadic,
    /// A kernel passing its own `byval` parameters on.
    FromKernel,
}

const fn shape(what: &'static str, params: &'static [&'static str], result: Option<&'static str>) -> CallShape {
    CallShape { what, params, result, kind: CallKind::External }
}

const fn shape_of(
    what: &'static str,
    params: &'static [&'static str],
    result: Option<&'static str>,
    kind: CallKind,
) -> CallShape {
    CallShape { what, params, result, kind }
}

/// The call shapes of the oracle.
const CALL_SHAPES: &[CallShape] = &[
    shape("i1 argument", &["i1"], None),
    shape("i8 argument", &["i8"], None),
    shape("i16 argument", &["i16"], None),
    shape("i32 argument", &["i32"], None),
    shape("i64 argument", &["i64"], None),
    shape("i24 and i48 arguments", &["i24", "i48"], None),
    shape("i128 argument (an array)", &["i128"], None),
    shape("f16 argument", &["f16"], None),
    shape("bf16 argument", &["bf16"], None),
    shape("f32 and f64 arguments", &["f32", "f64"], None),
    shape(
        "pointers of several spaces",
        &["!llvm.ptr", "!llvm.ptr<1>", "!llvm.ptr<3>", "!llvm.ptr<5>", "!llvm.ptr<6>"],
        None,
    ),
    shape("32-bit pointer result", &[], Some("!llvm.ptr<6>")),
    shape("vector<2xf16>", &["vector<2xf16>"], None),
    shape("vector<4xf32>", &["vector<4xf32>"], None),
    shape("vector<3xf32>", &["vector<3xf32>"], None),
    shape("vector<4xi8> and vector<2xi8>", &["vector<4xi8>", "vector<2xi8>"], None),
    shape("vector<2xi64>", &["vector<2xi64>"], None),
    shape("vector<8xf16>", &["vector<8xf16>"], None),
    shape("small struct", &["!llvm.struct<(f32, f32, f32)>"], None),
    shape("struct with padding", &["!llvm.struct<(i8, i64)>"], None),
    shape("struct of four i32", &["!llvm.struct<(i32, i32, i32, i32)>"], None),
    shape("large array", &["!llvm.array<16 x i64>"], None),
    shape("packed struct", &["!llvm.struct<packed (i8, i32, i16)>"], None),
    shape("packed nested struct", &["!llvm.struct<(i16, struct<packed (i16, i64, f64)>)>"], None),
    shape("struct of i1 and i8", &["!llvm.struct<(i1, i8, i1)>"], None),
    shape("array of bytes", &["!llvm.array<12 x i8>"], None),
    shape("byval struct", &["byval !llvm.struct<(f64, i8, array<4 x i32>)> align 8"], None),
    shape("byval i8", &["byval i8"], None),
    shape("byval float4, align 16", &["byval !llvm.struct<(f32, f32, f32, f32)> align 16"], None),
    shape("byval packed struct", &["byval !llvm.struct<packed (i8, i32, i16)> align 1"], None),
    shape("mixed arguments", &["i8", "f16", "!llvm.struct<(f32, i32)>", "!llvm.ptr", "f64"], Some("f32")),
    shape("i1 result", &[], Some("i1")),
    shape("i8 result", &[], Some("i8")),
    shape("i16 result", &[], Some("i16")),
    shape("i64 result", &[], Some("i64")),
    shape("i128 result", &[], Some("i128")),
    shape("f16 result", &[], Some("f16")),
    shape("f64 result", &[], Some("f64")),
    shape("pointer result", &[], Some("!llvm.ptr<1>")),
    shape("vector<2xf16> result", &[], Some("vector<2xf16>")),
    shape("vector<4xf32> result", &[], Some("vector<4xf32>")),
    shape("small struct result", &[], Some("!llvm.struct<(f32, f32, f32)>")),
    shape("struct with padding result", &[], Some("!llvm.struct<(i8, i64)>")),
    shape("large array result", &[], Some("!llvm.array<16 x i64>")),
    shape("packed struct result", &[], Some("!llvm.struct<packed (i8, i32, i16)>")),
    shape_of("indirect, scalars", &["i8", "i32"], Some("i32"), CallKind::Indirect),
    shape_of("indirect, no arguments", &[], None, CallKind::Indirect),
    shape_of(
        "indirect, struct in and out",
        &["!llvm.struct<(f32, f32, f32)>"],
        Some("!llvm.struct<(i8, i64)>"),
        CallKind::Indirect,
    ),
    shape_of(
        "indirect, byval",
        &["byval !llvm.struct<(f32, f32, f32, f32)> align 16"],
        Some("f16"),
        CallKind::Indirect,
    ),
    shape_of(
        "local callee, struct",
        &["!llvm.struct<(f32, f32, f32, f32)>", "i8"],
        Some("!llvm.struct<(f32, f32)>"),
        CallKind::Local,
    ),
    shape_of(
        "local callee, vector and byval",
        &["vector<2xf16>", "byval !llvm.struct<(i32, i32)>"],
        None,
        CallKind::Local,
    ),
    shape_of("direct through addressof", &["!llvm.struct<(f32, f32)>"], Some("f32"), CallKind::AddressOf),
    shape_of("byval from the callee only", &["byval !llvm.struct<(f64, f64)> align 8"], None, CallKind::NoCallAttrs),
    shape_of("variadic", &["i32", "...", "f64", "i32"], None, CallKind::Variadic),
    shape_of("variadic, no extra arguments", &["i32", "..."], Some("i32"), CallKind::Variadic),
    shape_of(
        "byval from a kernel parameter",
        &["byval !llvm.struct<(f32, f32, f32, f32)> align 16"],
        None,
        CallKind::FromKernel,
    ),
    shape_of(
        "byval from a kernel parameter, under-aligned",
        &["byval !llvm.struct<(i8, i32, i8)> align 4"],
        None,
        CallKind::FromKernel,
    ),
];

/// Shapes whose accesses `llc` chooses by use on sm_100, where `f32` pairs
/// have a packed register: scalar `f32` fields merged under a 16-byte
/// alignment travel as `.v2.b64` when the values pass through and as
/// `.v4.b32` when they are used one by one (here: built from the caller's
/// own parameters). The model, like the prototype oracle, predicts the
/// packed form. They are compared on sm_90.
const SM100_USE_DEPENDENT: &[&str] = &["local callee, struct"];

/// `byval T align N` -> (`!llvm.ptr`, call-site attributes).
fn parameter_text(param: &str) -> (String, String) {
    match param.strip_prefix("byval ") {
        Some(rest) => {
            let (ty, align) = match rest.rsplit_once(" align ") {
                Some((ty, align)) => (ty, format!(", llvm.align = {align} : i64")),
                None => (rest, String::new()),
            };
            ("!llvm.ptr".to_string(), format!("{{llvm.byval = {ty}{align}}}"))
        }
        None => (param.to_string(), "{}".to_string()),
    }
}

/// The callee and caller of shape number `index`.
fn call_shape_source(index: usize, shape: &CallShape) -> String {
    let (fixed, extra): (Vec<&str>, Vec<&str>) = match shape.params.iter().position(|p| *p == "...") {
        Some(dots) => (shape.params[..dots].to_vec(), shape.params[dots + 1..].to_vec()),
        None => (shape.params.to_vec(), Vec::new()),
    };
    let texts: Vec<(String, String)> = fixed.iter().chain(&extra).map(|p| parameter_text(p)).collect();
    let fixed_count = fixed.len();
    let callee_params: Vec<String> = texts[..fixed_count]
        .iter()
        .map(|(ty, attrs)| if attrs == "{}" { ty.clone() } else { format!("{ty} {attrs}") })
        .collect();
    let mut callee_params = callee_params.join(", ");
    if shape.kind == CallKind::Variadic {
        callee_params.push_str(if fixed_count == 0 { "..." } else { ", ..." });
    }
    let arrow = shape.result.map(|r| format!(" -> {r}")).unwrap_or_default();
    let mut source = String::new();
    let callee = format!("e{index}");
    if shape.kind == CallKind::Local {
        let named: Vec<String> = texts[..fixed_count]
            .iter()
            .enumerate()
            .map(|(i, (ty, attrs))| if attrs == "{}" { format!("%x{i}: {ty}") } else { format!("%x{i}: {ty} {attrs}") })
            .collect();
        let body = match shape.result {
            Some(r) => format!("%z = llvm.mlir.zero : {r}\n    llvm.return %z : {r}"),
            None => LlvmOp::Return.name().to_string(),
        };
        writeln!(source, "  llvm.func internal @{callee}({}){arrow} {{\n    {body}\n  }}", named.join(", ")).unwrap();
    } else {
        writeln!(source, "  llvm.func @{callee}({callee_params}){arrow}").unwrap();
    }
    let mut caller_params: Vec<String> = texts
        .iter()
        .enumerate()
        .map(|(i, (ty, attrs))| {
            if shape.kind == CallKind::FromKernel && attrs != "{}" {
                format!("%a{i}: {ty} {attrs}")
            } else {
                format!("%a{i}: {ty}")
            }
        })
        .collect();
    if shape.kind == CallKind::Indirect {
        caller_params.push("%fp: !llvm.ptr".to_string());
    }
    let arguments: Vec<String> = (0..texts.len()).map(|i| format!("%a{i}")).collect();
    let argument_types: Vec<&str> = texts.iter().map(|(ty, _)| ty.as_str()).collect();
    let attrs: Vec<&str> = texts.iter().map(|(_, attrs)| attrs.as_str()).collect();
    let call_attrs = if shape.kind == CallKind::NoCallAttrs || attrs.iter().all(|a| *a == "{}") {
        String::new()
    } else {
        format!(" {{arg_attrs = [{}]}}", attrs.join(", "))
    };
    let function_type = format!("({}) -> {}", argument_types.join(", "), shape.result.unwrap_or("()"));
    let (prefix, call) = match shape.kind {
        CallKind::Indirect => {
            (String::new(), format!("llvm.call %fp({}){call_attrs} : !llvm.ptr, {function_type}", arguments.join(", ")))
        }
        CallKind::AddressOf => (
            format!("%f = llvm.mlir.addressof @{callee} : !llvm.ptr\n    "),
            format!("llvm.call %f({}){call_attrs} : !llvm.ptr, {function_type}", arguments.join(", ")),
        ),
        CallKind::Variadic => {
            let fixed_types = argument_types[..fixed_count].join(", ");
            let dots = if fixed_count == 0 { "..." } else { ", ..." };
            let void_or = shape.result.unwrap_or("void");
            (
                String::new(),
                format!(
                    "llvm.call @{callee}({}) vararg(!llvm.func<{void_or} ({fixed_types}{dots})>){call_attrs} : {function_type}",
                    arguments.join(", ")
                ),
            )
        }
        _ => (String::new(), format!("llvm.call @{callee}({}){call_attrs} : {function_type}", arguments.join(", "))),
    };
    let (head, ret) = match shape.result {
        Some(r) => (format!("%r = {call}"), format!("llvm.return %r : {r}")),
        None => (call, LlvmOp::Return.name().to_string()),
    };
    let cc = if shape.kind == CallKind::FromKernel { "ptx_kernelcc " } else { "" };
    writeln!(
        source,
        "  llvm.func {cc}@c{index}({}){arrow} {{\n    {prefix}{head}\n    {ret}\n  }}",
        caller_params.join(", ")
    )
    .unwrap();
    source
}

/// The lines of each `{ // callseq N` block of `llc`'s PTX that belong to
/// the call sequence (declarations, stores into `paramK`, loads from
/// `retval0`, prototype, call), registers replaced by `_`, the callee
/// register by `%callee`, sorted.
fn llc_call_sequences(ptx: &str) -> HashMap<usize, Vec<String>> {
    let mut sequences = HashMap::new();
    let mut current: Option<(usize, Vec<String>)> = None;
    for raw in ptx.lines() {
        let trimmed = raw.trim();
        if let Some(rest) = trimmed.strip_prefix("{ // callseq ") {
            let id = rest.split(',').next().unwrap_or("").trim().parse().expect("callseq number");
            current = Some((id, Vec::new()));
            continue;
        }
        if trimmed.starts_with("} // callseq") {
            if let Some((id, mut lines)) = current.take() {
                lines.sort();
                sequences.insert(id, lines);
            }
            continue;
        }
        let Some((_, lines)) = current.as_mut() else { continue };
        let line = trimmed.split("//").next().unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
        let registers = |text: &str| {
            if text.starts_with('{') {
                format!("{{{}}}", vec!["_"; text.matches(',').count() + 1].join(", "))
            } else {
                "_".to_string()
            }
        };
        if line.starts_with(".param ") || line.starts_with("prototype_") {
            lines.push(line);
        } else if line.starts_with("st.param") && line.contains("[param") {
            let (head, value) = line.split_once("], ").expect("st.param operands");
            lines.push(format!("{head}], {};", registers(value.trim_end_matches(';'))));
        } else if line.starts_with("ld.param") && line.contains("[retval0") {
            let (opcode, rest) = line.split_once(' ').expect("ld.param operands");
            let (value, address) = rest.rsplit_once(", [").expect("ld.param address");
            lines.push(format!("{opcode} {}, [{address}", registers(value)));
        } else if line.starts_with("call") {
            let words: Vec<String> = line
                .split(' ')
                .map(|w| if w.starts_with("%rd") { "%callee,".to_string() } else { w.to_string() })
                .collect();
            lines.push(words.join(" "));
        }
    }
    sequences
}

#[test]
fn call_sequences_match_llc_sm90() {
    compare_call_sequences("sm_90", 80);
}

/// sm_100: float pairs travel as one `.b64`.
#[test]
fn call_sequences_match_llc_sm100() {
    compare_call_sequences("sm_100", 86);
}

fn compare_call_sequences(chip: &str, ptx_version: u32) {
    assert!(CALL_SHAPES.len() >= 30, "the oracle covers at least 30 call shapes");
    let context = llvm_context();
    let layout = DataLayout::default();
    let target = Target::new(chip, Some(ptx_version)).expect("target");
    let mut source = String::from("module {\n");
    for (index, shape) in CALL_SHAPES.iter().enumerate() {
        source.push_str(&call_shape_source(index, shape));
    }
    source.push_str("}\n");
    let module = Module::parse(&context, &source).unwrap_or_else(|| panic!("call oracle module parses:\n{source}"));
    assert!(module.as_operation().verify(), "call oracle module verifies");
    let ptx = compile(&source, chip, ptx_version, "calls");
    let actual = llc_call_sequences(&ptx);

    let module_op = module.as_operation();
    let taken = address_taken_functions(module_op);
    let functions = crate::abi::signature::functions_by_name(module_op);
    let mut next = 0;
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for func in crate::ir::module_functions(module_op) {
        let name = function_name(func);
        let sequences = crate::abi_report::call_sequences(func, &functions, &taken, &mut next, &layout, &target)
            .unwrap_or_else(|e| panic!("@{name}: {e}"));
        for (_, sequence) in sequences {
            let what = name.strip_prefix('c').and_then(|i| i.parse::<usize>().ok()).map(|i| CALL_SHAPES[i].what);
            let mut predicted = sequence.lines();
            predicted.sort();
            compared += 1;
            if target.has_f32x2() && what.is_some_and(|w| SM100_USE_DEPENDENT.contains(&w)) {
                continue;
            }
            match actual.get(&sequence.id) {
                Some(lines) if *lines == predicted => {}
                other => mismatches.push(format!(
                    "@{name} ({}), callseq {}:\n  model: {predicted:#?}\n  llc:   {other:#?}",
                    what.unwrap_or("?"),
                    sequence.id
                )),
            }
        }
    }
    assert_eq!(compared, actual.len(), "{chip}: the model and llc see as many call sequences");
    assert!(compared >= CALL_SHAPES.len(), "every shape has a call");
    assert!(
        mismatches.is_empty(),
        "{chip}: {} of {compared} call sequences differ from llc:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
