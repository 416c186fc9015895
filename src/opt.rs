//! What `ptxcc-opt` does with one input, as a library function: split,
//! parse, verify, run a pass pipeline, print, check expected diagnostics.
//!
//! The binary only parses its command line, reads the input and writes the
//! output; everything observable lives here so that it can be tested and
//! reused.

use melior::{
    ir::{operation::OperationLike, Module, OperationRef},
    pass::{PassIrPrintingOptions, PassManager},
    Context,
};

use crate::{
    context::create_context,
    diagnostics::{render, Diagnostic, DiagnosticCollector, Severity},
    llvm::{
        emit_gpu_modules_ptx, emit_ptx, gpu_modules, import_llvm_ir, input_kind, ptx_target, InputFormat, InputKind,
    },
    nesting::{check_nesting, MAX_NESTING},
    registry::register_passes,
    shim,
    verify_diagnostics::{self, VerifyLevel},
};

mod output;

use output::{Output, Sink};

/// The line that separates the pieces of an input under `--split-input-file`
/// and the pieces of its output.
pub const SPLIT_MARKER: &str = "// -----";

/// What to print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Emit {
    /// MLIR (the default).
    #[default]
    Mlir,
    /// LLVM IR text, through MLIR's in-process translation.
    Llvm,
    /// MLIR bytecode (`mlir-opt --emit-bytecode`).
    Bytecode,
    /// PTX, through LLVM's NVPTX backend in process (see [`crate::llvm`]).
    Ptx,
}

/// The first bytes of every MLIR bytecode file (`ML\xefR`).
pub const BYTECODE_MAGIC: &[u8] = b"ML\xefR";

/// Whether `input` is MLIR bytecode rather than text.
pub fn is_bytecode(input: &[u8]) -> bool {
    input.starts_with(BYTECODE_MAGIC)
}

/// How to process an input.
#[derive(Clone, Debug, Default)]
pub struct OptConfig {
    /// The pass pipeline, in MLIR's textual form (`builtin.module(...)`);
    /// `None` runs no pass.
    pub pipeline: Option<String>,
    /// Process each piece between `// -----` lines on its own.
    pub split_input_file: bool,
    /// Check diagnostics against `expected-*` comments instead of printing
    /// them (`--verify-diagnostics[=all|only-expected]`); `None`: print them.
    pub verify_diagnostics: Option<VerifyLevel>,
    /// Print the IR after every pass (to standard error).
    pub print_ir_after_all: bool,
    /// Print the IR after a pass that fails (to standard error).
    pub print_ir_after_failure: bool,
    /// Print pass timings (to standard error).
    pub timing: bool,
    /// Print the result as MLIR or LLVM IR.
    pub emit: Emit,
    /// Accept ops of unregistered dialects.
    pub allow_unregistered_dialect: bool,
    /// Print the output in MLIR's generic form.
    pub print_generic: bool,
    /// Print locations in the output (`--mlir-print-debuginfo`).
    pub print_debug_info: bool,
    /// Print the pass pipeline to standard error before running it
    /// (`--dump-pass-pipeline`).
    pub dump_pass_pipeline: bool,
    /// What the input is (MLIR or LLVM IR); found out by default.
    pub input_format: InputFormat,
    /// Verify the IR after every pass (`mlir-opt --verify-each`); off, the
    /// input is verified when parsed and the output once after the pipeline
    /// (every function was verified after each of the pipeline's passes,
    /// 17% of the run time on the benchmark).
    pub verify_each: bool,
    /// Leave the module and its context to the operating system instead of
    /// destroying them: for a driver about to exit (tearing a large module
    /// down costs a few percent of a run). A library caller leaves it off.
    pub leak_ir: bool,
    /// Run everything on the calling thread (`mlir-opt
    /// --mlir-disable-threading`): the passes' parallel loops and MLIR's
    /// pass manager and verifier. The output is the same either way.
    pub disable_threading: bool,
    /// Called once each piece of the input is parsed (before any pass):
    /// the input is then only read again to quote lines in diagnostics. The
    /// driver lets a mapped input file's pages go there
    /// ([`InputFile::release`]), so that a large module's text
    /// does not stay in memory beside the module while it is transformed
    /// and printed.
    pub after_parse: Option<AfterParse>,
}

