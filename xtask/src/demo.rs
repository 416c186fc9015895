//! `cargo xtask demo`: lower `examples/demo.mlir` all the way to PTX.

use std::path::Path;
use std::process::Command;

use crate::cli::DemoOptions;
use crate::{exec, llvm, nvidia, workspace};

/// The demo input, relative to the workspace root.
const DEMO_INPUT: &str = "examples/demo.mlir";

/// The pass pipeline that ptxcc-opt runs on the demo.
const PIPELINE: &str = "--pass-pipeline=builtin.module(ptxcc-pipeline)";

/// Builds ptxcc-opt, then prints the demo input, the lowered MLIR and the
/// PTX that llc makes from it.
pub fn run(options: &DemoOptions) -> Result<(), String> {
    llvm::ensure_llvm(options.install)?;
    let root = workspace::root();
    let mut build = Command::new(workspace::cargo());
    build.args(["build", "--bin", "ptxcc-opt"]).current_dir(&root);
    exec::run_streaming(&mut build)?;

    let input_path = root.join(DEMO_INPUT);
    let input =
        std::fs::read_to_string(&input_path).map_err(|err| format!("cannot read {}: {err}", input_path.display()))?;
    print_section(&format!("Input: {DEMO_INPUT}"), &input);

    let lowered = lower(&root, &input_path)?;
    print_section("After ptxcc-pipeline", &lowered);

    let ptx = to_ptx(&lowered)?;
    print_section("PTX (llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90)", &ptx);

    // What the GPU runs: NVIDIA's assembler's figures for each function.
    if let Some(tools) = nvidia::ensure(&root, options.install) {
        print_section("SASS figures (ptxas -arch=sm_90 -v)", &assemble(&tools, &ptx)?);
    }
    Ok(())
}

/// Assembles `ptx` with `ptxas -v` from `tools` and returns what it printed
/// about each function (registers, stack frame, spills).
fn assemble(tools: &Path, ptx: &str) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("ptxcc-demo.{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|err| format!("cannot create {}: {err}", dir.display()))?;
    let source = dir.join("demo.ptx");
    std::fs::write(&source, ptx).map_err(|err| format!("cannot write {}: {err}", source.display()))?;
    let mut ptxas = Command::new(tools.join("bin/ptxas"));
    ptxas.args(["-arch=sm_90", "-v", "-c"]).arg(&source).arg("-o").arg(dir.join("demo.cubin"));
    let output = ptxas.output().map_err(|err| format!("could not run ptxas: {err}"));
    let _ = std::fs::remove_dir_all(&dir);
    let output = output?;
    let text = String::from_utf8_lossy(&output.stderr).into_owned();
    if !output.status.success() {
        return Err(format!("ptxas rejects the demo's PTX:\n{text}"));
    }
    Ok(text)
}

/// Runs the ptxcc pipeline on `input_path` and returns the resulting MLIR.
fn lower(root: &Path, input_path: &Path) -> Result<String, String> {
    let mut opt = Command::new(workspace::ptxcc_opt());
    opt.arg(input_path).arg(PIPELINE).current_dir(root);
    exec::run_filter(&mut opt, b"")
}

/// Translates lowered MLIR to LLVM IR and compiles that to PTX.
fn to_ptx(mlir: &str) -> Result<String, String> {
    let mut translate = Command::new(llvm::tool("mlir-translate"));
    translate.arg("--mlir-to-llvmir");
    let llvm_ir = exec::run_filter(&mut translate, mlir.as_bytes())?;
    let mut llc = Command::new(llvm::tool("llc"));
    llc.args(["-mtriple=nvptx64-nvidia-cuda", "-mcpu=sm_90", "-mattr=+ptx80"]);
    exec::run_filter(&mut llc, llvm_ir.as_bytes())
}

/// Prints `body` under a heading.
fn print_section(title: &str, body: &str) {
    let rule = "=".repeat(title.len() + 8);
    println!("\n{rule}\n=== {title} ===\n{rule}");
    print!("{body}");
    if !body.ends_with('\n') {
        println!();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[ignore = "needs LLVM/MLIR 22 installed in /usr/lib/llvm-22"]
    fn llvm_dialect_kernel_becomes_ptx() {
        let mlir = r#"
            module {
              llvm.func @kernel(%arg0: i32) attributes {nvvm.kernel} {
                llvm.return
              }
            }
        "#;
        let ptx = to_ptx(mlir).unwrap();
        assert!(ptx.contains(".entry kernel"), "{ptx}");
        assert!(ptx.contains(".target sm_90"), "{ptx}");
    }

    #[test]
    #[ignore = "needs LLVM/MLIR 22 installed in /usr/lib/llvm-22"]
    fn invalid_mlir_reports_translate_error() {
        let err = to_ptx("this is not mlir").unwrap_err();
        assert!(err.contains("mlir-translate"), "{err}");
    }
}
