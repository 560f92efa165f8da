//! `muster replay` and `muster play --html`: a game watched record by record ([`Recording`],
//! a [`Watcher`]) and written as one self-contained HTML page (inline SVG, script and style;
//! it opens from disk): the map with the counters moving, the narration beside it, the turn,
//! phase and tracks, controls to step, play and jump.
//!
//! A replay is the game run again: a log's header line and its decisions (or a save) start the
//! scenario afresh and replay the answers ([`replay`]). The page's data is one frame a record:
//! what changed since the record before (units' hexes and appearances, phase, tracks), each
//! with the value it replaced, so that the page steps back exactly; a move's route (told by
//! `choose_move`) or an event's hexes (`game.event(kind, text, #{ from, to })`) are drawn over
//! the map. All drawing is the board's (Rust): the page's script only places counters, swaps
//! their appearances and draws the overlays.

use crate::error::{Error, Location, Result};
use crate::game::{Game, GameOptions, Played};
use crate::geom::hex::Hex;
use crate::geom::map::Map;
use crate::view::svg::{escape, Board};
use crate::world::agent::{Absent, AgentKind};
use crate::world::log::{Entry, LogFile, Record};
use crate::world::save::SaveFile;
use crate::world::state::{State, Unit};
use crate::world::{Offer, Watcher};
use indexmap::IndexMap;
use serde_json::{json, Value as Json};
use std::cell::RefCell;
use std::fmt::Write;
use std::path::Path;
use std::rc::Rc;

/// The page's skeleton; `/*STYLE*/`, `<!--SVG-->`, `/*DATA*/`, `/*SCRIPT*/` and `TITLE` are
/// filled in.
const PAGE_HTML: &str = include_str!("replay/page.html");
/// The page's script: places counters, steps, plays, highlights.
const PAGE_JS: &str = include_str!("replay/page.js");
/// The page's style.
const PAGE_CSS: &str = include_str!("replay/page.css");

/// How many stack offsets the page gets (a larger stack reuses the last).
const STACK_OFFSETS: usize = 16;

/// What one record changed, as the watcher saw it.
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    /// The record.
    record: Record,
    /// Units changed since the record before: index (set-up order), the unit before, after.
    units: Vec<(usize, Unit, Unit)>,
    /// The phase before and after, if it changed.
    phase: Option<(String, String)>,
    /// Tracks changed: name, before (0 when new), after.
    tracks: Vec<(String, i64, i64)>,
    /// The routes of the moves chosen since the record before (see [`Watcher::route`]).
    routes: Vec<Vec<Hex>>,
    /// Hexes whose markers changed: the hex, its markers before, after.
    hex_markers: Vec<(Hex, Vec<String>, Vec<String>)>,
}

/// The markers on each hex that has any.
type HexMarkers = IndexMap<Hex, Vec<String>>;

fn hex_markers(state: &State) -> HexMarkers {
    state
        .hex_markers
        .iter()
        .filter(|(_, m)| !m.is_empty())
        .map(|(h, m)| (*h, m.iter().cloned().collect()))
        .collect()
}

/// What a [`Recording`] collects: the state at the start, the state as the last record left
/// it, and a [`Seen`] a record.
#[derive(Debug, Default)]
struct Collected {
    start: Vec<Unit>,
    start_phase: String,
    start_tracks: IndexMap<String, i64>,
    start_hex_markers: HexMarkers,
    last: Vec<Unit>,
    last_hex_markers: HexMarkers,
    phase: String,
    tracks: IndexMap<String, i64>,
    /// Routes told since the last record.
    routes: Vec<Vec<Hex>>,
    seen: Vec<Seen>,
}

