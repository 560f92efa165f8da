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
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Another profile of the ruleset this one copies, changing only `stop_in` (when given) and
    /// `terrain_times` (which multiplies the copied one): mounted troops that stop in woods,
    /// night movement. The ruleset resolves it when it loads ([`Profile::derive`]).
    #[serde(default)]
    pub like: Option<String>,
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
    /// Cost added for crossing a hexside feature into a higher hex only (a slope: nothing
    /// going down or along a level).
    #[serde(default)]
    pub uphill: IndexMap<String, f64>,
    /// Features that let a unit cross a side that another feature forbids (bridge, ford).
    #[serde(default)]
    pub crossings: Vec<String>,
    /// Movement along connected hexsides (roads, trails): replaces the
    /// terrain cost (hexside additions still apply, but those the connection cancels).
    #[serde(default)]
    pub connections: Vec<Connection>,
    /// Terrain tags whose hexes end the move when entered other than along a connection
    /// (guns that must halt in thick woods unless they follow a road).
    #[serde(default)]
    pub stop_in: Vec<String>,
    /// Multiplies every terrain cost (not connections, not hexside additions): night movement
    /// that doubles the cost of the ground off the roads.
    #[serde(default = "one")]
    pub terrain_times: f64,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            like: None,
            terrain: IndexMap::new(),
            default_terrain: 1.0,
            hexside: IndexMap::new(),
            uphill: IndexMap::new(),
            crossings: Vec::new(),
            connections: Vec::new(),
            stop_in: Vec::new(),
            terrain_times: 1.0,
        }
    }
}

impl Profile {
    /// The profile a `like` profile stands for, given the profile it names: that one's costs,
    /// this one's `stop_in` when it gives any, and both `terrain_times` multiplied. Refused when
    /// this one also sets costs of its own (they would be silently ignored).
    pub fn derive(&self, from: &Profile) -> Result<Profile, String> {
        let own_costs = !self.terrain.is_empty()
            || !self.hexside.is_empty()
            || !self.uphill.is_empty()
            || !self.crossings.is_empty()
            || !self.connections.is_empty()
            || self.default_terrain != 1.0;
        if own_costs {
            return Err("a profile `like` another takes its costs from it: it may set only `stop_in` and `terrain_times`".into());
        }
        Ok(Profile {
            like: None,
            stop_in: if self.stop_in.is_empty() {
                from.stop_in.clone()
            } else {
                self.stop_in.clone()
            },
            terrain_times: from.terrain_times * self.terrain_times,
            ..from.clone()
        })
    }
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
    /// Hexside features (of `hexside` or `uphill`) whose added cost does not apply along this
    /// connection (a road up a slope).
    #[serde(default)]
    pub cancels: Vec<String>,
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

/// A connection bound to a map: its feature bit, its cost, its costs by terrain bit, and the
/// feature bits whose added costs it cancels.
type CompiledConnection = (u64, f64, Vec<(u64, f64)>, u64);

/// A profile bound to a map's bits.
#[derive(Clone, Debug)]
pub struct CompiledProfile {
    terrain: Vec<(u64, f64)>,
    default_terrain: f64,
    hexside: Vec<(u64, f64)>,
    uphill: Vec<(u64, f64)>,
    crossings: u64,
    connections: Vec<CompiledConnection>,
    stop_in: u64,
    terrain_times: f64,
    /// Every step's cost on the map it was bound to, made on the first search.
    steps: std::cell::OnceCell<StepTable>,
}

/// One step's cost and whether entering that way ends the move (`stop_in`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// The movement points it costs.
    pub cost: f64,
    /// Whether the unit must stop in the hex entered.
    pub stops: bool,
}