pub use ptxcc_shim::InputFile;

/// A callback run after parsing ([`OptConfig::after_parse`]).
#[derive(Clone)]
pub struct AfterParse(pub std::sync::Arc<dyn Fn() + Send + Sync>);

impl std::fmt::Debug for AfterParse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AfterParse(..)")
    }
}

impl OptConfig {
    /// How the output's MLIR text is printed under this configuration.
    pub fn print_flags(&self) -> PrintFlags {
        PrintFlags { generic: self.print_generic, debug_info: self.print_debug_info }
    }
}

/// The result of processing one input.
#[derive(Debug, Default)]
pub struct OptOutcome {
    /// What goes to the output file (the pieces that succeeded): text, or
    /// bytecode with [`Emit::Bytecode`].
    pub output: Vec<u8>,
    /// What goes to standard error: rendered diagnostics.
    pub messages: String,
    /// Whether the run succeeded (exit status 0).
    pub success: bool,
    /// The first error writing the output to the writer given to
    /// [`process_into`] or [`process_input_into`] (the rest of the output
    /// was dropped).
    pub write_error: Option<std::io::Error>,
}

/// Processes `input` (MLIR text or bytecode, or LLVM IR text or bitcode:
/// see [`input_kind`]), read from `filename` (`<stdin>` for standard input).
/// MLIR text must be UTF-8 (the driver reports where it is not).
pub fn process_input(config: &OptConfig, input: &[u8], filename: &str) -> OptOutcome {
    buffered(|output| run_input(config, input, filename, output))
}

/// [`process_input`], writing the output to `sink` as it is printed (the
/// outcome's `output` stays empty): a large module's text is never held in
/// memory beside the module. When the run fails, what was written is not an
/// output to use.
pub fn process_input_into(
    config: &OptConfig,
    input: &[u8],
    filename: &str,
    sink: &mut dyn std::io::Write,
) -> OptOutcome {
    run_input(config, input, filename, Output::new(Sink::Stream(sink)))
}

fn run_input(config: &OptConfig, input: &[u8], filename: &str, mut output: Output) -> OptOutcome {
    let kind = input_kind(config.input_format, input, filename);
    if kind == InputKind::MlirText {
        return run_text(config, &String::from_utf8_lossy(input), filename, output);
    }
    register_passes();
    if config.split_input_file || config.verify_diagnostics.is_some() {
        let message = match kind {
            InputKind::Llvm => "--split-input-file and --verify-diagnostics need MLIR text, not LLVM IR",
            _ => "--split-input-file and --verify-diagnostics need textual input, not bytecode",
        };
        return OptOutcome { messages: render(&plain_error(message.into()), filename, None), ..OptOutcome::default() };
    }
    let (diagnostics, ok) = process_piece(config, kind, input, filename, &mut output, config.leak_ir);
    let mut outcome = OptOutcome { success: ok, write_error: output.error, ..OptOutcome::default() };
    // LLVM IR text: show the line a parse error points at.
    let text = (kind == InputKind::Llvm).then(|| std::str::from_utf8(input).ok()).flatten();
    for diagnostic in &diagnostics {
        outcome.messages.push_str(&render(diagnostic, filename, text));
    }
    outcome
}

/// Processes `source` (MLIR text), read from `filename` (`<stdin>` for
/// standard input).
pub fn process(config: &OptConfig, source: &str, filename: &str) -> OptOutcome {
    buffered(|output| run_text(config, source, filename, output))
}

/// Runs `run` with an output to a buffer, which becomes the outcome's
/// `output`.
fn buffered(run: impl FnOnce(Output) -> OptOutcome) -> OptOutcome {
    let mut buffer = Vec::new();
    let mut outcome = run(Output::new(Sink::Buffer(&mut buffer)));
    outcome.output = buffer;
    outcome
}

/// [`process`], writing the output to `sink` as it is printed (see
/// [`process_input_into`]).
pub fn process_into(config: &OptConfig, source: &str, filename: &str, sink: &mut dyn std::io::Write) -> OptOutcome {
    run_text(config, source, filename, Output::new(Sink::Stream(sink)))
}

