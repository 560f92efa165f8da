//! A game in progress: the state, the dice, the log and the agents, bound to a
//! compiled ruleset and a map, and the loop that runs it from set-up to the
//! victory check.
//!
//! The ruleset's scripts define the procedures the loop calls:
//! `setup(game)` once (optional), `game_turn(game)` each turn, and
//! `victory(game)`, which returns `#{ winner: "...", vp: #{ side: n } }`.

use crate::error::{read_file, Error, Result};
use crate::geom::map::Map;
use crate::host::compiled::CompiledRuleset;
use crate::ruleset::Ruleset;
use crate::scenario::{build_state, Scenario, Setup};
use crate::value::Value;
use crate::world::agent::{AgentKind, Answer, Terminal};
use crate::world::dice::StreamState;
use crate::world::log::Log;
use crate::world::state::State;
use crate::world::timers::SectionTime;
use crate::world::{GameHandle, Offer, World};
use indexmap::IndexMap;
use rhai::{CallFnOptions, Dynamic, Scope};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// How a game is started.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    /// The seed of the dice.
    pub seed: u64,
    /// Agents by side; sides not named are played by `bot`.
    pub agents: IndexMap<String, AgentKind>,
    /// Options that override the scenario's.
    pub options: IndexMap<String, Value>,
    /// Echo the narration to standard output as the game runs.
    pub echo: bool,
    /// Profile the game (`muster play --profile`): time every script function that takes the
    /// game as a section, and count script operations. Slows the game; applies when the game
    /// compiles its own ruleset ([`Game::from_scenario`], [`Game::resume`]).
    pub profile: bool,
    /// Count script steps per line (`muster play --profile-lines`, see [`crate::host::lines`]); needs
    /// the `line-profile` feature. Applies as [`GameOptions::profile`] does.
    pub profile_lines: bool,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// Game turns played.
    pub turns: i64,
    /// The winner, or `None` for a draw.
    pub winner: Option<String>,
    /// Victory points by side.
    pub vp: IndexMap<String, i64>,
    /// Anything else the ruleset's `victory` returned.
    pub details: IndexMap<String, Value>,
}

/// A saved game: enough to resume it exactly at a turn boundary.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SaveFile {
    /// The scenario played.
    pub scenario: PathBuf,
    /// The state.
    pub state: State,
    /// The dice stream's position.
    pub dice: StreamState,
    /// The random agent's stream position.
    pub agent_stream: StreamState,
    /// Whether `setup` has run.
    pub set_up: bool,
    /// The log so far, as JSON lines.
    pub log: String,
}

/// A game as it stood at some point (see [`Game::checkpoint`]). The log is kept as its
/// length: records are only ever added, so the game's own log holds the rest.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    state: State,
    dice: StreamState,
    agent_stream: StreamState,
    set_up: bool,
    log_len: usize,
}

/// A game bound to its ruleset.
pub struct Game {
    handle: GameHandle,
    compiled: Rc<CompiledRuleset>,
    scenario: PathBuf,
    set_up: bool,
}

impl Game {
    /// Loads a scenario's ruleset and starts a game of it.
    pub fn from_scenario(path: &Path, opts: &GameOptions) -> Result<Game> {
        let scenario = Scenario::load(path)?;
        let ruleset = Rc::new(load_ruleset(&scenario, opts)?);
        Game::start(&scenario, ruleset, opts)
    }

    /// Starts a game of a loaded scenario on an already-compiled ruleset (the
    /// ruleset is compiled once and shared by every game).
    pub fn start(
        scenario: &Scenario,
        ruleset: Rc<CompiledRuleset>,
        opts: &GameOptions,
    ) -> Result<Game> {
        let map = Rc::new(scenario.load_map()?);
        Game::start_on(scenario, ruleset, map, opts)
    }

