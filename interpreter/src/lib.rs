//! # muster-interpreter
//!
//! The engine of `muster`, a rules interpreter for hex-and-counter board
//! wargames. It knows hexes, maps, line of sight, dice, tables, game state
//! and how to run Rhai scripts; it knows no game. Each game's rules live in a
//! ruleset folder of Rhai scripts and RON tables loaded at run time.
//!
//! ```no_run
//! use muster_interpreter::game::{Game, GameOptions};
//! use std::path::Path;
//!
//! let opts = GameOptions { seed: 1, ..GameOptions::default() };
//! let mut game = Game::from_scenario(Path::new("scenarios/demo/skirmish.ron"), &opts)?;
//! let result = game.run(None)?;
//! println!("{:?} wins after {} turns", result.winner, result.turns);
//! # Ok::<(), muster_interpreter::error::Error>(())
//! ```
//!
//! The modules, from the ground up: [`hex`] (geometry), [`numbering`]
//! (printed ids), [`map`], [`los`], [`search`] (movement, zones of control,
//! retreats), [`dice`], [`table`], [`value`], [`state`], [`log`], [`agent`],
//! [`ruleset`], [`desugar`] (script text as compiled), [`script`] (the Rhai
//! host and its API), [`scenario`],
//! [`game`], [`simulate`] (batch runs), [`verify`] (example files) and [`check`]
//! (validation); [`alloc`] is the allocator the binary and benchmarks use.

// `deny` rather than `forbid`: the allocator (`alloc`) is the one module allowed `unsafe`.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod agent;
pub mod alloc;
pub mod check;
pub mod desugar;
pub mod dice;
pub mod error;
pub mod game;
pub mod hex;
pub mod host;
pub mod lines;
pub mod log;
pub mod los;
pub mod map;
pub mod moves;
pub mod numbering;
pub mod profile;
pub mod query;
pub mod ruleset;
pub mod scenario;
pub mod script;
pub mod search;
pub mod simulate;
pub mod source;
pub mod state;
pub mod table;
pub mod value;
pub mod verify;
