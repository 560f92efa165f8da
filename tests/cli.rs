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
    let dir = std::env::temp_dir().join(format!("muster-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
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
    let cases: [(&[&str], &str); 7] = [
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
    let dir = std::env::temp_dir().join(format!("muster-cli-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("broken.ron");
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
    assert!(
        text.contains("turn: 2"),
        "saved at the start of the failing turn"
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
    let dir = std::env::temp_dir().join(format!("muster-sed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (scenario, turns) in [
        ("rebel_ambush", 9),
        ("sedgwicks_switch", 12),
        ("keep_going_boys", 16),
    ] {
        let path = format!("scenarios/sedgwick_attacks/{scenario}.ron");
        let mut logs = Vec::new();
        for run in 0..2 {
            let log = dir.join(format!("{scenario}-{run}.jsonl"));
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
    let dir = std::env::temp_dir().join(format!("muster-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
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
    // The same records, but for who answered.
    let records = |p: &std::path::Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
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
fn a_failed_game_is_kept_at_the_last_turn_boundary() {
    // Seed found with `muster simulate tests/fixtures/scenarios/flaky.ron --games 12`: the
    // flaky rule fires in turn 2.
    let seed = "17388166129998380965";
    let save = std::env::temp_dir().join(format!("muster-flaky-{}.ron", std::process::id()));
    let _ = std::fs::remove_file(&save);
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
    // Everything of turn 1 and nothing of turn 2.
    assert!(
        text.contains(r#"\"turn\":1"#) && !text.contains(r#"\"turn\":2"#),
        "{text}"
    );
    // Resuming replays turn 2 with the same dice, so the failure comes back.
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
    let _ = std::fs::remove_file(&save);
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
