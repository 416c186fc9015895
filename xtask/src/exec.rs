//! Helpers for running child processes and reporting their failures.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Renders a command as a shell-like line for logs and error messages.
pub fn describe(cmd: &Command) -> String {
    std::iter::once(cmd.get_program()).chain(cmd.get_args()).map(quote).collect::<Vec<_>>().join(" ")
}

/// Quotes one argument for display when it contains shell metacharacters.
fn quote(arg: &OsStr) -> String {
    let text = arg.to_string_lossy();
    let plain = !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=+:,@%".contains(c));
    if plain {
        text.into_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// Runs `cmd` with inherited stdio, echoing it first; fails unless it exits 0.
pub fn run_streaming(cmd: &mut Command) -> Result<(), String> {
    let line = describe(cmd);
    println!("$ {line}");
    flush_stdout();
    let status = cmd.status().map_err(|err| format!("could not start `{line}`: {err}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{line}` failed ({status})"))
    }
}

/// Runs `cmd` silently and reports whether it started and exited 0.
pub fn succeeds(cmd: &mut Command) -> bool {
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|status| status.success())
}

/// Runs `cmd`, feeding it `input` on stdin, and returns its stdout.
///
/// Anything the command wrote to stderr is passed on to our stderr when it
/// succeeds, and included in the error when it fails.
pub fn run_filter(cmd: &mut Command, input: &[u8]) -> Result<String, String> {
    let line = describe(cmd);
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| format!("could not start `{line}`: {err}"))?;
    let output = std::thread::scope(|scope| {
        let stdin = child.stdin.take();
        let feeder = scope.spawn(move || match stdin {
            Some(mut stdin) => stdin.write_all(input),
            None => Ok(()),
        });
        let output = child.wait_with_output();
        // A child that exits early closes its stdin (broken pipe); its exit
        // status and stderr are the useful report, so that error is dropped.
        let _ = feeder.join();
        output
    })
    .map_err(|err| format!("could not run `{line}`: {err}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("`{line}` failed ({}):\n{}", output.status, stderr.trim_end()));
    }
    if !stderr.trim().is_empty() {
        eprint!("{stderr}");
    }
    String::from_utf8(output.stdout).map_err(|_| format!("`{line}` printed invalid UTF-8"))
}

/// Finds an executable called `name` in the directories of `$PATH`.
pub fn find_in_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|candidate| is_executable(candidate))
}

/// Whether `path` is a regular file with an execute bit set.
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

/// Flushes stdout so our own lines come before a child's output.
pub fn flush_stdout() {
    // Nothing useful can be done if stdout is gone.
    let _ = std::io::stdout().flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_quotes_metacharacters() {
        let mut cmd = Command::new("tool");
        cmd.args(["--pass-pipeline=builtin.module(x)", "plain", "it's", ""]);
        assert_eq!(describe(&cmd), r"tool '--pass-pipeline=builtin.module(x)' plain 'it'\''s' ''");
    }

    #[test]
    fn filter_round_trips_stdin() {
        let out = run_filter(&mut Command::new("cat"), b"hello\n").unwrap();
        assert_eq!(out, "hello\n");
    }

    #[test]
    fn filter_reports_stderr_on_failure() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo broken >&2; exit 3"]);
        let err = run_filter(&mut cmd, b"").unwrap_err();
        assert!(err.contains("broken"), "{err}");
    }

    #[test]
    fn streaming_reports_missing_program() {
        let err = run_streaming(&mut Command::new("/nonexistent/xtask-tool")).unwrap_err();
        assert!(err.contains("could not start"), "{err}");
    }

    #[test]
    fn finds_sh_in_path() {
        assert!(find_in_path("sh").is_some());
        assert!(find_in_path("xtask-no-such-tool").is_none());
    }
}
