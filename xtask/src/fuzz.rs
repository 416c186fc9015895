//! `cargo xtask fuzz`: generated modules through the release `ptxcc-opt`,
//! each judged by `test/fuzz/fuzz.py` (success, located refusal, or a
//! failure reduced to a reproducer).

use std::process::Command;

use crate::cli::FuzzOptions;
use crate::{exec, llvm, workspace};

/// Builds the release driver and runs `test/fuzz/fuzz.py` with `options`.
pub fn run(options: &FuzzOptions) -> Result<(), String> {
    llvm::ensure_llvm(options.install)?;
    let root = workspace::root();
    exec::run_streaming(
        Command::new(workspace::cargo())
            .args(["build", "--release", "-p", "ptxcc", "--bin", "ptxcc-opt"])
            .current_dir(&root),
    )?;
    let out = options.out.clone().unwrap_or_else(|| workspace::target_dir().join("fuzz").display().to_string());
    let mut fuzz = Command::new("python3");
    fuzz.arg(root.join("test/fuzz/fuzz.py"))
        .arg("--ptxcc-opt")
        .arg(workspace::ptxcc_opt_release())
        .args(["--seed", &options.seed.to_string(), "--count", &options.count.to_string(), "--out", &out])
        .current_dir(&root);
    for config in &options.configs {
        fuzz.args(["--config", config]);
    }
    if let Some(jobs) = options.jobs {
        fuzz.args(["--jobs", &jobs.to_string()]);
    }
    println!("xtask: failures, reduced, go to {out}");
    exec::run_streaming(&mut fuzz)
}
