//! The game log: structured records of every roll, decision and rules event
//! (written as JSON lines), and a readable narration of them.

use crate::error::{Error, Location, Result};
use crate::value::Value;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The log format this version writes in its header line ([`Header::log`]).
pub const LOG_FORMAT: u32 = 1;

/// The first line of a log that `muster play --log` writes: the game's start, so that the
/// game can be played again from the log (its decision records are the answers). A save
/// (`save::SaveFile`) without its answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The log format ([`LOG_FORMAT`]); also what tells the header from a record.
    pub log: u32,
    /// The scenario, as the command line named it.
    pub scenario: PathBuf,
    /// The ruleset's name.
    pub ruleset: String,
    /// The ruleset's version when the game was played.
    pub rules_version: String,
    /// The seed of the dice.
    pub seed: u64,
    /// The options that overrode the scenario's (`--option`).
    #[serde(default)]
    pub options: IndexMap<String, Value>,
    /// Who played each side, as the command line writes it.
    pub agents: IndexMap<String, String>,
}

impl Header {
    /// The header as one JSON line, newline included.
    #[must_use]
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default() + "\n"
    }
}

/// A log read back: its header, if it has one (logs before format 1 have none), and its
/// records.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogFile {
    /// The game's start, from the first line.
    pub header: Option<Header>,
    /// The records, in order.
    pub records: Vec<Record>,
}

impl LogFile {
    /// Reads a JSON-lines log from `path`.
    pub fn load(path: &Path) -> Result<LogFile> {
        LogFile::parse(&crate::error::read_file(path)?, path)
    }

    /// Reads JSON-lines log text, read from `path` (for the places of errors): a header line
    /// first, or none, then one record a line; blank lines are passed over.
    pub fn parse(text: &str, path: &Path) -> Result<LogFile> {
        let mut out = LogFile::default();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = |e: &serde_json::Error| Location::new(path, i + 1, e.column());
            if out.header.is_none()
                && out.records.is_empty()
                && line.trim_start().starts_with("{\"log\":")
            {
                let h = serde_json::from_str(line)
                    .map_err(|e| Error::at(at(&e), format!("not a log header: {e}")))?;
                out.header = Some(h);
                continue;
            }
            let rec = serde_json::from_str(line)
                .map_err(|e| Error::at(at(&e), format!("not a log record: {e}")))?;
            out.records.push(rec);
        }
        Ok(out)
    }
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Entry {
    /// A new game turn began.
    Turn {
        /// The turn number.
        number: i64,
    },
    /// A die was rolled.
    Roll {
        /// The die's name.
        die: String,
        /// The face.
        value: i64,
        /// Whether the value was forced (examples).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        forced: bool,
    },
    /// A side made a decision.
    Decision {
        /// The side.
        side: String,
        /// The kind of decision (the ruleset's word).
        kind: String,
        /// Index of the chosen option.
        choice: usize,
        /// The chosen option as text.
        label: String,
        /// Who answered: human, random, bot, replay or forced.
        agent: String,
    },
    /// A rules event reported by a script.
    Event {
        /// The event's kind (the ruleset's word).
        kind: String,
        /// Readable text.
        text: String,
        /// The hexes the event comes from (a combat's attackers), by printed id: only when the
        /// script says (`game.event(kind, text, #{ from, to })`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        from: Vec<String>,
        /// The hex the event goes to (a combat's target), by printed id: only when the script
        /// says.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<String>,
    },
}

/// One log record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Sequence number from 0.
    pub seq: usize,
    /// The game turn when it happened.
    pub turn: i64,
    /// What happened.
    #[serde(flatten)]
    pub entry: Entry,
}

impl Record {
    /// The record as one line of narration.
    #[must_use]
    pub fn narrate(&self) -> String {
        match &self.entry {
            Entry::Turn { number } => format!("== Turn {number} =="),
            Entry::Roll { die, value, forced } => {
                format!(
                    "  roll {die}: {value}{}",
                    if *forced { " (forced)" } else { "" }
                )
            }
            Entry::Decision {
                side,
                kind,
                label,
                agent,
                ..
            } => format!("  {side} ({agent}) {kind}: {label}"),
            Entry::Event { text, .. } => format!("  {text}"),
        }
    }
}

