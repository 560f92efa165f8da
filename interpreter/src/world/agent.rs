//! Decisions and the agents that answer them: a person at the terminal, a
//! seeded random chooser, the ruleset's bot, or a replay of recorded answers.
//!
//! The random agent draws from its own stream, separate from the dice, so
//! that replacing a random answer by a recorded one leaves the dice unchanged.
//!
//! A person answers with a number or a command ([`Reply`]): undo, save, quit, help; end of
//! input saves and stops as quit does.

use crate::error::{Error, Result};
use crate::world::log::{Entry, LogFile};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// Who answers a side's decisions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgentKind {
    /// A person at the terminal.
    Human,
    /// A seeded random legal choice.
    Random,
    /// The ruleset's `bot_choose` function.
    Bot,
    /// Answers recorded in a game log, in order.
    Replay {
        /// The log they were read from, as the command line named it.
        log: PathBuf,
        /// The answers not yet given.
        answers: VecDeque<usize>,
    },
}

impl AgentKind {
    /// The agent's name in the log.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            AgentKind::Human => "human",
            AgentKind::Random => "random",
            AgentKind::Bot => "bot",
            AgentKind::Replay { .. } => "replay",
        }
    }

    /// The agent as the command line writes it (`replay:LOG` for a replay), which
    /// [`AgentKind::parse`] reads back: a save keeps its agents so.
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            AgentKind::Replay { log, .. } => format!("replay:{}", log.display()),
            other => other.name().to_string(),
        }
    }

    /// Parses `human`, `random`, `bot` or `replay:FILE` for `side`.
    pub fn parse(text: &str, side: &str) -> Result<AgentKind> {
        match text {
            "human" => Ok(AgentKind::Human),
            "random" => Ok(AgentKind::Random),
            "bot" => Ok(AgentKind::Bot),
            _ => match text.strip_prefix("replay:") {
                Some(file) => Ok(AgentKind::Replay {
                    log: PathBuf::from(file),
                    answers: recorded_answers(Path::new(file), side)?,
                }),
                None => Err(Error::rules(format!(
                    "unknown agent `{text}`: use human, random, bot or replay:FILE"
                ))),
            },
        }
    }
}

/// The answers a side gave in a JSON-lines game log (its header line, if any, passed over).
pub fn recorded_answers(path: &Path, side: &str) -> Result<VecDeque<usize>> {
    let log = LogFile::load(path)?;
    let mut out = VecDeque::new();
    for rec in log.records {
        if let Entry::Decision {
            side: s,
            choice,
            agent,
            ..
        } = rec.entry
        {
            // A decision with one option asked nobody, and replaying asks nobody either.
            if s == side && agent != "only" {
                out.push_back(choice);
            }
        }
    }
    Ok(out)
}

/// What a person typed at the prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The option at this index (from 0).
    Pick(usize),
    /// Take back this side's last answer (and everything after it) and ask it again.
    Undo,
    /// Save the game, to this file or else where the game is kept, and ask again.
    Save(Option<PathBuf>),
    /// Save the game and stop.
    Quit,
    /// Show what can be typed, and ask again.
    Help,
    /// No answer will ever come (end of input): save the game and stop, as [`Reply::Quit`].
    End,
}

/// What can be typed at the prompt, shown for [`Reply::Help`].
pub const HELP: &str = concat!(
    "  NUMBER       choose that option\n",
    "  undo         take back your side's last answer (and everything after it) and be asked again\n",
    "  save [FILE]  save the game (to FILE, else --save, else the --resume file, else\n",
    "               muster-save.ron) and go on\n",
    "  quit         save the game there and stop; `muster play --resume FILE` goes on from here\n",
    "  help         this list\n",
    "End of input (Ctrl-D) and Ctrl-C save and stop as quit does."
);

/// Why a game stopped at the terminal before its end (the game's loop reads it; see
/// [`crate::world::World::take_stop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Undo: start the game again and replay only its first `keep` answers.
    Undo {
        /// How many answers stand.
        keep: usize,
    },
    /// The person typed `quit`.
    Quit,
    /// The terminal's input ended.
    End,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The text of the error that unwinds the scripts; no script catches it (none uses
        // `try`), and the game's loop reads the stop itself, not this text.
        match self {
            Stop::Undo { .. } => write!(f, "stopped at the terminal: undo"),
            Stop::Quit => write!(f, "stopped at the terminal: quit"),
            Stop::End => write!(f, "stopped at the terminal: end of input"),
        }
    }
}