fn run_text(config: &OptConfig, source: &str, filename: &str, mut output: Output) -> OptOutcome {
    register_passes();
    let mut outcome = OptOutcome { success: true, ..OptOutcome::default() };
    let mut all_diagnostics = Vec::new();
    // The whole input is borrowed, not copied.
    let pieces: Vec<std::borrow::Cow<str>> = if config.split_input_file {
        split_input(source).into_iter().map(std::borrow::Cow::Owned).collect()
    } else {
        vec![std::borrow::Cow::Borrowed(source)]
    };
    for (index, piece) in pieces.iter().enumerate() {
        // Only the last piece's IR is left to the operating system: a leaked
        // context keeps the threads of its pool, one more set per piece.
        let leak = config.leak_ir && index + 1 == pieces.len();
        let (diagnostics, ok) = match check_nesting(piece, MAX_NESTING) {
            Ok(()) => process_piece(config, InputKind::MlirText, piece.as_bytes(), filename, &mut output, leak),
            Err(error) => (vec![Diagnostic { file: Some(filename.to_string()), ..error }], false),
        };
        if config.verify_diagnostics.is_some() {
            all_diagnostics.extend(diagnostics);
        } else {
            for diagnostic in &diagnostics {
                outcome.messages.push_str(&render(diagnostic, filename, Some(source)));
            }
            outcome.success &= ok;
        }
    }
    outcome.write_error = output.error;
    if let Some(level) = config.verify_diagnostics {
        if let Err(report) = verify_diagnostics::verify(source, filename, &all_diagnostics, level) {
            outcome.messages.push_str(&report);
            outcome.success = false;
        }
    }
    outcome
}

/// Splits `source` at lines that start with `// -----`. Each piece keeps its
/// line numbers: it is preceded by as many empty lines as came before it.
pub fn split_input(source: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut current = String::new();
    let mut line_number = 0usize;
    for line in source.split_inclusive('\n') {
        line_number += 1;
        if line.trim_end().starts_with(SPLIT_MARKER) {
            pieces.push(std::mem::take(&mut current));
            current.push_str(&"\n".repeat(line_number));
        } else {
            current.push_str(line);
        }
    }
    pieces.push(current);
    pieces
}

/// Parses, verifies, transforms and prints one piece to `output` (when
/// everything succeeded). Returns the diagnostics and success. With `leak`
/// its context and IR are left to the operating system (for the last piece
/// of a driver about to exit).
fn process_piece(
    config: &OptConfig,
    kind: InputKind,
    source: &[u8],
    filename: &str,
    output: &mut Output,
    leak: bool,
) -> (Vec<Diagnostic>, bool) {
    let context = match create_context() {
        Ok(context) => context,
        Err(error) => return (vec![plain_error(error.to_string())], false),
    };
    context.set_allow_unregistered_dialects(config.allow_unregistered_dialect);
    if config.disable_threading {
        context.enable_multi_threading(false);
    }
    shim::set_print_op_on_diagnostic(context.to_raw(), config.verify_diagnostics.is_none());
    let collector = DiagnosticCollector::attach(&context);
    let result = transform(config, &context, kind, source, filename, output, leak);
    let mut diagnostics = collector.take();
    if leak {
        std::mem::forget(collector);
        std::mem::forget(context);
    }
    match result {
        Ok(()) => (diagnostics, true),
        Err(message) => {
            if let Some(message) = message {
                diagnostics.push(plain_error(message));
            }
            (diagnostics, false)
        }
    }
}

fn plain_error(message: String) -> Diagnostic {
    Diagnostic { severity: Severity::Error, file: None, line: None, column: None, message }
}

