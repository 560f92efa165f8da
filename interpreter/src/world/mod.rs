//! One game's world: its state, dice, log and agents, bound to the ruleset's data and a map,
//! and the protocol by which a side is asked a decision ([`decide`]).
//!
//! Invariant: everything random in a game comes from the world's [`dice::Dice`] stream (and
//! the random agent's own [`dice::Stream`] from the same seed); state is kept in insertion-
//! ordered maps, so the same seed and the same answers give the same game. Nothing here
//! builds or runs an engine: a decision the ruleset's bot answers calls back into the scripts
//! only through the [`rhai::NativeCallContext`] the host hands in. A [`World`]'s fields are
//! private: the rest of the engine reads and changes it through its methods.

pub mod agent;
pub mod bound;
pub mod decide;
pub mod dice;
pub mod fork;
pub mod log;
pub mod moves;
pub mod query;
pub mod save;
pub mod state;
pub mod timers;

use crate::geom::hex::Hex;
use crate::geom::los::LosEvaluator;
use crate::geom::map::Map;
use crate::geom::search::{CompiledProfile, CompiledZoc};
use crate::ruleset::Ruleset;
use agent::{AgentKind, Answer, StdTerminal, Stop, Terminal};
use bound::{HexIds, MapRules};
use dice::{Dice, Stream};
use indexmap::IndexMap;
use log::{Entry, Log, Record};
use rhai::{Array, EvalAltResult, INT};
use rustc_hash::FxHashMap as HashMap;
use save::Progress;
use state::{FxIndexMap, State, Unit};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use timers::Timers;

/// The result type of functions scripts call: an error is a script error.
pub type Rr<T> = Result<T, Box<EvalAltResult>>;

/// A script error with this message.
pub fn fail<T>(msg: impl Into<String>) -> Rr<T> {
    Err(msg.into().into())
}

/// Everything a game holds. Scripts reach it only through [`GameHandle`].
pub struct World {
    /// The state.
    state: State,
    /// The dice.
    dice: Dice,
    /// The random agent's own stream.
    agent_stream: Stream,
    /// The log.
    log: Log,
    /// The ruleset's rules bound to the map, and the map.
    bound: Rc<MapRules>,
    /// The ruleset.
    ruleset: Rc<Ruleset>,
    /// The optional hooks the ruleset's scripts define.
    hooks: Hooks,
    /// Who plays each side.
    agents: FxIndexMap<String, AgentKind>,
    /// Forced answers (examples), used before any agent.
    forced: VecDeque<Answer>,
    /// Every decision must take a forced answer (strict examples): none left is an error.
    only_forced: bool,
    /// The options of every decision asked, when an example records them.
    offers: Option<Vec<Offer>>,
    /// Forced draws (examples): the items the next draws take, in order.
    forced_draws: VecDeque<String>,
    /// The ruleset's named unit filters (`filters`) as script values, made once per game on
    /// first use: a query naming one then reads its keys without converting them.
    named_filters: std::cell::OnceCell<HashMap<String, Vec<(String, rhai::Dynamic)>>>,
    /// Script section timers (`game.timer(name)` ... `game.timer_end(name)`), for
    /// `muster play --profile`. Never read by rules.
    timers: Timers,
    /// How a human is asked.
    terminal: Box<dyn Terminal>,
    /// The game's save as it stands: every answer so far, and those of a save still to replay.
    progress: Progress,
    /// While a save is replayed: what to do when its last answer is (see [`World::begin_replay`]).
    replay_end: Option<ReplayEnd>,
    /// Why the game stopped at the terminal, once it has (undo, quit, end of input): every
    /// decision from then on fails at once, so the scripts unwind to the game's loop.
    stop: Option<Stop>,
    /// Who watches the game record by record (a replay being drawn), if anyone.
    watcher: Option<Box<dyn Watcher>>,
    /// Who answers for the search agents, when a side has one (see [`fork`]).
    searcher: Option<Rc<dyn fork::Searcher>>,
    /// The game at the start of this turn, kept for forks while a searcher plays.
    checkpoint: Option<std::sync::Arc<fork::Checkpoint>>,
    /// A fork's own seed, taken up when its last forced answer is (see [`fork`]).
    fresh_after_forced: Option<u64>,
    /// The searches audited (`muster play --audit N`), in order.
    audits: Vec<fork::AuditRow>,
}

