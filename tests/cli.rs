//! The command line as a user meets it.

use assert_cmd::Command;

fn muster() -> Command {
    Command::cargo_bin("muster").unwrap()
}

fn stdout(args: &[&str]) -> (String, i32) {
    let out = muster().args(args).output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn play_prints_the_result() {
    let (out, code) = stdout(&[
        "play",
        "tests/demo/scenarios/demo/skirmish.ron",
        "--seed",
        "1",
        "--agent",
        "red=bot",
        "--agent",
        "blue=random",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("== Turn 6 =="), "{out}");
    assert!(
        out.contains("red: ") && out.contains("blue: ") && out.contains("VP"),
        "{out}"
    );
}

#[test]
fn play_json_has_turns_winner_and_vp() {
    let (out, code) = stdout(&[
        "play",
        "tests/demo/scenarios/demo/skirmish.ron",
        "--seed",
        "4",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["turns"], 6);
    assert!(v["winner"].is_string() || v["winner"].is_null());
    assert!(v["vp"]["red"].is_i64() && v["vp"]["blue"].is_i64());
}

#[test]
fn same_seed_same_log_file() {
    let dir = scratch("log");
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    for p in [&a, &b] {
        let (_, code) = stdout(&[
            "play",
            "tests/demo/scenarios/demo/skirmish.ron",
            "--seed",
            "9",
            "-q",
            "--log",
            p.to_str().unwrap(),
        ]);
        assert_eq!(code, 0);
    }
    let (la, lb) = (
        std::fs::read_to_string(&a).unwrap(),
        std::fs::read_to_string(&b).unwrap(),
    );
    assert!(la.lines().count() > 20);
    assert_eq!(la, lb);
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(
        muster().args(["play"]).output().unwrap().status.code(),
        Some(2)
    );
    assert_eq!(
        muster()
            .args(["frobnicate"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(2)
    );
    // Arguments the command cannot use are usage errors too, found before the game starts.
    let skirmish = "tests/demo/scenarios/demo/skirmish.ron";
    let lv = "scenarios/last_victory/chickamauga.ron";
    let cases: [(&[&str], &str); 8] = [
        (&["play", skirmish, "--agent", "green=bot"], "side `green`"),
        (
            &["play", skirmish, "--agent", "red=genius"],
            "unknown agent `genius`",
        ),
        (
            &["play", skirmish, "--agent", "red"],
            "--agent takes SIDE=AGENT",
        ),
        (
            &["play", skirmish, "--option", "night"],
            "--option takes NAME=VALUE",
        ),
        (
            &["play", lv, "--option", "nonsuch=true"],
            "the ruleset has no option `nonsuch`",
        ),
        (
            &["play", lv, "--option", "attack_effectiveness=maybe"],
            "option `attack_effectiveness` takes true or false, not `maybe`",
        ),
        (
            &["simulate", skirmish, "--games", "2", "--shard", "3/2"],
            "--shard takes K/N",
        ),
        (
            &["play", skirmish, "--agent", "red=search", "--audit", "3"],
            "--audit needs 4 fresh rollouts or more",
        ),
    ];
    for (args, says) in cases {
        let out = muster().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn check_passes_on_good_content() {
    let (out, code) = stdout(&[
        "check",
        "tests/demo/rulesets/demo",
        "tests/demo/scenarios",
        "tests/demo/tables",
        "tests/examples",
    ]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn check_reports_each_problem_at_its_place() {
    let (out, code) = stdout(&["check", "--message-format", "short", "tests/fixtures/bad"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("tests/fixtures/bad/bad_cell.ron:7:23: cannot read result `D?r`"),
        "{out}"
    );
    assert!(
        out.contains(
            "tests/fixtures/bad/misspelt_key.ron:4:5: unknown key `colums` (did you mean `columns`?)"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "tests/fixtures/bad/off_map_unit.ron:9:52: unit `b1`: hex `1109` is off the map"
        ),
        "{out}"
    );
    assert!(
        out.contains("tests/fixtures/bad/unknown_terrain.ron:8:12: unknown terrain code `q`"),
        "{out}"
    );
    assert!(out.contains("4 problems found"), "{out}");
}

#[test]
fn check_shows_the_source_line_with_a_caret_and_help() {
    let (out, code) = stdout(&["check", "tests/fixtures/bad/misspelt_key.ron"]);
    assert_eq!(code, 1);
    let expected = [
        "error: unknown key `colums`",
        "╭─[tests/fixtures/bad/misspelt_key.ron:4:5]",
        " 4 │     colums: [\"1-1\"],",
        "·     ──────",
        "help: did you mean `columns`?",
    ];
    for line in expected {
        assert!(out.contains(line), "`{line}` missing in\n{out}");
    }
    assert!(
        !out.contains("UnitSpec") && !out.contains("Table`"),
        "{out}"
    );
}

#[test]
fn verify_ends_with_the_count() {
    let (out, code) = stdout(&["verify", "tests/examples/demo"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.trim_end().ends_with("7 passed, 0 failed"), "{out}");
}

#[test]
fn strict_examples_fail_at_the_step_with_nothing_forced() {
    let (out, code) = stdout(&["verify", "tests/fixtures/examples/unanswered.ron"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("step 2 `pick` failed")
            && out.contains(
                "red's `pick` decision has no forced answer left; its options: left | right"
            ),
        "{out}"
    );
    let (out, code) = stdout(&["verify", "tests/fixtures/examples/unrolled.ron"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("step 2 `game.roll(\"d6\")` failed")
            && out
                .contains("a roll of die `d6` with no forced value left (1 forced value(s) given"),
        "{out}"
    );
    // Likewise a draw with no forced item left, and a shuffle.
    let (out, code) = stdout(&["verify", "tests/fixtures/examples/undrawn.ron"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("step 2 `game.draw(\"cup\")` failed")
            && out.contains("a random draw from deck `cup` with no forced draw left"),
        "{out}"
    );
    let (out, code) = stdout(&["verify", "tests/fixtures/examples/unshuffled.ron"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("step 2 ") && out.contains("a random shuffle of deck `cup`"),
        "{out}"
    );
    // Random dice and the bot answer only where an example says so.
    let (out, code) = stdout(&["verify", "tests/fixtures/examples/bot_answers.ron"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn an_example_gives_the_same_verdict_every_run() {
    // core_calls.ron calls same-named functions of two and three parameters.
    let first = stdout(&["verify", "tests/examples/demo/core_calls.ron"]);
    assert_eq!(first.1, 0, "{}", first.0);
    for _ in 0..19 {
        assert_eq!(
            stdout(&["verify", "tests/examples/demo/core_calls.ron"]),
            first
        );
    }
}

#[test]
fn verify_shows_a_passing_examples_narration() {
    let (out, code) = stdout(&["verify", "--show", "tests/examples/demo/core_calls.ron"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("       |   red (forced) pick: right"), "{out}");
}

#[test]
fn los_prints_a_verdict() {
    let scen = "tests/demo/scenarios/demo/skirmish.ron";
    assert_eq!(
        stdout(&["los", scen, "0604", "0804"]),
        ("clear\n".to_string(), 0)
    );
    assert_eq!(
        stdout(&["los", scen, "0401", "0403"]),
        ("blocked by 0402 (woods)\n".to_string(), 0)
    );
    assert_eq!(
        stdout(&["los", scen, "0101", "0108"]),
        ("blocked by 0104 (units)\n".to_string(), 0)
    );
    assert_eq!(
        stdout(&["los", scen, "0102", "0104"]),
        ("obscured: units in 0103\n".to_string(), 0)
    );
    let out = muster()
        .args(["los", scen, "0101", "0199"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hex `0199` is off the map"));
}

#[test]
fn a_failed_game_is_kept_for_resuming() {
    let dir = scratch("save");
    let save = dir.path().join("broken.ron");
    let out = muster()
        .args([
            "play",
            "tests/fixtures/scenarios/broken.ron",
            "--save",
            save.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(&save).unwrap();
    // A save is what replays the game: its scenario and seed, and the answers up to the failure.
    assert!(
        text.contains("SaveFile(")
            && text.contains("scenario: \"tests/fixtures/scenarios/broken.ron\"")
            && text.contains("seed: 1,"),
        "{text}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the game up to the failure is saved in"),
        "{err}"
    );
}

#[test]
fn check_passes_on_the_last_victory_content() {
    let (out, code) = stdout(&[
        "check",
        "rulesets/last_victory",
        "scenarios/last_victory",
        "tables/last_victory",
    ]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn last_victory_json_result() {
    let (out, code) = stdout(&[
        "play",
        "scenarios/last_victory/chickamauga.ron",
        "--seed",
        "3",
        "--json",
        "--agent",
        "union=bot",
        "--agent",
        "confederate=bot",
    ]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["turns"], 15);
    assert!(v["vp"]["union"].is_i64() && v["vp"]["confederate"].is_i64());
    assert!(v["details"]["occupation"].is_object());
}

#[test]
fn check_passes_on_the_sedgwick_content() {
    let (out, code) = stdout(&[
        "check",
        "rulesets/blind_swords",
        "rulesets/sedgwick_attacks",
        "scenarios/sedgwick_attacks",
        "tables/sedgwick_attacks",
        "tables/blind_swords",
    ]);
    assert_eq!(code, 0, "{out}");
}

/// Each Sedgwick scenario runs to its last turn with bots on both sides, and the same seed gives
/// the same log.
#[test]
fn sedgwick_scenarios_play_to_the_end_the_same_way_twice() {
    let dir = scratch("sed");
    for (scenario, turns) in [
        ("rebel_ambush", 9),
        ("sedgwicks_switch", 12),
        ("keep_going_boys", 16),
    ] {
        let path = format!("scenarios/sedgwick_attacks/{scenario}.ron");
        let mut logs = Vec::new();
        for run in 0..2 {
            let log = dir.path().join(format!("{scenario}-{run}.jsonl"));
            let (out, code) = stdout(&[
                "play",
                &path,
                "--seed",
                "5",
                "--json",
                "--log",
                log.to_str().unwrap(),
            ]);
            assert_eq!(code, 0, "{out}");
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(v["turns"], turns, "{scenario}");
            assert!(v["vp"]["union"].is_i64() && v["vp"]["confederate"].is_i64());
            assert!(v["winner"].is_string());
            logs.push(std::fs::read_to_string(&log).unwrap());
        }
        assert!(logs[0].lines().count() > 100);
        assert_eq!(logs[0], logs[1], "{scenario}: same seed, different log");
    }
}

/// A game's recorded answers (random for one side, bot for the other) replay it exactly, one-option
/// decisions included (they are logged but ask nobody, live or replayed).
#[test]
fn recorded_answers_replay_a_mixed_sedgwick_game() {
    let dir = scratch("replay");
    let (a, b) = (dir.path().join("a.jsonl"), dir.path().join("b.jsonl"));
    let path = "scenarios/sedgwick_attacks/rebel_ambush.ron";
    let (out, code) = stdout(&[
        "play",
        path,
        "--seed",
        "3",
        "-q",
        "--agent",
        "union=random",
        "--log",
        a.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    let replay = format!("replay:{}", a.display());
    let (out, code) = stdout(&[
        "play",
        path,
        "--seed",
        "3",
        "-q",
        "--agent",
        &format!("union={replay}"),
        "--agent",
        &format!("confederate={replay}"),
        "--log",
        b.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    // The same records, but for who answered (the header line names the agents: passed over).
    let records = |p: &std::path::Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                if let Some(o) = v.as_object_mut() {
                    o.remove("agent");
                }
                v
            })
            .collect()
    };
    let (ra, rb) = (records(&a), records(&b));
    assert!(ra.len() > 100);
    assert_eq!(ra, rb);
}

#[test]
fn a_failed_game_is_kept_and_fails_again_when_resumed() {
    // Seed found with `muster simulate tests/fixtures/scenarios/flaky.ron --games 12`: the
    // flaky rule fires in turn 2.
    let seed = "17388166129998380965";
    let dir = scratch("flaky");
    let save = dir.path().join("flaky.ron");
    let run = |args: &[&str]| {
        let out = muster().args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let save_arg = save.to_str().unwrap();
    let (code, err) = run(&[
        "play",
        "tests/fixtures/scenarios/flaky.ron",
        "--seed",
        seed,
        "--save",
        save_arg,
        "-q",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("the flaky rule fired"), "{err}");
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.contains(&format!("seed: {seed},")), "{text}");
    // Resuming replays the game with the same dice, so the failure comes back; the scenario
    // may be named, if it is the save's.
    let (code, err) = run(&[
        "play",
        "tests/fixtures/scenarios/flaky.ron",
        "--resume",
        save_arg,
        "--save",
        save_arg,
        "-q",
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("the flaky rule fired"), "{err}");
}

const SKIRMISH: &str = "tests/demo/scenarios/demo/skirmish.ron";

/// A fresh folder for one test's files, removed when dropped: keep it while the test runs.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("muster-cli-{name}-"))
        .tempdir()
        .unwrap()
}

/// `muster play ARGS` with `input` typed at the terminal: (exit status, stdout, stderr).
fn play_typing(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let out = muster()
        .arg("play")
        .args(args)
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Blue's person always choosing the first option (to stay), for the whole game and then some.
fn first_options() -> String {
    "1\n".repeat(60)
}

/// The skirmish on seed 5 with blue at the terminal, `input` typed there, and `extra` arguments.
fn play_blue(extra: &[&str], input: &str) -> (Option<i32>, String, String) {
    let args = [SKIRMISH, "--seed", "5", "--agent", "blue=human", "-q"];
    play_typing(&[&args[..], extra].concat(), input)
}

/// The log of the skirmish on seed 5 with blue at the terminal answering 1 throughout.
fn whole_log(dir: &std::path::Path) -> String {
    let log = dir.join("whole.jsonl");
    let (code, _, err) = play_blue(&["--log", log.to_str().unwrap()], &first_options());
    assert_eq!(code, Some(0), "{err}");
    std::fs::read_to_string(log).unwrap()
}

#[test]
fn the_end_of_input_saves_the_game_and_resume_needs_no_scenario() {
    let dir = scratch("eof");
    let whole = whole_log(dir.path());
    let save = dir.path().join("game.ron");
    let save_arg = save.to_str().unwrap();
    // Four answers, then the end of input (Ctrl-D) in turn 2: saved, no error, exit 0.
    let (code, _, err) = play_blue(&["--save", save_arg], "1\n1\n1\n1\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "the game is saved in {save_arg}; go on with `muster play --resume {save_arg}`"
        )),
        "{err}"
    );
    assert!(!err.contains("error"), "{err}");
    let copy = dir.path().join("copy.ron");
    std::fs::copy(&save, &copy).unwrap();
    // Resumed without the scenario, the saved person plays blue on, and the game is the one
    // never interrupted.
    let log = dir.path().join("resumed.jsonl");
    let (code, _, err) = play_typing(
        &["--resume", save_arg, "-q", "--log", log.to_str().unwrap()],
        &first_options(),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("resumed at turn 2 after "), "{err}");
    assert_eq!(std::fs::read_to_string(&log).unwrap(), whole);
    // The result reports the saved game's scenario and seed; --agent hands blue to the bot.
    let copy_arg = copy.to_str().unwrap();
    let (code, out, err) =
        play_typing(&["--resume", copy_arg, "--json", "--agent", "blue=bot"], "");
    assert_eq!(code, Some(0), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["scenario"], SKIRMISH);
    assert_eq!(v["seed"], 5);
    assert_eq!(v["turns"], 6);
}

#[test]
fn quit_at_the_prompt_saves_in_the_current_folder() {
    let dir = scratch("quit");
    let scenario = std::fs::canonicalize(SKIRMISH).unwrap();
    // `muster play ARGS` in `dir`, `input` typed: the human answers then in its save, and stderr.
    let quit_in_dir = |args: &[&str], input: &str| {
        let out = muster()
            .current_dir(dir.path())
            .arg("play")
            .args(args)
            .write_stdin(input.to_string())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(0), "{err}");
        let text = std::fs::read_to_string(dir.path().join("muster-save.ron")).unwrap();
        (text.matches("agent: \"human\"").count(), err)
    };
    let scenario = scenario.to_str().unwrap();
    let (answers, err) = quit_in_dir(
        &[scenario, "--agent", "blue=human", "-q"],
        "1\nhelp\n2\nquit\n",
    );
    assert_eq!(answers, 2, "{err}");
    assert!(err.contains("save [FILE]  save the game"), "help: {err}");
    assert!(
        err.contains("go on with `muster play --resume muster-save.ron`"),
        "{err}"
    );
    // A resumed game that stops is kept in the file it came from.
    let (answers, err) = quit_in_dir(&["--resume", "muster-save.ron", "-q"], "3\nquit\n");
    assert_eq!(answers, 3, "{err}");
    assert!(err.contains("saved in muster-save.ron"), "{err}");
}

/// A person can play either side of The Rock of Chickamauga at the terminal: on scenario #10
/// "Longstreet Attacks", answering the first option of thirty decisions and then `quit`, the game
/// goes on from the Command Decision into the card draw (the bot playing the other side between
/// the answers) and stops cleanly, every answer the person's and of that side.
#[test]
fn a_person_plays_either_side_of_longstreet_attacks() {
    const LONGSTREET: &str = "scenarios/rock_of_chickamauga/longstreet_attacks.ron";
    const ANSWERS: usize = 30;
    for side in ["union", "confederate"] {
        let dir = scratch(&format!("roc-{side}"));
        let save = dir.path().join("game.ron");
        let agent = format!("{side}=human");
        let args = [
            LONGSTREET,
            "--seed",
            "1",
            "--agent",
            &agent,
            "-q",
            "--save",
            save.to_str().unwrap(),
        ];
        let (code, _, err) = play_typing(&args, &format!("{}quit\n", "1\n".repeat(ANSWERS)));
        assert_eq!(code, Some(0), "{side}: {err}");
        assert!(!err.contains("error"), "{side}: {err}");
        assert!(err.contains(&format!("{side}: priority ")), "{side}: {err}");
        // The person's answers in the save: (side, kind) of each.
        let text = std::fs::read_to_string(&save).unwrap();
        let answers: Vec<(&str, &str)> = text
            .lines()
            .filter(|l| l.contains(r#"agent: "human""#))
            .map(|l| {
                let field = |key: &str| {
                    l.split(key)
                        .nth(1)
                        .and_then(|r| r.split('"').next())
                        .unwrap()
                };
                (field(r#"side: ""#), field(r#"kind: ""#))
            })
            .collect();
        assert_eq!(answers.len(), ANSWERS, "{side}: {text}");
        assert!(
            answers.iter().all(|(s, _)| *s == side),
            "{side}: {answers:?}"
        );
        // Past the Command Decision (D): the person answered in the turn's play too.
        let command = ["priority ", "extra bombardments", "key event"];
        assert!(
            answers
                .iter()
                .any(|(_, k)| !command.iter().any(|c| k.starts_with(c))),
            "{side}: {answers:?}"
        );
    }
}

#[test]
fn undo_at_the_prompt_takes_the_last_answer_back() {
    let dir = scratch("undo");
    let whole = whole_log(dir.path());
    // Blue's second answer is 5, then taken back and answered 1: the game is the one where blue
    // answered 1 throughout.
    let log = dir.path().join("undone.jsonl");
    let typed = format!("undo\n1\n5\nundo\n{}", first_options());
    let (code, _, err) = play_blue(&["--log", log.to_str().unwrap()], &typed);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("nothing to take back"), "{err}");
    assert!(
        err.contains("taking back blue's `move Blue 2nd Foot`"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), whole);
}

#[test]
fn resume_refuses_another_scenario_or_seed() {
    let dir = scratch("refuse");
    let save = dir.path().join("game.ron");
    let save_arg = save.to_str().unwrap();
    let (code, _, err) = play_typing(
        &[SKIRMISH, "--agent", "blue=human", "-q", "--save", save_arg],
        "1\n",
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = play_typing(
        &["tests/fixtures/scenarios/flaky.ron", "--resume", save_arg],
        "",
    );
    // Another game than the one saved: bad usage.
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "the saved game is of {SKIRMISH}, not tests/fixtures/scenarios/flaky.ron"
        )),
        "{err}"
    );
    let (code, _, err) = play_typing(&["--resume", save_arg, "--seed", "2"], "");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("the saved game's seed is 1"), "{err}");
}

/// Ctrl-C at the prompt saves the game with every answer given so far, and exits 130.
#[cfg(unix)]
#[test]
fn ctrl_c_at_the_prompt_saves_the_game() {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let dir = scratch("ctrl-c");
    let save = dir.path().join("game.ron");
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("muster"))
        .args([
            "play",
            SKIRMISH,
            "--seed",
            "5",
            "--agent",
            "blue=human",
            "-q",
        ])
        .args(["--save", save.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = stderr.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.push_str(&String::from_utf8_lossy(&buf[..n]));
            let _ = tx.send(all.matches("choose 1-").count());
        }
        all
    });
    let wait_for_prompt = |k: usize| loop {
        let seen = rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("the prompt");
        if seen >= k {
            break;
        }
    };
    wait_for_prompt(1);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"1\n1\n").unwrap();
    stdin.flush().unwrap();
    wait_for_prompt(3);
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    let err = reader.join().unwrap();
    drop(stdin);
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted: the game is saved in"), "{err}");
    let text = std::fs::read_to_string(&save).unwrap();
    assert_eq!(text.matches("agent: \"human\"").count(), 2, "{text}");
    // The save resumes at the question Ctrl-C interrupted.
    let (code, _, err) = play_typing(
        &["--resume", save.to_str().unwrap(), "-q"],
        &first_options(),
    );
    assert_eq!(code, Some(0), "{err}");
}

/// `--profile` rows as (section, total operations, own operations), in thousands.
fn profile_rows(stderr: &str) -> Vec<(String, f64, f64)> {
    stderr
        .lines()
        .filter(|l| l.starts_with("  ") && !l.trim_start().starts_with("section"))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

/// `--profile` rewrites every bundled ruleset's scripts (`profile.rs`) and the game still plays to
/// its end: a method-style helper once made the function before it a method, and Last Victory's
/// bot stopped with "'this' not bound".
#[test]
fn every_bundled_ruleset_plays_under_the_profiler() {
    for scenario in [
        "scenarios/last_victory/chickamauga.ron",
        "scenarios/sedgwick_attacks/rebel_ambush.ron",
    ] {
        let out = muster()
            .args(["play", scenario, "-q", "--profile"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{scenario}: {stderr}");
        assert!(
            stderr.contains("k script operations"),
            "{scenario}: {stderr}"
        );
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("winner"),
            "{scenario}"
        );
    }
}

#[test]
fn profile_counts_script_operations_per_section_the_same_every_run() {
    let run = || {
        let out = muster()
            .args([
                "play",
                "tests/fixtures/scenarios/timed.ron",
                "-q",
                "--profile",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let (first, second) = (run(), run());
    assert!(first.contains("k script operations"), "{first}");
    let rows = profile_rows(&first);
    assert_eq!(rows, profile_rows(&second), "{first}\n{second}");
    let turn = rows.iter().find(|r| r.0 == "turn").expect("turn section");
    let inner = rows.iter().find(|r| r.0 == "inner").expect("inner section");
    // The turn's loop of 100 runs outside `inner`, whose loop of 10 is inside it.
    assert!(inner.1 > 0.0 && turn.1 > 5.0 * inner.1, "{first}");
    assert!((turn.2 - (turn.1 - inner.1)).abs() < 0.15, "{first}");
    // Every function that takes the game is a section too, without a timer in the script.
    let game_turn = rows
        .iter()
        .find(|r| r.0 == "game_turn")
        .expect("game_turn section");
    assert!(game_turn.1 >= turn.1, "{first}");
}

/// Runs `play --profile-lines` on the timed fixture.
fn play_with_line_profile() -> std::process::Output {
    muster()
        .args([
            "play",
            "tests/fixtures/scenarios/timed.ron",
            "-q",
            "--profile-lines",
        ])
        .output()
        .unwrap()
}

/// Standard error of a `play --profile-lines` that succeeds.
#[cfg(feature = "line-profile")]
fn line_profile() -> String {
    let out = play_with_line_profile();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[cfg(feature = "line-profile")]
#[test]
fn profile_lines_counts_steps_per_line_the_same_every_run() {
    let (first, second) = (line_profile(), line_profile());
    assert_eq!(first, second);
    // `steps` and the line of main.rhai it counts, for the rows that name a line.
    let rows: Vec<(u64, usize)> = first
        .lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let steps = parts.next()?.parse().ok()?;
            let place = parts.nth(1)?;
            let line = place.strip_prefix("tests/fixtures/rulesets/timed/main.rhai:")?;
            Some((steps, line.parse().ok()?))
        })
        .collect();
    let at = |line: usize| rows.iter().find(|r| r.1 == line).map_or(0, |r| r.0);
    // The loop of 100 on line 4 runs 90 more rounds a turn than the loop of 10 on line 6, each
    // round the same steps, and the busiest line comes first.
    let (a, b) = (at(4), at(6));
    assert!(b > 0 && a > 9 * b, "{first}");
    assert_eq!((a - b) % 90, 0, "{first}");
    assert_eq!(rows[0].1, 4, "{first}");
    assert!(
        first.contains("in game_turn: for i in 0..100 { n += i; }"),
        "{first}"
    );
}

#[cfg(not(feature = "line-profile"))]
#[test]
fn profile_lines_says_how_to_get_a_build_that_can() {
    let out = play_with_line_profile();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--features line-profile"), "{err}");
}

#[test]
fn render_draws_a_scenario_and_a_save_where_it_stopped() {
    let dir = scratch("render");
    let scenario = "tests/demo/scenarios/demo/skirmish.ron";
    let start = dir.path().join("start.svg");
    let code = muster()
        .args(["render", scenario, "-o", start.to_str().unwrap()])
        .output()
        .unwrap()
        .status
        .code();
    assert_eq!(code, Some(0));
    let start = std::fs::read_to_string(&start).unwrap();
    assert!(start.contains(r#"<g class="unit" data-unit="#), "{start}");
    // A person answers three decisions and quits: the save holds them.
    let save = dir.path().join("game.ron");
    let out = muster()
        .args(["play", scenario, "--agent", "red=human", "--save"])
        .arg(&save)
        .write_stdin("2\n2\n2\nquit\n")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (saved, code) = stdout(&["render", "--save", save.to_str().unwrap()]);
    assert_eq!(code, 0);
    let hexes = |svg: &str| -> Vec<String> {
        svg.lines()
            .filter(|l| l.starts_with(r#"<g class="unit""#))
            .map(|l| l.split("transform").next().unwrap_or_default().to_string())
            .collect()
    };
    assert_ne!(
        hexes(&start),
        hexes(&saved),
        "the saved game's units have moved"
    );
    // A save of another scenario than the one named is a usage error.
    let (_, code) = stdout(&[
        "render",
        "scenarios/last_victory/chickamauga.ron",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    let (_, code) = stdout(&["render", scenario, "--hex-size", "0"]);
    assert_eq!(code, 2);
}

#[test]
fn render_draws_a_logged_game_after_any_record_and_replay_writes_its_page() {
    let dir = scratch("render-log");
    let scenario = "tests/demo/scenarios/demo/skirmish.ron";
    let log = dir.path().join("game.jsonl");
    let (_, code) = stdout(&[
        "play",
        scenario,
        "--seed",
        "1",
        "-q",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    // The demo's golden game: Red 1st Foot (r1) moves 0103 -> 0504 in record 6 (seq 5).
    let at = |n: &str| {
        stdout(&[
            "render",
            scenario,
            "--log",
            log.to_str().unwrap(),
            "--at",
            n,
        ])
    };
    let (before, code) = at("5");
    assert_eq!(code, 0);
    assert!(
        before.contains(r#"data-unit="r1" data-hex="0103""#),
        "{before}"
    );
    let (after, _) = at("6");
    assert!(
        after.contains(r#"data-unit="r1" data-hex="0504""#),
        "{after}"
    );
    // Past the last record, a log of another scenario, --at without --log: usage errors.
    assert_eq!(at("100000").1, 2);
    let (_, code) = stdout(&[
        "render",
        "scenarios/last_victory/chickamauga.ron",
        "--log",
        log.to_str().unwrap(),
        "--at",
        "1",
    ]);
    assert_eq!(code, 2);
    assert_eq!(stdout(&["render", scenario, "--at", "1"]).1, 2);
    // The page of the same game, from the log.
    let page = dir.path().join("game.html");
    let (out, code) = stdout(&[
        "replay",
        log.to_str().unwrap(),
        "-o",
        page.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("const DATA = {"));
    assert!(
        !html.contains("src=\"http") && !html.contains("href=\"http"),
        "nothing is fetched"
    );
    // A log without its header line cannot be played again: an error at the file.
    let bare = dir.path().join("bare.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::write(&bare, text.split_once('\n').unwrap().1).unwrap();
    let out = muster()
        .args([
            "replay",
            bare.to_str().unwrap(),
            "-o",
            page.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no header line"));
}

#[test]
fn play_shows_a_person_the_board_and_keeps_it_as_svg() {
    let dir = scratch("board");
    let board = dir.path().join("board.svg");
    let (code, _, err) = play_blue(
        &[
            "--board",
            board.to_str().unwrap(),
            "--save",
            dir.path().join("game.ron").to_str().unwrap(),
        ],
        "2\nquit\n",
    );
    assert_eq!(code, Some(0), "{err}");
    // The picture before the first decision: the unit's hex marked, the options numbered, the
    // legend, then the options.
    let first = err.split("choose 1-").next().unwrap();
    assert!(first.contains("@(1)"), "{first}");
    assert!(
        first.contains("(2)") && first.contains("(n) option n"),
        "{first}"
    );
    assert!(
        first.contains("units: side and strength in all: R red, B blue"),
        "{first}"
    );
    assert!(first.contains("blue: move Blue 1st Foot"), "{first}");
    // The SVG holds the board at the last decision asked, its hexes marked alike.
    let svg = std::fs::read_to_string(&board).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains(r#"<g class="highlights""#),
        "{svg}"
    );
    assert!(
        svg.contains(">@1</text>") && svg.contains(">2</text>"),
        "{svg}"
    );
    // A board that cannot be written is said, and the game goes on.
    let (code, _, err) = play_blue(
        &[
            "--board",
            dir.path().join("no/such/dir.svg").to_str().unwrap(),
            "--save",
            dir.path().join("game.ron").to_str().unwrap(),
        ],
        "quit\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("cannot write the board"), "{err}");
}
