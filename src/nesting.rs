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
/// string literals and `//` comments do not count, nor does the `>` of `->`;
/// a closer with nothing open (the `>` of `>=` in an affine set) closes
/// nothing. A string ends at its closing quote or at the end of its line
/// (MLIR's lexer refuses a line break inside a string), so lines can be
/// scanned apart: a large input is cut at line breaks into one piece per
/// core, each piece is summed up on its own thread, and the pieces are then
/// chained in order. The error is located at the first bracket past the
/// limit.
pub fn check_nesting(source: &str, limit: usize) -> Result<(), Diagnostic> {
    let pieces = pieces(source.as_bytes(), parallelism(source.len()));
    let spans: Vec<Span> = if pieces.len() == 1 {
        vec![Span::of(pieces[0].1)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = pieces
                .iter()
                .map(|&(_, piece)| std::thread::Builder::new().spawn_scoped(scope, move || Span::of(piece)).ok())
                .collect();
            // A piece whose thread could not be started, or could not report
            // (a scan cannot panic), is scanned here instead.
            handles
                .into_iter()
                .zip(&pieces)
                .map(|(handle, &(_, piece))| {
                    handle.and_then(|handle| handle.join().ok()).unwrap_or_else(|| Span::of(piece))
                })
                .collect()
        })
    };
    let mut depth = 0;
    for (span, &(offset, piece)) in spans.iter().zip(&pieces) {
        if span.peak(depth) > limit {
            let index = first_too_deep(piece, depth, limit).map_or(offset, |index| offset + index);
            return Err(too_deep(source, index, limit));
        }
        depth = span.end(depth);
    }
    Ok(())
}

/// Inputs below this many bytes are scanned on the calling thread.
const PARALLEL_FROM: usize = 4 << 20;

/// How many pieces an input of `len` bytes is cut into.
fn parallelism(len: usize) -> usize {
    if len < PARALLEL_FROM {
        return 1;
    }
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    cores.min(len / (PARALLEL_FROM / 2))
}

/// `bytes` cut into at most `count` pieces of about the same size, each but
/// the last ending with a line break, with their offsets.
fn pieces(bytes: &[u8], count: usize) -> Vec<(usize, &[u8])> {
    let mut pieces = Vec::with_capacity(count);
    let mut start = 0;
    for k in 1..count {
        let target = (bytes.len() * k / count).max(start);
        let Some(newline) = bytes[target..].iter().position(|&b| b == b'\n') else { break };
        let end = target + newline + 1;
        pieces.push((start, &bytes[start..end]));
        start = end;
    }
    pieces.push((start, &bytes[start..]));
    pieces
}

/// What a byte is to the scan.
const ORDINARY: u8 = 0;
const OPEN: u8 = 1;
const CLOSE: u8 = 2;
const QUOTE: u8 = 3;
const SLASH: u8 = 4;
const DASH: u8 = 5;

/// [`ORDINARY`] ... [`DASH`] for every byte value.
const CLASS: [u8; 256] = {
    let mut class = [ORDINARY; 256];
    class[b'{' as usize] = OPEN;
    class[b'(' as usize] = OPEN;
    class[b'[' as usize] = OPEN;
    class[b'<' as usize] = OPEN;
    class[b'}' as usize] = CLOSE;
    class[b')' as usize] = CLOSE;
    class[b']' as usize] = CLOSE;
    class[b'>' as usize] = CLOSE;
    class[b'"' as usize] = QUOTE;
    class[b'/' as usize] = SLASH;
    class[b'-' as usize] = DASH;
    class
};

/// Calls `bracket(index, opens)` for every bracket of `bytes` that counts,
/// in order, until it returns `false`.
#[inline(always)]
fn brackets(bytes: &[u8], mut bracket: impl FnMut(usize, bool) -> bool) {
    let mut index = 0;
    while index < bytes.len() {
        match CLASS[usize::from(bytes[index])] {
            ORDINARY => {}
            class @ (OPEN | CLOSE) if !bracket(index, class == OPEN) => return,
            QUOTE => {
                // A string literal: skip to its closing quote (escapes
                // included) or to the end of its line.
                index += 1;
                while index < bytes.len() && bytes[index] != b'"' && bytes[index] != b'\n' {
                    // (An escape never takes the line break with it.)
                    index += if bytes[index] == b'\\' && bytes.get(index + 1) != Some(&b'\n') { 2 } else { 1 };
                }
            }
            SLASH if bytes.get(index + 1) == Some(&b'/') => {
                // A comment: skip to the end of its line.
                index = bytes[index..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |end| index + end);
            }
            DASH if bytes.get(index + 1) == Some(&b'>') => index += 1,
            _ => {}
        }
        index += 1;
    }
}

/// What a run of whole lines does to the depth, whatever depth it starts
/// at: `total` is the sum of its brackets (+1 an opener, -1 a closer),
/// `lowest` and `highest` the least and greatest sum of a prefix (the empty
/// one included), and `rise` the most any prefix climbs above the lowest
/// sum before it. A closer at depth 0 closes nothing, so from depth `d` the
/// run ends at `max(d, -lowest) + total` and peaks at
/// `max(d + highest, rise)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Span {
    total: isize,
    lowest: isize,
    highest: isize,
    rise: isize,
}

impl Span {
    /// The span of `bytes`.
    fn of(bytes: &[u8]) -> Span {
        let mut span = Span::default();
        brackets(bytes, |_, opens| {
            span.total += if opens { 1 } else { -1 };
            span.lowest = span.lowest.min(span.total);
            span.highest = span.highest.max(span.total);
            span.rise = span.rise.max(span.total - span.lowest);
            true
        });
        span
    }

