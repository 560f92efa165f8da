//! Hex searches that scripts call with the ruleset's data: movement costs,
//! reachable hexes, cheapest paths, zones of control and retreat hexes.
//!
//! These loops over hexes are the hot part of a game, so they live here in
//! Rust; scripts decide what to do with the answers.

use crate::geom::hex::Hex;
use crate::geom::map::Map;
use indexmap::IndexMap;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A movement profile as written in a ruleset: what it costs to enter a hex.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Cost to enter a hex by terrain tag; the highest of the hex's tags counts.
    /// A negative cost means the hex cannot be entered.
    #[serde(default)]
    pub terrain: IndexMap<String, f64>,
    /// Cost of a hex none of whose tags is listed; negative means such hexes
    /// can be entered only along a connection (a unit bound to roads).
    #[serde(default = "one")]
    pub default_terrain: f64,
    /// Cost added for crossing a hexside feature; negative means it cannot be crossed.
    #[serde(default)]
    pub hexside: IndexMap<String, f64>,
    /// Features that let a unit cross a side that another feature forbids (bridge, ford).
    #[serde(default)]
    pub crossings: Vec<String>,
    /// Movement along connected hexsides (roads, trails): replaces the
    /// terrain cost (hexside additions still apply).
    #[serde(default)]
    pub connections: Vec<Connection>,
}

fn one() -> f64 {
    1.0
}

/// Movement along a hexside feature such as a road.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Connection {
    /// The hexside feature.
    pub feature: String,
    /// Cost to enter the next hex along it.
    pub cost: f64,
    /// A different cost by terrain tag of the hex entered (a trail into forest).
    #[serde(default)]
    pub into: IndexMap<String, f64>,
}

/// Which hexes a unit's zone of control covers.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZocRules {
    /// Hexside features a zone of control does not extend across ...
    #[serde(default)]
    pub blocked_by: Vec<String>,
    /// ... unless one of these features is on the same side.
    #[serde(default)]
    pub crossings: Vec<String>,
    /// Hexes with these tags are never in a zone of control.
    #[serde(default)]
    pub exclude_terrain: Vec<String>,
}

/// A connection bound to a map: its feature bit, its cost, and its costs by terrain bit.
type CompiledConnection = (u64, f64, Vec<(u64, f64)>);

/// A profile bound to a map's bits.
#[derive(Clone, Debug)]
pub struct CompiledProfile {
    terrain: Vec<(u64, f64)>,
    default_terrain: f64,
    hexside: Vec<(u64, f64)>,
    crossings: u64,
    connections: Vec<CompiledConnection>,
    /// Every step's cost on the map it was bound to, made on the first search.
    steps: std::cell::OnceCell<StepTable>,
}

/// The cost of each step of a map, by grid index and direction (`NaN`: no step there),
/// with the profile's connections (roads) and without them (a crowded road, say): a search
/// looks a step up instead of working it out.
#[derive(Clone, Debug)]
struct StepTable {
    with_connections: Vec<[f64; 6]>,
    plain: Vec<[f64; 6]>,
}

impl CompiledProfile {
    /// Binds a profile to a map.
    #[must_use]
    pub fn new(p: &Profile, map: &Map) -> Self {
        let tags = |m: &IndexMap<String, f64>| -> Vec<(u64, f64)> {
            m.iter()
                .filter_map(|(t, c)| map.tag_bit(t).map(|b| (b, *c)))
                .collect()
        };
        CompiledProfile {
            terrain: tags(&p.terrain),
            default_terrain: p.default_terrain,
            hexside: p
                .hexside
                .iter()
                .filter_map(|(f, c)| map.feature_bit(f).map(|b| (b, *c)))
                .collect(),
            crossings: map.feature_mask(&p.crossings),
            steps: std::cell::OnceCell::new(),
            connections: p
                .connections
                .iter()
                .filter_map(|c| {
                    map.feature_bit(&c.feature)
                        .map(|b| (b, c.cost, tags(&c.into)))
                })
                .collect(),
        }
    }

