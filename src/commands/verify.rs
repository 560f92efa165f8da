//! `muster verify`: run example files and end with `N passed, N failed`.

use muster_interpreter::verify::{collect, Runner};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `muster verify`.
#[derive(clap::Args)]
pub struct Args {
    /// Example files, or folders of them.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
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
            }
            Ok(o) => {
                failed += 1;
                out!("FAIL {}: {}", path.display(), o.title);
                for f in &o.failures {
                    out!("     {f}");
                }
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
