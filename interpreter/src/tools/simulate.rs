//! Batch runs for balance testing: many games of one scenario in parallel,
//! each with its own seed derived from a base seed and the game's index, so
//! that the report is the same whatever the number of workers or shards.
//!
//! Every worker thread loads the ruleset (compiling its scripts), the
//! scenario and the map once, and reuses them for all its games.

use crate::error::{Error, Result};
use crate::game::{Game, GameOptions, Loaded};
use crate::value::Value;
use crate::world::agent::AgentKind;
use indexmap::IndexMap;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// What to run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    /// The scenario file.
    pub scenario: PathBuf,
    /// How many games in the whole run.
    pub games: usize,
    /// The base seed.
    pub seed: u64,
    /// Agents by side, as written on the command line (`bot`, `random`, `replay:FILE`).
    pub agents: IndexMap<String, String>,
    /// Scenario options.
    pub options: IndexMap<String, Value>,
}

/// One slice of a run split across machines: `index` of `count`, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice, 1 to `count`.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl Shard {
    /// Parses `K/N`.
    pub fn parse(text: &str) -> std::result::Result<Shard, String> {
        let bad = || format!("--shard takes K/N with 1 <= K <= N, such as 2/8; got `{text}`");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether game `i` belongs to this slice (games are dealt round-robin).
    #[must_use]
    pub fn has(&self, i: usize) -> bool {
        i % self.count == self.index - 1
    }
}

/// Losses of one side in one game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Losses {
    /// Units lost.
    pub units: i64,
    /// Strength lost.
    pub strength: i64,
}

/// The end of one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Turns played.
    pub turns: i64,
    /// The winner, or `None` for a draw.
    pub winner: Option<String>,
    /// Victory points by side.
    pub vp: IndexMap<String, i64>,
    /// Losses by side.
    pub losses: IndexMap<String, Losses>,
}

/// One game of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The game's index in the run, from 0.
    pub index: usize,
    /// Its seed: `muster play SCENARIO --seed SEED` replays it.
    pub seed: u64,
    /// How it ended, or the error that stopped it.
    pub outcome: std::result::Result<Summary, String>,
    /// Milliseconds it took (not part of the deterministic report).
    pub ms: f64,
}

