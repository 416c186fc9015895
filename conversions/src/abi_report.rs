//! `ptxcc-abi-report`: what `llc` will make of every function's signature,
//! printed for people, and the kernel param-space check.
//!
//! For each `llvm.func` the report prints the PTX header exactly as `llc`
//! prints it (so it can be diffed with `llc`'s output), then, as PTX
//! comments, a table of the parameters and the result (LLVM type, seed-000
//! class, size, alignment, offsets of the flattened leaves, the
//! `ld.param`/`st.param` accesses `llc` makes, the PTX declaration) and, for
//! kernels, the `.param` bytes against the target's limit. Every line that
//! is not part of a header starts with `//`, so
//! `grep -v '^//'` leaves exactly the headers.
//!
//! Before (`ptxcc-opt --ptxcc-abi-report k.mlir`):
//! ```mlir
//! llvm.func ptx_kernelcc @k(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f64, i8, array<4 x i32>)>, llvm.align = 8 : i64}) {
//!   llvm.return
//! }
//! ```
//! After (standard error; the IR is unchanged; declarations start with a
//! tab, as in `llc`'s output):
//! ```text
//! // ptxcc-abi-report @k: kernel, sm_90, PTX 7.8
//! .visible .entry k(
//!     .param .align 8 .b8 k_param_0[32]
//! )
//! //  arg  llvm type                        class  size  align  leaves (offset:type)                       accesses  PTX declaration
//! //  0    byval { double, i8, [4 x i32] }  byval  32    8      0:double 8:i8 12:i32 16:i32 20:i32 24:i32  -         .param .align 8 .b8 k_param_0[32]
//! //  param space: 32 of 4096 bytes
//! ```
//!
//! The param-space check ([`check_param_space`]) is an error at the
//! kernel's location when the parameters need more `.param` bytes than the
//! target allows: 4096 before PTX 8.1 or below sm_70, 32764 from PTX 8.1 on
//! sm_70 and newer. `llc` checks nothing; `ptxas` fails late.

use crate::ir::LlvmOp;
use std::fmt::Write as _;

use crate::ir::{HashMap, HashSet};

use melior::{
    ir::{operation::OperationLike, OperationRef},
    pass::Pass,
};
use ptxcc_dialect::verify::emit_error;

use crate::options::declare_pass;
use crate::{
    abi::{
        check_param_space, classify_argument, classify_result,
        frame::{frame_layout, FrameLayout},
        prototype::pass_as_array,
        signature::{address_taken_functions, call_site_signature, function_signature},
        AbiError, AbiType, ArgClass, CallSequence, Callee, DataLayout, FunctionSignature, Target, Thresholds,
    },
    ir::nested_ops,
    options::TargetOptions,
    pass::PtxccPass,
};

declare_pass! {
    /// Options of `ptxcc-abi-report`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct AbiReportOptions {
        /// The target of functions that do not name theirs.
        pub target: TargetOptions = group(),
        /// Largest aggregate, in bytes, classified `flatten`.
        pub flatten_threshold: u64 = option("flatten-threshold", "32", "largest aggregate (bytes) classified 'flatten'"),
        /// Most vector elements classified `vector`.
        pub vector_threshold: u64 = option("vector-threshold", "4", "most vector elements classified 'vector'"),
        /// Results above this many bytes are classified `indirect` (sret).
        pub sret_threshold: u64 = option(
            "sret-threshold",
            "16",
            "results above this many bytes are classified 'indirect' (sret)"
        ),
        /// `byval` arguments above this many bytes are flagged as unsupported.
        pub max_byval_size: u64 = option(
            "max-byval-size",
            "4096",
            "byval arguments above this many bytes are flagged as unsupported"
        ),
    }
    pass "ptxcc-abi-report" (PtxccAbiReport) on crate::ir::BUILTIN_MODULE:
        "Print each function's PTX prototype and parameter ABI (stderr); error on kernels over the param-space limit";
    fn run(&self, module) -> bool {
        let mut text = String::new();
        let problems = report_module(module, self, &mut text);
        eprint!("{text}");
        problems == 0
    }
}

impl AbiReportOptions {
    /// The classification thresholds these options set.
    pub fn thresholds(&self) -> Thresholds {
        Thresholds {
            flatten: self.flatten_threshold,
            vector: self.vector_threshold,
            sret: self.sret_threshold,
            max_byval: self.max_byval_size,
            flatten_always: false,
        }
    }
}

/// Entries shown in the `leaves` and `accesses` columns before "...".
const SHOWN: usize = 8;

fn leaves_text(layout: &DataLayout, ty: &AbiType) -> String {
    if !ty.is_aggregate() {
        return "-".into();
    }
    let Some(leaves) = crate::abi::classify::leaves(layout, ty) else {
        return format!("({} leaves)", crate::abi::classify::leaf_count(ty));
    };
    let mut text: Vec<String> = leaves.iter().take(SHOWN).map(|l| format!("{}:{}", l.offset, l.ty)).collect();
    if leaves.len() > SHOWN {
        text.push(format!("... ({} leaves)", leaves.len()));
    }
    if text.is_empty() {
        "(none)".into()
    } else {
        text.join(" ")
    }
}

