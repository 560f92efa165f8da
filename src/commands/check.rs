//! `muster check`: validate content files and report `file:line:col: message`.

use crate::diagnostics::{colour_on_stdout, render, MessageFormat};
use muster_interpreter::tools::check::check_path;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `muster check`.
#[derive(clap::Args)]
pub struct Args {
    /// Ruleset folders, scenario, map, table or example files, or folders of them.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// Runs `muster check`.
pub fn exec(a: &Args, format: MessageFormat) -> anyhow::Result<ExitCode> {
    let mut problems = 0;
    for p in &a.paths {
        if !p.exists() {
            out!("{}: no such file or folder", p.display());
            problems += 1;
            continue;
        }
        for e in check_path(p) {
            out!("{}", render(&e, format, colour_on_stdout()));
            problems += 1;
        }
    }
    if problems == 0 {
        out!("ok: no problems found");
        Ok(ExitCode::SUCCESS)
    } else {
        out!(
            "{problems} problem{} found",
            if problems == 1 { "" } else { "s" }
        );
        Ok(ExitCode::from(1))
    }
}
