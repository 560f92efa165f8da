//! Decisions: a side chooses among options, or a unit's move as one decision; a bot's wish
//! for a move read once.

use super::search::search_of;
use crate::geom::search;
use crate::host::args::push_hexes;
use crate::host::args::{check_keys, hex_group, number_arg};
use crate::world::agent::Choice;
use crate::world::decide::{choose, choose_among, shown_options, Shown};
use crate::world::moves;
use crate::world::{fail, GameHandle, Rr, World};
use rhai::{Array, Dynamic, FnPtr, Map as RMap, Module, NativeCallContext};
use std::rc::Rc;

/// The heading of this package in the reference.
pub const TITLE: &str = "Decisions";

/// What the package is about, for the reference.
pub const ABOUT: &str = "Every decision goes to the side's agent: a forced answer first (examples), then `human`, `random`, `bot`, `search` (which starts from the bot's choice and plays each option it tries forward with the bots) or `replay`. The `bot` agent calls the ruleset's `fn bot_choose(game, side, kind, options)`, which returns an index or one of the options; a `choose_move` bot may instead be answered in Rust from a wish given as data (`choice.rank`).";

/// The package: every function of this topic, documented.
#[must_use]
pub fn package() -> Module {
    let mut module = Module::new();
    let m = &mut module;
    reg!(
        m,
        "choose_move",
        &["game", "side", "kind", "from", "search", "choice"],
        &[
            "Asks `side` for a unit's move as one decision of `kind`: the destinations the movement search `search` (`#{ profile, mp, ... }`,",
            "as for `reachable`) finds from hex `from`, then the `choice.extra` options.",
            "`choice` (all keys optional): `stay` (offer staying first, default true), `exclude` (hexes), `exclude_terrain` (tags),",
            "`extra` (option maps; a `score` ranks them for a bot), `fields` (merged into the result), `label` (default `\"move to\"`),",
            "`rank` (a bot's wish: a `MoveRank`, a map as `move_rank` takes, or a function pointer returning one, called only when a bot decides; `()` is none).",
            "A bot with a `rank` is answered in Rust; without one the ruleset's `bot_choose` gets every option.",
            "A person sees the board around `from`, each destination numbered, and with each its detail: the hexes the way there steps through and the other sides' units it ends next to.",
            "Returns `#{ kind: \"stay\" | \"move\", hex, cost, label, route }` plus `choice.fields` (`route`: the hexes passed through, both ends included),",
            "or the extra option chosen; no options at all is an error.",
        ],
        choose_move_decision,
    );
    reg!(
        m,
        "choose",
        &["game", "side", "kind", "options"],
        &[
            "Asks `side` to choose one of `options` (any values; a map's `label` is what a person sees and the log keeps) as a decision of `kind`, and logs the answer.",
            "A `label` may be a function pointer, `Fn(\"name\")`, called as `name(game, option)` only when the text is needed (a person, the log, an example): many options need no text when a bot answers.",
            "For a person only (never logged): a map's `detail` (text) is shown beside its label, its `hex` (else a label that is a hex id) is numbered in the picture of the board, and the first `focus` hex is the hex the decision is about, marked `@` and in the middle of the picture.",
            "A forced answer (examples) comes first; one option is taken without asking; the `bot` agent calls the ruleset's `fn bot_choose(game, side, kind, options)`, which returns an index or one of the options.",
            "Returns the chosen option; no options, or a side the ruleset lacks, is an error.",
        ],
        |ctx: NativeCallContext,
         g: &mut GameHandle,
         side: &str,
         kind: &str,
         options: Array|
         -> Rr<Dynamic> { choose(&ctx, g, side, kind, options) },
    );
    reg!(
        m,
        "move_rank",
        &["game", "wish"],
        &[
            "Reads a bot's move wish once, for `choice.rank` of `choose_move` move after move: `#{ goals: [hexes], keep: 0, weight: 10, hexes: [[hexes, points], ...], terrain: [[tags, points], ...], stay: points }`.",
            "Each destination scores `-weight * |distance to the nearest goal - keep|` plus the points of the hex lists and terrain it is in (and `stay` for staying); the highest wins, the first of equals.",
            "Returns a `MoveRank` (cheap to copy; its goals keep the distances they have measured); an unknown key is an error.",
        ],
        |g: &mut GameHandle, spec: Dynamic| -> Rr<MoveRank> {
            Ok(MoveRank(Rc::new(read_rank(&g.0.borrow(), &spec)?)))
        },
    );
    module
}

