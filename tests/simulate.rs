//! `muster simulate`: the report does not depend on jobs or shards, and a
//! failing game is reported with a seed that `muster play` reproduces.

use assert_cmd::Command;
use serde_json::Value;

fn muster(args: &[&str]) -> (String, String, i32) {
    let out = Command::cargo_bin("muster")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
        out.status.code().unwrap_or(-1),
    )
}

/// The report without its timing, which is the only part that may differ.
fn report(args: &[&str]) -> Value {
    report_exiting(args, 0)
}

/// The report of a run that exits with `expected` (1 when any game failed).
fn report_exiting(args: &[&str], expected: i32) -> Value {
    let (out, err, code) = muster(args);
    assert_eq!(code, expected, "{out}{err}");
    let mut v: Value = serde_json::from_str(out.trim()).unwrap();
    v.as_object_mut().unwrap().remove("timing");
    v
}

const SKIRMISH: &str = "tests/demo/scenarios/demo/skirmish.ron";

#[test]
fn the_report_is_the_same_for_one_and_two_jobs() {
    let one = report(&[
        "simulate", SKIRMISH, "--games", "40", "--seed", "5", "--jobs", "1", "--json",
    ]);
    let two = report(&[
        "simulate", SKIRMISH, "--games", "40", "--seed", "5", "--jobs", "2", "--json",
    ]);
    assert_eq!(one, two);
    assert_eq!(one["games"], 40);
    let wins = one["sides"]["red"]["wins"]["count"].as_u64().unwrap()
        + one["sides"]["blue"]["wins"]["count"].as_u64().unwrap()
        + one["draws"]["count"].as_u64().unwrap();
    assert_eq!(wins, 40);
    let other_seed = report(&[
        "simulate", SKIRMISH, "--games", "40", "--seed", "6", "--jobs", "2", "--json",
    ]);
    assert_ne!(one, other_seed);
}

