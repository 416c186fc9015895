//! Links the plugin against the shared MLIR that `mlir-opt` itself uses.
//!
//! Debian's `libMLIR.so` holds MLIR's C++ libraries but not its C API, and
//! there is no `libMLIR-C.so`; `cargo xtask plugin` makes one from the
//! static `libMLIRCAPI*.a` archives (a second, static MLIR in the same
//! process as `mlir-opt` would have TypeIDs of its own and break dialect and
//! pass registration). This script points the linker at it
//! (`PTXCC_PLUGIN_LIB_DIR`) and records that directory as the plugin's
//! run-time search path.

use std::env;

fn main() {
    println!("cargo:rerun-if-env-changed=PTXCC_PLUGIN_LIB_DIR");
    let Ok(directory) = env::var("PTXCC_PLUGIN_LIB_DIR") else {
        println!(
            "cargo:warning=PTXCC_PLUGIN_LIB_DIR is not set: build the plugin with `cargo xtask plugin`, which makes libMLIR-C.so"
        );
        return;
    };
    println!("cargo:rustc-link-search=native={directory}");
    println!("cargo:rustc-link-arg-cdylib=-Wl,-rpath,{directory}");
    // libMLIR.so itself, for loaders other than mlir-opt (which has it).
    println!("cargo:rerun-if-env-changed=PTXCC_PLUGIN_LLVM_LIB_DIR");
    if let Ok(llvm) = env::var("PTXCC_PLUGIN_LLVM_LIB_DIR") {
        println!("cargo:rustc-link-arg-cdylib=-Wl,-rpath,{llvm}");
    }
}
