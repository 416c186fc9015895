//! LLVM IR in, PTX out, in process: what a CUDA user needs to run ptxcc on
//! clang's output and get PTX back from one tool.
//!
//! ```text
//! clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -O2 -emit-llvm -c k.cu -o - \
//!   | ptxcc-opt - --ptxcc-pipeline --emit=ptx -o k.ptx
//! ```
//!
//! * [`input_kind`] tells MLIR text, MLIR bytecode and LLVM IR (text or
//!   bitcode) apart, by the file's extension or its first bytes.
//! * [`import_llvm_ir`] imports LLVM IR the way `mlir-translate
//!   --import-llvm` does, but keeps `__grid_constant__` (the
//!   `"nvvm.grid_constant"` parameter attribute, which the importer drops)
//!   and kernels marked the old way (`!nvvm.annotations`, which LLVM's
//!   parser upgrades).
//! * [`emit_ptx`] runs LLVM's NVPTX backend for the chip and PTX version the
//!   passes used ([`ptx_target`]), as `mlir-translate --mlir-to-llvmir | llc
//!   -mcpu=CHIP -mattr=+ptxNN` would; [`emit_gpu_modules_ptx`] compiles
//!   each `gpu.module` of an MLIR GPU program for its `#nvvm.target`s, as
//!   `gpu-module-to-binary{format=isa}` does.

use melior::{
    ir::{operation::OperationLike, Module, OperationRef},
    Context,
};
use ptxcc_conversions::ir::LlvmOp;
use ptxcc_conversions::{
    abi::{
        signature::{function_target, nvvm_targets},
        target::Target,
    },
    ir::{body_ops, op_name},
};

use crate::shim;

/// What an input holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// MLIR text.
    MlirText,
    /// MLIR bytecode (`mlir-opt --emit-bytecode`).
    MlirBytecode,
    /// LLVM IR, text (`.ll`) or bitcode (`.bc`).
    Llvm,
}

/// How the driver is told what the input is (`--input-format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputFormat {
    /// From the file's extension, else from its first bytes.
    #[default]
    Auto,
    /// MLIR, text or bytecode.
    Mlir,
    /// LLVM IR, text or bitcode.
    Llvm,
}

/// The first bytes of LLVM bitcode, bare (`BC\xc0\xde`) and in its wrapper
/// (`0x0B17C0DE`, little-endian).
const BITCODE_MAGICS: [&[u8]; 2] = [b"BC\xc0\xde", b"\xde\xc0\x17\x0b"];

/// What `input`, read from `filename`, holds under `format`: `.ll`/`.bc`
/// files and bitcode are LLVM IR, `.mlir`/`.mlirbc` files and MLIR bytecode
/// are MLIR; other text is LLVM IR when its first line that is not blank
/// starts the way LLVM IR does (`;`, `target`, `source_filename`, `define`,
/// `declare`, `@`, `%`, `attributes`), and MLIR otherwise.
pub fn input_kind(format: InputFormat, input: &[u8], filename: &str) -> InputKind {
    let bytecode = crate::opt::is_bytecode(input);
    let mlir = if bytecode { InputKind::MlirBytecode } else { InputKind::MlirText };
    match format {
        InputFormat::Mlir => return mlir,
        InputFormat::Llvm => return InputKind::Llvm,
        InputFormat::Auto => {}
    }
    let extension = std::path::Path::new(filename).extension().and_then(|e| e.to_str()).unwrap_or_default();
    match extension {
        "ll" | "bc" => return InputKind::Llvm,
        "mlir" | "mlirbc" => return mlir,
        _ => {}
    }
    if bytecode {
        return InputKind::MlirBytecode;
    }
    if BITCODE_MAGICS.iter().any(|magic| input.starts_with(magic)) {
        return InputKind::Llvm;
    }
    let first_line = input
        .split(|&b| b == b'\n')
        .map(|line| String::from_utf8_lossy(line).trim().to_string())
        .find(|line| !line.is_empty())
        .unwrap_or_default();
    let starts_llvm = [";", "target ", "source_filename", "define ", "declare ", "@", "%", "attributes "]
        .iter()
        .any(|prefix| first_line.starts_with(prefix));
    if starts_llvm {
        InputKind::Llvm
    } else {
        InputKind::MlirText
    }
}

/// Imports `source` (LLVM IR text or bitcode, read from `filename`) into a
/// module of the LLVM dialect in `context`, keeping `nvvm.grid_constant`
/// parameters; `None` after reporting the problem (with its line and column
/// for a parse error) as a diagnostic.
pub fn import_llvm_ir<'c>(context: &'c Context, source: &[u8], filename: &str) -> Option<Module<'c>> {
    ptxcc_conversions::ir::import_llvm_ir(context, source, filename)
}

