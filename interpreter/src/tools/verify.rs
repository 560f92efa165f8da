//! Example files: a worked example (or any rules case) written as data — a
//! set-up, forced dice and decisions, steps that call ruleset procedures by
//! name with named arguments, and expectations on the state and the log.
//! `muster verify` runs them; `docs/formats.md` documents the format.

use crate::error::{Error, Location, Result};
use crate::game::{Game, GameOptions};
use crate::geom::map::{Map, MapFile};
use crate::host::compiled::CompiledRuleset;
use crate::scenario::{MapRef, Scenario, Setup, UnitSpec};
use crate::source::relative_to;
use crate::source::{load_ron, Cursor};
use crate::value::Value;
use crate::world::agent::Answer;
use crate::world::bound::MapRules;
use crate::world::Offer;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// An example file as written.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Example")]
pub struct ExampleFile {
    /// What the example shows.
    pub title: String,
    /// The rule it pins (`7.0`, `SPI-ODDS-1`).
    #[serde(default)]
    pub rule: String,
    /// Notes, such as where the printed example disagrees with its rule.
    #[serde(default)]
    pub note: String,
    /// Start from this scenario (relative to the example file).
    #[serde(default)]
    pub scenario: Option<String>,
    /// Remove the scenario's units before placing the example's.
    #[serde(default)]
    pub clear_units: bool,
    /// The ruleset folder, when not starting from a scenario.
    #[serde(default)]
    pub ruleset: Option<String>,
    /// The map, when not starting from a scenario.
    #[serde(default)]
    pub map: Option<MapRef>,
    /// The game turn the example happens in.
    #[serde(default)]
    pub turn: Option<i64>,
    /// Units to place (replacing scenario units of the same id).
    #[serde(default)]
    pub units: Vec<UnitSpec>,
    /// Tracks.
    #[serde(default)]
    pub tracks: IndexMap<String, i64>,
    /// Decks and cups.
    #[serde(default)]
    pub decks: IndexMap<String, Vec<String>>,
    /// Data per side.
    #[serde(default)]
    pub sides: IndexMap<String, IndexMap<String, Value>>,
    /// Hex markers.
    #[serde(default)]
    pub hex_markers: IndexMap<String, Vec<String>>,
    /// Global data.
    #[serde(default)]
    pub data: IndexMap<String, Value>,
    /// Options.
    #[serde(default)]
    pub options: IndexMap<String, Value>,
    /// Dice values the rolls take, in order.
    #[serde(default)]
    pub dice: Vec<i64>,
    /// Answers the decisions take, in order (index or label).
    #[serde(default)]
    pub decisions: Vec<Answer>,
    /// Items the draws from decks and cups take, in order.
    #[serde(default)]
    pub draws: Vec<String>,
    /// What answers a roll or a decision once the forced values run out: by default nothing,
    /// and the example fails at that step.
    #[serde(default)]
    pub unforced: Unforced,
    /// Run the ruleset's `setup` before the steps, as a game does.
    #[serde(default)]
    pub setup: bool,
    /// Procedures to call, in order.
    pub steps: Vec<Step>,
    /// What must hold afterwards.
    #[serde(default)]
    pub expect: Expect,
}

/// What answers once an example's forced values run out.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unforced {
    /// Rolls after the forced dice.
    #[serde(default)]
    pub dice: UnforcedDice,
    /// Decisions after the forced answers.
    #[serde(default)]
    pub decisions: UnforcedDecisions,
}

/// Who rolls once the forced dice run out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnforcedDice {
    /// Nobody: a roll with no forced die left fails the example.
    #[default]
    Error,
    /// The game's seeded dice.
    Random,
}

/// Who answers once the forced decisions run out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnforcedDecisions {
    /// Nobody: a decision with no forced answer left fails the example.
    #[default]
    Error,
    /// The ruleset's bot.
    Bot,
    /// The random agent.
    Random,
}

