//! `muster api`: the script API for a modder's editor (`--definitions DIR`: Rhai definition
//! files) and for the reference (`--markdown`: the generated part of `docs/script-api.md`).

use muster_interpreter::tools::api::{
    definition_files, reference_markdown, with_reference, MARKER,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `muster api`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).multiple(true)))]
pub struct Args {
    /// Write the Rhai definition files (`.d.rhai`) into this folder (made if needed).
    #[arg(long, value_name = "DIR", group = "what")]
    pub definitions: Option<PathBuf>,
    /// Print the reference part of `docs/script-api.md` (markdown), or with FILE, rewrite
    /// everything below FILE's marker line with it.
    #[arg(long, value_name = "FILE", num_args = 0..=1, group = "what")]
    pub markdown: Option<Option<PathBuf>>,
}

/// Runs `muster api`.
pub fn exec(a: &Args) -> anyhow::Result<ExitCode> {
    if let Some(dir) = &a.definitions {
        std::fs::create_dir_all(dir)?;
        for (name, text) in definition_files() {
            std::fs::write(dir.join(&name), text)?;
        }
        out!("wrote the definition files into {}", dir.display());
    }
    match &a.markdown {
        Some(Some(file)) => {
            let text = std::fs::read_to_string(file)?;
            let Some(new) = with_reference(&text) else {
                anyhow::bail!("{} has no line `{MARKER}`", file.display());
            };
            std::fs::write(file, new)?;
            out!("wrote the reference into {}", file.display());
        }
        Some(None) => out!("{}", reference_markdown().trim_start()),
        None => {}
    }
    Ok(ExitCode::SUCCESS)
}
