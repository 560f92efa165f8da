//! `muster`: run, check and verify hex-and-counter wargames written as Rhai
//! scripts and RON tables. One module per subcommand, each with `Args` and
//! `exec`.

mod commands;
mod diagnostics;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// mimalloc rather than the system allocator: a game makes millions of small, short-lived
/// allocations (script values), and the system allocator spent about a seventh of a game's time
/// on them. (`muster_interpreter::alloc` says why not the `mimalloc` crate's own.)
#[global_allocator]
static ALLOCATOR: muster_interpreter::alloc::Mimalloc = muster_interpreter::alloc::Mimalloc;

/// A rules interpreter for hex-and-counter board wargames.
#[derive(Parser)]
#[command(name = "muster", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// How errors are shown: `human` (the source line with a caret and a help line) or
    /// `short` (one `file:line:col: message` line each, for editors and CI).
    #[arg(long, global = true, value_enum, default_value_t)]
    message_format: diagnostics::MessageFormat,
}

#[derive(Subcommand)]
enum Command {
    /// Play a scenario to its end and print the result.
    Play(commands::play::Args),
    /// Validate rulesets, tables, scenarios, maps and example files.
    Check(commands::check::Args),
    /// Play many games in parallel and report wins, points, losses and length.
    Simulate(commands::simulate::Args),
    /// Play two agents against each other on every side and report each one's win rate.
    Duel(commands::duel::Args),
    /// Run example files and report `N passed, N failed`.
    Verify(commands::verify::Args),
    /// Write a played game (a log of `play --log`, or a save) as one HTML page to step through.
    Replay(commands::replay::Args),
    /// Judge line of sight between two hexes of a scenario.
    Los(commands::los::Args),
    /// Draw a scenario's map and units, or a saved game where it stopped, as SVG.
    Render(commands::render::Args),
    /// Write the script API's Rhai definition files, or print its reference.
    Api(commands::api::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Scripts may nest calls deeper than the main thread's stack allows: run on a thread with
    // the stack the engine asks for.
    let worker = std::thread::Builder::new()
        .name("muster".into())
        .stack_size(muster_interpreter::host::engine::SCRIPT_THREAD_STACK)
        .spawn(move || run(cli));
    match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => ExitCode::from(101),
        Err(e) => {
            eprintln!("error: cannot start the command's thread: {e}");
            ExitCode::from(1)
        }
    }
}

/// Runs the command line's subcommand and reports its error, if any.
fn run(cli: Cli) -> ExitCode {
    let format = cli.message_format;
    let result = match cli.command {
        Command::Play(a) => commands::play::exec(&a),
        Command::Check(a) => commands::check::exec(&a, format),
        Command::Verify(a) => commands::verify::exec(&a),
        Command::Simulate(a) => commands::simulate::exec(&a),
        Command::Duel(a) => commands::duel::exec(&a),
        Command::Replay(a) => commands::replay::exec(&a),
        Command::Los(a) => commands::los::exec(&a),
        Command::Render(a) => commands::render::exec(&a),
        Command::Api(a) => commands::api::exec(&a),
    };
    match result {
        Ok(code) => code,
        Err(e) => report(&e, format),
    }
}

/// Prints a failed command's error and gives its exit status: 2 when the command was used
/// wrongly, 1 for a rules or data error.
fn report(e: &anyhow::Error, format: diagnostics::MessageFormat) -> ExitCode {
    use muster_interpreter::error::Error;
    match e.downcast_ref::<Error>() {
        Some(engine) => {
            let colour = diagnostics::colour_on_stderr();
            eprintln!("{}", diagnostics::render(engine, format, colour));
            ExitCode::from(if matches!(engine, Error::Usage(_)) {
                2
            } else {
                1
            })
        }
        None => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
