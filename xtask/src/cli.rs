//! Hand-written command-line parsing for `cargo xtask`.

/// Usage text printed by `cargo xtask help` and on usage errors.
pub const USAGE: &str = "\
Usage: cargo xtask <command> [options]

Commands:
  test    Install LLVM/MLIR 22 if needed, build the workspace, run
          `cargo test` and the lit suite under test/
  demo    Lower examples/demo.mlir with ptxcc-opt and print the MLIR,
          then translate it to LLVM IR and print the PTX from llc
  fuzz    Run generated modules through the release ptxcc-opt and judge
          each outcome (test/fuzz/fuzz.py; with --cuda, generated CUDA
          kernels through clang and the differential harness,
          test/fuzz/fuzz_cuda.py); failures are reduced and written to a
          folder
  realworld
          Public GPU code through the release ptxcc-opt: every module of
          NVIDIA Warp (scripts/warp_corpus.py) compiled by clang at -O2
          and -O3, the pipeline, ptxas, stack + spills against llc alone,
          the differential-execution harness; failures stay in a folder
  plugin  Build ptxcc's passes as an MLIR pass plugin for C++ tools on
          the shared libMLIR (`mlir-opt --load-pass-plugin=PATH`); prints
          the plugin's path as the last line
  help    Print this message

Options for `test`:
  --no-install   Only check for LLVM/MLIR 22; fail instead of running apt-get
  --lit-only     Skip `cargo test` (still builds the binaries and runs lit)

Options for `demo` and `plugin`:
  --no-install   Only check for LLVM/MLIR 22; fail instead of running apt-get

Options for `fuzz`:
  --count N      How many modules (default 1000)
  --seed S       The first seed (default 1); module k has seed S+k
  --config NAME  pipeline (the default), opt-byval=false, llvm-opt-after,
                 lower-struct-args,
                 lower-alloca, memory-space-opt, convert-ptxcc-to-llvm;
                 with --cuda a clang configuration: 0, 1, 2, 3 or 2nounroll
                 (-O2 -fno-unroll-loops; default all five); repeatable
  --cuda         Generated CUDA files (test/fuzz/generate_cuda.py) instead of
                 MLIR modules: clang, both pipelines, every kernel run
  --out DIR      Where reduced failures go (default target/fuzz)
  --jobs J       Parallel workers (default: every core)
  --no-install   Only check for LLVM/MLIR 22; fail instead of running apt-get

Options for `realworld`:
  --opt N        clang -O level, 0 to 3 (default 2 and 3); repeatable
  --out DIR      Where failing modules' files go (default target/warp)
  --jobs J       Modules checked at once (default 2)
  --no-diffexec  Skip the differential harness (pipeline, ptxas and the
                 stack + spill figures only: minutes instead of hours)
  --no-install   Only check for LLVM/MLIR 22, NVIDIA's tools and Warp;
                 fail instead of installing them
";

/// A parsed `cargo xtask` invocation.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    /// Print the usage text.
    Help,
    /// Build and run every test suite.
    Test(TestOptions),
    /// Run the end-to-end demo.
    Demo(DemoOptions),
    /// Run generated modules through ptxcc-opt.
    Fuzz(FuzzOptions),
    /// Build the MLIR pass plugin (the options are `demo`'s).
    Plugin(DemoOptions),
    /// Run public GPU code (NVIDIA Warp's modules) through ptxcc-opt.
    Realworld(RealworldOptions),
}

/// Options of `cargo xtask test`.
#[derive(Debug, PartialEq, Eq)]
pub struct TestOptions {
    /// Whether missing LLVM packages may be installed with apt-get.
    pub install: bool,
    /// Whether `cargo test` is skipped, leaving only the build and lit.
    pub lit_only: bool,
}

/// Options of `cargo xtask demo`.
#[derive(Debug, PartialEq, Eq)]
pub struct DemoOptions {
    /// Whether missing LLVM packages may be installed with apt-get.
    pub install: bool,
}

/// Options of `cargo xtask fuzz`.
#[derive(Debug, PartialEq, Eq)]
pub struct FuzzOptions {
    /// Whether missing LLVM packages may be installed with apt-get.
    pub install: bool,
    /// How many modules.
    pub count: u64,
    /// The first seed.
    pub seed: u64,
    /// The configurations (`--config`); empty: fuzz.py's default.
    pub configs: Vec<String>,
    /// Where reduced failures go.
    pub out: Option<String>,
    /// Parallel workers.
    pub jobs: Option<u64>,
    /// Generated CUDA files (`fuzz_cuda.py`) instead of MLIR modules.
    pub cuda: bool,
}