/// The seed of game `index` of a run with base seed `base`.
#[must_use]
pub fn game_seed(base: u64, index: usize) -> u64 {
    let mut z = base
        ^ (index as u64)
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Builds the agents of one game from their command-line names.
pub fn agents(spec: &Spec) -> Result<IndexMap<String, AgentKind>> {
    spec.agents
        .iter()
        .map(|(side, a)| Ok((side.clone(), AgentKind::parse(a, side)?)))
        .collect()
}

/// Plays game `index` on this thread's loaded ruleset.
fn play_one(spec: &Spec, index: usize) -> Record {
    let seed = game_seed(spec.seed, index);
    let start = Instant::now();
    let outcome = (|| {
        let l = Loaded::on_this_thread(&spec.scenario)?;
        let opts = GameOptions {
            seed,
            agents: agents(spec)?,
            options: spec.options.clone(),
            ..GameOptions::default()
        };
        let mut game = Game::start_on(&l.scenario, l.ruleset.clone(), l.bound.clone(), &opts)?;
        let result = game.run(None)?;
        let losses = losses(&game)?;
        Ok::<_, Error>(Summary {
            turns: result.turns,
            winner: result.winner,
            vp: result.vp,
            losses,
        })
    })();
    Record {
        index,
        seed,
        outcome: outcome.map_err(|e| e.to_string()),
        ms: start.elapsed().as_secs_f64() * 1000.0,
    }
}

/// Losses by side, from the ruleset's `losses(game)`, which returns
/// `#{ side: #{ units: n, strength: n } }`. Only the ruleset knows what counts
/// as lost (eliminated, routed, captured), so without the hook they are zero.
fn losses(game: &Game) -> Result<IndexMap<String, Losses>> {
    let mut out: IndexMap<String, Losses> = game
        .ruleset()
        .sides
        .iter()
        .map(|s| (s.clone(), Losses::default()))
        .collect();
    if !game.compiled().has_function("losses", 1) {
        return Ok(out);
    }
    let v = Value::from_dynamic(&game.compiled().call("losses", (game.handle().clone(),))?)
        .map_err(Error::rules)?;
    let Value::Map(m) = v else {
        return Err(Error::rules(
            "`losses` must return #{ side: #{ units: n, strength: n } }",
        ));
    };
    for (side, l) in m {
        if let Value::Map(l) = l {
            let get = |k: &str| l.get(k).and_then(Value::as_int).unwrap_or(0);
            out.insert(
                side,
                Losses {
                    units: get("units"),
                    strength: get("strength"),
                },
            );
        }
    }
    Ok(out)
}

/// The games of a run, with the ruleset's sides in order.
#[derive(Clone, Debug)]
pub struct Run {
    /// The ruleset's sides.
    pub sides: Vec<String>,
    /// The games, by index.
    pub records: Vec<Record>,
}

/// Runs a spec's games (or one shard of them) on `jobs` threads, calling
/// `progress` with the number of games done after each game.
pub fn run(
    spec: &Spec,
    shard: Option<Shard>,
    jobs: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Run> {
    let sides = prepare(spec)?;
    let indices: Vec<usize> = (0..spec.games)
        .filter(|i| shard.is_none_or(|s| s.has(*i)))
        .collect();
    let done = AtomicUsize::new(0);
    let records = play(&indices, spec, &workers(jobs)?, &|| {
        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
    });
    Ok(Run { sides, records })
}

/// Runs a spec's games in the order of their indices, `jobs` at a time, until `settled` says
/// the games so far answer the question or all `spec.games` are played. `played` are games 0 to
/// n - 1 of the same run played before (by a run that was stopped): `settled` is asked after each
/// of them in turn, as if it had just been played, so that the answer is the one a run from the
/// start would give, and the run goes on from game n. After each game it plays, `each` gets the
/// games so far before `settled` is asked, and an error of `each` ends the run with it. The games
/// kept are always the first ones by index: games of the last batch past the one that settled it
/// are dropped, so the answer does not depend on `jobs`.
pub fn run_until(
    spec: &Spec,
    jobs: usize,
    played: Vec<Record>,
    each: &mut dyn FnMut(&[Record]) -> Result<()>,
    settled: &mut dyn FnMut(&[Record]) -> bool,
) -> Result<Run> {
    let sides = prepare(spec)?;
    if played.iter().enumerate().any(|(i, r)| r.index != i) {
        return Err(Error::rules(
            "the games played before are not games 0 to n - 1 of the run, in order",
        ));
    }
    for n in 1..=played.len() {
        if settled(&played[..n]) {
            let records = played[..n].to_vec();
            return Ok(Run { sides, records });
        }
    }
    let mut records = played;
    let pool = workers(jobs)?;
    let mut next = records.len();
    while next < spec.games {
        let batch: Vec<usize> = (next..spec.games.min(next + jobs.max(1))).collect();
        next += batch.len();
        for record in play(&batch, spec, &pool, &|| {}) {
            records.push(record);
            each(&records)?;
            if settled(&records) {
                return Ok(Run { sides, records });
            }
        }
    }
    Ok(Run { sides, records })
}

/// Checks a spec before any game is played, and returns the ruleset's sides: a broken scenario,
/// option or agent is one clear error, not one per game.
fn prepare(spec: &Spec) -> Result<Vec<String>> {
    let loaded = Loaded::load(&spec.scenario)?;
    let sides = loaded.ruleset.ruleset().sides.clone();
    loaded
        .ruleset
        .ruleset()
        .check_command_line_options(&spec.options)?;
    agents(spec)?;
    // An agent for a side the ruleset does not have is a mistake in the command, not a failed game.
    if let Some(bad) = spec.agents.keys().find(|s| !sides.contains(s)) {
        return Err(Error::usage(format!(
            "--agent names side `{bad}`; the ruleset's sides are {}",
            sides.join(", ")
        )));
    }
    Ok(sides)
}

/// The threads games are played on.
fn workers(jobs: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .stack_size(crate::host::engine::SCRIPT_THREAD_STACK)
        .build()
        .map_err(|e| Error::rules(format!("cannot start {jobs} worker threads: {e}")))
}

/// Plays the games `indices` on `pool`, calling `each` as each ends; returns them by index.
fn play(
    indices: &[usize],
    spec: &Spec,
    pool: &rayon::ThreadPool,
    each: &(dyn Fn() + Sync),
) -> Vec<Record> {
    let mut records: Vec<Record> = pool.install(|| {
        indices
            .par_iter()
            .map(|&i| {
                let r = play_one(spec, i);
                each();
                r
            })
            .collect()
    });
    records.sort_by_key(|r| r.index);
    records
}

/// Summary statistics of a list of numbers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Mean.
    pub mean: f64,
    /// Standard deviation (of the sample).
    pub sd: f64,
    /// Median.
    pub median: f64,
    /// 10th percentile.
    pub p10: f64,
    /// 90th percentile.
    pub p90: f64,
}

impl Stats {
    /// The statistics of `values` (all zero when empty).
    #[must_use]
    pub fn of(values: &[f64]) -> Stats {
        if values.is_empty() {
            return Stats::default();
        }
        let (mean, var) = crate::world::fork::mean_and_variance(values);
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        Stats {
            mean,
            sd: var.sqrt(),
            median: percentile(&sorted, 0.5),
            p10: percentile(&sorted, 0.1),
            p90: percentile(&sorted, 0.9),
        }
    }
}

/// Linear interpolation between closest ranks, on sorted values.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    let pos = p * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// The Wilson score interval at 95% for `k` successes in `n` trials.
#[must_use]
pub fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A share of the games with its 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Share {
    /// How many games.
    pub count: usize,
    /// As a fraction of the games that finished.
    pub rate: f64,
    /// Wilson 95% interval of the rate.
    pub ci95: (f64, f64),
}

impl Share {
    fn of(count: usize, n: usize) -> Share {
        Share {
            count,
            rate: if n == 0 { 0.0 } else { count as f64 / n as f64 },
            ci95: wilson(count, n),
        }
    }
}

/// One side's results over the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideReport {
    /// Games won.
    pub wins: Share,
    /// Victory points.
    pub vp: Stats,
    /// Units lost.
    pub units_lost: Stats,
    /// Strength lost.
    pub strength_lost: Stats,
}

