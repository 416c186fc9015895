//! Project automation for ptxcc, run as `cargo xtask <command>`.
//!
//! This crate deliberately has no dependencies beyond `std`: it is the tool
//! that installs LLVM/MLIR 22, so it must build on a machine that has
//! neither yet.

mod cli;
mod demo;
mod exec;
mod fuzz;
mod llvm;
mod nvidia;
mod plugin;
mod realworld;
mod test;
mod warp;
mod workspace;

use std::process::ExitCode;

use cli::Command;

/// Parses the command line, runs the requested command and maps its outcome
/// to the process exit status (0 success, 1 failure, 2 usage error).
fn main() -> ExitCode {
    let command = match cli::parse(std::env::args().skip(1)) {
        Ok(command) => command,
        Err(message) => {
            eprintln!("xtask: {message}\n");
            eprint!("{}", cli::USAGE);
            return ExitCode::from(2);
        }
    };
    let outcome = match command {
        Command::Help => {
            print!("{}", cli::USAGE);
            Ok(())
        }
        Command::Test(options) => test::run(&options),
        Command::Demo(options) => demo::run(&options),
        Command::Fuzz(options) => fuzz::run(&options),
        Command::Plugin(options) => plugin::run(options.install),
        Command::Realworld(options) => realworld::run(&options),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: error: {message}");
            ExitCode::FAILURE
        }
    }
}
