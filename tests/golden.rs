//! Golden games: fixed-seed games of every bundled ruleset whose whole JSON-lines logs are
//! committed in `tests/golden/`, each ending with the game's result. A change that alters how
//! any of them plays — a roll, a decision, a line of narration, the victory — fails here and
//! shows the first lines that differ.
//!
//! To accept an intended change, write the logs anew and say in the commit why they changed:
//!
//! ```sh
//! MUSTER_BLESS=1 cargo test --test golden
//! ```

use muster_interpreter::game::{Game, GameOptions};
use muster_interpreter::value::Value;
use muster_interpreter::world::agent::AgentKind;
use std::path::{Path, PathBuf};

/// Who plays every side of a golden game.
#[derive(Clone, Copy)]
enum Agents {
    Bot,
    Random,
}

/// Plays one game and compares its log with `tests/golden/NAME.jsonl`.
fn golden(name: &str, scenario: &str, seed: u64, agents: Agents, options: &[(&str, bool)]) {
    let log = play(scenario, seed, agents, options);
    let path = PathBuf::from("tests/golden").join(format!("{name}.jsonl"));
    if std::env::var_os("MUSTER_BLESS").is_some() {
        std::fs::create_dir_all("tests/golden").unwrap();
        std::fs::write(&path, &log).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; write it with `MUSTER_BLESS=1 cargo test --test golden`",
            path.display()
        )
    });
    if want != log {
        panic!(
            "{name}: the game no longer plays as {} records it.\n{}\nIf the change is intended, \
             run `MUSTER_BLESS=1 cargo test --test golden` and say why in the commit.",
            path.display(),
            first_difference(&want, &log)
        );
    }
}

fn play(scenario: &str, seed: u64, agents: Agents, options: &[(&str, bool)]) -> String {
    let mut opts = GameOptions {
        seed,
        options: options
            .iter()
            .map(|(k, v)| ((*k).to_string(), Value::Bool(*v)))
            .collect(),
        ..GameOptions::default()
    };
    let mut game = Game::from_scenario(Path::new(scenario), &opts).unwrap();
    if let Agents::Random = agents {
        opts.agents = game
            .ruleset()
            .sides
            .iter()
            .map(|s| (s.clone(), AgentKind::Random))
            .collect();
        game = Game::from_scenario(Path::new(scenario), &opts).unwrap();
    }
    let result = game
        .run(None)
        .unwrap_or_else(|e| panic!("{scenario} seed {seed}: {e}"));
    // The log, then the result the victory rules gave as its last line.
    let mut log = game.log().to_jsonl();
    log.push_str(&serde_json::json!({ "result": result }).to_string());
    log.push('\n');
    log
}

/// The first lines that differ, with a little context, as a unified diff.
fn first_difference(want: &str, got: &str) -> String {
    let diff = similar::TextDiff::from_lines(want, got);
    let text = diff
        .unified_diff()
        .context_radius(2)
        .header("committed", "now")
        .to_string();
    let mut lines: Vec<&str> = text.lines().take(40).collect();
    if text.lines().count() > 40 {
        lines.push("...");
    }
    lines.join("\n")
}

const LAST_VICTORY: &str = "scenarios/last_victory/chickamauga.ron";

/// Every optional rule of The Last Victory (docs/last_victory.md, "Options").
const LAST_VICTORY_OPTIONS: &[(&str, bool)] = &[
    ("attack_effectiveness", true),
    ("no_artillery_advance", true),
    ("artillery_minimum_odds", true),
    ("no_artillery_retreat_election", true),
    ("bombard_ignores_hexsides", true),
    ("artillery_separate_targets", true),
    ("artillery_separate_attacks", true),
    ("effectiveness_recovery_roll", true),
    ("cavalry_movement", true),
    ("cavalry_road", true),
    ("cavalry_retreat", true),
    ("stack_partial_attacks", true),
    ("stack_split_attacks", true),
    ("zoc_entry_limit", true),
    ("minimum_move", true),
    ("night_combat", true),
    ("strategic_movement", true),
    ("train_recovery", true),
];