/// How a person is asked. The default reads standard input; tests supply their own.
pub trait Terminal {
    /// Shows a decision of `side` among `options` and returns what the person answered.
    fn ask(&mut self, side: &str, kind: &str, options: &[String]) -> Reply;

    /// Shows a message: the outcome of a command at the prompt (saved, nothing to take back,
    /// the help), or how a resumed game stands. Standard error unless a terminal says otherwise.
    fn tell(&mut self, text: &str) {
        // A closed standard error is no reason to stop a game.
        let _ = writeln!(std::io::stderr(), "{text}");
    }
}

/// Reads a line typed at the prompt of a decision among `n` options: a number from 1 to `n`,
/// or a command (`undo`, `save [FILE]`, `quit`, `help`); the error says what was wrong.
pub fn parse_reply(line: &str, n: usize) -> std::result::Result<Reply, String> {
    let line = line.trim();
    let (word, rest) = line
        .split_once(char::is_whitespace)
        .map_or((line, ""), |(w, r)| (w, r.trim()));
    match word {
        "undo" | "u" if rest.is_empty() => Ok(Reply::Undo),
        "save" | "s" if rest.is_empty() => Ok(Reply::Save(None)),
        "save" | "s" => Ok(Reply::Save(Some(PathBuf::from(rest)))),
        "quit" | "q" | "exit" if rest.is_empty() => Ok(Reply::Quit),
        "help" | "h" | "?" if rest.is_empty() => Ok(Reply::Help),
        _ => match line.parse::<usize>() {
            Ok(k) if (1..=n).contains(&k) => Ok(Reply::Pick(k - 1)),
            _ => Err(format!(
                "`{line}` is not one of the numbers 1 to {n}, nor a command (type help)"
            )),
        },
    }
}

/// Asks at the terminal on standard error / standard input.
#[derive(Debug, Default)]
pub struct StdTerminal;

impl Terminal for StdTerminal {
    fn ask(&mut self, side: &str, kind: &str, options: &[String]) -> Reply {
        let stdin = std::io::stdin();
        let mut err = std::io::stderr();
        let _ = writeln!(err, "\n{side}: {kind}");
        for (i, o) in options.iter().enumerate() {
            let _ = writeln!(err, "  {:>2}. {o}", i + 1);
        }
        loop {
            let _ = write!(err, "choose 1-{} (or help): ", options.len());
            let _ = err.flush();
            let mut line = String::new();
            // A read error (a closed terminal) is the end of input too: nothing more will come.
            if stdin.lock().read_line(&mut line).unwrap_or(0) == 0 {
                let _ = writeln!(err);
                return Reply::End;
            }
            match parse_reply(&line, options.len()) {
                Ok(reply) => return reply,
                Err(e) => {
                    let _ = writeln!(err, "{e}");
                }
            }
        }
    }
}

/// A forced answer in an example file: an option's index or its label.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum Answer {
    /// The option at this index (from 0).
    Index(usize),
    /// The option whose label is this text.
    Label(String),
}

impl Answer {
    /// The index this answer picks among `labels`.
    pub fn pick(&self, labels: &[String]) -> Result<usize> {
        match self {
            Answer::Index(i) if *i < labels.len() => Ok(*i),
            Answer::Index(i) => Err(Error::rules(format!(
                "forced decision {i} is out of range: there are {} options ({})",
                labels.len(),
                labels.join(", ")
            ))),
            Answer::Label(l) => labels.iter().position(|x| x == l).ok_or_else(|| {
                Error::rules(format!(
                    "forced decision `{l}` is not among the options: {}",
                    labels.join(", ")
                ))
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_line_is_a_number_or_a_command() {
        assert_eq!(parse_reply(" 2\n", 3), Ok(Reply::Pick(1)));
        assert_eq!(parse_reply("undo", 3), Ok(Reply::Undo));
        assert_eq!(parse_reply("save", 3), Ok(Reply::Save(None)));
        assert_eq!(
            parse_reply("save  my game.ron ", 3),
            Ok(Reply::Save(Some(PathBuf::from("my game.ron"))))
        );
        assert_eq!(parse_reply("quit", 3), Ok(Reply::Quit));
        assert_eq!(parse_reply("?", 3), Ok(Reply::Help));
        for bad in ["0", "4", "undo now", "", "two"] {
            let e = parse_reply(bad, 3).unwrap_err();
            assert!(e.contains("1 to 3") && e.contains("help"), "{bad}: {e}");
        }
    }

    #[test]
    fn an_agent_reads_back_from_its_text() {
        for a in [AgentKind::Human, AgentKind::Random, AgentKind::Bot] {
            assert_eq!(AgentKind::parse(&a.text(), "red").unwrap(), a);
        }
    }
}
