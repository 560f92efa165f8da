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
//! The layers, from the ground up (each depends only on those before it):
//! [`error`], [`value`], [`source`] and [`alloc`]; [`geom`] (hexes, ids, maps, line of
//! sight, searches); [`table`]; [`style`] (how a game looks); [`ruleset`] (the manifest and its data); [`world`] (one
//! game's state, dice, log, agents and the decision protocol); [`view`] (the map and units
//! drawn for people); [`host`] (the Rhai engine,
//! the compiled ruleset and the script API); [`scenario`]; [`game`]; and [`tools`] (check,
//! verify, simulate).

// `deny` rather than `forbid`: the allocator (`alloc`) is the one module allowed `unsafe`.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod alloc;
pub mod error;
pub mod game;
pub mod geom;
pub mod host;
pub mod ruleset;
pub mod scenario;
pub mod source;
pub mod style;
pub mod table;
pub mod tools;
pub mod value;
pub mod view;
pub mod world;
