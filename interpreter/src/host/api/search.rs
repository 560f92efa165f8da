//! Searches over the map: movement costs, reachable hexes and routes, paths, zones of control,
//! retreats, hex sets and the sets of hexes a rule asks for at once; the search behind
//! `choose_move`.

use crate::geom::hex::Hex;
use crate::geom::map::HexGroup;
use crate::geom::search::{self, MoveLimits};
use crate::host::args::{check_keys, hex_list, number_arg, shared_text, HexSet};
use crate::world::state::FxIndexSet;
use crate::world::{fail, GameHandle, Rr, World};
use rhai::{Array, Dynamic, Map as RMap, Module, FLOAT, INT};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

/// The heading of this package in the reference.
pub const TITLE: &str = "Searches and hex sets";

/// What the package is about, for the reference.
pub const ABOUT: &str = "The loops over hexes live in the core, parameterized by the ruleset's data: movement profiles (`movement` in `ruleset.ron`), zones of control (`zoc`). A hex set (`game.hexset`) is a list of hexes held in Rust: passed between script functions without copying and accepted wherever a call takes a list of hexes.";

/// The package: every function of this topic, documented.
#[must_use]
pub fn package() -> Module {
    let mut module = Module::new();
    let m = &mut module;
    // Searches.
    reg!(
        m,
        "move_cost",
        &["game", "from", "to", "profile"],
        &[
            "The movement points to step from `from` into the adjacent `to` under movement profile `profile`.",
            "Returns the cost, `()` when the step is impossible; an unknown profile or hex is an error.",
        ],
        |g: &mut GameHandle, a: &str, b: &str, profile: &str| -> Rr<Dynamic> {
            let w = g.0.borrow();
            let p = w.profile(profile)?;
            Ok(p.step_cost(w.map(), w.hex(a)?, w.hex(b)?)
                .map_or(Dynamic::UNIT, Dynamic::from_float))
        },
    );
    reg!(
        m,
        "move_step",
        &["game", "from", "to", "profile", "roads"],
        &[
            "The step from `from` into the adjacent `to` under movement profile `profile`, along its connections (roads) when `roads` is true, else as if they were not there (a crowded road).",
            "Returns `#{ cost, stops }` (`stops`: the profile's `stop_in` ends the move there), `()` when the step is impossible; an unknown profile or hex is an error.",
        ],
        |g: &mut GameHandle, a: &str, b: &str, profile: &str, roads: bool| -> Rr<Dynamic> {
            let w = g.0.borrow();
            let p = w.profile(profile)?;
            Ok(p.step(w.map(), w.hex(a)?, w.hex(b)?, roads)
                .map_or(Dynamic::UNIT, |s| {
                    let mut out = RMap::new();
                    out.insert("cost".into(), Dynamic::from_float(s.cost));
                    out.insert("stops".into(), Dynamic::from_bool(s.stops));
                    out.into()
                }))
        },
    );
    reg!(
        m,
        "reachable",
        &["game", "from", "search"],
        &[
            "The hexes a unit in `from` reaches, and the least cost of each, by the movement search `search` asks for:",
            "`#{ profile, mp, blocked, stop, minimum_one_hex, extra, plain }`: the movement profile's name and the movement points (both needed);",
            "`blocked` and `stop` (lists of hexes; entering a `stop` hex ends the move), `minimum_one_hex` (bool), `extra` (a map of hex id to added MP),",
            "`plain` (hexes where roads do not apply), `leaving` (a map of hex id to MP added for stepping out of it), each optional.",
            "Returns a map of hex id to least MP, `from` included at 0; an unknown key, profile or hex is an error.",
        ],
        |g: &mut GameHandle, hex: &str, opts: RMap| -> Rr<RMap> {
            let w = g.0.borrow();
            let (profile, limits) = search_of(&w, &opts)?;
            let costs = search::reachable(w.map(), profile, w.hex(hex)?, &limits).costs;
            Ok(costs
                .into_iter()
                .map(|(h, c)| (w.hex_id(h).into(), Dynamic::from_float(c)))
                .collect())
        },
    );
    reg!(
        m,
        "reached",
        &["game", "from", "targets", "search"],
        &[
            "Which of `targets` (a list of hexes) the movement search `search` (as for `reachable`) from `from` reaches (a supply trace to a road net, say), without handing every reached hex to the script.",
            "Returns an array of hex ids in the order of `targets`.",
        ],
        reached,
    );
    reg!(
        m,
        "reaches_any",
        &["game", "from", "targets", "search"],
        &[
            "Whether the movement search `search` (as for `reachable`) from `from` reaches any of `targets` (a list of hexes): a unit tracing a line of supply to a road net, say.",
            "It stops at the first target reached, so it costs less than `reached` where one is near.",
            "Returns `true` or `false`.",
        ],
        |g: &mut GameHandle, hex: &str, targets: Dynamic, opts: RMap| -> Rr<bool> {
            let w = g.0.borrow();
            let (profile, limits) = search_of(&w, &opts)?;
            let targets = hex_list(&w, &targets, "`targets`")?;
            Ok(search::reaches_any(w.map(), profile, w.hex(hex)?, &limits, &targets))
        },
    );
    reg!(
        m,
        "route",
        &["game", "from", "to", "search"],
        &[
            "The route the movement search `search` (as for `reachable`) from `from` takes to `to`.",
            "Returns an array of hex ids, both ends included, `()` when `to` cannot be reached.",
        ],
        |g: &mut GameHandle, hex: &str, to: &str, opts: RMap| -> Rr<Dynamic> {
            let w = g.0.borrow();
            let (profile, limits) = search_of(&w, &opts)?;
            let (start, goal) = (w.hex(hex)?, w.hex(to)?);
            let reach = search::reachable(w.map(), profile, start, &limits);
            Ok(reach
                .route_to(goal)
                .map_or(Dynamic::UNIT, |r| Dynamic::from_array(w.ids(r))))
        },
    );
    reg!(
        m,
        "zoc_reaches",
        &["game", "from", "to"],
        &[
            "Whether a unit in `from` has the adjacent `to` in its zone of control, by the ruleset's `zoc` rules.",
            "Returns `true` or `false`.",
        ],
        |g: &mut GameHandle, from: &str, to: &str| -> Rr<bool> {
            let w = g.0.borrow();
            Ok(w.zoc().reaches(w.map(), w.hex(from)?, w.hex(to)?))
        },
    );
    reg!(
        m,
        "hexes_within_any",
        &["game", "hexes", "radius"],
        &[
            "Every map hex within `radius` of any of `hexes` (a list of hexes; themselves included), each once: the hexes next to the enemy, a zone around the guns.",
            "Returns an array of hex ids in the order found.",
        ],
        hexes_within_any,
    );
    reg!(
        m,
        "hexset",
        &["game", "hexes"],
        &[
            "A hex set held in Rust, made from a list of hexes: passed between script functions without copying, and accepted wherever a call takes a list of hexes.",
            "Returns a `HexSet`.",
        ],
        |g: &mut GameHandle, hexes: Dynamic| -> Rr<HexSet> {
            let w = g.0.borrow();
            let list = hex_list(&w, &hexes, "`hexset`")?;
            Ok(HexSet {
                hexes: Rc::new(HexGroup::new(list)),
                map: w.map().clone(),
            })
        },
    );
    reg!(
        m,
        "contains",
        &["set", "hex",],
        &[
            "Whether the hex set holds `hex` (`set.contains(hex)`).",
            "Returns `true` or `false` (`false` for an id not on the map)."
        ],
        |s: &mut HexSet, hex: &str| -> bool { s.map.parse(hex).is_ok_and(|h| s.hexes.contains(h)) },
    );
    reg!(
        m,
        "len",
        &["set"],
        &["How many hexes the hex set holds.", "Returns the count.",],
        |s: &mut HexSet| s.hexes.list().len() as INT,
    );
    reg!(
        m,
        "is_empty",
        &["set"],
        &[
            "Whether the hex set holds no hex.",
            "Returns `true` or `false`."
        ],
        |s: &mut HexSet| s.hexes.list().is_empty(),
    );
    reg!(
        m,
        "to_array",
        &["set"],
        &[
            "The hexes of the hex set.",
            "Returns an array of hex ids in the set's order."
        ],
        |s: &mut HexSet| -> Array { s.hexes.list().iter().map(|h| s.map.id(*h).into()).collect() },
    );
    reg!(
        m,
        "hexes_in",
        &["game", "list", "any_of", "none_of"],
        &[
            "The hexes of `list` that stand in some list of `any_of` and in no list of `none_of` (each a list of hexes): one call where a script would loop with `contains`.",
            "Returns an array of hex ids in the order of `list`.",
        ],
        hexes_in,
    );
    reg!(
        m,
        "entries_without",
        &["game", "map", "hexes"],
        &[
            "The entries of `map`, a map keyed by hex ids, whose hex is none of `hexes` (a list of hexes): where a move may end of the hexes a search reached, say, in one call where a script would loop with `contains`.",
            "Returns a map of the entries kept (a key that is not a hex id is kept).",
        ],
        entries_without,
    );
    reg!(
        m,
        "zoc_linked",
        &["game", "from", "to"],
        &[
            "The hexes of `to` in the zone of control of a unit in a neighbouring hex of `from` (`zoc_reaches` for some pair); both are lists of hexes.",
            "Returns an array of hex ids in the order of `to`.",
        ],
        zoc_linked,
    );
    reg!(
        m,
        "zoc",
        &["game", "hexes"],
        &[
            "The hexes in the zones of control of units standing in `hexes` (a list of hexes), by the ruleset's `zoc` rules.",
            "Returns an array of hex ids.",
        ],
        |g: &mut GameHandle, hexes: Dynamic| -> Rr<Array> {
        let w = g.0.borrow();
        let hs = hex_list(&w, &hexes, "`hexes`")?;
        Ok(w.ids(w.zoc().zone(w.map(), hs)))
    },
    );
    reg!(
        m,
        "retreat_hexes",
        &["game", "from", "steps", "profile", "blocked"],
        &[
            "The hexes exactly `steps` away from `from` that a retreat reaches, each step further from `from`, under movement profile `profile`, avoiding `blocked` (a list of hexes).",
            "Returns an array of hex ids, empty when there is no way back.",
        ],
        |g: &mut GameHandle, hex: &str, steps: INT, profile: &str, blocked: Dynamic| -> Rr<Array> {
            let w = g.0.borrow();
            let blocked: HashSet<Hex> = hex_list(&w, &blocked, "`blocked`")?.into_iter().collect();
            Ok(w.ids(search::retreat_hexes(
                w.map(),
                w.profile(profile)?,
                w.hex(hex)?,
                // As `hexes_within`: no retreat goes further than the map's span, and a number
                // past `u32` must not wrap round to a short one.
                (steps.max(0) as u64).min(u64::from(w.map().span())) as u32,
                &blocked,
            )))
        },
    );
    module
}

