//! Game state: units with core fields and ruleset-defined properties,
//! markers on units and hexes, decks and cups, tracks, per-side data and
//! global data. Every collection is ordered, so that iterating the state, and
//! therefore a whole game, is deterministic.

use crate::geom::hex::Hex;
use crate::value::Value;
use indexmap::{IndexMap, IndexSet};
use serde::{Deserialize, Serialize};

/// An ordered map with a fast hash, for keys looked up many times a game that nothing untrusted
/// chooses (names from the ruleset and scenario, hexes).
pub type FxIndexMap<K, V> = IndexMap<K, V, rustc_hash::FxBuildHasher>;

/// An ordered set with a fast hash, for hexes and the like (see [`FxIndexMap`]).
pub type FxIndexSet<T> = IndexSet<T, rustc_hash::FxBuildHasher>;

/// An ordered map keyed by names, with a fast hash: unit ids, marker and property names are
/// looked up on nearly every script call (the default hasher cost ~5 % of a whole game).
pub type NameMap<V> = FxIndexMap<String, V>;

/// An ordered set of names, with the fast hash of [`NameMap`].
pub type NameSet = FxIndexSet<String>;

/// A unit (counter) on or off the map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Unique id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The side that owns it.
    pub side: String,
    /// Its kind (the ruleset's words: infantry, gun, leader ...).
    pub kind: String,
    /// Current strength.
    pub strength: i64,
    /// A rating (morale, command, quality ...), as the ruleset uses it.
    pub rating: i64,
    /// Where it stands; `None` when off the map.
    pub location: Option<Hex>,
    /// Facing direction index, for rulesets that use facing.
    pub facing: Option<u8>,
    /// Which face of the counter is up (`front` unless the ruleset flips it).
    pub face: String,
    /// Markers on the unit.
    pub markers: NameSet,
    /// Ruleset-defined properties.
    pub props: NameMap<Value>,
}

/// The whole state of a game.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The current game turn.
    pub turn: i64,
    /// The last game turn.
    pub last_turn: i64,
    /// The current phase name (for the log and for saving).
    pub phase: String,
    /// Units by id, in set-up order.
    pub units: NameMap<Unit>,
    /// Markers on hexes.
    pub hex_markers: IndexMap<Hex, IndexSet<String>>,
    /// Decks and cups by name: ordered lists of item names, top first.
    pub decks: IndexMap<String, Vec<String>>,
    /// Tracks by name (turn, victory points, broken boxes ...).
    pub tracks: NameMap<i64>,
    /// Data per side.
    pub sides: IndexMap<String, IndexMap<String, Value>>,
    /// Global data: scenario options and whatever the ruleset keeps.
    pub globals: NameMap<Value>,
    /// Whether the game has ended.
    pub ended: bool,
}

impl State {
    /// The unit with this id.
    #[must_use]
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.units.get(id)
    }

    /// The unit with this id, to change.
    pub fn unit_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.units.get_mut(id)
    }

    /// The units standing in a hex, in set-up order.
    pub fn units_at(&self, h: Hex) -> impl Iterator<Item = &Unit> {
        self.units.values().filter(move |u| u.location == Some(h))
    }

    /// Whether any unit stands in the hex.
    #[must_use]
    pub fn occupied(&self, h: Hex) -> bool {
        self.units.values().any(|u| u.location == Some(h))
    }
}