/// The cost of each step of a map, by grid index and direction (`NaN`: no step there),
/// with the profile's connections (roads) and without them (a crowded road, say), and which of
/// those steps end the move (a bit per direction): a search looks a step up instead of working
/// it out.
#[derive(Clone, Debug)]
struct StepTable {
    with_connections: Vec<[f64; 6]>,
    plain: Vec<[f64; 6]>,
    stops_with_connections: Vec<u8>,
    stops_plain: Vec<u8>,
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
        let features = |m: &IndexMap<String, f64>| -> Vec<(u64, f64)> {
            m.iter()
                .filter_map(|(f, c)| map.feature_bit(f).map(|b| (b, *c)))
                .collect()
        };
        CompiledProfile {
            terrain: tags(&p.terrain),
            default_terrain: p.default_terrain,
            hexside: features(&p.hexside),
            uphill: features(&p.uphill),
            crossings: map.feature_mask(&p.crossings),
            stop_in: map.tag_mask(&p.stop_in),
            terrain_times: p.terrain_times,
            steps: std::cell::OnceCell::new(),
            connections: p
                .connections
                .iter()
                .filter_map(|c| {
                    map.feature_bit(&c.feature)
                        .map(|b| (b, c.cost, tags(&c.into), map.feature_mask(&c.cancels)))
                })
                .collect(),
        }
    }

    /// The step table of `map`, which must be the map this profile was bound to.
    fn steps(&self, map: &Map) -> &StepTable {
        self.steps.get_or_init(|| {
            let cells = map.neighbour_cells();
            let table = |connections: bool| -> (Vec<[f64; 6]>, Vec<u8>) {
                (0..cells.len())
                    .map(|i| {
                        let mut row = [f64::NAN; 6];
                        let mut stops = 0u8;
                        for (dir, n) in cells[i].iter().enumerate() {
                            let Some(n) = n else { continue };
                            let (on_map, tags, _) = map.step_bits(*n as usize, 0);
                            let side = map.step_bits(i, dir).2;
                            let rise = map.cell_elevation(*n as usize) > map.cell_elevation(i);
                            if !on_map {
                                continue;
                            }
                            if let Some(step) = self.step_by_bits(side, tags, rise, connections) {
                                row[dir] = step.cost;
                                stops |= u8::from(step.stops) << dir;
                            }
                        }
                        (row, stops)
                    })
                    .unzip()
            };
            let (with_connections, stops_with_connections) = table(true);
            let (plain, stops_plain) = table(false);
            StepTable {
                with_connections,
                plain,
                stops_with_connections,
                stops_plain,
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
        self.step(map, from, to, connections).map(|s| s.cost)
    }

    /// The step from `from` into the adjacent `to`, with or without the profile's connections:
    /// its cost and whether it ends the move; `None` if it cannot be done.
    #[must_use]
    pub fn step(&self, map: &Map, from: Hex, to: Hex, connections: bool) -> Option<Step> {
        if !map.contains(to) || from.distance(to) != 1 {
            return None;
        }
        let rise = map.elevation(to) > map.elevation(from);
        self.step_by_bits(map.side_bits(from, to), map.tag_bits(to), rise, connections)
    }

    /// The step across a side with feature bits `side` into a hex with terrain bits `tags`,
    /// `rise` when that hex is higher (see [`Self::step`]).
    fn step_by_bits(&self, side: u64, tags: u64, rise: bool, connections: bool) -> Option<Step> {
        let crossing = side & self.crossings != 0;
        let uphill = self.uphill.iter().filter(|_| rise);
        let features = || {
            self.hexside
                .iter()
                .chain(uphill.clone())
                .filter(|(bit, _)| side & bit != 0)
        };
        if features().any(|(_, c)| *c < 0.0) && !crossing {
            return None;
        }
        // The side's added costs but those of features in `cancelled`.
        let added = |cancelled: u64| -> f64 {
            features()
                .filter(|(bit, c)| *c >= 0.0 && bit & cancelled == 0)
                .map(|(_, c)| c)
                .sum()
        };
        // Along a road or trail the connection's cost replaces the terrain cost; hexside
        // additions (a ford on a trail) still apply unless the connection cancels them.
        let along = self
            .connections
            .iter()
            .filter(|(bit, ..)| connections && side & bit != 0)
            .map(|(_, cost, into, cancels)| {
                let base = into
                    .iter()
                    .filter(|(b, _)| tags & b != 0)
                    .map(|(_, c)| *c)
                    .fold(*cost, f64::max);
                base + added(*cancels)
            })
            .fold(None, |best: Option<f64>, c| {
                Some(best.map_or(c, |b| b.min(c)))
            });
        if let Some(cost) = along {
            return Some(Step { cost, stops: false });
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
        (base >= 0.0).then(|| Step {
            cost: base * self.terrain_times + added(0),
            stops: tags & self.stop_in != 0,
        })
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
    /// Extra MP to step out of these hexes, whichever hex is entered (leaving a hex next to
    /// the enemy, say).
    pub leaving: HashMap<Hex, f64>,
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
    /// Each hex reached but the start, with the hex it was reached from, on routes along which
    /// the unit may go on.
    came: Vec<(Hex, Hex)>,
    /// The hexes whose least cost is on entering them a way that ends the move (the profile's
    /// `stop_in`), with the hex they were entered from.
    came_to_stop: Vec<(Hex, Hex)>,
}

impl Reach {
    /// The route to `goal`, both ends included, or `None` if the search did not reach it.
    #[must_use]
    pub fn route_to(&self, goal: Hex) -> Option<Vec<Hex>> {
        // A route is a few steps and a move's search reaches at most a few hundred hexes, so a
        // scan per step costs less than indexing every hex reached (a whole-map `path` scans
        // more, and is rare).
        let find =
            |list: &[(Hex, Hex)], h: Hex| list.iter().find(|(x, _)| *x == h).map(|(_, from)| *from);
        let came = |h: Hex| find(&self.came, h);
        let mut out = vec![goal];
        let mut h = goal;
        if goal != self.start {
            // The last step may be one that ends the move; the steps before it never are.
            h = find(&self.came_to_stop, goal).or_else(|| came(goal))?;
            out.push(h);
        }
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
    /// The same for entering a cell a way that ends the move (`Profile::stop_in`): such a cell
    /// is reached but not left, so it has a cost of its own beside `best`.
    seen_stopped: Vec<u32>,
    best_stopped: Vec<f64>,
    came_stopped: Vec<Hex>,
    /// Cells the unit may not enter, may not leave, or enters without roads.
    blocked: Vec<u32>,
    stop: Vec<u32>,
    plain: Vec<u32>,
    /// Cells with an extra cost to enter (`MoveLimits::extra`), and that cost.
    extra_at: Vec<u32>,
    extra: Vec<f64>,
    /// Cells with an extra cost to leave (`MoveLimits::leaving`), and that cost.
    leave_at: Vec<u32>,
    leave: Vec<f64>,
    /// The search's frontier and the cells it has reached, kept for their allocations: a bot
    /// searches once per unit moved, and growing them anew each time was a twentieth of a search.
    heap: BinaryHeap<Node>,
    reached: Vec<(Hex, usize)>,
    /// The target cells of [`reaches_any`], by grid index (all false between searches).
    goal: Vec<bool>,
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
            self.best_stopped.resize(n, f64::INFINITY);
            self.came_stopped.resize(n, Hex::new(0, 0));
            self.extra.resize(n, 0.0);
            self.leave.resize(n, 0.0);
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
    fn stamps(&mut self) -> [&mut Vec<u32>; 7] {
        [
            &mut self.seen,
            &mut self.seen_stopped,
            &mut self.leave_at,
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

    fn best_stopped(&self, i: usize) -> f64 {
        if self.seen_stopped[i] == self.epoch {
            self.best_stopped[i]
        } else {
            f64::INFINITY
        }
    }

    /// The least cost of a cell, either way it was entered.
    fn least(&self, i: usize) -> f64 {
        self.best(i).min(self.best_stopped(i))
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
            came_to_stop: Vec::new(),
        };
    };
    SCRATCH.with(|s| {
        let s = &mut s.borrow_mut();
        explore(map, profile, (start, start_i), limits, s, |_| false);
        found(start, s)
    })
}

/// Whether the search from `start` reaches any of `targets` (a unit tracing a line of supply to
/// a road net, say). It stops at the first target reached, where [`reachable`] would go on to
/// every hex in reach.
#[must_use]
pub fn reaches_any(
    map: &Map,
    profile: &CompiledProfile,
    start: Hex,
    limits: &MoveLimits,
    targets: &[Hex],
) -> bool {
    let Some(start_i) = map.index(start) else {
        return targets.contains(&start);
    };
    SCRATCH.with(|s| {
        let s = &mut s.borrow_mut();
        let mut goal = std::mem::take(&mut s.goal);
        goal.resize(map.grid_len(), false);
        let cells: Vec<usize> = targets.iter().filter_map(|h| map.index(*h)).collect();
        for &i in &cells {
            goal[i] = true;
        }
        let hit = explore(map, profile, (start, start_i), limits, s, |i| goal[i]);
        // Unmarked again cell by cell: cheaper than clearing the grid for a few targets.
        for &i in &cells {
            goal[i] = false;
        }
        s.goal = goal;
        hit
    })
}

/// The search of [`reachable`] on working arrays indexed by the map's grid (an index is cheaper
/// than hashing), leaving what it found in `s`. `stop_at` is asked of every cell as it is first
/// reached, the start first; the search stops when it says yes, and says whether it did.
fn explore(
    map: &Map,
    profile: &CompiledProfile,
    (start, start_i): (Hex, usize),
    limits: &MoveLimits,
    s: &mut Scratch,
    mut stop_at: impl FnMut(usize) -> bool,
) -> bool {
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
    for (i, mp) in limits
        .leaving
        .iter()
        .filter_map(|(h, mp)| Some((map.index(*h)?, *mp)))
    {
        s.leave_at[i] = epoch;
        s.leave[i] = mp;
    }
    s.seen[start_i] = epoch;
    s.best[start_i] = 0.0;
    let mut reached = std::mem::take(&mut s.reached);
    reached.clear();
    reached.push((start, start_i));
    if stop_at(start_i) {
        s.reached = reached;
        return true;
    }
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
    let mut hit = false;
    'search: while let Some(Node(cost, h, hi)) = heap.pop() {
        if cost > s.best(hi) {
            continue;
        }
        if h != start && s.stop[hi] == epoch {
            continue;
        }
        for (dir, &ni) in neighbours[hi].iter().enumerate() {
            let Some(ni) = ni else { continue };
            let ni = ni as usize;
            let (step, stops) = if s.plain[ni] == epoch {
                (steps.plain[hi][dir], steps.stops_plain[hi] >> dir & 1 == 1)
            } else {
                (
                    steps.with_connections[hi][dir],
                    steps.stops_with_connections[hi] >> dir & 1 == 1,
                )
            };
            if step.is_nan() || s.blocked[ni] == epoch {
                continue;
            }
            let mut extra = if s.extra_at[ni] == epoch {
                s.extra[ni]
            } else {
                0.0
            };
            if s.leave_at[hi] == epoch {
                extra += s.leave[hi];
            }
            let mut total = cost + step + extra;
            if total > limits.mp + 1e-9 {
                if limits.minimum_one_hex && h == start {
                    total = limits.mp;
                } else {
                    continue;
                }
            }
            let n = h.neighbour(dir);
            if s.least(ni).is_infinite() {
                reached.push((n, ni));
                if stop_at(ni) {
                    hit = true;
                    break 'search;
                }
            }
            if stops {
                // Reached, but the move ends here: it is not searched on from this entry.
                if total < s.best_stopped(ni) - 1e-9 {
                    s.seen_stopped[ni] = epoch;
                    s.best_stopped[ni] = total;
                    s.came_stopped[ni] = h;
                }
            } else if total < s.best(ni) - 1e-9 {
                s.seen[ni] = epoch;
                s.best[ni] = total;
                s.came[ni] = h;
                heap.push(Node(total, n, ni));
            }
        }
    }
    s.reached = reached;
    s.heap = heap;
    hit
}

/// What the search just made in `s` found: every hex reached with its least cost, cheapest
/// first, and the way back to `start`.
fn found(start: Hex, s: &Scratch) -> Reach {
    let reached = &s.reached;
    let mut costs: Vec<(Hex, f64)> = reached.iter().map(|&(h, i)| (h, s.least(i))).collect();
    costs.sort_by(|a, b| {
        a.1.partial_cmp(&b.1)
            .unwrap_or(Ordering::Equal)
            .then(a.0.cmp(&b.0))
    });
    let came_to_stop = reached[1..]
        .iter()
        .filter(|&&(_, i)| s.best_stopped(i) < s.best(i))
        .map(|&(h, i)| (h, s.came_stopped[i]))
        .collect();
    let came = reached[1..]
        .iter()
        .filter(|&&(_, i)| s.best(i).is_finite())
        .map(|&(h, i)| (h, s.came[i]))
        .collect();
    Reach {
        costs,
        start,
        came,
        came_to_stop,
    }
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
        let leaving = MoveLimits {
            leaving: [(h("0101"), 1.0)].into_iter().collect::<HashMap<_, _>>(),
            ..base.clone()
        };
        assert_eq!(
            cost(&leaving, "0102"),
            Some(1.5),
            "0.5 along the road + 1 to leave 0101"
        );
        assert_eq!(
            cost(&leaving, "0103"),
            Some(2.0),
            "the cost of leaving is paid once, on the first step"
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
    fn reaches_any_says_what_reachable_finds() {
        let m = map();
        let p = profile(&m);
        let h = |id: &str| m.parse(id).unwrap();
        let limits = MoveLimits {
            mp: 2.0,
            ..Default::default()
        };
        let from = h("0101");
        let within: HashSet<Hex> = reachable(&m, &p, from, &limits)
            .costs
            .iter()
            .map(|(x, _)| *x)
            .collect();
        // Each hex of the map alone, then with one out of reach beside it; the start itself
        // counts. One search's targets must not stay marked for the next.
        for x in m.hexes() {
            let alone = reaches_any(&m, &p, from, &limits, &[x]);
            assert_eq!(alone, within.contains(&x), "{}", m.id(x));
            let far = h("0202");
            assert_eq!(
                reaches_any(&m, &p, from, &limits, &[far, x]),
                within.contains(&x) || within.contains(&far),
                "{} or 0202",
                m.id(x)
            );
        }
        assert!(!reaches_any(&m, &p, from, &limits, &[]));
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

    /// Three rows of five hexes rising from level 0 to 1 across a slope between columns 2 and
    /// 3, with a lane along the first row and thick woods at 0401 and 0402.
    fn hill() -> Map {
        let text = r#"Map(
            name: "hill",
            numbering: (column_range: (1, 5), row_range: (1, 3)),
            terrain_codes: {".": ["clear"], "t": ["thick"]},
            features: ["slope", "lane"],
            terrain: [". . . t .", ". . . t .", ". . . . ."],
            elevation: ["0 0 1 1 1", "0 0 1 1 1", "0 0 1 1 1"],
            hexsides: [("0201/0301", ["slope"]), ("0202/0302", ["slope"]), ("0203/0303", ["slope"])],
            paths: [("lane", ["0201", "0301", "0401", "0501"])],
        )"#;
        Map::from_str(text, Path::new("hill.ron")).unwrap()
    }

    fn ron_profile(text: &str) -> Profile {
        ron::from_str(text).unwrap()
    }

    #[test]
    fn slopes_cost_going_up_only_and_lanes_cancel_them() {
        let m = hill();
        let h = |id: &str| m.parse(id).unwrap();
        let p = CompiledProfile::new(
            &ron_profile(
                r#"(terrain: {"thick": 3}, uphill: {"slope": 1}, connections: [(feature: "lane", cost: 1, cancels: ["slope"])])"#,
            ),
            &m,
        );
        assert_eq!(
            p.step_cost(&m, h("0202"), h("0302")),
            Some(2.0),
            "up the slope"
        );
        assert_eq!(p.step_cost(&m, h("0302"), h("0202")), Some(1.0), "down it");
        assert_eq!(
            p.step_cost(&m, h("0201"), h("0301")),
            Some(1.0),
            "up along the lane"
        );
        assert_eq!(
            p.step_cost_by(&m, h("0201"), h("0301"), false),
            Some(2.0),
            "the lane crowded: the slope counts again"
        );
        let keeps = CompiledProfile::new(
            &ron_profile(r#"(uphill: {"slope": 1}, connections: [(feature: "lane", cost: 1)])"#),
            &m,
        );
        assert_eq!(
            keeps.step_cost(&m, h("0201"), h("0301")),
            Some(2.0),
            "a lane that cancels nothing pays the slope"
        );
    }

    #[test]
    fn stop_in_terrain_ends_a_move_unless_along_a_connection() {
        let m = hill();
        let h = |id: &str| m.parse(id).unwrap();
        let p = CompiledProfile::new(
            &ron_profile(
                r#"(terrain: {"thick": 3}, stop_in: ["thick"], connections: [(feature: "lane", cost: 1)])"#,
            ),
            &m,
        );
        let limits = MoveLimits {
            mp: 10.0,
            ..Default::default()
        };
        let reach = reachable(&m, &p, h("0201"), &limits);
        let cost = |id: &str| {
            reach
                .costs
                .iter()
                .find(|(x, _)| m.id(*x) == id)
                .map(|c| c.1)
        };
        assert_eq!(cost("0401"), Some(2.0), "into the woods along the lane");
        assert_eq!(
            cost("0402"),
            Some(4.0),
            "entered off the lane: the move ends there"
        );
        assert_eq!(
            cost("0501"),
            Some(3.0),
            "on along the lane through the woods"
        );
        let route: Vec<String> = reach
            .route_to(h("0501"))
            .unwrap()
            .iter()
            .map(|x| m.id(*x))
            .collect();
        assert_eq!(route, ["0201", "0301", "0401", "0501"]);
        // Crowd the lane in 0401: entered off the road there, the woods stop the unit, so 0501
        // is reached only round by the third row.
        let crowded = MoveLimits {
            plain: vec![h("0401")],
            ..limits.clone()
        };
        let reach = reachable(&m, &p, h("0201"), &crowded);
        let route = reach.route_to(h("0401")).unwrap();
        assert_eq!(route.len(), 3, "0201, 0301, then into the woods to stop");
        assert!(
            reach
                .route_to(h("0501"))
                .unwrap()
                .iter()
                .all(|x| m.id(*x) != "0401"),
            "no route goes on from a hex it had to stop in"
        );
        let round = reach.costs.iter().find(|(x, _)| m.id(*x) == "0501");
        assert_eq!(round.map(|c| c.1), Some(5.0), "round by the third row");
        let short = reachable(&m, &p, h("0201"), &MoveLimits { mp: 4.0, ..crowded });
        assert!(
            !short.costs.iter().any(|(x, _)| m.id(*x) == "0501"),
            "not through the woods it had to stop in"
        );
    }

    #[test]
    fn a_derived_profile_copies_costs_and_multiplies_terrain() {
        let m = hill();
        let h = |id: &str| m.parse(id).unwrap();
        let foot = ron_profile(
            r#"(terrain: {"thick": 3}, uphill: {"slope": 1}, connections: [(feature: "lane", cost: 1, cancels: ["slope"])])"#,
        );
        let night = ron_profile(r#"(like: Some("foot"), terrain_times: 2)"#)
            .derive(&foot)
            .unwrap();
        let p = CompiledProfile::new(&night, &m);
        assert_eq!(
            p.step_cost(&m, h("0302"), h("0402")),
            Some(6.0),
            "thick woods doubled"
        );
        assert_eq!(
            p.step_cost(&m, h("0202"), h("0302")),
            Some(3.0),
            "clear doubled, slope not"
        );
        assert_eq!(
            p.step_cost(&m, h("0301"), h("0401")),
            Some(1.0),
            "the lane unchanged"
        );
        let bad = ron_profile(r#"(like: Some("foot"), terrain: {"thick": 1})"#).derive(&foot);
        assert!(bad.unwrap_err().contains("may set only"));
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
