//! Rulesets: the manifest `ruleset.ron`, its base ruleset, its tables and its
//! data (LOS, movement and zone-of-control rules, sides, dice, data for
//! scripts). Nothing here builds an engine: the scripts, listed here, are
//! compiled by `host::compiled`.
//!
//! A ruleset with `base: Some("blind_swords")` loads the base's scripts,
//! tables and data first; the title's own scripts come after, so a title
//! function with the same name and arity replaces the series one.

use crate::error::{Error, Location, Result};
use crate::geom::los::LosRules;
use crate::geom::search::{Profile, ZocRules};
use crate::source::load_ron;
use crate::style::{Style, StyleFile};
use crate::table::Tables;
use crate::value::Value;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The manifest as written.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Ruleset")]
pub struct RulesetFile {
    /// The game's name.
    pub name: String,
    /// A ruleset folder (a sibling in `rulesets/`) whose procedures this one reuses.
    #[serde(default)]
    pub base: Option<String>,
    /// The sides, as `--agent SIDE=...` names them.
    #[serde(default)]
    pub sides: Vec<String>,
    /// Named dice and their faces: `{"d6": 6, "white": 6}`.
    #[serde(default)]
    pub dice: IndexMap<String, i64>,
    /// Scripts, relative to the ruleset folder, in load order.
    #[serde(default)]
    pub scripts: Vec<String>,
    /// Table files, relative to the project root (the folder holding `rulesets/`).
    #[serde(default)]
    pub tables: Vec<String>,
    /// Line-of-sight rules.
    #[serde(default)]
    pub los: Option<LosRules>,
    /// Movement profiles by name.
    #[serde(default)]
    pub movement: IndexMap<String, Profile>,
    /// Zone-of-control rules.
    #[serde(default)]
    pub zoc: Option<ZocRules>,
    /// Data for scripts: column-shift lists, schedules, names of conditions.
    #[serde(default)]
    pub data: IndexMap<String, Value>,
    /// Named unit filters (`"may_attack": {"kind_not": "train", "lacks": ["attacked"]}`), which
    /// a unit query names with `named` and adds its other keys to.
    #[serde(default)]
    pub filters: IndexMap<String, IndexMap<String, Value>>,
    /// The options a scenario's `options` or `--option NAME=VALUE` may set, each with its
    /// default (`{"night_zoc": false}`): any other name is an error, and so is a value of
    /// another type than the default's. A title adds to its base's options.
    #[serde(default)]
    pub options: IndexMap<String, Value>,
    /// The unit kinds a scenario's units may have; when given, any other kind is an error. A
    /// title adds to its base's kinds.
    #[serde(default)]
    pub kinds: Vec<String>,
    /// Limits on scripts.
    #[serde(default)]
    pub limits: Limits,
    /// A library of procedures for titles to build on (`base`), not played
    /// alone: `check` does not ask it for `game_turn` and `victory`.
    #[serde(default)]
    pub library: bool,
    /// How the game looks (`crate::style`), relative to the ruleset folder; without it, the
    /// folder's `style.ron` if there is one. A title's style adds to its base's.
    #[serde(default)]
    pub style: Option<String>,
}

/// Limits that stop a runaway script with an error.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Operations per call from the engine into a script (one game turn, one step).
    pub operations: u64,
    /// Depth of nested function calls.
    pub call_depth: usize,
    /// MiB the process may hold in large blocks while a script runs (counted by muster's allocator).
    pub memory: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            operations: 20_000_000,
            call_depth: 48,
            memory: 4096,
        }
    }
}

