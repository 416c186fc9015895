//! Locations inside the workspace and the cargo that runs xtask.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The workspace root: the parent of this crate's manifest directory.
pub fn root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// The cargo binary to use for nested builds: `$CARGO` (set by cargo for the
/// binaries it runs), falling back to `cargo` on `PATH`.
pub fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"))
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` if set (a relative value
/// is taken relative to the current directory, as cargo does), else
/// `<root>/target`.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR").filter(|dir| !dir.is_empty()) {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                std::env::current_dir().map(|cwd| cwd.join(&dir)).unwrap_or(dir)
            }
        }
        None => root().join("target"),
    }
}

/// The debug build of the `ptxcc-opt` driver.
pub fn ptxcc_opt() -> PathBuf {
    target_dir().join("debug").join("ptxcc-opt")
}

/// The optimised driver (`cargo build --release`).
pub fn ptxcc_opt_release() -> PathBuf {
    target_dir().join("release").join("ptxcc-opt")
}

/// Builds [`ptxcc_opt_release`] (what `test`, `fuzz` and `realworld` run).
pub fn build_release_driver() -> Result<(), String> {
    crate::exec::run_streaming(
        std::process::Command::new(cargo())
            .args(["build", "--release", "-p", "ptxcc", "--bin", "ptxcc-opt"])
            .current_dir(root()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_holds_the_workspace_manifest() {
        assert!(root().join("Cargo.toml").is_file());
        assert!(root().join("xtask").is_dir());
    }

    #[test]
    fn driver_lives_in_debug_dir() {
        assert!(ptxcc_opt().ends_with("debug/ptxcc-opt"));
    }
}
