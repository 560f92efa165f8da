//! `muster los`: judge line of sight between two hexes of a scenario.

use muster_interpreter::game::{Game, GameOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `muster los`.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario (its map, units and ruleset's LOS rules are used).
    pub scenario: PathBuf,
    /// The firer's hex.
    pub from: String,
    /// The target's hex.
    pub to: String,
}

/// Runs `muster los`.
pub fn exec(a: &Args) -> anyhow::Result<ExitCode> {
    let game = Game::from_scenario(&a.scenario, &GameOptions::default())?;
    let (verdict, reasons, at, reason) = game.los(&a.from, &a.to)?;
    match verdict.as_str() {
        "blocked" => out!("blocked by {at} ({reason})"),
        "obscured" => out!("obscured: {}", reasons.join("; ")),
        other => out!("{other}"),
    }
    Ok(ExitCode::SUCCESS)
}
