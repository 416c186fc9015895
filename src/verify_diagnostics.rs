//! `--verify-diagnostics`: checks emitted diagnostics against `expected-*`
//! directives written in the source.
//!
//! This mirrors MLIR's `SourceMgrDiagnosticVerifierHandler`
//! (`mlir/lib/IR/Diagnostics.cpp`). A directive reads
//! `expected-(error|warning|note|remark)(-re)? (@designator)? {{message}}`,
//! where the designator is `+N`, `-N`, `above`, `below` or `unknown`. A plain
//! directive matches a diagnostic of its severity on its target line whose
//! message contains the text; in the `-re` form, `{{...}}` blocks inside the
//! text are regular expressions (a small backtracking subset, see
//! [`Directive::matches_message`]). Each directive matches one diagnostic.
//! Unlike MLIR, malformed directives are reported instead of being ignored,
//! and several directives may share one physical line.

/// Severity of a diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// An error.
    Error,
    /// A warning.
    Warning,
    /// A note, usually attached to another diagnostic.
    Note,
    /// A remark.
    Remark,
}

impl Severity {
    const ALL: [Severity; 4] = [Self::Error, Self::Warning, Self::Note, Self::Remark];

    /// The word MLIR uses for the severity: `error`, `warning`, `note` or `remark`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Note => "note",
            Self::Remark => "remark",
        }
    }
}

/// One diagnostic MLIR emitted, with its location resolved to file/line/column
/// (line and column 1-based; `None` when the location has no file/line/col).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The severity of the diagnostic.
    pub severity: Severity,
    /// The file of its location, if any (ignored by the check).
    pub file: Option<String>,
    /// The 1-based line of its location, if any.
    pub line: Option<u32>,
    /// The 1-based column of its location, if any.
    pub column: Option<u32>,
    /// The message text.
    pub message: String,
}

/// One problem found by the check, located where mlir-opt would locate it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The 1-based line of the problem (0 when unknown).
    pub line: u32,
    /// The 1-based column of the problem (0 when unknown).
    pub column: u32,
    /// What went wrong.
    pub message: String,
}

/// One well-formed `expected-*` directive found in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    /// The severity the directive expects.
    pub severity: Severity,
    /// Whether this is the `-re` form, whose `{{...}}` blocks are regexes.
    pub regex: bool,
    /// The 1-based line the directive is written on.
    pub line: u32,
    /// The 1-based (byte) column where `expected-` starts.
    pub column: u32,
    /// The line the expected diagnostic is on; `None` for `@unknown`.
    pub target: Option<u32>,
    /// The text between the outer `{{` and `}}`.
    pub text: String,
    pattern: Option<Vec<Piece>>,
}

impl Directive {
    /// Whether `message` matches the directive's text: a substring test, or
    /// for `-re`, an unanchored search where `{{...}}` blocks are regexes
    /// made of literals, `.`, `[...]` classes (ranges, `^`, `[:alpha:]`...),
    /// `\d \w \s \D \W \S`, escapes, groups with `|`, `^`, `$`, and `* + ?`.
    pub fn matches_message(&self, message: &str) -> bool {
        match &self.pattern {
            None => message.contains(&self.text),
            Some(pattern) => {
                let chars: Vec<char> = message.chars().collect();
                (0..=chars.len()).any(|start| seq(pattern, &chars, start, &mut |_| true))
            }
        }
    }
}

/// Checks `diagnostics` against the `expected-*` directives in `source`.
/// Returns every mismatch, in source order (malformed directives and
/// directives not produced) followed by unexpected diagnostics in emission
/// order; empty means success.
pub fn verify(source: &str, diagnostics: &[Diagnostic]) -> Vec<Mismatch> {
    let (directives, mut mismatches) = scan(source);
    let mut matched = vec![false; directives.len()];
    let mut unexpected = Vec::new();
    for diagnostic in diagnostics {
        let line = diagnostic.line.filter(|&line| line != 0);
        let found = directives.iter().enumerate().position(|(index, directive)| {
            !matched[index]
                && directive.severity == diagnostic.severity
                && directive.target == line
                && directive.matches_message(&diagnostic.message)
        });
        match found {
            Some(index) => matched[index] = true,
            None => unexpected.push(Mismatch {
                line: diagnostic.line.unwrap_or(0),
                column: diagnostic.column.unwrap_or(0),
                message: format!("unexpected {}: {}", diagnostic.severity.as_str(), diagnostic.message),
            }),
        }
    }
    let missing = directives.iter().zip(&matched).filter(|(_, &matched)| !matched);
    mismatches.extend(missing.map(|(directive, _)| Mismatch {
        line: directive.line,
        column: directive.column,
        message: format!("expected {} \"{}\" was not produced", directive.severity.as_str(), directive.text),
    }));
    mismatches.sort_by_key(|mismatch| (mismatch.line, mismatch.column));
    mismatches.extend(unexpected);
    mismatches
}

