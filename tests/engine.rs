//! The engine end to end on the demonstration ruleset: determinism, save and
//! resume, replay of recorded answers, a snapshot of a whole game's log, and
//! errors that name their place.

use muster_interpreter::game::{Game, GameOptions};
use muster_interpreter::world::agent::{AgentKind, Prompt, Reply, Terminal};
use std::path::{Path, PathBuf};

// The command's allocator, which counts the bytes the memory limit reads.
#[global_allocator]
static ALLOCATOR: muster_interpreter::alloc::Mimalloc = muster_interpreter::alloc::Mimalloc;

const SKIRMISH: &str = "tests/demo/scenarios/demo/skirmish.ron";

fn opts(seed: u64) -> GameOptions {
    GameOptions {
        seed,
        ..GameOptions::default()
    }
}

fn play(seed: u64, o: GameOptions) -> (Game, muster_interpreter::game::GameResult) {
    let mut g = Game::from_scenario(Path::new(SKIRMISH), &GameOptions { seed, ..o }).unwrap();
    let r = g.run(None).unwrap();
    (g, r)
}

/// How many decisions of `side` an agent made, from the JSON-lines log.
fn decisions_by(log: &str, side: &str, agent: &str) -> usize {
    log.lines()
        .filter(|l| {
            l.contains(&format!("\"side\":\"{side}\""))
                && l.contains(&format!("\"agent\":\"{agent}\""))
        })
        .count()
}

/// A path named `name` in a fresh temp folder, and the folder, which is removed when dropped:
/// keep it as long as the path is used.
fn temp(name: &str) -> (PathBuf, tempfile::TempDir) {
    let dir = tempfile::Builder::new()
        .prefix("muster-engine-")
        .tempdir()
        .unwrap();
    (dir.path().join(name), dir)
}

#[test]
fn same_seed_same_game() {
    let (a, ra) = play(7, opts(7));
    let (b, rb) = play(7, opts(7));
    assert_eq!(a.log().to_jsonl(), b.log().to_jsonl());
    assert_eq!(ra, rb);
    assert_eq!(ra.turns, 6);
    let (c, _) = play(8, opts(8));
    assert_ne!(
        a.log().to_jsonl(),
        c.log().to_jsonl(),
        "another seed plays another game"
    );
}

#[test]
fn whole_game_log_snapshot() {
    let (g, r) = play(1, opts(1));
    insta::assert_snapshot!("skirmish_seed_1", g.log().narration());
    insta::assert_json_snapshot!("skirmish_seed_1_result", r);
}

#[test]
fn a_saved_game_resumes_identically() {
    let (whole, whole_result) = play(3, opts(3));
    let (save, _dir) = temp("resume.ron");
    let mut g = Game::from_scenario(Path::new(SKIRMISH), &opts(3)).unwrap();
    g.set_up().unwrap();
    for _ in 0..3 {
        g.play_turn().unwrap();
    }
    g.save(&save).unwrap();
    drop(g);
    let mut resumed = Game::resume(&save, &opts(3)).unwrap();
    let r = resumed.run(None).unwrap();
    assert_eq!(r, whole_result);
    assert_eq!(resumed.log().to_jsonl(), whole.log().to_jsonl());
    assert_eq!(resumed.state(), whole.state());
}

#[test]
fn recorded_answers_replay_a_random_game() {
    let random = GameOptions {
        agents: [
            ("red".to_string(), AgentKind::Random),
            ("blue".to_string(), AgentKind::Random),
        ]
        .into_iter()
        .collect(),
        ..opts(11)
    };
    let (original, result) = play(11, random);
    let (log, _dir) = temp("random.jsonl");
    std::fs::write(&log, original.log().to_jsonl()).unwrap();
    let replay = GameOptions {
        agents: ["red", "blue"]
            .iter()
            .map(|s| {
                (
                    s.to_string(),
                    AgentKind::parse(&format!("replay:{}", log.display()), s).unwrap(),
                )
            })
            .collect(),
        ..opts(11)
    };
    let (again, r2) = play(11, replay);
    assert_eq!(r2, result);
    // Same rolls and same choices; only the agent's name differs.
    let strip = |g: &Game| {
        g.log()
            .to_jsonl()
            .replace("\"agent\":\"random\"", "")
            .replace("\"agent\":\"replay\"", "")
    };
    assert_eq!(strip(&again), strip(&original));
}

