//! The map: hexes and their ids, neighbours, distances and directions, terrain, elevation,
//! hexsides, areas and places, lines and line of sight.

use crate::geom::hex::Hex;
use crate::geom::los::Verdict;
use crate::host::api::units::unit_filter;
use crate::host::args::{check_keys, hex_list, number_arg, shared_text};
use crate::world::state::FxIndexSet;
use crate::world::{fail, GameHandle, Rr};
use rhai::{Array, Dynamic, Map as RMap, Module, NativeCallContext, INT};
use rustc_hash::{FxBuildHasher, FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::hash_map::Entry;

/// The heading of this package in the reference.
pub const TITLE: &str = "Map and line of sight";

/// What the package is about, for the reference.
pub const ABOUT: &str = "Hexes are printed ids (`\"0203\"`, `\"N1904\"`); a bad id is a script error. Wherever a call takes a list of hexes, the list may hold hex ids, hex sets (`game.hexset`) and further lists, which the core joins in order. Line of sight follows the ruleset's LOS rules, then its `fn los_override(game, from, to, verdict)` when it has one.";

/// The package: every function of this topic, documented.
#[must_use]
pub fn package() -> Module {
    let mut module = Module::new();
    let m = &mut module;
    reg!(
        m,
        "is_hex",
        &["game", "hex",],
        &[
            "Whether `hex` is the id of a hex on the map.",
            "Returns `true` or `false`."
        ],
        |g: &mut GameHandle, hex: &str| { g.0.borrow().map().parse(hex).is_ok() },
    );
    reg!(
        m,
        "hexes",
        &["game"],
        &[
            "Every hex of the map.",
            "Returns an array of hex ids in the map's order."
        ],
        |g: &mut GameHandle| -> Array {
            let w = g.0.borrow();
            w.ids(w.map().hexes())
        },
    );
    reg!(
        m,
        "neighbours",
        &["game", "hex"],
        &[
            "The map hexes next to `hex`.",
            "Returns an array of hex ids by direction (fewer than six at an edge); an unknown hex is an error.",
        ],
        |g: &mut GameHandle, hex: &str| -> Rr<Array> {
        let w = g.0.borrow();
        let h = w.hex(hex)?;
        Ok(w.ids(w.map().neighbours(h).collect::<Vec<_>>()))
    },
    );
    reg!(
        m,
        "distance",
        &["game", "from", "to",],
        &[
            "The distance in hexes between two hexes.",
            "Returns the distance; an unknown hex is an error."
        ],
        |g: &mut GameHandle, a: &str, b: &str| -> Rr<INT> {
            let w = g.0.borrow();
            Ok(INT::from(w.hex(a)?.distance(w.hex(b)?)))
        },
    );
    reg!(
        m,
        "distance",
        &["game", "from", "hexes"],
        &[
            "The distance from `from` to the nearest of `hexes` (a list of hexes or a hex set; `game.area(\"edge\")` for the map's edge).",
            "Returns the distance, `()` when `hexes` is empty.",
        ],
        |g: &mut GameHandle, a: &str, hexes: Dynamic| -> Rr<Dynamic> {
            let w = g.0.borrow();
            let h = w.hex(a)?;
            Ok(nearest(h, &hex_list(&w, &hexes, "`hexes`")?))
        },
    );
    reg!(
        m,
        "line_splits",
        &["game", "a", "b", "hex"],
        &[
            "Whether the straight line through the centres of `a` and `b`, extended both ways, crosses the inside of `hex` (flanking fire).",
            "Returns `true` or `false`; an unknown hex is an error.",
        ],
        |g: &mut GameHandle, a: &str, b: &str, c: &str| -> Rr<bool> {
            let w = g.0.borrow();
            Ok(crate::geom::hex::line_splits(
                w.hex(a)?,
                w.hex(b)?,
                w.hex(c)?,
            ))
        },
    );
    reg!(
        m,
        "hexes_within",
        &["game", "hex", "radius",],
        &[
            "The map hexes within `radius` of `hex`, itself included.",
            "Returns an array of hex ids, nearest first; an unknown hex is an error."
        ],
        |g: &mut GameHandle, hex: &str, r: INT| -> Rr<Array> {
            let w = g.0.borrow();
            let h = w.hex(hex)?;
            // A radius beyond the map's span reaches no more hexes (and would allocate a
            // ring for every step of it).
            let r = (r.max(0) as u64).min(u64::from(w.map().span())) as u32;
            Ok(w.ids(h.within(r).into_iter().filter(|x| w.map().contains(*x))))
        },
    );
    reg!(
        m,
        "direction",
        &["game", "from", "to",],
        &[
            "The direction from `from` to the adjacent `to`, 0 to 5.",
            "Returns the direction, `()` when the hexes are not adjacent."
        ],
        |g: &mut GameHandle, a: &str, b: &str| -> Rr<Dynamic> {
            let w = g.0.borrow();
            Ok(w.hex(a)?
                .direction_to(w.hex(b)?)
                .map_or(Dynamic::UNIT, |d| Dynamic::from_int(d as INT)))
        },
    );
    reg!(
        m,
        "direction_name",
        &["game", "direction",],
        &[
            "The name of a direction (taken modulo 6) on this map: `north`, `north-east` ... as the map's orientation names them.",
            "Returns the name."
        ],
        |g: &mut GameHandle, d: INT| -> String {
            g.0.borrow()
                .map()
                .direction_name(d.rem_euclid(6) as usize)
                .to_string()
        },
    );
    reg!(
        m,
        "terrain",
        &["game", "hex",],
        &[
            "The terrain tags of `hex`.",
            "Returns an array of tags, empty when it has none; an unknown hex is an error."
        ],
        |g: &mut GameHandle, hex: &str| -> Rr<Array> {
            let w = g.0.borrow();
            let h = w.hex(hex)?;
            Ok(w.map()
                .terrain(h)
                .into_iter()
                .map(|t| Dynamic::from(t.to_string()))
                .collect())
        },
    );
    reg!(
        m,
        "has_terrain",
        &["game", "hex", "tag",],
        &[
            "Whether `hex` has the terrain tag `tag`.",
            "Returns `true` or `false`; an unknown hex is an error."
        ],
        |g: &mut GameHandle, hex: &str, tag: &str| -> Rr<bool> {
            let w = g.0.borrow();
            Ok(w.map().has_terrain(w.hex(hex)?, tag))
        },
    );
    reg!(
        m,
        "elevation",
        &["game", "hex",],
        &[
            "The elevation of `hex`.",
            "Returns the level, 0 when the map gives none; an unknown hex is an error."
        ],
        |g: &mut GameHandle, hex: &str| -> Rr<INT> {
            let w = g.0.borrow();
            Ok(INT::from(w.map().elevation(w.hex(hex)?)))
        },
    );
    reg!(
        m,
        "hexside",
        &["game", "from", "to",],
        &[
            "The features of the side between two adjacent hexes (river, ford, road crossing ...).",
            "Returns an array of feature names, empty when none."
        ],
        |g: &mut GameHandle, a: &str, b: &str| -> Rr<Array> {
            let w = g.0.borrow();
            Ok(w.map()
                .hexside(w.hex(a)?, w.hex(b)?)
                .into_iter()
                .map(|t| Dynamic::from(t.to_string()))
                .collect())
        },
    );
    reg!(
        m,
        "has_hexside",
        &["game", "from", "to", "feature",],
        &[
            "Whether the side between two adjacent hexes has `feature`.",
            "Returns `true` or `false` (`false` for a feature the map never names)."
        ],
        |g: &mut GameHandle, a: &str, b: &str, f: &str| -> Rr<bool> {
            let w = g.0.borrow();
            let bit = w.map().feature_bit(f).unwrap_or(0);
            Ok(w.map().side_bits(w.hex(a)?, w.hex(b)?) & bit != 0)
        },
    );
    reg!(
        m,
        "area",
        &["game", "name",],
        &[
            "The hexes of map area `name` (also `edge:north` ... and `edge`: every edge hex).",
            "Returns an array of hex ids; an area the map lacks is an error."
        ],
        |g: &mut GameHandle, name: &str| -> Rr<Array> {
            let w = g.0.borrow();
            match w.map().area(name) {
                Some(a) => Ok(w.ids(a)),
                None => fail(format!("the map has no area `{name}`")),
            }
        },
    );
    reg!(
        m,
        "has_area",
        &["game", "name",],
        &[
            "Whether the map has an area `name` (as `area` reads it: `edge:north` and `edge` too), for a scenario's `validate`.",
            "Returns `true` or `false`."
        ],
        |g: &mut GameHandle, name: &str| { g.0.borrow().map().area(name).is_some() },
    );
    reg!(
        m,
        "place",
        &["game", "name",],
        &[
            "The hex of the named place `name` (a town, a crossroads).",
            "Returns its hex id; a place the map lacks is an error."
        ],
        |g: &mut GameHandle, name: &str| -> Rr<String> {
            let w = g.0.borrow();
            match w.map().place(name) {
                Some(h) => Ok(w.map().id(h)),
                None => fail(format!("the map has no place `{name}`")),
            }
        },
    );
    reg!(
        m,
        "los",
        &["game", "from", "to"],
        &[
            "Judges the line of sight from `from` to `to` by the ruleset's LOS rules, then its `los_override` hook when it has one.",
            "Returns `#{ verdict: \"clear\" | \"obscured\" | \"blocked\", reasons: [...], blocked_by, reason }` (or what `los_override` returns); an unknown hex is an error.",
        ],
        los,
    );
    reg!(
        m,
        "sees",
        &["game", "from", "to"],
        &[
            "Whether `from` sees `to`: a verdict short of \"blocked\" after `los_override`, without building the verdict's map (for a rule that asks it of many pairs).",
            "Returns `true` or `false`; an unknown hex is an error.",
        ],
        |ctx: NativeCallContext, g: &mut GameHandle, a: &str, b: &str| -> Rr<bool> {
            // Whether `a` sees `b`: `los` short of "blocked", after the ruleset's `los_override`
            // if it has one, without the verdict's map of reasons (a fire rule asks it of
            // every pair of firer and target).
            let (ha, hb, has_hook) = {
                let w = g.0.borrow();
                (w.hex(a)?, w.hex(b)?, w.hooks().los_override)
            };
            sees(&ctx, g, ha, hb, has_hook)
        },
    );
    reg!(
        m,
        "in_sight",
        &["game", "from", "to", "range"],
        &[
            "The hexes of `to` that some hex of `from` sees (as `sees` judges) at a distance within `range`, a map `#{ min, max }` (each optional: 0 and no limit): the targets in range of a battery, say.",
            "`from` and `to` are lists of hexes. Returns an array of hex ids in the order of `to`, empty when none.",
        ],
        in_sight,
    );
    reg!(
        m,
        "targets_in_sight",
        &["game", "units", "reach", "targets"],
        &[
            "For each of `units`, the hexes of the units matching the unit filter `targets` that stand from 1 to the unit's reach away and that its hex sees (as `sees` judges): the targets each unit may fire at, say, in one call. `reach` is a distance in hexes for every unit, or a map unit id -> distance (a unit it leaves out, or gives `()`, has no targets).",
            "Returns a map unit id -> array of hex ids in the order `hexes_where(targets)` gives them; a unit off the map has an empty array; an unknown unit is an error.",
        ],
        targets_in_sight,
    );
    reg!(
        m,
        "distances",
        &["game", "hexes", "goals"],
        &[
            "For each of `hexes`, the distance to the nearest of `goals` (bots scoring many options).",
            "Returns an array of distances in the order of `hexes`, each `()` when `goals` is empty.",
        ],
        distances,
    );
    reg!(
        m,
        "nearest_option",
        &["game", "options", "goals"],
        &[
            "Of `options` (maps, as for `choose`), the first whose `hex` is nearest to one of `goals` (a bot's move toward its goals).",
            "Options without a hex of the map (no `hex`, `()`, or a word such as `\"off\"`) are passed over.",
            "Returns the option's index, `()` when no option has a hex or `goals` is empty.",
        ],
        nearest_option,
    );
    reg!(
        m,
        "line",
        &["game", "from", "to"],
        &[
            "The steps of the line of sight between two hexes, the ends excluded.",
            "Returns an array of steps, each `[hex]`, or `[a, b]` where the line runs along a hexside (a hex of a pair may be off the map: test `is_hex`).",
        ],
        |g: &mut GameHandle, a: &str, b: &str| -> Rr<Array> {
            let w = g.0.borrow();
            let steps = crate::geom::hex::LineIter::new(w.hex(a)?, w.hex(b)?);
            Ok(steps
                .map(|s| Dynamic::from_array(w.ids(s.hexes())))
                .collect())
        },
    );
    reg!(
        m,
        "line",
        &["game", "from", "to", "how"],
        &[
            "The line between two hexes as `how` asks: `#{ flat: true }` gives the map hexes it passes through, in order, both hexes of a hexside pair, the ends excluded (for a unit query's `in`); `#{ flat: false }` the steps, as `line(from, to)` gives them.",
            "Returns an array of hex ids (flat, none off the map) or of steps.",
        ],
        |g: &mut GameHandle, a: &str, b: &str, how: RMap| -> Rr<Array> {
            check_keys(&how, &["flat"], "`line`'s options")?;
            let flat = match how.get("flat") {
                Some(v) => v
                    .as_bool()
                    .or_else(|t| fail(format!("`flat` must be true or false, not {t}")))?,
                None => false,
            };
            let w = g.0.borrow();
            let steps = crate::geom::hex::LineIter::new(w.hex(a)?, w.hex(b)?);
            Ok(if flat {
                w.ids(steps.flat_map(|s| s.hexes()).filter(|h| w.map().contains(*h)))
            } else {
                steps.map(|s| Dynamic::from_array(w.ids(s.hexes()))).collect()
            })
        },
    );
    reg!(
        m,
        "adjacent_across",
        &["game", "from", "to", "blocked_by", "crossings"],
        &[
            "The hexes of `to` next to a hex of `from` across a side that has none of the features `blocked_by`, or has one of `crossings` (an attack over a creek only at a ford or bridge, say).",
            "`from` and `to` are lists of hexes. Returns an array of hex ids in the order of `to`.",
        ],
        adjacent_across,
    );
    module
}

/// Backs the script function `los`, registered and documented in [`package`].
fn los(ctx: NativeCallContext, g: &mut GameHandle, a: &str, b: &str) -> Rr<Dynamic> {
    let (verdict, has_hook) = {
        let w = g.0.borrow();
        let (ha, hb) = (w.hex(a)?, w.hex(b)?);
        let v = w.los().evaluate(w.map(), ha, hb, |h| w.state().occupied(h));
        (v, w.hooks().los_override)
    };
    let m = Dynamic::from_map(verdict_map(&verdict));
    if has_hook {
        return ctx.call_fn("los_override", (g.clone(), a.to_string(), b.to_string(), m));
    }
    Ok(m)
}

/// Backs the script function `in_sight`, registered and documented in [`package`].
fn in_sight(
    ctx: NativeCallContext,
    g: &mut GameHandle,
    from: Dynamic,
    to: Dynamic,
    range: RMap,
) -> Rr<Array> {
    check_keys(&range, &["min", "max"], "`in_sight`'s range")?;
    let bound = |k: &str, none: INT| match range.get(k) {
        Some(v) => number_arg(v, &format!("`{k}`")).map(|x| x as INT),
        None => Ok(none),
    };
    let (min, max) = (bound("min", 0)?, bound("max", INT::MAX)?);
    // The hexes of `to` (in their order) that some hex of `from` sees at a distance
    // from `min` to `max`: the targets in range of a battery, say. "Sees" is `los`
    // short of "blocked", after the ruleset's `los_override` if it has one.
    let (from, to, has_hook) = {
        let w = g.0.borrow();
        (
            hex_list(&w, &from, "`from`")?,
            hex_list(&w, &to, "`to`")?,
            w.hooks().los_override,
        )
    };
    let in_range = |a: Hex, b: Hex| (min..=max).contains(&INT::from(a.distance(b)));
    let mut out = Array::new();
    for t in to {
        for &f in from.iter().filter(|&&f| in_range(f, t)) {
            if sees(&ctx, g, f, t, has_hook)? {
                out.push(g.0.borrow().hex_id(t).into());
                break;
            }
        }
    }
    Ok(out)
}

/// Backs the script function `targets_in_sight`, registered and documented in [`package`].
fn targets_in_sight(
    ctx: NativeCallContext,
    g: &mut GameHandle,
    units: Array,
    reach: Dynamic,
    targets: RMap,
) -> Rr<RMap> {
    // Each unit's hex and reach, and the target hexes in the order `hexes_where` finds them.
    let (firers, hexes, has_hook) = {
        let w = g.0.borrow();
        let filter = unit_filter(&w, &targets)?;
        let mut hexes: FxIndexSet<Hex> =
            FxIndexSet::with_capacity_and_hasher(w.state().units.len(), FxBuildHasher);
        for u in w.state().units.values() {
            if let Some(h) = u.location.filter(|_| filter.accepts(u)) {
                hexes.insert(h);
            }
        }
        let per_unit = reach.read_lock::<RMap>().map(|m| m.clone());
        let all = match per_unit {
            Some(_) => None,
            None => Some(number_arg(&reach, "`reach`")?),
        };
        let mut firers = Vec::with_capacity(units.len());
        for id in &units {
            let id = shared_text(id, "a unit of `units`")?;
            let at = w.unit_ref(&id)?.location;
            let r = match (&per_unit, all) {
                (_, Some(r)) => Some(r),
                (Some(m), None) => match m.get(id.as_str()) {
                    Some(v) if !v.is_unit() => Some(number_arg(v, "a unit's `reach`")?),
                    _ => None,
                },
                (None, None) => None,
            };
            firers.push((id, at.zip(r.map(|r| r.max(0.0) as u32))));
        }
        (firers, hexes, w.hooks().los_override)
    };
    // One answer per hex and reach: the units of a stack share it.
    let mut found: HashMap<(Hex, u32), Array> = HashMap::default();
    let mut out = RMap::new();
    for (id, from) in firers {
        let Some((at, r)) = from else {
            out.insert(id.as_str().into(), Dynamic::from_array(Array::new()));
            continue;
        };
        if let Entry::Vacant(e) = found.entry((at, r)) {
            let mut seen = Array::new();
            for &t in hexes.iter().filter(|&&t| (1..=r).contains(&at.distance(t))) {
                if sees(&ctx, g, at, t, has_hook)? {
                    seen.push(g.0.borrow().hex_id(t).into());
                }
            }
            e.insert(seen);
        }
        out.insert(
            id.as_str().into(),
            Dynamic::from_array(found[&(at, r)].clone()),
        );
    }
    Ok(out)
}

/// The distance from `h` to the nearest of `hexes`, `None` when there are none.
fn nearest_distance(h: Hex, hexes: &[Hex]) -> Option<u32> {
    hexes.iter().map(|x| h.distance(*x)).min()
}

/// The distance from `h` to the nearest of `hexes`, `()` when there are none.
fn nearest(h: Hex, hexes: &[Hex]) -> Dynamic {
    nearest_distance(h, hexes).map_or(Dynamic::UNIT, |d| Dynamic::from_int(INT::from(d)))
}

/// Backs the script function `distances`, registered and documented in [`package`].
fn distances(g: &mut GameHandle, hexes: Dynamic, goals: Dynamic) -> Rr<Array> {
    let w = g.0.borrow();
    let goals = hex_list(&w, &goals, "`goals`")?;
    Ok(hex_list(&w, &hexes, "`hexes`")?
        .into_iter()
        .map(|h| nearest(h, &goals))
        .collect())
}

/// Backs the script function `nearest_option`, registered and documented in [`package`].
fn nearest_option(g: &mut GameHandle, options: Array, goals: Dynamic) -> Rr<Dynamic> {
    let w = g.0.borrow();
    let goals = hex_list(&w, &goals, "`goals`")?;
    let hex_of = |o: &Dynamic| {
        let m = o.read_lock::<rhai::Map>()?;
        let id = m.get("hex")?.clone().into_immutable_string().ok()?;
        w.hex(&id).ok()
    };
    let mut best: Option<(u32, usize)> = None;
    for (i, o) in options.iter().enumerate() {
        let Some(h) = hex_of(o) else { continue };
        let Some(d) = nearest_distance(h, &goals) else {
            continue;
        };
        if best.is_none_or(|(b, _)| d < b) {
            best = Some((d, i));
        }
    }
    Ok(best.map_or(Dynamic::UNIT, |(_, i)| Dynamic::from_int(i as INT)))
}

/// Backs the script function `adjacent_across`, registered and documented in [`package`].
fn adjacent_across(
    g: &mut GameHandle,
    from: Dynamic,
    to: Dynamic,
    blocked_by: Array,
    crossings: Array,
) -> Rr<Array> {
    // The hexes of `to` next to a hex of `from` across a side that has none of the
    // `blocked_by` features, or has one of the `crossings` (an attack over a creek only
    // at a ford or bridge, say), in the order of `to`.
    let w = g.0.borrow();
    let from: HashSet<Hex> = hex_list(&w, &from, "`from`")?.into_iter().collect();
    let feature_mask = |names: &Array| -> u64 {
        let names: Vec<String> = names.iter().map(ToString::to_string).collect();
        w.map().feature_mask(&names)
    };
    let (blocked, crossing) = (feature_mask(&blocked_by), feature_mask(&crossings));
    let mut out = Array::new();
    for t in hex_list(&w, &to, "`to`")? {
        let open = w.map().neighbours(t).into_iter().any(|n| {
            from.contains(&n) && {
                let side = w.map().side_bits(n, t);
                side & blocked == 0 || side & crossing != 0
            }
        });
        if open {
            out.push(w.hex_id(t).into());
        }
    }
    Ok(out)
}

fn verdict_map(v: &Verdict) -> RMap {
    let mut m = RMap::new();
    let (verdict, reasons, at, why) = match v {
        Verdict::Clear => ("clear", vec![], String::new(), String::new()),
        Verdict::Obscured(r) => ("obscured", r.clone(), String::new(), String::new()),
        Verdict::Blocked { at, reason } => ("blocked", vec![], at.clone(), reason.clone()),
    };
    m.insert("verdict".into(), verdict.into());
    m.insert(
        "reasons".into(),
        Dynamic::from_array(reasons.into_iter().map(Dynamic::from).collect()),
    );
    m.insert("blocked_by".into(), at.into());
    m.insert("reason".into(), why.into());
    Dynamic::from_map(m).cast()
}

/// Whether `a` sees `b`: a line of sight short of "blocked", after the ruleset's
/// `los_override` hook when it has one.
fn sees(ctx: &NativeCallContext, g: &GameHandle, a: Hex, b: Hex, has_hook: bool) -> Rr<bool> {
    let (verdict, ids) = {
        let w = g.0.borrow();
        let v = w.los().evaluate(w.map(), a, b, |h| w.state().occupied(h));
        (v, (w.hex_id(a), w.hex_id(b)))
    };
    if !has_hook {
        return Ok(!matches!(verdict, Verdict::Blocked { .. }));
    }
    let m = Dynamic::from_map(verdict_map(&verdict));
    let out: Dynamic = ctx.call_fn("los_override", (g.clone(), ids.0, ids.1, m))?;
    match out
        .read_lock::<RMap>()
        .and_then(|m| m.get("verdict").map(ToString::to_string))
    {
        Some(v) => Ok(v != "blocked"),
        None => fail("`los_override` must return a map with a `verdict`".to_string()),
    }
}
