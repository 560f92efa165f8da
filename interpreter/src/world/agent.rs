//! Decisions and the agents that answer them: a person at the terminal, a
//! seeded random chooser, the ruleset's bot, or a replay of recorded answers.
//!
//! The random agent draws from its own stream, separate from the dice, so
//! that replacing a random answer by a recorded one leaves the dice unchanged.
//!
//! A person answers with a number or a command ([`Reply`]): undo, save, quit, help; end of
//! input saves and stops as quit does.

use crate::error::{Error, Result};
use crate::geom::hex::Hex;
use crate::geom::map::Map;
use crate::style::Style;
use crate::world::log::{Entry, LogFile};
use crate::world::state::State;
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
    /// The search agent: tries the options by playing the game forward from a fork of it
    /// (`game::lookahead`), within its budget.
    Search(Budget),
    /// Answers recorded in a game log, in order.
    Replay {
        /// The log they were read from, as the command line named it.
        log: PathBuf,
        /// The answers not yet given.
        answers: VecDeque<usize>,
    },
}

/// How an agent's text begins when it names a replay: `replay:LOG`.
const REPLAY: &str = "replay:";

impl AgentKind {
    /// Whether the agent text `text` names a replay (`replay:LOG`), told without reading its log.
    #[must_use]
    pub fn names_replay(text: &str) -> bool {
        text.starts_with(REPLAY)
    }

    /// The agent's name in the log.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            AgentKind::Human => "human",
            AgentKind::Random => "random",
            AgentKind::Bot => "bot",
            AgentKind::Search(_) => "search",
            AgentKind::Replay { .. } => "replay",
        }
    }

    /// Who plays, as the rules see it ([`AgentKind::name`], but `bot` for the search agent):
    /// the search agent starts from the bot's answers, so the rules give it what they give a bot
    /// (a move's `rank`, say).
    #[must_use]
    pub fn seen_by_rules(&self) -> &'static str {
        match self {
            AgentKind::Search(_) => "bot",
            other => other.name(),
        }
    }

    /// The agent as the command line writes it (`replay:LOG` for a replay), which
    /// [`AgentKind::parse`] reads back: a save keeps its agents so.
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            AgentKind::Replay { log, .. } => format!("{REPLAY}{}", log.display()),
            AgentKind::Search(Budget { rollouts, turns }) if *turns == DEFAULT_TURNS => {
                format!("search:{rollouts}")
            }
            AgentKind::Search(Budget { rollouts, turns }) => format!("search:{rollouts}:{turns}"),
            other => other.name().to_string(),
        }
    }

    /// Parses `human`, `random`, `bot`, `search`, `search:N` (N rollouts a decision),
    /// `search:N:T` (rollouts looking T turns ahead: the rest of this one and T - 1 more;
    /// [`DEFAULT_TURNS`] if not given) or `replay:FILE` for `side`.
    pub fn parse(text: &str, side: &str) -> Result<AgentKind> {
        match text {
            "human" => Ok(AgentKind::Human),
            "random" => Ok(AgentKind::Random),
            "bot" => Ok(AgentKind::Bot),
            "search" => Ok(AgentKind::Search(Budget::default())),
            _ => {
                if let Some(file) = text.strip_prefix(REPLAY) {
                    return Ok(AgentKind::Replay {
                        log: PathBuf::from(file),
                        answers: recorded_answers(Path::new(file), side)?,
                    });
                }
                if let Some(budget) = text.strip_prefix("search:") {
                    return parse_budget(budget).map(AgentKind::Search).ok_or_else(|| {
                        Error::rules(format!(
                            "agent `{text}`: search:N takes a number of rollouts of 1 or more, and search:N:T a number of turns of 1 or more too, such as search:{DEFAULT_ROLLOUTS} or search:{DEFAULT_ROLLOUTS}:1"
                        ))
                    });
                }
                Err(Error::rules(format!(
                    "unknown agent `{text}`: use human, random, bot, search[:N] or replay:FILE"
                )))
            }
        }
    }
}

/// The search agent's rollouts per decision when `search` names no number.
pub const DEFAULT_ROLLOUTS: usize = 16;

/// How many turns a rollout plays when the agent's text names none: the rest of this one and
/// the next. A move's worth shows mostly in the fighting it leads to, which is often next turn's.
pub const DEFAULT_TURNS: usize = 2;

/// How much a search may look ahead at each decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Rollouts a decision, shared among the options tried.
    pub rollouts: usize,
    /// How far each rollout plays, in turns: 1 plays to the end of this turn, T plays T - 1 more.
    pub turns: usize,
}

impl Default for Budget {
    /// `search`: [`DEFAULT_ROLLOUTS`] rollouts a decision, each [`DEFAULT_TURNS`] turns ahead.
    fn default() -> Budget {
        Budget {
            rollouts: DEFAULT_ROLLOUTS,
            turns: DEFAULT_TURNS,
        }
    }
}

/// The budget of `search:N` or `search:N:T` (the text after `search:`; T is [`DEFAULT_TURNS`]
/// if not given), if both numbers are 1 or more.
fn parse_budget(text: &str) -> Option<Budget> {
    let (rollouts, turns) = match text.split_once(':') {
        Some((n, t)) => (n.parse().ok()?, t.parse().ok()?),
        None => (text.parse().ok()?, DEFAULT_TURNS),
    };
    (rollouts > 0 && turns > 0).then_some(Budget { rollouts, turns })
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

/// One option as a person sees it: the label the log keeps, and what only a person is shown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Choice {
    /// The option's label, as the log records it.
    pub label: String,
    /// What the option means, shown at the prompt and never logged (empty: nothing more).
    pub detail: String,
    /// The hex the option is about (a move's destination, an attack's target), numbered in the
    /// picture of the board.
    pub hex: Option<Hex>,
}