/// One step: a call of a ruleset procedure, or a Rhai expression.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The script function; its first parameter receives the game.
    #[serde(default)]
    pub call: String,
    /// Rhai statements instead of a call, with `game` in scope: core calls such as
    /// `game.distance("0101", "0104")` and the ruleset's own functions; the value is the last
    /// statement's.
    #[serde(default)]
    pub eval: Option<String>,
    /// The other parameters, by name.
    #[serde(default)]
    pub args: IndexMap<String, Value>,
    /// The value it must return.
    #[serde(default)]
    pub returns: Option<Value>,
    /// The call must fail with an error containing this text.
    #[serde(default)]
    pub error: Option<String>,
}

/// Expectations after the steps.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Units.
    #[serde(default)]
    pub units: Vec<UnitExpect>,
    /// Hex markers.
    #[serde(default)]
    pub hexes: Vec<HexExpect>,
    /// Tracks.
    #[serde(default)]
    pub tracks: IndexMap<String, i64>,
    /// Global data.
    #[serde(default)]
    pub globals: IndexMap<String, Value>,
    /// Data per side.
    #[serde(default)]
    pub sides: IndexMap<String, IndexMap<String, Value>>,
    /// Lines that must appear in the narration (as substrings, in order).
    #[serde(default)]
    pub log: Vec<String>,
    /// Text that must not appear in the narration.
    #[serde(default)]
    pub no_log: Vec<String>,
    /// Forced dice that must remain unused (default 0: every forced die is rolled).
    #[serde(default)]
    pub dice_left: usize,
    /// The options decisions offered.
    #[serde(default)]
    pub offers: Vec<OfferExpect>,
    /// Decks and cups: exactly these items, in any order.
    #[serde(default)]
    pub decks: IndexMap<String, Vec<String>>,
}

/// Expectations on the options of one decision: the `nth` decision of `kind` (and of `side`,
/// when given) in the order asked. A label matches an option whose label contains it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferExpect {
    /// The kind of decision.
    pub kind: String,
    /// The side asked.
    #[serde(default)]
    pub side: Option<String>,
    /// Which decision of that kind, from 1.
    #[serde(default = "first")]
    pub nth: usize,
    /// Each of these is among the options.
    #[serde(default)]
    pub offered: Vec<String>,
    /// None of these is among the options.
    #[serde(default)]
    pub not_offered: Vec<String>,
    /// The options, exactly and in order (whole labels).
    #[serde(default)]
    pub exactly: Option<Vec<String>>,
}

fn first() -> usize {
    1
}

/// Expectations on one unit; fields left out are not checked.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitExpect {
    /// The unit.
    pub id: String,
    /// Its hex, or `off` for off the map.
    #[serde(default)]
    pub at: Option<String>,
    /// Strength.
    #[serde(default)]
    pub strength: Option<i64>,
    /// Rating.
    #[serde(default)]
    pub rating: Option<i64>,
    /// Side.
    #[serde(default)]
    pub side: Option<String>,
    /// Face up.
    #[serde(default)]
    pub face: Option<String>,
    /// Facing (a direction index), or `()`-less for none.
    #[serde(default)]
    pub facing: Option<u8>,
    /// Exactly these markers.
    #[serde(default)]
    pub markers: Option<Vec<String>>,
    /// Among its markers.
    #[serde(default)]
    pub has: Vec<String>,
    /// Not among its markers.
    #[serde(default)]
    pub lacks: Vec<String>,
    /// Properties.
    #[serde(default)]
    pub props: IndexMap<String, Value>,
}

/// Expectations on one hex's markers.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexExpect {
    /// The hex.
    pub hex: String,
    /// Exactly these markers.
    #[serde(default)]
    pub markers: Option<Vec<String>>,
    /// Among its markers.
    #[serde(default)]
    pub has: Vec<String>,
    /// Not among its markers.
    #[serde(default)]
    pub lacks: Vec<String>,
}

