//! A limit on how deeply the input nests, checked before MLIR parses it.
//!
//! MLIR's parser, verifier and printer recurse once per nested region, op
//! and type: 5,000 nested `module {` or 4,000 nested `!llvm.struct<(` overflow
//! the stack (of `mlir-opt` too). The driver runs on a thread with a large
//! stack, and input that nests deeper than [`MAX_NESTING`] brackets is refused
//! with an error at the bracket that goes too deep, before anything recurses.

use crate::diagnostics::{Diagnostic, Severity};

/// The deepest bracket nesting (`{`, `(`, `[` and `<` together) accepted.
/// Real IR stays far below it (a struct of arrays of structs costs three
/// levels a field); the whole pipeline runs at this depth on the driver's
/// stack and on MLIR's worker threads.
pub const MAX_NESTING: usize = 1000;

/// The stack of the threads that parse, verify, transform and print input
/// nesting up to [`MAX_NESTING`] deep (the driver's worker, the thread that
/// verifies output while it is printed): only reserved address space until
/// used.
pub const STACK_SIZE: usize = 1 << 30;

/// Checks that `source` nests at most `limit` brackets deep. Brackets inside
/// string literals and `//` comments do not count, nor does the `>` of `->`.
/// The error is located at the first bracket past the limit.
pub fn check_nesting(source: &str, limit: usize) -> Result<(), Diagnostic> {
    let bytes = source.as_bytes();
    let mut depth = 0usize;
    let mut index = 0;
    // One pass over every byte of the input, before the parser's: the line
    // and column are worked out only for the error.
    while index < bytes.len() {
        match bytes[index] {
            b'"' => {
                // A string literal: skip to its closing quote (escapes
                // included).
                index += 1;
                while index < bytes.len() && bytes[index] != b'"' {
                    index += if bytes[index] == b'\\' { 2 } else { 1 };
                }
            }
            b'/' if bytes.get(index + 1) == Some(&b'/') => {
                // A comment: skip to the end of its line.
                index = bytes[index..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |end| index + end);
                continue;
            }
            b'-' if bytes.get(index + 1) == Some(&b'>') => index += 1,
            b'{' | b'(' | b'[' | b'<' => {
                depth += 1;
                if depth > limit {
                    return Err(too_deep(source, index, limit));
                }
            }
            b'}' | b')' | b']' | b'>' => depth = depth.saturating_sub(1),
            _ => {}
        }
        index += 1;
    }
    Ok(())
}

/// The error for the bracket at byte `index` of `source`, past `limit`.
fn too_deep(source: &str, index: usize, limit: usize) -> Diagnostic {
    let before = &source.as_bytes()[..index];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let column = source[line_start..index].chars().count() + 1;
    Diagnostic {
        severity: Severity::Error,
        file: None,
        line: u32::try_from(line).ok(),
        column: u32::try_from(column).ok(),
        message: format!(
            "the input nests more than {limit} brackets deep (regions, ops and types together); \
             ptxcc-opt refuses it rather than overflow the stack"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case::flat("module {}", 1, true)]
    #[case::at_limit("module { module {} }", 2, true)]
    #[case::past_limit("module { module { module {} } }", 2, false)]
    #[case::arrow_is_not_a_bracket("llvm.func @f() -> i32 -> i32", 1, true)]
    #[case::strings_do_not_count("\"{{{{\"", 1, true)]
    #[case::escaped_quote("\"\\\"{{{\" ()", 1, true)]
    #[case::comments_do_not_count("// ((((((\n()", 1, true)]
    #[case::types("!llvm.struct<(struct<(i32)>)>", 4, true)]
    #[case::types_too_deep("!llvm.struct<(struct<(i32)>)>", 3, false)]
    fn nesting(#[case] source: &str, #[case] limit: usize, #[case] ok: bool) {
        assert_eq!(check_nesting(source, limit).is_ok(), ok);
    }

    #[test]
    fn error_is_at_the_bracket_past_the_limit() {
        let error = check_nesting("module {\n  \"x\" ({\n  ({})\n", 3).unwrap_err();
        assert_eq!((error.line, error.column), (Some(3), Some(3)));
    }

    #[test]
    fn error_lines_count_comments_and_strings() {
        let error = check_nesting("// ((\n\"a\nb\" (\n é(", 1).unwrap_err();
        assert_eq!((error.line, error.column), (Some(4), Some(3)));
    }
}
