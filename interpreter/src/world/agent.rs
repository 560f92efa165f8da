//! Decisions and the agents that answer them: a person at the terminal, a
//! seeded random chooser, the ruleset's bot, or a replay of recorded answers.
//!
//! The random agent draws from its own stream, separate from the dice, so
//! that replacing a random answer by a recorded one leaves the dice unchanged.

use crate::error::{read_file, Error, Result};
use crate::world::log::{Entry, Record};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::path::Path;

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
    Replay(VecDeque<usize>),
}

impl AgentKind {
    /// The agent's name in the log.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            AgentKind::Human => "human",
            AgentKind::Random => "random",
            AgentKind::Bot => "bot",
            AgentKind::Replay(_) => "replay",
        }
    }

    /// Parses `human`, `random`, `bot` or `replay:FILE` for `side`.
    pub fn parse(text: &str, side: &str) -> Result<AgentKind> {
        match text {
            "human" => Ok(AgentKind::Human),
            "random" => Ok(AgentKind::Random),
            "bot" => Ok(AgentKind::Bot),
            _ => match text.strip_prefix("replay:") {
                Some(file) => Ok(AgentKind::Replay(recorded_answers(Path::new(file), side)?)),
                None => Err(Error::rules(format!(
                    "unknown agent `{text}`: use human, random, bot or replay:FILE"
                ))),
            },
        }
    }
}

/// The answers a side gave in a JSON-lines game log.
pub fn recorded_answers(path: &Path, side: &str) -> Result<VecDeque<usize>> {
    let text = read_file(path)?;
    let mut out = VecDeque::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let rec: Record = serde_json::from_str(line).map_err(|e| {
            Error::at(
                crate::error::Location::new(path, i + 1, e.column()),
                format!("not a log record: {e}"),
            )
        })?;
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

/// How a person is asked. The default reads standard input; tests supply their own.
pub trait Terminal {
    /// Shows the options and returns the index picked, or `None` if no answer
    /// will ever come (end of input).
    fn ask(&mut self, side: &str, kind: &str, options: &[String]) -> Option<usize>;
}

/// Asks at the terminal on standard error / standard input.
#[derive(Debug, Default)]
pub struct StdTerminal;

impl Terminal for StdTerminal {
    fn ask(&mut self, side: &str, kind: &str, options: &[String]) -> Option<usize> {
        let stdin = std::io::stdin();
        let mut err = std::io::stderr();
        loop {
            let _ = writeln!(err, "\n{side}: {kind}");
            for (i, o) in options.iter().enumerate() {
                let _ = writeln!(err, "  {:>2}. {o}", i + 1);
            }
            let _ = write!(err, "choose 1-{}: ", options.len());
            let _ = err.flush();
            let mut line = String::new();
            if stdin.lock().read_line(&mut line).ok()? == 0 {
                return None;
            }
            match line.trim().parse::<usize>() {
                Ok(n) if (1..=options.len()).contains(&n) => return Some(n - 1),
                _ => {
                    let _ = writeln!(
                        err,
                        "`{}` is not one of the numbers 1 to {}",
                        line.trim(),
                        options.len()
                    );
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
