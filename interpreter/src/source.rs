//! Finding places in source text, so that a value that deserialized cleanly
//! but means nothing (an unknown terrain code, a bad table cell) can be
//! reported at its line and column.

use crate::error::{Error, Location};
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

/// Walks forward through a file's text looking for quoted strings in the
/// order a loader visits them. Because data files are visited in document
/// order, the n-th lookup of a string finds the occurrence that was loaded.
pub struct Cursor<'a> {
    text: &'a str,
    file: &'a Path,
    pos: usize,
    /// The last location worked out: (byte offset, line, offset of that line's start).
    /// Loaders ask for locations in document order, so lines are counted on from
    /// here rather than from the top of the file each time.
    mark: std::cell::Cell<(usize, usize, usize)>,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`, which was read from `file`.
    pub fn new(text: &'a str, file: &'a Path) -> Self {
        Cursor {
            text,
            file,
            pos: 0,
            mark: std::cell::Cell::new((0, 1, 0)),
        }
    }

    /// Moves past the next occurrence of `"needle"` and returns the location
    /// of its first character (inside the quotes). If the string cannot be
    /// found the location is the cursor's current position.
    pub fn find_str(&mut self, needle: &str) -> Location {
        let quoted = format!("\"{needle}\"");
        match self.text[self.pos..].find(&quoted) {
            Some(off) => {
                let start = self.pos + off + 1;
                self.pos = start + needle.len();
                self.location_of(start)
            }
            None => self.location_of(self.pos),
        }
    }

    /// Moves past the next occurrence of a bare word (a RON key or identifier).
    pub fn skip_to(&mut self, word: &str) {
        if let Some(off) = self.text[self.pos..].find(word) {
            self.pos += off + word.len();
        }
    }

    /// The location of a byte offset.
    pub fn location_of(&self, offset: usize) -> Location {
        let offset = offset.min(self.text.len());
        let (mut at, mut line, mut line_start) = self.mark.get();
        if offset < at {
            (at, line, line_start) = (0, 1, 0);
        }
        for (i, b) in self.text.as_bytes()[at..offset].iter().enumerate() {
            if *b == b'\n' {
                line += 1;
                line_start = at + i + 1;
            }
        }
        self.mark.set((offset, line, line_start));
        Location::new(self.file, line, offset - line_start + 1)
    }

    /// The location of the first `"needle"` at or after `from` (a place this cursor gave), or
    /// `from` itself when there is none: a unit's side or kind, found after its id.
    pub fn located_after(&mut self, from: &Location, needle: &str) -> Location {
        let offset = self
            .text
            .split_inclusive('\n')
            .take(from.line.saturating_sub(1))
            .map(str::len)
            .sum::<usize>()
            + from.col.saturating_sub(1);
        self.pos = offset.min(self.text.len());
        self.find_str(needle)
    }

    /// The location of the cursor.
    pub fn here(&self) -> Location {
        self.location_of(self.pos)
    }
}

/// Parses RON text into `T`, turning a syntax or shape error into an error at its line and
/// column, with a help line where one helps (the key probably meant, the keys allowed).
pub fn parse_ron<T: DeserializeOwned>(text: &str, file: &Path) -> Result<T, Error> {
    if text_is_blank(text) {
        return Err(Error::at(
            Location::file(file),
            "the file is empty (or holds only comments)",
        ));
    }
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .map_err(|e| {
            let mut col = e.position.col;
            if let ron::Error::NoSuchStructField { found, .. } = &e.code {
                // ron points past the key; the key itself is what is wrong.
                col = key_column(text, e.position.line, col, found).unwrap_or(col);
            }
            let at = Location::new(file, e.position.line, col);
            let (message, help) = ron_message(&e.code);
            Error::at(at, message).with_help(help)
        })
}

/// The 1-based column of the last `key` on `line` before column `before`.
fn key_column(text: &str, line: usize, before: usize, key: &str) -> Option<usize> {
    let line_text = text.lines().nth(line.checked_sub(1)?)?;
    let head: String = line_text.chars().take(before).collect();
    let byte = head.rfind(key)?;
    Some(head[..byte].chars().count() + 1)
}

/// Whether a RON text holds nothing but white space, comments and attributes.
fn text_is_blank(text: &str) -> bool {
    past_comments(text).is_empty()
}

/// ron's messages name the engine's Rust types (`in UnitSpec`); say it in the file's words,
/// with the keys a modder can use.
fn ron_message(code: &ron::Error) -> (String, Option<String>) {
    use ron::Error as E;
    match code {
        E::NoSuchStructField {
            expected, found, ..
        } => (
            format!("unknown key `{found}`"),
            Some(help_choosing(found, expected.iter().copied())),
        ),
        E::NoSuchEnumVariant {
            expected, found, ..
        } => (
            format!("unknown value `{found}`"),
            Some(help_choosing(found, expected.iter().copied())),
        ),
        E::MissingStructField { field, .. } => (
            format!("the key `{field}` is missing"),
            Some(format!("add `{field}: ...` (see docs/formats.md)")),
        ),
        E::DuplicateStructField { field, .. } => {
            (format!("the key `{field}` is given twice"), None)
        }
        E::ExpectedDifferentStructName { expected, found } => {
            (format!("expected `{expected}(`, found `{found}(`"), None)
        }
        other => (other.to_string(), None),
    }
}

/// Reads and parses a RON file.
pub fn load_ron<T: DeserializeOwned>(file: &Path) -> Result<(T, String), Error> {
    let text = crate::error::read_file(file)?;
    let value = parse_ron(&text, file)?;
    Ok((value, text))
}

/// The closest of `candidates` to `word` by edit distance, if any is close.
pub fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d < c.len() && *d <= (c.len().max(word.len()) / 3).max(1))
        .min()
        .map(|(_, c)| c)
}

/// The closest of `candidates` to `word`, as a help line: "did you mean `forest`?", or `None`
/// when nothing is close.
pub fn did_you_mean<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<String> {
    closest(word, candidates).map(|c| format!("did you mean `{c}`?"))
}

/// How many choices a help line lists before it says how many more there are.
const SHOWN_CHOICES: usize = 24;

/// A help line for a word that is not one of `candidates`: the closest of them, or else the
/// choices (the first two dozen).
pub fn help_choosing<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> String {
    let all: Vec<&str> = candidates.into_iter().collect();
    if let Some(h) = did_you_mean(word, all.iter().copied()) {
        return h;
    }
    match all.len() {
        0 => "there is nothing to choose from".to_string(),
        n if n <= SHOWN_CHOICES => format!("the choices are {}", quoted_list(&all)),
        n => format!(
            "the choices include {} and {} more",
            quoted_list(&all[..SHOWN_CHOICES]),
            n - SHOWN_CHOICES
        ),
    }
}

fn quoted_list(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| format!("`{w}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// A path written in `file`, resolved against `file`'s folder.
#[must_use]
pub fn relative_to(file: &Path, written: &str) -> PathBuf {
    normalize(&file.parent().unwrap_or(Path::new(".")).join(written))
}

/// Removes `.` and `name/..` pairs from a path without touching the disk, so
/// messages name files the way a person would.
#[must_use]
pub fn normalize(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    if out.is_empty() {
        PathBuf::from(".")
    } else {
        out.iter().collect()
    }
}

/// The text from its first item on: past white space, comments and `#![...]` attributes.
fn past_comments(text: &str) -> &str {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |(_, b)| b);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |(_, b)| b);
        } else if let Some(r) = rest.strip_prefix("#![") {
            rest = r.split_once(']').map_or("", |(_, b)| b);
        } else {
            return rest;
        }
    }
}