    /// Starts a game of a loaded scenario on a compiled ruleset and a loaded
    /// map (batch runs load both once per worker).
    pub fn start_on(
        scenario: &Scenario,
        ruleset: Rc<CompiledRuleset>,
        map: Rc<Map>,
        opts: &GameOptions,
    ) -> Result<Game> {
        // What `muster check` checks, so that a game stops before turn 1 with its messages.
        ruleset
            .ruleset()
            .check_command_line_options(&opts.options)?;
        Error::from_problems(ruleset.missing_procedures())?;
        let mut setup = scenario.file.setup();
        setup.options.extend(opts.options.clone());
        let mut game =
            Game::with_setup(&setup, ruleset, map, opts, &scenario.text, &scenario.path)?;
        game.handle.0.borrow_mut().state_mut().turn = scenario.file.first_turn;
        game.handle.0.borrow_mut().state_mut().last_turn = scenario.file.last_turn;
        game.scenario = scenario.path.clone();
        game.validate_scenario(scenario)?;
        Ok(game)
    }

    /// Runs the ruleset's `validate(game)`, if it has one, on the scenario's set-up: it returns
    /// the problems the rules would meet later (an arrival naming no unit, a hex off the map in
    /// the scenario's data), each a message or `#{ message, value, help }`, where `value` is the
    /// text in the scenario the problem is about (its place is reported) and `help` a hint.
    fn validate_scenario(&self, scenario: &Scenario) -> Result<()> {
        if !self.compiled.has_function("validate", 1) {
            return Ok(());
        }
        let found = self.call("validate", vec![])?;
        let Ok(list) = found.into_array() else {
            return Err(Error::rules(
                "`validate(game)` must return an array of problems (empty when there are none)",
            ));
        };
        // The n-th problem about a value is placed at its n-th occurrence in the scenario.
        let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let problems = list
            .iter()
            .map(|p| {
                let text = |key: &str| {
                    p.read_lock::<rhai::Map>()
                        .and_then(|m| m.get(key).filter(|v| !v.is_unit()).map(ToString::to_string))
                };
                let message = text("message").unwrap_or_else(|| p.to_string());
                let at = match text("value") {
                    Some(v) => {
                        let n = seen.entry(v.clone()).or_default();
                        *n += 1;
                        let mut cursor = crate::source::Cursor::new(&scenario.text, &scenario.path);
                        (1..*n).for_each(|_| {
                            cursor.find_str(&v);
                        });
                        cursor.find_str(&v)
                    }
                    None => crate::error::Location::file(&scenario.path),
                };
                Error::at(at, message).with_help(text("help"))
            })
            .collect();
        Error::from_problems(problems)
    }

    /// Starts a game from a set-up (scenarios and example files).
    pub fn with_setup(
        setup: &Setup,
        compiled: Rc<CompiledRuleset>,
        map: Rc<Map>,
        opts: &GameOptions,
        text: &str,
        path: &Path,
    ) -> Result<Game> {
        let ruleset = compiled.ruleset();
        let state = build_state(setup, ruleset, &map, text, path)?;
        for side in opts.agents.keys() {
            if !ruleset.sides.contains(side) {
                return Err(Error::usage(format!(
                    "--agent names side `{side}`; the ruleset's sides are {}",
                    ruleset.sides.join(", ")
                )));
            }
        }
        let world = World::new(
            state,
            ruleset.clone(),
            compiled.hooks(),
            map,
            opts.seed,
            &opts.agents,
            opts.echo,
        );
        Ok(Game {
            handle: GameHandle(Rc::new(RefCell::new(world))),
            compiled,
            scenario: path.to_path_buf(),
            set_up: false,
        })
    }