/// Backs the script function `reached`, registered and documented in [`package`].
fn reached(g: &mut GameHandle, hex: &str, targets: Dynamic, opts: RMap) -> Rr<Array> {
    let w = g.0.borrow();
    let (profile, limits) = search_of(&w, &opts)?;
    let costs = search::reachable(w.map(), profile, w.hex(hex)?, &limits).costs;
    let reached: HashSet<Hex> = costs.into_iter().map(|(h, _)| h).collect();
    Ok(hex_list(&w, &targets, "`targets`")?
        .into_iter()
        .filter(|t| reached.contains(t))
        .map(|t| w.hex_id(t).into())
        .collect())
}

/// Backs the script function `hexes_within_any`, registered and documented in [`package`].
fn hexes_within_any(g: &mut GameHandle, hexes: Dynamic, r: INT) -> Rr<Array> {
    // Every map hex within `r` of any of `hexes` (themselves included), each once, in
    // the order found: the hexes next to the enemy, a zone around the guns ...
    let w = g.0.borrow();
    let mut seen = FxIndexSet::default();
    let r = (r.max(0) as u64).min(u64::from(w.map().span())) as u32; // as `hexes_within`
    for h in hex_list(&w, &hexes, "`hexes`")? {
        for x in h.within(r) {
            if w.map().contains(x) {
                seen.insert(x);
            }
        }
    }
    Ok(seen.into_iter().map(|h| w.hex_id(h).into()).collect())
}