/// The name of the first item in a RON text, skipping comments.
#[must_use]
pub fn top_level_name(text: &str) -> Option<String> {
    let rest = past_comments(text);
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_finds_occurrences_in_order() {
        let text = "a: [\"x\", \"y\",\n  \"x\"]";
        let p = Path::new("f.ron");
        let mut c = Cursor::new(text, p);
        assert_eq!(c.find_str("x").to_string(), "f.ron:1:6");
        assert_eq!(c.find_str("x").to_string(), "f.ron:2:4");
    }

    #[test]
    fn locations_are_right_in_any_order() {
        // Counted on from the last location asked for, and again from the top when asked
        // for an earlier one.
        let text = "ab\ncd\n\nefg";
        let p = Path::new("f.ron");
        let c = Cursor::new(text, p);
        assert_eq!(c.location_of(8).to_string(), "f.ron:4:2");
        assert_eq!(c.location_of(4).to_string(), "f.ron:2:2");
        assert_eq!(c.location_of(0).to_string(), "f.ron:1:1");
        assert_eq!(c.location_of(6).to_string(), "f.ron:3:1");
        assert_eq!(c.location_of(99).to_string(), "f.ron:4:4");
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            did_you_mean("forst", ["forest", "clear"]).as_deref(),
            Some("did you mean `forest`?")
        );
        assert_eq!(did_you_mean("zzzzzz", ["forest", "clear"]), None);
        assert_eq!(
            help_choosing("zzzzzz", ["forest", "clear"]),
            "the choices are `forest`, `clear`"
        );
    }

    #[test]
    fn reads_the_kind_past_comments() {
        assert_eq!(
            top_level_name("// header\n/* more */\nScenario(\n"),
            Some("Scenario".into())
        );
        assert_eq!(
            top_level_name("#![enable(implicit_some)]\nMap("),
            Some("Map".into())
        );
        assert_eq!(top_level_name("   "), None);
    }
}