#[test]
fn last_victory_bots_seed_1() {
    golden("last_victory_bots_1", LAST_VICTORY, 1, Agents::Bot, &[]);
}

#[test]
fn last_victory_bots_seed_2() {
    golden("last_victory_bots_2", LAST_VICTORY, 2, Agents::Bot, &[]);
}

#[test]
fn last_victory_bots_seed_3() {
    golden("last_victory_bots_3", LAST_VICTORY, 3, Agents::Bot, &[]);
}

#[test]
fn last_victory_every_optional_rule() {
    golden(
        "last_victory_optional_1",
        LAST_VICTORY,
        1,
        Agents::Bot,
        LAST_VICTORY_OPTIONS,
    );
}

#[test]
fn last_victory_random() {
    golden(
        "last_victory_random_1",
        LAST_VICTORY,
        1,
        Agents::Random,
        &[],
    );
}

#[test]
fn sedgwick_rebel_ambush_bots() {
    golden(
        "sedgwick_rebel_ambush_bots_1",
        "scenarios/sedgwick_attacks/rebel_ambush.ron",
        1,
        Agents::Bot,
        &[],
    );
}

#[test]
fn sedgwick_switch_bots() {
    golden(
        "sedgwick_switch_bots_1",
        "scenarios/sedgwick_attacks/sedgwicks_switch.ron",
        1,
        Agents::Bot,
        &[],
    );
}

#[test]
fn sedgwick_keep_going_boys_bots() {
    golden(
        "sedgwick_keep_going_boys_bots_1",
        "scenarios/sedgwick_attacks/keep_going_boys.ron",
        1,
        Agents::Bot,
        &[],
    );
}

#[test]
fn sedgwick_rebel_ambush_random() {
    golden(
        "sedgwick_rebel_ambush_random_1",
        "scenarios/sedgwick_attacks/rebel_ambush.ron",
        1,
        Agents::Random,
        &[],
    );
}

#[test]
fn sedgwick_switch_random() {
    golden(
        "sedgwick_switch_random_1",
        "scenarios/sedgwick_attacks/sedgwicks_switch.ron",
        1,
        Agents::Random,
        &[],
    );
}

#[test]
fn sedgwick_keep_going_boys_random() {
    golden(
        "sedgwick_keep_going_boys_random_1",
        "scenarios/sedgwick_attacks/keep_going_boys.ron",
        1,
        Agents::Random,
        &[],
    );
}

#[test]
fn rock_of_chickamauga_drill_bots() {
    golden(
        "rock_of_chickamauga_drill_bots_1",
        "scenarios/rock_of_chickamauga/drill.ron",
        1,
        Agents::Bot,
        &[],
    );
}

#[test]
fn rock_of_chickamauga_drill_random() {
    golden(
        "rock_of_chickamauga_drill_random_1",
        "scenarios/rock_of_chickamauga/drill.ron",
        1,
        Agents::Random,
        &[],
    );
}

#[test]
fn rock_of_chickamauga_longstreet_attacks_bots() {
    golden(
        "rock_of_chickamauga_longstreet_attacks_bots_1",
        "scenarios/rock_of_chickamauga/longstreet_attacks.ron",
        1,
        Agents::Bot,
        &[],
    );
}

#[test]
fn rock_of_chickamauga_grand_battle_bots() {
    golden(
        "rock_of_chickamauga_grand_battle_bots_1",
        "scenarios/rock_of_chickamauga/grand_battle.ron",
        1,
        Agents::Bot,
        &[],
    );
}

#[test]
fn demo_bots() {
    golden(
        "demo_skirmish_bots_1",
        "tests/demo/scenarios/demo/skirmish.ron",
        1,
        Agents::Bot,
        &[],
    );
}

#[test]
fn demo_random() {
    golden(
        "demo_skirmish_random_1",
        "tests/demo/scenarios/demo/skirmish.ron",
        1,
        Agents::Random,
        &[],
    );
}
