//! `muster play`: run a scenario from set-up to the victory check.

use super::{parse_agents, parse_options};
use muster_interpreter::game::{write_atomically, Checkpoint, Game, GameOptions, GameResult};
use muster_interpreter::host::lines;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `muster play`.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario file (or, with --resume, ignored).
    pub scenario: PathBuf,
    /// The seed of the dice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Who plays a side: SIDE=human|random|bot|replay:LOG. Sides not named are played by bot.
    #[arg(long = "agent", value_name = "SIDE=AGENT")]
    pub agents: Vec<String>,
    /// Switch a scenario option: NAME=VALUE.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Write the game log (JSON lines) to this file.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Save the game here after every turn (resume with --resume).
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Resume a saved game instead of starting the scenario.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Print one JSON object with the result, and no narration.
    #[arg(long)]
    pub json: bool,
    /// Print no narration, only the result.
    #[arg(long, short)]
    pub quiet: bool,
    /// Profile the game: time every script function that takes the game, and the sections
    /// marked with `game.timer(name)`, in script operations and time; print the sections to
    /// standard error after the game.
    #[arg(long)]
    pub profile: bool,
    /// Count script steps per line and print the busiest lines to standard error after the
    /// game (the same on every run). Needs a build with `--features line-profile`.
    #[arg(long)]
    pub profile_lines: bool,
}

/// Runs `muster play`.
pub fn exec(a: &Args) -> anyhow::Result<ExitCode> {
    let opts = GameOptions {
        seed: a.seed,
        agents: parse_agents(&a.agents)?,
        options: parse_options(&a.options)?,
        echo: !a.json && !a.quiet,
        profile: a.profile,
        profile_lines: a.profile_lines,
    };
    if a.profile_lines && !lines::available() {
        anyhow::bail!("--profile-lines: {}", lines::UNAVAILABLE);
    }
    let mut game = match &a.resume {
        Some(save) => Game::resume(save, &opts)?,
        None => Game::from_scenario(&a.scenario, &opts)?,
    };
    let started = std::time::Instant::now();
    let operations_before = muster_interpreter::host::engine::operations();
    let outcome = play_out(&mut game, a.save.as_deref());
    if a.profile {
        let operations = muster_interpreter::host::engine::operations() - operations_before;
        print_profile(&game, started.elapsed(), operations);
    }
    if a.profile_lines {
        print_line_profile(&game, &lines::take(), 40);
    }
    if let Some(p) = &a.log {
        write_atomically(p, &game.log().to_jsonl())?;
    }
    let result = match outcome {
        Ok(r) => r,
        Err((e, snapshot)) => {
            // Keep the game: the last turn boundary goes to --save, or to a recovery file.
            let recover = a
                .save
                .clone()
                .unwrap_or_else(|| PathBuf::from("muster-recover.ron"));
            if let Some(text) = snapshot {
                write_atomically(&recover, &text)?;
                eprintln!("the game as it stood at the start of the turn is saved in {}; resume with --resume {}", recover.display(), recover.display());
            }
            return Err(e.into());
        }
    };
    print_result(&result, a, &game);
    Ok(ExitCode::SUCCESS)
}

type Failure = (muster_interpreter::error::Error, Option<String>);

/// Plays turn by turn, keeping a checkpoint of the last turn boundary; on an error, the
/// checkpoint's save-file text goes back with it.
fn play_out(game: &mut Game, save: Option<&Path>) -> Result<GameResult, Failure> {
    let mut checkpoint = game.checkpoint();
    let fail = |game: &Game, cp: &Checkpoint, e| (e, game.checkpoint_text(cp).ok());
    if let Err(e) = game.set_up() {
        return Err(fail(game, &checkpoint, e));
    }
    while !game.over() {
        checkpoint = game.checkpoint();
        if let Err(e) = game.play_turn() {
            return Err(fail(game, &checkpoint, e));
        }
        if let Some(p) = save {
            if let Err(e) = game.save(p) {
                return Err(fail(game, &checkpoint, e));
            }
        }
    }
    game.victory().map_err(|e| fail(game, &checkpoint, e))
}