/// A loaded ruleset: its manifest and its bases merged, its tables read. Its scripts are only
/// listed; `host::compiled::CompiledRuleset` compiles them.
pub struct Ruleset {
    /// The game's name.
    pub name: String,
    /// The ruleset folder.
    pub dir: PathBuf,
    /// The sides.
    pub sides: Vec<String>,
    /// Named dice.
    pub dice: IndexMap<String, i64>,
    /// Tables by name.
    pub tables: Tables,
    /// Line-of-sight rules.
    pub los: LosRules,
    /// Movement profiles.
    pub movement: IndexMap<String, Profile>,
    /// Zone-of-control rules.
    pub zoc: ZocRules,
    /// Data for scripts.
    pub data: IndexMap<String, Value>,
    /// Named unit filters (see [`RulesetFile::filters`]).
    pub filters: IndexMap<String, IndexMap<String, Value>>,
    /// The scripts of the ruleset and its bases, in load order (bases first).
    pub scripts: Vec<PathBuf>,
    /// Options and their defaults (see [`RulesetFile::options`]).
    pub options: IndexMap<String, Value>,
    /// Unit kinds, or empty when any kind goes (see [`RulesetFile::kinds`]).
    pub kinds: Vec<String>,
    /// Limits on scripts.
    pub limits: Limits,
    /// How the game looks: the style files of the ruleset and its bases merged.
    pub style: Style,
    /// A fingerprint of every file the ruleset was made from (see [`rules_version`]): a saved
    /// game keeps it, so resuming on changed rules can say so.
    pub version: String,
}

impl std::fmt::Debug for Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ruleset")
            .field("name", &self.name)
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

/// The project root of a ruleset folder: the folder holding `rulesets/`, or
/// the ruleset folder itself when it is not inside one.
fn project_root(dir: &Path) -> PathBuf {
    match dir.parent() {
        Some(p) if p.file_name().is_some_and(|n| n == "rulesets") => {
            p.parent().unwrap_or(p).to_path_buf()
        }
        _ => dir.to_path_buf(),
    }
}

/// The `rulesets/` folder scripts import from (the ruleset's parent).
#[must_use]
pub fn rulesets_dir(dir: &Path) -> PathBuf {
    dir.parent()
        .map_or_else(|| dir.to_path_buf(), Path::to_path_buf)
}

/// Everything gathered from a ruleset and its bases before compiling.
#[derive(Default)]
struct Gathered {
    /// The manifests read, bases first.
    manifests: Vec<PathBuf>,
    sides: Vec<String>,
    dice: IndexMap<String, i64>,
    scripts: Vec<PathBuf>,
    tables: Vec<PathBuf>,
    los: Option<LosRules>,
    movement: IndexMap<String, Profile>,
    zoc: Option<ZocRules>,
    data: IndexMap<String, Value>,
    filters: IndexMap<String, IndexMap<String, Value>>,
    options: IndexMap<String, Value>,
    kinds: Vec<String>,
    limits: Limits,
    /// The style files, bases first.
    styles: Vec<StyleFile>,
}

fn gather(dir: &Path, into: &mut Gathered, depth: usize) -> Result<String> {
    let manifest = dir.join("ruleset.ron");
    if depth > 8 {
        return Err(Error::at(
            Location::file(&manifest),
            "`base` rulesets nest too deeply (a cycle?)",
        ));
    }
    let (file, text): (RulesetFile, String) = load_ron(&manifest)?;
    check_values(&file, &text, &manifest)?;
    into.manifests.push(manifest.clone());
    if let Some(base) = &file.base {
        let base_dir = rulesets_dir(dir).join(base);
        if !base_dir.join("ruleset.ron").is_file() {
            let mut cur = crate::source::Cursor::new(&text, &manifest);
            return Err(Error::at(
                cur.find_str(base),
                format!(
                    "base ruleset `{base}` not found: no {}",
                    base_dir.join("ruleset.ron").display()
                ),
            ));
        }
        gather(&base_dir, into, depth + 1)?;
    }
    if !file.sides.is_empty() {
        into.sides = file.sides;
    }
    into.dice.extend(file.dice);
    let root = project_root(dir);
    let mut cur = crate::source::Cursor::new(&text, &manifest);
    for s in &file.scripts {
        let p = dir.join(s);
        if !p.is_file() {
            return Err(Error::at(
                cur.find_str(s),
                format!("script `{s}` not found at {}", p.display()),
            ));
        }
        into.scripts.push(p);
    }
    for t in &file.tables {
        let p = root.join(t);
        if !p.is_file() {
            return Err(Error::at(
                cur.find_str(t),
                format!("table file `{t}` not found at {}", p.display()),
            ));
        }
        into.tables.push(p);
    }
    if file.los.is_some() {
        into.los = file.los;
    }
    for (name, profile) in file.movement {
        let profile = match &profile.like {
            None => profile,
            Some(like) => {
                let mut cur = crate::source::Cursor::new(&text, &manifest);
                let at = cur.find_str(&name);
                let Some(from) = into.movement.get(like) else {
                    return Err(Error::at(
                        at,
                        format!("movement profile `{name}` is `like` `{like}`, which is not defined before it (here or in a base)"),
                    ));
                };
                profile
                    .derive(from)
                    .map_err(|m| Error::at(at, format!("movement profile `{name}`: {m}")))?
            }
        };
        into.movement.insert(name, profile);
    }
    if file.zoc.is_some() {
        into.zoc = file.zoc;
    }
    into.data.extend(file.data);
    into.filters.extend(file.filters);
    into.options.extend(file.options);
    for k in file.kinds {
        if !into.kinds.contains(&k) {
            into.kinds.push(k);
        }
    }
    into.limits = file.limits;
    let style = match &file.style {
        Some(s) if !dir.join(s).is_file() => {
            return Err(Error::at(
                crate::source::Cursor::new(&text, &manifest).find_str(s),
                format!("style `{s}` not found at {}", dir.join(s).display()),
            ))
        }
        Some(s) => Some(dir.join(s)),
        None => Some(dir.join("style.ron")).filter(|p| p.is_file()),
    };
    if let Some(p) = style {
        into.styles.push(crate::style::load(&p)?);
    }
    Ok(file.name)
}

