//! A saved game as what reproduces it: the scenario, the ruleset's name and version, the seed,
//! the options, the agents and every answer given so far. The engine is deterministic, so
//! starting the scenario afresh and replaying the answers brings the game back to where it was
//! saved, at any decision, not only at a turn boundary.
//!
//! A game's answers are kept in a [`Progress`] as they are given. It is shared (an
//! `Arc<Mutex<...>>`) so that another thread, the one that handles Ctrl-C, can write the save
//! while the game's own thread waits at the terminal.

use crate::error::{read_file, Error, Location, Result};
use crate::value::Value;
use crate::world::log::{Entry, Header, LogFile, LOG_FORMAT};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// The save-file format this version writes and reads. Format 1 was a state snapshot at a turn
/// boundary; 2 is the replay save.
pub const FORMAT: u32 = 2;

/// Where a game is saved when nothing says where (`save FILE`, `--save`, `--resume`): in the
/// folder `muster` runs in.
pub const DEFAULT_SAVE: &str = "muster-save.ron";

/// One decision answered, as the save keeps it (the log's decision record without its place).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answered {
    /// The side that answered.
    pub side: String,
    /// The kind of decision (the ruleset's word).
    pub kind: String,
    /// The index of the option chosen, from 0.
    pub choice: usize,
    /// The chosen option's text, to check that a replay chose the same thing.
    pub label: String,
    /// Who answered: `human`, `random`, `bot`, `replay` or `forced`.
    pub agent: String,
}

/// A saved game (`muster play --save`, `--resume`): what starts the game afresh, and every
/// answer in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    /// The save-file format ([`FORMAT`]).
    pub format: u32,
    /// The scenario, as the command line named it (relative to the folder `muster` ran in).
    pub scenario: PathBuf,
    /// The ruleset's name.
    pub ruleset: String,
    /// The ruleset's version when the game was saved ([`crate::ruleset::Ruleset::version`]).
    pub rules_version: String,
    /// The seed of the dice.
    pub seed: u64,
    /// The options that overrode the scenario's (`--option`).
    #[serde(default)]
    pub options: IndexMap<String, Value>,
    /// Who played each side, as the command line writes it: `human`, `random`, `bot` or
    /// `replay:LOG`.
    pub agents: IndexMap<String, String>,
    /// Every decision answered so far, in order; a decision with one option asked nobody and
    /// is not kept.
    #[serde(default)]
    pub answers: Vec<Answered>,
}

impl SaveFile {
    /// The game's start as a log's header line keeps it (the save without its answers).
    #[must_use]
    pub fn header(&self) -> Header {
        Header {
            log: LOG_FORMAT,
            scenario: self.scenario.clone(),
            ruleset: self.ruleset.clone(),
            rules_version: self.rules_version.clone(),
            seed: self.seed,
            options: self.options.clone(),
            agents: self.agents.clone(),
        }
    }

    /// The save of a game played as `log` records it: its header's start, and its decisions
    /// as the answers (those of one option asked nobody, and are not kept). A log without a
    /// header (written before logs had one) cannot be played again: an error at `path`.
    pub fn from_log(log: &LogFile, path: &Path) -> Result<SaveFile> {
        let Some(h) = &log.header else {
            return Err(Error::at(
                Location::file(path),
                "this log has no header line (the game's start), so the game cannot be played again from it; logs written by `muster play --log` have one",
            ));
        };
        let answers = log
            .records
            .iter()
            .filter_map(|r| match &r.entry {
                Entry::Decision {
                    side,
                    kind,
                    choice,
                    label,
                    agent,
                } if agent != "only" => Some(Answered {
                    side: side.clone(),
                    kind: kind.clone(),
                    choice: *choice,
                    label: label.clone(),
                    agent: agent.clone(),
                }),
                _ => None,
            })
            .collect();
        Ok(SaveFile {
            format: FORMAT,
            scenario: h.scenario.clone(),
            ruleset: h.ruleset.clone(),
            rules_version: h.rules_version.clone(),
            seed: h.seed,
            options: h.options.clone(),
            agents: h.agents.clone(),
            answers,
        })
    }

