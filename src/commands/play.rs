//! `muster play`: run a scenario from set-up to the victory check, or resume a saved game.
//!
//! The game is saved as its answers ([`muster_interpreter::world::save`]): after every turn and
//! at every prompt with `--save`, at the prompt's `save`, and on `quit`, the end of input and
//! Ctrl-C. It goes to `--save`, else to the file a resumed game came from, else to
//! `muster-save.ron`. A game that fails keeps its answers up to the failure there too (or in
//! `muster-recover.ron`), for a fixed ruleset to resume.

use super::{parse_agents, parse_options, usage};
use muster_interpreter::game::lookahead::{audit_problem, audit_table};
use muster_interpreter::game::{write_atomically, Game, GameOptions, GameResult, Played};
use muster_interpreter::host::lines;
use muster_interpreter::tools::replay::Recording;
use muster_interpreter::view::text::BoardTerminal;
use muster_interpreter::world::save::{resume_hint, Progress, SaveFile};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `muster play`.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario file (with --resume it may be left out: the save names it).
    #[arg(required_unless_present = "resume")]
    pub scenario: Option<PathBuf>,
    /// The seed of the dice (1 if not given; a resumed game keeps its own).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Who plays a side: SIDE=human|random|bot|search|search:N|search:N:T|replay:LOG (search: N rollouts a decision, 16 if not given, each T turns ahead, 2 if not given: the rest of this turn and the next). Sides not named are played by bot
    /// (with --resume: by the saved game's agent).
    #[arg(long = "agent", value_name = "SIDE=AGENT")]
    pub agents: Vec<String>,
    /// Switch a scenario option: NAME=VALUE (a resumed game keeps its own).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Write the game log (JSON lines) to this file: a header line with the game's start, then
    /// one record a line (`muster replay` plays the game again from it).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Write the game as one HTML page to step through (as `muster replay` does).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Save the game here after every turn and whenever a person is asked; `quit`, the end of
    /// input and Ctrl-C save here too (else in the --resume file, else in muster-save.ron).
    /// Resume with --resume.
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// Keep the board as SVG in this file whenever a person is asked, written anew each time
    /// with the hex decided and the options' hexes marked as the terminal numbers them: keep it
    /// open beside the terminal.
    #[arg(long, value_name = "FILE")]
    pub board: Option<PathBuf>,
    /// Resume a saved game: its scenario, seed, options and agents (--agent overrides a side),
    /// its answers replayed. The game is kept in this file from then on, unless --save says
    /// otherwise.
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
    /// Audit the search agents' decisions: after each search, play every option it tried on N
    /// more rollouts of fresh seeds (4 or more), add what they found to the search's log event,
    /// and print a table of the gains by turn to standard error after the game. The answers
    /// stay the same; the game takes longer. A resumed game audits only the searches made
    /// after the save's answers.
    #[arg(long, value_name = "N")]
    pub audit: Option<usize>,
}

/// The exit status after Ctrl-C (or SIGTERM, SIGHUP): the game is saved, but it did not end,
/// and a shell tells an interrupted command by 128 + SIGINT.
const INTERRUPTED: i32 = 130;

