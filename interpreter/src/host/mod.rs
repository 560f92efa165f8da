//! The Rhai host: the engine every ruleset runs on ([`engine`]), a ruleset's scripts compiled
//! once ([`compiled`]), the script text as compiled ([`desugar`], [`profile`]), line counts
//! ([`lines`]), the readers of script arguments ([`args`]) and the script API ([`api`]).
//!
//! Invariant: scripts reach the world only through the API: they hold a `Game` handle, cannot
//! read files (imports resolve inside `rulesets/` only), cannot `eval`, and are stopped by the
//! engine's operation, call-depth and size limits.

pub mod api;
pub mod args;
pub mod compiled;
pub mod desugar;
pub mod engine;
pub mod lines;
pub mod profile;
