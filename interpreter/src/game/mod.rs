//! A game in progress: the state, the dice, the log and the agents, bound to a
//! compiled ruleset and a map, and the loop that runs it from set-up to the
//! victory check.
//!
//! The ruleset's scripts define the procedures the loop calls:
//! `setup(game)` once (optional), `game_turn(game)` each turn, and
//! `victory(game)`, which returns `#{ winner: "...", vp: #{ side: n } }`.
//!
//! A game is saved as what reproduces it (see [`crate::world::save`]): the scenario, the seed,
//! the options, the agents and every answer so far. Resuming starts the scenario afresh and
//! replays the answers, which is also how `undo` at the terminal works: the game starts again
//! and replays every answer before the one taken back.

pub mod lookahead;

use crate::error::{Error, Result};
use crate::geom::map::Map;
use crate::host::compiled::CompiledRuleset;
use crate::ruleset::Ruleset;
use crate::scenario::{build_state, Scenario, Setup};
use crate::value::Value;
use crate::world::agent::{AgentKind, Answer, Stop, Terminal};
use crate::world::bound::MapRules;
use crate::world::fork::ForkPoint;
use crate::world::log::Log;
use crate::world::save::Progress;
use crate::world::state::State;
use crate::world::timers::SectionTime;
use crate::world::{GameHandle, Offer, World};
use indexmap::IndexMap;
use rhai::{CallFnOptions, Dynamic, Scope};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

pub use crate::world::save::{write_atomically, SaveFile};

/// How a game is started.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    /// The seed of the dice ([`Game::resume`] takes the save's).
    pub seed: u64,
    /// Agents by side; sides not named are played by `bot` ([`Game::resume`]: by the save's
    /// agent, so these override the save's).
    pub agents: IndexMap<String, AgentKind>,
    /// Options that override the scenario's ([`Game::resume`] takes the save's).
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
    /// Audit every search of the search agents with this many fresh rollouts an option tried
    /// (`muster play --audit N`; 0: none). The game's answers stay the same; [`Game::audits`]
    /// holds what the audits found.
    pub audit: usize,
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

/// How a game played with [`Game::play`] ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Played {
    /// The game was played to its end: the victory check's result.
    Over(GameResult),
    /// A person stopped it at the terminal (`quit`, or the end of input); the game's save
    /// ([`Game::progress`]) holds every answer so far. The scripts were stopped mid-call, so
    /// this game cannot go on: its save resumes it.
    Stopped(Stop),
}

/// What a game was started from, to start it again on undo.
struct Origin {
    scenario: Scenario,
    bound: Rc<MapRules>,
    opts: GameOptions,
}