    /// The save as RON text: one line a field, one line an answer.
    pub fn to_text(&self) -> Result<String> {
        // Depth 2 puts each answer on a line of its own: a long game stays readable.
        let pretty = ron::ser::PrettyConfig::default()
            .struct_names(true)
            .depth_limit(2);
        let body = ron::ser::to_string_pretty(self, pretty)
            .map_err(|e| Error::rules(format!("cannot save: {e}")))?;
        Ok(format!(
            "// A game of muster, saved: continue it with `muster play --resume FILE`.\n{body}\n"
        ))
    }

    /// Reads a save file.
    pub fn load(path: &Path) -> Result<SaveFile> {
        let text = read_file(path)?;
        // A format-1 save has the state where this one has the answers: say so plainly rather
        // than list its unknown fields.
        if text.contains("agent_stream:") && !text.contains("format:") {
            return Err(Error::at(
                Location::file(path),
                "this save was written by an older muster (a snapshot at a turn boundary, save format 1); this version resumes only its own saves (format 2)",
            ));
        }
        let save: SaveFile = crate::source::parse_ron(&text, path)?;
        if save.format != FORMAT {
            return Err(Error::at(
                Location::file(path),
                format!(
                    "save format {} is not one this version reads (it reads format {FORMAT})",
                    save.format
                ),
            ));
        }
        Ok(save)
    }
}

/// A game's save as it stands, shared by the game and whoever else may save it (the Ctrl-C
/// handler's thread). Cloning shares it.
#[derive(Clone, Debug)]
pub struct Progress(Arc<Mutex<Answers>>);

/// What a [`Progress`] holds: the save, how much of it this run has replayed, and where the
/// game is kept.
#[derive(Debug)]
pub struct Answers {
    /// The save: the game's start and every answer so far, those still to replay included.
    file: SaveFile,
    /// How many of the save's answers this run has replayed; the rest wait for their decision.
    replayed: usize,
    /// Where the game is kept (`--save`, or the file a resumed game came from): after every
    /// turn and whenever a person is asked.
    save_to: Option<PathBuf>,
}

impl Progress {
    /// The progress of a game that starts as `file` says, its answers yet to be replayed.
    #[must_use]
    pub fn new(file: SaveFile) -> Progress {
        Progress(Arc::new(Mutex::new(Answers {
            file,
            replayed: 0,
            save_to: None,
        })))
    }

    /// The answers, to read or change. A thread that panicked while holding them left them
    /// whole (every change is one push or one count), so a poisoned lock is taken as it is.
    pub fn lock(&self) -> MutexGuard<'_, Answers> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The save as text, every answer so far included.
    pub fn text(&self) -> Result<String> {
        self.lock().file.to_text()
    }

    /// Writes the save to `to`, else where the game is kept ([`Answers::save_to`]), else to
    /// [`DEFAULT_SAVE`]; returns where it went.
    pub fn save(&self, to: Option<&Path>) -> Result<PathBuf> {
        let answers = self.lock();
        let path = to
            .map(Path::to_path_buf)
            .or_else(|| answers.save_to.clone())
            .unwrap_or_else(|| PathBuf::from(DEFAULT_SAVE));
        write_atomically(&path, &answers.file.to_text()?)?;
        Ok(path)
    }

    /// Writes the save where the game is kept, if it is kept anywhere (`None` if not), and
    /// returns where.
    pub fn autosave(&self) -> Option<Result<PathBuf>> {
        let to = self.lock().save_to.clone()?;
        Some(self.save(Some(&to)))
    }
}

/// What to tell a person of a game saved in `path`: where, and how to go on with it.
#[must_use]
pub fn resume_hint(path: &Path) -> String {
    let p = path.display();
    format!("the game is saved in {p}; go on with `muster play --resume {p}`")
}

impl Answers {
    /// The save as it stands.
    #[must_use]
    pub fn file(&self) -> &SaveFile {
        &self.file
    }

    /// The save's start and answers, to fill in when a game begins.
    pub fn file_mut(&mut self) -> &mut SaveFile {
        &mut self.file
    }

    /// The next answer to replay, with its number from 1; `None` once every saved answer has
    /// been replayed.
    #[must_use]
    pub fn pending(&self) -> Option<(usize, &Answered)> {
        self.file
            .answers
            .get(self.replayed)
            .map(|a| (self.replayed + 1, a))
    }

    /// How many answers are still to replay.
    #[must_use]
    pub fn pending_len(&self) -> usize {
        self.file.answers.len() - self.replayed
    }

    /// How many answers this run has replayed or been given.
    #[must_use]
    pub fn replayed(&self) -> usize {
        self.replayed
    }

