//! Pass options: one typed struct per pass, built from command-line text in
//! one place.
//!
//! MLIR writes pass options as `name{key=value key2=value2}`; a boolean may be
//! written bare (`name{vector-copy}` means `vector-copy=true`). Every options
//! struct implements [`PassOptions`], which lists the options with their
//! defaults (what `ptxcc-opt --help` prints) and parses the text between the
//! braces.

use std::fmt::Write as _;

/// One option of a pass, as `--help` shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// Kebab-case name (`inline-copy-threshold`).
    pub name: &'static str,
    /// Default value, as text (`256`).
    pub default: &'static str,
    /// What it does.
    pub description: &'static str,
}

/// Why option text could not be parsed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OptionError {
    /// The pass has no option of that name.
    #[error("unknown option '{name}' for pass '{pass}' (it has: {known})")]
    Unknown {
        /// The pass.
        pass: &'static str,
        /// The unknown name.
        name: String,
        /// The names the pass knows, comma separated.
        known: String,
    },
    /// The value does not parse.
    #[error("option '{name}' of pass '{pass}' expects {expected}, got '{value}'")]
    Invalid {
        /// The pass.
        pass: &'static str,
        /// The option.
        name: String,
        /// What was given.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
}

/// A typed options struct of one pass.
pub trait PassOptions: Default + Clone + Send + 'static {
    /// The pass these options belong to (its command-line name).
    const PASS: &'static str;
    /// Every option with its default, in the order `--help` shows them.
    const OPTIONS: &'static [OptionInfo];

    /// Sets one option from text; `value` is `None` for a bare name.
    fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError>;

    /// The options as MLIR pipeline text (`key=value key=value`).
    fn to_text(&self) -> String;

    /// Parses the text between a pass's braces, starting from the defaults.
    fn parse(text: &str) -> Result<Self, OptionError> {
        let mut options = Self::default();
        for item in split_options(text) {
            let (name, value) = match item.split_once('=') {
                Some((name, value)) => (name.trim(), Some(unquote(value.trim()))),
                None => (item.trim(), None),
            };
            if !Self::OPTIONS.iter().any(|option| option.name == name) {
                return Err(OptionError::Unknown {
                    pass: Self::PASS,
                    name: name.to_string(),
                    known: Self::OPTIONS.iter().map(|o| o.name).collect::<Vec<_>>().join(", "),
                });
            }
            options.set(name, value)?;
        }
        Ok(options)
    }
}

/// Splits `a=1 b="x y" c={d=1}` at top-level white space.
fn split_options(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut quoted, mut start) = (0i32, false, None);
    for (index, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '{' | '[' | '(' if !quoted => depth += 1,
            '}' | ']' | ')' if !quoted => depth -= 1,
            c if c.is_whitespace() && !quoted && depth <= 0 => {
                if let Some(s) = start.take() {
                    items.push(&text[s..index]);
                }
                continue;
            }
            _ => {}
        }
        start.get_or_insert(index);
    }
    if let Some(s) = start {
        items.push(&text[s..]);
    }
    items
}

fn unquote(value: &str) -> &str {
    value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value)
}

/// Parses a boolean option (`true`/`false`/`1`/`0`; bare means true).
pub fn parse_bool(pass: &'static str, name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("true" | "1" | "on") => Ok(true),
        Some("false" | "0" | "off") => Ok(false),
        Some(_) => Err(invalid(pass, name, value, "true or false")),
    }
}

/// Parses an unsigned integer option.
pub fn parse_u64(pass: &'static str, name: &str, value: Option<&str>) -> Result<u64, OptionError> {
    value.and_then(|v| v.parse().ok()).ok_or_else(|| invalid(pass, name, value, "an unsigned integer"))
}

/// Parses a chip name option (`sm_90`); the name is checked when a target
/// is resolved.
pub fn parse_chip(pass: &'static str, name: &str, value: Option<&str>) -> Result<String, OptionError> {
    value
        .filter(|v| !v.is_empty())
        .map(str::to_string)
        .ok_or_else(|| invalid(pass, name, value, "a chip name such as sm_90"))
}

/// Parses a PTX version option (times ten: `80` for PTX 8.0; 0 for the
/// chip's minimum).
pub fn parse_ptx(pass: &'static str, name: &str, value: Option<&str>) -> Result<u32, OptionError> {
    value.and_then(|v| v.parse().ok()).ok_or_else(|| invalid(pass, name, value, "a PTX version times ten, such as 80"))
}

fn invalid(pass: &'static str, name: &str, value: Option<&str>, expected: &'static str) -> OptionError {
    OptionError::Invalid { pass, name: name.to_string(), value: value.unwrap_or_default().to_string(), expected }
}

/// Formats `key=value` pairs as pipeline option text.
pub fn format_options(pairs: &[(&str, String)]) -> String {
    let mut text = String::new();
    for (index, (name, value)) in pairs.iter().enumerate() {
        let _ = write!(text, "{}{name}={value}", if index > 0 { " " } else { "" });
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    #[rstest]
    #[case("", vec![])]
    #[case("a=1", vec!["a=1"])]
    #[case("  a=1   b=true ", vec!["a=1", "b=true"])]
    #[case("a=\"x y\" b", vec!["a=\"x y\"", "b"])]
    #[case("p={x=1 y=2} q=3", vec!["p={x=1 y=2}", "q=3"])]
    fn splits_option_text(#[case] text: &str, #[case] expected: Vec<&str>) {
        assert_eq!(split_options(text), expected);
    }

    #[rstest]
    #[case(None, Ok(true))]
    #[case(Some("true"), Ok(true))]
    #[case(Some("FALSE"), Ok(false))]
    #[case(Some("0"), Ok(false))]
    #[case(Some("yes please"), Err(()))]
    fn parses_booleans(#[case] value: Option<&str>, #[case] expected: Result<bool, ()>) {
        assert_eq!(parse_bool("p", "b", value).map_err(|_| ()), expected);
    }

    #[rstest]
    #[case(Some("256"), Ok(256))]
    #[case(Some("-1"), Err(()))]
    #[case(Some("x"), Err(()))]
    #[case(None, Err(()))]
    fn parses_unsigned(#[case] value: Option<&str>, #[case] expected: Result<u64, ()>) {
        assert_eq!(parse_u64("p", "n", value).map_err(|_| ()), expected);
    }
}
