//! The engine every ruleset runs on: its limits, the resolver that lets scripts `import` only
//! from `rulesets/`, script errors placed in their files, and the script operation counter.

use crate::error::{Error, Location};
use crate::ruleset::Limits;
use crate::world::Rr;
use rhai::module_resolvers::FileModuleResolver;
use rhai::{Engine, EvalAltResult, Module, ModuleResolver, Position, Shared};
use std::path::{Component, Path, PathBuf};

/// The stack a thread that runs scripts is given: enough for the deepest nesting the limits
/// allow (`limits.call_depth` up to its cap, each call with expressions nested to the engine's
/// expression depth, and calls into the core and back between them), where a platform's
/// default of a few MiB is not. It is address space, not memory: only the pages a game touches
/// are used.
pub const SCRIPT_THREAD_STACK: usize = 256 << 20;

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
        EvalAltResult::ErrorTerminated(token, _) if token.to_string() == OVER_MEMORY => {
            "the scripts took more memory than `limits.memory` in ruleset.ron allows (a value that grows without end?)".to_string()
        }
        EvalAltResult::ErrorStackOverflow(_) => {
            "the script called functions too deeply (endless recursion?); the limit is `limits.call_depth` in ruleset.ron".to_string()
        }
        // `x[key]` where `x` is `()`: most often data that nothing set (an example that does
        // not run `setup`, a misspelt key).
        EvalAltResult::ErrorIndexingType(ty, _) if ty.starts_with("()") => {
            "indexed a value that is not set (`()`); was the procedure that sets it run (`setup`, in an example), or is its name misspelt?".to_string()
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
        message = format!("{message} (in {})", call_chain(&calls));
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
    // Rhai passes a limit error up without the line that was running: point at the function
    // the chain names, and say how to find the line.
    let (line, col) = match (pos.line(), calls.last()) {
        (Some(l), _) => (l, pos.position().unwrap_or(0)),
        (None, Some(f)) => definition_line(&file, f).map_or((0, 0), |l| (l, 1)),
        (None, None) => (0, 0),
    };
    let help = matches!(
        e,
        EvalAltResult::ErrorTooManyOperations(_)
            | EvalAltResult::ErrorStackOverflow(_)
            | EvalAltResult::ErrorTerminated(..)
    )
    .then(|| {
        "the line that was running is not known: run the game again with `muster play --profile` (the same seed and answers), which names the functions that were running".to_string()
    });
    Error::at(Location::new(file, line, col), message).with_help(help)
}

/// The line of `fn name(` in a script file, if it can be read.
fn definition_line(file: &Path, name: &str) -> Option<usize> {
    let text = std::fs::read_to_string(file).ok()?;
    let head = format!("fn {name}(");
    text.lines()
        .position(|l| l.trim_start().starts_with(&head))
        .map(|i| i + 1)
}

/// A chain of calls, innermost first, as a person reads it: `fight <- combat_phase <-
/// game_turn`; anonymous functions by that name, and a run of repeated calls (recursion) once
/// with its count.
fn call_chain(calls: &[String]) -> String {
    let names: Vec<&str> = calls
        .iter()
        .map(|c| {
            if c.starts_with("anon$") {
                "an anonymous function"
            } else {
                c.as_str()
            }
        })
        .collect();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < names.len() {
        let repeated = (1..=6).find_map(|period| {
            let block = names.get(i..i + period)?;
            let times = names[i..]
                .chunks(period)
                .take_while(|c| *c == block)
                .count();
            (times >= 3).then_some((period, times))
        });
        match repeated {
            Some((period, times)) => {
                parts.push(format!(
                    "({}) {times} times",
                    names[i..i + period].join(" <- ")
                ));
                i += period * times;
            }
            None => {
                parts.push(names[i].to_string());
                i += 1;
            }
        }
    }
    parts.join(" <- ")
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
        // Imports name paths from the rulesets folder, whichever script imports; a link inside
        // it may not lead out of it.
        let _ = source;
        let root = self.inner.base_path().unwrap_or(Path::new("."));
        let file = root.join(format!("{path}.rhai"));
        if let (Ok(root), Ok(target)) = (root.canonicalize(), file.canonicalize()) {
            if !target.starts_with(&root) {
                return Err(format!("import `{path}`: {} leads outside rulesets/ (scripts may import only from inside it)", file.display()).into());
            }
        }
        self.inner.resolve(engine, None, path, pos)
    }
}

thread_local! {
    /// Script operations run on this thread while counting is on (see [`watch`]).
    static OPERATIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The token a script stopped by the memory limit ends with (see [`watch`]).
const OVER_MEMORY: &str = "muster: over the memory limit";

/// Watches every script operation `engine` runs: the script is stopped with an error once the
/// process holds more than `memory_mib` MiB in large blocks ([`crate::alloc::live_bytes`], in a
/// program that uses muster's allocator); with `counting` the operations are also counted, for
/// `muster play --profile` ([`operations`]: unlike times, the counts are the same on any machine
/// and under any load).
///
/// This takes the place of Rhai's limits on string, array and map sizes, which measure the whole
/// of every value a script makes or changes, nested values and all, after every operation.
pub fn watch(engine: &mut Engine, memory_mib: usize, counting: bool) {
    let limit = memory_mib.saturating_mul(1 << 20);
    engine.on_progress(move |_| {
        if counting {
            OPERATIONS.with(|c| c.set(c.get() + 1));
        }
        (crate::alloc::live_bytes() > limit).then(|| OVER_MEMORY.into())
    });
}

/// The script operations counted on this thread so far (0 unless an engine counts them).
#[must_use]
pub fn operations() -> u64 {
    OPERATIONS.with(std::cell::Cell::get)
}

/// An engine for a ruleset without the API: its limits (memory through [`watch`]), the import
/// resolver, no `eval`, no printing. [`crate::host::build_engine`] adds the API.
#[must_use]
pub fn configured(limits: &Limits, rulesets_dir: &Path) -> Engine {
    let mut engine = Engine::new();
    // Scripts are compiled once and run many times: fold what can be folded. Every API
    // function takes the game, so no call with side effects is folded away.
    engine.set_optimization_level(rhai::OptimizationLevel::Full);
    engine.set_max_operations(limits.operations);
    engine.set_max_call_levels(limits.call_depth);
    engine.set_max_expr_depths(128, 64);
    watch(&mut engine, limits.memory, false);
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
    engine
}

#[cfg(test)]
mod tests {
    use super::{call_chain, script_error};

    #[test]
    fn indexing_nothing_says_what_is_likely_missing() {
        let e = rhai::EvalAltResult::ErrorIndexingType("() [string]".into(), rhai::Position::NONE);
        let text = script_error(&e, "bot_choose", &|_| None).to_string();
        assert!(text.contains("indexed a value that is not set"), "{text}");
        assert!(text.contains("(in bot_choose)"), "{text}");
    }

    #[test]
    fn a_call_chain_names_recursion_once() {
        let calls: Vec<String> = [
            "map",
            "deep",
            "anon$1f",
            "map",
            "deep",
            "anon$1f",
            "map",
            "deep",
            "anon$1f",
            "game_turn",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(
            call_chain(&calls),
            "(map <- deep <- an anonymous function) 3 times <- game_turn"
        );
        assert_eq!(
            call_chain(&calls[6..]),
            "map <- deep <- an anonymous function <- game_turn"
        );
    }
}
