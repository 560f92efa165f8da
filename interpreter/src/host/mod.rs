//! The Rhai host: how a ruleset's scripts are compiled and run.

pub mod compiled;
