//! A ruleset's rules bound to a map: its lines of sight, zones of control and movement profiles
//! (each with the table of every step's cost), and the map's hex ids as script strings. They
//! depend on the ruleset and the map only, so they are made once and shared by every game
//! played on both: a search agent's rollouts each start a game, and making them anew for each
//! cost as much as a good part of a short rollout.

use crate::geom::hex::Hex;
use crate::geom::los::LosEvaluator;
use crate::geom::map::Map;
use crate::geom::search::{CompiledProfile, CompiledZoc};
use crate::ruleset::Ruleset;
use crate::world::state::FxIndexMap;
use rustc_hash::FxHashMap as HashMap;
use std::cell::OnceCell;
use std::rc::Rc;

/// The rules of one ruleset bound to one map (see the module's text).
pub struct MapRules {
    /// The map.
    map: Rc<Map>,
    /// LOS rules bound to the map.
    los: LosEvaluator,
    /// Movement profiles bound to the map.
    profiles: FxIndexMap<String, CompiledProfile>,
    /// ZOC rules bound to the map.
    zoc: CompiledZoc,
    /// Hex ids as script strings, made on first use (returning a hex to a script is then a
    /// reference count, not a formatted string).
    hex_ids: OnceCell<Rc<HexIds>>,
}

impl MapRules {
    /// `ruleset`'s rules bound to `map`.
    #[must_use]
    pub fn new(ruleset: &Ruleset, map: Rc<Map>) -> Rc<MapRules> {
        Rc::new(MapRules {
            los: LosEvaluator::new(&ruleset.los, &map),
            zoc: CompiledZoc::new(&ruleset.zoc, &map),
            profiles: ruleset
                .movement
                .iter()
                .map(|(k, p)| (k.clone(), CompiledProfile::new(p, &map)))
                .collect(),
            map,
            hex_ids: OnceCell::new(),
        })
    }

    /// The map.
    #[must_use]
    pub fn map(&self) -> &Rc<Map> {
        &self.map
    }

    /// The LOS rules.
    #[must_use]
    pub fn los(&self) -> &LosEvaluator {
        &self.los
    }

    /// The zone-of-control rules.
    #[must_use]
    pub fn zoc(&self) -> &CompiledZoc {
        &self.zoc
    }

    /// The movement profile `name`, if the ruleset has one.
    #[must_use]
    pub fn profile(&self, name: &str) -> Option<&CompiledProfile> {
        self.profiles.get(name)
    }

    /// The map's hex ids as script strings, made on first use.
    pub fn hex_ids(&self) -> &Rc<HexIds> {
        self.hex_ids.get_or_init(|| {
            let map = &self.map;
            let mut ids = vec![rhai::ImmutableString::new(); map.grid_len()];
            let mut by_text = HashMap::default();
            let mut by_id = HashMap::default();
            for x in map.hexes() {
                if let Some(i) = map.index(x) {
                    ids[i] = map.id(x).into();
                    by_text.insert((ids[i].as_ptr() as usize, ids[i].len()), x);
                    by_id.insert(ids[i].clone(), x);
                }
            }
            Rc::new(HexIds {
                ids,
                by_text,
                by_id,
            })
        })
    }
}

/// The printed ids of a map's hexes as script strings, made once: handing a hex to a script is
/// then a reference count, not a formatted string, and reading one back finds it by the address
/// of its text (held here, so no other string can take it).
pub struct HexIds {
    /// By grid index (see [`crate::geom::map::Map::index`]); empty off the map.
    ids: Vec<rhai::ImmutableString>,
    /// (address, length) of each id's text -> its hex.
    by_text: HashMap<(usize, usize), Hex>,
    /// Each id -> its hex, for ids a script made anew (map keys, say): found without parsing.
    by_id: HashMap<rhai::ImmutableString, Hex>,
}

impl HexIds {
    /// The printed id of `h` on `map` (the map these ids were made for).
    pub fn id(&self, map: &Map, h: Hex) -> rhai::ImmutableString {
        match map.index(h).and_then(|i| self.ids.get(i)) {
            Some(id) if !id.is_empty() => id.clone(),
            _ => map.id(h).into(),
        }
    }

    /// The hex of an id this table handed out, found by where its text lives; else of an id
    /// made anew with the same text.
    pub fn find(&self, id: &str) -> Option<Hex> {
        self.by_text
            .get(&(id.as_ptr() as usize, id.len()))
            .or_else(|| self.by_id.get(id))
            .copied()
    }
}
