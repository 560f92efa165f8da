//! The file `muster duel --out FILE` keeps: every seat's games so far, written after each game,
//! so that a duel of hours that was stopped, or that ended "not settled", goes on from where it
//! stopped instead of playing its games again.
//!
//! A file keeps the duels of one scenario. A seat's games are taken up again only by the same
//! duel: the same scenario, seed, agents and options, and the same rules (a fingerprint of the
//! ruleset's files, the scenario and its map). The number of games may differ, so a run that was
//! not settled can be given more.

use crate::error::{Error, Location, Result};
use crate::game::Loaded;
use crate::ruleset::rules_version;
use crate::tools::simulate::{Record, Spec};
use crate::world::agent::AgentKind;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A duel's games so far.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DuelFile {
    /// The scenario file, as named on the command line.
    pub scenario: PathBuf,
    /// The fingerprint of the rules the games were played under (see [`rules_fingerprint`]).
    pub rules: String,
    /// Each seat's games, in the order they were first played.
    pub seats: Vec<SeatGames>,
}

/// One seat of a duel: the first agent on `side`, and the games played so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatGames {
    /// The side the first agent plays.
    pub side: String,
    /// What was run (its `games` is that of the run that wrote it last; `records` may hold more).
    pub spec: Spec,
    /// The games played, by index from 0 with none missing.
    pub records: Vec<Record>,
}

/// The fingerprint of what a scenario's games depend on besides the engine: the ruleset's files
/// (its own fingerprint), the scenario file and its map.
pub fn rules_fingerprint(loaded: &Loaded) -> Result<String> {
    let scenario = &loaded.scenario;
    let files = rules_version(&[scenario.path.clone(), scenario.map_path()])?;
    Ok(format!("{}-{files}", loaded.ruleset.ruleset().version))
}

impl DuelFile {
    /// Reads `path`, or starts an empty file for `scenario` under `rules` when there is none yet.
    /// A file that is not a duel's, or that holds games of another scenario or played under
    /// other rules, is an error: its games are never overwritten.
    pub fn open(path: &Path, scenario: &Path, rules: &str) -> Result<DuelFile> {
        if !path.exists() {
            return Ok(DuelFile {
                scenario: scenario.to_path_buf(),
                rules: rules.to_string(),
                seats: Vec::new(),
            });
        }
        let text = crate::error::read_file(path)?;
        let file: DuelFile = serde_json::from_str(&text).map_err(|e| {
            Error::at(
                Location::new(path, e.line(), e.column()),
                format!("not a file written by `muster duel --out`: {e}"),
            )
        })?;
        let another = "name another file, or move this one away to start again";
        if !same_file(&file.scenario, scenario) {
            return Err(Error::rules(format!(
                "{}: it keeps the games of a duel on {}, not {}",
                path.display(),
                file.scenario.display(),
                scenario.display()
            ))
            .with_help(Some(another.into())));
        }
        if file.rules != rules {
            return Err(Error::rules(format!(
                "{}: its games were played under other rules (fingerprint {}, now {rules}): the \
                 ruleset, the scenario or its map changed since",
                path.display(),
                file.rules
            ))
            .with_help(Some(another.into())));
        }
        Ok(file)
    }

    /// The games already played of the run `spec` with the first agent on `side`: those of a seat
    /// with the same scenario, seed, agents and options, up to `spec.games`.
    #[must_use]
    pub fn played(&self, side: &str, spec: &Spec) -> Vec<Record> {
        self.seat(side, spec)
            .map(|s| {
                s.records
                    .iter()
                    .filter(|r| r.index < spec.games)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Keeps `records` (games 0 to n - 1) as the games of the run `spec` with the first agent on
    /// `side`. Games the seat kept beyond them stay: a run given fewer games than an earlier one
    /// played does not throw the rest away.
    pub fn keep(&mut self, side: &str, spec: &Spec, records: &[Record]) {
        let mut kept = records.to_vec();
        let seat = self.seats.iter().position(|s| same_run(s, side, spec));
        if let Some(i) = seat {
            let played = kept.len();
            let beyond = self.seats[i].records.iter().filter(|r| r.index >= played);
            kept.extend(beyond.cloned());
        }
        let new = SeatGames {
            side: side.to_string(),
            spec: spec.clone(),
            records: kept,
        };
        match seat {
            Some(i) => self.seats[i] = new,
            None => self.seats.push(new),
        }
    }

    /// Keeps `records` as the games of the run `spec` with the first agent on `side` in the file
    /// at `path` (see [`DuelFile::keep`]). The file is read again and written back under a lock
    /// (`path` with the extension `lock`, left beside it), so that duels of other seats keeping
    /// their games in it at the same time lose none.
    pub fn keep_in(
        path: &Path,
        scenario: &Path,
        rules: &str,
        side: &str,
        spec: &Spec,
        records: &[Record],
    ) -> Result<()> {
        let lock_path = path.with_extension("lock");
        let io = |source| Error::Io {
            path: lock_path.clone(),
            source,
        };
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io)?;
        lock.lock().map_err(io)?;
        let mut file = DuelFile::open(path, scenario, rules)?;
        file.keep(side, spec, records);
        file.write(path)
    }

    /// Writes the file whole, so that a run stopped while writing leaves the last good copy.
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::rules(format!("cannot write {}: {e}", path.display())))?;
        crate::game::write_atomically(path, &text)
    }

