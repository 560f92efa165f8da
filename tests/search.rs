//! The search agent (`--agent SIDE=search:N`) on the demonstration ruleset: it never reads the
//! real game's future dice, the same seed and budget give the same game, a saved game with its
//! answers resumes without searching again, and `muster duel` reports both sides.

use assert_cmd::Command;
use muster_interpreter::game::lookahead::{audit_table, score, WIN};
use muster_interpreter::game::{Game, GameOptions};
use muster_interpreter::world::agent::AgentKind;
use muster_interpreter::world::agent::Budget;
use muster_interpreter::world::log::{Entry, Record};
use std::path::Path;

const SKIRMISH: &str = "tests/demo/scenarios/demo/skirmish.ron";

/// A game of the skirmish with red played by the search agent with `rollouts` rollouts.
fn searching(seed: u64, rollouts: usize) -> Game {
    auditing(seed, rollouts, 0)
}

/// [`searching`], each search audited with `audit` fresh rollouts an option (0: none).
fn auditing(seed: u64, rollouts: usize, audit: usize) -> Game {
    let opts = GameOptions {
        audit,
        seed,
        agents: [(
            "red".to_string(),
            AgentKind::Search(Budget { rollouts, turns: 1 }),
        )]
        .into_iter()
        .collect(),
        ..GameOptions::default()
    };
    Game::from_scenario(Path::new(SKIRMISH), &opts).unwrap()
}

