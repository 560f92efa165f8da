//! What the subcommands run: `check` (validation), `verify` (example files), `simulate`
//! (batch runs), `api` (the script API's definition files and reference) and `replay` (a played
//! game as an HTML page).
//!
//! Invariant: tools drive games only through [`crate::game::Game`] and
//! [`crate::host::compiled::CompiledRuleset`] (and `api` through the engine games run on);
//! nothing below depends on them.

pub mod api;
pub mod check;
pub mod replay;
pub mod simulate;
pub mod verify;
