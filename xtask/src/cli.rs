//! Hand-written command-line parsing for `cargo xtask`.

/// Usage text printed by `cargo xtask help` and on usage errors.
pub const USAGE: &str = "\
Usage: cargo xtask <command> [options]

Commands:
  test    Install LLVM/MLIR 22 if needed, build the workspace, run
          `cargo test` and the lit suite under test/
  demo    Lower examples/demo.mlir with ptxcc-opt and print the MLIR,
          then translate it to LLVM IR and print the PTX from llc
  help    Print this message

Options for `test`:
  --no-install   Only check for LLVM/MLIR 22; fail instead of running apt-get
  --lit-only     Skip `cargo test` (still builds the binaries and runs lit)

Options for `demo`:
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
            other => return Err(format!("unknown option `{other}` for `demo`")),
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
        assert!(parse_strs(&["demo", "--lit-only"]).is_err());
    }

    #[test]
    fn unknown_command_and_option() {
        assert!(parse_strs(&["bench"]).is_err());
        assert!(parse_strs(&["test", "--fast"]).is_err());
    }
}
