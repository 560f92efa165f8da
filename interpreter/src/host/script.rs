//! The Rhai host: the engine every ruleset runs on, its limits, the module
//! resolver that lets scripts `import` from `rulesets/`, and the API scripts
//! use to read and change the game.
//!
//! Scripts receive the game as `game` and call methods on it:
//! `game.roll("d6")`, `game.move_to(unit, "0203")`, `game.lookup("crt", "3-1", roll, 0)`,
//! `game.choose(side, "attack", options)`. Hexes are printed ids (strings);
//! units are ids. The full list is in `docs/script-api.md`.

use crate::error::{Error, Location};
use crate::geom::hex::Hex;
use crate::geom::los::Verdict;
use crate::geom::search::{self, MoveLimits};
use crate::ruleset::Limits;
use crate::table::{Cell, ColumnKey, Outcome, RowQuery};
use crate::value::Value;
use crate::world::decide::{choose, choose_among};
use crate::world::moves;
use crate::world::{fail, GameHandle, Rr, World};
use rhai::module_resolvers::FileModuleResolver;
use rhai::{
    Array, Dynamic, Engine, EvalAltResult, FnPtr, Map as RMap, Module, ModuleResolver,
    NativeCallContext, Position, Shared, FLOAT, INT,
};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

/// Turns a script error into an engine error naming the script file, line and
/// column where it happened, and the chain of calls that led there.
/// `called` is the function the engine called; `source_of` names the file
/// that defines a function (merged scripts lose their own file names).
#[must_use]
pub fn script_error(
    err: &EvalAltResult,
    called: &str,
    source_of: &dyn Fn(&str) -> Option<PathBuf>,
) -> Error {
    // `called` is empty for an expression evaluated on its own (an example's `eval` step).
    let mut calls: Vec<String> = [called.to_string()]
        .into_iter()
        .filter(|c| !c.is_empty())
        .collect();
    let mut e = err;
    while let EvalAltResult::ErrorInFunctionCall(name, _, inner, _) = e {
        calls.push(name.clone());
        e = inner;
    }
    // The innermost function is where the error happened.
    let source = calls
        .iter()
        .rev()
        .find_map(|f| source_of(f))
        .map(|p| p.to_string_lossy().to_string())
        .unwrap_or_default();
    calls.reverse();
    let pos = e.position();
    let mut message = match e {
        EvalAltResult::ErrorRuntime(v, _) => v.to_string(),
        EvalAltResult::ErrorTooManyOperations(_) => {
            "the script ran past its operations limit (a loop that never ends?); raise `limits.operations` in ruleset.ron if the work is real".to_string()
        }
        EvalAltResult::ErrorStackOverflow(_) => {
            "the script called functions too deeply (endless recursion?); the limit is `limits.call_depth` in ruleset.ron".to_string()
        }
        other => other.to_string().split(" (line").next().unwrap_or_default().to_string(),
    };
    // The engine is built without closures (about 7 % faster): an anonymous function sees only
    // its parameters, and a captured name reads as an unknown variable.
    let in_anonymous = calls.first().is_some_and(|f| f.starts_with("anon$"));
    if in_anonymous && matches!(e, EvalAltResult::ErrorVariableNotFound(..)) {
        message.push_str(
            " (anonymous functions cannot see the variables around them: pass the value as a parameter, or write a loop)",
        );
    }
    if !calls.is_empty() {
        message = format!("{message} (in {})", calls.join(" <- "));
    }
    if source.is_empty() && pos.is_none() {
        return Error::rules(format!("script error: {message}"));
    }
    let file = if source.is_empty() {
        PathBuf::from(if called.is_empty() {
            "<expression>"
        } else {
            "<script>"
        })
    } else {
        PathBuf::from(source)
    };
    Error::at(
        Location::new(file, pos.line().unwrap_or(0), pos.position().unwrap_or(0)),
        message,
    )
}

/// Resolves `import "blind_swords/fire"` inside the `rulesets/` folder only:
/// no absolute paths, no `..`, so scripts cannot read other files.
struct RulesetResolver {
    inner: FileModuleResolver,
}

impl ModuleResolver for RulesetResolver {
    fn resolve(
        &self,
        engine: &Engine,
        source: Option<&str>,
        path: &str,
        pos: Position,
    ) -> Rr<Shared<Module>> {
        let p = Path::new(path);
        if p.is_absolute() || p.components().any(|c| !matches!(c, Component::Normal(_))) {
            return Err(format!("import `{path}`: scripts may import only from inside rulesets/ (no absolute paths, no `..`)").into());
        }
        // Imports name paths from the rulesets folder, whichever script imports.
        let _ = source;
        self.inner.resolve(engine, None, path, pos)
    }
}

