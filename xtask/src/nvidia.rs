//! NVIDIA's `ptxas`, `nvdisasm` and `nvcc`, from PyPI (scripts/nvidia_tools.py).
//!
//! The tests judge ptxcc's PTX by what NVIDIA's assembler makes of it. The
//! tools are downloaded once into a cache outside the checkout; without them
//! (PyPI unreachable, `--no-install`) the tests that need them report
//! UNSUPPORTED, which this step says loudly instead of failing.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::exec;

/// The script that downloads, unpacks and finds the tools.
const SCRIPT: &str = "scripts/nvidia_tools.py";

/// Sets the tools up (downloading them unless `install` is false) and
/// returns their root, or `None` with a warning printed when they are not
/// available. Never an error: only the ptxas-gated tests need them.
pub fn ensure(root: &Path, install: bool) -> Option<PathBuf> {
    let mut cmd = Command::new("python3");
    cmd.arg(root.join(SCRIPT)).arg("ensure").current_dir(root);
    if !install {
        cmd.arg("--offline");
    }
    match exec::run_filter(&mut cmd, b"") {
        Ok(out) => {
            let tools = PathBuf::from(out.trim());
            println!("xtask: NVIDIA's tools in {}", tools.display());
            Some(tools)
        }
        Err(err) => {
            eprintln!(
                "xtask: warning: NVIDIA's ptxas, nvdisasm and nvcc are not available; the tests that need them \
                 will be UNSUPPORTED:\n{err}"
            );
            None
        }
    }
}
