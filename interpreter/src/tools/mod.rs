//! What the subcommands run: `check` (validation), `verify` (example files) and `simulate`
//! (batch runs).
//!
//! Invariant: tools only drive games through [`crate::game::Game`] and
//! [`crate::host::compiled::CompiledRuleset`]; nothing below depends on them.

pub mod api;
pub mod check;
pub mod simulate;
pub mod verify;