/// Formats a mismatch the way mlir-opt prints it: `file:line:col: error: message`.
pub fn render(file: &str, mismatch: &Mismatch) -> String {
    format!("{file}:{}:{}: error: {}", mismatch.line, mismatch.column, mismatch.message)
}

/// Parses every `expected-*` directive of `source`, in source order. The
/// first malformed directive (bad designator, missing `{{` or `}}`, invalid
/// regex) is returned as the error, located at its `expected-`.
pub fn parse_directives(source: &str) -> Result<Vec<Directive>, Mismatch> {
    let (directives, errors) = scan(source);
    errors.into_iter().next().map_or(Ok(directives), Err)
}

/// Where `expected-<severity>(-re)?` was found on a line (byte offsets).
struct Head {
    start: usize,
    end: usize,
    severity: Severity,
    regex: bool,
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// Finds the directive heads on one line, skipping words like `unexpected-error`.
fn heads(text: &str) -> Vec<Head> {
    let mut heads = Vec::new();
    for (start, prefix) in text.match_indices("expected-") {
        if text[..start].chars().next_back().is_some_and(is_word) {
            continue;
        }
        let rest = &text[start + prefix.len()..];
        let Some(severity) = Severity::ALL.into_iter().find(|s| rest.starts_with(s.as_str())) else {
            continue;
        };
        let mut end = start + prefix.len() + severity.as_str().len();
        let regex = text[end..].starts_with("-re") && !text[end + 3..].chars().next().is_some_and(is_word);
        end += if regex { 3 } else { 0 };
        if !text[end..].chars().next().is_some_and(is_word) {
            heads.push(Head { start, end, severity, regex });
        }
    }
    heads
}

fn skip_blanks(text: &str, pos: usize) -> usize {
    text.len() - text[pos..].trim_start_matches([' ', '\t']).len()
}

/// What the `@` designator of a directive says.
enum Target {
    /// A line (the directive's own line when there is no designator).
    Line(u32),
    /// `@above`: the closest line above without directives.
    Above,
    /// `@below`: the closest line below without directives.
    Below,
    /// `@unknown`: diagnostics without a line.
    Unknown,
}

/// Parses the designator after a head on `line`; returns it and where the
/// text starts (after `{{`).
fn designator(text: &str, head: &Head, line: u32) -> Result<(Target, usize), &'static str> {
    const INVALID: &str = "has an invalid line designator";
    let mut pos = skip_blanks(text, head.end);
    let mut target = Target::Line(line);
    if let Some(after) = text[pos..].strip_prefix('@') {
        let len = after.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(after.len());
        target = match &after[..len] {
            "above" => Target::Above,
            "below" => Target::Below,
            "unknown" => Target::Unknown,
            token => {
                let (sign, digits) = match token.split_at_checked(1) {
                    Some(("+", digits)) => (1, digits),
                    Some(("-", digits)) => (-1, digits),
                    _ => return Err(INVALID),
                };
                let offset = match digits.bytes().all(|b| b.is_ascii_digit()) {
                    true => digits.parse::<i64>().map_err(|_| INVALID)?,
                    false => return Err(INVALID),
                };
                let target = i64::from(line).checked_add(sign * offset).and_then(|t| u32::try_from(t).ok());
                Target::Line(target.filter(|&t| t != 0).ok_or(INVALID)?)
            }
        };
        pos = skip_blanks(text, pos + 1 + len);
    }
    match text[pos..].starts_with("{{") {
        true => Ok((target, pos + 2)),
        false => Err("is missing '{{'"),
    }
}