impl Collected {
    /// Starts from `state`.
    fn new(state: &State) -> Collected {
        let units: Vec<Unit> = state.units.values().cloned().collect();
        let tracks: IndexMap<String, i64> =
            state.tracks.iter().map(|(k, v)| (k.clone(), *v)).collect();
        Collected {
            start: units.clone(),
            start_phase: state.phase.clone(),
            start_tracks: tracks.clone(),
            start_hex_markers: hex_markers(state),
            last: units,
            last_hex_markers: hex_markers(state),
            phase: state.phase.clone(),
            tracks,
            routes: Vec::new(),
            seen: Vec::new(),
        }
    }

    /// Takes in a record and the state after it.
    fn take(&mut self, state: &State, record: &Record) {
        if record.seq == 0 && !self.seen.is_empty() {
            // Undo started the game again: its records come again from the start.
            self.seen.clear();
            self.last.clone_from(&self.start);
            self.phase.clone_from(&self.start_phase);
            self.tracks.clone_from(&self.start_tracks);
            self.last_hex_markers.clone_from(&self.start_hex_markers);
        }
        let mut units = Vec::new();
        for (i, u) in state.units.values().enumerate() {
            match self.last.get(i) {
                Some(before) if before == u => {}
                Some(before) if before.id == u.id => {
                    units.push((i, before.clone(), u.clone()));
                    self.last[i] = u.clone();
                }
                // A unit the rules added: it stood nowhere before.
                _ => {
                    let mut before = u.clone();
                    before.location = None;
                    units.push((i, before, u.clone()));
                    if i < self.last.len() {
                        self.last[i] = u.clone();
                    } else {
                        self.last.push(u.clone());
                    }
                }
            }
        }
        let phase = (state.phase != self.phase).then(|| {
            let before = std::mem::replace(&mut self.phase, state.phase.clone());
            (before, state.phase.clone())
        });
        let mut tracks = Vec::new();
        for (name, v) in &state.tracks {
            let before = self.tracks.get(name).copied();
            if before != Some(*v) {
                tracks.push((name.clone(), before.unwrap_or(0), *v));
                self.tracks.insert(name.clone(), *v);
            }
        }
        let now = hex_markers(state);
        let mut marked: Vec<(Hex, Vec<String>, Vec<String>)> = Vec::new();
        for (h, after) in &now {
            match self.last_hex_markers.get(h) {
                Some(before) if before == after => {}
                before => marked.push((*h, before.cloned().unwrap_or_default(), after.clone())),
            }
        }
        for (h, before) in &self.last_hex_markers {
            if !now.contains_key(h) {
                marked.push((*h, before.clone(), Vec::new()));
            }
        }
        self.last_hex_markers = now;
        self.seen.push(Seen {
            hex_markers: marked,
            record: record.clone(),
            units,
            phase,
            tracks,
            routes: std::mem::take(&mut self.routes),
        });
    }
}

/// The watcher a [`Recording`] hands the game.
struct Recorder(Rc<RefCell<Collected>>);

impl Watcher for Recorder {
    fn record(&mut self, state: &State, record: &Record) {
        self.0.borrow_mut().take(state, record);
    }

    fn route(&mut self, route: &[Hex]) {
        self.0.borrow_mut().routes.push(route.to_vec());
    }
}

/// A game being watched for its replay page, record by record.
pub struct Recording(Rc<RefCell<Collected>>);

impl Recording {
    /// Watches `game` from now on (before its set-up: the page starts where the game does).
    pub fn watch(game: &mut Game) -> Recording {
        let collected = Rc::new(RefCell::new(Collected::new(&game.state())));
        game.set_watcher(Box::new(Recorder(collected.clone())));
        Recording(collected)
    }