/// The log of one game.
#[derive(Clone, Debug, Default)]
pub struct Log {
    records: Vec<Record>,
    /// Echo narration to standard output as records arrive (rolls excluded
    /// unless `echo_rolls`).
    pub echo: bool,
    /// Echo rolls too.
    pub echo_rolls: bool,
}

impl Log {
    /// Adds a record (the world's [`crate::world::World::record`] is the one caller, so that a
    /// watcher sees every record).
    pub fn push(&mut self, turn: i64, entry: Entry) {
        let rec = Record {
            seq: self.records.len(),
            turn,
            entry,
        };
        if self.echo && (self.echo_rolls || !matches!(rec.entry, Entry::Roll { .. })) {
            // A closed pipe (`muster play ... | head`) stops the echo, not the game.
            if writeln!(std::io::stdout().lock(), "{}", rec.narrate()).is_err() {
                self.echo = false;
            }
        }
        self.records.push(rec);
    }

    /// All records.
    #[must_use]
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The whole log as JSON lines.
    #[must_use]
    pub fn to_jsonl(&self) -> String {
        self.first_to_jsonl(self.records.len())
    }

    /// The first `n` records as JSON lines (the log as it stood when it held `n`).
    #[must_use]
    pub fn first_to_jsonl(&self, n: usize) -> String {
        let mut out = String::new();
        for r in &self.records[..n.min(self.records.len())] {
            out.push_str(&serde_json::to_string(r).unwrap_or_default());
            out.push('\n');
        }
        out
    }

    /// Writes the log as JSON lines.
    pub fn write_jsonl(&self, w: &mut impl Write) -> std::io::Result<()> {
        w.write_all(self.to_jsonl().as_bytes())
    }

    /// The readable narration of the whole log.
    #[must_use]
    pub fn narration(&self) -> String {
        self.records.iter().map(|r| r.narrate() + "\n").collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            log: LOG_FORMAT,
            scenario: "s.ron".into(),
            ruleset: "r".into(),
            rules_version: "1".into(),
            seed: 7,
            options: IndexMap::new(),
            agents: [("red".to_string(), "bot".to_string())]
                .into_iter()
                .collect(),
        }
    }

    #[test]
    fn a_log_reads_back_with_its_header_and_records() {
        let mut log = Log::default();
        log.push(1, Entry::Turn { number: 1 });
        log.push(
            1,
            Entry::Event {
                kind: "combat".into(),
                text: "x".into(),
                from: vec!["0101".into()],
                to: Some("0102".into()),
            },
        );
        let text = format!("{}{}", header().to_line(), log.to_jsonl());
        assert!(text.starts_with("{\"log\":1,"), "{text}");
        let back = LogFile::parse(&text, Path::new("g.jsonl")).unwrap();
        assert_eq!(back.header, Some(header()));
        assert_eq!(back.records, log.records());
        // Without a header, the records alone.
        let bare = LogFile::parse(&log.to_jsonl(), Path::new("g.jsonl")).unwrap();
        assert_eq!((bare.header, bare.records.len()), (None, 2));
    }

    #[test]
    fn an_event_without_hexes_is_written_as_before() {
        let mut log = Log::default();
        log.push(
            2,
            Entry::Event {
                kind: "note".into(),
                text: "hello".into(),
                from: Vec::new(),
                to: None,
            },
        );
        assert_eq!(
            log.to_jsonl(),
            "{\"seq\":0,\"turn\":2,\"type\":\"event\",\"kind\":\"note\",\"text\":\"hello\"}\n"
        );
    }

    #[test]
    fn a_header_after_a_record_is_an_error_at_its_line() {
        let mut log = Log::default();
        log.push(1, Entry::Turn { number: 1 });
        let text = format!("{}{}", log.to_jsonl(), header().to_line());
        let e = LogFile::parse(&text, Path::new("g.jsonl"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("g.jsonl:2:"), "{e}");
    }
}