    /// The depth after the run, started at `depth`.
    fn end(self, depth: usize) -> usize {
        // The sums are bounded by the input's length, which fits an isize;
        // the result is never negative, as `total >= lowest`.
        (depth as isize).max(-self.lowest).saturating_add(self.total) as usize
    }

    /// The greatest depth the run reaches, started at `depth`.
    fn peak(self, depth: usize) -> usize {
        // Never negative, as `rise >= 0`.
        (depth as isize).saturating_add(self.highest).max(self.rise) as usize
    }
}

/// The byte index of the first bracket of `bytes` past `limit`, started at
/// `depth`.
fn first_too_deep(bytes: &[u8], mut depth: usize, limit: usize) -> Option<usize> {
    let mut found = None;
    brackets(bytes, |index, opens| {
        if opens {
            depth += 1;
            if depth > limit {
                found = Some(index);
                return false;
            }
        } else {
            depth = depth.saturating_sub(1);
        }
        true
    });
    found
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
    #[case::string_ends_at_its_line("\"((\n((", 2, true)]
    #[case::string_ends_at_its_line_too_deep("\"((\n(((", 2, false)]
    #[case::closers_at_zero_close_nothing(">= (0) >= (0) ((", 2, true)]
    fn nesting(#[case] source: &str, #[case] limit: usize, #[case] ok: bool) {
        assert_eq!(check_nesting(source, limit).is_ok(), ok);
    }

    /// A small deterministic generator of bracket-heavy lines.
    fn random_lines(seed: u64, len: usize) -> String {
        const ALPHABET: &[u8] = b"{}()[]<>\"//->=a \n\\";
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (0..len)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                char::from(ALPHABET[(state >> 33) as usize % ALPHABET.len()])
            })
            .collect()
    }

    /// The depth at the end of `bytes` and the greatest depth on the way,
    /// bracket by bracket (a closer at depth 0 closes nothing): what the
    /// spans must sum up to, computed without them.
    fn serial_depths(bytes: &[u8]) -> (usize, usize) {
        let (mut depth, mut peak) = (0usize, 0usize);
        brackets(bytes, |_, opens| {
            depth = if opens { depth + 1 } else { depth.saturating_sub(1) };
            peak = peak.max(depth);
            true
        });
        (depth, peak)
    }

    /// Chaining the spans of pieces cut at line breaks gives what one
    /// bracket-by-bracket scan of the whole gives: the depth at the end, the
    /// peak, and the first bracket past a limit.
    #[test]
    fn pieces_chain_like_one_scan() {
        for seed in 0..300 {
            let text = random_lines(seed, 400);
            let bytes = text.as_bytes();
            let (end, highest) = serial_depths(bytes);
            for count in 1..6 {
                let mut depth = 0;
                let mut peak = 0;
                for &(_, piece) in &pieces(bytes, count) {
                    let span = Span::of(piece);
                    peak = peak.max(span.peak(depth));
                    depth = span.end(depth);
                }
                assert_eq!((depth, peak), (end, highest), "seed {seed}, {count} pieces");
            }
            for limit in [1, 2, 3, 5, 8] {
                let serial = first_too_deep(bytes, 0, limit);
                assert_eq!(serial.is_some(), highest > limit, "seed {seed}, limit {limit}");
                let mut depth = 0;
                let mut chained = None;
                for &(offset, piece) in &pieces(bytes, 4) {
                    if let Some(index) = first_too_deep(piece, depth, limit) {
                        chained = Some(offset + index);
                        break;
                    }
                    depth = Span::of(piece).end(depth);
                }
                assert_eq!(chained, serial, "seed {seed}, limit {limit}");
            }
        }
    }

    /// A large input is cut into pieces (one per core), and the error is
    /// still at the first bracket past the limit, in whichever piece.
    #[test]
    fn large_input_errors_at_the_same_bracket() {
        let line = "  %0 = llvm.mlir.constant(dense<[1, 2]> : vector<2xi32>) : vector<2xi32> // ((((\n";
        let mut text = line.repeat(PARALLEL_FROM * 3 / line.len());
        let lines = text.lines().count();
        text.push_str(&"(".repeat(1001));
        let error = check_nesting(&text, 1000).unwrap_err();
        assert_eq!((error.line, error.column), (u32::try_from(lines + 1).ok(), Some(1001)));
        assert!(check_nesting(&text[..text.len() - 1], 1000).is_ok());
    }

    /// Pieces cover the input in order, each but the last ending a line.
    #[test]
    fn pieces_end_at_line_breaks() {
        let text = "a\nbb\nccc\ndddd\n";
        for count in 1..8 {
            let pieces = pieces(text.as_bytes(), count);
            let joined: Vec<u8> = pieces.iter().flat_map(|&(_, piece)| piece.iter().copied()).collect();
            assert_eq!(joined, text.as_bytes());
            for window in pieces.windows(2) {
                assert!(window[0].1.ends_with(b"\n"));
                assert_eq!(window[0].0 + window[0].1.len(), window[1].0);
            }
        }
    }

    #[test]
    fn error_is_at_the_bracket_past_the_limit() {
        let error = check_nesting("module {\n  \"x\" ({\n  ({})\n", 3).unwrap_err();
        assert_eq!((error.line, error.column), (Some(3), Some(3)));
    }

    #[test]
    fn error_lines_count_comments_and_strings() {
        let error = check_nesting("// ((\n\"a(b\" (\n é(", 1).unwrap_err();
        assert_eq!((error.line, error.column), (Some(3), Some(3)));
    }
}