/// Backs the script function `hexes_in`, registered and documented in [`package`].
fn hexes_in(g: &mut GameHandle, list: Dynamic, any_of: Dynamic, none_of: Dynamic) -> Rr<Array> {
    // The hexes of `list` (in its order) that stand in some list of `any_of` and in no
    // list of `none_of`: one call where a script would loop with `contains`.
    let w = g.0.borrow();
    let within: HashSet<Hex> = hex_list(&w, &any_of, "`any_of`")?.into_iter().collect();
    let without: HashSet<Hex> = hex_list(&w, &none_of, "`none_of`")?.into_iter().collect();
    let mut out = Array::new();
    for h in hex_list(&w, &list, "`list`")? {
        if within.contains(&h) && !without.contains(&h) {
            out.push(w.hex_id(h).into());
        }
    }
    Ok(out)
}

/// Backs the script function `entries_without`, registered and documented in [`package`].
fn entries_without(g: &mut GameHandle, map: RMap, hexes: Dynamic) -> Rr<RMap> {
    let w = g.0.borrow();
    let without: HashSet<Hex> = hex_list(&w, &hexes, "`hexes`")?.into_iter().collect();
    Ok(map
        .into_iter()
        .filter(|(k, _)| w.map().parse(k).map_or(true, |h| !without.contains(&h)))
        .collect())
}