/// One who watches a game as it is played: told of every log record as it is added, with the
/// state as it stands then, and of the route of every move chosen with `choose_move`. A
/// replay page (`muster replay`) is drawn so. A watcher only looks: it cannot change the
/// game. A game with no watcher pays one test of an `Option` per record.
pub trait Watcher {
    /// A record was added to the log; `state` is the state as it stands after it (a game
    /// started again on undo starts its records from 0 again).
    fn record(&mut self, state: &State, record: &Record);

    /// A side chose to move to the end of `route` (the hexes passed through, both ends
    /// included); the unit standing at its start moves there after this, unless the rules
    /// stop it on the way.
    fn route(&mut self, route: &[Hex]) {
        let _ = route;
    }
}

/// What ends a replay: the narration comes back on, and a resumed game says where it stands.
#[derive(Clone, Copy, Debug)]
struct ReplayEnd {
    /// Whether the narration was echoed before the replay.
    echo: bool,
    /// Say "resumed at turn T after N decisions".
    announce: bool,
}

/// The optional script hooks the core calls, as the compiled scripts define them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hooks {
    /// `fn los_override(game, from, to, verdict)`: the last word on a line of sight.
    pub los_override: bool,
}

/// One decision as an example records it: who was asked, what, and the options' labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// The side asked.
    pub side: String,
    /// The kind of decision.
    pub kind: String,
    /// Every option's label, in order.
    pub labels: Vec<String>,
}

/// The handle scripts receive as `game`: a shared reference to the [`World`].
#[derive(Clone)]
pub struct GameHandle(pub Rc<RefCell<World>>);

/// What the rest of the engine reads and changes of a world. The fields stay private: the
/// decision protocol ([`decide`]) is the one other module that sees them.
impl World {
    /// The state.
    #[must_use]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The state, to change.
    pub fn state_mut(&mut self) -> &mut State {
        &mut self.state
    }

    /// The dice.
    #[must_use]
    pub fn dice(&self) -> &Dice {
        &self.dice
    }

    /// The dice, to roll, force or restore.
    pub fn dice_mut(&mut self) -> &mut Dice {
        &mut self.dice
    }

    /// The random agent's own stream (its position is saved with the game).
    #[must_use]
    pub fn agent_stream(&self) -> &Stream {
        &self.agent_stream
    }

    /// The log.
    #[must_use]
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// The log, to change how it echoes (records are added with [`World::record`]).
    pub fn log_mut(&mut self) -> &mut Log {
        &mut self.log
    }

    /// The map.
    #[must_use]
    pub fn map(&self) -> &Rc<Map> {
        self.bound.map()
    }

    /// The ruleset's manifest and data.
    #[must_use]
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// The optional hooks the ruleset's scripts define.
    #[must_use]
    pub fn hooks(&self) -> Hooks {
        self.hooks
    }

    /// The ruleset's LOS rules bound to the map.
    #[must_use]
    pub fn los(&self) -> &LosEvaluator {
        self.bound.los()
    }

    /// The ruleset's zone-of-control rules bound to the map.
    #[must_use]
    pub fn zoc(&self) -> &CompiledZoc {
        self.bound.zoc()
    }

    /// Who plays `side`, `None` for a side the ruleset lacks.
    #[must_use]
    pub fn agent(&self, side: &str) -> Option<&AgentKind> {
        self.agents.get(side)
    }

    /// Hands every side to the random agent (an example that plays on at random).
    pub fn all_random(&mut self) {
        self.all_played_by(&AgentKind::Random);
    }