/// The outcome of one example file.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The file.
    pub path: PathBuf,
    /// Its title.
    pub title: String,
    /// Each expectation that did not hold: what was expected and what was found.
    pub failures: Vec<String>,
    /// The example's narration, as `muster verify --show` prints it.
    pub narration: String,
}

/// Loads rulesets once per run, however many examples use them.
#[derive(Default)]
pub struct Runner {
    rulesets: HashMap<PathBuf, Rc<CompiledRuleset>>,
}

fn numbers_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Float(y)) | (Value::Float(y), Value::Int(x)) => {
            (*x as f64 - y).abs() < 1e-9
        }
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| numbers_equal(a, b))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| numbers_equal(v, w)))
        }
        _ => a == b,
    }
}

impl Runner {
    fn ruleset(&mut self, dir: &Path) -> Result<Rc<CompiledRuleset>> {
        let key = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        if let Some(r) = self.rulesets.get(&key) {
            return Ok(r.clone());
        }
        let r = Rc::new(CompiledRuleset::load(dir)?);
        self.rulesets.insert(key, r.clone());
        Ok(r)
    }

    /// Runs one example file. An error is a broken file (it cannot be run);
    /// failed expectations are in the outcome.
    pub fn run(&mut self, path: &Path) -> Result<Outcome> {
        let (ex, text): (ExampleFile, String) = load_ron(path)?;
        let mut game = self.start(&ex, &text, path)?;
        let mut failures = Vec::new();
        if ex.setup {
            if let Err(e) = game.set_up() {
                failures.push(format!("setup failed: {e}"));
            }
        }
        for (i, step) in ex.steps.iter().enumerate() {
            run_step(&game, i, step, &mut failures)?;
        }
        check_expectations(&game, &ex.expect, &mut failures);
        Ok(Outcome {
            path: path.to_path_buf(),
            title: ex.title,
            failures,
            narration: game.log().narration(),
        })
    }

    fn start(&mut self, ex: &ExampleFile, text: &str, path: &Path) -> Result<Game> {
        let opts = GameOptions {
            seed: 0,
            ..GameOptions::default()
        };
        let mut setup = Setup::default();
        let (ruleset, map, first_turn) = if let Some(sc) = &ex.scenario {
            let scenario = Scenario::load(&relative_to(path, sc))?;
            setup = scenario.file.setup();
            if ex.clear_units {
                setup.units.clear();
            }
            let ruleset = self.ruleset(&scenario.ruleset_dir())?;
            (ruleset, scenario.load_map()?, scenario.file.first_turn)
        } else {
            let Some(rs) = &ex.ruleset else {
                return Err(Error::at(
                    Location::file(path),
                    "an example needs `scenario` or `ruleset` and `map`",
                ));
            };
            let ruleset = self.ruleset(&relative_to(path, rs))?;
            let map = match &ex.map {
                Some(MapRef::Path(p)) => Map::load(&relative_to(path, p))?,
                Some(MapRef::Inline(m)) => Map::from_file(MapFile::clone(m), text, path)?,
                None => {
                    return Err(Error::at(
                        Location::file(path),
                        "an example without a scenario needs a `map`",
                    ))
                }
            };
            (ruleset, map, 1)
        };
        for u in &ex.units {
            setup.units.retain(|s| s.id != u.id);
            setup.units.push(u.clone());
        }
        setup.tracks.extend(ex.tracks.clone());
        setup.decks.extend(ex.decks.clone());
        for (side, d) in &ex.sides {
            setup
                .sides
                .entry(side.clone())
                .or_default()
                .extend(d.clone());
        }
        setup.hex_markers.extend(ex.hex_markers.clone());
        setup.data.extend(ex.data.clone());
        setup.options.extend(ex.options.clone());
        let bound = MapRules::new(ruleset.ruleset(), Rc::new(map));
        let mut game = Game::with_setup(&setup, ruleset, bound, &opts, text, path)?;
        {
            let h = game.handle().clone();
            let mut w = h.0.borrow_mut();
            w.state_mut().turn = ex.turn.unwrap_or(first_turn);
            w.state_mut().last_turn = w.state_mut().turn.max(w.state_mut().last_turn);
            if ex.unforced.decisions == UnforcedDecisions::Random {
                w.all_random();
            }
        }
        game.force_dice(ex.dice.clone());
        game.force_decisions(ex.decisions.clone());
        game.force_draws(ex.draws.clone());
        game.only_forced(
            ex.unforced.dice == UnforcedDice::Error,
            ex.unforced.decisions == UnforcedDecisions::Error,
        );
        game.record_offers();
        Ok(game)
    }
}