/// A failed game: its seed reproduces it with `muster play`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    /// The game's index.
    pub index: usize,
    /// Its seed.
    pub seed: u64,
    /// The error.
    pub error: String,
}

/// The report of a run. Everything but `timing` depends only on the spec, so
/// it is the same for any number of jobs or shards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The scenario.
    pub scenario: PathBuf,
    /// The base seed.
    pub seed: u64,
    /// Games run.
    pub games: usize,
    /// Games that finished.
    pub finished: usize,
    /// Games that failed, each with its seed and error.
    pub failures: Vec<Failure>,
    /// Who played each side, as the command line writes it (`bot` where it named none).
    pub agents: IndexMap<String, String>,
    /// Results by side.
    pub sides: IndexMap<String, SideReport>,
    /// Drawn games.
    pub draws: Share,
    /// First side's VP minus the second side's.
    pub margin: Stats,
    /// Game length in turns.
    pub turns: Stats,
    /// Speed of this run (differs between runs).
    pub timing: Timing,
}

/// How fast the run went.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Wall-clock seconds of the run (0 for merged shards).
    pub seconds: f64,
    /// Games per second of wall-clock time (0 for merged shards).
    pub games_per_second: f64,
    /// Mean milliseconds of one game, on one worker.
    pub ms_per_game: f64,
}

