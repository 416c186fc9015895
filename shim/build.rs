//! Compiles the C++ shim (`cpp/ptxcc_shim.cpp`, `cpp/ptxcc_llvm.cpp`) against the MLIR 22
//! headers. See that file for why each of its functions exists.

use std::{env, process::Command};

fn main() {
    println!("cargo:rerun-if-changed=cpp/ptxcc_shim.cpp");
    println!("cargo:rerun-if-changed=cpp/ptxcc_llvm.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let cxxflags = Command::new(format!("{prefix}/bin/llvm-config"))
        .arg("--cxxflags")
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
        .unwrap_or_else(|| format!("-I{prefix}/include -std=c++17 -fno-exceptions -fno-rtti"));
    let mut build = cc::Build::new();
    build.cpp(true).file("cpp/ptxcc_shim.cpp").file("cpp/ptxcc_llvm.cpp").warnings(false);
    for flag in cxxflags.split_whitespace() {
        // Keep the include path, language level and ABI flags; let cc choose
        // optimisation and debug flags.
        if !(flag.starts_with("-O") || flag.starts_with("-g") || flag.starts_with("-W")) {
            build.flag(flag);
        }
    }
    build.compile("ptxcc_shim");
}