    /// How many records were seen.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.borrow().seen.len()
    }

    /// Whether no record was seen.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The replay page of what was seen of `game`, titled `title`.
    #[must_use]
    pub fn page(&self, game: &Game, title: &str) -> String {
        let map = game.map();
        let style = &game.ruleset().style;
        let board = Board::new(&map, style).with_sides(&game.ruleset().sides);
        let Frames {
            mut data,
            looks,
            badges,
        } = frames(&self.0.borrow(), &map, &board, &game.offers());
        let (x, y, w, h) = board.view_box();
        let mut svg = format!(
            "<svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{x:.1} {y:.1} {w:.1} {h:.1}\" font-family=\"Helvetica, Arial, sans-serif\">{}<defs>",
            board.defs()
        );
        for (i, body) in looks.iter().enumerate() {
            let _ = write!(svg, "<g id=\"L{i}\">{body}</g>");
        }
        for (i, body) in badges.iter().enumerate() {
            let _ = write!(svg, "<g id=\"M{i}\">{body}</g>");
        }
        svg.push_str(
            "<marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\"/></marker></defs>",
        );
        svg.push_str(&board.map_layer());
        svg.push_str("<g id=\"hexmarks\"></g><g id=\"units\"></g><g id=\"overlay\"></g></svg>");
        if let Json::Object(m) = &mut data {
            m.insert("title".into(), title.into());
            m.insert("hex_size".into(), style.hex_size.into());
        }
        // `</` cannot end the script early: JSON may write `<\/`.
        let json = data.to_string().replace("</", "<\\/");
        PAGE_HTML
            .replace("TITLE", &escape(title))
            .replace("/*STYLE*/", PAGE_CSS)
            .replace("<!--SVG-->", &svg)
            .replace("/*DATA*/", &format!("const DATA = {json};"))
            .replace("/*SCRIPT*/", PAGE_JS)
    }

    /// The state after the `n`-th record (after none: the start), `None` past the last.
    #[must_use]
    pub fn units_after(&self, n: usize) -> Option<Vec<Unit>> {
        let c = self.0.borrow();
        if n > c.seen.len() {
            return None;
        }
        let mut units = c.start.clone();
        for s in &c.seen[..n] {
            for (i, _, after) in &s.units {
                if *i < units.len() {
                    units[*i] = after.clone();
                } else {
                    units.push(after.clone());
                }
            }
        }
        Some(units)
    }
}

/// A decision lists its options on the page when it has at most this many; a longer list (a
/// move's destinations) is given as its count.
const LISTED_OPTIONS: usize = 10;

/// What [`frames`] makes of a recording: the page's data, and the SVG of each distinct counter
/// appearance and hex-marker badge set the data refers to by index.
struct Frames {
    data: Json,
    looks: Vec<String>,
    badges: Vec<String>,
}

