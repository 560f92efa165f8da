//! `muster duel`: two agents against each other on every side of a scenario (or the sides named
//! with `--side`), with each one's win rate and its 95 % interval: the search agent against the
//! bot, say, or a new bot against the old. With `--target`, each side's games stop as soon as a
//! sequential test settles whether the first agent wins at least that share of them. With
//! `--out FILE`, every seat's games are kept in FILE as they end, and a duel run again with the
//! same file goes on from where it stopped.

use super::simulate::{print_report, progress_bar};
use super::{parse_options, read_agents, usage};
use muster_interpreter::tools::duel::{rules_fingerprint, DuelFile};
use muster_interpreter::tools::simulate::{self, wilson, Record, Run, Spec};
use muster_interpreter::tools::sprt::{self, Sprt, Verdict};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `muster duel`.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario file.
    pub scenario: PathBuf,
    /// The two agents, A,B (bot, random, search, search:N, search:N:T): A plays each side in turn against B on
    /// the others.
    #[arg(long, value_name = "A,B")]
    pub agents: String,
    /// Play A only on this side (repeat for more; default: every side in turn), to measure one
    /// seat of a scenario whose games take minutes.
    #[arg(long = "side", value_name = "SIDE")]
    pub sides: Vec<String>,
    /// Games for each side A plays (with --target, the most it plays).
    #[arg(long)]
    pub games: usize,
    /// Stop each side's games as soon as a sequential test (SPRT) settles whether A wins at least
    /// this share of them, such as 0.6 (docs/search.md, "Measuring an agent").
    #[arg(long, value_name = "RATE")]
    pub target: Option<f64>,
    /// With --target, the half-width of the zone around it where either answer may be given.
    #[arg(long, value_name = "RATE", default_value_t = sprt::DEFAULT_MARGIN, requires = "target")]
    pub margin: f64,
    /// The base seed; game i of each side plays with a seed derived from it and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Switch a scenario option: NAME=VALUE.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Print each side's whole simulate report too.
    #[arg(long)]
    pub reports: bool,
    /// Keep every seat's games in this file as they end; run again with the same file (and the
    /// same scenario, seed, agents and options; any --games), a duel goes on where it stopped.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Runs `muster duel`.
