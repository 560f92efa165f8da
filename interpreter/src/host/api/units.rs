//! Units: their fields, markers and properties, moving and removing them, hex markers, and the
//! unit queries that take a filter as data.

use crate::geom::hex::Hex;
use crate::host::args::{hex_arg, hex_list, number_arg, shared_text, text_list, to_value};
use crate::value::Value;
use crate::world::query::UnitFilter;
use crate::world::state::{FxIndexMap, FxIndexSet, Unit};
use crate::world::{fail, GameHandle, Rr, World};
use rhai::{Array, Dynamic, ImmutableString, Map as RMap, Module, FLOAT, INT};

/// The heading of this package in the reference.
pub const TITLE: &str = "Units and unit queries";

/// What the package is about, for the reference.
pub const ABOUT: &str = "Units are ids; their fields, markers and ruleset-defined properties; hex markers. A unit query finds in one call what a script loop of several calls per unit would: the filter is a map whose keys are all optional and must all hold: `side`, `not_side`, `at` (a hex), `near` + `within` (hexes, default 1), `in` (a list of hexes), `zone_over` (a hex: the unit stands next to it and has it in its zone of control by the ruleset's `zoc` rules), `on_map` (true/false), `kind` / `kind_not` (text or list), `has` / `lacks` (markers, text or list), `face`, `id` / `id_not` (the unit is one / none of these ids, text or list; an empty `id` list matches no unit), `props` (a map of property values), `named` (the name of a filter in the ruleset's `filters`, or a list of them; the other keys add to it and may not repeat its keys). A value of the wrong kind is an error that names its key.";

/// Registers a getter of one unit field: `game.<name>(id)`, an error for an unknown unit.
macro_rules! getter {
    ($m:ident, $name:literal, $t:ty, $doc:expr, |$u:ident| $e:expr) => {
        reg!($m, $name, &["game", "id"], $doc, |g: &mut GameHandle,
                                                id: &str|
         -> Rr<$t> {
            let w = g.0.borrow();
            let $u = w.unit_ref(id)?;
            Ok($e)
        },);
    };
}