/// The parameters of the script function a step calls: the overload that takes the game and
/// exactly as many arguments as the step names (Rhai tells same-named functions apart by
/// their number of parameters only).
fn step_params(game: &Game, i: usize, step: &Step) -> Result<Vec<String>> {
    let overloads = game.compiled().overloads(&step.call);
    if overloads.is_empty() {
        let hint = crate::source::did_you_mean(&step.call, game.compiled().function_names());
        return Err(Error::rules(format!(
            "step {}: the ruleset has no procedure `{}`",
            i + 1,
            step.call
        ))
        .with_help(hint));
    }
    let takes = |p: &[String]| format!("({})", p.join(", "));
    let Some(params) = overloads.iter().find(|p| p.len() == step.args.len() + 1) else {
        let forms: Vec<String> = overloads.iter().map(|p| takes(p)).collect();
        return Err(Error::rules(format!(
            "step {}: `{}` takes {} but the step gives {} argument(s)",
            i + 1,
            step.call,
            forms.join(" or "),
            step.args.len()
        )));
    };
    if let Some(k) = step.args.keys().find(|k| !params[1..].contains(k)) {
        return Err(Error::rules(format!(
            "step {}: `{}{}` has no parameter `{k}`",
            i + 1,
            step.call,
            takes(params)
        )));
    }
    Ok(params.clone())
}

/// Runs a step: its call or its expression.
fn step_result(game: &Game, i: usize, step: &Step) -> Result<Result<rhai::Dynamic>> {
    match (&step.eval, step.call.is_empty()) {
        (Some(expr), true) if step.args.is_empty() => Ok(game.eval(expr)),
        (Some(_), true) => Err(Error::rules(format!(
            "step {}: an `eval` step takes no `args` (write them in the expression)",
            i + 1
        ))),
        (None, false) => {
            let params = step_params(game, i, step)?;
            // Every parameter is named by the step (same count, no unknown name).
            let args: Vec<_> = params[1..]
                .iter()
                .map(|p| step.args[p.as_str()].to_dynamic())
                .collect();
            Ok(game.call(&step.call, args))
        }
        _ => Err(Error::rules(format!(
            "step {}: a step has either `call` or `eval`",
            i + 1
        ))),
    }
}

fn run_step(game: &Game, i: usize, step: &Step, failures: &mut Vec<String>) -> Result<()> {
    let result = step_result(game, i, step)?;
    let what = format!(
        "step {} `{}`",
        i + 1,
        step.eval.as_deref().unwrap_or(&step.call)
    );
    match (result, &step.error) {
        (Ok(v), None) => {
            if let Some(want) = &step.returns {
                let got = Value::from_dynamic(&v).unwrap_or_else(Value::Str);
                if !numbers_equal(want, &got) {
                    failures.push(format!("{what} returned {got}, expected {want}"));
                }
            }
        }
        (Ok(_), Some(want)) => failures.push(format!(
            "{what} succeeded, expected an error containing `{want}`"
        )),
        (Err(e), Some(want)) => {
            if !e.to_string().contains(want.as_str()) {
                failures.push(format!(
                    "{what} failed with `{e}`, expected an error containing `{want}`"
                ));
            }
        }
        (Err(e), None) => failures.push(format!("{what} failed: {e}")),
    }
    Ok(())
}