fn print_result(r: &GameResult, a: &Args, game: &Game) {
    if a.json {
        let obj = serde_json::json!({
            "scenario": a.scenario,
            "ruleset": game.ruleset().name,
            "seed": a.seed,
            "turns": r.turns,
            "winner": r.winner,
            "vp": r.vp,
            "details": r.details,
        });
        out!("{obj}");
        return;
    }
    out!(
        "\n{} — game over after {} turns",
        game.ruleset().name,
        r.turns
    );
    for (side, vp) in &r.vp {
        out!("  {side}: {vp} VP");
    }
    match &r.winner {
        Some(w) => out!("  winner: {w}"),
        None => out!("  result: draw"),
    }
}

/// The `shown` busiest script lines, with their share of all steps, where each is and its text
/// (scripts read again for the text; a line that cannot be read shows none).
fn print_line_profile(game: &Game, counts: &[lines::LineCount], shown: usize) {
    let total: u64 = counts.iter().map(|c| c.steps).sum();
    let ruleset = game.compiled();
    let mut texts: HashMap<std::path::PathBuf, Vec<String>> = HashMap::new();
    eprintln!(
        "script steps per line: {total} in all (statements and expression steps, calls into the core included)"
    );
    eprintln!("  {:>9} {:>6}  where", "steps", "%");
    for c in counts.iter().take(shown) {
        // A profiled body (`--profile`) is the function as written.
        let name = c
            .function
            .strip_suffix(muster_interpreter::host::profile::BODY_SUFFIX)
            .unwrap_or(&c.function);
        let file = ruleset
            .source_of(&c.function)
            .map(std::path::Path::to_path_buf);
        let text = file.as_ref().and_then(|f| {
            texts
                .entry(f.clone())
                .or_insert_with(|| {
                    std::fs::read_to_string(f)
                        .map(|t| t.lines().map(str::to_string).collect())
                        .unwrap_or_default()
                })
                .get(c.line.wrapping_sub(1))
                .map(|l| l.trim().to_string())
        });
        let place = file.map_or_else(
            || format!("(top level):{}", c.line),
            |f| format!("{}:{}", f.display(), c.line),
        );
        eprintln!(
            "  {:>9} {:>5.1}%  {place} in {}: {}",
            c.steps,
            100.0 * c.steps as f64 / (total.max(1) as f64),
            if name.is_empty() { "(top level)" } else { name },
            text.unwrap_or_default()
        );
    }
}

/// The script section timers, most script operations first, beside the whole game's time and
/// operations: each section's total, its own share (less the sections opened inside it), and
/// how often it was entered. Operation counts are the same on any machine; times are not.
fn print_profile(game: &Game, total: std::time::Duration, operations: u64) {
    let mut timers = game.timers();
    timers.sort_by_key(|t| std::cmp::Reverse((t.1.operations, t.1.total)));
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    let kops = |n: u64| n as f64 / 1e3;
    eprintln!(
        "game: {:.1} ms, {:.1} k script operations ({:.0} ns each, calls into the core included)",
        ms(total),
        kops(operations),
        total.as_secs_f64() * 1e9 / (operations.max(1) as f64)
    );
    eprintln!(
        "  {:<32} {:>9} {:>6} {:>9} {:>9} {:>9} {:>7} {:>10}",
        "section", "total kop", "%", "own kop", "total ms", "own ms", "times", "us each"
    );
    for (name, t) in timers {
        eprintln!(
            "  {name:<32} {:>9.1} {:>5.1}% {:>9.1} {:>9.2} {:>9.2} {:>7} {:>10.1}",
            kops(t.operations),
            100.0 * t.operations as f64 / (operations.max(1) as f64),
            kops(t.own_operations),
            ms(t.total),
            ms(t.own),
            t.count,
            t.total.as_secs_f64() * 1e6 / (t.count.max(1) as f64)
        );
    }
}
