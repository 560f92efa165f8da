//! `muster check` finds what `play` would trip over, and both say it the same way before turn 1:
//! files that do not parse, references the scenario's data makes (units, hexes, areas, kinds,
//! options), the procedures every ruleset needs. Each case is a reproducer of a problem a modder
//! met; they run on copies of the bundled content in a temporary folder.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn muster() -> Command {
    Command::cargo_bin("muster").unwrap()
}

/// Runs muster with one-line messages; returns standard output, standard error and the status.
fn run(args: &[&str]) -> (String, String, i32) {
    let out = muster()
        .arg("--message-format")
        .arg("short")
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
        out.status.code().unwrap_or(-1),
    )
}

/// A fresh copy of the project's content (rulesets, tables, scenarios) under a temporary
/// folder named for the test, removed when dropped: keep it while the test runs.
fn content_copy(name: &str) -> tempfile::TempDir {
    let root = tempfile::Builder::new()
        .prefix(&format!("muster-check-{name}-"))
        .tempdir()
        .unwrap();
    for dir in ["rulesets", "tables", "scenarios"] {
        copy_dir(Path::new(dir), &root.path().join(dir));
    }
    root
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

/// Replaces `from` by `to` in a file of the copy (once; the text must be there).
fn edit(root: &Path, file: &str, from: &str, to: &str) -> PathBuf {
    let p = root.join(file);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains(from), "{file} has no `{from}`");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    p
}

/// The 1-based number of the first line of a file that `is` picks.
fn line_of(file: &Path, is: impl Fn(&str) -> bool) -> usize {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines().position(is).expect("a line that matches") + 1
}

/// `check` and `play` of a scenario both fail, before turn 1, saying `says` at `place`.
fn check_and_play_agree(scenario: &Path, place: &str, says: &str) {
    let s = scenario.to_str().unwrap();
    let (out, _, code) = run(&["check", s]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("{place}: {says}")), "check: {out}");
    let (out, err, code) = run(&["play", s, "-q"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains(&format!("{place}: {says}")), "play: {err}");
    assert!(!out.contains("game over"), "{out}");
}