#[test]
fn an_illegal_replayed_answer_is_an_error() {
    let (log, _dir) = temp("illegal.jsonl");
    std::fs::write(&log, "{\"seq\":0,\"turn\":1,\"type\":\"decision\",\"side\":\"red\",\"kind\":\"move\",\"choice\":999,\"label\":\"x\",\"agent\":\"human\"}\n").unwrap();
    let o = GameOptions {
        agents: [(
            "red".to_string(),
            AgentKind::parse(&format!("replay:{}", log.display()), "red").unwrap(),
        )]
        .into_iter()
        .collect(),
        ..opts(1)
    };
    let mut g = Game::from_scenario(Path::new(SKIRMISH), &o).unwrap();
    let err = g.run(None).unwrap_err().to_string();
    assert!(
        err.contains("replayed answer 999") && err.contains("is illegal"),
        "{err}"
    );
}

/// A person who always picks the last option.
struct LastOption(usize);
impl Terminal for LastOption {
    fn ask(&mut self, prompt: &Prompt) -> Reply {
        self.0 += 1;
        Reply::Pick(prompt.choices.len() - 1)
    }
}

#[test]
fn a_human_side_is_asked_at_the_terminal() {
    let o = GameOptions {
        agents: [("blue".to_string(), AgentKind::Human)]
            .into_iter()
            .collect(),
        ..opts(5)
    };
    let mut g = Game::from_scenario(Path::new(SKIRMISH), &o).unwrap();
    g.set_terminal(Box::new(LastOption(0)));
    g.run(None).unwrap();
    let log = g.log().to_jsonl();
    let by_hand = |side: &str| decisions_by(&log, side, "human");
    assert!(by_hand("blue") > 0);
    assert_eq!(by_hand("red"), 0);
}

/// The error that stops a game of a test scenario in `tests/fixtures/scenarios`.
fn fixture_error(scenario: &str) -> String {
    let path = format!("tests/fixtures/scenarios/{scenario}.ron");
    let mut g = Game::from_scenario(Path::new(&path), &opts(1)).unwrap();
    g.run(None).unwrap_err().to_string()
}