fn accesses_text(accesses: &[crate::abi::Access]) -> String {
    let mut text: Vec<String> = accesses.iter().take(SHOWN).map(ToString::to_string).collect();
    if accesses.len() > SHOWN {
        text.push(format!("... ({} accesses)", accesses.len()));
    }
    text.join(", ")
}

/// Whether a value is small enough to list its accesses part by part.
fn listable(layout: &DataLayout, ty: &AbiType) -> bool {
    const MAX_LISTED_BYTES: u64 = 64 * 1024;
    crate::abi::classify::leaf_count(ty) <= crate::abi::classify::MAX_LISTED_LEAVES
        && layout.alloc_size(ty) <= MAX_LISTED_BYTES
}

/// Cells of a report table longer than this are cut (with `...`): a struct
/// with thousands of fields would otherwise push every other column away.
const MAX_CELL_WIDTH: usize = 200;

/// `cell`, cut to [`MAX_CELL_WIDTH`] characters.
fn shortened(cell: &str) -> String {
    if cell.chars().count() <= MAX_CELL_WIDTH {
        return cell.to_string();
    }
    let mut text: String = cell.chars().take(MAX_CELL_WIDTH - 3).collect();
    text.push_str("...");
    text
}

/// Writes rows as `//`-prefixed columns padded to the widest cell.
fn write_table(out: &mut String, rows: &[Vec<String>]) {
    let rows: Vec<Vec<String>> = rows.iter().map(|row| row.iter().map(|cell| shortened(cell)).collect()).collect();
    let rows = &rows;
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    for row in rows {
        let mut line = String::from("//  ");
        for (c, cell) in row.iter().enumerate() {
            if c + 1 == row.len() {
                line.push_str(cell);
            } else {
                // Padded by hand: `format!`'s width is a u16 and panics
                // above 65,535 (a struct with thousands of fields).
                line.push_str(cell);
                line.extend(std::iter::repeat_n(' ', widths[c] - cell.chars().count() + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// The report of one function (see the module documentation).
pub fn function_report(
    signature: &FunctionSignature,
    layout: &DataLayout,
    target: &Target,
    thresholds: &Thresholds,
) -> Result<String, AbiError> {
    let mut out = String::new();
    let kind = if signature.kernel { "kernel" } else { "device function" };
    let declaration = if signature.declaration { ", declaration (llc prints it only if it is used)" } else { "" };
    let _ = writeln!(out, "// ptxcc-abi-report @{}: {kind}, {target}{declaration}", signature.name);
    let no_return = target.ptx >= 64;
    let header = if signature.declaration {
        signature.declaration_lines(layout, no_return)?
    } else {
        signature.definition(layout, no_return)?
    };
    for line in header {
        out.push_str(&line);
        out.push('\n');
    }
    let mut rows =
        vec![["arg", "llvm type", "class", "size", "align", "leaves (offset:type)", "accesses", "PTX declaration"]
            .map(str::to_string)
            .to_vec()];
    for (index, param) in signature.params.iter().enumerate() {
        let (ty, class, accesses) = match &param.byval {
            // Read where used: `ld.param` (a kernel's grid constant, a
            // device function's copy) or through a pointer.
            Some(pointee) => (pointee, "byval".to_string(), "as used".to_string()),
            None => {
                let classification = classify_argument(layout, &param.ty, thresholds);
                let class = if signature.kernel && param.ty.is_aggregate() {
                    // Kernels keep their launch ABI: aggregates stay whole.
                    ArgClass::Direct.to_string()
                } else if signature.kernel && classification.class == ArgClass::Byval {
                    // A long vector passed to a kernel by value stays a vector.
                    ArgClass::Vector.to_string()
                } else if classification.too_large {
                    format!("{} (huge: unsupported)", classification.class)
                } else {
                    classification.class.to_string()
                };
                let accesses = if !listable(layout, &param.ty) {
                    "-".to_string()
                } else {
                    accesses_text(&signature.argument_accesses(layout, index, target)?)
                };
                (&param.ty, class, accesses)
            }
        };
        let shown_type = if param.byval.is_some() { format!("byval {ty}") } else { ty.to_string() };
        let (size, align) = signature.param_footprint(layout, index)?;
        rows.push(vec![
            index.to_string(),
            shown_type,
            class,
            size.to_string(),
            align.to_string(),
            leaves_text(layout, ty),
            accesses,
            signature.param_declaration(layout, index)?,
        ]);
    }
    if let Some(result) = &signature.result {
        let classification = classify_result(layout, result, thresholds);
        let stores = if listable(layout, result) {
            accesses_text(&signature.result_accesses(layout, target)?)
        } else {
            "-".to_string()
        };
        let align =
            if pass_as_array(result) { signature.result_align(layout).unwrap_or(1) } else { layout.abi_align(result) };
        rows.push(vec![
            "ret".into(),
            result.to_string(),
            classification.class.to_string(),
            layout.alloc_size(result).to_string(),
            align.to_string(),
            leaves_text(layout, result),
            stores,
            signature.result_declaration(layout)?.trim().trim_start_matches('(').trim_end_matches(')').to_string(),
        ]);
    }
    if rows.len() > 1 {
        write_table(&mut out, &rows);
    }
    if signature.kernel {
        let bytes = signature.param_bytes(layout)?;
        let _ = writeln!(out, "//  param space: {bytes} of {} bytes", target.param_limit());
    }
    Ok(out)
}

/// The local depot line of a function with stack slots (empty without):
/// `//  local depot: 36 bytes, align 16; slots (offset:size@align): 0:1@1 8:24@8 32:4@16`,
/// laid out as seed 004 does (a dynamic slot shows `?` for its size).
pub fn frame_report(frame: &FrameLayout) -> String {
    if frame.slots.is_empty() {
        return String::new();
    }
    let slots: Vec<String> = frame
        .slots
        .iter()
        .map(|slot| {
            let size = if slot.dynamic { "?".to_string() } else { slot.size.to_string() };
            format!("{}:{size}@{}", slot.offset, slot.align)
        })
        .collect();
    let dynamic = if frame.slots.iter().any(|slot| slot.dynamic) { " plus dynamic slots" } else { "" };
    format!(
        "//  local depot: {} bytes{dynamic}, align {}; slots (offset:size@align): {}\n",
        frame.size,
        frame.align,
        slots.join(" ")
    )
}

/// The call sequences of the calls in `func`, numbered from `*next_id`
/// (which counts on, as `llc` numbers them through the module), as report
/// lines: `//  call f: callseq 3` (the PTX symbol) then the PTX lines,
/// indented.
pub fn calls_report(
    func: OperationRef,
    functions: &HashMap<String, OperationRef>,
    taken: &HashSet<String>,
    next_id: &mut usize,
    layout: &DataLayout,
    target: &Target,
) -> Result<String, AbiError> {
    let mut out = String::new();
    for (_, sequence) in call_sequences(func, functions, taken, next_id, layout, target)? {
        let callee = match &sequence.callee {
            Callee::Direct(symbol) => symbol.as_str(),
            Callee::Indirect => "through a pointer",
        };
        let _ = writeln!(out, "//  call {callee}: callseq {}", sequence.id);
        for line in sequence.lines() {
            let _ = writeln!(out, "//    {line}");
        }
    }
    Ok(out)
}

/// Every call of `func` that has a call sequence, with it, numbered from
/// `*next_id` (see [`calls_report`]).
pub fn call_sequences<'c, 'a>(
    func: OperationRef<'c, 'a>,
    functions: &HashMap<String, OperationRef>,
    taken: &HashSet<String>,
    next_id: &mut usize,
    layout: &DataLayout,
    target: &Target,
) -> Result<Vec<(OperationRef<'c, 'a>, CallSequence)>, AbiError> {
    let mut sequences = Vec::new();
    for op in nested_ops(func) {
        if LlvmOp::of(op) != LlvmOp::Call {
            continue;
        }
        let Some((site, callee)) = call_site_signature(op, functions, taken)? else { continue };
        sequences.push((op, CallSequence::new(&site, callee, *next_id, layout, target)?));
        *next_id += 1;
    }
    Ok(sequences)
}

/// Reports every `llvm.func` of `module` into `out` and checks the kernels'
/// param space. Problems (a type without a PTX ABI, an unknown chip, a
/// kernel over the limit) are errors at the function's location; returns
/// how many there were.
pub fn report_module(module: OperationRef, options: &AbiReportOptions, out: &mut String) -> usize {
    let layout = DataLayout::default();
    let taken: HashSet<String> = address_taken_functions(module);
    let functions = crate::abi::signature::functions_by_name(module);
    let mut next_call = 0;
    let mut problems = 0;
    for func in crate::ir::module_functions(module) {
        let name = crate::abi::signature::function_name(func);
        let outcome = options.target.target_of(func).and_then(|target| {
            let signature = function_signature(func, taken.contains(&name))?;
            let mut text = function_report(&signature, &layout, &target, &options.thresholds())?;
            text.push_str(&frame_report(&frame_layout(func, &layout, 0)?));
            text.push_str(&calls_report(func, &functions, &taken, &mut next_call, &layout, &target)?);
            Ok((text, check_param_space(&signature, &layout, &target)?))
        });
        match outcome {
            Ok((text, excess)) => {
                out.push_str(&text);
                if let Some(excess) = excess {
                    emit_error(func.location(), &excess.to_string());
                    problems += 1;
                }
            }
            Err(error) => {
                emit_error(func.location(), &format!("@{name}: {error}"));
                problems += 1;
            }
        }
    }
    problems
}

/// The `ptxcc-abi-report` pass, anchored on `builtin.module`; it prints to
/// standard error and changes nothing.
pub fn create_abi_report_pass(options: &AbiReportOptions) -> Pass {
    options.create_pass()
}