    /// Hands every side to `agent`.
    pub fn all_played_by(&mut self, agent: &AgentKind) {
        self.agents.values_mut().for_each(|a| *a = agent.clone());
    }

    /// Queues forced decisions, used before any agent.
    pub fn force_decisions(&mut self, answers: impl IntoIterator<Item = Answer>) {
        self.forced.extend(answers);
    }

    /// Forced decisions not yet used.
    #[must_use]
    pub fn forced_decisions_left(&self) -> usize {
        self.forced.len()
    }

    /// Whether every decision must take a forced answer (strict examples).
    pub fn set_only_forced(&mut self, only_forced: bool) {
        self.only_forced = only_forced;
    }

    /// Records the options of every decision from now on.
    pub fn record_offers(&mut self) {
        self.offers = Some(Vec::new());
    }

    /// The decisions recorded since [`World::record_offers`], in order (none when not recording).
    #[must_use]
    pub fn offers(&self) -> &[Offer] {
        self.offers.as_deref().unwrap_or_default()
    }

    /// Queues forced draws: the next draws take these items, in order.
    pub fn force_draws(&mut self, items: impl IntoIterator<Item = String>) {
        self.forced_draws.extend(items);
    }

    /// Forced draws not yet taken.
    #[must_use]
    pub fn forced_draws_left(&self) -> usize {
        self.forced_draws.len()
    }

    /// The next forced draw, taken from the queue (`None` when none is left).
    pub fn take_forced_draw(&mut self) -> Option<String> {
        self.forced_draws.pop_front()
    }

    /// The script section timers.
    #[must_use]
    pub fn timers(&self) -> &Timers {
        &self.timers
    }

    /// The script section timers, to open and close sections.
    pub fn timers_mut(&mut self) -> &mut Timers {
        &mut self.timers
    }

    /// Replaces how a human is asked (tests).
    pub fn set_terminal(&mut self, terminal: Box<dyn Terminal>) {
        self.terminal = terminal;
    }

    /// Takes how a human is asked, leaving the standard terminal (a game started again on undo
    /// keeps its terminal).
    pub fn take_terminal(&mut self) -> Box<dyn Terminal> {
        std::mem::replace(&mut self.terminal, Box::new(StdTerminal))
    }

    /// Shows a message at the terminal (see [`Terminal::tell`]).
    pub fn tell(&mut self, text: &str) {
        self.terminal.tell(text);
    }

    /// The game's save as it stands.
    #[must_use]
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// Hands the game a save to fill (a game's start) or to replay (a resumed game, undo).
    pub fn set_progress(&mut self, progress: Progress) {
        self.progress = progress;
    }

    /// Starts replaying the answers of the save still to replay: the narration is held back
    /// until the last of them, and then, if `announce`, the terminal is told where the game
    /// stands. With nothing to replay, that is told at once.
    pub fn begin_replay(&mut self, announce: bool) {
        let echo = self.log.echo;
        if self.progress.lock().pending_len() == 0 {
            self.replay_end = Some(ReplayEnd { echo, announce });
            self.end_replay();
        } else {
            self.log.echo = false;
            self.replay_end = Some(ReplayEnd { echo, announce });
        }
    }

    /// The last saved answer is replayed: the narration comes back, and a resumed game says so.
    fn end_replay(&mut self) {
        if let Some(end) = self.replay_end.take() {
            self.log.echo = end.echo;
            if end.announce {
                let n = self.progress.lock().replayed();
                let text = format!(
                    "resumed at turn {} after {n} decision{}",
                    self.state.turn,
                    if n == 1 { "" } else { "s" }
                );
                self.terminal.tell(&text);
            }
        }
    }

    /// Why the game stopped at the terminal, taken (the game's loop asks after a failed call).
    pub fn take_stop(&mut self) -> Option<Stop> {
        self.stop.take()
    }
}

