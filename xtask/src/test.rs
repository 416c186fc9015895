//! `cargo xtask test`: install LLVM (and NVIDIA's tools) if needed, build,
//! `cargo test`, lit.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::cli::TestOptions;
use crate::llvm::{self, Toolchain};
use crate::warp::{self, Corpus};
use crate::{exec, nvidia, plugin, workspace};

/// Wall-clock time of each step that ran, in order.
#[derive(Debug, Default)]
struct Timings {
    /// Step name and duration.
    steps: Vec<(&'static str, Duration)>,
}

impl Timings {
    /// Runs `step`, recording its duration under `name` whatever its outcome;
    /// a failure is tagged with the step's name.
    fn time<T>(&mut self, name: &'static str, step: impl FnOnce() -> Result<T, String>) -> Result<T, StepFailure> {
        println!("\nxtask: === {name} ===");
        exec::flush_stdout();
        let start = Instant::now();
        let result = step();
        self.steps.push((name, start.elapsed()));
        result.map_err(|message| StepFailure { step: name, message })
    }

    /// The one-line summary, e.g. `xtask test: build 1.2s, lit 0.3s`.
    fn summary(&self) -> String {
        let parts: Vec<String> =
            self.steps.iter().map(|(name, took)| format!("{name} {:.1}s", took.as_secs_f64())).collect();
        format!("xtask test: {}", parts.join(", "))
    }
}

/// A step that failed, and why.
#[derive(Debug)]
struct StepFailure {
    /// The name of the step.
    step: &'static str,
    /// What went wrong.
    message: String,
}

/// Runs every step, then prints the timing summary and the overall verdict.
pub fn run(options: &TestOptions) -> Result<(), String> {
    let mut timings = Timings::default();
    let outcome = run_steps(options, &mut timings);
    if let Err(failure) = &outcome {
        eprintln!("xtask: error: {}", failure.message);
    }
    println!("\n{}", timings.summary());
    match outcome {
        Ok(()) => {
            println!("xtask: all steps passed");
            Ok(())
        }
        Err(failure) => Err(format!("step `{}` failed", failure.step)),
    }
}

/// The steps of `cargo xtask test`, stopping at the first failure.
fn run_steps(options: &TestOptions, timings: &mut Timings) -> Result<(), StepFailure> {
    let root = workspace::root();
    let toolchain = timings.time("llvm", || llvm::ensure_llvm(options.install))?;
    // NVIDIA's assembler judges the PTX the tests produce; without it those
    // tests are UNSUPPORTED (a warning here, not a failure).
    let nvidia = timings.time("nvidia tools", || Ok(nvidia::ensure(&root, options.install)))?;
    // Public GPU code: NVIDIA Warp's generated CUDA (the sample lit runs;
    // `cargo xtask realworld` runs every module). Without it the test is
    // UNSUPPORTED (a warning here, not a failure).
    timings.time("warp corpus", || Ok(warp::ensure(&root, options.install, Corpus::Sample)))?;
    timings.time("build", || exec::run_streaming(cargo(&root).args(["build", "--workspace", "--bins"])))?;
    if !options.lit_only {
        timings.time("cargo test", || {
            exec::run_streaming(cargo(&root).args([
                "test",
                "--workspace",
                "--exclude",
                "xtask",
                "--exclude",
                "ptxcc-plugin",
            ]))
        })?;
    }
    if !options.lit_only {
        // The API documentation builds without a warning (a broken link, a
        // link to a private item); its examples ran as doc tests above.
        timings.time("cargo doc", || {
            exec::run_streaming(cargo(&root).args(["doc", "--no-deps"]).env("RUSTDOCFLAGS", "-D warnings"))
        })?;
    }
    // The pass plugin for upstream mlir-opt (test/Plugin runs it).
    let plugin = timings.time("plugin", || plugin::build(false))?;
    timings.time("lit", || run_lit(&toolchain, &root, &workspace::ptxcc_opt(), &plugin, nvidia.as_deref()))?;
    // The same suite against an optimised driver: undefined behaviour in
    // unsafe FFI code (a dangling reference, say) can pass in debug builds
    // and crash in release ones, which is what users and the benchmark run.
    timings.time("release build", || workspace::build_release_driver())?;
    timings.time("lit (release)", || {
        run_lit(&toolchain, &root, &workspace::ptxcc_opt_release(), &plugin, nvidia.as_deref())
    })?;
    // Memory errors are test failures: the release driver under valgrind's
    // memcheck on the suite's inputs, clang's IR of the e2e CUDA files and
    // generated modules (test/memcheck/memcheck.py).
    timings.time("memcheck", || run_memcheck(&root, &workspace::ptxcc_opt_release()))
}

/// Runs `test/memcheck/memcheck.py` against `driver`.
fn run_memcheck(root: &Path, driver: &Path) -> Result<(), String> {
    let mut cmd = Command::new("python3");
    cmd.arg(root.join("test/memcheck/memcheck.py"))
        .arg("--ptxcc-opt")
        .arg(driver)
        .current_dir(root)
        // An optimization's internal error is a failure here too (lit sets
        // the same).
        .env("PTXCC_FALLBACK", "error")
        .env("PATH", path_with_llvm_first()?);
    exec::run_streaming(&mut cmd)
}

/// A cargo command that runs in the workspace root.
fn cargo(root: &Path) -> Command {
    let mut cmd = Command::new(workspace::cargo());
    cmd.current_dir(root);
    cmd
}

/// Runs the lit suite in `test/` against the freshly built `driver`, with
/// NVIDIA's tools from `nvidia` when they are there.
fn run_lit(
    toolchain: &Toolchain,
    root: &Path,
    driver: &Path,
    plugin: &Path,
    nvidia: Option<&Path>,
) -> Result<(), String> {
    if !exec::is_executable(driver) {
        return Err(format!("the driver was not built at {}", driver.display()));
    }
    println!("xtask: PTXCC_OPT={}", driver.display());
    let mut cmd = toolchain.lit_command();
    cmd.args(["-sv", "--time-tests", "test"])
        .current_dir(root)
        .env("PTXCC_OPT", driver)
        .env("PTXCC_PLUGIN", plugin)
        .env("PATH", path_with_llvm_first()?);
    if let Some(nvidia) = nvidia {
        cmd.env("PTXCC_NVIDIA", nvidia);
    }
    exec::run_streaming(&mut cmd)
}

/// `$PATH` with LLVM 22's `bin` directory in front, so that tests find
/// `FileCheck`, `not` and friends even when lit.cfg does not name them.
fn path_with_llvm_first() -> Result<OsString, String> {
    let llvm_bin = Path::new(llvm::PREFIX).join("bin");
    let current = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(llvm_bin).chain(std::env::split_paths(&current));
    std::env::join_paths(dirs).map_err(|err| format!("cannot extend PATH: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lists_steps_in_order() {
        let timings = Timings {
            steps: vec![
                ("build", Duration::from_millis(123_400)),
                ("cargo test", Duration::from_millis(45_600)),
                ("lit", Duration::from_millis(7_800)),
            ],
        };
        assert_eq!(timings.summary(), "xtask test: build 123.4s, cargo test 45.6s, lit 7.8s");
    }

    #[test]
    fn failure_keeps_step_name_and_time() {
        let mut timings = Timings::default();
        let failure = timings.time("lit", || Err::<(), _>("boom".to_owned())).unwrap_err();
        assert_eq!(failure.step, "lit");
        assert_eq!(failure.message, "boom");
        assert_eq!(timings.steps.len(), 1);
    }

    #[test]
    fn llvm_bin_comes_first_in_path() {
        let path = path_with_llvm_first().unwrap();
        let first = std::env::split_paths(&path).next().unwrap();
        assert_eq!(first, Path::new(llvm::PREFIX).join("bin"));
    }
}