/// The package: every function of this topic, documented.
#[must_use]
pub fn package() -> Module {
    let mut module = Module::new();
    let m = &mut module;
    reg!(
        m,
        "units_where",
        &["game", "filter",],
        &[
            "The units matching a unit filter (see the package).",
            "Returns an array of unit ids in set-up order, empty when none."
        ],
        |g: &mut GameHandle, filter: RMap| -> Rr<Array> {
            let w = g.0.borrow();
            let f = unit_filter(&w, &filter)?;
            Ok(ids_of(w.state().units.values().filter(|u| f.accepts(u))))
        },
    );
    reg!(
        m,
        "hexes_where",
        &["game", "filter",],
        &[
            "The hexes the units matching a unit filter stand in.",
            "Returns an array of hex ids, each once, in the order of the units found."
        ],
        hexes_where
    );
    reg!(
        m,
        "count_by_hex",
        &["game", "filter"],
        &[
            "Per hex, how many units on the map match a unit filter (the size of each stack, say).",
            "Returns a map of hex id to count, with only the hexes of matching units.",
        ],
        |g: &mut GameHandle, filter: RMap| -> Rr<RMap> {
            by_hex(g, &filter, |_| 1.0).map(|m| {
                m.into_iter()
                    .map(|(k, v)| (k, Dynamic::from_int(v as INT)))
                    .collect()
            })
        },
    );
    reg!(
        m,
        "sum_by_hex",
        &["game", "filter", "field"],
        &[
            "Per hex, the sum of `strength`, `rating` or a numeric property `field` over the units on the map matching a unit filter (stacking values, say); a unit without the property counts 0.",
            "Returns a map of hex id to number, with only the hexes of matching units.",
        ],
        |g: &mut GameHandle, filter: RMap, field: &str| -> Rr<RMap> {
            by_hex(g, &filter, |u| crate::world::query::unit_number(u, field)).map(|m| {
                m.into_iter()
                    .map(|(k, v)| (k, Dynamic::from_float(v)))
                    .collect()
            })
        },
    );
    reg!(
        m,
        "sum_where",
        &["game", "filter", "field"],
        &[
            "The sum of `strength`, `rating` or a numeric property `field` over the units matching a unit filter.",
            "Returns the sum as a float, 0.0 when none match.",
        ],
        |g: &mut GameHandle, filter: RMap, field: &str| -> Rr<FLOAT> {
            // The sum of `strength`, `rating` or a numeric property over the matching units.
            let w = g.0.borrow();
            let f = unit_filter(&w, &filter)?;
            Ok(w.state()
                .units
                .values()
                .filter(|u| f.accepts(u))
                .map(|u| crate::world::query::unit_number(u, field))
                .sum())
        },
    );
    reg!(
        m,
        "count_where",
        &["game", "filter",],
        &["How many units match a unit filter.", "Returns the count.",],
        |g: &mut GameHandle, filter: RMap| -> Rr<INT> {
            let w = g.0.borrow();
            let f = unit_filter(&w, &filter)?;
            Ok(w.state().units.values().filter(|u| f.accepts(u)).count() as INT)
        },
    );
    reg!(
        m,
        "has_unit",
        &["game", "id",],
        &[
            "Whether the game has a unit `id`.",
            "Returns `true` or `false`."
        ],
        |g: &mut GameHandle, id: &str| { g.0.borrow().state().units.contains_key(id) },
    );
    reg!(
        m,
        "unit",
        &["game", "id"],
        &[
            "A snapshot of unit `id`.",
            "Returns `#{ id, name, side, kind, strength, rating, at, face, markers, props }` (`at` is `()` off the map); an unknown unit is an error.",
        ],
        unit,
    );
    reg!(
        m,
        "describe",
        &["game", "units", "template", "separator"],
        &[
            "Each unit of the list of ids `units` through `template`, joined by `separator`: `{id}`, `{name}`, `{side}`, `{kind}`, `{strength}`, `{rating}`, `{face}` and `{at}` (its hex, `\"\"` off the map) are replaced, other text stays.",
            "Returns the text; an unknown unit is an error.",
        ],
        describe,
    );
    reg!(
        m,
        "describe",
        &["game", "unit", "template", "separator"],
        &[
            "Unit `unit` (one id) through `template` as `describe` with a list does; `separator` is not used.",
            "Returns the text; an unknown unit is an error.",
        ],
        |g: &mut GameHandle, unit: &str, template: &str, _separator: &str| -> Rr<String> {
            // One unit by its id: a move's label, without a list made for it.
            let w = g.0.borrow();
            Ok(describe_unit(&w, w.unit_ref(unit)?, template))
        },
    );
    reg!(
        m,
        "describe",
        &["game", "filter", "template", "separator"],
        &[
            "The units matching a unit filter, in set-up order, through `template` as `describe` with a list does, joined by `separator`, without their ids coming back to the script.",
            "Returns the text, `\"\"` when none match.",
        ],
        |g: &mut GameHandle, filter: RMap, template: &str, separator: &str| -> Rr<String> {
            // The units a query finds, described without handing their ids to the script first
            // (a combat's labels name the defenders of each target).
            let w = g.0.borrow();
            let f = unit_filter(&w, &filter)?;
            let units = w.state().units.values().filter(|u| f.accepts(u));
            Ok(describe_units(&w, units, template, separator))
        },
    );
    // Text comes back as a script string made from the unit's text in one step (a `String`
    // would be copied, then turned into a script string).
    getter!(
        m,
        "name",
        ImmutableString,
        &[
            "The name of unit `id`.",
            "Returns its name; an unknown unit is an error."
        ],
        |u| u.name.as_str().into()
    );
    getter!(
        m,
        "side_of",
        ImmutableString,
        &[
            "The side of unit `id`.",
            "Returns the side's name; an unknown unit is an error."
        ],
        |u| u.side.as_str().into()
    );
    getter!(
        m,
        "kind",
        ImmutableString,
        &[
            "The kind of unit `id` (as the scenario writes it).",
            "Returns the kind; an unknown unit is an error."
        ],
        |u| u.kind.as_str().into()
    );
    getter!(
        m,
        "strength",
        INT,
        &[
            "The strength of unit `id`.",
            "Returns the strength; an unknown unit is an error."
        ],
        |u| u.strength
    );
    getter!(
        m,
        "rating",
        INT,
        &[
            "The rating of unit `id` (what it rates is the ruleset's).",
            "Returns the rating; an unknown unit is an error."
        ],
        |u| u.rating
    );
    getter!(
        m,
        "face",
        ImmutableString,
        &[
            "The face of unit `id` that is up (`\"front\"`, `\"reduced\"`: the ruleset's names).",
            "Returns the face; an unknown unit is an error."
        ],
        |u| u.face.as_str().into()
    );
    getter!(
        m,
        "facing",
        Dynamic,
        &[
            "The direction unit `id` faces, 0 to 5.",
            "Returns the direction, `()` when it has none; an unknown unit is an error."
        ],
        |u| u
            .facing
            .map_or(Dynamic::UNIT, |f| Dynamic::from_int(INT::from(f)))
    );
    getter!(
        m,
        "on_map",
        bool,
        &[
            "Whether unit `id` stands on the map.",
            "Returns `true` or `false`; an unknown unit is an error."
        ],
        |u| u.location.is_some()
    );
    getter!(
        m,
        "markers",
        Array,
        &[
            "The markers on unit `id`.",
            "Returns an array of marker names in the order placed; an unknown unit is an error."
        ],
        |u| u.markers.iter().cloned().map(Dynamic::from).collect()
    );
    reg!(
        m,
        "location",
        &["game", "id",],
        &[
            "The hex unit `id` stands in.",
            "Returns its hex id, `()` off the map; an unknown unit is an error."
        ],
        |g: &mut GameHandle, id: &str| -> Rr<Dynamic> {
            let w = g.0.borrow();
            Ok(w.location_id(id)?.map_or(Dynamic::UNIT, Dynamic::from))
        },
    );
    reg!(
        m,
        "locations",
        &["game", "ids"],
        &[
            "The hex of each unit of `ids`, in order: one call for a loop of `location`.",
            "Returns an array of hex ids (`()` for a unit off the map); an unknown unit is an error.",
        ],
        locations,
    );
    reg!(
        m,
        "set_strength",
        &["game", "id", "strength",],
        &[
            "Sets the strength of unit `id`.",
            "Returns nothing; an unknown unit is an error."
        ],
        |g: &mut GameHandle, id: &str, v: INT| -> Rr<()> {
            g.0.borrow_mut().unit_mut(id)?.strength = v;
            Ok(())
        },
    );
    reg!(
        m,
        "set_rating",
        &["game", "id", "rating",],
        &[
            "Sets the rating of unit `id`.",
            "Returns nothing; an unknown unit is an error."
        ],
        |g: &mut GameHandle, id: &str, v: INT| -> Rr<()> {
            g.0.borrow_mut().unit_mut(id)?.rating = v;
            Ok(())
        },
    );
    reg!(
        m,
        "set_face",
        &["game", "id", "face",],
        &[
            "Turns unit `id` to `face`.",
            "Returns nothing; an unknown unit is an error."
        ],
        |g: &mut GameHandle, id: &str, v: &str| -> Rr<()> {
            g.0.borrow_mut().unit_mut(id)?.face = v.to_string();
            Ok(())
        },
    );
    reg!(
        m,
        "set_facing",
        &["game", "id", "direction",],
        &[
            "Sets the direction unit `id` faces (taken modulo 6).",
            "Returns nothing; an unknown unit is an error."
        ],
        |g: &mut GameHandle, id: &str, v: INT| -> Rr<()> {
            g.0.borrow_mut().unit_mut(id)?.facing = Some(v.rem_euclid(6) as u8);
            Ok(())
        },
    );
    reg!(
        m,
        "move_to",
        &["game", "id", "hex",],
        &[
            "Places unit `id` in `hex` (no rules apply: movement is the ruleset's).",
            "Returns nothing; an unknown unit or hex is an error."
        ],
        |g: &mut GameHandle, id: &str, hex: &str| -> Rr<()> {
            let mut w = g.0.borrow_mut();
            let h = w.hex(hex)?;
            w.unit_mut(id)?.location = Some(h);
            Ok(())
        },
    );
    reg!(
        m,
        "remove",
        &["game", "id",],
        &[
            "Takes unit `id` off the map (it stays in the game, `on_map` false).",
            "Returns nothing; an unknown unit is an error."
        ],
        |g: &mut GameHandle, id: &str| -> Rr<()> {
            g.0.borrow_mut().unit_mut(id)?.location = None;
            Ok(())
        },
    );
    reg!(
        m,
        "prop",
        &["game", "id", "key",],
        &[
            "The ruleset-defined property `key` of unit `id`.",
            "Returns a copy of the value, `()` when unset; an unknown unit is an error."
        ],
        |g: &mut GameHandle, id: &str, key: &str| -> Rr<Dynamic> {
            let w = g.0.borrow();
            Ok(w.unit_ref(id)?
                .props
                .get(key)
                .map_or(Dynamic::UNIT, Value::to_dynamic))
        },
    );
    reg!(
        m,
        "set_prop",
        &["game", "id", "key", "value",],
        &[
            "Sets the ruleset-defined property `key` of unit `id` to `value` (plain data).",
            "Returns nothing; an unknown unit is an error."
        ],
        |g: &mut GameHandle, id: &str, key: &str, v: Dynamic| -> Rr<()> {
            let v = to_value(&v)?;
            g.0.borrow_mut()
                .unit_mut(id)?
                .props
                .insert(key.to_string(), v);
            Ok(())
        },
    );
    reg!(
        m,
        "has_marker",
        &["game", "id", "marker",],
        &[
            "Whether unit `id` carries `marker`.",
            "Returns `true` or `false`; an unknown unit is an error."
        ],
        |g: &mut GameHandle, id: &str, m: &str| -> Rr<bool> {
            Ok(g.0.borrow().unit_ref(id)?.markers.contains(m))
        },
    );
    reg!(
        m,
        "add_marker",
        &["game", "id", "marker",],
        &[
            "Puts `marker` on unit `id` (once: a marker already there stays where it was).",
            "Returns nothing; an unknown unit is an error."
        ],
        |g: &mut GameHandle, id: &str, m: &str| -> Rr<()> {
            g.0.borrow_mut().unit_mut(id)?.markers.insert(m.to_string());
            Ok(())
        },
    );
    reg!(
        m,
        "remove_marker",
        &["game", "id", "marker",],
        &[
            "Takes `marker` off unit `id`.",
            "Returns whether it was there; an unknown unit is an error."
        ],
        |g: &mut GameHandle, id: &str, m: &str| -> Rr<bool> {
            Ok(g.0.borrow_mut().unit_mut(id)?.markers.shift_remove(m))
        },
    );
    reg!(
        m,
        "clear_markers",
        &["game", "markers",],
        &[
            "Takes each of `markers` off every unit (the end of a phase, say).",
            "Returns nothing."
        ],
        |g: &mut GameHandle, markers: Array| {
            // Takes these markers off every unit (the end of a phase, say).
            let names: Vec<String> = markers.iter().map(ToString::to_string).collect();
            for u in g.0.borrow_mut().state_mut().units.values_mut() {
                for m in &names {
                    u.markers.shift_remove(m);
                }
            }
        },
    );
    // Hex markers.
    reg!(
        m,
        "hex_markers",
        &["game", "hex",],
        &[
            "The markers on `hex`.",
            "Returns an array of marker names, empty when none; an unknown hex is an error."
        ],
        |g: &mut GameHandle, hex: &str| -> Rr<Array> {
            let w = g.0.borrow();
            let h = w.hex(hex)?;
            Ok(w.state()
                .hex_markers
                .get(&h)
                .map(|s| s.iter().cloned().map(Dynamic::from).collect())
                .unwrap_or_default())
        },
    );
    reg!(
        m,
        "add_hex_marker",
        &["game", "hex", "marker",],
        &[
            "Puts `marker` on `hex`.",
            "Returns nothing; an unknown hex is an error."
        ],
        |g: &mut GameHandle, hex: &str, m: &str| -> Rr<()> {
            let mut w = g.0.borrow_mut();
            let h = w.hex(hex)?;
            w.state_mut()
                .hex_markers
                .entry(h)
                .or_default()
                .insert(m.to_string());
            Ok(())
        },
    );
    reg!(
        m,
        "remove_hex_marker",
        &["game", "hex", "marker",],
        &[
            "Takes `marker` off `hex`.",
            "Returns whether it was there; an unknown hex is an error."
        ],
        |g: &mut GameHandle, hex: &str, m: &str| -> Rr<bool> {
            let mut w = g.0.borrow_mut();
            let h = w.hex(hex)?;
            Ok(w.state_mut()
                .hex_markers
                .get_mut(&h)
                .is_some_and(|s| s.shift_remove(m)))
        },
    );
    reg!(
        m,
        "hexes_with_marker",
        &["game", "marker",],
        &[
            "The hexes carrying `marker`.",
            "Returns an array of hex ids in the order first marked."
        ],
        |g: &mut GameHandle, m: &str| -> Array {
            let w = g.0.borrow();
            let hexes: Vec<Hex> = w
                .state()
                .hex_markers
                .iter()
                .filter(|(_, s)| s.contains(m))
                .map(|(h, _)| *h)
                .collect();
            w.ids(hexes)
        },
    );
    module
}

