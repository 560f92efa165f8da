//! What the subcommands run: `check` (validation), `verify` (example files), `simulate`
//! (batch runs, with `sprt`, the sequential test `duel --target` stops on, and `duel`, the file
//! a duel keeps its games in), `render` (a position as SVG), `replay` (a played game as an HTML
//! page) and `api` (the script API's definition files and reference).
//!
//! Invariant: tools drive games only through [`crate::game::Game`] and
//! [`crate::host::compiled::CompiledRuleset`] (and `api` through the engine games run on);
//! nothing below depends on them.

pub mod api;
pub mod check;
pub mod duel;
pub mod render;
pub mod replay;
pub mod simulate;
pub mod sprt;
pub mod verify;