/// Backs the script function `choose_move`, registered and documented in [`package`].
#[allow(clippy::too_many_arguments)] // the script function's parameters, as scripts pass them
fn choose_move_decision(
    ctx: NativeCallContext,
    g: &mut GameHandle,
    side: &str,
    kind: &str,
    from: &str,
    search: RMap,
    choice: RMap,
) -> Rr<Dynamic> {
    choose_move(&ctx, g, side, kind, from, &search, &choice)
}

/// A bot's wish for a move read once (`game.move_rank(map)`): handed to `choose_move` move after
/// move without reading the map again, and keeping the distances its goals have measured.
#[derive(Clone)]
pub struct MoveRank(Rc<moves::Rank>);

/// The rank a `choose_move` bot decides by: `choice.rank` as a [`MoveRank`] or a map, or the
/// function pointer that returns one, called now.
fn choice_rank(ctx: &NativeCallContext, w: &GameHandle, r: &Dynamic) -> Rr<Rc<moves::Rank>> {
    let called = match r.read_lock::<FnPtr>() {
        Some(f) => Some(f.call_within_context::<Dynamic>(ctx, ())?),
        None => None,
    };
    let r = called.as_ref().unwrap_or(r);
    if let Some(m) = r.read_lock::<MoveRank>() {
        return Ok(m.0.clone());
    }
    Ok(Rc::new(read_rank(&w.0.borrow(), r)?))
}

/// The bot's wish for a move (`choice.rank`), read into a [`moves::Rank`].
fn read_rank(w: &World, d: &Dynamic) -> Rr<moves::Rank> {
    let Some(m) = d.read_lock::<RMap>() else {
        return fail(
            "`rank` must be a map (goals, keep, weight, hexes, terrain, stay)".to_string(),
        );
    };
    let mut rank = moves::Rank {
        weight: 10,
        ..moves::Rank::default()
    };
    for (k, v) in m.iter() {
        match k.as_str() {
            "goals" => rank.goals = hex_group(w, v, "`rank.goals`")?,
            "keep" => rank.keep = number_arg(v, "`rank.keep`")? as i64,
            "weight" => rank.weight = number_arg(v, "`rank.weight`")? as i64,
            "stay" => rank.stay = number_arg(v, "`rank.stay`")? as i64,
            "hexes" | "terrain" => {
                for e in v.clone().into_array().map_err(|t| {
                    format!("`rank.{k}` must be an array of [list, points], not {t}")
                })? {
                    let pair = e
                        .into_array()
                        .map_err(|t| format!("`rank.{k}` entries are [list, points], not {t}"))?;
                    let (Some(list), Some(points)) = (pair.first(), pair.get(1)) else {
                        return fail(format!("`rank.{k}` entries are [list, points]"));
                    };
                    let points = number_arg(points, "points")? as i64;
                    if k == "hexes" {
                        rank.hexes
                            .push((hex_group(w, list, "`rank.hexes`")?, points));
                    } else {
                        let list = list
                            .clone()
                            .into_array()
                            .map_err(|t| format!("`rank.{k}`: a list, not {t}"))?;
                        let tags: Vec<String> = list.iter().map(ToString::to_string).collect();
                        rank.terrain.push((w.map().tag_mask(&tags), points));
                    }
                }
            }
            other => {
                return fail(format!(
                    "unknown `rank` key `{other}` (goals, keep, weight, hexes, terrain, stay)"
                ))
            }
        }
    }
    Ok(rank)
}