    /// Marks the next saved answer replayed.
    pub fn confirm(&mut self) {
        self.replayed = (self.replayed + 1).min(self.file.answers.len());
    }

    /// Adds an answer given now (nothing is left to replay).
    pub fn record(&mut self, answer: Answered) {
        self.file.answers.push(answer);
        self.replayed = self.file.answers.len();
    }

    /// Keeps the first `n` answers and replays them from the start (undo: the game is started
    /// again and the answer `n` is asked anew).
    pub fn keep(&mut self, n: usize) {
        self.file.answers.truncate(n);
        self.replayed = 0;
    }

    /// Where the game is kept, if anywhere.
    #[must_use]
    pub fn save_to(&self) -> Option<&Path> {
        self.save_to.as_deref()
    }

    /// Sets where the game is kept.
    pub fn set_save_to(&mut self, path: Option<PathBuf>) {
        self.save_to = path;
    }
}

/// Writes a file through a temporary, so a crash mid-write never destroys
/// the previous version. The temporary is named for the process, so that two processes
/// writing the same file (duels of two seats keeping one file) never write into each other's.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
    let written = std::fs::write(&tmp, text).map_err(|source| Error::Io {
        path: tmp.clone(),
        source,
    });
    let moved = written.and_then(|()| {
        std::fs::rename(&tmp, path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })
    });
    if moved.is_err() {
        // A temporary left behind by a failed write would never be written over.
        let _ = std::fs::remove_file(&tmp);
    }
    moved
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(side: &str, choice: usize) -> Answered {
        Answered {
            side: side.into(),
            kind: "move".into(),
            choice,
            label: format!("option {choice}"),
            agent: "human".into(),
        }
    }

    fn file() -> SaveFile {
        SaveFile {
            format: FORMAT,
            scenario: "s.ron".into(),
            ruleset: "r".into(),
            rules_version: "0".into(),
            seed: 3,
            options: [("night".to_string(), Value::Bool(true))]
                .into_iter()
                .collect(),
            agents: [("red".to_string(), "human".to_string())]
                .into_iter()
                .collect(),
            answers: vec![answer("red", 1), answer("red", 0)],
        }
    }

    #[test]
    fn a_save_reads_back_as_written_one_answer_a_line() {
        let text = file().to_text().unwrap();
        assert_eq!(
            crate::source::top_level_name(&text).as_deref(),
            Some("SaveFile")
        );
        assert!(
            text.contains(
                "Answered(side: \"red\", kind: \"move\", choice: 1, label: \"option 1\", agent: \"human\"),\n"
            ),
            "{text}"
        );
        let back: SaveFile = crate::source::parse_ron(&text, Path::new("x.ron")).unwrap();
        assert_eq!(back, file());
    }

    #[test]
    fn answers_replay_in_order_then_grow() {
        let p = Progress::new(file());
        let mut a = p.lock();
        assert_eq!(a.pending().map(|(n, x)| (n, x.choice)), Some((1, 1)));
        a.confirm();
        assert_eq!(a.pending().map(|(n, x)| (n, x.choice)), Some((2, 0)));
        a.confirm();
        assert!(a.pending().is_none());
        a.record(answer("red", 4));
        assert_eq!((a.replayed(), a.pending_len()), (3, 0));
        a.keep(1);
        assert_eq!((a.replayed(), a.pending_len()), (0, 1));
    }

    #[test]
    fn a_log_is_a_save_of_its_decisions_but_those_of_one_option() {
        use crate::world::log::{Log, LogFile};
        let mut log = Log::default();
        for (choice, agent) in [(1, "human"), (0, "only"), (0, "human")] {
            log.push(
                1,
                Entry::Decision {
                    side: "red".into(),
                    kind: "move".into(),
                    choice,
                    label: format!("option {choice}"),
                    agent: agent.into(),
                },
            );
        }
        let text = format!("{}{}", file().header().to_line(), log.to_jsonl());
        let read = LogFile::parse(&text, Path::new("g.jsonl")).unwrap();
        assert_eq!(
            SaveFile::from_log(&read, Path::new("g.jsonl")).unwrap(),
            file()
        );
        let bare = LogFile::parse(&log.to_jsonl(), Path::new("g.jsonl")).unwrap();
        let e = SaveFile::from_log(&bare, Path::new("g.jsonl"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("no header line"), "{e}");
    }
}