    /// The step table of `map`, which must be the map this profile was bound to.
    fn steps(&self, map: &Map) -> &StepTable {
        self.steps.get_or_init(|| {
            let cells = map.neighbour_cells();
            let table = |connections: bool| -> Vec<[f64; 6]> {
                (0..cells.len())
                    .map(|i| {
                        let mut row = [f64::NAN; 6];
                        for (dir, n) in cells[i].iter().enumerate() {
                            let Some(n) = n else { continue };
                            let (on_map, tags, _) = map.step_bits(*n as usize, 0);
                            let side = map.step_bits(i, dir).2;
                            if on_map {
                                row[dir] = self
                                    .cost_by_bits(side, tags, connections)
                                    .unwrap_or(f64::NAN);
                            }
                        }
                        row
                    })
                    .collect()
            };
            StepTable {
                with_connections: table(true),
                plain: table(false),
            }
        })
    }

    /// The cost to move from `from` into the adjacent `to`, or `None` if it
    /// cannot be done.
    #[must_use]
    pub fn step_cost(&self, map: &Map, from: Hex, to: Hex) -> Option<f64> {
        self.step_cost_by(map, from, to, true)
    }

    /// [`Self::step_cost`] with or without the profile's connections (roads).
    #[must_use]
    pub fn step_cost_by(&self, map: &Map, from: Hex, to: Hex, connections: bool) -> Option<f64> {
        if !map.contains(to) || from.distance(to) != 1 {
            return None;
        }
        self.cost_by_bits(map.side_bits(from, to), map.tag_bits(to), connections)
    }

    /// The step cost across a side with feature bits `side` into a hex with terrain bits
    /// `tags` (see [`Self::step_cost_by`]).
    fn cost_by_bits(&self, side: u64, tags: u64, connections: bool) -> Option<f64> {
        let crossing = side & self.crossings != 0;
        let mut add = 0.0;
        for (bit, cost) in &self.hexside {
            if side & bit != 0 {
                if *cost < 0.0 {
                    if !crossing {
                        return None;
                    }
                } else {
                    add += cost;
                }
            }
        }
        // Along a road or trail the connection's cost replaces the terrain
        // cost; hexside additions (a ford on a trail) still apply.
        let along = self
            .connections
            .iter()
            .filter(|(bit, _, _)| connections && side & bit != 0)
            .map(|(_, cost, into)| {
                into.iter()
                    .filter(|(b, _)| tags & b != 0)
                    .map(|(_, c)| *c)
                    .fold(*cost, f64::max)
            })
            .fold(None, |best: Option<f64>, c| {
                Some(best.map_or(c, |b| b.min(c)))
            });
        if let Some(c) = along {
            return Some(c + add);
        }
        let mut cost: Option<f64> = None;
        for (bit, c) in &self.terrain {
            if tags & bit != 0 {
                if *c < 0.0 {
                    return None;
                }
                cost = Some(cost.map_or(*c, |x: f64| x.max(*c)));
            }
        }
        let base = cost.unwrap_or(self.default_terrain);
        (base >= 0.0).then_some(base + add)
    }
}

/// The constraints of one search.
#[derive(Clone, Debug, Default)]
pub struct MoveLimits {
    /// Movement points to spend.
    pub mp: f64,
    /// Hexes that may not be entered (enemy units, say); repeats are harmless.
    pub blocked: Vec<Hex>,
    /// Entering one of these hexes ends the move (enemy zones of control).
    pub stop: Vec<Hex>,
    /// A unit may always move one hex, whatever it costs (a minimum-move rule).
    pub minimum_one_hex: bool,
    /// Extra MP to enter these hexes (next to an enemy screen, say).
    pub extra: HashMap<Hex, f64>,
    /// Entering these hexes, roads and other connections do not apply (a road
    /// crowded past its stacking limit): the terrain cost is paid.
    pub plain: Vec<Hex>,
}

/// A hex waiting in the search's queue: its cost so far, the hex, and its grid index.
#[derive(Clone, Copy, PartialEq)]
struct Node(f64, Hex, usize);

