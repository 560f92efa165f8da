//! Scenarios: which ruleset and map, how long, the options, and the set-up
//! of units, tracks, decks and data that the ruleset's scripts read.

use crate::error::{Error, Result};
use crate::geom::map::{Map, MapFile};
use crate::ruleset::Ruleset;
use crate::source::{help_choosing, load_ron, relative_to, Cursor};
use crate::value::Value;
use crate::world::state::{State, Unit};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A unit as placed by a scenario or an example.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Unique id.
    pub id: String,
    /// Display name (defaults to the id).
    #[serde(default)]
    pub name: Option<String>,
    /// Owning side.
    pub side: String,
    /// Kind.
    #[serde(default)]
    pub kind: String,
    /// Strength.
    #[serde(default)]
    pub strength: i64,
    /// Rating.
    #[serde(default)]
    pub rating: i64,
    /// Hex id, or none for a unit that starts off the map.
    #[serde(default)]
    pub at: Option<String>,
    /// Facing direction index.
    #[serde(default)]
    pub facing: Option<u8>,
    /// Face up (default `front`).
    #[serde(default)]
    pub face: Option<String>,
    /// Markers.
    #[serde(default)]
    pub markers: Vec<String>,
    /// Ruleset-defined properties.
    #[serde(default)]
    pub props: IndexMap<String, Value>,
}

/// A map given by path or written inline (examples use both).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum MapRef {
    /// A map file, relative to the file that names it.
    Path(String),
    /// A map written in place.
    Inline(Box<MapFile>),
}

/// The set-up shared by scenarios and example files.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Setup {
    /// Units.
    #[serde(default)]
    pub units: Vec<UnitSpec>,
    /// Tracks and their starting values.
    #[serde(default)]
    pub tracks: IndexMap<String, i64>,
    /// Decks and cups with their items, top first.
    #[serde(default)]
    pub decks: IndexMap<String, Vec<String>>,
    /// Data per side.
    #[serde(default)]
    pub sides: IndexMap<String, IndexMap<String, Value>>,
    /// Markers on hexes.
    #[serde(default)]
    pub hex_markers: IndexMap<String, Vec<String>>,
    /// Data for the ruleset's scripts (reinforcement schedules, victory hexes ...).
    #[serde(default)]
    pub data: IndexMap<String, Value>,
    /// Options the scenario switches on (the command line may override them).
    #[serde(default)]
    pub options: IndexMap<String, Value>,
}

/// A scenario file as written. Its set-up fields repeat those of [`Setup`]
/// (and example files repeat them again) because RON cannot read
/// `#[serde(flatten)]`; [`ScenarioFile::setup`] gathers them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Scenario")]
pub struct ScenarioFile {
    /// The scenario's name.
    pub name: String,
    /// The ruleset folder, relative to this file.
    pub ruleset: String,
    /// The map file, relative to this file.
    pub map: String,
    /// The first game turn.
    #[serde(default = "one")]
    pub first_turn: i64,
    /// The last game turn.
    pub last_turn: i64,
    /// Units.
    #[serde(default)]
    pub units: Vec<UnitSpec>,
    /// Tracks and their starting values.
    #[serde(default)]
    pub tracks: IndexMap<String, i64>,
    /// Decks and cups with their items, top first.
    #[serde(default)]
    pub decks: IndexMap<String, Vec<String>>,
    /// Data per side.
    #[serde(default)]
    pub sides: IndexMap<String, IndexMap<String, Value>>,
    /// Markers on hexes.
    #[serde(default)]
    pub hex_markers: IndexMap<String, Vec<String>>,
    /// Data for the ruleset's scripts.
    #[serde(default)]
    pub data: IndexMap<String, Value>,
    /// Options the scenario switches on (the command line may override them).
    #[serde(default)]
    pub options: IndexMap<String, Value>,
}

impl ScenarioFile {
    /// The set-up part of the scenario.
    #[must_use]
    pub fn setup(&self) -> Setup {
        Setup {
            units: self.units.clone(),
            tracks: self.tracks.clone(),
            decks: self.decks.clone(),
            sides: self.sides.clone(),
            hex_markers: self.hex_markers.clone(),
            data: self.data.clone(),
            options: self.options.clone(),
        }
    }
}

fn one() -> i64 {
    1
}

/// A loaded scenario: its file, where it lives, and its map.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The file.
    pub file: ScenarioFile,
    /// Its path.
    pub path: PathBuf,
    /// Its source text (to place errors).
    pub text: String,
}

/// The largest game turn, either way from 0: far past any game.
const MAX_TURN: i64 = 1_000_000;

impl Scenario {
    /// Loads a scenario file.
    pub fn load(path: &Path) -> Result<Scenario> {
        let (file, text): (ScenarioFile, String) = load_ron(path)?;
        // The turn marker counts up from `first_turn` past `last_turn`: a number at the end of
        // the range would overflow it.
        for (key, turn) in [
            ("first_turn", file.first_turn),
            ("last_turn", file.last_turn),
        ] {
            if turn.unsigned_abs() > MAX_TURN.unsigned_abs() {
                let mut cur = Cursor::new(&text, path);
                cur.skip_to(key);
                return Err(Error::at(
                    cur.here(),
                    format!(
                        "`{key}` is {turn}; a game turn is a number from -{MAX_TURN} to {MAX_TURN}"
                    ),
                ));
            }
        }
        let scenario = Scenario {
            file,
            path: path.to_path_buf(),
            text,
        };
        scenario.check_ruleset_dir()?;
        Ok(scenario)
    }