/// The page's data: units, hex centres, stack offsets, the start and one frame a record, each
/// change with the value it replaced; the appearances it refers to beside it.
fn frames(c: &Collected, map: &Map, board: &Board, offers: &[Offer]) -> Frames {
    // The options of each decision, in the order the decisions were logged (a game recording
    // its offers records one for every decision it logs).
    let mut offers = offers.iter();
    let mut looks: IndexMap<String, usize> = IndexMap::new();
    let mut look = |u: &Unit| -> usize {
        let body = board.counter_body(u);
        let n = looks.len();
        *looks.entry(body).or_insert(n)
    };
    // Hex markers likewise: each distinct set of badges once; -1 for none shown.
    let mut badge_sets: IndexMap<String, usize> = IndexMap::new();
    let mut badges = |m: &[String]| -> i64 {
        let body = board.hex_markers_body(m.iter());
        if body.is_empty() {
            return -1;
        }
        let n = badge_sets.len();
        *badge_sets.entry(body).or_insert(n) as i64
    };
    let mut centres: IndexMap<String, (f64, f64)> = IndexMap::new();
    let mut hex = |h: Option<Hex>| -> Json {
        match h {
            Some(h) => {
                let id = map.id(h);
                centres.entry(id.clone()).or_insert_with(|| board.center(h));
                Json::String(id)
            }
            None => Json::Null,
        }
    };
    let units: Vec<Json> = c
        .start
        .iter()
        .chain(c.last.iter().skip(c.start.len()))
        .map(|u| json!({"id": u.id, "name": u.name, "side": u.side}))
        .collect();
    let start: Vec<Json> = c
        .start
        .iter()
        .map(|u| json!([hex(u.location), look(u)]))
        .collect();
    let start_marks: Vec<Json> = c
        .start_hex_markers
        .iter()
        .map(|(h, m)| json!([hex(Some(*h)), badges(m)]))
        .collect();
    let mut frames = Vec::with_capacity(c.seen.len());
    for s in &c.seen {
        let (kind, text) = match &s.record.entry {
            Entry::Turn { .. } => ("turn", s.record.narrate()),
            Entry::Roll { .. } => ("roll", s.record.narrate().trim_start().to_string()),
            Entry::Decision { .. } => ("decision", s.record.narrate().trim_start().to_string()),
            Entry::Event { .. } => ("event", s.record.narrate().trim_start().to_string()),
        };
        let mut f = serde_json::Map::new();
        f.insert("t".into(), s.record.turn.into());
        f.insert("k".into(), kind.into());
        f.insert("x".into(), text.into());
        match &s.record.entry {
            Entry::Turn { number } => {
                f.insert("n".into(), (*number).into());
            }
            Entry::Decision {
                side, agent, kind, ..
            } => {
                f.insert("d".into(), json!([side, agent, kind]));
                if let Some(o) = offers.next().filter(|o| o.side == *side && o.kind == *kind) {
                    if o.labels.len() <= LISTED_OPTIONS {
                        f.insert("o".into(), json!(o.labels));
                    } else {
                        f.insert("o".into(), o.labels.len().into());
                    }
                }
            }
            Entry::Event { kind, from, to, .. } => {
                f.insert("e".into(), kind.as_str().into());
                if let Some(to) = to.as_ref().and_then(|t| map.parse(t).ok()) {
                    let from: Vec<Json> = from
                        .iter()
                        .filter_map(|h| map.parse(h).ok())
                        .map(|h| hex(Some(h)))
                        .collect();
                    f.insert("a".into(), json!([from, hex(Some(to))]));
                }
            }
            Entry::Roll { .. } => {}
        }
        if !s.units.is_empty() {
            let mut moved = Vec::new();
            let changes: Vec<Json> = s
                .units
                .iter()
                .map(|(i, before, after)| {
                    if let (Some(a), Some(b)) = (before.location, after.location) {
                        if a != b {
                            moved.push((a, b));
                        }
                    }
                    json!([
                        i,
                        hex(after.location),
                        look(after),
                        hex(before.location),
                        look(before)
                    ])
                })
                .collect();
            f.insert("u".into(), changes.into());
            // Each move drawn as its route if one was told, else from -> to.
            let routes: Vec<Json> = moved
                .iter()
                .map(|&(a, b)| {
                    let told = s
                        .routes
                        .iter()
                        .find(|r| r.first() == Some(&a) && r.last() == Some(&b));
                    let path = told.cloned().unwrap_or_else(|| vec![a, b]);
                    path.into_iter().map(|h| hex(Some(h))).collect()
                })
                .collect();
            if !routes.is_empty() {
                f.insert("r".into(), routes.into());
            }
        }
        if !s.hex_markers.is_empty() {
            let m: Vec<Json> = s
                .hex_markers
                .iter()
                .map(|(h, before, after)| json!([hex(Some(*h)), badges(after), badges(before)]))
                .collect();
            f.insert("m".into(), m.into());
        }
        if let Some((before, after)) = &s.phase {
            f.insert("p".into(), json!([after, before]));
        }
        if !s.tracks.is_empty() {
            let v: Vec<Json> = s
                .tracks
                .iter()
                .map(|(n, before, after)| json!([n, after, before]))
                .collect();
            f.insert("v".into(), v.into());
        }
        frames.push(Json::Object(f));
    }
    let stack: Vec<Json> = (0..STACK_OFFSETS)
        .map(|i| {
            let (x, y) = board.stack_offset(i);
            json!([round(x), round(y)])
        })
        .collect();
    let centres: serde_json::Map<String, Json> = centres
        .into_iter()
        .map(|(k, (x, y))| (k, json!([round(x), round(y)])))
        .collect();
    let marks_at = board.hex_markers_offset();
    let data = json!({
        "units": units,
        "marks": start_marks,
        "marks_at": [round(marks_at.0), round(marks_at.1)],
        "hexes": centres,
        "stack": stack,
        "start": start,
        "phase": c.start_phase,
        "tracks": c.start_tracks,
        "frames": frames,
    });
    Frames {
        data,
        looks: looks.into_keys().collect(),
        badges: badge_sets.into_keys().collect(),
    }
}

