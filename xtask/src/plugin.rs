//! `cargo xtask plugin`: ptxcc's passes as an MLIR pass plugin that C++ tools
//! built on the shared `libMLIR.so` (Debian's `mlir-opt`) load with
//! `--load-pass-plugin`.
//!
//! The plugin must share the tool's MLIR: a second, static copy in the same
//! process would have TypeIDs of its own. Debian's `libMLIR.so` does not
//! export MLIR's C API, which melior needs, and no `libMLIR-C.so` ships; so
//! this command makes one from the static `libMLIRCAPI*.a` archives (about a
//! second), then builds the `ptxcc-plugin` crate with `mlir-sys` in shared
//! mode (`MLIR_SYS_LINK_SHARED=1`: `-lMLIR -lMLIR-C`) in its own target
//! directory, so that the static driver's build is left alone.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

use crate::{exec, llvm, workspace};

/// Builds the plugin and returns its path.
pub fn build(install: bool) -> Result<PathBuf, String> {
    llvm::ensure_llvm(install)?;
    let target = workspace::target_dir().join("plugin");
    let lib_dir = target.join("lib");
    fs::create_dir_all(&lib_dir).map_err(|e| format!("cannot create {}: {e}", lib_dir.display()))?;
    let llvm_lib = llvm_lib_dir();
    make_c_api_library(&llvm_lib, &lib_dir)?;
    exec::run_streaming(
        Command::new(workspace::cargo())
            .args(["build", "--release", "-p", "ptxcc-plugin"])
            .current_dir(workspace::root())
            .env("MLIR_SYS_LINK_SHARED", "1")
            .env("PTXCC_PLUGIN_LIB_DIR", &lib_dir)
            .env("PTXCC_PLUGIN_LLVM_LIB_DIR", &llvm_lib)
            .env("CARGO_TARGET_DIR", &target),
    )?;
    let plugin = target.join("release").join("libptxcc_plugin.so");
    if !plugin.is_file() {
        return Err(format!("the plugin was not built at {}", plugin.display()));
    }
    Ok(plugin)
}

/// `cargo xtask plugin`: builds the plugin and prints its path last.
pub fn run(install: bool) -> Result<(), String> {
    let plugin = build(install)?;
    println!("{}", plugin.display());
    Ok(())
}

/// LLVM 22's library directory.
fn llvm_lib_dir() -> PathBuf {
    llvm::tool("llvm-config").parent().and_then(Path::parent).map(|p| p.join("lib")).unwrap_or_default()
}

/// Links every `libMLIRCAPI*.a` of `llvm_lib` into `lib_dir/libMLIR-C.so`
/// against the shared `libMLIR.so` and `libLLVM.so`, unless it is there and
/// newer than the archives.
fn make_c_api_library(llvm_lib: &Path, lib_dir: &Path) -> Result<(), String> {
    let output = lib_dir.join("libMLIR-C.so");
    let mut archives: Vec<PathBuf> = fs::read_dir(llvm_lib)
        .map_err(|e| format!("cannot read {}: {e}", llvm_lib.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|name| name.starts_with("libMLIRCAPI") && name.ends_with(".a"))
        })
        .collect();
    archives.sort();
    if archives.is_empty() {
        return Err(format!("no libMLIRCAPI*.a in {}: is libmlir-22-dev installed?", llvm_lib.display()));
    }
    let modified = |path: &Path| fs::metadata(path).and_then(|m| m.modified()).ok();
    let newest_archive = archives.iter().filter_map(|a| modified(a)).max();
    if modified(&output).is_some_and(|built| newest_archive.is_none_or(|newest| built >= newest)) {
        return Ok(());
    }
    let compiler = exec::find_in_path("c++").unwrap_or_else(|| llvm::tool("clang++"));
    let mut link = Command::new(compiler);
    link.arg("-shared").arg("-o").arg(&output).arg("-Wl,--whole-archive");
    link.args(&archives);
    link.arg("-Wl,--no-whole-archive").arg(format!("-L{}", llvm_lib.display())).args(["-lMLIR", "-lLLVM"]);
    println!("xtask: making {} from {} C API archives", output.display(), archives.len());
    exec::run_streaming(&mut link)
}