    /// Resumes a saved game.
    pub fn resume(save_path: &Path, opts: &GameOptions) -> Result<Game> {
        let text = read_file(save_path)?;
        let save: SaveFile = crate::source::parse_ron(&text, save_path)?;
        let scenario = Scenario::load(&save.scenario)?;
        let compiled = Rc::new(load_ruleset(&scenario, opts)?);
        let map = Rc::new(scenario.load_map()?);
        let ruleset = compiled.ruleset().clone();
        let mut world = World::new(
            save.state,
            ruleset.clone(),
            compiled.hooks(),
            map,
            opts.seed,
            &opts.agents,
            opts.echo,
        );
        world.restore_streams(save.dice, save.agent_stream);
        world
            .log_mut()
            .restore_jsonl(&save.log)
            .map_err(|m| Error::at(crate::error::Location::file(save_path), m))?;
        Ok(Game {
            handle: GameHandle(Rc::new(RefCell::new(world))),
            compiled,
            scenario: save.scenario,
            set_up: save.set_up,
        })
    }

    /// The handle scripts see.
    #[must_use]
    pub fn handle(&self) -> &GameHandle {
        &self.handle
    }

    /// The ruleset's manifest and data.
    #[must_use]
    pub fn ruleset(&self) -> &Ruleset {
        self.compiled.ruleset()
    }

    /// The compiled ruleset.
    #[must_use]
    pub fn compiled(&self) -> &Rc<CompiledRuleset> {
        &self.compiled
    }

    /// Replaces how a human is asked (tests).
    pub fn set_terminal(&mut self, t: Box<dyn Terminal>) {
        self.handle.0.borrow_mut().set_terminal(t);
    }

    /// Queues forced dice values.
    pub fn force_dice(&mut self, values: impl IntoIterator<Item = i64>) {
        self.handle.0.borrow_mut().dice_mut().force(values);
    }

    /// Queues forced draws: the next `draw` calls take these items, in order.
    pub fn force_draws(&mut self, items: impl IntoIterator<Item = String>) {
        self.handle.0.borrow_mut().force_draws(items);
    }

    /// The script section timers by name, in the order first entered (see `game.timer`).
    #[must_use]
    pub fn timers(&self) -> Vec<(String, SectionTime)> {
        let w = self.handle.0.borrow();
        w.timers()
            .sections()
            .map(|(k, t)| (k.to_string(), t))
            .collect()
    }

    /// Forced draws not yet taken.
    #[must_use]
    pub fn forced_draws_left(&self) -> usize {
        self.handle.0.borrow().forced_draws_left()
    }

    /// Queues forced decisions.
    pub fn force_decisions(&mut self, answers: impl IntoIterator<Item = Answer>) {
        self.handle.0.borrow_mut().force_decisions(answers);
    }

    /// From now on a roll with no forced die left, or a decision with no forced answer left,
    /// is an error instead of a random roll or an agent's answer (strict examples).
    pub fn only_forced(&mut self, dice: bool, decisions: bool) {
        let mut w = self.handle.0.borrow_mut();
        if dice {
            w.dice_mut().only_forced();
        }
        w.set_only_forced(decisions);
    }

    /// Records the options of every decision from now on (see [`Game::offers`]).
    pub fn record_offers(&mut self) {
        self.handle.0.borrow_mut().record_offers();
    }

    /// The decisions asked since [`Game::record_offers`], in order.
    #[must_use]
    pub fn offers(&self) -> Vec<Offer> {
        self.handle.0.borrow().offers().to_vec()
    }

    /// Calls a script function with the game as its first argument.
    pub fn call(&self, name: &str, args: Vec<Dynamic>) -> Result<Dynamic> {
        let mut all = vec![Dynamic::from(self.handle.clone())];
        all.extend(args);
        self.compiled.call(name, all)
    }

    /// Evaluates Rhai statements with `game` in scope, as an example step does: core calls
    /// (`game.distance("0101", "0104")`) and the ruleset's own functions; the value is the
    /// last statement's.
    pub fn eval(&self, expr: &str) -> Result<Dynamic> {
        let engine = self.compiled.engine();
        let mut scope = Scope::new();
        scope.push("game", self.handle.clone());
        let ast = engine
            .compile_with_scope(&scope, expr)
            .map_err(|e| Error::rules(format!("`{expr}` does not compile: {e}")))?;
        let ast = self.compiled.ast().clone_functions_only().merge(&ast);
        engine
            .eval_ast_with_scope::<Dynamic>(&mut scope, &ast)
            .map_err(|e| self.compiled.script_error(&e, ""))
    }

