//! Collecting MLIR diagnostics and printing them the way compilers do.

use std::sync::{Arc, Mutex};

use melior::{
    diagnostic::{Diagnostic as MlirDiagnostic, DiagnosticSeverity},
    ir::Location,
    Context,
};

use crate::shim;

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
    /// The file of its location, if any (`--verify-diagnostics` matches
    /// directives in that file, as mlir-opt does).
    pub file: Option<String>,
    /// The 1-based line of its location, if any.
    pub line: Option<u32>,
    /// The 1-based column of its location, if any.
    pub column: Option<u32>,
    /// The message text.
    pub message: String,
}

/// Collects every diagnostic emitted in a context (notes flattened after
/// their diagnostic) until dropped.
pub struct DiagnosticCollector<'c> {
    context: &'c Context,
    id: Option<melior::diagnostic::DiagnosticHandlerId>,
    collected: Arc<Mutex<Vec<Diagnostic>>>,
}

impl<'c> DiagnosticCollector<'c> {
    /// Starts collecting the diagnostics of `context`; they are not printed.
    pub fn attach(context: &'c Context) -> Self {
        let collected = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&collected);
        let id = context.attach_diagnostic_handler(move |diagnostic| {
            if let Ok(mut sink) = sink.lock() {
                flatten(&diagnostic, &mut sink);
            }
            true
        });
        Self { context, id: Some(id), collected }
    }

    /// The diagnostics collected so far, taken out of the collector.
    pub fn take(&self) -> Vec<Diagnostic> {
        self.collected.lock().map(|mut all| std::mem::take(&mut *all)).unwrap_or_default()
    }
}

impl Drop for DiagnosticCollector<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.context.detach_diagnostic_handler(id);
        }
    }
}

/// At most this many characters of a source line are shown under a
/// diagnostic, centred on its column.
const EXCERPT_WIDTH: usize = 160;

/// The part of `line` to show for a diagnostic at 0-based character
/// `column`, and the caret's position in it: the whole line when it is short,
/// otherwise a window around the column with `...` where it was cut.
fn excerpt(line: &str, column: usize) -> (String, usize) {
    let chars: Vec<char> = line.chars().collect();
    let column = column.min(chars.len());
    if chars.len() <= EXCERPT_WIDTH {
        return (line.to_string(), column);
    }
    let start = column.saturating_sub(EXCERPT_WIDTH / 2);
    let end = (start + EXCERPT_WIDTH).min(chars.len());
    let mut text = String::new();
    if start > 0 {
        text.push_str("...");
    }
    text.extend(&chars[start..end]);
    if end < chars.len() {
        text.push_str("...");
    }
    (text, column - start + if start > 0 { 3 } else { 0 })
}

fn flatten(diagnostic: &MlirDiagnostic, sink: &mut Vec<Diagnostic>) {
    let (file, line, column) = file_line_column(diagnostic.location());
    let severity = match diagnostic.severity() {
        DiagnosticSeverity::Error => Severity::Error,
        DiagnosticSeverity::Warning => Severity::Warning,
        DiagnosticSeverity::Note => Severity::Note,
        DiagnosticSeverity::Remark => Severity::Remark,
    };
    sink.push(Diagnostic { severity, file, line, column, message: diagnostic.to_string() });
    for index in 0..diagnostic.note_count() {
        if let Ok(note) = diagnostic.note(index) {
            flatten(&note, sink);
        }
    }
}

/// The file, line and column of the first file location inside `location`
/// (line 0, as LLVM IR's importer and whole-file problems use, names the
/// file only).
pub fn file_line_column(location: Location) -> (Option<String>, Option<u32>, Option<u32>) {
    match shim::file_line_col(location.to_raw()) {
        Some((file, 0, _)) => (Some(file), None, None),
        Some((file, line, column)) => (Some(file), Some(line), Some(column)),
        None => (None, None, None),
    }
}

/// Formats a diagnostic as `file:line:col: severity: message`, followed by
/// the source line and a caret when `source` holds that line.
pub fn render(diagnostic: &Diagnostic, fallback_file: &str, source: Option<&str>) -> String {
    let file = diagnostic.file.as_deref().unwrap_or(fallback_file);
    let mut text = match (diagnostic.line, diagnostic.column) {
        (Some(line), Some(column)) => format!("{file}:{line}:{column}: "),
        _ => format!("{file}: "),
    };
    text.push_str(diagnostic.severity.as_str());
    text.push_str(": ");
    text.push_str(&diagnostic.message);
    text.push('\n');
    let from_this_file = diagnostic.file.as_deref().is_none_or(|f| f == fallback_file);
    if let (Some(source), Some(line), Some(column), true) = (source, diagnostic.line, diagnostic.column, from_this_file)
    {
        if let Some(text_line) = source.lines().nth(line.saturating_sub(1) as usize) {
            let (excerpt, caret) = excerpt(text_line, column.saturating_sub(1) as usize);
            text.push_str(&excerpt);
            text.push('\n');
            text.push_str(&" ".repeat(caret));
            text.push_str("^\n");
        }
    }
    text
}