/// Backs the script function `hexes_where`, registered and documented in [`package`].
fn hexes_where(g: &mut GameHandle, filter: RMap) -> Rr<Array> {
    let w = g.0.borrow();
    let f = unit_filter(&w, &filter)?;
    let mut seen: FxIndexSet<Hex> =
        FxIndexSet::with_capacity_and_hasher(w.state().units.len(), rustc_hash::FxBuildHasher);
    for u in w.state().units.values() {
        if let Some(h) = u.location.filter(|_| f.accepts(u)) {
            seen.insert(h);
        }
    }
    Ok(seen.into_iter().map(|h| w.hex_id(h).into()).collect())
}

/// Per hex, the sum of `value` over the units on the map matching `filter`, in the order the
/// hexes are first found (`count_by_hex`, `sum_by_hex`).
fn by_hex(
    g: &mut GameHandle,
    filter: &RMap,
    value: impl Fn(&Unit) -> FLOAT,
) -> Rr<Vec<(rhai::Identifier, FLOAT)>> {
    let w = g.0.borrow();
    let f = unit_filter(&w, filter)?;
    let mut sums: FxIndexMap<Hex, FLOAT> =
        FxIndexMap::with_capacity_and_hasher(w.state().units.len(), rustc_hash::FxBuildHasher);
    for u in w.state().units.values() {
        let Some(h) = u.location.filter(|_| f.accepts(u)) else {
            continue;
        };
        *sums.entry(h).or_default() += value(u);
    }
    Ok(sums
        .into_iter()
        .map(|(h, v)| (w.hex_id(h).into(), v))
        .collect())
}

