//! Geometry and the searches over it: hexes and their printed ids, maps, line of sight,
//! movement, zones of control and retreats.
//!
//! Invariant: no Rhai and no rules here. What blocks a line, what a step costs and what a
//! zone of control reaches are the ruleset's data, handed in as checked types
//! ([`los::LosRules`], [`search::Profile`], [`search::ZocRules`]); searches break ties on
//! the hex, so their answers never depend on hashing or timing.

pub mod hex;
pub mod los;
pub mod map;
pub mod numbering;
pub mod search;