    /// The ruleset the scenario names must be a folder with a `ruleset.ron`; the error names
    /// the folder as written, with the ruleset folders beside it as the help.
    fn check_ruleset_dir(&self) -> Result<()> {
        let dir = self.ruleset_dir();
        if dir.join("ruleset.ron").is_file() {
            return Ok(());
        }
        let written = &self.file.ruleset;
        let siblings: Vec<String> = dir
            .parent()
            .and_then(|p| std::fs::read_dir(p).ok())
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().join("ruleset.ron").is_file())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect();
        let name = dir.file_name().map(|n| n.to_string_lossy().to_string());
        let help = name.map(|n| help_choosing(&n, siblings.iter().map(String::as_str)));
        Err(Error::at(
            Cursor::new(&self.text, &self.path).find_str(written),
            format!(
                "ruleset `{written}` not found: there is no {}",
                dir.join("ruleset.ron").display()
            ),
        )
        .with_help(help))
    }

    /// The ruleset folder.
    #[must_use]
    pub fn ruleset_dir(&self) -> PathBuf {
        relative_to(&self.path, &self.file.ruleset)
    }

    /// The map file.
    #[must_use]
    pub fn map_path(&self) -> PathBuf {
        relative_to(&self.path, &self.file.map)
    }

    /// Loads the scenario's map.
    pub fn load_map(&self) -> Result<Map> {
        let p = self.map_path();
        if !p.is_file() {
            let mut cur = Cursor::new(&self.text, &self.path);
            return Err(Error::at(
                cur.find_str(&self.file.map),
                format!("map file not found at {}", p.display()),
            ));
        }
        Map::load(&p)
    }
}

/// Builds the starting state from a set-up, checking every unit's id, side, kind and hex, the
/// hex markers' hexes, the sides' names and the options against the ruleset; every problem is
/// reported (as [`Error::Many`] when there are several). `text`/`path` are the source the
/// set-up came from, to place errors.
pub fn build_state(
    setup: &Setup,
    ruleset: &Ruleset,
    map: &Map,
    text: &str,
    path: &Path,
) -> Result<State> {
    let sides = &ruleset.sides;
    let mut problems = Vec::new();
    let mut st = State::default();
    let mut cur = Cursor::new(text, path);
    let side_help = |side: &str| help_choosing(side, sides.iter().map(String::as_str));
    for side in sides {
        st.sides.insert(side.clone(), IndexMap::new());
    }
    for u in &setup.units {
        let at = cur.find_str(&u.id);
        if st.units.contains_key(&u.id) {
            problems.push(Error::at(
                at.clone(),
                format!("unit id `{}` is used twice", u.id),
            ));
        }
        if !sides.contains(&u.side) {
            let side_at = Cursor::new(text, path).located_after(&at, &u.side);
            problems.push(
                Error::at(
                    side_at,
                    format!(
                        "unit `{}`: side `{}` is not one of the ruleset's sides",
                        u.id, u.side
                    ),
                )
                .with_help(Some(side_help(&u.side))),
            );
        }
        // A unit may leave its kind out (an example's plain counters).
        if !u.kind.is_empty() && !ruleset.kinds.is_empty() && !ruleset.kinds.contains(&u.kind) {
            let kind_at = Cursor::new(text, path).located_after(&at, &u.kind);
            problems.push(
                Error::at(
                    kind_at,
                    format!(
                        "unit `{}`: kind `{}` is not one of the ruleset's kinds",
                        u.id, u.kind
                    ),
                )
                .with_help(Some(help_choosing(
                    &u.kind,
                    ruleset.kinds.iter().map(String::as_str),
                ))),
            );
        }
        let location = match &u.at {
            Some(id) => {
                let at = cur.find_str(id);
                match map.parse(id) {
                    Ok(h) => Some(h),
                    Err(e) => {
                        problems.push(Error::at(at, format!("unit `{}`: {e}", u.id)));
                        None
                    }
                }
            }
            None => None,
        };
        st.units.insert(
            u.id.clone(),
            Unit {
                id: u.id.clone(),
                name: u.name.clone().unwrap_or_else(|| u.id.clone()),
                side: u.side.clone(),
                kind: u.kind.clone(),
                strength: u.strength,
                rating: u.rating,
                location,
                facing: u.facing,
                face: u.face.clone().unwrap_or_else(|| "front".to_string()),
                markers: u.markers.iter().cloned().collect(),
                props: u
                    .props
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            },
        );
    }
    for (id, markers) in &setup.hex_markers {
        let at = cur.find_str(id);
        match map.parse(id) {
            Ok(h) => st
                .hex_markers
                .entry(h)
                .or_default()
                .extend(markers.iter().cloned()),
            Err(e) => problems.push(Error::at(at, e.to_string())),
        }
    }
    for (side, data) in &setup.sides {
        if !sides.contains(side) {
            problems.push(
                Error::at(
                    cur.find_str(side),
                    format!("`{side}` is not one of the ruleset's sides"),
                )
                .with_help(Some(side_help(side))),
            );
        }
        st.sides
            .entry(side.clone())
            .or_default()
            .extend(data.clone());
    }
    let mut options = ruleset.options.clone();
    for (name, value) in &setup.options {
        match ruleset.check_option(name, value) {
            Ok(()) => {
                options.insert(name.clone(), value.clone());
            }
            Err((message, help)) => {
                problems.push(Error::at(cur.find_str(name), message).with_help(Some(help)));
            }
        }
    }
    Error::from_problems(problems)?;
    st.tracks = setup.tracks.iter().map(|(k, v)| (k.clone(), *v)).collect();
    st.decks = setup.decks.clone();
    st.globals = setup
        .data
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    st.globals
        .insert("options".to_string(), Value::Map(options));
    Ok(st)
}