impl World {
    /// The hex of a printed id: found by the address of its text when the core handed the id
    /// out, else parsed; an id not on the map is an error.
    pub fn hex(&self, id: &str) -> Rr<Hex> {
        // An id the core handed out is found without parsing; else text to parse (for its
        // error).
        match self.hex_ids().find(id) {
            Some(h) => Ok(h),
            None => self.map().parse(id).map_err(|e| e.to_string().into()),
        }
    }

    /// The map's hex ids as script strings, made on first use.
    pub fn hex_ids(&self) -> &Rc<HexIds> {
        self.bound.hex_ids()
    }

    /// The keys and values of the ruleset's unit filter `name` (its `filters`), `None` if it
    /// has none of that name.
    pub fn named_filter(&self, name: &str) -> Option<&[(String, rhai::Dynamic)]> {
        self.named_filters
            .get_or_init(|| {
                self.ruleset
                    .filters
                    .iter()
                    .map(|(n, keys)| {
                        let keys = keys.iter().map(|(k, v)| (k.clone(), v.to_dynamic()));
                        (n.clone(), keys.collect())
                    })
                    .collect()
            })
            .get(name)
            .map(Vec::as_slice)
    }

    /// The hexes next to `h` whose zone of control (the ruleset's `zoc` rules) reaches it: where
    /// a unit stands to have `h` in its zone (the filter key `zone_over`).
    pub fn zone_sources(&self, h: Hex) -> Vec<Hex> {
        let map = self.map();
        map.neighbours(h)
            .filter(|&n| self.zoc().reaches(map, n, h))
            .collect()
    }

    /// A unit's hex id, `None` off the map.
    pub fn location_id(&self, id: &str) -> Rr<Option<rhai::ImmutableString>> {
        Ok(self.unit_ref(id)?.location.map(|h| self.hex_id(h)))
    }

    /// The unit `id`; no such unit is an error.
    pub fn unit_ref(&self, id: &str) -> Rr<&Unit> {
        match self.state.units.get(id) {
            Some(u) => Ok(u),
            None => fail(format!("no unit `{id}`")),
        }
    }

    /// The unit `id`, to change; no such unit is an error.
    pub fn unit_mut(&mut self, id: &str) -> Rr<&mut Unit> {
        match self.state.units.get_mut(id) {
            Some(u) => Ok(u),
            None => fail(format!("no unit `{id}`")),
        }
    }

    /// The printed ids of `hexes`, in order, as a script's list.
    pub fn ids(&self, hexes: impl IntoIterator<Item = Hex>) -> Array {
        hexes.into_iter().map(|h| self.hex_id(h).into()).collect()
    }

    /// How many units of `side` stand in each hex, in set-up order of the units.
    pub fn stack_counts(&self, side: &str) -> FxIndexMap<Hex, INT> {
        // Room for every unit up front: growing the map step by step cost more than the counting.
        let mut counts =
            FxIndexMap::with_capacity_and_hasher(self.state.units.len(), rustc_hash::FxBuildHasher);
        for u in self.state.units.values() {
            if let Some(h) = u.location.filter(|_| u.side == side) {
                *counts.entry(h).or_default() += 1;
            }
        }
        counts
    }

    /// A hex's printed id as a script string, from the game's cache.
    pub fn hex_id(&self, h: Hex) -> rhai::ImmutableString {
        self.hex_ids().id(self.map(), h)
    }

    /// The movement profile `name` bound to the map; a name the ruleset lacks is an error.
    pub fn profile(&self, name: &str) -> Rr<&CompiledProfile> {
        match self.bound.profile(name) {
            Some(p) => Ok(p),
            None => fail(format!(
                "no movement profile `{name}` (the ruleset's `movement` names them)"
            )),
        }
    }

    /// Adds a record of `entry` to the log at the current turn, and shows it to the watcher:
    /// every record goes through here.
    pub fn record(&mut self, entry: Entry) {
        self.log.push(self.state.turn, entry);
        if let (Some(w), Some(r)) = (self.watcher.as_mut(), self.log.records().last()) {
            w.record(&self.state, r);
        }
    }