pub fn exec(a: &Args) -> anyhow::Result<ExitCode> {
    let Some((first, second)) = a.agents.split_once(',') else {
        return Err(usage(format!(
            "--agents takes two agents A,B, such as search,bot; got `{}`",
            a.agents
        )));
    };
    let (first, second) = (first.trim(), second.trim());
    let test = a
        .target
        .map(|t| Sprt::new(t, a.margin))
        .transpose()
        .map_err(|e| usage(format!("--target and --margin: {e}")))?;
    let loaded = muster_interpreter::game::Loaded::load(&a.scenario)?;
    let sides = loaded.ruleset.ruleset().sides.clone();
    if let Some(unknown) = a.sides.iter().find(|s| !sides.contains(s)) {
        return Err(usage(format!(
            "--side {unknown}: the scenario's sides are {}",
            sides.join(", ")
        )));
    }
    let seats: Vec<&String> = sides
        .iter()
        .filter(|s| a.sides.is_empty() || a.sides.contains(s))
        .collect();
    // The file and the rules its games must have been played under; opened once here so that a
    // file that cannot be taken up is said before any game is played.
    let kept = match &a.out {
        Some(path) => {
            let rules = rules_fingerprint(&loaded)?;
            DuelFile::open(path, &a.scenario, &rules)?;
            Some((path.as_path(), rules))
        }
        None => None,
    };
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    out!(
        "{first} against {second} on {} ({} games a side, seed {})",
        a.scenario.display(),
        if test.is_some() {
            format!("until settled, at most {}", a.games)
        } else {
            a.games.to_string()
        },
        a.seed
    );
    let (mut won, mut played, mut failed) = (0, 0, 0);
    let seats_played = seats.len();
    for side in seats {
        let named: Vec<String> = sides
            .iter()
            .map(|s| format!("{s}={}", if s == side { first } else { second }))
            .collect();
        let spec = Spec {
            scenario: a.scenario.clone(),
            games: a.games,
            seed: a.seed,
            agents: read_agents(&named)?,
            options: parse_options(&a.options)?,
        };
        let seat = SeatRun {
            spec: &spec,
            side,
            first,
            sides: &sides,
            test: test.as_ref(),
            jobs,
        };
        let run = match &kept {
            Some((path, rules)) => seat.play_kept(path, rules)?,
            None => seat.play(Vec::new(), None)?,
        };
        let report = simulate::report(&spec, &run.sides, &run.records, 0.0);
        let wins = report.sides.get(side).map_or(0, |s| s.wins.count);
        let (lo, hi) = wilson(wins, report.finished);
        out!(
            "  {first} as {side:<14} wins {wins:>4} of {:>4} ({:>5.1}%, 95% CI {:.1}-{:.1}%){}",
            report.finished,
            rate(wins, report.finished),
            lo * 100.0,
            hi * 100.0,
            if report.failures.is_empty() {
                String::new()
            } else {
                format!(", {} failed", report.failures.len())
            }
        );
        if let Some(t) = &test {
            out!("    {}", verdict_line(t, first, wins, report.finished));
        }
        if a.reports {
            print_report(&report, false, jobs);
        }
        won += wins;
        played += report.finished;
        failed += report.failures.len();
    }
    // One seat's line is the whole answer; several seats get their sum too.
    if seats_played > 1 {
        let (lo, hi) = wilson(won, played);
        let which = if seats_played == sides.len() {
            "on every side    "
        } else {
            "on the sides named"
        };
        out!(
            "  {first} {which}  wins {won:>4} of {played:>4} ({:>5.1}%, 95% CI {:.1}-{:.1}%)",
            rate(won, played),
            lo * 100.0,
            hi * 100.0
        );
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// What a seat does with its games so far as each ends (keeps them in a file).
type AfterGame<'a> = dyn FnMut(&[Record]) -> muster_interpreter::error::Result<()> + 'a;

/// One seat of a duel being played: the first agent on `side` against the second on the others.
struct SeatRun<'a> {
    spec: &'a Spec,
    side: &'a str,
    first: &'a str,
    sides: &'a [String],
    test: Option<&'a Sprt>,
    jobs: usize,
}

impl SeatRun<'_> {
    /// Plays the seat's games on from those kept in the file at `path`, keeping each in it as it
    /// ends (see [`DuelFile::keep_in`]).
    fn play_kept(&self, path: &Path, rules: &str) -> anyhow::Result<Run> {
        let played = DuelFile::open(path, &self.spec.scenario, rules)?.played(self.side, self.spec);
        if !played.is_empty() {
            eprintln!(
                "  {} as {}: {} games taken up from {}",
                self.first,
                self.side,
                played.len(),
                path.display()
            );
        }
        let scenario = &self.spec.scenario;
        self.play(
            played,
            Some(&mut |records: &[Record]| {
                DuelFile::keep_in(path, scenario, rules, self.side, self.spec, records)
            }),
        )
    }

    /// Plays the seat's games after `played`, calling `each` with the games so far as each ends.
    /// With neither a test nor `each`, the games are played in any order, every core busy.
    fn play(&self, played: Vec<Record>, mut each: Option<&mut AfterGame>) -> anyhow::Result<Run> {
        let bar = progress_bar(self.spec.games as u64, false);
        bar.set_position(played.len() as u64);
        // The games taken up took no time now: the rate starts from the first game played.
        bar.reset_eta();
        if self.test.is_none() && each.is_none() {
            let run = simulate::run(self.spec, None, self.jobs, &|done| {
                bar.set_position(done as u64);
            })?;
            bar.finish_and_clear();
            return Ok(run);
        }
        let mut shown = |records: &[Record]| {
            bar.set_position(records.len() as u64);
            each.as_mut().map_or(Ok(()), |each| each(records))
        };
        // Each game's result as it comes, for a run that takes hours.
        let mut settled = |r: &[Record]| {
            let Some(t) = self.test else { return false };
            let so_far = simulate::report(self.spec, self.sides, r, 0.0);
            let finished = so_far.finished;
            let wins = so_far.sides.get(self.side).map_or(0, |s| s.wins.count);
            bar.suspend(|| {
                eprintln!(
                    "  {} as {}: game {} {}, {wins} won of {finished} (log-likelihood ratio {:.2})",
                    self.first,
                    self.side,
                    r.len(),
                    outcome(r.last(), self.side),
                    t.llr(wins, finished)
                );
            });
            t.verdict(wins, finished) != Verdict::Undecided
        };
        let run = simulate::run_until(self.spec, self.jobs, played, &mut shown, &mut settled)?;
        bar.finish_and_clear();
        Ok(run)
    }
}

/// How the game `record` ended for `side`.
fn outcome(record: Option<&Record>, side: &str) -> &'static str {
    match record.map(|r| &r.outcome) {
        Some(Ok(s)) if s.winner.as_deref() == Some(side) => "won",
        Some(Ok(s)) if s.winner.is_none() => "drawn",
        Some(Ok(_)) => "lost",
        _ => "failed",
    }
}

/// What the sequential test `t` says of `wins` of `games` for `agent`.
fn verdict_line(t: &Sprt, agent: &str, wins: usize, games: usize) -> String {
    let target = t.target * 100.0;
    let zone = format!(
        "SPRT {:.0}% against {:.0}%, log-likelihood ratio {:.2}",
        t.low * 100.0,
        t.high * 100.0,
        t.llr(wins, games)
    );
    match t.verdict(wins, games) {
        Verdict::AtLeast => format!("{agent} wins at least {target:.0}% of these games ({zone})"),
        Verdict::Below => format!("{agent} wins less than {target:.0}% of these games ({zone})"),
        Verdict::Undecided => format!(
            "not settled after {games} games: raise --games (with --out, the games played are taken up) ({zone})"
        ),
    }
}

/// `k` of `n` in per cent (0 of none).
fn rate(k: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * k as f64 / n as f64
    }
}
