//! `--verify-diagnostics`: checks emitted diagnostics against `expected-*`
//! directives written in the source.
//!
//! The check is MLIR's own `SourceMgrDiagnosticVerifierHandler`
//! (`mlir/lib/IR/Diagnostics.cpp`), reached through the shim, so a lit test
//! ported from `mlir-opt` means the same here: the directive syntax
//! (`expected-(error|warning|note|remark)(-re)?(@(+N|-N|above|below|unknown))?
//! {{message}}`), the `{{regex}}` blocks (`llvm::Regex`, POSIX extended), the
//! `only-expected` level and the report (unexpected diagnostics as they
//! come, then directives not produced, each with its source line).
//!
//! The diagnostics are collected first (one context per split piece, see
//! [`crate::opt`]) and handed to the check afterwards with their file,
//! line and column. As in `mlir-opt`, a diagnostic located in another file
//! is checked against that file's directives (MLIR reads the file), not
//! the input's (ptxcc's own check before used to match by line alone). One
//! difference from `mlir-opt`, kept on purpose: a location that names a
//! file but no line (line 0, as LLVM IR import and whole-file problems use)
//! counts as `@unknown`.

use crate::{
    diagnostics::{Diagnostic, Severity},
    shim::DiagnosticVerifier,
};

/// Which diagnostics `--verify-diagnostics` requires a directive for (the
/// levels of `mlir-opt --verify-diagnostics=...`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VerifyLevel {
    /// `all`: every diagnostic must be expected, and every directive met.
    #[default]
    All,
    /// `only-expected`: every directive must be met; diagnostics no
    /// directive names are ignored.
    OnlyExpected,
}