/// Parses all directives, collecting malformed ones as mismatches.
fn scan(source: &str) -> (Vec<Directive>, Vec<Mismatch>) {
    let lines: Vec<&str> = source.split('\n').collect();
    let to_line = |index: usize| u32::try_from(index + 1).unwrap_or(u32::MAX);
    let (mut directives, mut errors) = (Vec::<Directive>::new(), Vec::new());
    let (mut pending_below, mut last_plain) = (Vec::<usize>::new(), 0);
    for (index, text) in lines.iter().enumerate() {
        let line = to_line(index);
        let heads = heads(text);
        if heads.is_empty() {
            for pending in pending_below.drain(..) {
                directives[pending].target = Some(line);
            }
            last_plain = index;
            continue;
        }
        let mut next = 0;
        while let Some(head) = heads.get(next) {
            next += 1;
            let column = u32::try_from(head.start + 1).unwrap_or(u32::MAX);
            let (severity, regex) = (head.severity, head.regex);
            let problem = |problem: &str| {
                let spelling = format!("expected-{}{}", severity.as_str(), if regex { "-re" } else { "" });
                Mismatch { line, column, message: format!("{spelling} directive {problem}") }
            };
            let (target, body) = match designator(text, head, line) {
                Ok(parsed) => parsed,
                Err(message) => {
                    errors.push(problem(message));
                    continue;
                }
            };
            // The text ends at the last `}}` before the next directive that
            // follows a `}}`; directives before that are part of the text.
            while heads.get(next).is_some_and(|h| !text[body..h.start.max(body)].contains("}}")) {
                next += 1;
            }
            let region = &text[body..heads.get(next).map_or(text.len(), |h| h.start)];
            let Some(close) = region.rfind("}}") else {
                errors.push(problem("is missing '}}'"));
                continue;
            };
            let text = region[..close].to_string();
            let pattern = match regex.then(|| compile(&text)).transpose() {
                Ok(pattern) => pattern,
                Err(message) => {
                    errors.push(Mismatch { line, column, message });
                    continue;
                }
            };
            let target = match target {
                Target::Line(target) => Some(target),
                Target::Above => Some(to_line(last_plain)),
                Target::Below => {
                    pending_below.push(directives.len());
                    Some(to_line(lines.len() - 1))
                }
                Target::Unknown => None,
            };
            directives.push(Directive { severity, regex, line, column, target, text, pattern });
        }
    }
    (directives, errors)
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    Char(char),
    Any,
    Class(Vec<(char, char)>, bool),
    Group(Vec<Vec<Piece>>),
    Start,
    End,
}

impl Node {
    fn accepts(&self, c: char) -> bool {
        match self {
            Node::Char(x) => *x == c,
            Node::Any => true,
            Node::Class(ranges, negated) => ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi) != *negated,
            _ => false,
        }
    }
}

/// An atom repeated between `min` and `max` times.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Piece {
    node: Node,
    min: usize,
    max: usize,
}

impl Piece {
    fn once(node: Node) -> Self {
        Piece { node, min: 1, max: 1 }
    }
}

/// Compiles `-re` text: literal text with `{{regex}}` blocks, like MLIR's `computeRegex`.
fn compile(text: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        pieces.extend(rest[..open].chars().map(|c| Piece::once(Node::Char(c))));
        let after = &rest[open + 2..];
        let close = after.find("}}").ok_or("found start of regex with no end '}}'")?;
        let chars: Vec<char> = after[..close].chars().collect();
        let mut parser = Parser { chars: &chars, pos: 0 };
        let alternatives = parser.alternation().map_err(|e| format!("invalid regex: {e}"))?;
        if parser.pos < chars.len() {
            return Err("invalid regex: parentheses not balanced".to_string());
        }
        pieces.push(Piece::once(Node::Group(alternatives)));
        rest = &after[close + 2..];
    }
    pieces.extend(rest.chars().map(|c| Piece::once(Node::Char(c))));
    Ok(pieces)
}

const DIGIT: &[(char, char)] = &[('0', '9')];
const WORD: &[(char, char)] = &[('0', '9'), ('A', 'Z'), ('a', 'z'), ('_', '_')];
const SPACE: &[(char, char)] = &[('\t', '\r'), (' ', ' ')];

/// The ranges of `\d`-style shorthands, and whether they are negated.
fn shorthand(c: char) -> Option<(&'static [(char, char)], bool)> {
    let ranges = match c.to_ascii_lowercase() {
        'd' => DIGIT,
        'w' => WORD,
        's' => SPACE,
        _ => return None,
    };
    Some((ranges, c.is_ascii_uppercase()))
}

fn unescape(c: char) -> char {
    match c {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        c => c,
    }
}