fn marker_checks(
    what: &str,
    have: &[String],
    exact: &Option<Vec<String>>,
    has: &[String],
    lacks: &[String],
    failures: &mut Vec<String>,
) {
    if let Some(want) = exact {
        let (mut a, mut b) = (want.clone(), have.to_vec());
        a.sort();
        b.sort();
        if a != b {
            failures.push(format!("{what}: expected markers {want:?}, found {have:?}"));
        }
    }
    for m in has {
        if !have.contains(m) {
            failures.push(format!("{what}: expected marker `{m}`, found {have:?}"));
        }
    }
    for m in lacks {
        if have.contains(m) {
            failures.push(format!("{what}: expected no marker `{m}`, found {have:?}"));
        }
    }
}

fn check_unit(game: &Game, e: &UnitExpect, failures: &mut Vec<String>) {
    let state = game.state();
    let map = game.map();
    let Some(u) = state.unit(&e.id) else {
        failures.push(format!(
            "unit `{}`: expected to exist, found no such unit",
            e.id
        ));
        return;
    };
    let what = format!("unit `{}`", e.id);
    let at = u.location.map_or("off".to_string(), |h| map.id(h));
    let mut check = |field: &str, want: Option<String>, got: String| {
        if let Some(w) = want {
            if w != got {
                failures.push(format!("{what}: expected {field} {w}, found {got}"));
            }
        }
    };
    check("at", e.at.clone(), at);
    check(
        "strength",
        e.strength.map(|v| v.to_string()),
        u.strength.to_string(),
    );
    check(
        "rating",
        e.rating.map(|v| v.to_string()),
        u.rating.to_string(),
    );
    check("side", e.side.clone(), u.side.clone());
    check("face", e.face.clone(), u.face.clone());
    check(
        "facing",
        e.facing.map(|f| f.to_string()),
        u.facing.map_or("none".to_string(), |f| f.to_string()),
    );
    let markers: Vec<String> = u.markers.iter().cloned().collect();
    marker_checks(&what, &markers, &e.markers, &e.has, &e.lacks, failures);
    for (k, want) in &e.props {
        let got = u.props.get(k).cloned().unwrap_or_default();
        if !numbers_equal(want, &got) {
            failures.push(format!(
                "{what}: expected property {k} = {want}, found {got}"
            ));
        }
    }
}

