//! A unit's move as one decision: the destinations a movement search
//! reaches, filtered by the ruleset's data, offered to the side's agent
//! without building a script value per hex, and ranked in Rust for a bot
//! that describes what it wants (goals, a distance to keep, adjustments).
//!
//! Scripts call it as `game.choose_move(...)` (see `host/api/decisions.rs`); this module
//! holds the parts that need no script engine.

use crate::geom::hex::Hex;
use crate::geom::map::{HexGroup, Map};
use crate::world::state::State;
use indexmap::IndexMap;
use rustc_hash::FxHashSet as HashSet;
use std::rc::Rc;

/// One destination offered: staying put, or a hex with the MP it costs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Destination {
    /// The hex.
    pub hex: Hex,
    /// MP spent to get there (0 for staying).
    pub cost: f64,
    /// Whether this is the unit staying where it is.
    pub stay: bool,
}

/// Which reached hexes may be offered.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Offer staying in the start hex first.
    pub stay: bool,
    /// Hexes not to offer (a full stack, say).
    pub exclude: HashSet<Hex>,
    /// A hex with any of these terrain tags is not offered (a tag mask).
    pub exclude_terrain: u64,
}

/// The destinations to offer, in a fixed order: staying first, then the
/// hexes as the search returned them (cheapest first, ties by hex).
#[must_use]
pub fn destinations(
    map: &Map,
    start: Hex,
    reach: &[(Hex, f64)],
    filter: &Filter,
) -> Vec<Destination> {
    let mut out = Vec::with_capacity(reach.len() + 1);
    if filter.stay {
        out.push(Destination {
            hex: start,
            cost: 0.0,
            stay: true,
        });
    }
    out.extend(
        reach
            .iter()
            .filter(|(h, _)| {
                *h != start
                    && !filter.exclude.contains(h)
                    && map.tag_bits(*h) & filter.exclude_terrain == 0
            })
            .map(|&(hex, cost)| Destination {
                hex,
                cost,
                stay: false,
            }),
    );
    out
}

/// A bot's wish, as data: closeness to goals (or a distance to keep from
/// them), plus or minus points for given hexes or terrain. Higher is better.
#[derive(Clone, Debug, Default)]
pub struct Rank {
    /// The hexes to close on (the nearest counts). Shared, so a group the script
    /// reuses move after move keeps the distances it has measured.
    pub goals: Rc<HexGroup>,
    /// The distance from the nearest goal to keep (0: as close as possible).
    pub keep: i64,
    /// Points per hex of distance from `keep`.
    pub weight: i64,
    /// Points added for standing in certain hexes.
    pub hexes: Vec<(Rc<HexGroup>, i64)>,
    /// Points added for certain terrain (a tag mask).
    pub terrain: Vec<(u64, i64)>,
    /// Points added for staying put.
    pub stay: i64,
}

impl Rank {
    /// The score of one destination.
    #[must_use]
    pub fn score(&self, map: &Map, d: &Destination) -> i64 {
        // Saturating: the weights and points are a script's numbers, and may be the largest
        // there are; a score at the end of the range still orders the options.
        let mut score: i64 = 0;
        if let Some(near) = self.goals.nearest(map, d.hex) {
            let off = i64::from(near).saturating_sub(self.keep).saturating_abs();
            score = score.saturating_sub(self.weight.saturating_mul(off));
        }
        for (group, points) in &self.hexes {
            if group.contains(d.hex) {
                score = score.saturating_add(*points);
            }
        }
        let tags = map.tag_bits(d.hex);
        for (mask, points) in &self.terrain {
            if tags & mask != 0 {
                score = score.saturating_add(*points);
            }
        }
        if d.stay {
            score = score.saturating_add(self.stay);
        }
        score
    }

    /// The index of the best option: destinations first, then the extra
    /// options with their own scores (`None`: never picked by rank). The
    /// first of equal scores wins, so the order of the options breaks ties.
    #[must_use]
    pub fn best(&self, map: &Map, dests: &[Destination], extras: &[Option<i64>]) -> usize {
        self.order(map, dests, extras).first().copied().unwrap_or(0)
    }

    /// The options that can be picked by rank, best first (see [`Rank::best`]): the first is
    /// the one [`Rank::best`] picks, and equal scores keep the options' order.
    #[must_use]
    pub fn order(&self, map: &Map, dests: &[Destination], extras: &[Option<i64>]) -> Vec<usize> {
        let scores: Vec<Option<i64>> = dests
            .iter()
            .map(|d| Some(self.score(map, d)))
            .chain(extras.iter().copied())
            .collect();
        let mut order: Vec<usize> = (0..scores.len()).filter(|&i| scores[i].is_some()).collect();
        // A stable sort: the first of equal scores stays first.
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        order
    }
}

