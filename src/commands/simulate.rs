//! `muster simulate`: many games of a scenario in parallel, with a report of
//! wins, victory points, losses and game length; shards for splitting a run
//! across machines, and `--merge` to combine them.

use super::{parse_options, read_agents, usage};
use indicatif::{ProgressBar, ProgressStyle};
use muster_interpreter::tools::simulate::{self, Report, Shard, ShardFile, Spec};
use muster_interpreter::world::agent::AgentKind;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `muster simulate`.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario file (not needed with --merge).
    #[arg(required_unless_present = "merge")]
    pub scenario: Option<PathBuf>,
    /// How many games in the whole run.
    #[arg(long, required_unless_present = "merge")]
    pub games: Option<usize>,
    /// The base seed; game i plays with a seed derived from it and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Who plays a side: SIDE=bot|random|search|search:N|search:N:T|replay:LOG. Sides not named are played by bot.
    #[arg(long = "agent", value_name = "SIDE=AGENT")]
    pub agents: Vec<String>,
    /// Switch a scenario option: NAME=VALUE.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Run only slice K of N (games are dealt round-robin).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Write the games' results to this file (for --merge).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Combine result files written by --out into one report.
    #[arg(long, num_args = 1.., conflicts_with_all = ["scenario", "shard"])]
    pub merge: Vec<PathBuf>,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Runs `muster simulate`.
pub fn exec(a: &Args) -> anyhow::Result<ExitCode> {
    if !a.merge.is_empty() {
        return merge(a);
    }
    let (Some(scenario), Some(games)) = (a.scenario.clone(), a.games) else {
        return Err(usage(
            "simulate needs SCENARIO and --games N (or --merge FILE...)",
        ));
    };
    let spec = Spec {
        scenario,
        games,
        seed: a.seed,
        agents: read_agents(&a.agents)?,
        options: parse_options(&a.options)?,
    };
    let shard = a
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(usage)?;
    warn_about_replays(&spec);
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let planned = (0..games)
        .filter(|i| shard.is_none_or(|s| s.has(*i)))
        .count();
    let bar = progress_bar(planned as u64, a.json);
    let start = Instant::now();
    let simulate::Run { sides, records } =
        simulate::run(&spec, shard, jobs, &|done| bar.set_position(done as u64))?;
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    if let Some(out) = &a.out {
        let file = ShardFile {
            spec: spec.clone(),
            sides: sides.clone(),
            shard,
            records: records.clone(),
        };
        muster_interpreter::game::write_atomically(out, &serde_json::to_string(&file)?)?;
    }
    let report = simulate::report(&spec, &sides, &records, seconds);
    print_report(&report, a.json, jobs);
    Ok(exit_status(&report))
}

/// A recorded log answers the decisions of the one game it was recorded in; replayed into a
/// batch, every game gets the same answers, and the games whose dice differ soon meet a
/// decision the log does not fit (a failure). Say so before the run rather than after.
fn warn_about_replays(spec: &Spec) {
    if spec.games < 2 {
        return;
    }
    for (side, agent) in &spec.agents {
        if AgentKind::names_replay(agent) {
            eprintln!(
                "warning: {side} replays one recorded game's answers in each of the {} games; \
                 games whose dice differ from the recording will fail when the answers stop fitting",
                spec.games
            );
        }
    }
}

fn merge(a: &Args) -> anyhow::Result<ExitCode> {
    let mut files = Vec::new();
    for p in &a.merge {
        let text =
            std::fs::read_to_string(p).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
        let f: ShardFile = serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "{}:{}:{}: not a simulate --out file: {e}",
                p.display(),
                e.line(),
                e.column()
            )
        })?;
        files.push(f);
    }
    let (spec, sides, records) = simulate::merge(&files)?;
    let report = simulate::report(&spec, &sides, &records, 0.0);
    print_report(&report, a.json, 0);
    Ok(exit_status(&report))
}

/// A run in which any game failed is a failed run (exit status 1), however many finished.
fn exit_status(r: &Report) -> ExitCode {
    if r.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// A bar on standard error with games done, games per second and time left;
/// none when standard error is not a terminal or the output is JSON.
pub fn progress_bar(total: u64, json: bool) -> ProgressBar {
    if json || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  {eta} left")
    {
        bar.set_style(style);
    }
    bar
}

pub fn print_report(r: &Report, json: bool, jobs: usize) {
    if json {
        out!("{}", serde_json::to_string(r).unwrap_or_default());
        return;
    }
    out!(
        "{} games of {} (seed {}): {} finished, {} failed",
        r.games,
        r.scenario.display(),
        r.seed,
        r.finished,
        r.failures.len()
    );
    let agents: Vec<String> = r.agents.iter().map(|(s, a)| format!("{s}={a}")).collect();
    out!("  agents: {}", agents.join(", "));
    for (side, s) in &r.sides {
        out!(
            "  {side:<14} wins {:>5} ({:>5.1}%, 95% CI {:.1}-{:.1}%)  VP mean {:.1} sd {:.1} median {:.1} p10 {:.1} p90 {:.1}",
            s.wins.count,
            s.wins.rate * 100.0,
            s.wins.ci95.0 * 100.0,
            s.wins.ci95.1 * 100.0,
            s.vp.mean,
            s.vp.sd,
            s.vp.median,
            s.vp.p10,
            s.vp.p90
        );
        out!(
            "  {:<14} lost units mean {:.1} sd {:.1}; strength mean {:.1} sd {:.1}",
            "",
            s.units_lost.mean,
            s.units_lost.sd,
            s.strength_lost.mean,
            s.strength_lost.sd
        );
    }
    out!(
        "  draws {:>5} ({:.1}%, 95% CI {:.1}-{:.1}%)",
        r.draws.count,
        r.draws.rate * 100.0,
        r.draws.ci95.0 * 100.0,
        r.draws.ci95.1 * 100.0
    );
    out!("  VP margin (first side minus second): mean {:.1} sd {:.1} median {:.1} p10 {:.1} p90 {:.1}", r.margin.mean, r.margin.sd, r.margin.median, r.margin.p10, r.margin.p90);
    out!(
        "  game length: mean {:.1} turns (p10 {:.0}, p90 {:.0})",
        r.turns.mean,
        r.turns.p10,
        r.turns.p90
    );
    for f in &r.failures {
        out!("  FAILED game {} (seed {}): {}", f.index, f.seed, f.error);
    }
    if r.timing.seconds > 0.0 {
        out!(
            "  {:.1} games/s on {jobs} jobs, {:.1} ms per game",
            r.timing.games_per_second,
            r.timing.ms_per_game
        );
    }
}