#[test]
fn a_bots_move_wish_decides_alike_as_a_map_a_move_rank_or_a_function() {
    let o = GameOptions {
        agents: [("red".to_string(), AgentKind::Bot)].into_iter().collect(),
        ..opts(1)
    };
    let g = Game::from_scenario(Path::new("tests/fixtures/scenarios/ranked.ron"), &o).unwrap();
    let moves = |goal: &str| {
        g.call("ranked_moves", vec!["r".into(), goal.into()])
            .unwrap()
            .to_string()
    };
    // Two MP at 1/2 a hex along the road from 0404: east as far as 0804 (1004 is two further);
    // west the goal itself, 0104, three hexes away.
    assert_eq!(moves("1004"), r#"["0804", "0804", "0804"]"#);
    assert_eq!(moves("0104"), r#"["0104", "0104", "0104"]"#);
    let err = g.call("bad_wish", vec![]).unwrap_err().to_string();
    assert!(err.contains("unknown `rank` key `goal`"), "{err}");
    // `rank: ()` is no rank: the fixture's `bot_choose` is asked, and takes the first destination
    // after staying (the cheapest: 0304 and 0504 are 1/2 MP along the road, 0304 first), as it
    // does for a choice without `rank`.
    let unranked = g
        .call("unranked_moves", vec!["r".into()])
        .unwrap()
        .to_string();
    assert_eq!(unranked, r#"["0304", "0304"]"#);
}

#[test]
fn an_option_labeller_is_called_only_for_the_text_that_is_needed() {
    let agents = |kind: AgentKind| GameOptions {
        agents: [("red".to_string(), kind)].into_iter().collect(),
        ..opts(1)
    };
    let scenario = Path::new("tests/fixtures/scenarios/ranked.ron");
    // The bot (the fixture's takes option 1) needs no label; the log needs the chosen one's.
    let g = Game::from_scenario(scenario, &agents(AgentKind::Bot)).unwrap();
    let got = g.call("lazily_labelled", vec!["red".into()]).unwrap();
    assert_eq!(got.to_string(), r#"["0202", 1]"#);
    assert!(g.log().to_jsonl().contains(r#""label":"go to 0202""#));
    // A person reads every option once; the log reuses the chosen one's (the last) label.
    let mut g = Game::from_scenario(scenario, &agents(AgentKind::Human)).unwrap();
    g.set_terminal(Box::new(LastOption(0)));
    let got = g.call("lazily_labelled", vec!["red".into()]).unwrap();
    assert_eq!(got.to_string(), r#"["0303", 3]"#);
    assert!(g.log().to_jsonl().contains(r#""label":"go to 0303""#));
}

#[test]
fn script_errors_name_file_line_and_call_chain() {
    // Column 5 is where the failing call `game.set_strength("ghost", 3)` starts (core calls
    // are compiled as `set_strength(game, ...)`, see `desugar.rs`).
    assert_eq!(
        fixture_error("broken"),
        "tests/fixtures/rulesets/broken/main.rhai:9:5: no unit `ghost` (in fight <- game_turn)"
    );
}

/// A turn that never ends (`runaway`) and a list that doubles without end (`hoarder`) are each
/// stopped by their limit, with an error in the script that ran.
#[test]
fn a_runaway_script_is_stopped() {
    for (fixture, limit) in [
        ("runaway", "operations limit"),
        ("hoarder", "more memory than `limits.memory`"),
    ] {
        let err = fixture_error(fixture);
        assert!(
            err.starts_with(&format!("tests/fixtures/rulesets/{fixture}/main.rhai:")),
            "{err}"
        );
        assert!(err.contains(limit), "{err}");
    }
}

#[test]
fn a_closure_that_captures_is_explained() {
    let err = fixture_error("capture");
    assert!(
        err.starts_with("tests/fixtures/rulesets/capture/main.rhai:3:"),
        "{err}"
    );
    assert!(err.contains("Variable not found: limit"), "{err}");
    assert!(
        err.contains("cannot see the variables around them"),
        "{err}"
    );
}

const CHICKAMAUGA: &str = "scenarios/last_victory/chickamauga.ron";

#[test]
fn last_victory_plays_fifteen_turns_the_same_way_twice() {
    let run = || {
        let mut g = Game::from_scenario(Path::new(CHICKAMAUGA), &opts(1)).unwrap();
        let r = g.run(None).unwrap();
        (g.log().to_jsonl(), r)
    };
    let (log_a, a) = run();
    let (log_b, b) = run();
    assert_eq!(a.turns, 15);
    assert!(a.vp["union"] >= 0 && a.vp["confederate"] > 0, "{a:?}");
    assert_eq!(a, b);
    assert_eq!(log_a, log_b);
    // GT 9 is a night turn: nobody attacks (10.1).
    let night: Vec<&str> = log_a
        .lines()
        .filter(|l| l.contains("\"turn\":9,") && l.contains("\"kind\":\"combat\""))
        .collect();
    assert!(night.is_empty(), "{night:?}");
}

#[test]
fn a_person_can_play_the_union() {
    let o = GameOptions {
        agents: [("union".to_string(), AgentKind::Human)]
            .into_iter()
            .collect(),
        ..opts(2)
    };
    let mut g = Game::from_scenario(Path::new(CHICKAMAUGA), &o).unwrap();
    g.set_terminal(Box::new(LastOption(0)));
    g.set_up().unwrap();
    g.play_turn().unwrap();
    g.play_turn().unwrap();
    let log = g.log().to_jsonl();
    let by_hand = |side: &str| decisions_by(&log, side, "human");
    assert!(by_hand("union") > 10);
    assert_eq!(by_hand("confederate"), 0);
}

#[test]
fn scripts_import_only_from_inside_rulesets() {
    // The demo's combat script imports `common/words` from its rulesets folder.
    let (g, _) = play(1, opts(1));
    assert!(
        g.log().narration().contains("(desperate)")
            || g.log().narration().contains("(even)")
            || g.log().narration().contains("(favourable)")
    );
    let mut g =
        Game::from_scenario(Path::new("tests/fixtures/scenarios/escape.ron"), &opts(1)).unwrap();
    let err = g.run(None).unwrap_err().to_string();
    assert!(
        err.contains("may import only from inside rulesets/"),
        "{err}"
    );
}

/// A throwaway copy of the `flaky` fixture ruleset under `rulesets/NAME` in a fresh folder, its
/// manifest given `extra` entries, with the demo map and a scenario beside it: (scenario, root).
/// The root is removed when dropped.
fn scratch_ruleset(name: &str, extra: &str) -> (PathBuf, tempfile::TempDir) {
    let root = tempfile::Builder::new()
        .prefix(&format!("muster-{name}-"))
        .tempdir()
        .unwrap();
    let dir = root.path().join("rulesets").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        "tests/fixtures/rulesets/flaky/main.rhai",
        dir.join("main.rhai"),
    )
    .unwrap();
    std::fs::write(
        dir.join("ruleset.ron"),
        format!("Ruleset(\n    name: \"{name}\",\n    sides: [\"a\", \"b\"],\n    scripts: [\"main.rhai\"],\n{extra}\n)\n"),
    )
    .unwrap();
    std::fs::copy(
        "tests/demo/scenarios/demo/maps/field.ron",
        root.path().join("field.ron"),
    )
    .unwrap();
    let scenario = root.path().join("scenario.ron");
    std::fs::write(
        &scenario,
        format!("Scenario(name: \"scratch\", ruleset: \"rulesets/{name}\", map: \"field.ron\", last_turn: 1)\n"),
    )
    .unwrap();
    (scenario, root)
}

fn load_error(scenario: &Path) -> String {
    match Game::from_scenario(scenario, &opts(1)) {
        Ok(_) => panic!("{} loaded", scenario.display()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn values_that_would_crash_or_hang_the_engine_are_refused_at_load_with_their_place() {
    let cases = [
        ("zero_faces", "    dice: {\"d6\": 0},", "ruleset.ron:5:13: die `d6` has 0 faces"),
        ("huge_die", "    dice: {\"d6\": 4294967296},", "die `d6` has 4294967296 faces"),
        (
            "negative_road",
            "    movement: {\"foot\": (connections: [(feature: \"road\", cost: -1)])},",
            "movement profile `foot`: the `road` connection costs -1",
        ),
        (
            "zero_terrain_times",
            "    movement: {\"foot\": (terrain_times: 0)},",
            "movement profile `foot` has `terrain_times: 0`",
        ),
        (
            "like_unknown",
            "    movement: {\"mounted\": (like: \"foot\")},",
            "movement profile `mounted` is `like` `foot`, which is not defined before it",
        ),
        (
            "like_with_costs",
            "    movement: {\"foot\": (), \"mounted\": (like: \"foot\", hexside: {\"creek\": -1})},",
            "movement profile `mounted`: a profile `like` another takes its costs from it",
        ),
        (
            "no_operations_limit",
            "    limits: (operations: 0, call_depth: 48, memory: 1000),",
            "limit `operations` is 0; a ruleset may set it from 1 to",
        ),
        (
            "deep_calls",
            "    limits: (operations: 1000, call_depth: 100000000, memory: 1000),",
            "limit `call_depth` is 100000000",
        ),
        (
            "no_memory",
            "    limits: (operations: 1000, call_depth: 48, memory: 0),",
            "limit `memory` is 0",
        ),
    ];
    for (name, extra, want) in cases {
        let (scenario, _root) = scratch_ruleset(name, extra);
        let err = load_error(&scenario);
        assert!(err.contains(want), "{name}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn a_link_inside_rulesets_does_not_lead_an_import_out_of_it() {
    let (scenario, dir) = scratch_ruleset("linked", "");
    let root = dir.path();
    std::fs::create_dir_all(root.join("outside")).unwrap();
    std::fs::write(
        root.join("outside").join("secret.rhai"),
        "fn secret() { \"stolen\" }\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(root.join("outside"), root.join("rulesets").join("link")).unwrap();
    let main = root.join("rulesets/linked/main.rhai");
    let text = std::fs::read_to_string(&main).unwrap();
    std::fs::write(
        &main,
        text.replacen(
            "fn game_turn(game) {",
            "fn game_turn(game) {\n    import \"link/secret\" as s;\n    game.log(s::secret());",
            1,
        ),
    )
    .unwrap();
    let mut g = Game::from_scenario(&scenario, &opts(1)).unwrap();
    let err = g.run(None).unwrap_err().to_string();
    assert!(err.contains("leads outside rulesets/"), "{err}");
    assert!(!g.log().narration().contains("stolen"));
}