/// One unit's move as a single decision (see [`moves`]): the destinations
/// `reachable` finds from `from` under `limits`, filtered by `choice`
/// (`stay`, `exclude`, `exclude_terrain`), then `choice.extra` options.
/// A bot with a `choice.rank` is answered in Rust; a bot without one gets
/// every option in `bot_choose`. The chosen destination comes back as
/// `#{ kind: "stay" | "move", hex, cost, label, route }` plus `choice.fields`,
/// where `route` lists the hexes passed through, both ends included.
#[allow(clippy::too_many_arguments)]
fn choose_move(
    ctx: &NativeCallContext,
    g: &GameHandle,
    side: &str,
    kind: &str,
    from: &str,
    search: &RMap,
    choice: &RMap,
) -> Rr<Dynamic> {
    check_keys(
        choice,
        &[
            "stay",
            "exclude",
            "exclude_terrain",
            "extra",
            "fields",
            "label",
            "rank",
        ],
        "the move choice",
    )?;
    // The choice's lists are read in place: `exclude` can be long, and is read every move.
    let with_array = |key: &str, f: &mut dyn FnMut(&Array) -> Rr<()>| -> Rr<()> {
        match choice.get(key) {
            None => Ok(()),
            Some(d) => match d.read_lock::<Array>() {
                Some(a) => f(&a),
                None => fail(format!("`{key}` must be an array, not {}", d.type_name())),
            },
        }
    };
    let mut extras = Array::new();
    with_array("extra", &mut |a| {
        extras = a.clone();
        Ok(())
    })?;
    let prefix = choice
        .get("label")
        .map_or_else(|| "move to".to_string(), ToString::to_string);
    let fields: RMap = choice
        .get("fields")
        .and_then(|d| d.read_lock::<RMap>().map(|m| m.clone()))
        .unwrap_or_default();
    let (map, dests, reach, ids, start) = {
        let w = g.0.borrow();
        let (profile, lim) = search_of(&w, search)?;
        let start = w.hex(from)?;
        let reach = search::reachable(w.map(), profile, start, &lim);
        let mut tags: Vec<String> = Vec::new();
        with_array("exclude_terrain", &mut |a| {
            tags = a.iter().map(ToString::to_string).collect();
            Ok(())
        })?;
        let mut exclude = Vec::new();
        with_array("exclude", &mut |a| push_hexes(&w, a, &mut exclude))?;
        let filter = moves::Filter {
            stay: choice
                .get("stay")
                .and_then(|d| d.as_bool().ok())
                .unwrap_or(true),
            exclude: exclude.into_iter().collect(),
            exclude_terrain: w.map().tag_mask(&tags),
        };
        let dests = moves::destinations(w.map(), start, &reach.costs, &filter);
        // The options are built while a decision may hold the game: the ids go with them.
        (w.map().clone(), dests, reach, w.hex_ids().clone(), start)
    };
    let option = |i: usize| -> Dynamic {
        if i >= dests.len() {
            return extras[i - dests.len()].clone();
        }
        let d = &dests[i];
        let id = ids.id(&map, d.hex);
        let mut m = fields.clone();
        m.insert("kind".into(), (if d.stay { "stay" } else { "move" }).into());
        m.insert("label".into(), moves::label(&id, &prefix, d).into());
        m.insert("hex".into(), id.into());
        m.insert("cost".into(), Dynamic::from_float(d.cost));
        Dynamic::from_map(m)
    };
    let n = dests.len() + extras.len();
    // `rank: ()` is no rank, so a script can build the choice in one literal for bots and others.
    let rank = choice.get("rank").filter(|r| !r.is_unit());
    let order = |r: &Dynamic| -> Rr<Vec<usize>> {
        // A closure is called only now, when a bot is asked.
        let rank = choice_rank(ctx, g, r)?;
        let scores: Vec<Option<i64>> = extras
            .iter()
            .map(|e| {
                e.read_lock::<RMap>()
                    .and_then(|m| m.get("score").and_then(|s| number_arg(s, "score").ok()))
                    .map(|s| s as i64)
            })
            .collect();
        Ok(rank.order(&map, &dests, &scores))
    };
    let ranked = rank.map(|r| move || order(r));
    let ranked = ranked.as_ref().map(|f| f as &dyn Fn() -> Rr<Vec<usize>>);
    // What a person is shown: each destination's way there and the other sides' units next to it.
    let shown = |w: &World, labels: Vec<String>| {
        let map = w.map();
        let near = moves::Neighbours::of(w.state(), side);
        let mut choices: Vec<Choice> = dests
            .iter()
            .map(|d| {
                let steps = reach
                    .route_to(d.hex)
                    .map_or(0, |r| r.len().saturating_sub(1));
                Choice {
                    label: moves::label(&ids.id(map, d.hex), &prefix, d),
                    detail: moves::detail(map, d, steps, &near),
                    hex: Some(d.hex),
                }
            })
            .collect();
        let extra_labels = labels.into_iter().skip(dests.len()).collect();
        choices.extend(shown_options(w, &extras, extra_labels).choices);
        Shown {
            choices,
            focus: Some(start),
        }
    };
    let (index, mut chosen) = choose_among(ctx, g, side, kind, n, &option, ranked, &shown)?;
    // The way there, for rules that act on every hex passed (occupation, fire on the move).
    if let Some(d) = dests.get(index) {
        let route = reach.route_to(d.hex).unwrap_or_default();
        let route: Array = {
            let mut w = g.0.borrow_mut();
            w.note_route(&route);
            route.into_iter().map(|h| w.hex_id(h).into()).collect()
        };
        if let Some(mut m) = chosen.write_lock::<RMap>() {
            m.insert("route".into(), route.into());
        }
    }
    Ok(chosen)
}