    fn seat(&self, side: &str, spec: &Spec) -> Option<&SeatGames> {
        self.seats.iter().find(|s| same_run(s, side, spec))
    }
}

/// Whether `seat` holds games of the run `spec` with the first agent on `side`, however many
/// games either run was to play. Scenarios are compared as files and agents as agents, so that
/// `./s.ron` and `s.ron`, or `search` and `search:16`, are one run.
fn same_run(seat: &SeatGames, side: &str, spec: &Spec) -> bool {
    let agents = &seat.spec.agents;
    seat.side == side
        && same_file(&seat.spec.scenario, &spec.scenario)
        && seat.spec.seed == spec.seed
        && agents.len() == spec.agents.len()
        && agents.iter().all(|(s, a)| {
            let b = spec.agents.get(s).map(String::as_str);
            b.is_some_and(|b| same_agent(a, b))
        })
        && seat.spec.options == spec.options
}

/// Whether `a` and `b` name one file: the same text, or the same file once both are made
/// absolute with links followed.
fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
}

/// Whether the agent texts `a` and `b` name one agent (`search` and `search:16`, say). A replay
/// is its text: its log is not read here.
fn same_agent(a: &str, b: &str) -> bool {
    let kind = |text: &str| {
        if AgentKind::names_replay(text) {
            None
        } else {
            AgentKind::parse(text, "").ok()
        }
    };
    a == b || kind(a).is_some_and(|k| Some(k) == kind(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::simulate::Summary;
    use indexmap::IndexMap;

    fn spec(games: usize, seed: u64) -> Spec {
        Spec {
            scenario: "s.ron".into(),
            games,
            seed,
            agents: IndexMap::from([
                ("red".to_string(), "search".to_string()),
                ("blue".to_string(), "bot".to_string()),
            ]),
            options: IndexMap::new(),
        }
    }

    fn record(index: usize) -> Record {
        Record {
            index,
            seed: index as u64,
            outcome: Ok(Summary {
                turns: 3,
                winner: Some("red".into()),
                vp: IndexMap::new(),
                losses: IndexMap::new(),
            }),
            ms: 1.0,
        }
    }

    #[test]
    fn a_seat_is_taken_up_by_the_same_run_with_any_number_of_games() {
        let mut file = DuelFile::default();
        let games: Vec<Record> = (0..5).map(record).collect();
        file.keep("red", &spec(10, 1), &games);
        assert_eq!(file.played("red", &spec(20, 1)).len(), 5);
        // Fewer games than were played: the first ones by index.
        assert_eq!(file.played("red", &spec(3, 1)), games[..3].to_vec());
        // Another seed or seat is another run.
        assert!(file.played("red", &spec(10, 2)).is_empty());
        assert!(file.played("blue", &spec(10, 1)).is_empty());
        // The default budget written out is the same agent; another budget is another run.
        let mut budget = spec(10, 1);
        budget.agents["red"] = format!("search:{}", crate::world::agent::DEFAULT_ROLLOUTS);
        assert_eq!(file.played("red", &budget).len(), 5);
        budget.agents["red"] = "search:8".into();
        assert!(file.played("red", &budget).is_empty());
        // Keeping a run's games again updates its seat, and keeps the games beyond them; another
        // seat is added beside it.
        let mut replayed = games[..2].to_vec();
        replayed[1].ms = 9.0;
        file.keep("red", &spec(3, 1), &replayed);
        file.keep("blue", &spec(10, 1), &games[..1]);
        assert_eq!(file.seats.len(), 2);
        let red = file.played("red", &spec(20, 1));
        assert_eq!(red.len(), 5);
        assert_eq!((red[1].ms, red[4].index), (9.0, 4));
    }

    #[test]
    fn a_file_of_other_rules_or_no_duel_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("duel.json");
        let open = |scenario: &str, rules: &str| DuelFile::open(&path, Path::new(scenario), rules);
        let mut file = open("s.ron", "abc").unwrap();
        file.keep("red", &spec(10, 1), &[record(0)]);
        file.write(&path).unwrap();
        assert_eq!(open("s.ron", "abc").unwrap(), file);
        let scenario = open("t.ron", "abc").unwrap_err().to_string();
        assert!(
            scenario.contains("it keeps the games of a duel on s.ron, not t.ron"),
            "{scenario}"
        );
        let other = open("s.ron", "abd").unwrap_err().to_string();
        assert!(
            other.contains("other rules (fingerprint abc, now abd)"),
            "{other}"
        );
        std::fs::write(&path, "{\"rules\": 3}").unwrap();
        let garbled = open("s.ron", "abc").unwrap_err().to_string();
        assert!(
            garbled.contains("duel.json:1:") && garbled.contains("not a file written by"),
            "{garbled}"
        );
    }

    #[test]
    fn a_scenario_is_one_file_however_it_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.ron");
        std::fs::write(&path, "()").unwrap();
        assert!(same_file(&path, &dir.path().join(".").join("s.ron")));
        assert!(!same_file(&path, &dir.path().join("t.ron")));
        assert!(same_file(Path::new("t.ron"), Path::new("t.ron")));
    }
}