/// A coordinate to a tenth: enough for a screen, and a smaller page.
fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The save that plays again the game of `path`: a save file (`.ron`) as it is, or a log with
/// a header line (`muster play --log`), its decisions the answers.
pub fn load_game(path: &Path) -> Result<(SaveFile, Option<LogFile>)> {
    if path.extension().is_some_and(|e| e == "ron") {
        return Ok((SaveFile::load(path)?, None));
    }
    let log = LogFile::load(path)?;
    Ok((SaveFile::from_log(&log, path)?, Some(log)))
}

/// Plays again, watched, the game of `path` (a log with a header line, or a save): every side
/// answers as the game did (the bot and the random agent answer again and must agree). The
/// game stops where a person would be asked after the saved answers; a log's replay shows its
/// records, no more (a bot of an unfinished save plays on). A log whose records the game no
/// longer gives is an error naming the first that differs.
pub fn replay(path: &Path) -> Result<(Game, Recording)> {
    let (mut save, log) = load_game(path)?;
    // A replay log's answers are the save's too (the rules may ask who plays a side, so the
    // others keep their agents). A person asked once the answers run out ends the game.
    for agent in save.agents.values_mut() {
        if AgentKind::names_replay(agent) {
            *agent = "human".into();
        }
    }
    let opts = GameOptions::default();
    let mut game = Game::resume_from(save, path, &opts)?;
    // A person asked after the saved answers ran out ends the game: the replay shows what
    // was played, no more.
    game.set_terminal(Box::new(Absent));
    let recording = Recording::watch(&mut game);
    game.record_offers();
    match game.play() {
        Ok(Played::Over(_) | Played::Stopped(_)) => {}
        Err(e) => return Err(e),
    }
    if let Some(log) = log {
        let played = game.log();
        let played = played.records();
        let header_lines = 1;
        if let Some(i) = (0..log.records.len()).find(|&i| played.get(i) != Some(&log.records[i])) {
            return Err(Error::at(
                Location::new(path, i + 1 + header_lines, 1),
                format!(
                    "the game no longer plays as this log says: record {} is {}, and the game now gives {}",
                    log.records[i].seq,
                    log.records[i].narrate().trim(),
                    played
                        .get(i)
                        .map_or_else(|| "no record".to_string(), |r| r.narrate().trim().to_string())
                ),
            ));
        }
        recording.0.borrow_mut().seen.truncate(log.records.len());
    }
    Ok((game, recording))
}