/// Checks `diagnostics` (in the order they were emitted) against the
/// `expected-*` directives of `source`, named `filename`. `Err` holds the
/// report `mlir-opt` would print: one located error per problem, with its
/// source line.
pub fn verify(source: &str, filename: &str, diagnostics: &[Diagnostic], level: VerifyLevel) -> Result<(), String> {
    let mut verifier = DiagnosticVerifier::new(source, filename, level == VerifyLevel::OnlyExpected);
    for diagnostic in diagnostics {
        let severity = match diagnostic.severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Note => 2,
            Severity::Remark => 3,
        };
        let file = diagnostic.file.as_deref().unwrap_or(filename);
        let line = diagnostic.line.unwrap_or(0);
        verifier.add(severity, file, line, diagnostic.column.unwrap_or(0), &diagnostic.message);
    }
    match verifier.finish() {
        (true, _) => Ok(()),
        (false, report) => Err(report),
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    const E: Severity = Severity::Error;
    const W: Severity = Severity::Warning;
    const N: Severity = Severity::Note;
    const R: Severity = Severity::Remark;
    const FILE: &str = "t.mlir";

    fn at(severity: Severity, line: u32, column: u32, message: &str) -> Diagnostic {
        Diagnostic {
            severity,
            file: Some(FILE.into()),
            line: Some(line),
            column: Some(column),
            message: message.into(),
        }
    }

    fn nowhere(severity: Severity, message: &str) -> Diagnostic {
        Diagnostic { severity, file: None, line: None, column: None, message: message.into() }
    }

    /// The `file:line:col: error: ...` lines of a report, without the
    /// source lines and carets under them.
    fn errors(report: &str) -> Vec<&str> {
        report.lines().filter(|line| line.contains(": error: ")).collect()
    }

    #[rstest]
    #[case::same_line("op // expected-error {{bad}}", vec![at(E, 1, 1, "bad")])]
    #[case::plus("// expected-warning@+2 {{w}}\n\nop", vec![at(W, 3, 1, "w")])]
    #[case::minus("op\n\n// expected-remark@-2 {{r}}", vec![at(R, 1, 1, "r")])]
    #[case::spaced_designator("// expected-error @+1   {{x}}\nop", vec![at(E, 2, 1, "x")])]
    #[case::above("op\n// expected-error@above {{a}}\n// expected-note@above {{b}}", vec![at(E, 1, 1, "a"), at(N, 1, 1, "b")])]
    #[case::below("// expected-error@below {{a}}\n// expected-note@below {{b}}\nop", vec![at(E, 3, 1, "a"), at(N, 3, 1, "b")])]
    #[case::unknown("// expected-error@unknown {{lost}}", vec![nowhere(E, "lost")])]
    #[case::same_target("// expected-error@+2 {{a}}\n// expected-error@+1 {{b}}\nop", vec![at(E, 3, 1, "b"), at(E, 3, 1, "a")])]
    #[case::note_after_error("op // expected-error {{bad}}\n// expected-note@-1 {{see}}", vec![at(E, 1, 1, "bad"), at(N, 1, 1, "see")])]
    #[case::substring("op // expected-error {{bad op}}", vec![at(E, 1, 1, "'x.y' is a bad op here")])]
    #[case::regex("op // expected-error-re {{operand #{{[0-9]+}} must be}}", vec![at(E, 1, 1, "'a.b' operand #12 must be i32")])]
    #[case::regex_anchors("// expected-error-re@+1 {{{{^}}a{{.*}}b{{$}}}}\nop", vec![at(E, 2, 1, "a--b")])]
    #[case::unicode("é // expected-error {{ünï}}", vec![at(E, 1, 1, "x ünïcödé")])]
    // As in mlir-opt, one directive meets every diagnostic it matches.
    #[case::matched_twice("op // expected-error {{x}}", vec![at(E, 1, 1, "x"), at(E, 1, 2, "x")])]
    #[case::line_zero_is_unknown("// expected-error@unknown {{x}}", vec![at(E, 0, 0, "x")])]
    fn accepted(#[case] source: &str, #[case] diagnostics: Vec<Diagnostic>) {
        assert_eq!(verify(source, FILE, &diagnostics, VerifyLevel::All), Ok(()));
    }

    #[rstest]
    #[case::not_produced("op\n  // expected-error@-1 {{gone}}", vec![], &["t.mlir:2:6: error: expected error \"gone\" was not produced"])]
    #[case::unexpected("op", vec![at(W, 1, 3, "hm")], &["t.mlir:1:3: error: unexpected warning: hm"])]
    #[case::wrong_severity("op // expected-error {{x}}", vec![at(W, 1, 1, "x")], &["t.mlir:1:7: error: 'warning' diagnostic emitted when expecting a 'error'", "t.mlir:1:7: error: expected error \"x\" was not produced"])]
    #[case::wrong_line("op\n// expected-error@+1 {{x}}", vec![at(E, 2, 1, "x")], &["t.mlir:2:1: error: unexpected error: x", "t.mlir:2:4: error: expected error \"x\" was not produced"])]
    #[case::not_substring("op // expected-note {{bad op!}}", vec![at(N, 1, 1, "bad op")], &["t.mlir:1:1: error: unexpected note: bad op", "t.mlir:1:7: error: expected note \"bad op!\" was not produced"])]
    #[case::regex_miss("op // expected-error-re {{#{{[0-9]+}}}}", vec![at(E, 1, 1, "#x")], &["t.mlir:1:1: error: unexpected error: #x", "t.mlir:1:7: error: expected error \"#{{[0-9]+}}\" was not produced"])]
    #[case::dangling_below("op\n// expected-error@below {{x}}", vec![], &["t.mlir:2:4: error: expected error \"x\" was not produced"])]
    #[case::other_file("op", vec![Diagnostic { file: Some("u.mlir".into()), ..at(E, 1, 1, "x") }], &["u.mlir:1:1: error: unexpected error: x"])]
    fn rejected(#[case] source: &str, #[case] diagnostics: Vec<Diagnostic>, #[case] expected: &[&str]) {
        let report = verify(source, FILE, &diagnostics, VerifyLevel::All).unwrap_err();
        assert_eq!(errors(&report), expected, "{report}");
    }

    /// An unexpected diagnostic at no location is reported, and does not
    /// meet a directive on a line.
    #[test]
    fn unknown_location_is_reported() {
        let report = verify("op // expected-error {{x}}", FILE, &[nowhere(R, "r")], VerifyLevel::All).unwrap_err();
        assert!(report.contains("unexpected remark: r"), "{report}");
        assert!(report.contains("expected error \"x\" was not produced"), "{report}");
    }

    /// The report shows the source line and a caret under each problem.
    #[test]
    fn report_shows_source_line() {
        let report = verify("op\n  // expected-error@-1 {{gone}}", FILE, &[], VerifyLevel::All).unwrap_err();
        assert!(report.contains("\n  // expected-error@-1 {{gone}}\n     ^"), "{report}");
    }

    #[rstest]
    #[case::unexpected_ignored("op", vec![at(W, 1, 1, "hm")], true)]
    #[case::missing_still_fails("op // expected-error {{x}}", vec![], false)]
    #[case::met("op // expected-error {{x}}", vec![at(E, 1, 1, "x"), at(W, 1, 1, "y")], true)]
    fn only_expected(#[case] source: &str, #[case] diagnostics: Vec<Diagnostic>, #[case] ok: bool) {
        assert_eq!(verify(source, FILE, &diagnostics, VerifyLevel::OnlyExpected).is_ok(), ok);
    }
}