    /// Tells the watcher, if any, the route of a move just chosen (see [`Watcher::route`]).
    pub fn note_route(&mut self, route: &[Hex]) {
        if let Some(w) = self.watcher.as_mut() {
            w.route(route);
        }
    }

    /// Hands the game to a watcher from now on (see [`Watcher`]).
    pub fn set_watcher(&mut self, watcher: Box<dyn Watcher>) {
        self.watcher = Some(watcher);
    }

    /// Takes the watcher away, if any (a game started again on undo keeps its watcher).
    pub fn take_watcher(&mut self) -> Option<Box<dyn Watcher>> {
        self.watcher.take()
    }

    /// Logs an event of `kind` at the current turn.
    pub fn event(&mut self, kind: &str, text: String) {
        self.event_between(kind, text, Vec::new(), None);
    }

    /// Logs an event of `kind` at the current turn that goes from the hexes `from` to the hex
    /// `to` (printed ids): a combat's attackers and target, drawn as an arrow by a replay.
    pub fn event_between(
        &mut self,
        kind: &str,
        text: String,
        from: Vec<String>,
        to: Option<String>,
    ) {
        self.record(Entry::Event {
            kind: kind.to_string(),
            text,
            from,
            to,
        });
    }

    /// Rolls the named dice together (forced values first), logs each roll and returns the
    /// values in order.
    pub fn roll(&mut self, dice: &[String]) -> Rr<Vec<i64>> {
        let rolls = self.dice.roll_group(dice).map_err(|e| e.to_string())?;
        for r in &rolls {
            self.record(Entry::Roll {
                die: r.die.clone(),
                value: r.value,
                forced: r.forced,
            });
        }
        Ok(rolls.into_iter().map(|r| r.value).collect())
    }
}

impl World {
    /// A world at its start: `state` under `ruleset`, on the map `bound` holds with the ruleset's
    /// rules bound to it, dice and the random agent's
    /// stream seeded from `seed`, each side played by its agent in `agents` (the bot when not
    /// named), the narration echoed to standard output when `echo`.
    #[must_use]
    pub fn new(
        state: State,
        ruleset: Rc<Ruleset>,
        hooks: Hooks,
        bound: Rc<MapRules>,
        seed: u64,
        agents: &IndexMap<String, AgentKind>,
        echo: bool,
    ) -> World {
        let mut by_side = FxIndexMap::default();
        for side in &ruleset.sides {
            by_side.insert(
                side.clone(),
                agents.get(side).cloned().unwrap_or(AgentKind::Bot),
            );
        }
        // The save's start as far as the world knows it (the game adds the scenario and options).
        let agent_texts = by_side.iter().map(|(s, a)| (s.clone(), a.text())).collect();
        let (ruleset_name, rules_version) = (ruleset.name.clone(), ruleset.version.clone());
        World {
            state,
            dice: Dice::new(ruleset.dice.clone(), seed),
            // A second stream from the same seed, far from the dice's.
            agent_stream: Stream::new(seed ^ 0x5851_F42D_4C95_7F2D),
            log: {
                let mut log = Log::default();
                log.echo = echo;
                log
            },
            bound,
            ruleset,
            hooks,
            agents: by_side,
            forced: VecDeque::new(),
            only_forced: false,
            offers: None,
            forced_draws: VecDeque::new(),
            timers: Timers::default(),
            named_filters: std::cell::OnceCell::new(),
            terminal: Box::new(StdTerminal),
            progress: Progress::new(save::SaveFile {
                format: save::FORMAT,
                scenario: std::path::PathBuf::new(),
                ruleset: ruleset_name,
                rules_version,
                seed,
                options: IndexMap::new(),
                agents: agent_texts,
                answers: Vec::new(),
            }),
            replay_end: None,
            stop: None,
            watcher: None,
            searcher: None,
            checkpoint: None,
            fresh_after_forced: None,
            audits: Vec::new(),
        }
    }
}
