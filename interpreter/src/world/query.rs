//! Unit queries: the units (or their hexes) that match a filter, found in one
//! pass in Rust instead of a script loop of several calls per unit.
//!
//! Scripts call `game.units_where(filter)` and `game.hexes_where(filter)`
//! with a map; every key is optional and all must hold:
//!
//! | key | the unit ... |
//! |---|---|
//! | `side` / `not_side` | belongs / does not belong to this side |
//! | `at` | stands in this hex |
//! | `near` + `within` | stands within `within` hexes (default 1) of this hex |
//! | `in` | stands in one of these hexes |
//! | `zone_over` | stands next to this hex and has it in its zone of control (the ruleset's `zoc` rules; leave out units without a zone by kind) |
//! | `on_map` | is (true) or is not (false) on the map |
//! | `kind` / `kind_not` | has one / none of these kinds (text or list) |
//! | `has` / `lacks` | carries all / none of these markers |
//! | `props` | has these property values |
//! | `face` | has this face up |
//! | `id` / `id_not` | is one / none of these units (an id or a list of ids; an empty `id` list matches no unit) |

use crate::geom::hex::Hex;
use crate::value::Value;
use crate::world::state::Unit;
use indexmap::IndexMap;
use rhai::ImmutableString;

/// A filter on units, read from a script's map. Its texts are the script's own (shared, not
/// copied: a query is made thousands of times a game).
#[derive(Clone, Debug, Default)]
pub struct UnitFilter {
    /// The unit's side.
    pub side: Option<ImmutableString>,
    /// A side the unit is not on.
    pub not_side: Option<ImmutableString>,
    /// The hex it stands in.
    pub at: Option<Hex>,
    /// A hex it stands near, and how near.
    pub near: Option<(Hex, u32)>,
    /// Hexes it must stand in one of (`in`, and `zone_over` worked out to the hexes whose
    /// zone reaches the hex).
    pub in_any: Option<Vec<Hex>>,
    /// Whether it is on the map.
    pub on_map: Option<bool>,
    /// Kinds it may have (empty: any).
    pub kind: Vec<ImmutableString>,
    /// Kinds it may not have.
    pub kind_not: Vec<ImmutableString>,
    /// Markers it must carry.
    pub has: Vec<ImmutableString>,
    /// Markers it must not carry.
    pub lacks: Vec<ImmutableString>,
    /// Property values it must have.
    pub props: IndexMap<String, Value>,
    /// The face it must have up.
    pub face: Option<ImmutableString>,
    /// Units it must be one of (`None`: any; an empty list: none).
    pub id: Option<Vec<ImmutableString>>,
    /// Units it may not be.
    pub id_not: Vec<ImmutableString>,
}

impl UnitFilter {
    /// Whether a unit passes every test.
    #[must_use]
    #[inline(always)]
    pub fn accepts(&self, u: &Unit) -> bool {
        // Where first, inline at every query: most queries name a hex, and most units stand
        // elsewhere, so the call for the other tests is made for a few units only.
        if self.at.is_some() && u.location != self.at {
            return false;
        }
        if let Some(hexes) = &self.in_any {
            if u.location.is_none_or(|l| !hexes.contains(&l)) {
                return false;
            }
        }
        self.accepts_where_it_stands(u)
    }

    /// The tests after the hexes (`accepts` has checked `at` and `in`).
    fn accepts_where_it_stands(&self, u: &Unit) -> bool {
        if self.on_map.is_some_and(|m| m != u.location.is_some()) {
            return false;
        }
        if self.side.as_ref().is_some_and(|s| s.as_str() != u.side)
            || self.not_side.as_ref().is_some_and(|s| s.as_str() == u.side)
        {
            return false;
        }
        if let Some((h, r)) = self.near {
            if u.location.is_none_or(|l| l.distance(h) > r) {
                return false;
            }
        }
        let is_kind = |k: &ImmutableString| k.as_str() == u.kind;
        if !self.kind.is_empty() && !self.kind.iter().any(is_kind)
            || self.kind_not.iter().any(is_kind)
        {
            return false;
        }
        if !self.has.iter().all(|m| u.markers.contains(m.as_str()))
            || self.lacks.iter().any(|m| u.markers.contains(m.as_str()))
        {
            return false;
        }
        if self.face.as_ref().is_some_and(|f| f.as_str() != u.face) {
            return false;
        }
        let is_unit = |id: &ImmutableString| id.as_str() == u.id;
        if self.id.as_ref().is_some_and(|ids| !ids.iter().any(is_unit))
            || self.id_not.iter().any(is_unit)
        {
            return false;
        }
        self.props.iter().all(|(k, v)| u.props.get(k) == Some(v))
    }
}

/// A number read off a unit: `strength`, `rating`, or a numeric property
/// (0 if the unit lacks it or it is not a number).
#[must_use]
pub fn unit_number(u: &Unit, field: &str) -> f64 {
    match field {
        "strength" => u.strength as f64,
        "rating" => u.rating as f64,
        prop => match u.props.get(prop) {
            Some(Value::Int(i)) => *i as f64,
            Some(Value::Float(x)) => *x,
            _ => 0.0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(id: &str, side: &str, kind: &str, at: Option<Hex>, markers: &[&str]) -> Unit {
        Unit {
            id: id.into(),
            name: id.into(),
            side: side.into(),
            kind: kind.into(),
            strength: 1,
            rating: 1,
            location: at,
            facing: None,
            face: "front".into(),
            markers: markers.iter().map(|m| (*m).to_string()).collect(),
            props: [("brigade".to_string(), Value::Str("a".into()))]
                .into_iter()
                .collect(),
        }
    }

    #[test]
    fn every_test_must_hold() {
        let here = Hex::new(0, 0);
        let u = unit("u", "red", "foot", Some(here), &["tired"]);
        let mut f = UnitFilter {
            side: Some("red".into()),
            on_map: Some(true),
            ..UnitFilter::default()
        };
        assert!(f.accepts(&u));
        f.lacks = vec!["tired".into()];
        assert!(!f.accepts(&u));
        f.lacks.clear();
        f.kind_not = vec!["foot".into()];
        assert!(!f.accepts(&u));
        f.kind_not.clear();
        f.near = Some((Hex::new(2, 0), 1));
        assert!(!f.accepts(&u));
        f.near = Some((Hex::new(2, 0), 2));
        assert!(f.accepts(&u));
        f.id_not = vec!["u".into()];
        assert!(!f.accepts(&u));
        f.id_not = vec!["v".into()];
        assert!(f.accepts(&u));
        f.id = Some(vec!["v".into(), "u".into()]);
        assert!(f.accepts(&u));
        f.id = Some(vec![]);
        assert!(!f.accepts(&u), "an empty `id` list matches no unit");
        f.id = None;
        f.props.insert("brigade".into(), Value::Str("b".into()));
        assert!(!f.accepts(&u));
        assert!(!UnitFilter {
            on_map: Some(true),
            ..UnitFilter::default()
        }
        .accepts(&unit("v", "red", "foot", None, &[])));
    }
}