/// Builds the report of a run from its records (in any order).
#[must_use]
pub fn report(spec: &Spec, sides: &[String], records: &[Record], seconds: f64) -> Report {
    let mut records = records.to_vec();
    records.sort_by_key(|r| r.index);
    let done: Vec<&Summary> = records
        .iter()
        .filter_map(|r| r.outcome.as_ref().ok())
        .collect();
    let n = done.len();
    let failures = records
        .iter()
        .filter_map(|r| {
            r.outcome.as_ref().err().map(|e| Failure {
                index: r.index,
                seed: r.seed,
                error: e.clone(),
            })
        })
        .collect();
    let column = |f: &dyn Fn(&Summary) -> f64| -> Vec<f64> { done.iter().map(|s| f(s)).collect() };
    let mut side_reports = IndexMap::new();
    for side in sides {
        let wins = done
            .iter()
            .filter(|s| s.winner.as_deref() == Some(side.as_str()))
            .count();
        let lost = |s: &Summary| s.losses.get(side).cloned().unwrap_or_default();
        side_reports.insert(
            side.clone(),
            SideReport {
                wins: Share::of(wins, n),
                vp: Stats::of(&column(&|s| s.vp.get(side).copied().unwrap_or(0) as f64)),
                units_lost: Stats::of(&column(&|s| lost(s).units as f64)),
                strength_lost: Stats::of(&column(&|s| lost(s).strength as f64)),
            },
        );
    }
    let draws = done.iter().filter(|s| s.winner.is_none()).count();
    let margin = match sides {
        [a, b, ..] => Stats::of(&column(&|s| {
            (s.vp.get(a).copied().unwrap_or(0) - s.vp.get(b).copied().unwrap_or(0)) as f64
        })),
        _ => Stats::default(),
    };
    let total_ms: f64 = records.iter().map(|r| r.ms).sum();
    Report {
        scenario: spec.scenario.clone(),
        seed: spec.seed,
        games: records.len(),
        finished: n,
        failures,
        agents: sides
            .iter()
            .map(|s| {
                let agent = spec.agents.get(s).map_or("bot", String::as_str);
                (s.clone(), agent.to_string())
            })
            .collect(),
        sides: side_reports,
        draws: Share::of(draws, n),
        margin,
        turns: Stats::of(&column(&|s| s.turns as f64)),
        timing: Timing {
            seconds,
            games_per_second: if seconds > 0.0 {
                records.len() as f64 / seconds
            } else {
                0.0
            },
            ms_per_game: if records.is_empty() {
                0.0
            } else {
                total_ms / records.len() as f64
            },
        },
    }
}

/// A shard's results as written by `--out`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardFile {
    /// What was run.
    pub spec: Spec,
    /// The ruleset's sides, in order.
    pub sides: Vec<String>,
    /// The slice, if the run was split.
    pub shard: Option<Shard>,
    /// The games.
    pub records: Vec<Record>,
}

/// Combines shard files into the records of the whole run, checking that
/// they belong to one run and cover every game exactly once.
pub fn merge(files: &[ShardFile]) -> Result<(Spec, Vec<String>, Vec<Record>)> {
    let first = files
        .first()
        .ok_or_else(|| Error::rules("--merge needs at least one file"))?;
    let mut records = Vec::new();
    for f in files {
        if f.spec != first.spec || f.sides != first.sides {
            return Err(Error::rules("the files come from different runs (scenario, games, seed, agents or options differ)"));
        }
        records.extend(f.records.iter().cloned());
    }
    records.sort_by_key(|r| r.index);
    let mut seen = vec![false; first.spec.games];
    for r in &records {
        match seen.get_mut(r.index) {
            Some(s) if !*s => *s = true,
            Some(_) => {
                return Err(Error::rules(format!(
                    "game {} appears in more than one file",
                    r.index
                )))
            }
            None => {
                return Err(Error::rules(format!(
                    "game {} is beyond the run's {} games",
                    r.index, first.spec.games
                )))
            }
        }
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        let count = seen.iter().filter(|s| !**s).count();
        return Err(Error::rules(format!(
            "{count} games are missing (the first is game {missing}): is a shard file left out?"
        )));
    }
    Ok((first.spec.clone(), first.sides.clone(), records))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 0.0));
        let (lo, _) = wilson(0, 10);
        assert_eq!(lo, 0.0);
    }

    #[test]
    fn stats() {
        let s = Stats::of(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(s.mean, 3.0);
        assert_eq!(s.median, 3.0);
        assert!((s.p10 - 1.4).abs() < 1e-12 && (s.p90 - 4.6).abs() < 1e-12);
        assert!((s.sd - 2.5f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn shards_deal_every_game_once() {
        let shards: Vec<Shard> = (1..=3)
            .map(|k| Shard::parse(&format!("{k}/3")).unwrap())
            .collect();
        for i in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.has(i)).count(), 1);
        }
        assert!(
            Shard::parse("0/3").is_err()
                && Shard::parse("4/3").is_err()
                && Shard::parse("x").is_err()
        );
    }

    #[test]
    fn seeds_differ_by_index_and_base() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
    }
}