/// The values of every `chip=` and `ptx=` option in `pipeline` (MLIR's
/// textual pipeline): what `--emit=ptx` compiles for when the passes were
/// told. `chip=auto` and `ptx=0` name nothing; two different values are an
/// error (the PTX is for one target).
pub fn pipeline_target_options(pipeline: &str) -> Result<(Option<String>, Option<u32>), String> {
    let mut chip: Option<String> = None;
    let mut ptx: Option<u32> = None;
    let tokens = pipeline.split(|c: char| c.is_whitespace() || matches!(c, '{' | '}' | ',' | '(' | ')'));
    for token in tokens {
        let Some((name, value)) = token.split_once('=') else { continue };
        let value = value.trim_matches(|c| c == '"' || c == '\'');
        match name {
            "chip" if value != "auto" => {
                if chip.as_deref().is_some_and(|known| known != value) {
                    return Err(format!(
                        "the passes name two chips ({} and {value}); --emit=ptx compiles for one",
                        chip.unwrap_or_default()
                    ));
                }
                chip = Some(value.to_string());
            }
            "ptx" if value != "0" => {
                let version: u32 = value.parse().map_err(|_| format!("ptx={value} is not a PTX version times ten"))?;
                if ptx.is_some_and(|known| known != version) {
                    return Err(format!(
                        "the passes name two PTX versions ({} and {version}); --emit=ptx compiles for one",
                        ptx.unwrap_or_default()
                    ));
                }
                ptx = Some(version);
            }
            _ => {}
        }
    }
    Ok((chip, ptx))
}

/// The target `--emit=ptx` compiles `module` for: the pipeline's `chip` and
/// `ptx` where it names them, else those of the module's first function
/// (its `target_cpu` and `+ptxNN` feature, as clang writes them), else
/// ptxcc's default chip at its minimum PTX version: the same rule the passes
/// decide by ([`Target::resolve`]).
pub fn ptx_target(module: &Module, pipeline: Option<&str>) -> Result<Target, String> {
    target_of_functions(module.as_operation(), pipeline)
}

/// [`ptx_target`]'s rule on the functions directly inside `op` (a
/// `builtin.module` or a `gpu.module`).
fn target_of_functions(op: OperationRef, pipeline: Option<&str>) -> Result<Target, String> {
    let (chip, ptx) = pipeline.map(pipeline_target_options).transpose()?.unwrap_or_default();
    let first_function = body_ops(op).into_iter().find(|op| LlvmOp::of(*op) == LlvmOp::Func);
    let target = match first_function {
        Some(function) => function_target(function, chip.as_deref(), ptx),
        None => Target::resolve(chip.as_deref(), ptx, None, None),
    };
    target.map_err(|error| error.to_string())
}

/// Compiles `module` to PTX for `target` with LLVM's NVPTX backend, as
/// `llc` would; `Err(None)` after reporting the problem as a diagnostic.
/// A module that holds `gpu.module`s is compiled by [`emit_gpu_modules_ptx`]
/// instead.
pub fn emit_ptx(module: &Module, target: &Target) -> Result<String, Option<String>> {
    let features = format!("+ptx{}", target.ptx);
    match shim::emit_ptx(module.as_operation().to_raw(), &target.chip, &features, 0) {
        Some(text) => Ok(String::from_utf8_lossy(&text).into_owned()),
        None => Err(None),
    }
}

/// The `gpu.module` ops at the top of `module` (what an MLIR GPU compiler
/// hands over, beside its host code).
pub fn gpu_modules<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
    body_ops(module.as_operation()).into_iter().filter(|op| op_name(*op) == "gpu.module").collect()
}

/// The PTX of every `gpu.module` of `module`, one after another, as
/// `gpu-module-to-binary{format=isa}` makes it: for each of its
/// `#nvvm.target`s, LLVM's optimizer at the target's `O` level, then the
/// NVPTX backend for its `chip` and `features` (without `+ptxNN`, the chip's
/// minimum PTX version). A `gpu.module` without an NVVM target is compiled
/// as a module of LLVM functions is ([`ptx_target`]: the pipeline's `chip`
/// and `ptx`, else its first function's, else `sm_90`), without the
/// optimizer. Each PTX text starts with a header line, a PTX comment that
/// `ptxas` ignores (`// ptxcc-opt: gpu.module @NAME, #nvvm.target 1 of 2:
/// sm_90, +ptx80, O = 2`); host code is left out.
pub fn emit_gpu_modules_ptx(module: &Module, pipeline: Option<&str>) -> Result<String, Option<String>> {
    let mut text = String::new();
    for gpu_module in gpu_modules(module) {
        let name = gpu_module
            .attribute("sym_name")
            .ok()
            .and_then(ptxcc_conversions::ir::string_value)
            .unwrap_or_else(|| "?".into());
        let targets = nvvm_targets(gpu_module);
        let mut builds: Vec<(String, String, String, u32)> = Vec::new();
        if targets.is_empty() {
            let target = target_of_functions(gpu_module, pipeline).map_err(Some)?;
            let features = format!("+ptx{}", target.ptx);
            builds.push((format!("no #nvvm.target: {}, {features}, O = 0", target.chip), target.chip, features, 0));
        }
        let count = targets.len();
        for (index, target) in targets.into_iter().enumerate() {
            let resolved = Target::resolve(None, None, Some(&target.chip), Some(&target.features))
                .map_err(|error| Some(format!("gpu.module @{name}: {error}")))?;
            let features =
                if target.features.is_empty() { format!("+ptx{}", resolved.ptx) } else { target.features.join(",") };
            let header =
                format!("#nvvm.target {} of {count}: {}, {features}, O = {}", index + 1, target.chip, target.opt_level);
            builds.push((header, target.chip, features, target.opt_level));
        }
        for (header, chip, features, opt_level) in builds {
            let ptx = shim::emit_ptx(gpu_module.to_raw(), &chip, &features, opt_level).ok_or(None)?;
            text.push_str(&format!("// ptxcc-opt: gpu.module @{name}, {header}\n"));
            text.push_str(&String::from_utf8_lossy(&ptx));
        }
    }
    Ok(text)
}