fn check_expectations(game: &Game, ex: &Expect, failures: &mut Vec<String>) {
    for u in &ex.units {
        check_unit(game, u, failures);
    }
    let state = game.state();
    let map = game.map();
    for h in &ex.hexes {
        let hex = match map.parse(&h.hex) {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("hex expectation: {e}"));
                continue;
            }
        };
        let have: Vec<String> = state
            .hex_markers
            .get(&hex)
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default();
        marker_checks(
            &format!("hex {}", h.hex),
            &have,
            &h.markers,
            &h.has,
            &h.lacks,
            failures,
        );
    }
    for (t, want) in &ex.tracks {
        let got = state.tracks.get(t).copied().unwrap_or(0);
        if got != *want {
            failures.push(format!("track `{t}`: expected {want}, found {got}"));
        }
    }
    for (k, want) in &ex.globals {
        let got = state.globals.get(k).cloned().unwrap_or_default();
        if !numbers_equal(want, &got) {
            failures.push(format!("global `{k}`: expected {want}, found {got}"));
        }
    }
    for (side, data) in &ex.sides {
        for (k, want) in data {
            let got = state
                .sides
                .get(side)
                .and_then(|d| d.get(k))
                .cloned()
                .unwrap_or_default();
            if !numbers_equal(want, &got) {
                failures.push(format!(
                    "side `{side}` data `{k}`: expected {want}, found {got}"
                ));
            }
        }
    }
    let narration = game.log().narration();
    let mut from = 0;
    for line in &ex.log {
        match narration[from..].find(line.as_str()) {
            Some(i) => from += i + line.len(),
            None => failures.push(format!(
                "log: expected `{line}` (in order), not found in:\n{}",
                indent(&narration)
            )),
        }
    }
    for line in &ex.no_log {
        if narration.contains(line.as_str()) {
            failures.push(format!("log: expected no `{line}`, found it"));
        }
    }
    check_offers(&game.offers(), &ex.offers, failures);
    for (name, want) in &ex.decks {
        let mut have = state.decks.get(name).cloned().unwrap_or_default();
        let mut want_sorted = want.clone();
        have.sort();
        want_sorted.sort();
        if have != want_sorted {
            failures.push(format!(
                "deck `{name}`: expected {want:?} (in any order), found {:?}",
                state.decks.get(name).cloned().unwrap_or_default()
            ));
        }
    }
    let left = game.forced_dice_left();
    if left != ex.dice_left {
        failures.push(format!(
            "dice: expected {} forced dice left unrolled, found {left}",
            ex.dice_left
        ));
    }
    let draws = game.forced_draws_left();
    if draws > 0 {
        failures.push(format!(
            "draws: expected every forced draw taken, found {draws} left"
        ));
    }
    let left = game.forced_decisions_left();
    if left != 0 {
        failures.push(format!(
            "decisions: expected every forced decision used, found {left} left"
        ));
    }
}

/// Checks the options that decisions offered against `expect.offers`.
fn check_offers(offers: &[Offer], want: &[OfferExpect], failures: &mut Vec<String>) {
    for e in want {
        let of_kind = offers
            .iter()
            .filter(|o| o.kind == e.kind && e.side.as_ref().is_none_or(|s| *s == o.side));
        let Some(o) = of_kind.clone().nth(e.nth.saturating_sub(1)) else {
            failures.push(format!(
                "offers: expected decision {} of kind `{}`, found {} such decision(s)",
                e.nth,
                e.kind,
                of_kind.count()
            ));
            continue;
        };
        let what = format!("offers: `{}` decision {} ({})", e.kind, e.nth, o.side);
        let has = |l: &str| o.labels.iter().any(|x| x.contains(l));
        for l in e.offered.iter().filter(|l| !has(l)) {
            failures.push(format!(
                "{what}: expected an option `{l}`, found {:?}",
                o.labels
            ));
        }
        for l in e.not_offered.iter().filter(|l| has(l)) {
            failures.push(format!(
                "{what}: expected no option `{l}`, found {:?}",
                o.labels
            ));
        }
        if let Some(exact) = &e.exactly {
            if *exact != o.labels {
                failures.push(format!(
                    "{what}: expected exactly {exact:?}, found {:?}",
                    o.labels
                ));
            }
        }
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("      {l}\n")).collect()
}

/// Every example file under the paths. Files named on the command line are
/// taken as they are; inside folders only `.ron` files whose first item is
/// `Example(` count, so maps and other data can sit beside the examples.
pub fn collect(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            out.extend(collect_dir(p));
        } else {
            out.push(p.clone());
        }
    }
    out
}

fn collect_dir(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    let mut out = Vec::new();
    for p in entries {
        if p.is_dir() {
            out.extend(collect_dir(&p));
        } else if p.extension().is_some_and(|e| e == "ron")
            && std::fs::read_to_string(&p).is_ok_and(|t| is_example(&t))
        {
            out.push(p);
        }
    }
    out
}

/// Whether a file looks like an example file (its first item is `Example(`).
#[must_use]
pub fn is_example(text: &str) -> bool {
    crate::source::top_level_name(text).as_deref() == Some("Example")
}

/// Where in an example file a title is, for messages.
#[must_use]
pub fn title_location(text: &str, path: &Path, title: &str) -> Location {
    Cursor::new(text, path).find_str(title)
}