#[test]
fn files_that_do_not_parse_are_problems() {
    let dir = tempfile::Builder::new()
        .prefix("muster-check-unparsed-")
        .tempdir()
        .unwrap();
    let files = [
        ("empty.ron", "", "empty.ron:1:1: the file is empty"),
        (
            "comment.ron",
            "// a comment\n/* and another */\n",
            "comment.ron:1:1: the file is empty",
        ),
        (
            "paren.ron",
            "(name: \"x\")\n",
            "paren.ron:1:1: cannot tell what this file holds",
        ),
        ("slash.ron", "/x", "slash.ron:1:"),
        (
            "string.ron",
            "\"Scenario\"",
            "string.ron:1:1: cannot tell what this file holds",
        ),
    ];
    for (name, text, _) in &files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let (out, _, code) = run(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    for (_, _, says) in &files {
        assert!(out.contains(says), "`{says}` missing in\n{out}");
    }
    assert!(out.contains("5 problems found"), "{out}");
}

/// Writes `to` over `from` in a copy of the content's `file`, and checks that `check` and `play`
/// both stop before turn 1 saying `says` at `column` of the edited line.
fn an_edit_is_found_before_turn_1(file: &str, from: &str, to: &str, column: usize, says: &str) {
    let copy = content_copy("edit");
    let scenario = edit(copy.path(), file, from, to);
    let line = line_of(&scenario, |l| l.contains(to));
    check_and_play_agree(
        &scenario,
        &format!("{}:{line}:{column}", scenario.display()),
        says,
    );
}

#[test]
fn an_arrival_naming_a_missing_unit_is_found_before_turn_1() {
    an_edit_is_found_before_turn_1(
        "scenarios/sedgwick_attacks/rebel_ambush.ron",
        "\"c_jordan\", \"c_parker\"",
        "\"c_jordna\", \"c_parker\"",
        52,
        "the arrival on turn 5 names unit `c_jordna`, which the scenario does not have",
    );
}

#[test]
fn a_bot_position_off_the_map_is_found_before_turn_1() {
    an_edit_is_found_before_turn_1(
        "scenarios/sedgwick_attacks/rebel_ambush.ron",
        "\"2513\", \"2614\"]",
        "\"2513\", \"2699\"]",
        63,
        "`bot_positions` posts brigade `wilcox` to `2699`, which is not a hex of the map",
    );
}

#[test]
fn a_strength_value_that_is_not_a_number_is_found_before_turn_1() {
    an_edit_is_found_before_turn_1(
        "scenarios/sedgwick_attacks/keep_going_boys.ron",
        "\"sp_value\": 1.0",
        "\"sp_value\": -1.0",
        10,
        "`sp_value` is -1.0; it must be a number of victory points, 0 or more",
    );
}

#[test]
fn an_off_map_hex_in_scenario_data_is_found_before_turn_1() {
    let copy = content_copy("data-hex");
    let root = copy.path();
    let file = "scenarios/last_victory/chickamauga.ron";
    let scenario = edit(root, file, "\"1920\": 10", "\"1999\": 10");
    let (out, _, code) = run(&["check", scenario.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.contains("victory hex `1999` is not a hex of the map"),
        "{out}"
    );
    let (_, err, code) = run(&["play", scenario.to_str().unwrap(), "-q"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("victory hex `1999` is not a hex of the map"),
        "{err}"
    );
}

#[test]
fn an_unknown_unit_kind_is_an_error_with_a_suggestion() {
    let copy = content_copy("kind");
    let root = copy.path();
    let file = "scenarios/last_victory/chickamauga.ron";
    let scenario = edit(root, file, "kind: \"infantry\"", "kind: \"infantri\"");
    let (out, _, code) = run(&["check", scenario.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "kind `infantri` is not one of the ruleset's kinds (did you mean `infantry`?)"
        ),
        "{out}"
    );
}

#[test]
fn an_unknown_option_in_a_scenario_is_an_error_at_its_name() {
    let copy = content_copy("option");
    let root = copy.path();
    let file = "scenarios/last_victory/chickamauga.ron";
    let scenario = edit(
        root,
        file,
        "{\"attack_effectiveness\": true}",
        "{\"attack_efectiveness\": true}",
    );
    let (out, _, code) = run(&["check", scenario.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.contains("the ruleset has no option `attack_efectiveness` (did you mean `attack_effectiveness`?)"),
        "{out}"
    );
}

#[test]
fn a_missing_procedure_stops_play_before_turn_1() {
    let copy = content_copy("victory");
    let root = copy.path();
    let file = "rulesets/last_victory/victory.rhai";
    edit(root, file, "fn victory(game)", "fn victroy(game)");
    let scenario = root.join("scenarios/last_victory/chickamauga.ron");
    let manifest = root.join("rulesets/last_victory/ruleset.ron");
    check_and_play_agree(
        &scenario,
        &format!("{}:1:1", manifest.display()),
        "the scripts define no `fn victory(game)`, which every ruleset needs (the scripts define `victroy`: is it misspelt?)",
    );
    let (out, _, code) = run(&["check", root.join("rulesets").to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.contains("no `fn victory(game)`"), "{out}");
}

#[test]
fn a_misspelt_ruleset_is_named_as_written() {
    let copy = content_copy("ruleset-name");
    let root = copy.path();
    let file = "scenarios/last_victory/chickamauga.ron";
    let scenario = edit(
        root,
        file,
        "rulesets/last_victory\"",
        "rulesets/last_victroy\"",
    );
    let (out, _, code) = run(&["check", scenario.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        out.contains("ruleset `../../rulesets/last_victroy` not found")
            && out.contains("(did you mean `last_victory`?)"),
        "{out}"
    );
}

#[test]
fn a_runaway_script_points_at_the_function_that_was_called() {
    let copy = content_copy("runaway");
    let root = copy.path();
    let file = "rulesets/last_victory/sequence.rhai";
    let script = edit(
        root,
        file,
        "fn game_turn(game) {",
        "fn game_turn(game) {\n    while true { }",
    );
    let line = line_of(&script, |l| l.starts_with("fn game_turn(game)"));
    let scenario = root.join("scenarios/last_victory/chickamauga.ron");
    // The game up to the failure is kept where `--save` says (else in the working folder).
    let kept = root.join("kept.ron");
    let (_, err, code) = run(&[
        "play",
        scenario.to_str().unwrap(),
        "-q",
        "--save",
        kept.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&format!(
            "{}:{line}:1: the script ran past its operations limit",
            script.display()
        )),
        "{err}"
    );
    assert!(err.contains("--profile"), "{err}");
    assert!(
        kept.is_file() && err.contains("the game up to the failure is saved in"),
        "{err}"
    );
}
