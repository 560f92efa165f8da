//! `muster duel`: two agents against each other on every side of a scenario, with each one's
//! win rate and its 95 % interval: the search agent against the bot, say, or a new bot against
//! the old.

use super::simulate::{print_report, progress_bar};
use super::{parse_options, read_agents, usage};
use muster_interpreter::tools::simulate::{self, wilson, Spec};
use std::path::PathBuf;
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
    /// Games for each side A plays.
    #[arg(long)]
    pub games: usize,
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
    let sides = muster_interpreter::game::Loaded::load(&a.scenario)?
        .ruleset
        .ruleset()
        .sides
        .clone();
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    out!(
        "{first} against {second} on {} ({} games a side, seed {})",
        a.scenario.display(),
        a.games,
        a.seed
    );
    let (mut won, mut played, mut failed) = (0, 0, 0);
    for side in &sides {
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
        let bar = progress_bar(a.games as u64, false);
        let run = simulate::run(&spec, None, jobs, &|done| bar.set_position(done as u64))?;
        bar.finish_and_clear();
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
        if a.reports {
            print_report(&report, false, jobs);
        }
        won += wins;
        played += report.finished;
        failed += report.failures.len();
    }
    let (lo, hi) = wilson(won, played);
    out!(
        "  {first} on every side      wins {won:>4} of {played:>4} ({:>5.1}%, 95% CI {:.1}-{:.1}%)",
        rate(won, played),
        lo * 100.0,
        hi * 100.0
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `k` of `n` in per cent (0 of none).
fn rate(k: usize, n: usize) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * k as f64 / n as f64
    }
}
