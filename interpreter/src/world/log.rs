//! The game log: structured records of every roll, decision and rules event
//! (written as JSON lines), and a readable narration of them.

use serde::{Deserialize, Serialize};
use std::io::Write;

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
    /// Adds a record.
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