    /// Runs `setup` if the ruleset defines it and it has not run.
    pub fn set_up(&mut self) -> Result<()> {
        if !self.set_up {
            self.set_up = true;
            if self.compiled.has_function("setup", 1) {
                let _ = self.call("setup", vec![])?;
            }
        }
        Ok(())
    }

    /// Whether the game is over (ended by the rules or past the last turn).
    #[must_use]
    pub fn over(&self) -> bool {
        let w = self.handle.0.borrow();
        w.state().ended || w.state().turn > w.state().last_turn
    }

    /// Plays one game turn and moves the turn marker on.
    pub fn play_turn(&mut self) -> Result<()> {
        self.set_up()?;
        let turn = self.handle.0.borrow().state().turn;
        self.handle
            .0
            .borrow_mut()
            .log_mut()
            .push(turn, crate::world::log::Entry::Turn { number: turn });
        let _ = self.call("game_turn", vec![])?;
        let mut w = self.handle.0.borrow_mut();
        if !w.state().ended {
            w.state_mut().turn += 1;
        }
        Ok(())
    }

    /// Plays to the end and runs the victory check. With `save`, the game is
    /// saved after every turn, so an error loses at most the turn in play.
    pub fn run(&mut self, save: Option<&Path>) -> Result<GameResult> {
        self.set_up()?;
        while !self.over() {
            self.play_turn()?;
            if let Some(p) = save {
                self.save(p)?;
            }
        }
        self.victory()
    }

    /// Runs the ruleset's `victory` and reads its answer.
    pub fn victory(&self) -> Result<GameResult> {
        let v = self.call("victory", vec![])?;
        let value = Value::from_dynamic(&v).map_err(Error::rules)?;
        let Value::Map(mut m) = value else {
            return Err(Error::rules("`victory` must return a map such as #{ winner: \"red\", vp: #{ red: 10, blue: 12 } }"));
        };
        let winner = match m.shift_remove("winner") {
            Some(Value::Str(s)) if !s.is_empty() && s != "draw" => Some(s),
            _ => None,
        };
        let mut vp = IndexMap::new();
        if let Some(Value::Map(v)) = m.shift_remove("vp") {
            for side in &self.ruleset().sides {
                vp.insert(
                    side.clone(),
                    v.get(side).and_then(Value::as_int).unwrap_or(0),
                );
            }
        }
        // A ruleset may group its extra results under `details`.
        if let Some(Value::Map(inner)) = m.shift_remove("details") {
            m.extend(inner);
        }
        let w = self.handle.0.borrow();
        let turns = (w.state().turn.min(w.state().last_turn + 1) - 1).max(0);
        let turns = if w.state().ended {
            w.state().turn
        } else {
            turns
        };
        Ok(GameResult {
            turns,
            winner,
            vp,
            details: m,
        })
    }