impl Choice {
    /// An option with only a label.
    #[must_use]
    pub fn plain(label: String) -> Choice {
        Choice {
            label,
            ..Choice::default()
        }
    }
}

/// A decision put to a person: who decides what, the options with what they mean, the hex the
/// decision is about, and the board as it stands.
#[derive(Clone, Copy, Debug)]
pub struct Prompt<'a> {
    /// The side asked.
    pub side: &'a str,
    /// The kind of decision.
    pub kind: &'a str,
    /// The options, in order (a reply's number is an index into them, from 1).
    pub choices: &'a [Choice],
    /// The hex the decision is about (the unit that moves), when there is one.
    pub focus: Option<Hex>,
    /// The map.
    pub map: &'a Map,
    /// The state of the game.
    pub state: &'a State,
    /// The ruleset's style (the letters of the text picture, the colours of the SVG).
    pub style: &'a Style,
}

impl Prompt<'_> {
    /// The heading and the numbered options, each with its detail: what every terminal shows
    /// (a long detail goes under its label, to read in 80 columns).
    #[must_use]
    pub fn options_text(&self) -> String {
        let mut out = format!("{}: {}\n", self.side, self.kind);
        for (i, c) in self.choices.iter().enumerate() {
            let line = format!("  {:>2}. {}", i + 1, c.label);
            if c.detail.is_empty() {
                out.push_str(&line);
                out.push('\n');
            } else if line.len() + c.detail.len() + 3 <= WIDTH {
                out.push_str(&format!("{line} - {}\n", c.detail));
            } else {
                out.push_str(&line);
                out.push('\n');
                out.push_str(&wrap(&c.detail, WIDTH, "      ", "      "));
            }
        }
        out
    }
}

/// The widest line a prompt is written to fill, in characters.
pub const WIDTH: usize = 80;

/// `text` broken at spaces into lines of at most `width` characters (a longer word stands
/// alone), the first line after `lead` and the others after `indent`; each line ends in a line
/// break.
#[must_use]
pub fn wrap(text: &str, width: usize, lead: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut line = lead.to_string();
    let mut empty = true;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !empty && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line = indent.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// How a person is asked. The default reads standard input; tests supply their own.
pub trait Terminal {
    /// Shows a decision and returns what the person answered.
    fn ask(&mut self, prompt: &Prompt) -> Reply;

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

/// Reads a reply to a decision among `n` options from standard input, asking again (on
/// standard error) until the line is one; the end of input (or a read error) is [`Reply::End`].
#[must_use]
pub fn read_reply(n: usize) -> Reply {
    let stdin = std::io::stdin();
    let mut err = std::io::stderr();
    loop {
        let _ = write!(err, "choose 1-{n} (or help): ");
        let _ = err.flush();
        let mut line = String::new();
        // A read error (a closed terminal) is the end of input too: nothing more will come.
        if stdin.lock().read_line(&mut line).unwrap_or(0) == 0 {
            let _ = writeln!(err);
            return Reply::End;
        }
        match parse_reply(&line, n) {
            Ok(reply) => return reply,
            Err(e) => {
                let _ = writeln!(err, "{e}");
            }
        }
    }
}

/// Asks at the terminal on standard error / standard input, with the options alone (the
/// command line's terminal draws the board too: `view::text::BoardTerminal`).
#[derive(Debug, Default)]
pub struct StdTerminal;

impl Terminal for StdTerminal {
    fn ask(&mut self, prompt: &Prompt) -> Reply {
        let _ = write!(std::io::stderr(), "\n{}", prompt.options_text());
        read_reply(prompt.choices.len())
    }
}

/// A terminal nobody sits at: the first question a person is asked ends the game (as the end
/// of input does), and nothing is told. A game replayed or drawn for a view stops so where its
/// saved answers run out.
#[derive(Debug, Default)]
pub struct Absent;

impl Terminal for Absent {
    fn ask(&mut self, _prompt: &Prompt) -> Reply {
        Reply::End
    }

    fn tell(&mut self, _text: &str) {}
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
        let search = |rollouts, turns| AgentKind::Search(Budget { rollouts, turns });
        for a in [
            AgentKind::Human,
            AgentKind::Random,
            AgentKind::Bot,
            search(40, 1),
            search(16, 3),
        ] {
            assert_eq!(AgentKind::parse(&a.text(), "red").unwrap(), a);
        }
        assert_eq!(search(40, DEFAULT_TURNS).text(), "search:40");
        assert_eq!(search(40, 1).text(), "search:40:1");
        assert_eq!(
            AgentKind::parse("search", "red").unwrap(),
            search(DEFAULT_ROLLOUTS, DEFAULT_TURNS)
        );
        for bad in [
            "search:0",
            "search:",
            "search:many",
            "search:8:0",
            "search:8:",
            "search:8:2:1",
        ] {
            let e = AgentKind::parse(bad, "red").unwrap_err().to_string();
            assert!(e.contains("search:N"), "{bad}: {e}");
        }
    }
}