/// Backs the script function `zoc_linked`, registered and documented in [`package`].
fn zoc_linked(g: &mut GameHandle, from: Dynamic, to: Dynamic) -> Rr<Array> {
    // The hexes of `to` in the zone of control of a unit in a neighbouring hex of `from`
    // (`zoc_reaches(from, to)` for some pair), in the order of `to`.
    let w = g.0.borrow();
    let from: HashSet<Hex> = hex_list(&w, &from, "`from`")?.into_iter().collect();
    let mut out = Array::new();
    for t in hex_list(&w, &to, "`to`")? {
        let linked = w
            .map()
            .neighbours(t)
            .into_iter()
            .any(|n| from.contains(&n) && w.zoc().reaches(w.map(), n, t));
        if linked {
            out.push(w.hex_id(t).into());
        }
    }
    Ok(out)
}

/// The movement search a script asks for (`reachable`, `reached`, `route`, `choose_move`):
/// `#{ profile, mp }` and the optional limits `blocked`, `stop`, `minimum_one_hex`, `extra`,
/// `plain`.
pub(super) fn search_of<'w>(
    w: &'w World,
    opts: &RMap,
) -> Rr<(&'w crate::geom::search::CompiledProfile, MoveLimits)> {
    let Some(profile) = opts.get("profile") else {
        return fail("a movement search needs `profile` (a movement profile's name)".to_string());
    };
    let Some(mp) = opts.get("mp") else {
        return fail("a movement search needs `mp` (its movement points)".to_string());
    };
    let profile = w.profile(&shared_text(profile, "profile")?)?;
    Ok((profile, move_limits(w, number_arg(mp, "`mp`")?, opts)?))
}

fn move_limits(w: &World, mp: FLOAT, opts: &RMap) -> Rr<MoveLimits> {
    let set = |key: &str| -> Rr<Vec<Hex>> {
        match opts.get(key) {
            None => Ok(Vec::new()),
            Some(d) => hex_list(w, d, &format!("option `{key}`")),
        }
    };
    check_keys(
        opts,
        &[
            "profile",
            "mp",
            "blocked",
            "stop",
            "minimum_one_hex",
            "extra",
            "plain",
            "leaving",
        ],
        "the movement search",
    )?;
    let costs = |key: &str| -> Rr<HashMap<Hex, FLOAT>> {
        let mut out = HashMap::default();
        if let Some(d) = opts.get(key) {
            let Some(m) = d.read_lock::<RMap>() else {
                return fail(format!("option `{key}` must be a map of hex id to MP"));
            };
            for (h, v) in m.iter() {
                let mp = v
                    .as_float()
                    .or_else(|_| v.as_int().map(|i| i as FLOAT))
                    .map_err(|t| format!("option `{key}`: MP for {h} must be a number, not {t}"))?;
                out.insert(w.hex(h)?, mp);
            }
        }
        Ok(out)
    };
    Ok(MoveLimits {
        mp,
        blocked: set("blocked")?,
        stop: set("stop")?,
        minimum_one_hex: opts
            .get("minimum_one_hex")
            .and_then(|d| d.as_bool().ok())
            .unwrap_or(false),
        extra: costs("extra")?,
        plain: set("plain")?,
        leaving: costs("leaving")?,
    })
}