struct Parser<'a> {
    chars: &'a [char],
    pos: usize,
}

impl Parser<'_> {
    fn next(&mut self) -> Option<char> {
        let c = self.chars.get(self.pos).copied();
        self.pos += usize::from(c.is_some());
        c
    }

    fn peek_is(&self, wanted: &[char]) -> bool {
        self.chars.get(self.pos).is_some_and(|c| wanted.contains(c))
    }

    fn alternation(&mut self) -> Result<Vec<Vec<Piece>>, &'static str> {
        let mut alternatives = vec![self.sequence()?];
        while self.peek_is(&['|']) {
            self.pos += 1;
            alternatives.push(self.sequence()?);
        }
        Ok(alternatives)
    }

    fn sequence(&mut self) -> Result<Vec<Piece>, &'static str> {
        let mut pieces = Vec::new();
        while !self.peek_is(&['|', ')']) {
            let Some(c) = self.next() else { break };
            let node = match c {
                '(' => {
                    if self.chars[self.pos..].starts_with(&['?', ':']) {
                        self.pos += 2;
                    }
                    let alternatives = self.alternation()?;
                    if self.next() != Some(')') {
                        return Err("parentheses not balanced");
                    }
                    Node::Group(alternatives)
                }
                '[' => self.class()?,
                '.' => Node::Any,
                '^' => Node::Start,
                '$' => Node::End,
                '\\' => {
                    let escaped = self.next().ok_or("trailing backslash (\\)")?;
                    match shorthand(escaped) {
                        Some((ranges, negated)) => Node::Class(ranges.to_vec(), negated),
                        None => Node::Char(unescape(escaped)),
                    }
                }
                '*' | '+' | '?' => return Err("repetition-operator operand invalid"),
                c => Node::Char(c),
            };
            let (min, max) = match self.chars.get(self.pos) {
                Some('*') => (0, usize::MAX),
                Some('+') => (1, usize::MAX),
                Some('?') => (0, 1),
                _ => (1, 1),
            };
            self.pos += usize::from((min, max) != (1, 1));
            if (min, max) != (1, 1) && self.peek_is(&['*', '+', '?']) {
                return Err("repetition-operator operand invalid");
            }
            pieces.push(Piece { node, min, max });
        }
        Ok(pieces)
    }

    /// Parses a bracket expression; the `[` is already consumed.
    fn class(&mut self) -> Result<Node, &'static str> {
        const BRACKETS: &str = "brackets ([ ]) not balanced";
        let negated = self.peek_is(&['^']);
        self.pos += usize::from(negated);
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let c = self.next().ok_or(BRACKETS)?;
            if c == ']' && !first {
                return Ok(Node::Class(ranges, negated));
            }
            first = false;
            let low = match c {
                '[' if self.peek_is(&[':']) => {
                    let rest = &self.chars[self.pos + 1..];
                    let len = rest.windows(2).position(|w| w == [':', ']']).ok_or(BRACKETS)?;
                    ranges.extend(named_class(&rest[..len].iter().collect::<String>())?);
                    self.pos += len + 3;
                    continue;
                }
                '\\' => {
                    let escaped = self.next().ok_or("trailing backslash (\\)")?;
                    match shorthand(escaped) {
                        Some((_, true)) => return Err("invalid character class"),
                        Some((more, false)) => {
                            ranges.extend_from_slice(more);
                            continue;
                        }
                        None => unescape(escaped),
                    }
                }
                c => c,
            };
            if self.peek_is(&['-']) && self.chars.get(self.pos + 1).is_some_and(|&c| c != ']') {
                self.pos += 1;
                let high = match self.next().ok_or(BRACKETS)? {
                    '\\' => unescape(self.next().ok_or("trailing backslash (\\)")?),
                    c => c,
                };
                if high < low {
                    return Err("invalid character range");
                }
                ranges.push((low, high));
            } else {
                ranges.push((low, low));
            }
        }
    }
}

fn named_class(name: &str) -> Result<Vec<(char, char)>, &'static str> {
    Ok(match name {
        "alpha" => vec![('A', 'Z'), ('a', 'z')],
        "digit" => DIGIT.to_vec(),
        "alnum" => vec![('0', '9'), ('A', 'Z'), ('a', 'z')],
        "upper" => vec![('A', 'Z')],
        "lower" => vec![('a', 'z')],
        "space" => SPACE.to_vec(),
        "xdigit" => vec![('0', '9'), ('A', 'F'), ('a', 'f')],
        "punct" => vec![('!', '/'), (':', '@'), ('[', '`'), ('{', '~')],
        _ => return Err("invalid character class"),
    })
}