    /// Judges line of sight between two hex ids as scripts see it: the
    /// ruleset's LOS rules, then its `los_override` hook if it has one.
    /// Returns `(verdict, reasons, blocked_by, reason)`.
    pub fn los(&self, from: &str, to: &str) -> Result<(String, Vec<String>, String, String)> {
        for id in [from, to] {
            self.map()
                .parse(id)
                .map_err(|e| Error::rules(e.to_string()))?;
        }
        let probe = self
            .compiled
            .engine()
            .compile("fn __muster_los(game, a, b) { game.los(a, b) }")
            .map_err(|e| Error::rules(e.to_string()))?;
        let ast = self.compiled.ast().clone_functions_only().merge(&probe);
        let mut scope = Scope::new();
        let options = CallFnOptions::new().eval_ast(false);
        let args = (self.handle.clone(), from.to_string(), to.to_string());
        let m: rhai::Map = self
            .compiled
            .engine()
            .call_fn_with_options(options, &mut scope, &ast, "__muster_los", args)
            .map_err(|e| self.compiled.script_error(&e, "los"))?;
        let text = |k: &str| m.get(k).map(ToString::to_string).unwrap_or_default();
        let reasons = m
            .get("reasons")
            .and_then(|r| r.clone().into_array().ok())
            .map(|a| a.iter().map(ToString::to_string).collect())
            .unwrap_or_default();
        Ok((text("verdict"), reasons, text("blocked_by"), text("reason")))
    }

    /// The game as save-file text, at this point (call it at a turn boundary).
    pub fn snapshot(&self) -> Result<String> {
        self.checkpoint_text(&self.checkpoint())
    }

    /// The game at this point, kept as values rather than text: cheap to take at every turn
    /// boundary, and turned into save-file text only if it is needed (see
    /// [`Game::checkpoint_text`]).
    #[must_use]
    pub fn checkpoint(&self) -> Checkpoint {
        let w = self.handle.0.borrow();
        Checkpoint {
            state: w.state().clone(),
            dice: w.dice().state(),
            agent_stream: w.agent_stream().state(),
            set_up: self.set_up,
            log_len: w.log().records().len(),
        }
    }

    /// Save-file text of the game as it stood at `cp` (taken from this game).
    pub fn checkpoint_text(&self, cp: &Checkpoint) -> Result<String> {
        let save = SaveFile {
            scenario: self.scenario.clone(),
            state: cp.state.clone(),
            dice: cp.dice,
            agent_stream: cp.agent_stream,
            set_up: cp.set_up,
            log: self.handle.0.borrow().log().first_to_jsonl(cp.log_len),
        };
        ron::ser::to_string_pretty(&save, ron::ser::PrettyConfig::default())
            .map_err(|e| Error::rules(format!("cannot save: {e}")))
    }

    /// Saves the game at this turn boundary.
    pub fn save(&self, path: &Path) -> Result<()> {
        let text = self.snapshot()?;
        write_atomically(path, &text)
    }
}

/// Writes a file through a temporary, so a crash mid-write never destroys
/// the previous version.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).map_err(|source| Error::Io {
        path: tmp.clone(),
        source,
    })?;
    std::fs::rename(&tmp, path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

impl Game {
    /// A copy of the state.
    #[must_use]
    pub fn state(&self) -> State {
        self.handle.0.borrow().state().clone()
    }

    /// A copy of the log.
    #[must_use]
    pub fn log(&self) -> Log {
        self.handle.0.borrow().log().clone()
    }

    /// Forced dice values not yet used.
    #[must_use]
    pub fn forced_dice_left(&self) -> usize {
        self.handle.0.borrow().dice().forced_left()
    }

    /// Forced decisions not yet used.
    #[must_use]
    pub fn forced_decisions_left(&self) -> usize {
        self.handle.0.borrow().forced_decisions_left()
    }

    /// The map.
    #[must_use]
    pub fn map(&self) -> Rc<Map> {
        self.handle.0.borrow().map().clone()
    }
}

/// Compiles a scenario's ruleset, for profiling if `opts` asks.
fn load_ruleset(scenario: &Scenario, opts: &GameOptions) -> Result<CompiledRuleset> {
    let mut ruleset = if opts.profile {
        CompiledRuleset::load_profiled(&scenario.ruleset_dir())?
    } else {
        CompiledRuleset::load(&scenario.ruleset_dir())?
    };
    if opts.profile_lines && !crate::host::lines::count_lines(ruleset.engine_mut()) {
        return Err(Error::rules(crate::host::lines::UNAVAILABLE));
    }
    Ok(ruleset)
}
