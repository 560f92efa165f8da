//! Finding places in source text, so that a value that deserialized cleanly
//! but means nothing (an unknown terrain code, a bad table cell) can be
//! reported at its line and column.

use crate::error::{Error, Location};
use serde::de::DeserializeOwned;
use std::path::Path;

/// Walks forward through a file's text looking for quoted strings in the
/// order a loader visits them. Because data files are visited in document
/// order, the n-th lookup of a string finds the occurrence that was loaded.
pub struct Cursor<'a> {
    text: &'a str,
    file: &'a Path,
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`, which was read from `file`.
    pub fn new(text: &'a str, file: &'a Path) -> Self {
        Cursor { text, file, pos: 0 }
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
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let col = before
            .rfind('\n')
            .map_or(before.len(), |nl| before.len() - nl - 1)
            + 1;
        Location::new(self.file, line, col)
    }

    /// The location of the cursor.
    pub fn here(&self) -> Location {
        self.location_of(self.pos)
    }
}

/// Parses RON text into `T`, turning a syntax or shape error into an error at
/// its line and column.
pub fn parse_ron<T: DeserializeOwned>(text: &str, file: &Path) -> Result<T, Error> {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .map_err(|e| {
            let at = Location::new(file, e.position.line, e.position.col);
            Error::at(at, friendly_ron_message(&e.code.to_string()))
        })
}

/// Reads and parses a RON file.
pub fn load_ron<T: DeserializeOwned>(file: &Path) -> Result<(T, String), Error> {
    let text = crate::error::read_file(file)?;
    let value = parse_ron(&text, file)?;
    Ok((value, text))
}

/// ron's messages are precise but terse; add the hint a modder needs most.
fn friendly_ron_message(msg: &str) -> String {
    if msg.contains("Unexpected field") || msg.contains("unknown field") {
        format!(
            "{msg} (misspelt key? every key must be one the format documents, see docs/formats.md)"
        )
    } else {
        msg.to_string()
    }
}

/// The closest of `candidates` to `word` by edit distance, for "did you mean" hints.
pub fn did_you_mean<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> String {
    let best = candidates
        .into_iter()
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, c)| *d < c.len() && *d <= (c.len().max(word.len()) / 3).max(1))
        .min();
    match best {
        Some((_, c)) => format!(" (did you mean `{c}`?)"),
        None => String::new(),
    }
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
    fn suggestions() {
        assert_eq!(
            did_you_mean("forst", ["forest", "clear"]),
            " (did you mean `forest`?)"
        );
        assert_eq!(did_you_mean("zzzzzz", ["forest", "clear"]), "");
    }
}