/// The clang configurations `fuzz --cuda` takes as `--config`.
pub const CUDA_CONFIGS: [&str; 5] = ["0", "1", "2", "3", "2nounroll"];

/// Options of `cargo xtask realworld`.
#[derive(Debug, PartialEq, Eq)]
pub struct RealworldOptions {
    /// Whether missing LLVM packages, NVIDIA's tools and Warp may be installed.
    pub install: bool,
    /// The clang -O levels (`--opt`); empty: warp_corpus.py's default.
    pub opts: Vec<u8>,
    /// Where failing modules' files go.
    pub out: Option<String>,
    /// Modules checked at once.
    pub jobs: Option<u64>,
    /// Whether the differential harness runs (`--no-diffexec` skips it).
    pub diffexec: bool,
}

/// Parses the arguments that follow `cargo xtask`.
///
/// Returns an error message for an unknown command or option; the caller
/// prints it together with [`USAGE`].
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, String> {
    let mut args = args.into_iter();
    let Some(command) = args.next() else {
        return Err("no command given".to_owned());
    };
    let rest: Vec<String> = args.collect();
    if rest.iter().any(|arg| is_help_flag(arg)) {
        return Ok(Command::Help);
    }
    match command.as_str() {
        "help" | "--help" | "-h" => Ok(Command::Help),
        "test" => parse_test(&rest).map(Command::Test),
        "demo" => parse_demo(&rest).map(Command::Demo),
        "fuzz" => parse_fuzz(&rest).map(Command::Fuzz),
        "plugin" => parse_demo(&rest).map(Command::Plugin),
        "realworld" => parse_realworld(&rest).map(Command::Realworld),
        other => Err(format!("unknown command `{other}`")),
    }
}

/// Whether `arg` asks for the usage text.
fn is_help_flag(arg: &str) -> bool {
    matches!(arg, "--help" | "-h")
}

/// Parses the options of `cargo xtask test`.
fn parse_test(args: &[String]) -> Result<TestOptions, String> {
    let mut options = TestOptions { install: true, lit_only: false };
    for arg in args {
        match arg.as_str() {
            "--no-install" => options.install = false,
            "--lit-only" => options.lit_only = true,
            other => return Err(format!("unknown option `{other}` for `test`")),
        }
    }
    Ok(options)
}

