//! `muster check`: validates rulesets, tables, scenarios, maps and example
//! files, reporting each problem as `file:line:col: message`.
//!
//! A file's kind comes from its first item (`Ruleset(`, `Scenario(`, `Map(`,
//! `Table(`, `Values(`, `Example(`); a folder holding `ruleset.ron` is a
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
        Some("Ruleset") => return check_ruleset(path.parent().unwrap_or(Path::new("."))),
        // Saved games and other RON files are not content to check.
        Some("SaveFile") | None => Ok(()),
        Some(other) => Err(Error::at(
            Location::file(path),
            format!("unknown file kind `{other}`: expected Ruleset, Scenario, Map, Table, Values or Example"),
        )),
    };
    result.err().into_iter().collect()
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
        Ok(r) => ["game_turn", "victory"]
            .iter()
            .filter(|f| !r.has_function(f, 1))
            .map(|f| {
                Error::at(
                    Location::file(dir.join("ruleset.ron")),
                    format!("the scripts define no `fn {f}(game)`, which every ruleset needs"),
                )
            })
            .collect(),
        Err(e) => vec![e],
    }
}

fn check_scenario(path: &Path) -> Result<(), Error> {
    let scenario = Scenario::load(path)?;
    let ruleset = Rc::new(CompiledRuleset::load(&scenario.ruleset_dir())?);
    // Building the game places every unit and checks every side and hex.
    Game::start(&scenario, ruleset, &GameOptions::default()).map(|_| ())
}
