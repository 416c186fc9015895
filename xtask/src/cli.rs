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
          each outcome (test/fuzz/fuzz.py); failures are reduced and
          written to a folder
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
                 repeatable
  --out DIR      Where reduced failures go (default target/fuzz)
  --jobs J       Parallel workers (default: every core)
  --no-install   Only check for LLVM/MLIR 22; fail instead of running apt-get
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
    let mut options = FuzzOptions { install: true, count: 1000, seed: 1, configs: Vec::new(), out: None, jobs: None };
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
            other => return Err(format!("unknown option `{other}` for `fuzz`")),
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
            }))
        );
        assert!(parse_strs(&["fuzz", "--count", "many"]).is_err());
        assert!(parse_strs(&["fuzz", "--seed"]).is_err());
    }

    #[test]
    fn unknown_command_and_option() {
        assert!(parse_strs(&["bench"]).is_err());
        assert!(parse_strs(&["test", "--fast"]).is_err());
    }
}
