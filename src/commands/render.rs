//! `muster render`: draw a scenario's map and units, a saved game where it stopped, or a logged
//! game after any of its records, as SVG.

use super::usage;
use muster_interpreter::game::write_atomically;
use muster_interpreter::tools::render::{position, render, render_state, RenderOptions};
use muster_interpreter::tools::replay;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `muster render`.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario (with --save or --log it may be left out: the save or the log names it).
    #[arg(required_unless_present_any = ["save", "log"])]
    pub scenario: Option<PathBuf>,
    /// Draw this saved game (`muster play --save`) where it stopped.
    #[arg(long, conflicts_with = "log")]
    pub save: Option<PathBuf>,
    /// Draw the game of this log (`muster play --log`) after its record --at N.
    #[arg(long, requires = "at")]
    pub log: Option<PathBuf>,
    /// With --log: the position after the N-th record (0: the start).
    #[arg(long, value_name = "N", requires = "log")]
    pub at: Option<usize>,
    /// Write the SVG here (else to standard output).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Pixels from a hex's centre to a corner (else the style's).
    #[arg(long)]
    pub hex_size: Option<f64>,
    /// Leave out the hex ids.
    #[arg(long, conflicts_with = "ids")]
    pub no_ids: bool,
    /// Print the hex ids, whatever the style says.
    #[arg(long)]
    pub ids: bool,
}

/// Runs `muster render`.
pub fn exec(a: &Args) -> anyhow::Result<ExitCode> {
    if let Some(size) = a.hex_size.filter(|s| !(4.0..=400.0).contains(s)) {
        return Err(usage(format!(
            "--hex-size {size}: a hex is 4 to 400 pixels from centre to corner"
        )));
    }
    let opts = RenderOptions {
        hex_ids: match (a.ids, a.no_ids) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        hex_size: a.hex_size,
    };
    let svg = match (&a.log, a.at) {
        (Some(log), Some(n)) => {
            let (save, _) = replay::load_game(log)?;
            if let Some(s) = &a.scenario {
                let same = muster_interpreter::source::normalize;
                if same(s) != same(&save.scenario) {
                    return Err(usage(format!(
                        "{} is a game of {}, not of {}",
                        log.display(),
                        save.scenario.display(),
                        s.display()
                    )));
                }
            }
            let (game, state) = replay::position_at(log, n)?;
            render_state(&game, &state, &opts)
        }
        _ => render(&position(a.scenario.as_deref(), a.save.as_deref())?, &opts),
    };
    match &a.output {
        Some(p) => write_atomically(p, &svg)?,
        None => out!("{}", svg.trim_end()),
    }
    Ok(ExitCode::SUCCESS)
}