impl Eq for Node {}
impl Ord for Node {
    fn cmp(&self, o: &Self) -> Ordering {
        // Min-heap on cost; ties broken on the hex so the search order is fixed.
        o.0.partial_cmp(&self.0)
            .unwrap_or(Ordering::Equal)
            .then_with(|| o.1.cmp(&self.1))
    }
}
impl PartialOrd for Node {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// What a [`reachable`] search found: the hexes reached and the least cost of
/// each, and the way back to the start from each.
#[derive(Clone, Debug)]
pub struct Reach {
    /// The hexes reached with their least cost, cheapest first (the start at 0).
    pub costs: Vec<(Hex, f64)>,
    start: Hex,
    /// Each hex reached but the start, with the hex it was reached from.
    came: Vec<(Hex, Hex)>,
}

impl Reach {
    /// The route to `goal`, both ends included, or `None` if the search did not reach it.
    #[must_use]
    pub fn route_to(&self, goal: Hex) -> Option<Vec<Hex>> {
        // A route is a few steps and a move's search reaches at most a few hundred hexes, so a
        // scan per step costs less than indexing every hex reached (a whole-map `path` scans
        // more, and is rare).
        let came = |h: Hex| {
            self.came
                .iter()
                .find(|(x, _)| *x == h)
                .map(|(_, from)| *from)
        };
        if goal != self.start && came(goal).is_none() {
            return None;
        }
        let mut out = vec![goal];
        let mut h = goal;
        while h != self.start {
            h = came(h)?;
            out.push(h);
        }
        out.reverse();
        Some(out)
    }
}

/// Per-cell working arrays of [`reachable`], kept between searches: a search
/// touches a few dozen cells of a grid of hundreds, so it stamps the cells it
/// uses with its own number instead of clearing whole arrays each time.
#[derive(Default)]
struct Scratch {
    /// The number of the current search; a cell stamped with another is unset.
    epoch: u32,
    /// When each cell's `best` and `came` were last set.
    seen: Vec<u32>,
    best: Vec<f64>,
    came: Vec<Hex>,
    /// Cells the unit may not enter, may not leave, or enters without roads.
    blocked: Vec<u32>,
    stop: Vec<u32>,
    plain: Vec<u32>,
    /// Cells with an extra cost to enter (`MoveLimits::extra`), and that cost.
    extra_at: Vec<u32>,
    extra: Vec<f64>,
    /// The search's frontier and the cells it has reached, kept for their allocations: a bot
    /// searches once per unit moved, and growing them anew each time was a twentieth of a search.
    heap: BinaryHeap<Node>,
    reached: Vec<(Hex, usize)>,
}

impl Scratch {
    /// Starts a search on a grid of `n` cells: a new number, and no cell set.
    fn begin(&mut self, n: usize) {
        if self.seen.len() < n {
            for v in self.stamps() {
                v.resize(n, 0);
            }
            self.best.resize(n, f64::INFINITY);
            self.came.resize(n, Hex::new(0, 0));
            self.extra.resize(n, 0.0);
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // After four billion searches the stamps wrap: clear them once.
            for v in self.stamps() {
                v.fill(0);
            }
            self.epoch = 1;
        }
    }

    /// Every array of stamps.
    fn stamps(&mut self) -> [&mut Vec<u32>; 5] {
        [
            &mut self.seen,
            &mut self.blocked,
            &mut self.stop,
            &mut self.plain,
            &mut self.extra_at,
        ]
    }

