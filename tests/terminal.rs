//! What a person at the terminal sees at a decision: the picture of the board around it, and
//! each option with what it means. Snapshots of the prompts of the demo and of The Last
//! Victory, through a test terminal that answers as a person would and keeps what it was shown.

use muster_interpreter::game::{Game, GameOptions};
use muster_interpreter::view::text::prompt_text;
use muster_interpreter::world::agent::{AgentKind, Prompt, Reply, Terminal};
use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

const SKIRMISH: &str = "tests/demo/scenarios/demo/skirmish.ron";
const CHICKAMAUGA: &str = "scenarios/last_victory/chickamauga.ron";

/// A person who picks the last option of every decision (the first, with `.1`), and keeps each
/// prompt's kind and text.
struct Watching(Rc<RefCell<Vec<(String, String)>>>, bool);

impl Terminal for Watching {
    fn ask(&mut self, prompt: &Prompt) -> Reply {
        self.0
            .borrow_mut()
            .push((prompt.kind.to_string(), prompt_text(prompt)));
        Reply::Pick(if self.1 { 0 } else { prompt.choices.len() - 1 })
    }

    fn tell(&mut self, _text: &str) {}
}

/// The prompts `side`'s person was shown in the first `turns` turns of `scenario` (seed 2).
fn prompts(scenario: &str, side: &str, turns: usize) -> Vec<(String, String)> {
    prompts_picking(scenario, side, turns, false)
}

/// [`prompts`], the person picking the first option of each decision when `first`.
fn prompts_picking(scenario: &str, side: &str, turns: usize, first: bool) -> Vec<(String, String)> {
    let o = GameOptions {
        seed: 2,
        agents: [(side.to_string(), AgentKind::Human)].into_iter().collect(),
        ..GameOptions::default()
    };
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut g = Game::from_scenario(Path::new(scenario), &o).unwrap();
    g.set_terminal(Box::new(Watching(seen.clone(), first)));
    g.set_up().unwrap();
    for _ in 0..turns {
        g.play_turn().unwrap();
    }
    let out = seen.borrow().clone();
    out
}

/// The first prompt whose kind starts with `kind`.
fn first<'a>(all: &'a [(String, String)], kind: &str) -> &'a str {
    &all.iter()
        .find(|(k, _)| k.starts_with(kind))
        .unwrap_or_else(|| panic!("no `{kind}` decision among {all:?}"))
        .1
}

#[test]
fn a_demo_move_shows_the_unit_and_its_destinations() {
    let all = prompts(SKIRMISH, "blue", 1);
    let text = first(&all, "move");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    insta::assert_snapshot!("demo_move", text);
}

#[test]
fn last_victory_moves_and_attacks_say_what_they_mean() {
    let all = prompts(CHICKAMAUGA, "union", 2);
    let moving = first(&all, "move");
    // A destination's detail: the way there, and the enemy it ends next to.
    assert!(moving.contains(" hexes") && moving.contains("next to confederate in"));
    insta::assert_snapshot!("last_victory_move", moving);
    // An attack names who attacks with what, against which defence, at what odds column.
    let combat = first(&all, "combat");
    assert!(combat.contains("against") && combat.contains("odds column"));
    insta::assert_snapshot!("last_victory_combat", combat);
    let odds = first(&all, "odds");
    insta::assert_snapshot!("last_victory_odds", odds);
    for (_, text) in &all {
        assert!(text.lines().all(|l| l.chars().count() <= 100), "{text}");
    }
}

#[test]
fn a_chit_choice_shows_the_event_text() {
    const KEEP_GOING: &str = "scenarios/sedgwick_attacks/keep_going_boys.ron";
    let all = prompts(KEEP_GOING, "union", 1);
    let chit = first(&all, "key chit");
    insta::assert_snapshot!("sedgwick_key_chit", chit);
}

#[test]
fn a_blind_swords_fire_names_its_firers_and_column() {
    // Attack orders (the first) bring the fire decisions.
    let all = prompts_picking(
        "scenarios/sedgwick_attacks/rebel_ambush.ron",
        "union",
        2,
        true,
    );
    let fire = first(&all, "fire ");
    // Each fire: who fires with what, the SP after the modifiers and the column they start on.
    assert!(
        fire.contains(" - by ") && fire.contains(" SP, column ") && fire.contains("before shifts"),
        "{fire}"
    );
    insta::assert_snapshot!("sedgwick_fire", fire);
}
