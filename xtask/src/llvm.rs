//! Checking for, and installing, the LLVM/MLIR 22 toolchain from Debian.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::exec;

/// Where Debian's LLVM 22 packages install everything.
pub const PREFIX: &str = "/usr/lib/llvm-22";

/// Debian packages that provide everything [`requirements`] checks for.
const APT_PACKAGES: &[&str] = &[
    "libmlir-22-dev",
    "mlir-22-tools",
    "llvm-22-dev",
    "llvm-22-tools",
    "libclang-22-dev",
    "clang-22",
    "libpolly-22-dev",
    "libzstd-dev",
    "libz3-dev",
    "libxml2-dev",
    "zlib1g-dev",
    "python3",
    // memcheck runs the driver under it (test/memcheck).
    "valgrind",
];

/// Tools from `<PREFIX>/bin` that the build and the tests use.
const TOOLS: &[&str] = &["llvm-config", "mlir-opt", "mlir-translate", "FileCheck", "llc", "clang", "not", "lit"];

/// How a missing requirement is handled once installing is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Nothing works without it: fail.
    Required,
    /// Only some tests use it: warn and go on.
    Optional,
    /// The lit test runner: fall back to a Python-installed lit.
    Lit,
}

/// What kind of filesystem entry satisfies a requirement.
#[derive(Debug)]
enum Check {
    /// An executable file.
    Executable(PathBuf),
    /// A regular file.
    File(PathBuf),
    /// A directory.
    Dir(PathBuf),
    /// Any `libclang*.so*` in the directory (bindgen loads it at build time).
    LibClang(PathBuf),
}

/// One thing the toolchain must provide.
#[derive(Debug)]
struct Requirement {
    /// How the requirement is checked.
    check: Check,
    /// What happens when it is missing.
    role: Role,
}

impl Requirement {
    /// Whether the requirement is met on this machine.
    fn is_met(&self) -> bool {
        match &self.check {
            Check::Executable(path) => exec::is_executable(path),
            Check::File(path) => path.is_file(),
            Check::Dir(path) => path.is_dir(),
            Check::LibClang(dir) => has_libclang(dir),
        }
    }

    /// A human-readable name of what is checked.
    fn describe(&self) -> String {
        match &self.check {
            Check::Executable(path) | Check::File(path) => path.display().to_string(),
            Check::Dir(path) => format!("{}/ (directory)", path.display()),
            Check::LibClang(dir) => format!("{}/libclang*.so*", dir.display()),
        }
    }
}

/// The resolved toolchain, ready to run the tests with.
#[derive(Debug)]
pub struct Toolchain {
    /// Program and leading arguments that start lit.
    lit: Vec<OsString>,
}

impl Toolchain {
    /// A command that runs lit; append lit's own arguments to it.
    pub fn lit_command(&self) -> Command {
        let mut cmd = Command::new(&self.lit[0]);
        cmd.args(&self.lit[1..]);
        cmd
    }
}

/// Path of a tool in LLVM 22's `bin` directory.
pub fn tool(name: &str) -> PathBuf {
    Path::new(PREFIX).join("bin").join(name)
}

/// Makes sure LLVM/MLIR 22 and the libraries the build links are present.
///
/// Anything missing is listed; with `install` the Debian packages are then
/// installed with apt-get, otherwise (or if they still are missing) this
/// fails. A missing `not` only warns; a missing `lit` falls back to a lit
/// installed with pip.
pub fn ensure_llvm(install: bool) -> Result<Toolchain, String> {
    println!("xtask: checking for LLVM/MLIR 22 in {PREFIX}");
    let mut missing = missing_requirements();
    if !missing.is_empty() {
        print_missing(&missing);
        if install {
            install_packages()?;
            missing = missing_requirements();
        }
    }
    let required: Vec<&Requirement> = missing.iter().filter(|req| req.role == Role::Required).collect();
    if !required.is_empty() {
        return Err(missing_error(&required, install));
    }
    for req in missing.iter().filter(|req| req.role == Role::Optional) {
        eprintln!("xtask: warning: {} is missing; lit tests that use it will fail", req.describe());
    }
    let lit_missing = missing.iter().any(|req| req.role == Role::Lit);
    let lit = if lit_missing { fallback_lit(install)? } else { vec![tool("lit").into_os_string()] };
    println!("xtask: LLVM/MLIR 22 found");
    Ok(Toolchain { lit })
}

