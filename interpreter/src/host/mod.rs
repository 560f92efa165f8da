//! The Rhai host: the engine every ruleset runs on, how a ruleset's scripts are compiled and
//! run, and the script API.

pub mod compiled;
pub mod desugar;
pub mod lines;
pub mod profile;
pub mod script;
