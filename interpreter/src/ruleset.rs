//! Rulesets: the manifest `ruleset.ron`, its base ruleset, its tables, and its
//! scripts compiled once into one AST that every game of the ruleset reuses.
//!
//! A ruleset with `base: Some("blind_swords")` loads the base's scripts,
//! tables and data first; the title's own scripts come after, so a title
//! function with the same name and arity replaces the series one.

use crate::error::{Error, Location, Result};
use crate::los::LosRules;
use crate::script::{self, script_error};
use crate::search::{Profile, ZocRules};
use crate::source::load_ron;
use crate::table::Tables;
use crate::value::Value;
use indexmap::IndexMap;
use rhai::{Engine, AST};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
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
    /// Limits on scripts.
    #[serde(default)]
    pub limits: Limits,
    /// A library of procedures for titles to build on (`base`), not played
    /// alone: `check` does not ask it for `game_turn` and `victory`.
    #[serde(default)]
    pub library: bool,
}

/// Limits that stop a runaway script with an error.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Operations per call from the engine into a script (one game turn, one step).
    pub operations: u64,
    /// Depth of nested function calls.
    pub call_depth: usize,
    /// Longest string.
    pub string_size: usize,
    /// Longest array.
    pub array_size: usize,
    /// Largest object map.
    pub map_size: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            operations: 20_000_000,
            call_depth: 48,
            string_size: 1 << 16,
            array_size: 100_000,
            map_size: 20_000,
        }
    }
}

/// A loaded ruleset with its compiled scripts.
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
    /// The engine every game of this ruleset runs on.
    pub engine: Engine,
    /// All scripts, compiled and merged.
    pub ast: AST,
    functions: HashSet<(String, usize)>,
    /// Each function's parameter lists by name, one per overload, fewest parameters first.
    params: IndexMap<String, Vec<Vec<String>>>,
    sources: IndexMap<String, PathBuf>,
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
fn rulesets_dir(dir: &Path) -> PathBuf {
    dir.parent()
        .map_or_else(|| dir.to_path_buf(), Path::to_path_buf)
}

/// Everything gathered from a ruleset and its bases before compiling.
#[derive(Default)]
struct Gathered {
    sides: Vec<String>,
    dice: IndexMap<String, i64>,
    scripts: Vec<PathBuf>,
    tables: Vec<PathBuf>,
    los: Option<LosRules>,
    movement: IndexMap<String, Profile>,
    zoc: Option<ZocRules>,
    data: IndexMap<String, Value>,
    limits: Limits,
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
    into.movement.extend(file.movement);
    if file.zoc.is_some() {
        into.zoc = file.zoc;
    }
    into.data.extend(file.data);
    into.limits = file.limits;
    Ok(file.name)
}

impl Ruleset {
    /// Loads a ruleset folder (or its `ruleset.ron`): manifest, bases, tables, scripts.
    pub fn load(path: &Path) -> Result<Ruleset> {
        Ruleset::load_with(path, false)
    }

    /// Loads a ruleset for profiling: every script function that takes the game is timed as a
    /// section of its own (see [`crate::profile`]), and the engine counts script operations.
    /// A script the profiling rewrite would break is loaded as written.
    pub fn load_profiled(path: &Path) -> Result<Ruleset> {
        let mut ruleset = Ruleset::load_with(path, true)?;
        script::count_operations(&mut ruleset.engine);
        Ok(ruleset)
    }

    fn load_with(path: &Path, profiled: bool) -> Result<Ruleset> {
        let dir = if path.is_dir() {
            path.to_path_buf()
        } else {
            path.parent().unwrap_or(Path::new(".")).to_path_buf()
        };
        let dir = crate::scenario::normalize(&dir);
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
        let engine = script::build_engine(&g.limits, &rulesets_dir(&dir));
        let mut ast = AST::empty();
        let mut sources = IndexMap::new();
        let texts = g
            .scripts
            .iter()
            .map(|s| crate::error::read_file(s))
            .collect::<Result<Vec<_>>>()?;
        let defined = crate::desugar::script_functions(texts.iter().map(String::as_str));
        for (s, text) in g.scripts.iter().zip(&texts) {
            let mut part = compile_script(&engine, text, &defined, profiled).map_err(|e| {
                let p = e.position();
                Error::at(
                    Location::new(s, p.line().unwrap_or(0), p.position().unwrap_or(0)),
                    e.err_type().to_string(),
                )
            })?;
            part.set_source(s.to_string_lossy().as_ref());
            for f in part.iter_functions() {
                sources.insert(f.name.to_string(), s.clone());
            }
            // Later scripts replace same-named functions of earlier ones.
            ast = ast.merge(&part);
        }
        let mut functions = HashSet::new();
        let mut params: IndexMap<String, Vec<Vec<String>>> = IndexMap::new();
        for f in ast.iter_functions() {
            functions.insert((f.name.to_string(), f.params.len()));
            params
                .entry(f.name.to_string())
                .or_default()
                .push(f.params.iter().map(|p| p.to_string()).collect());
        }
        // The AST lists functions in no fixed order: sort names and overloads so that
        // nothing read from here can change from one run to the next.
        params.sort_keys();
        for overloads in params.values_mut() {
            overloads.sort_by_key(Vec::len);
        }
        let ruleset = Ruleset {
            name,
            dir,
            sides: g.sides,
            dice: g.dice,
            tables,
            los: g.los.unwrap_or_default(),
            movement: g.movement,
            zoc: g.zoc.unwrap_or_default(),
            data: g.data,
            engine,
            ast,
            functions,
            params,
            sources,
        };
        ruleset.run_top_level()?;
        Ok(ruleset)
    }

    /// Runs the scripts' top-level statements once, so that a script error
    /// outside any function is reported at load time.
    fn run_top_level(&self) -> Result<()> {
        self.engine
            .run_ast(&self.ast)
            .map_err(|e| script_error(&e, "", &|f| self.source_of(f).map(Path::to_path_buf)))
    }

    /// Whether the scripts define `name` with `arity` parameters.
    #[must_use]
    pub fn has_function(&self, name: &str, arity: usize) -> bool {
        self.functions.contains(&(name.to_string(), arity))
    }

    /// The parameter names of every script function called `name`, one list per overload,
    /// fewest parameters first (empty when there is no such function).
    #[must_use]
    pub fn overloads(&self, name: &str) -> &[Vec<String>] {
        self.params.get(name).map_or(&[], Vec::as_slice)
    }

    /// The script file that defines a function (the last one loaded).
    #[must_use]
    pub fn source_of(&self, name: &str) -> Option<&Path> {
        self.sources.get(name).map(PathBuf::as_path)
    }

    /// The names of all script functions.
    pub fn function_names(&self) -> impl Iterator<Item = &str> {
        self.params.keys().map(String::as_str)
    }
}

/// Compiles one script as the engine runs it: calls into the core desugared (see
/// [`crate::desugar`]) and, with `profiled`, its functions wrapped in timed sections (see
/// [`crate::profile`]). A text the rewrites would break is compiled as written, so a syntax
/// error always points into the script as its author wrote it.
fn compile_script(
    engine: &Engine,
    text: &str,
    defined: &HashSet<String>,
    profiled: bool,
) -> std::result::Result<AST, rhai::ParseError> {
    let desugared = |t: &str| engine.compile(crate::desugar::game_calls(t, defined)).ok();
    profiled
        .then(|| desugared(&crate::profile::wrap_functions(text)))
        .flatten()
        .or_else(|| desugared(text))
        .map_or_else(|| engine.compile(text), Ok)
}