/// Everything the build and the tests need from the system.
fn requirements() -> Vec<Requirement> {
    let prefix = Path::new(PREFIX);
    let required = |check| Requirement { check, role: Role::Required };
    let mut reqs: Vec<Requirement> = TOOLS
        .iter()
        .map(|name| Requirement {
            check: Check::Executable(tool(name)),
            role: match *name {
                "not" => Role::Optional,
                "lit" => Role::Lit,
                _ => Role::Required,
            },
        })
        .collect();
    reqs.extend([
        required(Check::File(prefix.join("include/mlir-c/IR.h"))),
        required(Check::File(prefix.join("lib/libMLIRCAPIIR.a"))),
        required(Check::LibClang(prefix.join("lib"))),
        required(Check::File(PathBuf::from("/usr/include/zstd.h"))),
        required(Check::File(PathBuf::from("/usr/include/z3.h"))),
        required(Check::Dir(PathBuf::from("/usr/include/libxml2"))),
        required(Check::File(PathBuf::from("/usr/include/zlib.h"))),
        required(Check::Executable(PathBuf::from("/usr/bin/valgrind"))),
    ]);
    reqs
}

/// The requirements that this machine does not meet.
fn missing_requirements() -> Vec<Requirement> {
    requirements().into_iter().filter(|req| !req.is_met()).collect()
}

/// Whether `dir` holds a `libclang*.so*` shared library.
fn has_libclang(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|entry| {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        name.starts_with("libclang") && name.contains(".so")
    })
}

/// Lists missing requirements on stdout.
fn print_missing(missing: &[Requirement]) {
    println!("xtask: missing from this machine:");
    for req in missing {
        println!("  {}", req.describe());
    }
}

/// The error for required pieces that are (still) missing.
fn missing_error(missing: &[&Requirement], install: bool) -> String {
    let list: Vec<String> = missing.iter().map(|req| req.describe()).collect();
    let hint =
        if install { "even after installing the packages" } else { "and --no-install was given; install them with" };
    format!(
        "LLVM/MLIR 22 is incomplete: {} missing, {hint}:\n  apt-get install {}",
        list.join(", "),
        APT_PACKAGES.join(" ")
    )
}

/// Installs [`APT_PACKAGES`] with apt-get, through sudo when not root.
fn install_packages() -> Result<(), String> {
    println!("xtask: installing LLVM/MLIR 22 from Debian packages");
    exec::run_streaming(&mut apt_get(&["update"])).map_err(|err| format!("apt-get update failed: {err}"))?;
    let mut install_args = vec!["install", "-y", "--no-install-recommends"];
    install_args.extend_from_slice(APT_PACKAGES);
    exec::run_streaming(&mut apt_get(&install_args)).map_err(|err| {
        format!(
            "installing the LLVM/MLIR 22 packages failed: {err}\n\
             (the packages must be available from the configured apt sources)"
        )
    })
}

/// An apt-get command with `args`, non-interactive, elevated with sudo when
/// we are not root and sudo exists.
fn apt_get(args: &[&str]) -> Command {
    const FRONTEND: &str = "DEBIAN_FRONTEND=noninteractive";
    let mut cmd = if !is_root() && exec::find_in_path("sudo").is_some() {
        let mut sudo = Command::new("sudo");
        // sudo drops most of the environment, so pass the setting through it.
        sudo.args([FRONTEND, "apt-get"]);
        sudo
    } else {
        Command::new("apt-get")
    };
    cmd.env("DEBIAN_FRONTEND", "noninteractive").args(args);
    cmd
}