/// For drivers: turns LLVM's fatal errors, which abort the process with a
/// stack dump (`llc` does: a backend that cannot select an instruction, an
/// unsupported library call), into `<input>: error: <reason>` on standard
/// error and exit status 1. Process-wide: call it once, before any work, and
/// not from a library that shares the process with other LLVM users.
pub fn exit_on_llvm_fatal_error(input_name: &str) {
    let prefix = format!("{input_name}: ");
    shim::exit_on_fatal_error(&prefix);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case(InputFormat::Auto, b"module {}".as_slice(), "k.mlir", InputKind::MlirText)]
    #[case(InputFormat::Auto, b"; ModuleID = 'k'".as_slice(), "k.mlir", InputKind::MlirText)]
    #[case(InputFormat::Auto, b"module {}".as_slice(), "k.ll", InputKind::Llvm)]
    #[case(InputFormat::Auto, b"BC\xc0\xde\x35".as_slice(), "<stdin>", InputKind::Llvm)]
    #[case(InputFormat::Auto, b"\xde\xc0\x17\x0b\x00".as_slice(), "<stdin>", InputKind::Llvm)]
    #[case(InputFormat::Auto, b"ML\xefR\x00".as_slice(), "<stdin>", InputKind::MlirBytecode)]
    #[case(InputFormat::Auto, b"\n; ModuleID = 'k.cu'\n".as_slice(), "<stdin>", InputKind::Llvm)]
    #[case(InputFormat::Auto, b"target datalayout = \"e\"".as_slice(), "x", InputKind::Llvm)]
    #[case(InputFormat::Auto, b"define void @f() {\n".as_slice(), "x", InputKind::Llvm)]
    #[case(InputFormat::Auto, b"%s = type { i32 }".as_slice(), "x", InputKind::Llvm)]
    #[case(InputFormat::Auto, b"// RUN: x\nllvm.func @f()".as_slice(), "<stdin>", InputKind::MlirText)]
    #[case(InputFormat::Auto, b"!s = !llvm.struct<(i32)>".as_slice(), "<stdin>", InputKind::MlirText)]
    #[case(InputFormat::Auto, b"".as_slice(), "<stdin>", InputKind::MlirText)]
    #[case(InputFormat::Llvm, b"module {}".as_slice(), "k.mlir", InputKind::Llvm)]
    #[case(InputFormat::Mlir, b"define void @f()".as_slice(), "k.ll", InputKind::MlirText)]
    #[case(InputFormat::Mlir, b"ML\xefR".as_slice(), "k.ll", InputKind::MlirBytecode)]
    fn tells_inputs_apart(
        #[case] format: InputFormat,
        #[case] input: &[u8],
        #[case] filename: &str,
        #[case] expected: InputKind,
    ) {
        assert_eq!(input_kind(format, input, filename), expected);
    }

    #[rstest]
    #[case("builtin.module(ptxcc-pipeline)", Ok((None, None)))]
    #[case("builtin.module(ptxcc-pipeline{chip=sm_80 ptx=78})", Ok((Some("sm_80"), Some(78))))]
    #[case("builtin.module(ptxcc-pipeline{chip=auto ptx=0})", Ok((None, None)))]
    #[case("builtin.module(lower-struct-args{chip=sm_70},lower-alloca{chip=sm_70 ptx=75})", Ok((Some("sm_70"), Some(75))))]
    #[case("builtin.module(lower-struct-args{chip=sm_70},lower-alloca{chip=sm_80})", Err(()))]
    #[case("builtin.module(lower-struct-args{ptx=80},lower-alloca{ptx=81})", Err(()))]
    #[case("builtin.module(lower-struct-args{ptx=eighty})", Err(()))]
    fn reads_the_target_the_passes_were_given(
        #[case] pipeline: &str,
        #[case] expected: Result<(Option<&str>, Option<u32>), ()>,
    ) {
        let found = pipeline_target_options(pipeline).map_err(|_| ());
        assert_eq!(found, expected.map(|(chip, ptx)| (chip.map(str::to_string), ptx)));
    }
}