/// The texts of the search events of a log, in order.
fn searches(records: &[Record]) -> Vec<String> {
    records
        .iter()
        .filter_map(|r| match &r.entry {
            Entry::Event { kind, text, .. } if kind == "search" => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// The values of the rolls among `records`.
fn rolls(records: &[Record]) -> Vec<i64> {
    records
        .iter()
        .filter_map(|r| match &r.entry {
            Entry::Roll { value, .. } => Some(*value),
            _ => None,
        })
        .collect()
}

/// Dice for a whole game, to force: varied, and the same every run.
fn varied_dice() -> impl Iterator<Item = i64> {
    (0..2000).map(|i: i64| (i * 7 + i / 5) % 6 + 1)
}

#[test]
fn the_agent_never_reads_the_real_games_future_dice() {
    // Game A rolls forced dice, so that its draws and shuffles, which come from the game's own
    // stream, are those of game B below however many dice each rolls.
    let mut a = searching(7, 4);
    a.force_dice(varied_dice());
    a.run(None).unwrap();
    let log = a.log();
    let records = log.records();
    // The first search whose rollouts the dice sway: one that tried an attack.
    let at = records
        .iter()
        .position(
            |r| matches!(&r.entry, Entry::Event { kind, text, .. } if kind == "search" && text.contains("`attack")),
        )
        .expect("a search that tried an attack");
    let past = rolls(&records[..at]);
    let future = rolls(&records[at..]);
    assert!(
        future.iter().any(|&v| v != 1),
        "game A's rolls after the search are not all 1s"
    );
    let nth = searches(&records[..at]).len();

    // Game B is game A up to that search, and then every die it rolls is a 1.
    let mut b = searching(7, 4);
    b.force_dice(past.iter().copied().chain(std::iter::repeat_n(1, 2000)));
    b.run(None).unwrap();
    let b_log = b.log();
    let b_rolls = rolls(b_log.records());
    assert_eq!(b_rolls[..past.len()], past[..], "the same past");
    assert_ne!(
        b_rolls[past.len()..],
        future[..future.len().min(b_rolls.len() - past.len())],
        "another future"
    );
    assert_eq!(
        searches(&records[..=at]),
        searches(b_log.records())[..=nth],
        "the search found the same, whatever the real game rolls after it"
    );
}

#[test]
fn the_same_seed_and_budget_give_the_same_game() {
    let game = |seed, rollouts| {
        let mut g = searching(seed, rollouts);
        let result = g.run(None).unwrap();
        (g.log().to_jsonl(), result)
    };
    let (first, result) = game(3, 6);
    assert!(first.contains("\"agent\":\"search\""));
    assert_eq!((first.clone(), result.clone()), game(3, 6));
    assert_ne!(first, game(3, 2).0, "the budget changes what is searched");
}

#[test]
fn an_audit_measures_the_searches_and_leaves_the_game_as_it_was() {
    let decisions = |g: &Game| -> Vec<(String, usize)> {
        g.log()
            .records()
            .iter()
            .filter_map(|r| match &r.entry {
                Entry::Decision { kind, choice, .. } => Some((kind.clone(), *choice)),
                _ => None,
            })
            .collect()
    };
    let mut plain = searching(3, 6);
    plain.run(None).unwrap();
    let mut audited = auditing(3, 6, 4);
    audited.run(None).unwrap();
    assert_eq!(decisions(&plain), decisions(&audited), "the same answers");

    let log = audited.log();
    let events = searches(log.records());
    assert!(events
        .iter()
        .all(|e| e.contains("; audited on 4 fresh rollouts (gain over the bot's choice")));
    let audits = audited.audits();
    assert_eq!(audits.len(), events.len(), "every search audited");
    assert!(plain.audits().is_empty(), "no audit asked, none made");
    // Each row measures the option answered: where the search kept the bot's choice, that is
    // the bot's choice against itself (a row read at the wrong option would show a gain).
    assert!(audits
        .iter()
        .filter(|a| !a.parted)
        .all(|a| a.chosen.mean == 0.0));
    // The audits measured something: the options tried do not all score alike.
    assert!(audits
        .iter()
        .any(|a| a.best_of_half.mean != 0.0 || a.chosen.mean != 0.0));
    let table = audit_table(&audits);
    assert!(
        table.starts_with(&format!("audit of {} searches", audits.len())),
        "{table}"
    );
    let all = table.lines().last().unwrap();
    let parted = audits.iter().filter(|a| a.parted).count();
    assert!(
        all.split_whitespace().take(3).eq([
            "all".to_string(),
            audits.len().to_string(),
            parted.to_string()
        ]
        .iter()
        .map(String::as_str)),
        "{table}"
    );
}

#[test]
fn a_saved_game_resumes_with_the_searched_answers() {
    let dir = tempfile::Builder::new()
        .prefix("muster-search-")
        .tempdir()
        .unwrap();
    let save = dir.path().join("searched.ron");
    let mut g = searching(5, 4);
    let result = g.run(Some(&save)).unwrap();
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.contains("search:4") && text.contains("agent: \"search\""));
    // Resumed, the save's searched answers are taken as they are: nothing is searched again.
    let mut again = Game::resume(&save, &GameOptions::default()).unwrap();
    assert_eq!(again.run(None).unwrap(), result);
    assert!(searches(again.log().records()).is_empty());
}

#[test]
fn a_duel_plays_each_agent_on_each_side() {
    let out = Command::cargo_bin("muster")
        .unwrap()
        .args([
            "duel",
            SKIRMISH,
            "--agents",
            "search:2,random",
            "--games",
            "3",
            "--seed",
            "4",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("search:2 against random"), "{text}");
    for side in ["red", "blue"] {
        assert!(text.contains(&format!("search:2 as {side}")), "{text}");
    }
    assert!(text.contains("of    6"), "{text}");
}

#[test]
fn the_search_agent_tries_the_bots_choice_first() {
    // The Last Victory's movement gives a bot its wishes (a move's `rank`) only when the rules see
    // a bot: the search agent must be seen as one, or the option it starts from is not the bot's.
    const LAST_VICTORY: &str = "scenarios/last_victory/chickamauga.ron";
    let game_of = |agent: AgentKind| {
        let opts = GameOptions {
            seed: 3,
            agents: [("union".to_string(), agent)].into_iter().collect(),
            ..GameOptions::default()
        };
        let mut game = Game::from_scenario(Path::new(LAST_VICTORY), &opts).unwrap();
        game.play_turn().unwrap();
        game.log().records().to_vec()
    };
    let search = searches(&game_of(AgentKind::Search(Budget {
        rollouts: 2,
        turns: 1,
    })));
    // "union's `KIND` searched, ...: `FIRST TRIED` SCORE, ...".
    let parts: Vec<&str> = search[0].split('`').collect();
    let (kind, first_tried) = (parts[1], parts[3]);
    let bot_choice = game_of(AgentKind::Bot)
        .iter()
        .find_map(|r| match &r.entry {
            Entry::Decision {
                side,
                kind: k,
                label,
                ..
            } if side == "union" && k == kind => Some(label.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(first_tried, bot_choice, "the first search: {}", search[0]);
}

#[test]
fn a_blind_swords_game_scores_the_strength_kept_and_a_finished_games_result() {
    // The series' `evaluate`: the victory margin, and a quarter of a point for each SP in the
    // field, less morale hits; the core adds a finished game's win or loss on top of it.
    const REBEL_AMBUSH: &str = "scenarios/sedgwick_attacks/rebel_ambush.ron";
    let mut game = Game::from_scenario(Path::new(REBEL_AMBUSH), &GameOptions::default()).unwrap();
    game.set_up().unwrap();
    let union = score(&game, "union").unwrap();
    assert_eq!(score(&game, "confederate").unwrap(), -union);
    // A Shaken 8th AL (a morale hit: one SP less, 12.5) is a quarter of a point to the Union.
    let _ = game.eval(r#"game.add_marker("c_8al", "shaken")"#).unwrap();
    assert_eq!(score(&game, "union").unwrap(), union + 0.25);

    game.run(None).unwrap();
    assert!(game.over());
    let winner = game.victory().unwrap().winner;
    let evaluated = game.call("evaluate", vec!["union".into()]).unwrap();
    let result = score(&game, "union").unwrap() - evaluated.as_float().unwrap();
    let expected = match winner.as_deref() {
        Some("union") => WIN,
        Some(_) => -WIN,
        None => 0.0,
    };
    assert_eq!(result, expected, "winner {winner:?}");
}
