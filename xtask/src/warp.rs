//! NVIDIA Warp's kernels, public GPU code, as a test corpus
//! (scripts/warp_corpus.py).
//!
//! `warp-lang` and numpy come from PyPI, pinned by sha256, into the cache
//! NVIDIA's tools use; Warp then generates the CUDA C++ of its modules
//! without a GPU. Without them (PyPI unreachable, `--no-install`) the lit
//! test that needs them reports UNSUPPORTED, which this step says loudly
//! instead of failing.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::exec;

/// The script that installs Warp, generates and checks the corpus.
pub const SCRIPT: &str = "scripts/warp_corpus.py";

/// Which modules to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corpus {
    /// The lit test's fixed sample (seconds to generate).
    Sample,
    /// Every module (minutes to generate, once).
    Full,
}

/// Installs Warp (downloading it unless `install` is false) and generates
/// `corpus` into the cache if missing; returns the corpus folder, or
/// `None` with a warning printed when it is not available. Never an error:
/// only the Warp test needs it.
pub fn ensure(root: &Path, install: bool, corpus: Corpus) -> Option<PathBuf> {
    let script = |command: &str| {
        let mut cmd = Command::new("python3");
        cmd.arg(root.join(SCRIPT)).arg(command).current_dir(root);
        if !install {
            cmd.arg("--offline");
        }
        if command == "generate" && corpus == Corpus::Sample {
            cmd.arg("--sample");
        }
        exec::run_filter(&mut cmd, b"")
    };
    match script("ensure").and_then(|_| script("generate")) {
        Ok(out) => {
            let folder = PathBuf::from(out.trim());
            println!("xtask: NVIDIA Warp's generated CUDA in {}", folder.display());
            Some(folder)
        }
        Err(err) => {
            eprintln!(
                "xtask: warning: NVIDIA Warp's corpus is not available; the tests that need it will be \
                 UNSUPPORTED:\n{err}"
            );
            None
        }
    }
}
