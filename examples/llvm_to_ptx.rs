//! LLVM IR in, PTX out, in one process: import clang's `.ll` (or `.bc`),
//! run ptxcc's pipeline and compile with LLVM's NVPTX backend, as
//! `ptxcc-opt FILE.ll --ptxcc-pipeline --emit=ptx` does.
//!
//! `cargo run --example llvm_to_ptx -- FILE.ll` (without a file: a small
//! built-in kernel)

use melior::pass::PassManager;
use ptxcc::{llvm, PipelineOptions};

/// `__global__ void first(int *out, S s) { *out = s.a[1]; }` with
/// `struct S { int a[4]; }`, as clang -O2 emits it.
const KERNEL: &str = r#"
target triple = "nvptx64-nvidia-cuda"
%struct.S = type { [4 x i32] }
define ptx_kernel void @first(ptr %out, ptr byval(%struct.S) align 4 %s) "target-cpu"="sm_90" "target-features"="+ptx80" {
  %p = getelementptr inbounds i8, ptr %s, i64 4
  %v = load i32, ptr %p, align 4
  store i32 %v, ptr %out, align 4
  ret void
}
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (source, name) = match std::env::args().nth(1) {
        Some(path) => (std::fs::read(&path)?, path),
        None => (KERNEL.as_bytes().to_vec(), "kernel.ll".to_string()),
    };
    let context = ptxcc::create_context()?;
    let mut module = llvm::import_llvm_ir(&context, &source, &name).ok_or("the LLVM IR does not import")?;

    let pm = PassManager::new(&context);
    ptxcc::add_pipeline(&pm, &PipelineOptions::default())?;
    pm.run(&mut module)?;

    // The chip and PTX version of the functions (`target-cpu`,
    // `target-features`), as the passes decided for.
    let target = llvm::ptx_target(&module, None)?;
    let ptx = llvm::emit_ptx(&module, &target)
        .map_err(|reason| reason.unwrap_or_else(|| "the NVPTX backend failed (see the diagnostics)".into()))?;
    print!("{ptx}");
    Ok(())
}
