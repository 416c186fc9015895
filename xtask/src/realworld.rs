//! `cargo xtask realworld`: public GPU code through the release
//! `ptxcc-opt`: every module of NVIDIA Warp (scripts/warp_corpus.py), its
//! pipeline, ptxas, stack and spills against llc alone, and the
//! differential-execution harness.

use std::process::Command;

use crate::cli::RealworldOptions;
use crate::warp::{self, Corpus};
use crate::{exec, llvm, nvidia, workspace};

/// Builds the release driver, sets up NVIDIA's tools and Warp's corpus,
/// and runs the whole corpus.
pub fn run(options: &RealworldOptions) -> Result<(), String> {
    llvm::ensure_llvm(options.install)?;
    let root = workspace::root();
    workspace::build_release_driver()?;
    let nvidia = nvidia::ensure(&root, options.install).ok_or("NVIDIA's ptxas is needed and not available")?;
    warp::ensure(&root, options.install, Corpus::Full).ok_or("NVIDIA Warp's corpus is needed and not available")?;
    let out = options.out.clone().unwrap_or_else(|| workspace::target_dir().join("warp").display().to_string());
    let mut corpus = Command::new("python3");
    corpus
        .arg(root.join(warp::SCRIPT))
        .args(["run", "--all", "--ptxcc-opt"])
        .arg(workspace::ptxcc_opt_release())
        .args(["--out", &out])
        .current_dir(&root)
        .env("PTXCC_NVIDIA", nvidia);
    if let Some(jobs) = options.jobs {
        corpus.args(["--jobs", &jobs.to_string()]);
    }
    for opt in &options.opts {
        corpus.args(["--opt", &opt.to_string()]);
    }
    if !options.diffexec {
        corpus.arg("--no-diffexec");
    }
    println!("xtask: the failing modules' files go to {out}");
    exec::run_streaming(&mut corpus)
}