/// The work on one piece, printed to `output`. `Err(None)`: the problem was
/// reported as a diagnostic; `Err(Some(message))`: a problem without a
/// location. With `leak` the module is left to the operating system.
fn transform(
    config: &OptConfig,
    context: &Context,
    kind: InputKind,
    source: &[u8],
    filename: &str,
    output: &mut Output,
    leak: bool,
) -> Result<(), Option<String>> {
    let mut module = match kind {
        InputKind::Llvm => import_llvm_ir(context, source, filename).ok_or(None)?,
        InputKind::MlirText | InputKind::MlirBytecode => parse_module(context, source, filename).ok_or(None)?,
    };
    if may_hold_ptxcc_ops(kind, source) && ptxcc_dialect::verify(module.as_operation()).is_err() {
        return Err(None);
    }
    if let Some(after_parse) = &config.after_parse {
        (after_parse.0)();
    }
    if let Some(pipeline) = &config.pipeline {
        let pm = PassManager::new(context);
        pm.enable_verifier(config.verify_each);
        if config.print_ir_after_all || config.print_ir_after_failure {
            pm.enable_ir_printing(&PassIrPrintingOptions {
                before_all: false,
                after_all: true,
                module_scope: false,
                on_change: false,
                on_failure: !config.print_ir_after_all,
                flags: Default::default(),
                tree_printing_path: Default::default(),
            });
        }
        if config.timing {
            // MLIR prints the report to standard error when the pass manager
            // is destroyed.
            shim::enable_timing(pm.to_raw());
        }
        crate::parse_pass_pipeline(&pm, pipeline).map_err(|e| Some(e.to_string()))?;
        if config.dump_pass_pipeline {
            shim::dump_pass_pipeline(pm.to_raw());
        }
        pm.run(&mut module).map_err(|_| None)?;
    }
    // The output is verified once: by MLIR's verifier unless the pass
    // manager verified after each pass (`verify_each`), and by ptxcc's own
    // checks. The input was verified when parsed.
    let verify = config.pipeline.as_ref().map(|_| Verify { mlir: !config.verify_each });
    let result = match config.emit {
        // MLIR text is printed straight to the output (a module's text can
        // be as large as the module) while another thread verifies it: both
        // only read the IR. Invalid output is taken back.
        Emit::Mlir => {
            let start = output.begin_piece();
            if verify_while(verify, !config.disable_threading, module.as_operation(), || {
                if output.error.is_none() {
                    output.error = write_module_with(&module, config.print_flags(), output.writer()).err();
                }
            }) {
                Ok(())
            } else {
                output.retract(start);
                Err(None)
            }
        }
        _ if verify.is_some_and(|verify| !verify.check(module.as_operation())) => Err(None),
        Emit::Llvm => translate_to_llvm_ir(&module).map(String::into_bytes).ok_or(None).map(|text| output.piece(&text)),
        Emit::Bytecode => {
            output.piece(&module.as_operation().write_bytecode());
            Ok(())
        }
        Emit::Ptx if !gpu_modules(&module).is_empty() => {
            emit_gpu_modules_ptx(&module, config.pipeline.as_deref()).map(|text| output.piece(text.as_bytes()))
        }
        Emit::Ptx => ptx_target(&module, config.pipeline.as_deref())
            .map_err(Some)
            .and_then(|target| emit_ptx(&module, &target))
            .map(|text| output.piece(text.as_bytes())),
    };
    if leak {
        std::mem::forget(module);
    }
    result
}

/// Whether the input may hold ptxcc ops, which ptxcc's own checks must see:
/// MLIR text without the dialect's name (and without a string escape, which
/// could spell an op name in a generic op) holds none, and a search of the
/// text costs a few milliseconds where a walk of the module costs a few
/// percent of a run.
fn may_hold_ptxcc_ops(kind: InputKind, source: &[u8]) -> bool {
    kind != InputKind::MlirText
        || std::str::from_utf8(source)
            .map_or(true, |text| text.contains(ptxcc_dialect::DIALECT_NAME) || text.contains('\\'))
}

/// How the output of a pipeline is verified.
#[derive(Clone, Copy)]
struct Verify {
    /// By MLIR's verifier too, not only by ptxcc's own checks.
    mlir: bool,
}

impl Verify {
    /// Whether `op` passes the checks (which emit their errors as
    /// diagnostics).
    fn check(self, op: OperationRef) -> bool {
        (!self.mlir || op.verify()) && ptxcc_dialect::verify(op).is_ok()
    }
}