    fn best(&self, i: usize) -> f64 {
        if self.seen[i] == self.epoch {
            self.best[i]
        } else {
            f64::INFINITY
        }
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// The hexes a unit at `start` can reach and the least cost of each
/// (the start at cost 0), with the hex each was reached from.
#[must_use]
pub fn reachable(map: &Map, profile: &CompiledProfile, start: Hex, limits: &MoveLimits) -> Reach {
    // Hexes off the grid are never reached.
    let Some(start_i) = map.index(start) else {
        return Reach {
            costs: vec![(start, 0.0)],
            start,
            came: Vec::new(),
        };
    };
    SCRATCH.with(|s| search(map, profile, start, start_i, limits, &mut s.borrow_mut()))
}

/// [`reachable`] on working arrays indexed by the map's grid: an index is cheaper than hashing.
fn search(
    map: &Map,
    profile: &CompiledProfile,
    start: Hex,
    start_i: usize,
    limits: &MoveLimits,
    s: &mut Scratch,
) -> Reach {
    s.begin(map.grid_len());
    let epoch = s.epoch;
    for (hexes, marks) in [
        (&limits.blocked, &mut s.blocked),
        (&limits.stop, &mut s.stop),
        (&limits.plain, &mut s.plain),
    ] {
        for i in hexes.iter().filter_map(|h| map.index(*h)) {
            marks[i] = epoch;
        }
    }
    for (i, mp) in limits
        .extra
        .iter()
        .filter_map(|(h, mp)| Some((map.index(*h)?, *mp)))
    {
        s.extra_at[i] = epoch;
        s.extra[i] = mp;
    }
    s.seen[start_i] = epoch;
    s.best[start_i] = 0.0;
    let mut reached = std::mem::take(&mut s.reached);
    reached.clear();
    reached.push((start, start_i));
    let neighbours = map.neighbour_cells();
    let steps = profile.steps(map);
    debug_assert_eq!(
        steps.plain.len(),
        map.grid_len(),
        "a profile searched on another map"
    );
    let mut heap = std::mem::take(&mut s.heap);
    heap.clear();
    heap.push(Node(0.0, start, start_i));
    while let Some(Node(cost, h, hi)) = heap.pop() {
        if cost > s.best(hi) {
            continue;
        }
        if h != start && s.stop[hi] == epoch {
            continue;
        }
        for (dir, &ni) in neighbours[hi].iter().enumerate() {
            let Some(ni) = ni else { continue };
            let ni = ni as usize;
            let step = if s.plain[ni] == epoch {
                steps.plain[hi][dir]
            } else {
                steps.with_connections[hi][dir]
            };
            if step.is_nan() || s.blocked[ni] == epoch {
                continue;
            }
            let extra = if s.extra_at[ni] == epoch {
                s.extra[ni]
            } else {
                0.0
            };
            let mut total = cost + step + extra;
            if total > limits.mp + 1e-9 {
                if limits.minimum_one_hex && h == start {
                    total = limits.mp;
                } else {
                    continue;
                }
            }
            let known = s.best(ni);
            if total < known - 1e-9 {
                let n = h.neighbour(dir);
                if known.is_infinite() {
                    reached.push((n, ni));
                }
                s.seen[ni] = epoch;
                s.best[ni] = total;
                s.came[ni] = h;
                heap.push(Node(total, n, ni));
            }
        }
    }
    let mut costs: Vec<(Hex, f64)> = reached.iter().map(|&(h, i)| (h, s.best[i])).collect();
    costs.sort_by(|a, b| {
        a.1.partial_cmp(&b.1)
            .unwrap_or(Ordering::Equal)
            .then(a.0.cmp(&b.0))
    });
    let came = reached[1..].iter().map(|&(h, i)| (h, s.came[i])).collect();
    s.reached = reached;
    s.heap = heap;
    Reach { costs, start, came }
}

/// A zone-of-control rule bound to a map.
#[derive(Clone, Debug)]
pub struct CompiledZoc {
    blocked_by: u64,
    crossings: u64,
    exclude: u64,
}

impl CompiledZoc {
    /// Binds ZOC rules to a map.
    #[must_use]
    pub fn new(z: &ZocRules, map: &Map) -> Self {
        CompiledZoc {
            blocked_by: map.feature_mask(&z.blocked_by),
            crossings: map.feature_mask(&z.crossings),
            exclude: map.tag_mask(&z.exclude_terrain),
        }
    }

    /// The hexes in the zone of control of units standing in `hexes`.
    #[must_use]
    pub fn zone(&self, map: &Map, hexes: impl IntoIterator<Item = Hex>) -> Vec<Hex> {
        let mut seen = HashSet::default();
        let mut out = Vec::new();
        for h in hexes {
            for n in map.neighbours(h) {
                if self.reaches(map, h, n) && seen.insert(n) {
                    out.push(n);
                }
            }
        }
        out
    }

    /// Whether a unit standing in `from` has `to` in its zone of control:
    /// adjacent, not across a blocking side, `to` not excluded.
    #[must_use]
    pub fn reaches(&self, map: &Map, from: Hex, to: Hex) -> bool {
        if from.distance(to) != 1 || !map.contains(to) {
            return false;
        }
        let side = map.side_bits(from, to);
        let stopped = side & self.blocked_by != 0 && side & self.crossings == 0;
        !stopped && map.tag_bits(to) & self.exclude == 0
    }
}

/// The hexes at exactly `steps` from `start` that a retreat can reach, each
/// step going one hex further from `start`, never into `blocked` hexes and
/// never across a side the profile forbids. Returned in search order.
#[must_use]
pub fn retreat_hexes(
    map: &Map,
    profile: &CompiledProfile,
    start: Hex,
    steps: u32,
    blocked: &HashSet<Hex>,
) -> Vec<Hex> {
    let mut frontier = vec![start];
    for d in 1..=steps {
        // Past the map's span no hex is left: a huge `steps` must not spin on.
        if frontier.is_empty() {
            break;
        }
        let mut next = Vec::new();
        for h in &frontier {
            for n in map.neighbours(*h) {
                if n.distance(start) == d
                    && !blocked.contains(&n)
                    && profile.step_cost(map, *h, n).is_some()
                    && !next.contains(&n)
                {
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    frontier
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn map() -> Map {
        let text = r#"Map(
            name: "m",
            numbering: (column_range: (1, 5), row_range: (1, 4)),
            terrain_codes: {".": ["clear"], "f": ["forest"], "w": ["river"]},
            features: ["creek", "ford", "road", "stream"],
            terrain: [". . . . .", ". f f . .", ". . w . .", ". . . . ."],
            hexsides: [("0101/0201", ["creek"]), ("0102/0202", ["stream"])],
            paths: [("road", ["0101", "0102", "0103", "0104"])],
        )"#;
        Map::from_str(text, Path::new("m.ron")).unwrap()
    }

    fn profile(map: &Map) -> CompiledProfile {
        let p: Profile = ron::from_str(
            r#"(terrain: {"clear": 1, "forest": 3, "river": -1}, hexside: {"creek": -1, "stream": 1, "ford": 1}, crossings: ["ford"], connections: [(feature: "road", cost: 0.5)])"#,
        )
        .unwrap();
        CompiledProfile::new(&p, map)
    }

    #[test]
    fn step_costs() {
        let m = map();
        let p = profile(&m);
        let h = |id: &str| m.parse(id).unwrap();
        assert_eq!(
            p.step_cost(&m, h("0101"), h("0201")),
            None,
            "creek without a ford"
        );
        assert_eq!(
            p.step_cost(&m, h("0102"), h("0202")),
            Some(4.0),
            "stream + forest"
        );
        assert_eq!(p.step_cost(&m, h("0101"), h("0102")), Some(0.5), "road");
        assert_eq!(p.step_cost(&m, h("0203"), h("0303")), None, "river");
        assert_eq!(p.step_cost(&m, h("0101"), h("0103")), None, "not adjacent");
    }

    #[test]
    fn extra_costs_and_plain_hexes() {
        let m = map();
        let p = profile(&m);
        let h = |id: &str| m.parse(id).unwrap();
        let base = MoveLimits {
            mp: 2.0,
            ..Default::default()
        };
        let cost = |limits: &MoveLimits, id: &str| {
            reachable(&m, &p, h("0101"), limits)
                .costs
                .iter()
                .find(|(x, _)| m.id(*x) == id)
                .map(|(_, c)| *c)
        };
        assert_eq!(cost(&base, "0104"), Some(1.5), "down the road");
        let extra = MoveLimits {
            extra: [(h("0102"), 1.0)].into_iter().collect::<HashMap<_, _>>(),
            ..base.clone()
        };
        assert_eq!(
            cost(&extra, "0102"),
            Some(1.5),
            "0.5 along the road + 1 extra"
        );
        let plain = MoveLimits {
            plain: vec![h("0102")],
            ..base.clone()
        };
        assert_eq!(
            cost(&plain, "0102"),
            Some(1.0),
            "the road does not apply: clear costs 1"
        );
    }

    #[test]
    fn reachable_respects_mp_and_stops() {
        let m = map();
        let p = profile(&m);
        let h = |id: &str| m.parse(id).unwrap();
        let limits = MoveLimits {
            mp: 2.0,
            ..Default::default()
        };
        let r = reachable(&m, &p, h("0101"), &limits).costs;
        let ids: HashSet<String> = r.iter().map(|(x, _)| m.id(*x)).collect();
        assert!(ids.contains("0104"), "1.5 MP down the road");
        assert!(!ids.contains("0202"), "forest costs 3");
        let stop = vec![h("0102")];
        let r = reachable(&m, &p, h("0101"), &MoveLimits { stop, ..limits }).costs;
        assert!(
            !r.iter().any(|(x, _)| m.id(*x) == "0103"),
            "stopped on entering the zone"
        );
    }

    #[test]
    fn a_search_is_not_swayed_by_the_limits_of_the_one_before() {
        // The working arrays are kept between searches: marks left by one must not count in
        // the next, on this map or on a larger one.
        let m = map();
        let p = profile(&m);
        let h = |id: &str| m.parse(id).unwrap();
        let free = MoveLimits {
            mp: 3.0,
            ..Default::default()
        };
        let hemmed = MoveLimits {
            blocked: vec![h("0102"), h("0201")],
            stop: vec![h("0202")],
            plain: vec![h("0103")],
            extra: [(h("0104"), 1.0)].into_iter().collect::<HashMap<_, _>>(),
            ..free.clone()
        };
        let first = reachable(&m, &p, h("0101"), &free);
        let narrow = reachable(&m, &p, h("0101"), &hemmed);
        assert!(narrow.costs.len() < first.costs.len());
        let again = reachable(&m, &p, h("0101"), &free);
        assert_eq!(again.costs, first.costs);
        assert_eq!(again.route_to(h("0104")), first.route_to(h("0104")));
        let bigger = Map::load(Path::new("../tests/demo/scenarios/demo/maps/field.ron")).unwrap();
        let bp = profile(&bigger);
        let far = reachable(&bigger, &bp, bigger.parse("0808").unwrap(), &free);
        assert!(far
            .costs
            .iter()
            .all(|(x, _)| x.distance(bigger.parse("0808").unwrap()) <= 3));
        assert_eq!(reachable(&m, &p, h("0101"), &free).costs, first.costs);
    }

    #[test]
    fn paths_and_zoc_and_retreats() {
        let m = map();
        let p = profile(&m);
        let h = |id: &str| m.parse(id).unwrap();
        let unlimited = MoveLimits {
            mp: 100.0,
            ..MoveLimits::default()
        };
        let reach = reachable(&m, &p, h("0101"), &unlimited);
        assert_eq!(reach.route_to(h("0104")).unwrap().len(), 4);
        assert!(reach.costs.contains(&(h("0104"), 1.5)));
        let z = CompiledZoc::new(
            &ZocRules {
                blocked_by: vec!["creek".into()],
                crossings: vec!["ford".into()],
                exclude_terrain: vec!["river".into()],
            },
            &m,
        );
        let zone: Vec<String> = z
            .zone(&m, [h("0201")])
            .into_iter()
            .map(|x| m.id(x))
            .collect();
        assert!(
            !zone.contains(&"0101".to_string()),
            "not across the creek: {zone:?}"
        );
        assert!(zone.contains(&"0301".to_string()));
        let r = retreat_hexes(&m, &p, h("0101"), 2, &HashSet::default());
        assert!(r.iter().all(|x| x.distance(h("0101")) == 2));
        assert!(!r.is_empty());
    }
}
