//! `muster render`: draw a scenario's map and units, or a saved game where it stopped, as SVG.

use super::usage;
use muster_interpreter::game::write_atomically;
use muster_interpreter::tools::render::{position, render, RenderOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `muster render`.
#[derive(clap::Args)]
pub struct Args {
    /// The scenario (with --save it may be left out: the save names it).
    #[arg(required_unless_present = "save")]
    pub scenario: Option<PathBuf>,
    /// Draw this saved game (`muster play --save`) where it stopped.
    #[arg(long)]
    pub save: Option<PathBuf>,
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
    let game = position(a.scenario.as_deref(), a.save.as_deref())?;
    let opts = RenderOptions {
        hex_ids: match (a.ids, a.no_ids) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        hex_size: a.hex_size,
    };
    let svg = render(&game, &opts);
    match &a.output {
        Some(p) => write_atomically(p, &svg)?,
        None => out!("{}", svg.trim_end()),
    }
    Ok(ExitCode::SUCCESS)
}
