//! `cargo xtask fuzz`: generated modules through the release `ptxcc-opt`,
//! each judged by `test/fuzz/fuzz.py` (success, located refusal, or a
//! failure reduced to a reproducer); with `--cuda`, generated CUDA files
//! through clang, both pipelines and the differential harness, judged by
//! `test/fuzz/fuzz_cuda.py`.

use std::process::Command;

use crate::cli::FuzzOptions;
use crate::{exec, llvm, workspace};

/// Builds the release driver and runs `test/fuzz/fuzz.py` (or, with
/// `--cuda`, `test/fuzz/fuzz_cuda.py`) with `options`.
pub fn run(options: &FuzzOptions) -> Result<(), String> {
    llvm::ensure_llvm(options.install)?;
    let root = workspace::root();
    workspace::build_release_driver()?;
    let out = options.out.clone().unwrap_or_else(|| workspace::target_dir().join("fuzz").display().to_string());
    let script = if options.cuda { "test/fuzz/fuzz_cuda.py" } else { "test/fuzz/fuzz.py" };
    let mut fuzz = Command::new("python3");
    fuzz.arg(root.join(script))
        .arg("--ptxcc-opt")
        .arg(workspace::ptxcc_opt_release())
        .args(["--seed", &options.seed.to_string(), "--count", &options.count.to_string(), "--out", &out])
        // An optimization's internal error fails the run: the release
        // driver's default would be a warning and a fallback.
        .env("PTXCC_FALLBACK", "error")
        .current_dir(&root);
    for config in &options.configs {
        fuzz.args([if options.cuda { "--opt" } else { "--config" }, config]);
    }
    if let Some(jobs) = options.jobs {
        fuzz.args(["--jobs", &jobs.to_string()]);
    }
    println!("xtask: failures, reduced, go to {out}");
    exec::run_streaming(&mut fuzz)
}