/// A game bound to its ruleset.
pub struct Game {
    handle: GameHandle,
    compiled: Rc<CompiledRuleset>,
    scenario: PathBuf,
    set_up: bool,
    /// `None` for a game of an example's set-up, which cannot be started again.
    origin: Option<Origin>,
    /// What a resumed game found worth saying (the rules changed since the save).
    warnings: Vec<String>,
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
        let bound = MapRules::new(ruleset.ruleset(), Rc::new(scenario.load_map()?));
        Game::start_on(scenario, ruleset, bound, opts)
    }

    /// Starts a game of a loaded scenario on a compiled ruleset and its rules bound to the
    /// loaded map (batch runs make both once per worker, [`Loaded`]).
    pub fn start_on(
        scenario: &Scenario,
        ruleset: Rc<CompiledRuleset>,
        bound: Rc<MapRules>,
        opts: &GameOptions,
    ) -> Result<Game> {
        // What `muster check` checks, so that a game stops before turn 1 with its messages.
        ruleset
            .ruleset()
            .check_command_line_options(&opts.options)?;
        Error::from_problems(ruleset.missing_procedures())?;
        let mut game = Game::begin(scenario, ruleset, bound.clone(), opts)?;
        game.validate_scenario(scenario)?;
        game.origin = Some(Origin {
            scenario: scenario.clone(),
            bound,
            opts: opts.clone(),
        });
        Ok(game)
    }

    /// A new game of a scenario, at its set-up, its save started.
    fn begin(
        scenario: &Scenario,
        ruleset: Rc<CompiledRuleset>,
        bound: Rc<MapRules>,
        opts: &GameOptions,
    ) -> Result<Game> {
        let mut setup = scenario.file.setup();
        setup.options.extend(opts.options.clone());
        let game = Game::with_setup(&setup, ruleset, bound, opts, &scenario.text, &scenario.path)?;
        {
            let mut w = game.handle.0.borrow_mut();
            if opts
                .agents
                .values()
                .any(|a| matches!(a, AgentKind::Search(_)))
            {
                w.set_searcher(Rc::new(
                    lookahead::Lookahead::new(&scenario.path).auditing(opts.audit)?,
                ));
            }
            w.state_mut().turn = scenario.file.first_turn;
            w.state_mut().last_turn = scenario.file.last_turn;
            let mut answers = w.progress().lock();
            answers.file_mut().scenario = scenario.path.clone();
            answers.file_mut().options = opts.options.clone();
        }
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

    /// Starts a game from a set-up (scenarios and example files) on `compiled` and its rules
    /// bound to the map (`bound`, made with [`MapRules::new`]).
    pub fn with_setup(
        setup: &Setup,
        compiled: Rc<CompiledRuleset>,
        bound: Rc<MapRules>,
        opts: &GameOptions,
        text: &str,
        path: &Path,
    ) -> Result<Game> {
        let ruleset = compiled.ruleset();
        let state = build_state(setup, ruleset, bound.map(), text, path)?;
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
            bound,
            opts.seed,
            &opts.agents,
            opts.echo,
        );
        Ok(Game {
            handle: GameHandle(Rc::new(RefCell::new(world))),
            compiled,
            scenario: path.to_path_buf(),
            set_up: false,
            origin: None,
            warnings: Vec::new(),
        })
    }

    /// A fork of a game at the decision `at` (see [`crate::world::fork`]), on a scenario, ruleset
    /// and map loaded by this thread: the game as it stood at the decision's checkpoint, its
    /// answers since forced, then `option` forced, and from there its own dice from `seed` and
    /// every side played by the ruleset's bot.
    #[must_use]
    pub fn fork(loaded: &Loaded, at: &ForkPoint, option: usize, seed: u64) -> Game {
        let ruleset = loaded.ruleset.ruleset();
        let bots = ruleset
            .sides
            .iter()
            .map(|s| (s.clone(), AgentKind::Bot))
            .collect();
        let mut world = World::new(
            at.checkpoint.state.clone(),
            ruleset.clone(),
            loaded.ruleset.hooks(),
            loaded.bound.clone(),
            at.seed,
            &bots,
            false,
        );
        world.become_fork(at, option, seed);
        Game {
            handle: GameHandle(Rc::new(RefCell::new(world))),
            compiled: loaded.ruleset.clone(),
            scenario: loaded.scenario_path.clone(),
            set_up: true,
            origin: None,
            warnings: Vec::new(),
        }
    }

    /// Resumes a saved game: starts its scenario afresh with the save's seed, options and
    /// agents (a side named in `opts.agents` is played by that agent instead), and replays the
    /// saved answers as the game asks for them, without narration. A person's answer (or a
    /// replay log's) is taken from the save; the bot and the random agent answer again and must
    /// give the saved answer, else the game stops with an error naming the decision. A ruleset
    /// changed since the save is only a warning ([`Game::warnings`]): a ruleset fixed after a
    /// rules error must be able to resume the game that found it.
    pub fn resume(save_path: &Path, opts: &GameOptions) -> Result<Game> {
        Game::resume_from(SaveFile::load(save_path)?, save_path, opts)
    }

    /// Resumes the save `save`, read from `save_path` (see [`Game::resume`]).
    pub fn resume_from(save: SaveFile, save_path: &Path, opts: &GameOptions) -> Result<Game> {
        let scenario = Scenario::load(&save.scenario)?;
        let compiled = Rc::new(load_ruleset(&scenario, opts)?);
        let ruleset = compiled.ruleset();
        let mut warnings = Vec::new();
        if ruleset.name != save.ruleset || ruleset.version != save.rules_version {
            warnings.push(format!(
                "the rules changed since this game was saved ({} version {}, now {} version {}); the replay checks every answer of the bot and the random agent",
                save.ruleset, save.rules_version, ruleset.name, ruleset.version
            ));
        }
        let mut agents = IndexMap::new();
        for (side, text) in &save.agents {
            if !ruleset.sides.contains(side) {
                return Err(Error::at(
                    crate::error::Location::file(save_path),
                    format!(
                        "the save's agents name side `{side}`; the ruleset's sides are {}",
                        ruleset.sides.join(", ")
                    ),
                ));
            }
            agents.insert(side.clone(), AgentKind::parse(text, side)?);
        }
        agents.extend(opts.agents.clone());
        let run = GameOptions {
            seed: save.seed,
            agents,
            options: save.options.clone(),
            ..opts.clone()
        };
        let mut game = Game::start(&scenario, compiled, &run)?;
        {
            let mut w = game.handle.0.borrow_mut();
            w.progress().lock().file_mut().answers = save.answers;
            w.begin_replay(true);
        }
        game.warnings = warnings;
        Ok(game)
    }

    /// Starts the game again from its scenario and replays its first `keep` answers: the
    /// decision of the answer `keep` is then asked anew (undo at the terminal).
    fn rewind(&mut self, keep: usize) -> Result<()> {
        let Some(origin) = &self.origin else {
            return Err(Error::rules(
                "undo needs a game started from a scenario, not an example's set-up",
            ));
        };
        let fresh = Game::begin(
            &origin.scenario,
            self.compiled.clone(),
            origin.bound.clone(),
            &origin.opts,
        )?;
        let (terminal, progress, watcher) = {
            let mut w = self.handle.0.borrow_mut();
            (w.take_terminal(), w.progress().clone(), w.take_watcher())
        };
        progress.lock().keep(keep);
        {
            let mut w = fresh.handle.0.borrow_mut();
            w.set_terminal(terminal);
            if let Some(watcher) = watcher {
                w.set_watcher(watcher);
            }
            w.set_progress(progress);
            w.begin_replay(false);
        }
        self.handle = fresh.handle;
        self.set_up = false;
        Ok(())
    }

    /// What resuming found worth saying: that the rules changed since the save.
    #[must_use]
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The scenario played, as the command line (or the save) named it.
    #[must_use]
    pub fn scenario_path(&self) -> &Path {
        &self.scenario
    }

    /// The seed of the dice (a resumed game's is the save's).
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.progress().lock().file().seed
    }

    /// The game's save as it stands, shared: whoever holds it can write it (the Ctrl-C
    /// handler, on its own thread), and it follows the game through undo.
    #[must_use]
    pub fn progress(&self) -> Progress {
        self.handle.0.borrow().progress().clone()
    }

    /// Keeps the game in `path` after every turn and whenever a person is asked (`--save`, or
    /// the file a game was resumed from); `save` at the prompt and `quit` write there too
    /// unless told otherwise.
    pub fn set_save_to(&mut self, path: Option<PathBuf>) {
        self.progress().lock().set_save_to(path);
    }

    /// Whether saved answers are still being replayed.
    #[must_use]
    pub fn replaying(&self) -> bool {
        self.progress().lock().pending_len() > 0
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

    /// Hands the game to a watcher, told of every record and move route from now on (see
    /// [`crate::world::Watcher`]); it follows the game through undo.
    pub fn set_watcher(&mut self, watcher: Box<dyn crate::world::Watcher>) {
        self.handle.0.borrow_mut().set_watcher(watcher);
    }

    /// The first line of the game's log as `muster play --log` writes it: the game's start
    /// (scenario, ruleset and version, seed, options, agents), which with the log's decisions
    /// plays the game again.
    #[must_use]
    pub fn log_header(&self) -> crate::world::log::Header {
        self.progress().lock().file().header()
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

    /// Closes the script sections a stopped game left open (see `game.timer`) and returns
    /// them, innermost first: with `--profile`, the functions that were running.
    pub fn close_open_sections(&mut self) -> Vec<String> {
        let operations = crate::host::engine::operations();
        let mut w = self.handle.0.borrow_mut();
        let open = w.timers().open_sections().map(str::to_string).collect();
        w.timers_mut().close_all_at(operations);
        open
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
        {
            let mut w = self.handle.0.borrow_mut();
            let number = w.state().turn;
            w.record(crate::world::log::Entry::Turn { number });
            w.keep_checkpoint();
        }
        let _ = self.call("game_turn", vec![])?;
        let mut w = self.handle.0.borrow_mut();
        if !w.state().ended {
            w.state_mut().turn += 1;
        }
        Ok(())
    }

    /// Plays to the end and runs the victory check. With `save`, the game is kept there after
    /// every turn and whenever a person is asked (see [`Game::set_save_to`]). A person who stops
    /// the game at the terminal makes this an error; [`Game::play`] tells a stop apart.
    pub fn run(&mut self, save: Option<&Path>) -> Result<GameResult> {
        if save.is_some() {
            self.set_save_to(save.map(Path::to_path_buf));
        }
        match self.play()? {
            Played::Over(r) => Ok(r),
            Played::Stopped(stop) => Err(Error::rules(format!(
                "the game {stop}; its save holds every answer so far"
            ))),
        }
    }

    /// Plays to the end and runs the victory check, taking back answers when a person asks
    /// (undo: the game starts again and replays the answers before the one taken back), until
    /// the game is over or a person stops it (quit, end of input).
    pub fn play(&mut self) -> Result<Played> {
        loop {
            let error = match self.play_to_end() {
                Ok(r) => return Ok(Played::Over(r)),
                Err(e) => e,
            };
            // A stop at the terminal fails the decision it was asked at, and so the call that
            // asked; the world says which it was (no script catches errors: none uses `try`).
            let stop = self.handle.0.borrow_mut().take_stop();
            match stop {
                Some(Stop::Undo { keep }) => self.rewind(keep)?,
                Some(stop) => return Ok(Played::Stopped(stop)),
                None => return Err(error),
            }
        }
    }

    /// Plays on until a decision would ask someone, and stops there: every side is handed to a
    /// person who is never asked. A resumed save thus stops at the first decision after its
    /// last answer, and a fresh game after its set-up: the position as it stands then (a view
    /// of the board). A game that ends first ends.
    pub fn play_until_asked(&mut self) -> Result<()> {
        {
            let mut w = self.handle.0.borrow_mut();
            w.all_played_by(&AgentKind::Human);
            w.set_terminal(Box::new(crate::world::agent::Absent));
        }
        self.play().map(|_| ())
    }

    /// Runs `setup` if it has not run, the turns left, and the victory check; `--save` keeps
    /// every turn boundary.
    fn play_to_end(&mut self) -> Result<GameResult> {
        self.set_up()?;
        while !self.over() {
            self.play_turn()?;
            // A replay passes the turns the save already holds: nothing new to keep.
            if !self.replaying() {
                if let Some(saved) = self.progress().autosave() {
                    saved?;
                }
            }
        }
        self.victory()
    }

    /// Runs the ruleset's `victory` and reads its answer. A game that ends before it has
    /// replayed every answer of its save is not the game that was saved: an error.
    pub fn victory(&self) -> Result<GameResult> {
        let left = self.progress().lock().pending_len();
        if left > 0 {
            return Err(Error::rules(format!(
                "the saved game no longer replays on these rules: the game is over with {left} of the save's answers not given"
            )));
        }
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

    /// The game as save-file text, at this point: every answer so far.
    pub fn save_text(&self) -> Result<String> {
        self.progress().text()
    }

    /// Saves the game at this point, whatever the point: a save holds the answers, not the state.
    pub fn save(&self, path: &Path) -> Result<()> {
        self.progress().save(Some(path)).map(|_| ())
    }
}

impl Game {
    /// A copy of the state.
    #[must_use]
    pub fn state(&self) -> State {
        self.handle.0.borrow().state().clone()
    }

    /// The searches audited so far (see [`GameOptions::audit`]), in order.
    #[must_use]
    pub fn audits(&self) -> Vec<crate::world::fork::AuditRow> {
        self.handle.0.borrow().audits().to_vec()
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

/// A scenario loaded with its compiled ruleset and map, to start many games of it on one
/// thread (batch runs, the search agent's rollouts).
pub struct Loaded {
    /// The scenario file as named.
    pub scenario_path: PathBuf,
    /// The scenario.
    pub scenario: Scenario,
    /// Its ruleset, compiled.
    pub ruleset: Rc<CompiledRuleset>,
    /// Its ruleset's rules bound to its map (the map among them), shared by the games started
    /// or forked from it.
    pub bound: Rc<MapRules>,
}

impl Loaded {
    /// Loads the scenario `path`, compiles its ruleset and loads its map.
    pub fn load(path: &Path) -> Result<Loaded> {
        let scenario = Scenario::load(path)?;
        let ruleset = Rc::new(CompiledRuleset::load(&scenario.ruleset_dir())?);
        let map = Rc::new(scenario.load_map()?);
        Ok(Loaded {
            scenario_path: path.to_path_buf(),
            scenario,
            bound: MapRules::new(ruleset.ruleset(), map),
            ruleset,
        })
    }

    /// The scenario `path` as this thread has loaded it: loaded on the thread's first ask (the
    /// compiled scripts cannot cross threads), then kept until another scenario is asked for.
    pub fn on_this_thread(path: &Path) -> Result<Rc<Loaded>> {
        thread_local! {
            static LOADED: RefCell<Option<Rc<Loaded>>> = const { RefCell::new(None) };
        }
        LOADED.with(|cell| {
            if let Some(l) = cell.borrow().as_ref().filter(|l| l.scenario_path == path) {
                return Ok(l.clone());
            }
            let loaded = Rc::new(Loaded::load(path)?);
            *cell.borrow_mut() = Some(loaded.clone());
            Ok(loaded)
        })
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