/// The most faces a die may have.
pub const MAX_DIE_FACES: i64 = 1_000_000;

/// How far a ruleset may raise each limit (its `limits`): high enough for any game, low enough
/// that a runaway script stops with an error before it exhausts the machine. None may be 0
/// (Rhai reads 0 operations as "no limit").
pub const LIMIT_CAPS: Limits = Limits {
    operations: 1_000_000_000,
    call_depth: 128,
    memory: 16384,
};

/// The values of a ruleset file that would crash or hang the engine, refused with their place in
/// `text`: a die needs 1 to [`MAX_DIE_FACES`] faces; a movement connection's costs must be finite
/// and not negative (a negative cost would make every search run forever); costs are finite; each
/// limit is from 1 to its cap in [`LIMIT_CAPS`].
fn check_values(file: &RulesetFile, text: &str, manifest: &Path) -> Result<()> {
    let mut cur = crate::source::Cursor::new(text, manifest);
    for (die, &faces) in &file.dice {
        if !(1..=MAX_DIE_FACES).contains(&faces) {
            return Err(Error::at(
                cur.find_str(die),
                format!("die `{die}` has {faces} faces; a die has 1 to {MAX_DIE_FACES}"),
            ));
        }
    }
    for (name, profile) in &file.movement {
        let mut cur = crate::source::Cursor::new(text, manifest);
        let at = cur.find_str(name);
        let costs = profile.terrain.values().chain(profile.hexside.values());
        if let Some(c) = costs
            .chain(profile.uphill.values())
            .chain([&profile.default_terrain])
            .find(|c| !c.is_finite())
        {
            return Err(Error::at(at, format!("movement profile `{name}` has a cost of {c}; costs are numbers (negative: no entry)")));
        }
        let times = profile.terrain_times;
        if !(times.is_finite() && times > 0.0) {
            return Err(Error::at(
                at,
                format!("movement profile `{name}` has `terrain_times: {times}`; it multiplies costs by a number above 0"),
            ));
        }
        for c in &profile.connections {
            let costs = std::iter::once(&c.cost).chain(c.into.values());
            if let Some(bad) = costs.copied().find(|x| !x.is_finite() || *x < 0.0) {
                return Err(Error::at(
                    at,
                    format!(
                        "movement profile `{name}`: the `{}` connection costs {bad}; a connection costs 0 or more",
                        c.feature
                    ),
                ));
            }
        }
    }
    let l = &file.limits;
    let caps = LIMIT_CAPS;
    let checks: [(&str, u64, u64); 3] = [
        ("operations", l.operations, caps.operations),
        ("call_depth", l.call_depth as u64, caps.call_depth as u64),
        ("memory", l.memory as u64, caps.memory as u64),
    ];
    for (key, value, cap) in checks {
        if !(1..=cap).contains(&value) {
            let mut cur = crate::source::Cursor::new(text, manifest);
            cur.skip_to(key);
            return Err(Error::at(
                cur.here(),
                format!("limit `{key}` is {value}; a ruleset may set it from 1 to {cap}"),
            ));
        }
    }
    Ok(())
}