thread_local! {
    /// Script operations run on this thread while counting is on (see [`count_operations`]).
    static OPERATIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Makes `engine` count the script operations it runs (what Rhai's operations limit counts:
/// statements, expression steps and calls), for `muster play --profile`. Unlike times, the
/// counts are the same on any machine and any load. Counting costs about 2 % of a game, so
/// only profiling runs turn it on.
pub fn count_operations(engine: &mut Engine) {
    engine.on_progress(|_| {
        OPERATIONS.with(|c| c.set(c.get() + 1));
        None
    });
}

/// The script operations counted on this thread so far (0 unless an engine counts them).
#[must_use]
pub fn operations() -> u64 {
    OPERATIONS.with(std::cell::Cell::get)
}

/// Builds the engine for a ruleset: limits, the import resolver and the API.
#[must_use]
pub fn build_engine(limits: &Limits, rulesets_dir: &Path) -> Engine {
    let mut engine = Engine::new();
    // Scripts are compiled once and run many times: fold what can be folded. Every API
    // function takes the game, so no call with side effects is folded away.
    engine.set_optimization_level(rhai::OptimizationLevel::Full);
    engine.set_max_operations(limits.operations);
    engine.set_max_call_levels(limits.call_depth);
    engine.set_max_expr_depths(128, 64);
    engine.set_max_string_size(limits.string_size);
    engine.set_max_array_size(limits.array_size);
    engine.set_max_map_size(limits.map_size);
    engine.set_max_modules(64);
    // Rhai interns strings assigned to variables to save memory, hashing each one; the
    // hashing cost about 3 % of a whole game, the memory a few kilobytes.
    engine.set_max_strings_interned(0);
    engine.disable_symbol("eval");
    engine.set_module_resolver(RulesetResolver {
        inner: FileModuleResolver::new_with_path_and_extension(rulesets_dir, "rhai"),
    });
    // Scripts print through the log, not straight to the terminal.
    engine.on_print(|_| {});
    register_api(&mut engine);
    engine
}

impl World {
    /// The hexes of a script's list. An entry may be a hex id, a [`HexSet`] or
    /// another list, so a script joins lists by nesting them (`[enemies, [train]]`)
    /// instead of copying them into one.
    fn hexes(&self, ids: &Array) -> Rr<Vec<Hex>> {
        let mut out = Vec::with_capacity(ids.len());
        self.push_hexes(ids, &mut out)?;
        Ok(out)
    }

    fn push_hexes(&self, ids: &Array, out: &mut Vec<Hex>) -> Rr<()> {
        for d in ids {
            if let Ok(id) = d.as_immutable_string_ref() {
                out.push(self.hex(&id)?);
            } else if let Some(set) = d.read_lock::<HexSet>() {
                out.extend_from_slice(set.hexes.list());
            } else if let Some(list) = d.read_lock::<Array>() {
                self.push_hexes(&list, out)?;
            } else {
                return fail(format!(
                    "a list of hexes holds hex ids, hex sets or lists, not {}",
                    d.type_name()
                ));
            }
        }
        Ok(())
    }
}

fn to_value(d: &Dynamic) -> Rr<Value> {
    Value::from_dynamic(d).map_err(Into::into)
}

/// An outcome as a script map: `kind` is one of nothing, number, code,
/// sided, both, choice, optional.
fn outcome_map(o: &Outcome) -> Dynamic {
    let mut m = RMap::new();
    m.insert("text".into(), o.to_string().into());
    let parts = |v: &[Outcome]| Dynamic::from_array(v.iter().map(outcome_map).collect());
    let kind = match o {
        Outcome::Nothing => "nothing",
        Outcome::Number(n) => {
            m.insert("value".into(), Dynamic::from_int(*n));
            "number"
        }
        Outcome::Code(c) => {
            m.insert("name".into(), c.name.clone().into());
            m.insert("count".into(), Dynamic::from_int(c.count.unwrap_or(1)));
            m.insert(
                "number".into(),
                c.number.map_or(Dynamic::UNIT, Dynamic::from_int),
            );
            m.insert("star".into(), Dynamic::from_bool(c.star));
            "code"
        }
        Outcome::Sided(s, inner) => {
            m.insert("side".into(), s.clone().into());
            m.insert("result".into(), outcome_map(inner));
            "sided"
        }
        Outcome::Both(v) => {
            m.insert("parts".into(), parts(v));
            "both"
        }
        Outcome::Choice(v) => {
            m.insert("parts".into(), parts(v));
            "choice"
        }
        Outcome::Optional(a, b) => {
            m.insert("parts".into(), parts(&[(**a).clone(), (**b).clone()]));
            "optional"
        }
        Outcome::Range(lo, hi) => {
            m.insert("from".into(), Dynamic::from_int(*lo));
            m.insert("to".into(), Dynamic::from_int(*hi));
            "range"
        }
        Outcome::Bands(v) => {
            m.insert("parts".into(), parts(v));
            "bands"
        }
    };
    m.insert("kind".into(), kind.into());
    Dynamic::from_map(m)
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
        let v = w.los.evaluate(&w.map, a, b, |h| w.state.occupied(h));
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

/// A column asked for by a script: a number (value) or text (label).
fn column_arg(d: &Dynamic) -> Rr<Result<f64, String>> {
    if let Ok(i) = d.as_int() {
        return Ok(Ok(i as f64));
    }
    if let Ok(f) = d.as_float() {
        return Ok(Ok(f));
    }
    if d.is_string() {
        return Ok(Err(d.to_string()));
    }
    fail(format!(
        "a column is a label or a number, not `{}`",
        d.type_name()
    ))
}

fn column_key(c: &Result<f64, String>) -> ColumnKey<'_> {
    match c {
        Ok(v) => ColumnKey::Value(*v),
        Err(l) => ColumnKey::Label(l),
    }
}

/// A row asked for by a script: a roll (number) or a key (text).
fn row_arg(d: &Dynamic) -> Rr<Result<i64, String>> {
    if let Ok(i) = d.as_int() {
        return Ok(Ok(i));
    }
    if d.is_string() {
        return Ok(Err(d.to_string()));
    }
    fail(format!("a row is a roll or a key, not `{}`", d.type_name()))
}

fn lookup(w: &World, table: &str, col: &Dynamic, row: &Dynamic, shift: INT) -> Rr<Dynamic> {
    let grid = w.ruleset.tables.grid(table).map_err(|e| e.to_string())?;
    let col = column_arg(col)?;
    let row = row_arg(row)?;
    let rq = match &row {
        Ok(n) => RowQuery::Roll(*n),
        Err(k) => RowQuery::Key(k),
    };
    let (label, cell) = grid
        .lookup(table, &column_key(&col), shift, &rq)
        .map_err(|e| e.to_string())?;
    let mut m: RMap = match cell {
        Cell::Result(o) => outcome_map(o).cast(),
        Cell::Text(t) => {
            let mut m = RMap::new();
            m.insert("kind".into(), "text".into());
            m.insert("text".into(), t.clone().into());
            m
        }
    };
    m.insert("column".into(), label.to_string().into());
    Ok(Dynamic::from_map(m))
}

/// A set of hexes held in Rust (`game.hexset(list)`): cheap to pass from
/// script function to function (a shared pointer, where an array is copied)
/// and accepted wherever the search and move calls take a list of hexes.
#[derive(Clone)]
pub struct HexSet {
    hexes: Rc<crate::geom::map::HexGroup>,
    map: Rc<crate::geom::map::Map>,
}

/// A script's list of hexes as a [`crate::geom::map::HexGroup`]: a hex set's own (shared, with
/// what it has measured), or a new one.
fn hex_group(w: &World, d: &Dynamic, what: &str) -> Rr<Rc<crate::geom::map::HexGroup>> {
    if let Some(set) = d.read_lock::<HexSet>() {
        return Ok(set.hexes.clone());
    }
    Ok(Rc::new(crate::geom::map::HexGroup::new(hex_list(
        w, d, what,
    )?)))
}

/// A list of hexes from a script: an array of ids or a [`HexSet`].
fn hex_list(w: &World, d: &Dynamic, what: &str) -> Rr<Vec<Hex>> {
    if let Some(set) = d.read_lock::<HexSet>() {
        return Ok(set.hexes.list().to_vec());
    }
    match d.read_lock::<Array>() {
        Some(a) => w.hexes(&a),
        None => fail(format!(
            "{what} must be a list of hex ids or a hex set, not {}",
            d.type_name()
        )),
    }
}

/// A number a script passed as INT or FLOAT.
fn number_arg(d: &Dynamic, what: &str) -> Rr<FLOAT> {
    d.as_float()
        .or_else(|_| d.as_int().map(|i| i as FLOAT))
        .or_else(|t| fail(format!("{what} must be a number, not {t}")))
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
    Ok(Rc::new(move_rank(&w.0.borrow(), r)?))
}

/// The bot's wish for a move (`choice.rank`), read into a [`moves::Rank`].
fn move_rank(w: &World, d: &Dynamic) -> Rr<moves::Rank> {
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
                        rank.terrain.push((w.map.tag_mask(&tags), points));
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
    profile: &str,
    mp: &Dynamic,
    limits: &RMap,
    choice: &RMap,
) -> Rr<Dynamic> {
    for k in choice.keys() {
        if ![
            "stay",
            "exclude",
            "exclude_terrain",
            "extra",
            "fields",
            "label",
            "rank",
        ]
        .contains(&k.as_str())
        {
            return fail(format!(
                "unknown move choice key `{k}` (stay, exclude, exclude_terrain, extra, fields, label, rank)"
            ));
        }
    }
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
    let (map, dests, reach) = {
        let w = g.0.borrow();
        let lim = move_limits(&w, number_arg(mp, "mp")?, limits)?;
        let start = w.hex(from)?;
        let reach = search::reachable(&w.map, w.profile(profile)?, start, &lim);
        let mut tags: Vec<String> = Vec::new();
        with_array("exclude_terrain", &mut |a| {
            tags = a.iter().map(ToString::to_string).collect();
            Ok(())
        })?;
        let mut exclude = Vec::new();
        with_array("exclude", &mut |a| w.push_hexes(a, &mut exclude))?;
        let filter = moves::Filter {
            stay: choice
                .get("stay")
                .and_then(|d| d.as_bool().ok())
                .unwrap_or(true),
            exclude: exclude.into_iter().collect(),
            exclude_terrain: w.map.tag_mask(&tags),
        };
        let dests = moves::destinations(&w.map, start, &reach.costs, &filter);
        (w.map.clone(), dests, reach)
    };
    let option = |i: usize| -> Dynamic {
        if i >= dests.len() {
            return extras[i - dests.len()].clone();
        }
        let d = &dests[i];
        let mut m = fields.clone();
        m.insert("kind".into(), (if d.stay { "stay" } else { "move" }).into());
        m.insert("hex".into(), map.id(d.hex).into());
        m.insert("cost".into(), Dynamic::from_float(d.cost));
        m.insert("label".into(), moves::label(&map, &prefix, d).into());
        Dynamic::from_map(m)
    };
    let n = dests.len() + extras.len();
    // `rank: ()` is no rank, so a script can build the choice in one literal for bots and others.
    let rank = choice.get("rank").filter(|r| !r.is_unit());
    let best = |r: &Dynamic| -> Rr<usize> {
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
        Ok(rank.best(&map, &dests, &scores))
    };
    let ranked = rank.map(|r| move || best(r));
    let ranked = ranked.as_ref().map(|f| f as &dyn Fn() -> Rr<usize>);
    let (index, mut chosen) = choose_among(ctx, g, side, kind, n, &option, ranked)?;
    // The way there, for rules that act on every hex passed (occupation, fire on the move).
    if let Some(d) = dests.get(index) {
        let route = reach.route_to(d.hex).unwrap_or_default();
        let route: Array = {
            let w = g.0.borrow();
            route.into_iter().map(|h| w.hex_id(h).into()).collect()
        };
        if let Some(mut m) = chosen.write_lock::<RMap>() {
            m.insert("route".into(), route.into());
        }
    }
    Ok(chosen)
}

/// The most values `minimal_sets` takes: it looks at every subset, 2^n of them.
const MINIMAL_SETS_MAX: usize = 20;

/// The keys of `m` whose value, a number, exceeds `limit`; other values never do.
fn keys_over(m: &RMap, limit: FLOAT) -> Array {
    m.iter()
        .filter(|(_, v)| {
            v.as_float()
                .ok()
                .or_else(|| v.as_int().ok().map(|i| i as FLOAT))
                .is_some_and(|x| x > limit)
        })
        .map(|(k, _)| Dynamic::from(rhai::ImmutableString::from(k.as_str())))
        .collect()
}

/// `game.minimal_sets(values, needed)`: every set of positions in `values` whose values sum to
/// at least `needed` and from which no one position could be dropped (losses that must reach a
/// total, say), as lists of positions. Sets come in the order of the bit masks that name them
/// (the set with position 0 alone first), positions within a set in ascending order.
fn minimal_sets(values: &Array, needed: &Dynamic) -> Rr<Array> {
    if values.len() > MINIMAL_SETS_MAX {
        return fail(format!(
            "minimal_sets takes at most {MINIMAL_SETS_MAX} values, not {}",
            values.len()
        ));
    }
    let values = values
        .iter()
        .map(|v| number_arg(v, "a value"))
        .collect::<Rr<Vec<FLOAT>>>()?;
    let needed = number_arg(needed, "`needed`")?;
    let mut out = Array::new();
    for mask in 1u32..(1 << values.len()) {
        let members = (0..values.len()).filter(|i| mask >> i & 1 == 1);
        let sum: FLOAT = members.clone().map(|i| values[i]).sum();
        if sum < needed || members.clone().any(|i| sum - values[i] >= needed) {
            continue;
        }
        out.push(Dynamic::from_array(
            members.map(|i| Dynamic::from_int(i as INT)).collect(),
        ));
    }
    Ok(out)
}

/// Text or a list of text from a script (`kind: "gun"` or `kind: ["gun", "train"]`), shared
/// with the script rather than copied.
fn text_list(d: &Dynamic, key: &str) -> Rr<Vec<rhai::ImmutableString>> {
    if let Some(s) = d.read_lock::<rhai::ImmutableString>() {
        return Ok(vec![s.clone()]);
    }
    match d.read_lock::<Array>() {
        Some(a) => a.iter().map(|t| shared_text(t, key)).collect(),
        None => fail(format!(
            "`{key}` must be text or a list of text, not {}",
            d.type_name()
        )),
    }
}

/// A script's text, shared rather than copied.
fn shared_text(d: &Dynamic, key: &str) -> Rr<rhai::ImmutableString> {
    match d.read_lock::<rhai::ImmutableString>() {
        Some(s) => Ok(s.clone()),
        None => fail(format!("`{key}` must be text, not {}", d.type_name())),
    }
}

/// A hex id from a script's value, read in place (a hex id the core handed out is then found by
/// the address of its text, without parsing).
fn hex_arg(w: &World, d: &Dynamic, key: &str) -> Rr<Hex> {
    match d.as_immutable_string_ref() {
        Ok(id) => w.hex(&id),
        Err(t) => fail(format!("`{key}` must be a hex id, not {t}")),
    }
}

/// A unit filter from a script's map (see [`crate::world::query`]).
fn unit_filter(w: &World, m: &RMap) -> Rr<crate::world::query::UnitFilter> {
    let mut f = crate::world::query::UnitFilter::default();
    let mut within = 1;
    let mut near = None;
    for (k, v) in m.iter() {
        match k.as_str() {
            "side" => f.side = Some(shared_text(v, "side")?),
            "not_side" => f.not_side = Some(shared_text(v, "not_side")?),
            "at" => f.at = Some(hex_arg(w, v, "at")?),
            "near" => near = Some(hex_arg(w, v, "near")?),
            "within" => within = number_arg(v, "`within`")?.max(0.0) as u32,
            "in" => f.in_any = Some(also(f.in_any.take(), hex_list(w, v, "`in`")?)),
            "zone_over" => {
                let h = hex_arg(w, v, "zone_over")?;
                f.in_any = Some(also(f.in_any.take(), w.zone_sources(h)));
            }
            "on_map" => f.on_map = Some(v.as_bool().or_else(|t| fail(format!("`on_map` must be true or false, not {t}")))?),
            "kind" => f.kind = text_list(v, "kind")?,
            "kind_not" => f.kind_not = text_list(v, "kind_not")?,
            "has" => f.has = text_list(v, "has")?,
            "lacks" => f.lacks = text_list(v, "lacks")?,
            "face" => f.face = Some(shared_text(v, "face")?),
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
                    "unknown unit filter key `{other}` (side, not_side, at, near, within, in, zone_over, on_map, kind, kind_not, has, lacks, face, props)"
                ))
            }
        }
    }
    f.near = near.map(|h| (h, within));
    Ok(f)
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
    units: impl IntoIterator<Item = &'a crate::world::state::Unit>,
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
fn describe_unit(w: &World, u: &crate::world::state::Unit, template: &str) -> String {
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

fn move_limits(w: &World, mp: FLOAT, opts: &RMap) -> Rr<MoveLimits> {
    let set = |key: &str| -> Rr<Vec<Hex>> {
        match opts.get(key) {
            None => Ok(Vec::new()),
            Some(d) => hex_list(w, d, &format!("option `{key}`")),
        }
    };
    for k in opts.keys() {
        if !["blocked", "stop", "minimum_one_hex", "extra", "plain"].contains(&k.as_str()) {
            return fail(format!(
                "unknown movement option `{k}` (blocked, stop, minimum_one_hex, extra, plain)"
            ));
        }
    }
    let mut extra = HashMap::default();
    if let Some(d) = opts.get("extra") {
        let Some(m) = d.read_lock::<RMap>() else {
            return fail("option `extra` must be a map of hex id to MP".to_string());
        };
        for (h, v) in m.iter() {
            let mp = v
                .as_float()
                .or_else(|_| v.as_int().map(|i| i as FLOAT))
                .map_err(|t| format!("option `extra`: MP for {h} must be a number, not {t}"))?;
            extra.insert(w.hex(h)?, mp);
        }
    }
    Ok(MoveLimits {
        mp,
        blocked: set("blocked")?,
        stop: set("stop")?,
        minimum_one_hex: opts
            .get("minimum_one_hex")
            .and_then(|d| d.as_bool().ok())
            .unwrap_or(false),
        extra,
        plain: set("plain")?,
    })
}

/// The hexes a unit at `hex` can reach with `mp`, and the least cost of each.
fn reachable(w: &World, hex: &str, profile: &str, mp: FLOAT, opts: &RMap) -> Rr<RMap> {
    let limits = move_limits(w, mp, opts)?;
    let costs = search::reachable(&w.map, w.profile(profile)?, w.hex(hex)?, &limits).costs;
    Ok(costs
        .into_iter()
        .map(|(h, c)| (w.map.id(h).into(), Dynamic::from_float(c)))
        .collect())
}

/// The route the movement search takes from `hex` to `to` (both included),
/// or an empty array if `to` cannot be reached.
fn route(w: &World, hex: &str, to: &str, profile: &str, mp: FLOAT, opts: &RMap) -> Rr<Array> {
    let limits = move_limits(w, mp, opts)?;
    let (start, goal) = (w.hex(hex)?, w.hex(to)?);
    let reach = search::reachable(&w.map, w.profile(profile)?, start, &limits);
    Ok(reach.route_to(goal).map(|r| w.ids(r)).unwrap_or_default())
}

/// Registers the whole script API on the engine.
#[allow(clippy::too_many_lines)]
fn register_api(engine: &mut Engine) {
    engine.register_type_with_name::<GameHandle>("Game");
    register_state_api(engine);
    register_unit_api(engine);
    register_map_api(engine);
    register_rules_api(engine);
    register_fast_contains(engine);
}

/// `list.contains(x)` and `x in list` for a text or an integer `x`, compared in Rust.
///
/// Rhai's own `contains` calls the `==` operator through the engine for every
/// element, which made it the costliest single function in a whole game (lists
/// of hex ids are searched constantly). Registered for exact argument types, these
/// take precedence over the generic version and answer as `==` does: text equals a
/// character of the same text, an integer equals a float of the same value, other
/// types are unequal.
fn register_fast_contains(engine: &mut Engine) {
    engine.register_fn("contains", |list: &mut Array, x: rhai::ImmutableString| {
        list.iter().any(|d| match d.as_immutable_string_ref() {
            Ok(s) => *s == x,
            Err(_) => d.as_char().is_ok_and(|c| {
                let mut buf = [0u8; 4];
                *c.encode_utf8(&mut buf) == *x
            }),
        })
    });
    engine.register_fn("contains", |list: &mut Array, x: INT| {
        list.iter().any(|d| match d.as_int() {
            Ok(i) => i == x,
            Err(_) => d.as_float().is_ok_and(|f| f == x as FLOAT),
        })
    });
}

fn register_state_api(engine: &mut Engine) {
    engine.register_get("turn", |g: &mut GameHandle| g.0.borrow().state.turn);
    engine.register_get("last_turn", |g: &mut GameHandle| {
        g.0.borrow().state.last_turn
    });
    engine.register_fn("end_game", |g: &mut GameHandle| {
        g.0.borrow_mut().state.ended = true
    });
    engine.register_get("phase", |g: &mut GameHandle| {
        g.0.borrow().state.phase.clone()
    });
    engine.register_fn("set_phase", |g: &mut GameHandle, p: &str| {
        g.0.borrow_mut().state.phase = p.to_string()
    });
    engine.register_fn("sides", |g: &mut GameHandle| -> Array {
        g.0.borrow()
            .ruleset
            .sides
            .iter()
            .cloned()
            .map(Dynamic::from)
            .collect()
    });
    engine.register_fn(
        "other_side",
        |g: &mut GameHandle, side: &str| -> Rr<rhai::ImmutableString> {
            // The opponent in a two-sided game: one call for the helper every ruleset writes.
            let w = g.0.borrow();
            match w.ruleset.sides.as_slice() {
                [a, b] if a == side => Ok(b.as_str().into()),
                [a, b] if b == side => Ok(a.as_str().into()),
                [_, _] => fail(format!("`other_side`: no side `{side}`")),
                sides => fail(format!(
                    "`other_side` needs a game of two sides; this one has {}",
                    sides.len()
                )),
            }
        },
    );
    engine.register_fn("agent", |g: &mut GameHandle, side: &str| -> String {
        g.0.borrow()
            .agents
            .get(side)
            .map_or("", |a| a.name())
            .to_string()
    });
    engine.register_fn("track", |g: &mut GameHandle, name: &str| -> INT {
        g.0.borrow().state.tracks.get(name).copied().unwrap_or(0)
    });
    engine.register_fn("set_track", |g: &mut GameHandle, name: &str, v: INT| {
        g.0.borrow_mut().state.tracks.insert(name.to_string(), v);
    });
    engine.register_fn(
        "add_track",
        |g: &mut GameHandle, name: &str, v: INT| -> INT {
            let mut w = g.0.borrow_mut();
            let t = w.state.tracks.entry(name.to_string()).or_insert(0);
            *t += v;
            *t
        },
    );
    engine.register_fn("get", |g: &mut GameHandle, key: &str| -> Dynamic {
        g.0.borrow()
            .state
            .globals
            .get(key)
            .map_or(Dynamic::UNIT, Value::to_dynamic)
    });
    engine.register_fn(
        "set",
        |g: &mut GameHandle, key: &str, v: Dynamic| -> Rr<()> {
            let v = to_value(&v)?;
            g.0.borrow_mut().state.globals.insert(key.to_string(), v);
            Ok(())
        },
    );
    engine.register_fn(
        "get_at",
        |g: &mut GameHandle, key: &str, field: &str| -> Dynamic {
            // One entry of a map global, without copying the whole map into the script.
            match g.0.borrow().state.globals.get(key) {
                Some(Value::Map(m)) => m.get(field).map_or(Dynamic::UNIT, Value::to_dynamic),
                _ => Dynamic::UNIT,
            }
        },
    );
    engine.register_fn(
        "set_at",
        |g: &mut GameHandle, key: &str, field: &str, v: Dynamic| -> Rr<()> {
            let v = to_value(&v)?;
            let mut w = g.0.borrow_mut();
            match w.state.globals.get_mut(key) {
                Some(Value::Map(m)) => {
                    m.insert(field.to_string(), v);
                    Ok(())
                }
                None => {
                    let m = indexmap::IndexMap::from([(field.to_string(), v)]);
                    w.state.globals.insert(key.to_string(), Value::Map(m));
                    Ok(())
                }
                Some(_) => fail(format!("`set_at`: global `{key}` is not a map")),
            }
        },
    );
    engine.register_fn("option", |g: &mut GameHandle, key: &str| -> Dynamic {
        match g.0.borrow().state.globals.get("options") {
            Some(Value::Map(m)) => m.get(key).map_or(Dynamic::UNIT, Value::to_dynamic),
            _ => Dynamic::UNIT,
        }
    });
    // The common test of an on/off option, one call where `game.option(name) == true` is three
    // script steps.
    engine.register_fn("option_on", |g: &mut GameHandle, key: &str| -> bool {
        match g.0.borrow().state.globals.get("options") {
            Some(Value::Map(m)) => matches!(m.get(key), Some(Value::Bool(true))),
            _ => false,
        }
    });
    engine.register_fn("data", |g: &mut GameHandle, key: &str| -> Rr<Dynamic> {
        match g.0.borrow().ruleset.data.get(key) {
            Some(v) => Ok(v.to_dynamic()),
            None => fail(format!("the ruleset has no data `{key}`")),
        }
    });
    engine.register_fn(
        "side_get",
        |g: &mut GameHandle, side: &str, key: &str| -> Rr<Dynamic> {
            match g.0.borrow().state.sides.get(side) {
                Some(m) => Ok(m.get(key).map_or(Dynamic::UNIT, Value::to_dynamic)),
                None => fail(format!("no side `{side}`")),
            }
        },
    );
    engine.register_fn(
        "side_set",
        |g: &mut GameHandle, side: &str, key: &str, v: Dynamic| -> Rr<()> {
            let v = to_value(&v)?;
            match g.0.borrow_mut().state.sides.get_mut(side) {
                Some(m) => {
                    m.insert(key.to_string(), v);
                    Ok(())
                }
                None => fail(format!("no side `{side}`")),
            }
        },
    );
    // Decks and cups.
    engine.register_fn("deck", |g: &mut GameHandle, name: &str| -> Array {
        g.0.borrow()
            .state
            .decks
            .get(name)
            .map(|d| d.iter().cloned().map(Dynamic::from).collect())
            .unwrap_or_default()
    });
    engine.register_fn("put", |g: &mut GameHandle, name: &str, item: &str| {
        g.0.borrow_mut()
            .state
            .decks
            .entry(name.to_string())
            .or_default()
            .push(item.to_string());
    });
    engine.register_fn(
        "set_deck",
        |g: &mut GameHandle, name: &str, items: Array| -> Rr<()> {
            let items = items
                .iter()
                .map(|d| {
                    d.clone()
                        .into_string()
                        .map_err(|t| format!("a deck holds text, not {t}"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            g.0.borrow_mut().state.decks.insert(name.to_string(), items);
            Ok(())
        },
    );
    engine.register_fn(
        "take",
        |g: &mut GameHandle, name: &str, item: &str| -> bool {
            let mut w = g.0.borrow_mut();
            let deck = w.state.decks.entry(name.to_string()).or_default();
            match deck.iter().position(|x| x == item) {
                Some(i) => {
                    deck.remove(i);
                    true
                }
                None => false,
            }
        },
    );
    engine.register_fn("draw", |g: &mut GameHandle, name: &str| -> Rr<Dynamic> {
        let mut w = g.0.borrow_mut();
        let n = w.state.decks.get(name).map_or(0, Vec::len);
        if n == 0 {
            return Ok(Dynamic::UNIT);
        }
        // A worked example may force the draw; the item must be in the deck.
        let i = match w.forced_draws.pop_front() {
            Some(want) => w.state.decks[name]
                .iter()
                .position(|x| *x == want)
                .ok_or_else(|| format!("forced draw `{want}` is not in deck `{name}`"))?,
            None => w.dice.draw_index(n),
        };
        let item = w
            .state
            .decks
            .get_mut(name)
            .map(|d| d.remove(i))
            .unwrap_or_default();
        w.event("draw", format!("drew {item} from {name}"));
        Ok(item.into())
    });
    engine.register_fn("draw_top", |g: &mut GameHandle, name: &str| -> Dynamic {
        let mut w = g.0.borrow_mut();
        match w.state.decks.get_mut(name) {
            Some(d) if !d.is_empty() => d.remove(0).into(),
            _ => Dynamic::UNIT,
        }
    });
    engine.register_fn("shuffle", |g: &mut GameHandle, name: &str| {
        let mut w = g.0.borrow_mut();
        let mut deck = w.state.decks.shift_remove(name).unwrap_or_default();
        // Fisher–Yates on the game's own stream.
        for i in (1..deck.len()).rev() {
            let j = w.dice.draw_index(i + 1);
            deck.swap(i, j);
        }
        w.state.decks.insert(name.to_string(), deck);
    });
    // Log.
    engine.register_fn("log", |g: &mut GameHandle, text: &str| {
        g.0.borrow_mut().event("note", text.to_string())
    });
    engine.register_fn("event", |g: &mut GameHandle, kind: &str, text: &str| {
        g.0.borrow_mut().event(kind, text.to_string())
    });
    // Decisions.
    // Profiling aids for ruleset authors (`muster play --profile`): time spent between
    // `game.timer(name)` and `game.timer_end(name)`. Rules never see the times.
    engine.register_fn("timer", |g: &mut GameHandle, name: &str| {
        g.0.borrow_mut().timers.enter_at(name, operations());
    });
    engine.register_fn("timer_end", |g: &mut GameHandle, name: &str| {
        g.0.borrow_mut().timers.leave_at(name, operations());
    });
    engine.register_fn(
        "choose_move",
        |ctx: NativeCallContext,
         g: &mut GameHandle,
         side: &str,
         kind: &str,
         from: &str,
         profile: &str,
         mp: Dynamic,
         limits: RMap,
         choice: RMap|
         -> Rr<Dynamic> {
            choose_move(&ctx, g, side, kind, from, profile, &mp, &limits, &choice)
        },
    );
    engine.register_fn(
        "choose",
        |ctx: NativeCallContext,
         g: &mut GameHandle,
         side: &str,
         kind: &str,
         options: Array|
         -> Rr<Dynamic> { choose(&ctx, g, side, kind, options) },
    );
}

/// The ids of these units, as a script's list.
fn ids_of<'a>(units: impl Iterator<Item = &'a crate::world::state::Unit>) -> Array {
    units.map(|u| Dynamic::from(u.id.clone())).collect()
}

fn register_unit_api(engine: &mut Engine) {
    engine.register_fn("units", |g: &mut GameHandle| -> Array {
        g.0.borrow()
            .state
            .units
            .keys()
            .cloned()
            .map(Dynamic::from)
            .collect()
    });
    engine.register_fn("units_of", |g: &mut GameHandle, side: &str| -> Array {
        ids_of(g.0.borrow().state.units.values().filter(|u| u.side == side))
    });
    engine.register_fn("units_at", |g: &mut GameHandle, hex: &str| -> Rr<Array> {
        let w = g.0.borrow();
        let h = w.hex(hex)?;
        Ok(ids_of(w.state.units_at(h)))
    });
    engine.register_fn(
        "units_where",
        |g: &mut GameHandle, filter: RMap| -> Rr<Array> {
            let w = g.0.borrow();
            let f = unit_filter(&w, &filter)?;
            Ok(ids_of(w.state.units.values().filter(|u| f.accepts(u))))
        },
    );
    engine.register_fn(
        "hexes_where",
        |g: &mut GameHandle, filter: RMap| -> Rr<Array> {
            let w = g.0.borrow();
            let f = unit_filter(&w, &filter)?;
            let mut seen: crate::world::state::FxIndexSet<Hex> =
                crate::world::state::FxIndexSet::with_capacity_and_hasher(
                    w.state.units.len(),
                    rustc_hash::FxBuildHasher,
                );
            for u in w.state.units.values() {
                if let Some(h) = u.location.filter(|_| f.accepts(u)) {
                    seen.insert(h);
                }
            }
            Ok(seen.into_iter().map(|h| w.hex_id(h).into()).collect())
        },
    );
    engine.register_fn(
        "prop_sums",
        |g: &mut GameHandle, filter: RMap, prop: &str| -> Rr<RMap> {
            // Per hex, the sum of a numeric property over the units on the map that match the
            // filter (stacking values, say). Units without the property count 0.
            let w = g.0.borrow();
            let f = unit_filter(&w, &filter)?;
            let mut sums: crate::world::state::FxIndexMap<Hex, FLOAT> =
                crate::world::state::FxIndexMap::with_capacity_and_hasher(
                    w.state.units.len(),
                    rustc_hash::FxBuildHasher,
                );
            for u in w.state.units.values() {
                let Some(h) = u.location.filter(|_| f.accepts(u)) else {
                    continue;
                };
                *sums.entry(h).or_default() += crate::world::query::unit_number(u, prop);
            }
            Ok(sums
                .into_iter()
                .map(|(h, v)| (w.map.id(h).into(), Dynamic::from_float(v)))
                .collect())
        },
    );
    engine.register_fn(
        "sum_where",
        |g: &mut GameHandle, filter: RMap, field: &str| -> Rr<FLOAT> {
            // The sum of `strength`, `rating` or a numeric property over the matching units.
            let w = g.0.borrow();
            let f = unit_filter(&w, &filter)?;
            Ok(w.state
                .units
                .values()
                .filter(|u| f.accepts(u))
                .map(|u| crate::world::query::unit_number(u, field))
                .sum())
        },
    );
    engine.register_fn(
        "count_where",
        |g: &mut GameHandle, filter: RMap| -> Rr<INT> {
            let w = g.0.borrow();
            let f = unit_filter(&w, &filter)?;
            Ok(w.state.units.values().filter(|u| f.accepts(u)).count() as INT)
        },
    );
    engine.register_fn("units_on_map", |g: &mut GameHandle, side: &str| -> Array {
        ids_of(
            g.0.borrow()
                .state
                .units
                .values()
                .filter(|u| u.side == side && u.location.is_some()),
        )
    });
    engine.register_fn("occupancy", |g: &mut GameHandle, side: &str| -> RMap {
        let w = g.0.borrow();
        w.stack_counts(side)
            .into_iter()
            .map(|(h, n)| (w.map.id(h).into(), Dynamic::from_int(n)))
            .collect()
    });
    engine.register_fn(
        "occupied_hexes",
        |g: &mut GameHandle, side: &str| -> Array {
            let w = g.0.borrow();
            let mut seen = Vec::with_capacity(w.state.units.len());
            for u in w.state.units.values() {
                if let Some(h) = u.location.filter(|_| u.side == side) {
                    if !seen.contains(&h) {
                        seen.push(h);
                    }
                }
            }
            w.ids(seen)
        },
    );
    engine.register_fn("has_unit", |g: &mut GameHandle, id: &str| {
        g.0.borrow().state.units.contains_key(id)
    });
    engine.register_fn("unit", |g: &mut GameHandle, id: &str| -> Rr<Dynamic> {
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
    });
    macro_rules! getter {
        ($name:literal, $t:ty, |$u:ident| $e:expr) => {
            engine.register_fn($name, |g: &mut GameHandle, id: &str| -> Rr<$t> {
                let w = g.0.borrow();
                let $u = w.unit_ref(id)?;
                Ok($e)
            });
        };
    }
    engine.register_fn(
        "describe",
        |g: &mut GameHandle, units: Array, template: &str, separator: &str| -> Rr<String> {
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
        },
    );
    engine.register_fn(
        "describe",
        |g: &mut GameHandle, unit: &str, template: &str, _separator: &str| -> Rr<String> {
            // One unit by its id: a move's label, without a list made for it.
            let w = g.0.borrow();
            Ok(describe_unit(&w, w.unit_ref(unit)?, template))
        },
    );
    engine.register_fn(
        "describe",
        |g: &mut GameHandle, filter: RMap, template: &str, separator: &str| -> Rr<String> {
            // The units a query finds, described without handing their ids to the script first
            // (a combat's labels name the defenders of each target).
            let w = g.0.borrow();
            let f = unit_filter(&w, &filter)?;
            let units = w.state.units.values().filter(|u| f.accepts(u));
            Ok(describe_units(&w, units, template, separator))
        },
    );
    // Text comes back as a script string made from the unit's text in one step (a `String`
    // would be copied, then turned into a script string).
    getter!("name", rhai::ImmutableString, |u| u.name.as_str().into());
    getter!("side_of", rhai::ImmutableString, |u| u.side.as_str().into());
    getter!("kind", rhai::ImmutableString, |u| u.kind.as_str().into());
    getter!("strength", INT, |u| u.strength);
    getter!("rating", INT, |u| u.rating);
    getter!("face", rhai::ImmutableString, |u| u.face.as_str().into());
    getter!("facing", INT, |u| u.facing.map_or(-1, INT::from));
    getter!("on_map", bool, |u| u.location.is_some());
    getter!("markers", Array, |u| u
        .markers
        .iter()
        .cloned()
        .map(Dynamic::from)
        .collect());
    engine.register_fn(
        "location",
        |g: &mut GameHandle, id: &str| -> Rr<rhai::ImmutableString> {
            let w = g.0.borrow();
            w.location_id(id)
        },
    );
    engine.register_fn("locations", |g: &mut GameHandle, ids: Array| -> Rr<Array> {
        // Each unit's hex in order ("" off the map): one call for a loop of `location`.
        let w = g.0.borrow();
        ids.iter()
            .map(|d| {
                let id = d
                    .as_immutable_string_ref()
                    .map_err(|t| format!("`locations` takes unit ids, not {t}"))?;
                w.location_id(&id).map(Dynamic::from)
            })
            .collect()
    });
    engine.register_fn(
        "set_strength",
        |g: &mut GameHandle, id: &str, v: INT| -> Rr<()> {
            g.0.borrow_mut().unit_mut(id)?.strength = v;
            Ok(())
        },
    );
    engine.register_fn(
        "set_rating",
        |g: &mut GameHandle, id: &str, v: INT| -> Rr<()> {
            g.0.borrow_mut().unit_mut(id)?.rating = v;
            Ok(())
        },
    );
    engine.register_fn(
        "set_face",
        |g: &mut GameHandle, id: &str, v: &str| -> Rr<()> {
            g.0.borrow_mut().unit_mut(id)?.face = v.to_string();
            Ok(())
        },
    );
    engine.register_fn(
        "set_facing",
        |g: &mut GameHandle, id: &str, v: INT| -> Rr<()> {
            g.0.borrow_mut().unit_mut(id)?.facing = Some(v.rem_euclid(6) as u8);
            Ok(())
        },
    );
    engine.register_fn(
        "move_to",
        |g: &mut GameHandle, id: &str, hex: &str| -> Rr<()> {
            let mut w = g.0.borrow_mut();
            let h = w.hex(hex)?;
            w.unit_mut(id)?.location = Some(h);
            Ok(())
        },
    );
    engine.register_fn("remove", |g: &mut GameHandle, id: &str| -> Rr<()> {
        g.0.borrow_mut().unit_mut(id)?.location = None;
        Ok(())
    });
    engine.register_fn(
        "prop",
        |g: &mut GameHandle, id: &str, key: &str| -> Rr<Dynamic> {
            let w = g.0.borrow();
            Ok(w.unit_ref(id)?
                .props
                .get(key)
                .map_or(Dynamic::UNIT, Value::to_dynamic))
        },
    );
    engine.register_fn(
        "set_prop",
        |g: &mut GameHandle, id: &str, key: &str, v: Dynamic| -> Rr<()> {
            let v = to_value(&v)?;
            g.0.borrow_mut()
                .unit_mut(id)?
                .props
                .insert(key.to_string(), v);
            Ok(())
        },
    );
    engine.register_fn(
        "has_marker",
        |g: &mut GameHandle, id: &str, m: &str| -> Rr<bool> {
            Ok(g.0.borrow().unit_ref(id)?.markers.contains(m))
        },
    );
    engine.register_fn(
        "add_marker",
        |g: &mut GameHandle, id: &str, m: &str| -> Rr<()> {
            g.0.borrow_mut().unit_mut(id)?.markers.insert(m.to_string());
            Ok(())
        },
    );
    engine.register_fn(
        "remove_marker",
        |g: &mut GameHandle, id: &str, m: &str| -> Rr<bool> {
            Ok(g.0.borrow_mut().unit_mut(id)?.markers.shift_remove(m))
        },
    );
    engine.register_fn("clear_markers", |g: &mut GameHandle, markers: Array| {
        // Takes these markers off every unit (the end of a phase, say).
        let names: Vec<String> = markers.iter().map(ToString::to_string).collect();
        for u in g.0.borrow_mut().state.units.values_mut() {
            for m in &names {
                u.markers.shift_remove(m);
            }
        }
    });
    engine.register_fn(
        "hexes_with_count",
        |g: &mut GameHandle, side: &str, n: INT| -> Array {
            // The hexes holding at least `n` units of `side` (a full stack, say).
            let w = g.0.borrow();
            w.stack_counts(side)
                .into_iter()
                .filter(|(_, c)| *c >= n)
                .map(|(h, _)| w.hex_id(h).into())
                .collect()
        },
    );
    // Hex markers.
    engine.register_fn(
        "hex_markers",
        |g: &mut GameHandle, hex: &str| -> Rr<Array> {
            let w = g.0.borrow();
            let h = w.hex(hex)?;
            Ok(w.state
                .hex_markers
                .get(&h)
                .map(|s| s.iter().cloned().map(Dynamic::from).collect())
                .unwrap_or_default())
        },
    );
    engine.register_fn(
        "add_hex_marker",
        |g: &mut GameHandle, hex: &str, m: &str| -> Rr<()> {
            let mut w = g.0.borrow_mut();
            let h = w.hex(hex)?;
            w.state
                .hex_markers
                .entry(h)
                .or_default()
                .insert(m.to_string());
            Ok(())
        },
    );
    engine.register_fn(
        "remove_hex_marker",
        |g: &mut GameHandle, hex: &str, m: &str| -> Rr<bool> {
            let mut w = g.0.borrow_mut();
            let h = w.hex(hex)?;
            Ok(w.state
                .hex_markers
                .get_mut(&h)
                .is_some_and(|s| s.shift_remove(m)))
        },
    );
    engine.register_fn(
        "hexes_with_marker",
        |g: &mut GameHandle, m: &str| -> Array {
            let w = g.0.borrow();
            let hexes: Vec<Hex> = w
                .state
                .hex_markers
                .iter()
                .filter(|(_, s)| s.contains(m))
                .map(|(h, _)| *h)
                .collect();
            w.ids(hexes)
        },
    );
}

fn register_map_api(engine: &mut Engine) {
    engine.register_fn("is_hex", |g: &mut GameHandle, hex: &str| {
        g.0.borrow().map.parse(hex).is_ok()
    });
    engine.register_fn("hexes", |g: &mut GameHandle| -> Array {
        let w = g.0.borrow();
        w.ids(w.map.hexes())
    });
    engine.register_fn("neighbours", |g: &mut GameHandle, hex: &str| -> Rr<Array> {
        let w = g.0.borrow();
        let h = w.hex(hex)?;
        Ok(w.ids(w.map.neighbours(h).collect::<Vec<_>>()))
    });
    engine.register_fn(
        "distance",
        |g: &mut GameHandle, a: &str, b: &str| -> Rr<INT> {
            let w = g.0.borrow();
            Ok(INT::from(w.hex(a)?.distance(w.hex(b)?)))
        },
    );
    engine.register_fn(
        "line_splits",
        |g: &mut GameHandle, a: &str, b: &str, c: &str| -> Rr<bool> {
            let w = g.0.borrow();
            Ok(crate::geom::hex::line_splits(
                w.hex(a)?,
                w.hex(b)?,
                w.hex(c)?,
            ))
        },
    );
    engine.register_fn(
        "hexes_within",
        |g: &mut GameHandle, hex: &str, r: INT| -> Rr<Array> {
            let w = g.0.borrow();
            let h = w.hex(hex)?;
            Ok(w.ids(
                h.within(r.max(0) as u32)
                    .into_iter()
                    .filter(|x| w.map.contains(*x)),
            ))
        },
    );
    engine.register_fn(
        "direction",
        |g: &mut GameHandle, a: &str, b: &str| -> Rr<INT> {
            let w = g.0.borrow();
            Ok(w.hex(a)?.direction_to(w.hex(b)?).map_or(-1, |d| d as INT))
        },
    );
    engine.register_fn("direction_name", |g: &mut GameHandle, d: INT| -> String {
        g.0.borrow()
            .map
            .direction_name(d.rem_euclid(6) as usize)
            .to_string()
    });
    engine.register_fn("terrain", |g: &mut GameHandle, hex: &str| -> Rr<Array> {
        let w = g.0.borrow();
        let h = w.hex(hex)?;
        Ok(w.map
            .terrain(h)
            .into_iter()
            .map(|t| Dynamic::from(t.to_string()))
            .collect())
    });
    engine.register_fn(
        "has_terrain",
        |g: &mut GameHandle, hex: &str, tag: &str| -> Rr<bool> {
            let w = g.0.borrow();
            Ok(w.map.has_terrain(w.hex(hex)?, tag))
        },
    );
    engine.register_fn("elevation", |g: &mut GameHandle, hex: &str| -> Rr<INT> {
        let w = g.0.borrow();
        Ok(INT::from(w.map.elevation(w.hex(hex)?)))
    });
    engine.register_fn(
        "hexside",
        |g: &mut GameHandle, a: &str, b: &str| -> Rr<Array> {
            let w = g.0.borrow();
            Ok(w.map
                .hexside(w.hex(a)?, w.hex(b)?)
                .into_iter()
                .map(|t| Dynamic::from(t.to_string()))
                .collect())
        },
    );
    engine.register_fn(
        "has_hexside",
        |g: &mut GameHandle, a: &str, b: &str, f: &str| -> Rr<bool> {
            let w = g.0.borrow();
            let bit = w.map.feature_bit(f).unwrap_or(0);
            Ok(w.map.side_bits(w.hex(a)?, w.hex(b)?) & bit != 0)
        },
    );
    engine.register_fn("area", |g: &mut GameHandle, name: &str| -> Rr<Array> {
        let w = g.0.borrow();
        match w.map.area(name) {
            Some(a) => Ok(w.ids(a)),
            None => fail(format!("the map has no area `{name}`")),
        }
    });
    engine.register_fn("place", |g: &mut GameHandle, name: &str| -> Rr<String> {
        let w = g.0.borrow();
        match w.map.place(name) {
            Some(h) => Ok(w.map.id(h)),
            None => fail(format!("the map has no place `{name}`")),
        }
    });
    engine.register_fn(
        "los",
        |ctx: NativeCallContext, g: &mut GameHandle, a: &str, b: &str| -> Rr<Dynamic> {
            let (verdict, has_hook) = {
                let w = g.0.borrow();
                let (ha, hb) = (w.hex(a)?, w.hex(b)?);
                let v = w.los.evaluate(&w.map, ha, hb, |h| w.state.occupied(h));
                (v, w.hooks.los_override)
            };
            let m = Dynamic::from_map(verdict_map(&verdict));
            if has_hook {
                return ctx.call_fn("los_override", (g.clone(), a.to_string(), b.to_string(), m));
            }
            Ok(m)
        },
    );
    engine.register_fn(
        "sees",
        |ctx: NativeCallContext, g: &mut GameHandle, a: &str, b: &str| -> Rr<bool> {
            // Whether `a` sees `b`: `los` short of "blocked", after the ruleset's `los_override`
            // if it has one, without the verdict's map of reasons (a fire rule asks it of
            // every pair of firer and target).
            let (ha, hb, has_hook) = {
                let w = g.0.borrow();
                (w.hex(a)?, w.hex(b)?, w.hooks.los_override)
            };
            sees(&ctx, g, ha, hb, has_hook)
        },
    );
    engine.register_fn(
        "in_sight",
        |ctx: NativeCallContext,
         g: &mut GameHandle,
         from: Dynamic,
         to: Dynamic,
         min: INT,
         max: INT|
         -> Rr<Array> {
            // The hexes of `to` (in their order) that some hex of `from` sees at a distance
            // from `min` to `max`: the targets in range of a battery, say. "Sees" is `los`
            // short of "blocked", after the ruleset's `los_override` if it has one.
            let (from, to, has_hook) = {
                let w = g.0.borrow();
                (
                    hex_list(&w, &from, "`from`")?,
                    hex_list(&w, &to, "`to`")?,
                    w.hooks.los_override,
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
        },
    );
    // Searches.
    engine.register_fn(
        "move_cost",
        |g: &mut GameHandle, profile: &str, a: &str, b: &str| -> Rr<FLOAT> {
            let w = g.0.borrow();
            let p = w.profile(profile)?;
            Ok(p.step_cost(&w.map, w.hex(a)?, w.hex(b)?).unwrap_or(-1.0))
        },
    );
    engine.register_fn(
        "route",
        |g: &mut GameHandle,
         hex: &str,
         to: &str,
         profile: &str,
         mp: FLOAT,
         opts: RMap|
         -> Rr<Array> { route(&g.0.borrow(), hex, to, profile, mp, &opts) },
    );
    engine.register_fn(
        "route",
        |g: &mut GameHandle,
         hex: &str,
         to: &str,
         profile: &str,
         mp: INT,
         opts: RMap|
         -> Rr<Array> { route(&g.0.borrow(), hex, to, profile, mp as FLOAT, &opts) },
    );
    engine.register_fn(
        "min_distances",
        |g: &mut GameHandle, hexes: Dynamic, goals: Dynamic| -> Rr<Array> {
            let w = g.0.borrow();
            let goals = hex_list(&w, &goals, "`goals`")?;
            Ok(hex_list(&w, &hexes, "`hexes`")?
                .into_iter()
                .map(|h| {
                    Dynamic::from_int(
                        goals
                            .iter()
                            .map(|x| INT::from(h.distance(*x)))
                            .min()
                            .unwrap_or(-1),
                    )
                })
                .collect())
        },
    );
    engine.register_fn(
        "min_distance",
        |g: &mut GameHandle, hex: &str, hexes: Dynamic| -> Rr<INT> {
            let w = g.0.borrow();
            let h = w.hex(hex)?;
            Ok(hex_list(&w, &hexes, "`hexes`")?
                .into_iter()
                .map(|x| INT::from(h.distance(x)))
                .min()
                .unwrap_or(-1))
        },
    );
    engine.register_fn(
        "line",
        |g: &mut GameHandle, a: &str, b: &str| -> Rr<Array> {
            let w = g.0.borrow();
            let steps = crate::geom::hex::LineIter::new(w.hex(a)?, w.hex(b)?);
            Ok(steps
                .map(|s| Dynamic::from_array(w.ids(s.hexes())))
                .collect())
        },
    );
    engine.register_fn(
        "line_hexes",
        |g: &mut GameHandle, a: &str, b: &str| -> Rr<Array> {
            // The map hexes the line passes through, in order, both of a hexside pair, the
            // ends excluded: `game.line` flattened, for a query's `in` (units under the line).
            let w = g.0.borrow();
            let steps = crate::geom::hex::LineIter::new(w.hex(a)?, w.hex(b)?);
            Ok(w.ids(steps.flat_map(|s| s.hexes()).filter(|h| w.map.contains(*h))))
        },
    );
    engine.register_fn(
        "reached",
        |g: &mut GameHandle,
         hex: &str,
         profile: &str,
         mp: Dynamic,
         opts: RMap,
         targets: Dynamic|
         -> Rr<Array> {
            // Which of `targets` the movement search from `hex` reaches (a supply trace to a
            // road net, say), without handing every reached hex to the script.
            let w = g.0.borrow();
            let limits = move_limits(&w, number_arg(&mp, "mp")?, &opts)?;
            let costs = search::reachable(&w.map, w.profile(profile)?, w.hex(hex)?, &limits).costs;
            let reached: HashSet<Hex> = costs.into_iter().map(|(h, _)| h).collect();
            Ok(hex_list(&w, &targets, "`targets`")?
                .into_iter()
                .filter(|t| reached.contains(t))
                .map(|t| w.hex_id(t).into())
                .collect())
        },
    );
    engine.register_fn(
        "reachable",
        |g: &mut GameHandle, hex: &str, profile: &str, mp: FLOAT, opts: RMap| -> Rr<RMap> {
            reachable(&g.0.borrow(), hex, profile, mp, &opts)
        },
    );
    engine.register_fn(
        "reachable",
        |g: &mut GameHandle, hex: &str, profile: &str, mp: INT, opts: RMap| -> Rr<RMap> {
            reachable(&g.0.borrow(), hex, profile, mp as FLOAT, &opts)
        },
    );
    engine.register_fn(
        "path",
        |g: &mut GameHandle, from: &str, to: &str, profile: &str, blocked: Dynamic| -> Rr<Array> {
            let w = g.0.borrow();
            let blocked: HashSet<Hex> = hex_list(&w, &blocked, "`blocked`")?.into_iter().collect();
            Ok(search::path(
                &w.map,
                w.profile(profile)?,
                w.hex(from)?,
                w.hex(to)?,
                &blocked,
            )
            .map(|(p, _)| w.ids(p))
            .unwrap_or_default())
        },
    );
    engine.register_fn(
        "zoc_reaches",
        |g: &mut GameHandle, from: &str, to: &str| -> Rr<bool> {
            let w = g.0.borrow();
            Ok(w.zoc.reaches(&w.map, w.hex(from)?, w.hex(to)?))
        },
    );
    engine.register_fn(
        "edge_distance",
        |g: &mut GameHandle, hex: &str| -> Rr<INT> {
            // Hexes from `hex` to the nearest hex on the map's edge (0 on the edge).
            let w = g.0.borrow();
            let h = w.hex(hex)?;
            let edge = w.map.edge_area("edge").unwrap_or_default();
            Ok(edge
                .iter()
                .map(|e| INT::from(e.distance(h)))
                .min()
                .unwrap_or(0))
        },
    );
    engine.register_fn(
        "hexes_within_any",
        |g: &mut GameHandle, hexes: Dynamic, r: INT| -> Rr<Array> {
            // Every map hex within `r` of any of `hexes` (themselves included), each once, in
            // the order found: the hexes next to the enemy, a zone around the guns ...
            let w = g.0.borrow();
            let mut seen = crate::world::state::FxIndexSet::default();
            for h in hex_list(&w, &hexes, "`hexes`")? {
                for x in h.within(r.max(0) as u32) {
                    if w.map.contains(x) {
                        seen.insert(x);
                    }
                }
            }
            Ok(seen.into_iter().map(|h| w.hex_id(h).into()).collect())
        },
    );
    engine.register_type_with_name::<MoveRank>("MoveRank");
    engine.register_fn(
        "move_rank",
        |g: &mut GameHandle, spec: Dynamic| -> Rr<MoveRank> {
            Ok(MoveRank(Rc::new(move_rank(&g.0.borrow(), &spec)?)))
        },
    );
    engine.register_type_with_name::<HexSet>("HexSet");
    engine.register_fn(
        "hexset",
        |g: &mut GameHandle, hexes: Dynamic| -> Rr<HexSet> {
            let w = g.0.borrow();
            let list = hex_list(&w, &hexes, "`hexset`")?;
            Ok(HexSet {
                hexes: Rc::new(crate::geom::map::HexGroup::new(list)),
                map: w.map.clone(),
            })
        },
    );
    engine.register_fn("contains", |s: &mut HexSet, hex: &str| -> bool {
        s.map.parse(hex).is_ok_and(|h| s.hexes.contains(h))
    });
    engine.register_fn("len", |s: &mut HexSet| s.hexes.list().len() as INT);
    engine.register_fn("is_empty", |s: &mut HexSet| s.hexes.list().is_empty());
    engine.register_fn("to_array", |s: &mut HexSet| -> Array {
        s.hexes.list().iter().map(|h| s.map.id(*h).into()).collect()
    });
    engine.register_fn(
        "hexes_in",
        |g: &mut GameHandle, list: Dynamic, any_of: Dynamic, none_of: Dynamic| -> Rr<Array> {
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
        },
    );
    // The keys of a map of numbers whose value exceeds `limit`, in key order (stacks over a
    // limit, say): one call for a filtering loop over the map.
    engine.register_fn("keys_over", |_: &mut GameHandle, m: RMap, limit: FLOAT| {
        keys_over(&m, limit)
    });
    engine.register_fn("keys_over", |_: &mut GameHandle, m: RMap, limit: INT| {
        keys_over(&m, limit as FLOAT)
    });
    engine.register_fn(
        "minimal_sets",
        |_: &mut GameHandle, values: Array, needed: Dynamic| -> Rr<Array> {
            minimal_sets(&values, &needed)
        },
    );
    engine.register_fn(
        "adjacent_across",
        |g: &mut GameHandle,
         from: Dynamic,
         to: Dynamic,
         blocked_by: Array,
         crossings: Array|
         -> Rr<Array> {
            // The hexes of `to` next to a hex of `from` across a side that has none of the
            // `blocked_by` features, or has one of the `crossings` (an attack over a creek only
            // at a ford or bridge, say), in the order of `to`.
            let w = g.0.borrow();
            let from: HashSet<Hex> = hex_list(&w, &from, "`from`")?.into_iter().collect();
            let feature_mask = |names: &Array| -> u64 {
                let names: Vec<String> = names.iter().map(ToString::to_string).collect();
                w.map.feature_mask(&names)
            };
            let (blocked, crossing) = (feature_mask(&blocked_by), feature_mask(&crossings));
            let mut out = Array::new();
            for t in hex_list(&w, &to, "`to`")? {
                let open = w.map.neighbours(t).into_iter().any(|n| {
                    from.contains(&n) && {
                        let side = w.map.side_bits(n, t);
                        side & blocked == 0 || side & crossing != 0
                    }
                });
                if open {
                    out.push(w.hex_id(t).into());
                }
            }
            Ok(out)
        },
    );
    engine.register_fn(
        "zoc_linked",
        |g: &mut GameHandle, from: Dynamic, to: Dynamic| -> Rr<Array> {
            // The hexes of `to` in the zone of control of a unit in a neighbouring hex of `from`
            // (`zoc_reaches(from, to)` for some pair), in the order of `to`.
            let w = g.0.borrow();
            let from: HashSet<Hex> = hex_list(&w, &from, "`from`")?.into_iter().collect();
            let mut out = Array::new();
            for t in hex_list(&w, &to, "`to`")? {
                let linked = w
                    .map
                    .neighbours(t)
                    .into_iter()
                    .any(|n| from.contains(&n) && w.zoc.reaches(&w.map, n, t));
                if linked {
                    out.push(w.hex_id(t).into());
                }
            }
            Ok(out)
        },
    );
    engine.register_fn("zoc", |g: &mut GameHandle, hexes: Dynamic| -> Rr<Array> {
        let w = g.0.borrow();
        let hs = hex_list(&w, &hexes, "`hexes`")?;
        Ok(w.ids(w.zoc.zone(&w.map, hs)))
    });
    engine.register_fn(
        "retreat_hexes",
        |g: &mut GameHandle, hex: &str, steps: INT, profile: &str, blocked: Dynamic| -> Rr<Array> {
            let w = g.0.borrow();
            let blocked: HashSet<Hex> = hex_list(&w, &blocked, "`blocked`")?.into_iter().collect();
            Ok(w.ids(search::retreat_hexes(
                &w.map,
                w.profile(profile)?,
                w.hex(hex)?,
                steps.max(0) as u32,
                &blocked,
            )))
        },
    );
}

fn register_rules_api(engine: &mut Engine) {
    engine.register_fn("roll", |g: &mut GameHandle, die: &str| -> Rr<INT> {
        Ok(g.0.borrow_mut().roll(&[die.to_string()])?[0])
    });
    engine.register_fn(
        "roll_dice",
        |g: &mut GameHandle, dice: Array| -> Rr<Array> {
            let names: Vec<String> = dice.iter().map(ToString::to_string).collect();
            Ok(g.0
                .borrow_mut()
                .roll(&names)?
                .into_iter()
                .map(Dynamic::from_int)
                .collect())
        },
    );
    engine.register_fn(
        "roll_11_66",
        |g: &mut GameHandle, tens: &str, units: &str| -> Rr<INT> {
            let v =
                g.0.borrow_mut()
                    .roll(&[tens.to_string(), units.to_string()])?;
            Ok(crate::world::dice::read_11_66(v[0], v[1]))
        },
    );
    engine.register_fn("reroll", |g: &mut GameHandle| -> Rr<Array> {
        let mut w = g.0.borrow_mut();
        let rolls = w.dice.reroll().map_err(|e| e.to_string())?;
        let turn = w.state.turn;
        w.log.push(
            turn,
            crate::world::log::Entry::Event {
                kind: "reroll".into(),
                text: "the last roll is rolled again".into(),
            },
        );
        for r in &rolls {
            w.log.push(
                turn,
                crate::world::log::Entry::Roll {
                    die: r.die.clone(),
                    value: r.value,
                    forced: r.forced,
                },
            );
        }
        Ok(rolls
            .into_iter()
            .map(|r| Dynamic::from_int(r.value))
            .collect())
    });
    engine.register_fn(
        "lookup",
        |g: &mut GameHandle, table: &str, col: Dynamic, row: Dynamic| -> Rr<Dynamic> {
            lookup(&g.0.borrow(), table, &col, &row, 0)
        },
    );
    engine.register_fn(
        "lookup",
        |g: &mut GameHandle, table: &str, col: Dynamic, row: Dynamic, shift: INT| -> Rr<Dynamic> {
            lookup(&g.0.borrow(), table, &col, &row, shift)
        },
    );
    engine.register_fn(
        "column",
        |g: &mut GameHandle, table: &str, col: Dynamic, shift: INT| -> Rr<String> {
            let w = g.0.borrow();
            let grid = w.ruleset.tables.grid(table).map_err(|e| e.to_string())?;
            let col = column_arg(&col)?;
            let i = grid
                .shifted(table, &column_key(&col), shift)
                .map_err(|e| e.to_string())?;
            Ok(grid.columns[i].clone())
        },
    );
    engine.register_fn("columns", |g: &mut GameHandle, table: &str| -> Rr<Array> {
        // The column labels in order: one call where a script would step with `column`.
        let w = g.0.borrow();
        let grid = w.ruleset.tables.grid(table).map_err(|e| e.to_string())?;
        Ok(grid.columns.iter().map(|c| c.clone().into()).collect())
    });
    engine.register_fn(
        "odds",
        |g: &mut GameHandle, table: &str, attack: INT, defence: INT| -> Rr<String> {
            let w = g.0.borrow();
            let grid = w.ruleset.tables.grid(table).map_err(|e| e.to_string())?;
            if defence <= 0 {
                return Ok(grid.columns.last().cloned().unwrap_or_default());
            }
            let ratio = attack as f64 / defence as f64;
            let i = grid
                .column_index(table, &ColumnKey::Value(ratio))
                .map_err(|e| e.to_string())?;
            Ok(grid.columns[i].clone())
        },
    );
    engine.register_fn(
        "chart",
        |g: &mut GameHandle, table: &str, entry: &str, field: &str| -> Rr<Dynamic> {
            let w = g.0.borrow();
            Ok(w.ruleset
                .tables
                .value(table, entry, field)
                .map_err(|e| e.to_string())?
                .to_dynamic())
        },
    );
    engine.register_fn(
        "chart_band",
        |g: &mut GameHandle, table: &str, entry: &str, fields: Array, x: Dynamic| -> Rr<String> {
            // The first of `fields` whose number in `entry` is at least `x` ("" if none): the
            // range band of a distance, say.
            let x = number_arg(&x, "`chart_band` value")?;
            let w = g.0.borrow();
            for f in &fields {
                let f = f.to_string();
                let v = w
                    .ruleset
                    .tables
                    .value(table, entry, &f)
                    .map_err(|e| e.to_string())?;
                let n = match v {
                    Value::Int(i) => *i as FLOAT,
                    Value::Float(x) => *x,
                    _ => return fail(format!("`chart_band`: {table}.{entry}.{f} is not a number")),
                };
                if n >= x {
                    return Ok(f);
                }
            }
            Ok(String::new())
        },
    );
    engine.register_fn(
        "has_chart_entry",
        |g: &mut GameHandle, table: &str, entry: &str, field: &str| -> bool {
            g.0.borrow()
                .ruleset
                .tables
                .value(table, entry, field)
                .is_ok()
        },
    );
}

#[cfg(test)]
mod tests {
    use super::{minimal_sets, MINIMAL_SETS_MAX};
    use rhai::{Array, Dynamic};

    #[test]
    fn minimal_sets_refuses_lists_too_long_to_enumerate() {
        let values: Array = (0..=MINIMAL_SETS_MAX)
            .map(|_| Dynamic::from_int(1))
            .collect();
        let err = minimal_sets(&values, &Dynamic::from_int(2)).unwrap_err();
        assert!(err.to_string().contains("at most 20 values"), "{err}");
        let ok: Array = (0..MINIMAL_SETS_MAX)
            .map(|_| Dynamic::from_int(1))
            .collect();
        // Twenty ones reaching 20: only the whole set.
        assert_eq!(minimal_sets(&ok, &Dynamic::from_int(20)).unwrap().len(), 1);
    }
}
