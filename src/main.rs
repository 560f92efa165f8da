//! `muster`: run, check and verify hex-and-counter wargames written as Rhai
//! scripts and RON tables. One module per subcommand, each with `Args` and
//! `exec`.

mod commands;

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
}

#[derive(Subcommand)]
enum Command {
    /// Play a scenario to its end and print the result.
    Play(commands::play::Args),
    /// Validate rulesets, tables, scenarios, maps and example files.
    Check(commands::check::Args),
    /// Play many games in parallel and report wins, points, losses and length.
    Simulate(commands::simulate::Args),
    /// Run example files and report `N passed, N failed`.
    Verify(commands::verify::Args),
    /// Judge line of sight between two hexes of a scenario.
    Los(commands::los::Args),
    /// Write the script API's Rhai definition files, or print its reference.
    Api(commands::api::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(a) => commands::play::exec(&a),
        Command::Check(a) => commands::check::exec(&a),
        Command::Verify(a) => commands::verify::exec(&a),
        Command::Simulate(a) => commands::simulate::exec(&a),
        Command::Los(a) => commands::los::exec(&a),
        Command::Api(a) => commands::api::exec(&a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
