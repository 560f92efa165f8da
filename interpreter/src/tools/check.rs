//! `muster check`: validates rulesets, tables, scenarios, maps and example
//! files, reporting each problem as `file:line:col: message`.
//!
//! A file's kind comes from its first item (`Ruleset(`, `Scenario(`, `Map(`,
//! `Table(`, `Values(`, `Example(`, `Style(`); a folder holding `ruleset.ron` is a
//! ruleset. Checking a scenario loads its ruleset (compiling every script)
//! and its map, and places every unit.

use crate::error::{read_file, Error, Location};
use crate::game::{Game, GameOptions};
use crate::geom::map::Map;
use crate::host::compiled::CompiledRuleset;
use crate::scenario::Scenario;
use crate::source::top_level_name;
use crate::table::Tables;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Checks one file or folder; returns each problem found.
pub fn check_path(path: &Path) -> Vec<Error> {
    if path.is_dir() {
        if path.join("ruleset.ron").is_file() {
            return check_ruleset(path);
        }
        let mut entries: Vec<PathBuf> = match std::fs::read_dir(path) {
            Ok(d) => d.flatten().map(|e| e.path()).collect(),
            Err(source) => {
                return vec![Error::Io {
                    path: path.to_path_buf(),
                    source,
                }]
            }
        };
        entries.sort();
        return entries
            .iter()
            .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "ron"))
            .flat_map(|p| check_path(p))
            .collect();
    }
    if path.file_name().is_some_and(|n| n == "ruleset.ron") {
        return check_ruleset(path.parent().unwrap_or(Path::new(".")));
    }
    let text = match read_file(path) {
        Ok(t) => t,
        Err(e) => return vec![e],
    };
    let result = match top_level_name(&text).as_deref() {
        Some("Scenario") => check_scenario(path),
        Some("Map") => Map::load(path).map(|_| ()),
        Some("Table" | "Values") => Tables::default().load(path),
        Some("Example") => crate::tools::verify::Runner::default().run(path).map(|_| ()),
        Some("Style") => crate::style::load(path).map(|_| ()),
        Some("Ruleset") => return check_ruleset(path.parent().unwrap_or(Path::new("."))),
        // Saved games are not content, but a file of no kind is an error: `play` could not read it.
        Some("SaveFile") => Ok(()),
        None => crate::source::parse_ron::<crate::value::Value>(&text, path).and_then(|_| {
            Err(Error::at(
                Location::file(path),
                "cannot tell what this file holds: a muster file starts with the name of its kind",
            )
            .with_help(Some(
                "start it with Ruleset(, Scenario(, Map(, Table(, Values(, Example( or Style( (see docs/formats.md)".into(),
            )))
        }),
        Some(other) => Err(Error::at(
            Location::file(path),
            format!("unknown file kind `{other}`: expected Ruleset, Scenario, Map, Table, Values, Example or Style"),
        )),
    };
    result.err().map(Error::into_problems).unwrap_or_default()
}

fn check_ruleset(dir: &Path) -> Vec<Error> {
    // A library (a `base` for titles) only has to load and compile.
    let library = std::fs::read_to_string(dir.join("ruleset.ron"))
        .ok()
        .and_then(|t| {
            crate::source::parse_ron::<crate::ruleset::RulesetFile>(&t, &dir.join("ruleset.ron"))
                .ok()
        })
        .is_some_and(|f| f.library);
    match CompiledRuleset::load(dir) {
        Ok(_) if library => Vec::new(),
        Ok(r) => r.missing_procedures(),
        Err(e) => e.into_problems(),
    }
}

fn check_scenario(path: &Path) -> Result<(), Error> {
    let scenario = Scenario::load(path)?;
    let ruleset = Rc::new(CompiledRuleset::load(&scenario.ruleset_dir())?);
    // Starting the game checks what `play` checks before turn 1: every unit's side, kind and
    // hex, the options, the procedures the ruleset needs, and the ruleset's `validate`.
    Game::start(&scenario, ruleset, &GameOptions::default()).map(|_| ())
}
