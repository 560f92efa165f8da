//! A ruleset compiled: the engine every game of it runs on and one merged AST of its desugared
//! scripts, with the tables of what the scripts define (functions, their overloads, the file
//! of each). Built once and shared by every game of the ruleset on a thread.

use crate::error::{Error, Location, Result};
use crate::host::engine::{self, script_error};
use crate::ruleset::{rulesets_dir, Ruleset};
use crate::world::Hooks;
use indexmap::IndexMap;
use rhai::{CallFnOptions, Dynamic, Engine, FuncArgs, Scope, AST};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A ruleset with its scripts compiled.
pub struct CompiledRuleset {
    ruleset: Rc<Ruleset>,
    engine: Engine,
    ast: AST,
    functions: HashSet<(String, usize)>,
    /// Each function's parameter lists by name, one per overload, fewest parameters first.
    params: IndexMap<String, Vec<Vec<String>>>,
    sources: IndexMap<String, PathBuf>,
}

impl std::fmt::Debug for CompiledRuleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledRuleset")
            .field("name", &self.ruleset.name)
            .field("dir", &self.ruleset.dir)
            .finish_non_exhaustive()
    }
}

impl CompiledRuleset {
    /// Loads a ruleset folder (or its `ruleset.ron`): manifest, bases, tables, scripts.
    pub fn load(path: &Path) -> Result<CompiledRuleset> {
        CompiledRuleset::load_with(path, false)
    }

    /// Loads a ruleset for profiling: every script function that takes the game is timed as a
    /// section of its own (see [`crate::host::profile`]), and the engine counts script operations.
    /// A script the profiling rewrite would break is loaded as written.
    pub fn load_profiled(path: &Path) -> Result<CompiledRuleset> {
        let mut compiled = CompiledRuleset::load_with(path, true)?;
        let memory = compiled.ruleset.limits.memory;
        engine::watch(&mut compiled.engine, memory, true);
        Ok(compiled)
    }

    fn load_with(path: &Path, profiled: bool) -> Result<CompiledRuleset> {
        let ruleset = Ruleset::load(path)?;
        let engine = super::build_engine(&ruleset.limits, &rulesets_dir(&ruleset.dir));
        let mut ast = AST::empty();
        let mut sources = IndexMap::new();
        let texts = ruleset
            .scripts
            .iter()
            .map(|s| crate::error::read_file(s))
            .collect::<Result<Vec<_>>>()?;
        let defined = crate::host::desugar::script_functions(texts.iter().map(String::as_str));
        for (s, text) in ruleset.scripts.iter().zip(&texts) {
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
        let compiled = CompiledRuleset {
            ruleset: Rc::new(ruleset),
            engine,
            ast,
            functions,
            params,
            sources,
        };
        compiled.run_top_level()?;
        Ok(compiled)
    }

    /// Runs the scripts' top-level statements once, so that a script error
    /// outside any function is reported at load time.
    fn run_top_level(&self) -> Result<()> {
        self.engine
            .run_ast(&self.ast)
            .map_err(|e| self.script_error(&e, ""))
    }

    /// The ruleset's manifest and data, shared with every game of it.
    #[must_use]
    pub fn ruleset(&self) -> &Rc<Ruleset> {
        &self.ruleset
    }

    /// The engine every game of this ruleset runs on.
    #[must_use]
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, to change how it runs before any game starts (`--profile-lines`).
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// All scripts, compiled and merged.
    #[must_use]
    pub fn ast(&self) -> &AST {
        &self.ast
    }

    /// The optional hooks the core calls that the scripts define.
    #[must_use]
    pub fn hooks(&self) -> Hooks {
        Hooks {
            los_override: self.has_function("los_override", 4),
        }
    }

    /// Whether the scripts define `name` with `arity` parameters.
    #[must_use]
    pub fn has_function(&self, name: &str, arity: usize) -> bool {
        self.functions.contains(&(name.to_string(), arity))
    }

    /// The procedures every game of this ruleset calls that its scripts do not define
    /// (`game_turn(game)` and `victory(game)`), each as an error at `ruleset.ron`. (A bot's
    /// `bot_choose` is called only when a bot has a choice to make, which some rulesets never
    /// give it.)
    #[must_use]
    pub fn missing_procedures(&self) -> Vec<Error> {
        let manifest = self.ruleset().dir.join("ruleset.ron");
        ["game_turn", "victory"]
            .iter()
            .filter(|name| !self.has_function(name, 1))
            .map(|name| {
                Error::at(
                    Location::file(&manifest),
                    format!("the scripts define no `fn {name}(game)`, which every ruleset needs"),
                )
                .with_help(
                    crate::source::closest(name, self.function_names())
                        .map(|f| format!("the scripts define `{f}`: is it misspelt?")),
                )
            })
            .collect()
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

    /// A script error as an engine error placed in the file that defines the failing function
    /// (see [`script_error`]); `called` is the function the engine called ("" for none).
    #[must_use]
    pub fn script_error(&self, err: &rhai::EvalAltResult, called: &str) -> Error {
        script_error(err, called, &|f| self.source_of(f).map(Path::to_path_buf))
    }

    /// Calls a script function without re-running the scripts' top level.
    pub fn call(&self, name: &str, args: impl FuncArgs) -> Result<Dynamic> {
        let mut scope = Scope::new();
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        self.engine
            .call_fn_with_options::<Dynamic>(options, &mut scope, &self.ast, name, args)
            .map_err(|e| self.script_error(&e, name))
    }
}

/// Compiles one script as the engine runs it: calls into the core desugared (see
/// [`crate::host::desugar`]) and, with `profiled`, its functions wrapped in timed sections (see
/// [`crate::host::profile`]). A text the rewrites would break is compiled as written, so a syntax
/// error always points into the script as its author wrote it.
fn compile_script(
    engine: &Engine,
    text: &str,
    defined: &HashSet<String>,
    profiled: bool,
) -> std::result::Result<AST, rhai::ParseError> {
    let desugared = |t: &str| {
        engine
            .compile(crate::host::desugar::game_calls(t, defined))
            .ok()
    };
    profiled
        .then(|| desugared(&crate::host::profile::wrap_functions(text)))
        .flatten()
        .or_else(|| desugared(text))
        .map_or_else(|| engine.compile(text), Ok)
}