/// Matches `pieces` against `s` from `i`, calling `k` with each end position
/// (longest first) until it returns true.
fn seq(pieces: &[Piece], s: &[char], i: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    let Some((Piece { node, min, max }, rest)) = pieces.split_first() else {
        return k(i);
    };
    let mut next = |j: usize| seq(rest, s, j, k);
    if matches!(node, Node::Char(_) | Node::Any | Node::Class(..)) {
        // Single-character atom: count the run instead of recursing per char.
        let run = s[i..].iter().take(*max).take_while(|&&c| node.accepts(c)).count();
        return run >= *min && (*min..=run).rev().any(|n| next(i + n));
    }
    repeat(node, *min, *max, s, i, &mut next)
}

/// Matches `node` between `min` and `max` times (greedily) from `i`.
fn repeat(node: &Node, min: usize, max: usize, s: &[char], i: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    let mut again = |j: usize| (j > i || min > 0) && repeat(node, min.saturating_sub(1), max - 1, s, j, k);
    (max > 0 && atom(node, s, i, &mut again)) || (min == 0 && k(i))
}

fn atom(node: &Node, s: &[char], i: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    match node {
        Node::Group(alternatives) => alternatives.iter().any(|alternative| seq(alternative, s, i, k)),
        Node::Start => i == 0 && k(i),
        Node::End => i == s.len() && k(i),
        _ => s.get(i).is_some_and(|&c| node.accepts(c)) && k(i + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    use Severity::{Error as E, Note as N, Remark as R, Warning as W};

    fn at(severity: Severity, line: u32, message: &str) -> Diagnostic {
        let file = Some("in.mlir".to_string());
        Diagnostic { severity, file, line: Some(line), column: Some(3), message: message.to_string() }
    }

    fn nowhere(severity: Severity, message: &str) -> Diagnostic {
        Diagnostic { severity, file: None, line: None, column: None, message: message.to_string() }
    }

    fn messages(source: &str, diagnostics: &[Diagnostic]) -> Vec<String> {
        verify(source, diagnostics).into_iter().map(|m| format!("{}:{}: {}", m.line, m.column, m.message)).collect()
    }

    #[rstest]
    #[case::same_line("op // expected-error {{bad}}", vec![at(E, 1, "bad")])]
    #[case::plus("// expected-warning@+2 {{w}}\n\nop", vec![at(W, 3, "w")])]
    #[case::minus("op\n\n// expected-remark@-2 {{r}}", vec![at(R, 1, "r")])]
    #[case::spaced_designator("// expected-error @+1   {{x}}\nop", vec![at(E, 2, "x")])]
    #[case::no_space("op //expected-error{{x}}", vec![at(E, 1, "x")])]
    #[case::above("op\n// expected-error@above {{a}}\n// expected-note@above {{b}}", vec![at(E, 1, "a"), at(N, 1, "b")])]
    #[case::below("// expected-error@below {{a}}\n// expected-note@below {{b}}\nop", vec![at(E, 3, "a"), at(N, 3, "b")])]
    #[case::above_first_line("// expected-error@above {{a}}", vec![at(E, 1, "a")])]
    #[case::unknown("// expected-error@unknown {{lost}}", vec![nowhere(E, "lost")])]
    #[case::same_target("// expected-error@+2 {{a}}\n// expected-error@+1 {{b}}\nop", vec![at(E, 3, "b"), at(E, 3, "a")])]
    #[case::one_line_two("op // expected-error {{a}} // expected-note {{b}}", vec![at(N, 1, "b"), at(E, 1, "a")])]
    #[case::note_after_error("op // expected-error {{bad}}\n// expected-note@-1 {{see}}", vec![at(E, 1, "bad"), at(N, 1, "see")])]
    #[case::substring("op // expected-error {{bad op}}", vec![at(E, 1, "'x.y' is a bad op here")])]
    #[case::greedy_text("op // expected-error {{expected '}}' here}}", vec![at(E, 1, "expected '}}' here")])]
    #[case::directive_word_in_text("op // expected-error {{'expected-error' is odd}}", vec![at(E, 1, "'expected-error' is odd")])]
    #[case::regex("op // expected-error-re {{operand #{{[0-9]+}} must be}}", vec![at(E, 1, "'a.b' operand #12 must be i32")])]
    #[case::regex_two("// expected-error-re@+1 {{{{^}}a{{.*}}b{{$}}}}\nop", vec![at(E, 2, "a--b")])]
    #[case::unicode("é // expected-error {{ünï}}", vec![at(E, 1, "x ünïcödé")])]
    #[case::unicode_re("é // expected-error-re {{é{{.}}ü}}", vec![at(E, 1, "éxü")])]
    #[case::trailing_cr("op // expected-error {{a}}\r\nop", vec![at(E, 1, "a")])]
    #[case::line_zero_is_unknown("// expected-error@unknown {{x}}", vec![at(E, 0, "x")])]
    fn accepted(#[case] source: &str, #[case] diagnostics: Vec<Diagnostic>) {
        assert_eq!(verify(source, &diagnostics), vec![]);
    }

    #[rstest]
    #[case::not_produced("op\n  // expected-error@-1 {{gone}}", vec![], &["2:6: expected error \"gone\" was not produced"])]
    #[case::unexpected("op", vec![at(W, 1, "hm")], &["1:3: unexpected warning: hm"])]
    #[case::unexpected_unknown("op", vec![nowhere(R, "r")], &["0:0: unexpected remark: r"])]
    #[case::wrong_severity("op // expected-error {{x}}", vec![at(W, 1, "x")], &["1:7: expected error \"x\" was not produced", "1:3: unexpected warning: x"])]
    #[case::wrong_line("op\n// expected-error@+1 {{x}}", vec![at(E, 2, "x")], &["2:4: expected error \"x\" was not produced", "2:3: unexpected error: x"])]
    #[case::not_substring("op // expected-note {{bad op!}}", vec![at(N, 1, "bad op")], &["1:7: expected note \"bad op!\" was not produced", "1:3: unexpected note: bad op"])]
    #[case::used_once("op // expected-error {{x}}", vec![at(E, 1, "x"), at(E, 1, "x")], &["1:3: unexpected error: x"])]
    #[case::unknown_vs_line("// expected-error@unknown {{x}}", vec![at(E, 1, "x")], &["1:4: expected error \"x\" was not produced", "1:3: unexpected error: x"])]
    #[case::regex_miss("op // expected-error-re {{#{{[0-9]+}}}}", vec![at(E, 1, "#x")], &["1:7: expected error \"#{{[0-9]+}}\" was not produced", "1:3: unexpected error: #x"])]
    #[case::dangling_below("op\n// expected-error@below {{x}}", vec![], &["2:4: expected error \"x\" was not produced"])]
    #[case::ordering("// expected-note@+2 {{n}}\n// expected-error {{e}}\nop", vec![at(R, 9, "b"), at(R, 1, "a")], &["1:4: expected note \"n\" was not produced", "2:4: expected error \"e\" was not produced", "9:3: unexpected remark: b", "1:3: unexpected remark: a"])]
    #[case::malformed_kept("// expected-error@+x {{a}}\n// expected-error {{b}}", vec![at(E, 2, "b")], &["1:4: expected-error directive has an invalid line designator"])]
    #[case::unicode_column("éé // expected-warning {{ü}}", vec![at(W, 1, "ö")], &["1:9: expected warning \"ü\" was not produced", "1:3: unexpected warning: ö"])]
    fn rejected(#[case] source: &str, #[case] diagnostics: Vec<Diagnostic>, #[case] expected: &[&str]) {
        assert_eq!(messages(source, &diagnostics), expected);
    }

    #[rstest]
    #[case::bad_offset("// expected-error@+x {{a}}", "expected-error directive has an invalid line designator")]
    #[case::bad_word("// expected-note@abovex {{a}}", "expected-note directive has an invalid line designator")]
    #[case::empty_designator("// expected-error@ {{a}}", "expected-error directive has an invalid line designator")]
    #[case::sign_only("// expected-error@- {{a}}", "expected-error directive has an invalid line designator")]
    #[case::before_first_line("// expected-error@-1 {{a}}", "expected-error directive has an invalid line designator")]
    #[case::huge_offset(
        "// expected-error@+99999999999999999999 {{a}}",
        "expected-error directive has an invalid line designator"
    )]
    #[case::overflow_offset(
        "// expected-error@+9223372036854775807 {{a}}",
        "expected-error directive has an invalid line designator"
    )]
    #[case::unicode_designator("// expected-error@é {{a}}", "expected-error directive has an invalid line designator")]
    #[case::no_open("// expected-warning bad", "expected-warning directive is missing '{{'")]
    #[case::single_brace("// expected-error {a}", "expected-error directive is missing '{{'")]
    #[case::at_end("// expected-remark", "expected-remark directive is missing '{{'")]
    #[case::no_close("// expected-error {{unterminated", "expected-error directive is missing '}}'")]
    #[case::re_no_close("// expected-error-re {{x}", "expected-error-re directive is missing '}}'")]
    #[case::re_block_open("// expected-error-re {{x {{a}}", "found start of regex with no end '}}'")]
    #[case::re_bracket("// expected-error-re {{{{[0-9}}}}", "invalid regex: brackets ([ ]) not balanced")]
    #[case::re_paren("// expected-error-re {{{{(a}}}}", "invalid regex: parentheses not balanced")]
    #[case::re_close_paren("// expected-error-re {{{{a)}}}}", "invalid regex: parentheses not balanced")]
    #[case::re_repeat("// expected-error-re {{{{*a}}}}", "invalid regex: repetition-operator operand invalid")]
    #[case::re_double_repeat("// expected-error-re {{{{a+*}}}}", "invalid regex: repetition-operator operand invalid")]
    #[case::re_backslash("// expected-error-re {{{{a\\}}}}", "invalid regex: trailing backslash (\\)")]
    #[case::re_range("// expected-error-re {{{{[z-a]}}}}", "invalid regex: invalid character range")]
    #[case::re_class_name("// expected-error-re {{{{[[:foo:]]}}}}", "invalid regex: invalid character class")]
    fn malformed(#[case] source: &str, #[case] message: &str) {
        let expected = Mismatch { line: 1, column: 4, message: message.to_string() };
        assert_eq!(parse_directives(source), Err(expected.clone()));
        assert_eq!(verify(source, &[]), vec![expected]);
    }

    #[rstest]
    #[case::unexpected_word("// unexpected-error {{a}}")]
    #[case::plural("// expected-errors are fine")]
    #[case::suffix("// expected-error-free code")]
    #[case::prefix("// not-expected-error {{a}}")]
    #[case::other_kind("// expected-fatal {{a}}")]
    fn not_directives(#[case] source: &str) {
        assert_eq!(parse_directives(source), Ok(vec![]));
    }

    #[rstest]
    #[case::same("a\nb // expected-error {{m}}", E, false, 2, 6, Some(2), "m")]
    #[case::plus("// expected-warning-re@+3 {{x{{y}}}}", W, true, 1, 4, Some(4), "x{{y}}")]
    #[case::minus("\n\n\t// expected-note @-2{{ n }}", N, false, 3, 5, Some(1), " n ")]
    #[case::above("x\n\n// expected-remark@above {{}}", R, false, 3, 4, Some(2), "")]
    #[case::below("// expected-error@below {{m}}\n// expected-note {{n}}\n\nx", E, false, 1, 4, Some(3), "m")]
    #[case::dangling("// expected-error@below {{m}}\n", E, false, 1, 4, Some(2), "m")]
    #[case::unknown("// expected-error@unknown {{m}}", E, false, 1, 4, None, "m")]
    #[case::trailing("// expected-error {{m}} trailing", E, false, 1, 4, Some(1), "m")]
    #[allow(clippy::too_many_arguments)]
    fn parsed(
        #[case] source: &str,
        #[case] severity: Severity,
        #[case] regex: bool,
        #[case] line: u32,
        #[case] column: u32,
        #[case] target: Option<u32>,
        #[case] text: &str,
    ) {
        let directive = &parse_directives(source).unwrap()[0];
        assert_eq!(
            (directive.severity, directive.regex, directive.line, directive.column, directive.target),
            (severity, regex, line, column, target)
        );
        assert_eq!(directive.text, text);
    }

    #[rstest]
    #[case::literal_dot("a.b", "a.b", true)]
    #[case::literal_dot_miss("a.b", "axb", false)]
    #[case::any("a{{.}}b", "axb", true)]
    #[case::class_range("{{[0-9a-f]+}}!", "id 3fa!", true)]
    #[case::class_range_miss("#{{[0-9]+}}", "#x", false)]
    #[case::negated("<{{[^>]*}}>", "<abc>", true)]
    #[case::negated_miss("<{{[^a]}}>", "<a>", false)]
    #[case::class_literal_bracket("{{[]x]}}", "]", true)]
    #[case::class_dash_end("{{[a-]}}", "-", true)]
    #[case::class_escape("{{[\\]]}}", "]", true)]
    #[case::class_shorthand("{{[\\d_]+}}$", "_9$", true)]
    #[case::posix_class("{{[[:alpha:]]+[[:digit:]]}}", "abc1", true)]
    #[case::digit("{{\\d\\d}}", "v12", true)]
    #[case::digit_miss("{{\\d\\d}}", "v1x", false)]
    #[case::word("{{\\w+}} = {{\\w+}}", "%x_1 = y9", true)]
    #[case::space("a{{\\s}}b", "a\tb", true)]
    #[case::not_space("a{{\\S}}b", "a b", false)]
    #[case::escaped("{{\\.}}", "x", false)]
    #[case::escaped_star("{{a\\*}}", "a*", true)]
    #[case::star_empty("ab{{c*}}d", "abd", true)]
    #[case::plus_empty("ab{{c+}}d", "abd", false)]
    #[case::optional("colou{{r?}}", "colou", true)]
    #[case::backtrack("{{.*}}ab{{.*}}ab", "xxabyyab", true)]
    #[case::backtrack_miss("{{a*}}ab", "aaa", false)]
    #[case::alternation("type {{(i32|f32)}}", "type f32", true)]
    #[case::alternation_scoped("x{{a|b}}y", "xby", true)]
    #[case::group_star("{{(ab)*}}c", "ababc", true)]
    #[case::group_plus("{{^(ab)+$}}", "abab", true)]
    #[case::group_plus_miss("{{^(ab)+$}}", "aba", false)]
    #[case::noncapture("{{(?:a|b)+}}!", "abba!", true)]
    #[case::anchors("{{^}}op{{$}}", "op", true)]
    #[case::anchor_miss("{{^}}op", "an op", false)]
    #[case::unanchored("op", "an op here", true)]
    #[case::unicode("{{[é-ë]}}{{.}}", "xêü", true)]
    #[case::empty_block("a{{}}b", "ab", true)]
    fn regex(#[case] text: &str, #[case] message: &str, #[case] expected: bool) {
        let source = format!("// expected-error-re {{{{{text}}}}}");
        let directive = &parse_directives(&source).unwrap()[0];
        assert_eq!(directive.text, text);
        assert_eq!(directive.matches_message(message), expected);
    }

    #[test]
    fn plain_text_is_not_a_regex() {
        let directive = &parse_directives("// expected-error {{a{{.}}b}}").unwrap()[0];
        assert!(directive.matches_message("x a{{.}}b"));
        assert!(!directive.matches_message("axb"));
    }

    #[test]
    fn long_messages_do_not_recurse_per_char() {
        let directive = &parse_directives("// expected-error-re {{a{{.*}}b{{[0-9]*}}}}").unwrap()[0];
        let message = format!("a{}b{}", "x".repeat(200_000), "1".repeat(100_000));
        assert!(directive.matches_message(&message));
    }

    #[test]
    fn renders_like_mlir_opt() {
        let mismatch = Mismatch { line: 3, column: 7, message: "unexpected error: boom".to_string() };
        assert_eq!(render("t.mlir", &mismatch), "t.mlir:3:7: error: unexpected error: boom");
        assert_eq!(Severity::ALL.map(Severity::as_str), ["error", "warning", "note", "remark"]);
    }

    #[test]
    fn never_panics_on_truncated_or_odd_input() {
        let line = "é // expected-error-re@+1 {{ü{{[é-ü]+(a|b)*\\d}}ö}} expected-note@below {{x}}";
        let extra = ["@", "@-", "{{", "}}", "[", "\\", "(", "expected-error", "\u{0}", "\r\n"];
        let message = "éü ab 1 ö";
        for (end, _) in line.char_indices().chain([(line.len(), ' ')]) {
            for tail in extra {
                let source = format!("{}{tail}\n{}", &line[..end], &line[end..]);
                let diagnostics = [at(E, 2, message), at(N, 3, message), nowhere(R, message)];
                let _ = parse_directives(&source);
                let _ = verify(&source, &diagnostics);
            }
        }
    }
}