impl Ruleset {
    /// Loads a ruleset folder (or its `ruleset.ron`): manifest, bases, tables; the scripts are
    /// found but not read.
    pub fn load(path: &Path) -> Result<Ruleset> {
        let dir = if path.is_dir() {
            path.to_path_buf()
        } else {
            path.parent().unwrap_or(Path::new(".")).to_path_buf()
        };
        let dir = crate::source::normalize(&dir);
        let mut g = Gathered::default();
        let name = gather(&dir, &mut g, 0)?;
        if g.sides.is_empty() {
            return Err(Error::at(
                Location::file(dir.join("ruleset.ron")),
                "the ruleset declares no `sides`",
            ));
        }
        let mut tables = Tables::default();
        for t in &g.tables {
            tables.load(t)?;
        }
        let version = rules_version(g.manifests.iter().chain(&g.scripts).chain(&g.tables))?;
        Ok(Ruleset {
            name,
            dir,
            sides: g.sides,
            dice: g.dice,
            tables,
            los: g.los.unwrap_or_default(),
            movement: g.movement,
            zoc: g.zoc.unwrap_or_default(),
            data: g.data,
            filters: g.filters,
            scripts: g.scripts,
            options: g.options,
            kinds: g.kinds,
            limits: g.limits,
            style: Style::from_files(&g.styles),
            version,
        })
    }

    /// Checks options given on the command line (`--option NAME=VALUE`): every one that is not
    /// declared, or has a value of the wrong type, is a usage error.
    pub fn check_command_line_options(&self, options: &IndexMap<String, Value>) -> Result<()> {
        let problems: Vec<String> = options
            .iter()
            .filter_map(|(name, value)| self.check_option(name, value).err())
            .map(|(message, help)| format!("--option: {message} ({help})"))
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Error::usage(problems.join("\n")))
        }
    }

    /// Whether `value` may be given for option `name`: the option is declared and the value
    /// has its default's type (a whole number is a fine fractional one). The error says what
    /// is wrong; its help line, what would do.
    pub fn check_option(
        &self,
        name: &str,
        value: &Value,
    ) -> std::result::Result<(), (String, String)> {
        let Some(default) = self.options.get(name) else {
            let help = if self.options.is_empty() {
                "this ruleset has no options".to_string()
            } else {
                crate::source::help_choosing(name, self.options.keys().map(String::as_str))
            };
            return Err((format!("the ruleset has no option `{name}`"), help));
        };
        let same = std::mem::discriminant(default) == std::mem::discriminant(value)
            || matches!((default, value), (Value::Float(_), Value::Int(_)));
        if same {
            return Ok(());
        }
        Err((
            format!(
                "option `{name}` takes {}, not `{}`",
                value_kind(default),
                value_text(value)
            ),
            format!("its default is `{}`", value_text(default)),
        ))
    }
}

/// What kind of value a value is, in words.
fn value_kind(v: &Value) -> &'static str {
    match v {
        Value::Unit(()) => "nothing",
        Value::Bool(_) => "true or false",
        Value::Int(_) => "a whole number",
        Value::Float(_) => "a number",
        Value::Str(_) => "text",
        Value::List(_) => "a list",
        Value::Map(_) => "a map",
    }
}

/// A value as RON text.
fn value_text(v: &Value) -> String {
    match v {
        Value::Str(s) => s.clone(),
        other => ron::to_string(other).unwrap_or_default(),
    }
}

/// A fingerprint of the texts of `files` and their names, in order: 16 hex digits of 64-bit
/// FNV-1a, the same on every machine and run. Not a defence against anyone: it only tells that
/// a ruleset's files changed, and where the folder stands plays no part (a project moved
/// elsewhere keeps its version).
pub fn rules_version<'a>(files: impl IntoIterator<Item = &'a PathBuf>) -> Result<String> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for &b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for f in files {
        let name = f.file_name().map(|n| n.to_string_lossy().into_owned());
        feed(name.unwrap_or_default().as_bytes());
        // Separators, so that moving text from one file to the next changes the fingerprint.
        feed(&[0]);
        feed(crate::error::read_file(f)?.as_bytes());
        feed(&[0]);
    }
    Ok(format!("{hash:016x}"))
}
