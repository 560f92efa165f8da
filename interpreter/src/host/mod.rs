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

use crate::ruleset::Limits;
use rhai::Engine;
use std::path::Path;

/// Builds the engine every game of a ruleset runs on: the limits and the import resolver
/// ([`engine::configured`]), then the whole script API ([`api::register`]).
#[must_use]
pub fn build_engine(limits: &Limits, rulesets_dir: &Path) -> Engine {
    let mut engine = engine::configured(limits, rulesets_dir);
    api::register(&mut engine);
    engine
}