/// The label a person sees for a destination whose hex has the id `id`.
#[must_use]
pub fn label(id: &str, prefix: &str, d: &Destination) -> String {
    if d.stay {
        format!("stay in {id}")
    } else {
        format!("{prefix} {id} ({} MP)", mp_text(d.cost))
    }
}

/// Where the units of the sides other than the one moving stand, to tell a person which
/// destinations end next to them.
#[derive(Clone, Debug, Default)]
pub struct Neighbours {
    /// Each hex holding units of another side, with those sides in set-up order.
    others: IndexMap<Hex, Vec<String>>,
}

impl Neighbours {
    /// The units on the map of every side but `side`.
    #[must_use]
    pub fn of(state: &State, side: &str) -> Neighbours {
        let mut others: IndexMap<Hex, Vec<String>> = IndexMap::new();
        for u in state.units.values().filter(|u| u.side != side) {
            if let Some(h) = u.location {
                let sides = others.entry(h).or_default();
                if !sides.contains(&u.side) {
                    sides.push(u.side.clone());
                }
            }
        }
        Neighbours { others }
    }

    /// The hexes next to `h` holding units of another side, with those sides, in direction order.
    #[must_use]
    pub fn next_to(&self, h: Hex) -> Vec<(Hex, &[String])> {
        h.neighbours()
            .into_iter()
            .filter_map(|n| self.others.get(&n).map(|s| (n, s.as_slice())))
            .collect()
    }
}

/// What a destination means, for a person: how many hexes the way there steps through (`steps`),
/// and the other sides' units it ends next to: `2 hexes, next to blue in 0304`.
#[must_use]
pub fn detail(map: &Map, d: &Destination, steps: usize, near: &Neighbours) -> String {
    let mut parts = Vec::new();
    if !d.stay {
        parts.push(match steps {
            1 => "1 hex".to_string(),
            k => format!("{k} hexes"),
        });
    }
    let next = near.next_to(d.hex);
    if !next.is_empty() {
        let mut sides: Vec<&str> = Vec::new();
        for (_, s) in &next {
            for x in *s {
                if !sides.contains(&x.as_str()) {
                    sides.push(x);
                }
            }
        }
        let hexes: Vec<String> = next.iter().map(|(h, _)| map.id(*h)).collect();
        parts.push(format!(
            "next to {} in {}",
            sides.join(" and "),
            hexes.join(", ")
        ));
    }
    parts.join(", ")
}

/// MP as scripts print them: `3.0`, `1.5`.
fn mp_text(mp: f64) -> String {
    if mp.fract() == 0.0 {
        format!("{mp:.1}")
    } else {
        format!("{mp}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::map::Map;
    use std::path::Path;

    fn map() -> Map {
        Map::load(Path::new("../tests/demo/scenarios/demo/maps/field.ron")).unwrap()
    }

    #[test]
    fn destinations_keep_their_order_and_filters() {
        let m = map();
        let h = |id: &str| m.parse(id).unwrap();
        let reach = vec![
            (h("0101"), 0.0),
            (h("0102"), 1.0),
            (h("0201"), 1.0),
            (h("0103"), 2.0),
        ];
        let filter = Filter {
            stay: true,
            exclude: [h("0201")].into_iter().collect::<HashSet<_>>(),
            exclude_terrain: 0,
        };
        let d = destinations(&m, h("0101"), &reach, &filter);
        let ids: Vec<String> = d.iter().map(|x| m.id(x.hex)).collect();
        assert_eq!(ids, ["0101", "0102", "0103"]);
        assert!(d[0].stay && !d[1].stay);
        assert_eq!(label("0102", "move to", &d[1]), "move to 0102 (1.0 MP)");
    }

    #[test]
    fn rank_closes_on_goals_keeps_distance_and_adds_points() {
        let m = map();
        let h = |id: &str| m.parse(id).unwrap();
        let dests: Vec<Destination> = ["0101", "0103", "0105"]
            .iter()
            .map(|x| Destination {
                hex: h(x),
                cost: 1.0,
                stay: false,
            })
            .collect();
        let mut rank = Rank {
            goals: Rc::new(HexGroup::new(vec![h("0106")])),
            weight: 10,
            ..Rank::default()
        };
        assert_eq!(rank.best(&m, &dests, &[]), 2, "closest to the goal");
        rank.keep = 3;
        assert_eq!(rank.best(&m, &dests, &[]), 1, "three hexes off");
        rank.hexes
            .push((Rc::new(HexGroup::new(vec![h("0101")])), 100));
        assert_eq!(rank.best(&m, &dests, &[]), 0, "the bonus hex");
        assert_eq!(
            rank.best(&m, &dests, &[Some(1000), None]),
            3,
            "an extra option scores its own"
        );
    }
}
