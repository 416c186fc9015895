//! ptxcc as an MLIR pass plugin: `mlir-opt --load-pass-plugin=libptxcc_plugin.so
//! --pass-pipeline='builtin.module(gpu.module(ptxcc-pipeline))'`.
//!
//! MLIR's plugin loader calls [`mlirGetPassPluginInfo`], then the callback
//! it returns, which registers every ptxcc pass by name with its options
//! (the same registry entries `ptxcc-opt` uses). Each pass loads the `ptxcc`
//! dialect into the tool's context when the pass manager initialises it.
//! Build it with `cargo xtask plugin` (see docs/guide/mlir-gpu.md).

use std::ffi::c_char;

/// `mlir::PassPluginLibraryInfo` (`mlir/Tools/Plugins/PassPlugin.h`).
#[repr(C)]
pub struct PassPluginLibraryInfo {
    /// `MLIR_PLUGIN_API_VERSION`.
    pub api_version: u32,
    /// The plugin's name.
    pub plugin_name: *const c_char,
    /// The plugin's version.
    pub plugin_version: *const c_char,
    /// Registers the plugin's passes.
    pub register_pass_registry_callbacks: extern "C" fn(),
}

/// `MLIR_PLUGIN_API_VERSION` in MLIR 22.
const MLIR_PLUGIN_API_VERSION: u32 = 1;

extern "C" fn register() {
    // A panic must not unwind into MLIR's C++ loader.
    let _ = std::panic::catch_unwind(ptxcc::register_ptxcc_passes);
}

/// The entry point MLIR's `PassPlugin::Load` looks up.
#[no_mangle]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: MLIR_PLUGIN_API_VERSION,
        plugin_name: c"ptxcc".as_ptr(),
        plugin_version: concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast(),
        register_pass_registry_callbacks: register,
    }
}