#[test]
fn merged_shards_equal_the_whole_run() {
    let dir = tempfile::Builder::new()
        .prefix("muster-sim-")
        .tempdir()
        .unwrap();
    let run = [
        "simulate",
        SKIRMISH,
        "--games",
        "30",
        "--seed",
        "9",
        "--agent",
        "red=random",
        "--json",
    ];
    let whole = report(&run);
    let mut files = Vec::new();
    for k in 1..=3 {
        let f = dir.path().join(format!("shard{k}.json"));
        let shard = format!("{k}/3");
        let mut args = run.to_vec();
        args.extend(["--shard", &shard, "--out", f.to_str().unwrap()]);
        let (_, err, code) = muster(&args);
        assert_eq!(code, 0, "{err}");
        files.push(f.to_str().unwrap().to_string());
    }
    let mut args = vec!["simulate", "--json", "--merge"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(report(&args), whole);
    // A missing shard is an error, not a smaller report.
    let (_, err, code) = muster(&["simulate", "--merge", &files[0], &files[1]]);
    assert_eq!(code, 1);
    assert!(err.contains("missing"), "{err}");
}

#[test]
fn failing_games_are_reported_and_reproduced() {
    let scenario = "tests/fixtures/scenarios/flaky.ron";
    // Any failed game fails the run.
    let r = report_exiting(
        &[
            "simulate", scenario, "--games", "30", "--seed", "2", "--json",
        ],
        1,
    );
    let failures = r["failures"].as_array().unwrap();
    assert!(!failures.is_empty() && failures.len() < 30, "{r}");
    assert_eq!(
        r["finished"].as_u64().unwrap() as usize + failures.len(),
        30
    );
    let seed = failures[0]["seed"].as_u64().unwrap().to_string();
    assert!(failures[0]["error"]
        .as_str()
        .unwrap()
        .contains("the flaky rule fired"));
    // The failed game is saved, as always: in a folder removed at the end of the test.
    let dir = tempfile::Builder::new()
        .prefix("muster-sim-flaky-")
        .tempdir()
        .unwrap();
    let (_, err, code) = muster(&[
        "play",
        scenario,
        "--seed",
        &seed,
        "-q",
        "--save",
        dir.path().join("flaky-save.ron").to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("the flaky rule fired"), "{err}");
    // And a finished game's seed plays to the end.
    let all: Vec<u64> = (0..30)
        .map(|i| muster_interpreter::tools::simulate::game_seed(2, i))
        .collect();
    let failed: Vec<u64> = failures
        .iter()
        .map(|f| f["seed"].as_u64().unwrap())
        .collect();
    let ok = all
        .iter()
        .find(|s| !failed.contains(s))
        .unwrap()
        .to_string();
    let (_, _, code) = muster(&["play", scenario, "--seed", &ok, "-q"]);
    assert_eq!(code, 0);
}

#[test]
fn bad_usage() {
    assert_eq!(muster(&["simulate", SKIRMISH]).2, 2, "--games is required");
    assert_eq!(
        muster(&["simulate", SKIRMISH, "--games", "2", "--shard", "4/3"]).2,
        2
    );
    let (_, err, code) = muster(&[
        "simulate",
        SKIRMISH,
        "--games",
        "2",
        "--option",
        "nonsuch=1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the ruleset has no option `nonsuch`"), "{err}");
    // An agent for a side the ruleset lacks is one error up front, not a failure per game.
    let (out, err, code) = muster(&[
        "simulate",
        SKIRMISH,
        "--games",
        "3",
        "--agent",
        "union=random",
    ]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("--agent names side `union`"), "{err}");
    assert!(!out.contains("FAILED"), "{out}");
}

#[test]
fn a_duel_with_a_target_stops_when_the_test_settles_it() {
    let duel = |jobs: &str| {
        let (out, err, code) = muster(&[
            "duel",
            SKIRMISH,
            "--agents",
            "bot,random",
            "--games",
            "100",
            "--target",
            "0.6",
            "--seed",
            "4",
            "--jobs",
            jobs,
        ]);
        assert_eq!(code, 0, "{out}{err}");
        out
    };
    let out = duel("1");
    // The games kept are the first ones by index, whatever the number of workers.
    assert_eq!(out, duel("3"));
    assert!(out.contains("until settled, at most 100"), "{out}");
    for side in ["red", "blue"] {
        let line = out
            .lines()
            .find(|l| l.contains(&format!("bot as {side}")))
            .unwrap_or_else(|| panic!("no line for {side}: {out}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let (wins, games): (usize, usize) = (words[4].parse().unwrap(), words[6].parse().unwrap());
        // The bot beats a random player nearly always: the test settles it long before 100.
        assert!(games < 100, "{line}");
        let test = muster_interpreter::tools::sprt::Sprt::new(0.6, 0.05).unwrap();
        assert_eq!(
            test.verdict(wins, games),
            muster_interpreter::tools::sprt::Verdict::AtLeast,
            "{line}"
        );
    }
    assert_eq!(
        out.matches("bot wins at least 60% of these games").count(),
        2,
        "{out}"
    );
    let (_, err, code) = muster(&[
        "duel",
        SKIRMISH,
        "--agents",
        "bot,random",
        "--games",
        "5",
        "--target",
        "0.97",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("strictly between 0 and 1"), "{err}");
}

#[test]
fn a_duel_plays_only_the_sides_named() {
    let duel = |extra: &[&str]| {
        let mut args = vec!["duel", SKIRMISH, "--agents", "bot,random", "--games", "4"];
        args.extend(extra);
        muster(&args)
    };
    let (every, err, code) = duel(&[]);
    assert_eq!(code, 0, "{err}");
    let (out, err, code) = duel(&["--side", "blue"]);
    assert_eq!(code, 0, "{err}");
    // The blue seat alone, played as it is in the whole duel; no total over the sides.
    let blue = |text: &str| {
        text.lines()
            .find(|l| l.contains("bot as blue"))
            .map(str::to_string)
    };
    assert_eq!(blue(&out), blue(&every), "{out}");
    assert!(blue(&out).is_some(), "{out}");
    assert!(!out.contains("bot as red"), "{out}");
    assert!(!out.contains("on every side"), "{out}");
    let (_, err, code) = duel(&["--side", "green"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--side green: the scenario's sides are red, blue"),
        "{err}"
    );
}

#[test]
fn a_duel_kept_in_a_file_goes_on_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("duel.json");
    let file = file.to_str().unwrap();
    // A duel of the skirmish, bot against random, with the seed, the games and any more
    // arguments given.
    let duel = |seed: &str, games: &str, extra: &[&str]| {
        let mut args = vec![
            "duel",
            SKIRMISH,
            "--agents",
            "bot,random",
            "--games",
            games,
            "--seed",
            seed,
        ];
        args.extend(extra);
        let (out, err, code) = muster(&args);
        assert_eq!(code, 0, "{out}{err}");
        (out, err)
    };
    let (whole, _) = duel("3", "10", &[]);
    // Six games, then four more taken on from the file: the same as ten in one run, whatever
    // the workers each run had.
    duel("3", "6", &["--out", file, "--jobs", "2"]);
    let (resumed, err) = duel("3", "10", &["--out", file, "--jobs", "3"]);
    assert_eq!(resumed, whole);
    assert!(err.contains("bot as red: 6 games taken up from"), "{err}");
    assert!(err.contains("bot as blue: 6 games taken up from"), "{err}");
    // The games are read from the file, not played again: a game the file says red lost stays
    // lost.
    let mut kept: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let seat = &mut kept["seats"][0];
    assert_eq!(seat["side"], "red");
    assert_eq!(seat["records"].as_array().unwrap().len(), 10);
    for r in seat["records"].as_array_mut().unwrap() {
        r["outcome"]["Ok"]["winner"] = Value::from("blue");
    }
    std::fs::write(file, kept.to_string()).unwrap();
    let (edited, _) = duel("3", "10", &["--out", file]);
    assert!(
        edited.contains("bot as red            wins    0 of   10"),
        "{edited}"
    );
    // A test asked of games taken up settles where a run from the start would: after each of
    // them in turn, not after all of them.
    let settled = dir.path().join("settled.json");
    let settled = settled.to_str().unwrap();
    duel("8", "40", &["--out", settled]);
    assert_eq!(
        duel("8", "40", &["--target", "0.6", "--out", settled]).0,
        duel("8", "40", &["--target", "0.6"]).0
    );
    // Games played under other rules are not taken up, and the file is left as it was.
    kept["rules"] = Value::from("0000");
    std::fs::write(file, kept.to_string()).unwrap();
    let (_, err, code) = muster(&[
        "duel",
        SKIRMISH,
        "--agents",
        "bot,random",
        "--games",
        "10",
        "--out",
        file,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("duel.json: its games were played under other rules"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(file).unwrap(), kept.to_string());
}

#[test]
fn a_replayed_log_in_a_batch_is_warned_about() {
    let dir = tempfile::Builder::new()
        .prefix("muster-replay-")
        .tempdir()
        .unwrap();
    let log = dir.path().join("replay.jsonl");
    let log_arg = log.to_str().unwrap();
    let (_, err, code) = muster(&["play", SKIRMISH, "--seed", "3", "-q", "--log", log_arg]);
    assert_eq!(code, 0, "{err}");
    let agent = format!("red=replay:{log_arg}");
    let (_, err, code) = muster(&[
        "simulate", SKIRMISH, "--games", "3", "--agent", &agent, "--json",
    ]);
    // The games whose dice differ from the recording fail, and so does the run.
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("warning: red replays one recorded game's answers in each of the 3 games"),
        "{err}"
    );
    // One game: the recording's own use, no warning.
    let (_, err, _) = muster(&[
        "simulate", SKIRMISH, "--games", "1", "--agent", &agent, "--json",
    ]);
    assert!(!err.contains("warning"), "{err}");
}