/// The position after the `n`-th record of the game of `path` (a log with a header line, or a
/// save); `n` = 0 is the start. Past the last record is an error.
pub fn position_at(path: &Path, n: usize) -> Result<(Game, State)> {
    let (game, recording) = replay(path)?;
    let Some(units) = recording.units_after(n) else {
        return Err(Error::usage(format!(
            "--at {n}: the game of {} has {} records",
            path.display(),
            recording.len()
        )));
    };
    let mut state = game.state();
    state.units = units.into_iter().map(|u| (u.id.clone(), u)).collect();
    let c = recording.0.borrow();
    let mut tracks = c.start_tracks.clone();
    let mut phase = c.start_phase.clone();
    for s in &c.seen[..n] {
        for (name, _, after) in &s.tracks {
            tracks.insert(name.clone(), *after);
        }
        if let Some((_, after)) = &s.phase {
            phase.clone_from(after);
        }
    }
    state.tracks = tracks.into_iter().collect();
    state.phase = phase;
    state.turn = c.seen[..n].last().map_or(state.turn, |s| s.record.turn);
    drop(c);
    Ok((game, state))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(id: &str, at: Option<Hex>) -> Unit {
        Unit {
            id: id.into(),
            name: id.into(),
            side: "red".into(),
            kind: "foot".into(),
            strength: 3,
            rating: 4,
            location: at,
            facing: None,
            face: "front".into(),
            markers: Default::default(),
            props: Default::default(),
        }
    }

    fn state(units: &[Unit], phase: &str, vp: i64) -> State {
        let mut s = State {
            phase: phase.into(),
            ..State::default()
        };
        for u in units {
            s.units.insert(u.id.clone(), u.clone());
        }
        s.tracks.insert("vp".into(), vp);
        s
    }

    fn event(seq: usize, text: &str) -> Record {
        Record {
            seq,
            turn: 1,
            entry: Entry::Event {
                kind: "move".into(),
                text: text.into(),
                from: Vec::new(),
                to: None,
            },
        }
    }

    #[test]
    fn a_frame_holds_what_changed_and_what_it_replaced() {
        let (a, b, c) = (Hex::new(0, 0), Hex::new(1, 0), Hex::new(2, 0));
        let start = state(&[unit("x", Some(a)), unit("y", Some(c))], "move", 0);
        let mut col = Collected::new(&start);
        col.routes.push(vec![a, c, b]);
        col.take(
            &state(&[unit("x", Some(b)), unit("y", Some(c))], "move", 0),
            &event(0, "x moves"),
        );
        let mut hurt = unit("y", None);
        hurt.strength = 2;
        col.take(
            &state(&[unit("x", Some(b)), hurt.clone()], "fire", 2),
            &event(1, "y falls"),
        );
        col.take(
            &state(&[unit("x", Some(b)), hurt], "fire", 2),
            &event(2, "nothing"),
        );
        let first = &col.seen[0];
        assert_eq!(first.units.len(), 1);
        assert_eq!(
            (first.units[0].1.location, first.units[0].2.location),
            (Some(a), Some(b))
        );
        assert_eq!(first.routes, vec![vec![a, c, b]]);
        assert_eq!(first.phase, None);
        let second = &col.seen[1];
        assert_eq!(second.units[0].0, 1);
        assert_eq!(second.units[0].1.strength, 3);
        assert_eq!(second.units[0].2.location, None);
        assert_eq!(second.phase, Some(("move".into(), "fire".into())));
        assert_eq!(second.tracks, vec![("vp".into(), 0, 2)]);
        let third = &col.seen[2];
        assert!(third.units.is_empty() && third.phase.is_none() && third.tracks.is_empty());
        assert!(
            third.routes.is_empty(),
            "a route goes with the record after it only"
        );
    }

    #[test]
    fn hex_markers_come_and_go_with_their_records() {
        let h = Hex::new(1, 0);
        let start = state(&[unit("x", None)], "move", 0);
        let mut col = Collected::new(&start);
        let mut marked = start.clone();
        marked
            .hex_markers
            .entry(h)
            .or_default()
            .insert("chaos".into());
        col.take(&marked, &event(0, "chaos falls on a hex"));
        col.take(&marked, &event(1, "nothing"));
        let mut cleared = marked.clone();
        cleared.hex_markers.get_mut(&h).unwrap().clear();
        col.take(&cleared, &event(2, "the chaos lifts"));
        assert_eq!(
            col.seen[0].hex_markers,
            vec![(h, Vec::new(), vec!["chaos".to_string()])]
        );
        assert!(col.seen[1].hex_markers.is_empty());
        assert_eq!(
            col.seen[2].hex_markers,
            vec![(h, vec!["chaos".to_string()], Vec::new())],
            "an emptied marker set counts as gone"
        );
    }

    #[test]
    fn undo_starts_the_frames_again() {
        let (a, b) = (Hex::new(0, 0), Hex::new(1, 0));
        let start = state(&[unit("x", Some(a))], "", 0);
        let mut col = Collected::new(&start);
        col.take(&state(&[unit("x", Some(b))], "", 0), &event(0, "x moves"));
        col.take(&state(&[unit("x", Some(b))], "", 0), &event(1, "then"));
        // The game started again: the same move is its record 0 again.
        col.take(&state(&[unit("x", Some(b))], "", 0), &event(0, "x moves"));
        assert_eq!(col.seen.len(), 1);
        assert_eq!(col.seen[0].units.len(), 1, "measured from the start again");
    }

    #[test]
    fn a_move_chosen_with_choose_move_is_drawn_as_its_route() {
        let scenario = Path::new("../scenarios/sedgwick_attacks/keep_going_boys.ron");
        let opts = GameOptions {
            seed: 1,
            ..GameOptions::default()
        };
        let mut game = Game::from_scenario(scenario, &opts).unwrap();
        let recording = Recording::watch(&mut game);
        game.run(None).unwrap();
        let c = recording.0.borrow();
        // A unit that moved in a record told a route from its old hex to its new one, through
        // at least one hex between (a move of more than one hex).
        let routed = c.seen.iter().find(|s| {
            s.units.iter().any(|(_, before, after)| {
                s.routes.iter().any(|r| {
                    r.len() > 2
                        && r.first() == before.location.as_ref()
                        && r.last() == after.location.as_ref()
                })
            })
        });
        assert!(routed.is_some(), "no move was told with its route");
        let page = recording.page(&game, "keep going boys");
        assert!(page.contains("\"r\":[["), "the page draws routes");
        assert!(page.contains("\"a\":[["), "the page draws combat arrows");
    }

    /// Keeps the units after every record of a game as it is played.
    struct Snapshots(Rc<RefCell<Vec<Vec<Unit>>>>);

    impl Watcher for Snapshots {
        fn record(&mut self, state: &State, _record: &Record) {
            self.0
                .borrow_mut()
                .push(state.units.values().cloned().collect());
        }
    }

    #[test]
    fn a_logged_game_is_rebuilt_at_any_record() {
        let scenario = Path::new("../tests/demo/scenarios/demo/skirmish.ron");
        let opts = GameOptions {
            seed: 1,
            ..GameOptions::default()
        };
        let mut game = Game::from_scenario(scenario, &opts).unwrap();
        let seen = Rc::new(RefCell::new(Vec::new()));
        game.set_watcher(Box::new(Snapshots(seen.clone())));
        game.run(None).unwrap();
        let dir = tempfile::Builder::new()
            .prefix("muster-replay-")
            .tempdir()
            .unwrap();
        let log = dir.path().join("demo.jsonl");
        let text = format!("{}{}", game.log_header().to_line(), game.log().to_jsonl());
        std::fs::write(&log, text).unwrap();
        let (again, recording) = replay(&log).unwrap();
        let seen = seen.borrow();
        assert_eq!(recording.len(), seen.len());
        assert_eq!(again.log().records(), game.log().records());
        for n in [1, seen.len() / 2, seen.len()] {
            assert_eq!(
                recording.units_after(n).as_ref(),
                Some(&seen[n - 1]),
                "after record {n}"
            );
        }
        let (_, at) = position_at(&log, seen.len() / 2).unwrap();
        let units: Vec<Unit> = at.units.values().cloned().collect();
        assert_eq!(units, seen[seen.len() / 2 - 1]);
        assert!(position_at(&log, seen.len() + 1).is_err());
        // The page holds every record and draws from the board's counters.
        let page = recording.page(&again, "demo");
        assert!(page.contains("<g id=\"L0\">") && page.contains("const DATA = {"));
        assert!(!page.contains("/*DATA*/") && !page.contains("<!--SVG-->"));
    }
}