/// Parses the options of `cargo xtask demo`.
fn parse_demo(args: &[String]) -> Result<DemoOptions, String> {
    let mut options = DemoOptions { install: true };
    for arg in args {
        match arg.as_str() {
            "--no-install" => options.install = false,
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(options)
}

/// Parses the options of `cargo xtask fuzz`.
fn parse_fuzz(args: &[String]) -> Result<FuzzOptions, String> {
    let mut options =
        FuzzOptions { install: true, count: 1000, seed: 1, configs: Vec::new(), out: None, jobs: None, cuda: false };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().cloned().ok_or_else(|| format!("`{name}` needs a value"));
        let number = |name: &str, text: String| {
            text.parse::<u64>().map_err(|_| format!("`{name}` needs a number, got `{text}`"))
        };
        match arg.as_str() {
            "--no-install" => options.install = false,
            "--count" => options.count = number("--count", value("--count")?)?,
            "--seed" => options.seed = number("--seed", value("--seed")?)?,
            "--jobs" => options.jobs = Some(number("--jobs", value("--jobs")?)?),
            "--config" => options.configs.push(value("--config")?),
            "--out" => options.out = Some(value("--out")?),
            "--cuda" => options.cuda = true,
            other => return Err(format!("unknown option `{other}` for `fuzz`")),
        }
    }
    if options.cuda {
        if let Some(config) = options.configs.iter().find(|config| !CUDA_CONFIGS.contains(&config.as_str())) {
            return Err(format!("`--config {config}` is no clang configuration (with --cuda: 0, 1, 2, 3, 2nounroll)"));
        }
    }
    Ok(options)
}

/// Parses the options of `cargo xtask realworld`.
fn parse_realworld(args: &[String]) -> Result<RealworldOptions, String> {
    let mut options = RealworldOptions { install: true, opts: Vec::new(), out: None, jobs: None, diffexec: true };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().cloned().ok_or_else(|| format!("`{name}` needs a value"));
        match arg.as_str() {
            "--no-install" => options.install = false,
            "--no-diffexec" => options.diffexec = false,
            "--opt" => {
                let text = value("--opt")?;
                match text.parse::<u8>() {
                    Ok(level) if level <= 3 => options.opts.push(level),
                    _ => return Err(format!("`--opt` needs a level from 0 to 3, got `{text}`")),
                }
            }
            "--out" => options.out = Some(value("--out")?),
            "--jobs" => {
                let text = value("--jobs")?;
                let jobs = text.parse::<u64>().map_err(|_| format!("`--jobs` needs a number, got `{text}`"))?;
                options.jobs = Some(jobs);
            }
            other => return Err(format!("unknown option `{other}` for `realworld`")),
        }
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_strs(args: &[&str]) -> Result<Command, String> {
        parse(args.iter().map(|arg| (*arg).to_owned()))
    }

    #[test]
    fn no_command_is_an_error() {
        assert!(parse_strs(&[]).is_err());
    }

    #[test]
    fn help_variants() {
        for args in [&["help"][..], &["--help"], &["-h"], &["test", "--help"]] {
            assert_eq!(parse_strs(args), Ok(Command::Help), "{args:?}");
        }
    }

    #[test]
    fn test_defaults() {
        assert_eq!(parse_strs(&["test"]), Ok(Command::Test(TestOptions { install: true, lit_only: false })));
    }

    #[test]
    fn test_flags() {
        assert_eq!(
            parse_strs(&["test", "--lit-only", "--no-install"]),
            Ok(Command::Test(TestOptions { install: false, lit_only: true }))
        );
    }

    #[test]
    fn demo_flags() {
        assert_eq!(parse_strs(&["demo", "--no-install"]), Ok(Command::Demo(DemoOptions { install: false })));
        assert_eq!(parse_strs(&["plugin"]), Ok(Command::Plugin(DemoOptions { install: true })));
        assert!(parse_strs(&["plugin", "--bogus"]).is_err());
        assert!(parse_strs(&["demo", "--lit-only"]).is_err());
    }

    #[test]
    fn fuzz_options() {
        assert_eq!(
            parse_strs(&["fuzz", "--count", "50", "--seed", "7", "--config", "pipeline", "--out", "f", "--jobs", "2"]),
            Ok(Command::Fuzz(FuzzOptions {
                install: true,
                count: 50,
                seed: 7,
                configs: vec!["pipeline".into()],
                out: Some("f".into()),
                jobs: Some(2),
                cuda: false,
            }))
        );
        assert!(parse_strs(&["fuzz", "--count", "many"]).is_err());
        assert!(parse_strs(&["fuzz", "--seed"]).is_err());
    }

    #[test]
    fn fuzz_cuda_options() {
        assert_eq!(
            parse_strs(&["fuzz", "--config", "2nounroll", "--cuda", "--count", "5", "--config", "0"]),
            Ok(Command::Fuzz(FuzzOptions {
                install: true,
                count: 5,
                seed: 1,
                configs: vec!["2nounroll".into(), "0".into()],
                out: None,
                jobs: None,
                cuda: true,
            }))
        );
        // A configuration of fuzz.py is none of fuzz_cuda.py's.
        assert!(parse_strs(&["fuzz", "--cuda", "--config", "pipeline"]).is_err());
        assert!(parse_strs(&["fuzz", "--config", "pipeline"]).is_ok());
    }

    #[test]
    fn realworld_options() {
        assert_eq!(
            parse_strs(&["realworld"]),
            Ok(Command::Realworld(RealworldOptions {
                install: true,
                opts: vec![],
                out: None,
                jobs: None,
                diffexec: true
            }))
        );
        assert_eq!(
            parse_strs(&[
                "realworld",
                "--opt",
                "2",
                "--opt",
                "3",
                "--out",
                "w",
                "--jobs",
                "2",
                "--no-install",
                "--no-diffexec"
            ]),
            Ok(Command::Realworld(RealworldOptions {
                install: false,
                opts: vec![2, 3],
                out: Some("w".into()),
                jobs: Some(2),
                diffexec: false,
            }))
        );
        assert!(parse_strs(&["realworld", "--opt", "4"]).is_err());
        assert!(parse_strs(&["realworld", "--opt"]).is_err());
        assert!(parse_strs(&["realworld", "--jobs", "all"]).is_err());
        assert!(parse_strs(&["realworld", "--count", "5"]).is_err());
    }

    #[test]
    fn unknown_command_and_option() {
        assert!(parse_strs(&["bench"]).is_err());
        assert!(parse_strs(&["test", "--fast"]).is_err());
    }
}