/// Runs `work` (which only reads the IR) while another thread verifies `op`
/// as `verify` says (after `work`, on this thread, without `threads`);
/// returns whether `op` is valid.
fn verify_while(verify: Option<Verify>, threads: bool, op: OperationRef, work: impl FnOnce()) -> bool {
    let Some(verify) = verify else {
        work();
        return true;
    };
    if !verify.mlir || !threads {
        // Only ptxcc's own checks (the pass manager ran MLIR's verifier after
        // every pass): a quick walk, not worth a thread with a stack of
        // `STACK_SIZE` (reserved address space, but valgrind paints all of
        // it: 2 s a piece).
        work();
        return verify.check(op);
    }
    let raw = op.to_raw().ptr as usize;
    std::thread::scope(|scope| {
        let verifier = std::thread::Builder::new()
            .name("ptxcc-verify".into())
            .stack_size(crate::nesting::STACK_SIZE)
            .spawn_scoped(scope, move || {
                // SAFETY: the op outlives the scope, and nothing changes the IR
                // while it runs (`work` only reads it).
                let op = unsafe { OperationRef::from_raw(shim::MlirOperation { ptr: raw as *mut _ }) };
                verify.check(op)
            });
        work();
        match verifier {
            Ok(handle) => handle.join().unwrap_or(false),
            // No thread to be had: verified after the work.
            Err(_) => verify.check(op),
        }
    })
}

/// Parses MLIR text or bytecode into a module; `None` after reporting the
/// errors as diagnostics.
fn parse_module<'c>(context: &'c Context, source: &[u8], filename: &str) -> Option<Module<'c>> {
    ptxcc_conversions::ir::parse_module(context, source, filename)
}

/// `module` as MLIR text with a final newline (generic op form with
/// `generic`). The module has been verified.
pub fn print_module(module: &Module, generic: bool) -> Vec<u8> {
    let mut text = Vec::new();
    // (Writing to a `Vec` cannot fail.)
    let _ = write_module(module, generic, &mut text);
    text
}

/// [`print_module`] into `sink`, as MLIR prints it (in chunks of 64 KiB:
/// melior's printer calls back into Rust once per token).
pub fn write_module(module: &Module, generic: bool, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    write_module_with(module, PrintFlags { generic, ..PrintFlags::default() }, sink)
}

/// How MLIR text is printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintFlags {
    /// Every op in the generic form (`--mlir-print-op-generic`).
    pub generic: bool,
    /// With locations (`--mlir-print-debuginfo`).
    pub debug_info: bool,
}

/// [`write_module`] with every printing flag.
pub fn write_module_with(module: &Module, flags: PrintFlags, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    shim::print_operation(module.as_operation().to_raw(), flags.generic, flags.debug_info, sink)?;
    sink.write_all(b"\n")
}

/// Translates `module` to LLVM IR text; `None` after reporting errors as
/// diagnostics.
pub fn translate_to_llvm_ir(module: &Module) -> Option<String> {
    shim::translate_to_llvm_ir(module.as_operation().to_raw()).map(|text| String::from_utf8_lossy(&text).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("a\n", vec!["a\n"])]
    #[case("a\n// -----\nb\n", vec!["a\n", "\n\nb\n"])]
    #[case("a\n// -----   \n// -----\nc", vec!["a\n", "\n\n", "\n\n\nc"])]
    #[case("", vec![""])]
    fn splits_and_keeps_line_numbers(#[case] source: &str, #[case] expected: Vec<&str>) {
        assert_eq!(split_input(source), expected);
    }

    #[test]
    fn ptxcc_ops_are_verified_after_parsing() {
        let config = OptConfig::default();
        let good = "llvm.func @f(%p: !llvm.ptr<101>) {\n  %v = \"ptxcc.load_param\"(%p) {offset = 0 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> i32\n  llvm.return\n}\n";
        let outcome = process(&config, good, "good.mlir");
        assert!(outcome.success, "{}", outcome.messages);
        assert!(String::from_utf8_lossy(&outcome.output).contains("ptxcc.load_param"));

        let bad = good.replace("alignment = 4 : i64", "alignment = 4 : i16");
        let outcome = process(&config, &bad, "bad.mlir");
        assert!(!outcome.success);
        assert!(
            outcome
                .messages
                .starts_with("bad.mlir:2:8: error: 'ptxcc.load_param' op attribute 'alignment' must be an i64"),
            "{}",
            outcome.messages
        );
        assert!(outcome.output.is_empty());
    }

    #[test]
    fn unknown_ptxcc_ops_are_rejected_by_the_registered_dialect() {
        let outcome = process(&OptConfig::default(), "\"ptxcc.nope\"() : () -> ()\n", "x.mlir");
        assert!(!outcome.success);
        assert!(outcome.messages.contains("unregistered operation 'ptxcc.nope'"), "{}", outcome.messages);
    }
}