/// Backs the script function `unit`, registered and documented in [`package`].
fn unit(g: &mut GameHandle, id: &str) -> Rr<Dynamic> {
    let w = g.0.borrow();
    let u = w.unit_ref(id)?;
    let mut m = RMap::new();
    m.insert("id".into(), u.id.clone().into());
    m.insert("name".into(), u.name.clone().into());
    m.insert("side".into(), u.side.clone().into());
    m.insert("kind".into(), u.kind.clone().into());
    m.insert("strength".into(), Dynamic::from_int(u.strength));
    m.insert("rating".into(), Dynamic::from_int(u.rating));
    m.insert(
        "at".into(),
        u.location.map_or(Dynamic::UNIT, |h| w.hex_id(h).into()),
    );
    m.insert("face".into(), u.face.clone().into());
    m.insert(
        "markers".into(),
        Dynamic::from_array(u.markers.iter().cloned().map(Dynamic::from).collect()),
    );
    let props: RMap = u
        .props
        .iter()
        .map(|(k, v)| (k.as_str().into(), v.to_dynamic()))
        .collect();
    m.insert("props".into(), Dynamic::from_map(props));
    Ok(Dynamic::from_map(m))
}

/// Backs the script function `describe`, registered and documented in [`package`].
fn describe(g: &mut GameHandle, units: Array, template: &str, separator: &str) -> Rr<String> {
    // Each unit through the template, joined: labels and log lines without a script
    // loop of a call per field.
    let w = g.0.borrow();
    let units = units
        .iter()
        .map(|id| {
            let id = id
                .as_immutable_string_ref()
                .map_err(|t| format!("`describe` takes unit ids, not {t}"))?;
            w.unit_ref(&id)
        })
        .collect::<Rr<Vec<_>>>()?;
    Ok(describe_units(&w, units, template, separator))
}