/// Whether we run as root, according to `id -u`.
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// Python code that runs lit's entry point; pip's lit has no `__main__`.
const LIT_MAIN: &str = "import sys; from lit.main import main; sys.exit(main())";

/// Finds a lit other than LLVM's, installing it with pip when allowed.
fn fallback_lit(install: bool) -> Result<Vec<OsString>, String> {
    eprintln!("xtask: warning: {} is missing; looking for another lit", tool("lit").display());
    if let Some(lit) = python_lit() {
        return Ok(lit);
    }
    if !install {
        return Err("lit not found and --no-install was given; run `pip install lit`".to_owned());
    }
    pip_install_lit()?;
    python_lit().ok_or_else(|| "lit is still not usable after `pip install lit`".to_owned())
}

/// A usable lit outside LLVM's prefix: `lit` on `PATH`, else the `lit`
/// module of `python3`.
fn python_lit() -> Option<Vec<OsString>> {
    if let Some(lit) = exec::find_in_path("lit") {
        return Some(vec![lit.into_os_string()]);
    }
    let importable = exec::succeeds(Command::new("python3").args(["-c", "import lit.main"]));
    importable.then(|| vec!["python3".into(), "-c".into(), LIT_MAIN.into()])
}

/// Installs lit from PyPI, allowing a system-wide install where Debian's
/// Python refuses one by default (PEP 668).
fn pip_install_lit() -> Result<(), String> {
    let pip = |extra: &[&str]| {
        let mut cmd = Command::new("python3");
        cmd.args(["-m", "pip", "install", "lit"]).args(extra);
        cmd
    };
    exec::run_streaming(&mut pip(&[]))
        .or_else(|_| exec::run_streaming(&mut pip(&["--break-system-packages"])))
        .map_err(|err| format!("could not install lit with pip: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requirements_cover_every_tool_and_header() {
        let reqs = requirements();
        let names: Vec<String> = reqs.iter().map(Requirement::describe).collect();
        for tool_name in TOOLS {
            assert!(names.iter().any(|n| n.ends_with(&format!("/bin/{tool_name}"))), "{tool_name}");
        }
        assert!(names.iter().any(|n| n.contains("libclang*.so*")));
        assert!(names.iter().any(|n| n.starts_with("/usr/include/libxml2")));
    }

    #[test]
    fn only_not_and_lit_are_soft() {
        for req in requirements() {
            let name = req.describe();
            let expected = if name.ends_with("/bin/not") {
                Role::Optional
            } else if name.ends_with("/bin/lit") {
                Role::Lit
            } else {
                Role::Required
            };
            assert_eq!(req.role, expected, "{name}");
        }
    }

    #[test]
    fn apt_get_is_non_interactive() {
        let cmd = apt_get(&["update"]);
        let line = exec::describe(&cmd);
        assert!(line.ends_with("apt-get update"), "{line}");
        assert!(cmd
            .get_envs()
            .any(|(key, value)| key == "DEBIAN_FRONTEND" && value == Some("noninteractive".as_ref())));
    }

    #[test]
    fn missing_error_names_packages() {
        let req = Requirement { check: Check::File(PathBuf::from("/nope/IR.h")), role: Role::Required };
        let err = missing_error(&[&req], false);
        assert!(err.contains("/nope/IR.h"), "{err}");
        assert!(err.contains("libmlir-22-dev"), "{err}");
    }

    #[test]
    #[ignore = "needs LLVM/MLIR 22 installed in /usr/lib/llvm-22"]
    fn installed_toolchain_is_complete() {
        let toolchain = ensure_llvm(false).unwrap();
        assert_eq!(toolchain.lit, vec![tool("lit").into_os_string()]);
        assert!(exec::succeeds(toolchain.lit_command().arg("--version")));
    }

    #[test]
    fn libclang_detection() {
        assert!(!has_libclang(Path::new("/nonexistent-xtask-dir")));
    }
}
