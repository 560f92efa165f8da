//! How errors are shown: with the source line and a caret under the place (the default), or as
//! one `file:line:col: message` line per problem (`--message-format short`, for editors and
//! CI). The engine's errors are typed values; only the binary renders them.

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource};
use muster_interpreter::error::{Error, Location};
use std::io::IsTerminal;

/// How diagnostics are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MessageFormat {
    /// The message, the source line with a caret under the place, and a help line.
    #[default]
    Human,
    /// One line per problem: `file:line:col: message (help)`.
    Short,
}

/// Renders an engine error: every problem it holds, in order.
#[must_use]
pub fn render(e: &Error, format: MessageFormat, colour: bool) -> String {
    match e {
        Error::Many(all) => all
            .iter()
            .map(|p| render(p, format, colour))
            .collect::<Vec<_>>()
            .join(if format == MessageFormat::Short {
                "\n"
            } else {
                "\n\n"
            }),
        _ if format == MessageFormat::Short => e.to_string(),
        Error::At { at, message, help } => {
            render_at(at, message, help.as_deref(), colour).unwrap_or_else(|| format!("error: {e}"))
        }
        _ => format!("error: {e}"),
    }
}

/// Whether standard error is a terminal that shows colour.
#[must_use]
pub fn colour_on_stderr() -> bool {
    std::io::stderr().is_terminal()
}

/// Whether standard output is a terminal that shows colour.
#[must_use]
pub fn colour_on_stdout() -> bool {
    std::io::stdout().is_terminal()
}

/// The human form of a problem at a place, or `None` when its file cannot be read (a place
/// in a file that is gone, say): then the one-line form stands in.
fn render_at(at: &Location, message: &str, help: Option<&str>, colour: bool) -> Option<String> {
    let text = std::fs::read_to_string(&at.file).ok()?;
    let span = span_at(&text, at.line, at.col)?;
    let mut diag = MietteDiagnostic::new(message.to_string())
        .with_label(LabeledSpan::underline(span))
        .with_severity(miette::Severity::Error);
    if let Some(h) = help {
        diag = diag.with_help(h.to_string());
    }
    let name = at.file.display().to_string();
    let report = miette::Report::new(diag).with_source_code(NamedSource::new(name, text));
    let mut theme = if colour {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    // The same first word as every other error the command prints.
    theme.characters.error = "error:".to_string();
    let mut out = String::new();
    GraphicalReportHandler::new_themed(theme)
        .with_context_lines(1)
        .render_report(&mut out, report.as_ref())
        .ok()?;
    Some(out.trim_start().trim_end().to_string())
}

/// The byte range to underline at a 1-based line and column (counted in characters): a quoted
/// string with its quotes, a word (an id, a key, a number or a range such as `4-2`), or one
/// character. `None` when the file is shorter than the place.
fn span_at(text: &str, line: usize, col: usize) -> Option<std::ops::Range<usize>> {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.max(1) - 1)
        .map(str::len)
        .sum();
    let line_text = text[line_start..].split('\n').next().unwrap_or_default();
    let start = line_start
        + line_text
            .char_indices()
            .nth(col.max(1) - 1)
            .map_or(line_text.len(), |(i, _)| i);
    if start > text.len() {
        return None;
    }
    let rest = &text[start..];
    let word = |c: char| c.is_alphanumeric() || "_-.+".contains(c);
    // A place just inside a quote is the quoted text: all of it, up to the closing quote.
    if text[..start].ends_with('"') {
        let len = rest.find(['"', '\n']).unwrap_or(rest.len());
        return Some(start..start + len.max(1).min(rest.len()));
    }
    let len = match rest.chars().next() {
        None | Some('\n') => 0,
        Some('"') => rest[1..].find(['"', '\n']).map_or(1, |i| i + 2),
        Some(c) if word(c) => rest.find(|c: char| !word(c)).unwrap_or(rest.len()),
        Some(c) => c.len_utf8(),
    };
    Some(start..start + len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_cover_the_token_at_the_place() {
        let text = "a: \"forst\",\nrange: 4-2,\n";
        assert_eq!(&text[span_at(text, 1, 4).unwrap()], "\"forst\"");
        assert_eq!(&text[span_at(text, 1, 5).unwrap()], "forst");
        let path = "ruleset: \"../rulesets/x\",";
        assert_eq!(&path[span_at(path, 1, 11).unwrap()], "../rulesets/x");
        assert_eq!(&text[span_at(text, 2, 8).unwrap()], "4-2");
        assert_eq!(&text[span_at(text, 2, 11).unwrap()], ",");
        assert_eq!(span_at(text, 9, 1), Some(text.len()..text.len()));
    }
}
