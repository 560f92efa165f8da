//! `muster verify`: run example files and end with `N passed, N failed`.

use muster_interpreter::tools::verify::{collect, Runner};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `muster verify`.
#[derive(clap::Args)]
pub struct Args {
    /// Example files, or folders of them.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Print each example's narration (what its steps logged) after its verdict.
    #[arg(long)]
    pub show: bool,
}

/// Runs `muster verify`.
pub fn exec(a: &Args) -> anyhow::Result<ExitCode> {
    let mut runner = Runner::default();
    let (mut passed, mut failed) = (0, 0);
    for path in collect(&a.paths) {
        match runner.run(&path) {
            Ok(o) if o.failures.is_empty() => {
                passed += 1;
                out!("ok   {}: {}", path.display(), o.title);
                show(a, &o.narration);
            }
            Ok(o) => {
                failed += 1;
                out!("FAIL {}: {}", path.display(), o.title);
                for f in &o.failures {
                    out!("     {f}");
                }
                show(a, &o.narration);
            }
            Err(e) => {
                failed += 1;
                out!("FAIL {}", path.display());
                out!("     {e}");
            }
        }
    }
    out!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The narration under a verdict, indented, with `--show`.
fn show(a: &Args, narration: &str) {
    if a.show {
        for line in narration.lines() {
            out!("       | {line}");
        }
    }
}