/// Runs `muster play`.
pub fn exec(a: &Args) -> anyhow::Result<ExitCode> {
    let opts = GameOptions {
        seed: a.seed.unwrap_or(1),
        agents: parse_agents(&a.agents)?,
        options: parse_options(&a.options)?,
        echo: !a.json && !a.quiet,
        profile: a.profile,
        profile_lines: a.profile_lines,
        audit: a.audit.unwrap_or(0),
    };
    if let Some(problem) = audit_problem(opts.audit) {
        return Err(usage(format!("--audit {problem}")));
    }
    if a.profile_lines && !lines::available() {
        anyhow::bail!("--profile-lines: {}", lines::UNAVAILABLE);
    }
    let mut game = match (&a.resume, &a.scenario) {
        (Some(save_path), scenario) => {
            let save = SaveFile::load(save_path)?;
            check_resume(a, &opts, &save, scenario.as_deref())?;
            let game = Game::resume_from(save, save_path, &opts)?;
            for w in game.warnings() {
                eprintln!("warning: {w}");
            }
            game
        }
        (None, Some(scenario)) => Game::from_scenario(scenario, &opts)?,
        (None, None) => return Err(usage("muster play needs a SCENARIO, or --resume FILE")),
    };
    // A person is shown the board around each decision (and, with --board, in an SVG file).
    game.set_terminal(Box::new(BoardTerminal {
        board: a.board.clone(),
    }));
    // A resumed game is kept in its own file unless --save names another.
    let keep_in = a.save.clone().or_else(|| a.resume.clone());
    game.set_save_to(keep_in.clone());
    save_on_interrupt(game.progress());
    let recording = a.html.as_ref().map(|_| Recording::watch(&mut game));
    if recording.is_some() {
        // The page lists each decision's options.
        game.record_offers();
    }
    let started = std::time::Instant::now();
    let operations_before = muster_interpreter::host::engine::operations();
    let outcome = game.play();
    if a.profile {
        let operations = muster_interpreter::host::engine::operations() - operations_before;
        let running = game.close_open_sections();
        if outcome.is_err() && !running.is_empty() {
            eprintln!("the game stopped in {}", running.join(" <- "));
        }
        print_profile(&game, started.elapsed(), operations);
    }
    if a.profile_lines {
        print_line_profile(&game, &lines::take(), 40);
    }
    if a.audit.is_some() {
        eprint!("{}", audit_table(&game.audits()));
    }
    if let Some(p) = &a.log {
        let log = format!("{}{}", game.log_header().to_line(), game.log().to_jsonl());
        write_atomically(p, &log)?;
    }
    if let (Some(p), Some(r)) = (&a.html, &recording) {
        let from = a.scenario.as_deref().or(a.resume.as_deref()).unwrap_or(p);
        write_atomically(p, &r.page(&game, &super::replay::title(&game, from)))?;
    }
    match outcome {
        Ok(Played::Over(result)) => {
            print_result(&result, a, &game);
            Ok(ExitCode::SUCCESS)
        }
        Ok(Played::Stopped(_)) => {
            // quit, or the end of input: the game is kept, and stopping so is no failure.
            let path = game.progress().save(None)?;
            eprintln!("{}", resume_hint(&path));
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            if game.replaying() {
                // The save did not replay: it stays as it was, and nothing new is written.
                return Err(e.into());
            }
            // Keep the game: its answers up to the failure, for a fixed ruleset to resume.
            let recover = keep_in.unwrap_or_else(|| PathBuf::from("muster-recover.ron"));
            match game.progress().save(Some(&recover)) {
                Ok(p) => eprintln!(
                    "the game up to the failure is saved in {}; once the rules are fixed, go on with `muster play --resume {}`",
                    p.display(),
                    p.display()
                ),
                Err(s) => eprintln!("the game could not be kept: {s}"),
            }
            Err(e.into())
        }
    }
}

/// What the command line may add to `--resume`: the saved game's own scenario, seed and options,
/// or none; agents, freely (they override the saved ones). Anything else would play another
/// game than the one saved, so it is a usage error rather than a guess.
fn check_resume(
    a: &Args,
    opts: &GameOptions,
    save: &SaveFile,
    scenario: Option<&Path>,
) -> anyhow::Result<()> {
    if let Some(given) = scenario {
        let same = |p: &Path| std::fs::canonicalize(p).ok();
        if given != save.scenario && same(given).is_none_or(|g| Some(g) != same(&save.scenario)) {
            return Err(usage(format!(
                "--resume: the saved game is of {}, not {}; leave out the scenario (the save names it)",
                save.scenario.display(),
                given.display()
            )));
        }
    }
    if a.seed.is_some_and(|s| s != save.seed) {
        return Err(usage(format!(
            "--resume: the saved game's seed is {}; --seed cannot change it",
            save.seed
        )));
    }
    if !a.options.is_empty() && opts.options != save.options {
        return Err(usage(
            "--resume: the saved game keeps its own options; --option cannot change them",
        ));
    }
    Ok(())
}

/// From now on, Ctrl-C (and SIGTERM, SIGHUP) saves the game as it stands and exits with
/// [`INTERRUPTED`]. The handler runs on a thread of its own while the game's thread may be
/// waiting at the prompt, so it writes the shared save itself: every answer given so far.
fn save_on_interrupt(progress: Progress) {
    let installed = ctrlc::set_handler(move || {
        match progress.save(None) {
            Ok(path) => eprintln!("\ninterrupted: {}", resume_hint(&path)),
            Err(e) => eprintln!("\ninterrupted, and the game could not be saved: {e}"),
        }
        std::process::exit(INTERRUPTED);
    });
    if let Err(e) = installed {
        eprintln!("warning: Ctrl-C will stop the game without saving it: {e}");
    }
}

fn print_result(r: &GameResult, a: &Args, game: &Game) {
    if a.json {
        // A resumed game reports the saved game's scenario and seed.
        let obj = serde_json::json!({
            "scenario": game.scenario_path(),
            "ruleset": game.ruleset().name,
            "seed": game.seed(),
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
