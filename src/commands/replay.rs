//! `muster replay`: a played game as one self-contained HTML page (the map, the counters moving,
//! the narration, controls), from a log written by `muster play --log` or from a save.

use muster_interpreter::game::write_atomically;
use muster_interpreter::tools::replay;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `muster replay`.
#[derive(clap::Args)]
pub struct Args {
    /// The game: a log written by `muster play --log` (its first line is the game's start),
    /// or a save file (`.ron`).
    pub game: PathBuf,
    /// The page to write (HTML; it opens from disk, with no network).
    #[arg(long, short)]
    pub output: PathBuf,
}

/// Runs `muster replay`: plays the game again, watched, and writes its page.
pub fn exec(a: &Args) -> anyhow::Result<ExitCode> {
    let (game, recording) = replay::replay(&a.game)?;
    write_atomically(&a.output, &recording.page(&game, &title(&game, &a.game)))?;
    out!("{} records -> {}", recording.len(), a.output.display());
    Ok(ExitCode::SUCCESS)
}

/// The page's title: the ruleset and the scenario's file name.
pub fn title(game: &muster_interpreter::game::Game, from: &Path) -> String {
    let scenario = game.scenario_path().file_stem().map_or_else(
        || from.display().to_string(),
        |s| s.to_string_lossy().to_string(),
    );
    format!("{} — {scenario}", game.ruleset().name)
}