/// Backs the script function `locations`, registered and documented in [`package`].
fn locations(g: &mut GameHandle, ids: Array) -> Rr<Array> {
    // Each unit's hex in order (() off the map): one call for a loop of `location`.
    let w = g.0.borrow();
    ids.iter()
        .map(|d| {
            let id = d
                .as_immutable_string_ref()
                .map_err(|t| format!("`locations` takes unit ids, not {t}"))?;
            Ok(w.location_id(&id)?.map_or(Dynamic::UNIT, Dynamic::from))
        })
        .collect()
}

/// A unit filter from a script's map (see [`crate::world::query`]).
pub(super) fn unit_filter(w: &World, m: &RMap) -> Rr<UnitFilter> {
    let mut f = UnitFilter::default();
    let mut near = (None, 1);
    // A named filter of the ruleset's `filters` first; the query's other keys add to it, and
    // may not give a key again.
    let mut named_keys: Vec<&str> = Vec::new();
    if let Some(v) = m.get("named") {
        for name in text_list(v, "named")? {
            let Some(named) = w.named_filter(name.as_str()) else {
                return fail(format!(
                    "no unit filter named `{name}` (the ruleset's `filters` names them)"
                ));
            };
            for (nk, nv) in named {
                filter_key(w, &mut f, &mut near, nk, nv)?;
                named_keys.push(nk);
            }
        }
    }
    for (k, v) in m.iter().filter(|(k, _)| k.as_str() != "named") {
        if named_keys.contains(&k.as_str()) {
            return fail(format!(
                "unit filter key `{k}` is given by its named filter (`named`) already"
            ));
        }
        filter_key(w, &mut f, &mut near, k, v)?;
    }
    f.near = near.0.map(|h| (h, near.1));
    Ok(f)
}

/// Reads one key of a unit filter into `f` (`near` holds the `near` hex and the `within` distance).
fn filter_key(
    w: &World,
    f: &mut UnitFilter,
    near: &mut (Option<Hex>, u32),
    k: &str,
    v: &Dynamic,
) -> Rr<()> {
    match k {
        "side" => f.side = Some(shared_text(v, "side")?),
        "not_side" => f.not_side = Some(shared_text(v, "not_side")?),
        "at" => f.at = Some(hex_arg(w, v, "at")?),
        "near" => near.0 = Some(hex_arg(w, v, "near")?),
        "within" => near.1 = number_arg(v, "`within`")?.max(0.0) as u32,
        "in" => f.in_any = Some(also(f.in_any.take(), hex_list(w, v, "`in`")?)),
        "zone_over" => {
            let h = hex_arg(w, v, "zone_over")?;
            f.in_any = Some(also(f.in_any.take(), w.zone_sources(h)));
        }
        "on_map" => {
            f.on_map = Some(
                v.as_bool()
                    .or_else(|t| fail(format!("`on_map` must be true or false, not {t}")))?,
            )
        }
        "kind" => f.kind = text_list(v, "kind")?,
        "kind_not" => f.kind_not = text_list(v, "kind_not")?,
        "has" => f.has = text_list(v, "has")?,
        "lacks" => f.lacks = text_list(v, "lacks")?,
        "face" => f.face = Some(shared_text(v, "face")?),
        "id" => f.id = Some(text_list(v, "id")?),
        "id_not" => f.id_not = text_list(v, "id_not")?,
        "props" => {
            let Some(p) = v.read_lock::<RMap>() else {
                return fail("`props` must be a map".to_string());
            };
            for (pk, pv) in p.iter() {
                f.props.insert(pk.to_string(), to_value(pv)?);
            }
        }
        other => {
            return fail(format!(
                "unknown unit filter key `{other}` (side, not_side, at, near, within, in, zone_over, on_map, kind, kind_not, has, lacks, face, id, id_not, props, named)"
            ))
        }
    }
    Ok(())
}

/// Hexes a unit must stand in under two filter keys (`in` and `zone_over`): those in both.
fn also(before: Option<Vec<Hex>>, hexes: Vec<Hex>) -> Vec<Hex> {
    match before {
        Some(b) => hexes.into_iter().filter(|h| b.contains(h)).collect(),
        None => hexes,
    }
}

/// Units through a `describe` template, joined by `separator`.
fn describe_units<'a>(
    w: &World,
    units: impl IntoIterator<Item = &'a Unit>,
    template: &str,
    separator: &str,
) -> String {
    let mut out = String::new();
    for (i, u) in units.into_iter().enumerate() {
        if i > 0 {
            out.push_str(separator);
        }
        out.push_str(&describe_unit(w, u, template));
    }
    out
}

/// A unit through a template: `{id}`, `{name}`, `{side}`, `{kind}`, `{strength}`,
/// `{rating}`, `{face}` and `{at}` (its hex, "" off the map) are replaced; other text stays.
fn describe_unit(w: &World, u: &Unit, template: &str) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        match &after[..close] {
            "id" => out.push_str(&u.id),
            "name" => out.push_str(&u.name),
            "side" => out.push_str(&u.side),
            "kind" => out.push_str(&u.kind),
            "strength" => out.push_str(&u.strength.to_string()),
            "rating" => out.push_str(&u.rating.to_string()),
            "face" => out.push_str(&u.face),
            "at" => out.push_str(
                &u.location
                    .map(|h| w.hex_id(h).to_string())
                    .unwrap_or_default(),
            ),
            other => {
                out.push('{');
                out.push_str(other);
                out.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The ids of these units, as a script's list.
fn ids_of<'a>(units: impl Iterator<Item = &'a Unit>) -> Array {
    units.map(|u| Dynamic::from(u.id.clone())).collect()
}
