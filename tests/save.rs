//! Saving anywhere, undo and resuming honestly, on the demonstration ruleset: a game saved at a
//! decision inside a turn and resumed plays on as the game never interrupted; undo at the
//! terminal gives the game without the answer taken back; a save the rules no longer reproduce
//! is refused, naming the decision where it parts.

use muster_interpreter::game::{Game, GameOptions, GameResult, Played, SaveFile};
use muster_interpreter::world::agent::{AgentKind, Prompt, Reply, Stop, Terminal, HELP};
use muster_interpreter::world::log::Entry;
use muster_interpreter::world::save::Progress;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

const SKIRMISH: &str = "tests/demo/scenarios/demo/skirmish.ron";

/// A path named `name` in a fresh temp folder, and the folder, which is removed when dropped:
/// keep it as long as the path is used.
fn temp(name: &str) -> (PathBuf, tempfile::TempDir) {
    let dir = tempfile::Builder::new()
        .prefix("muster-save-")
        .tempdir()
        .unwrap();
    (dir.path().join(name), dir)
}

/// Red played by `red`, blue by a person.
fn opts(red: AgentKind) -> GameOptions {
    GameOptions {
        seed: 5,
        agents: [
            ("red".to_string(), red),
            ("blue".to_string(), AgentKind::Human),
        ]
        .into_iter()
        .collect(),
        ..GameOptions::default()
    }
}

/// The answer the scripted person gives to their `i`-th question (from 0) among `n` options.
fn planned(i: usize, n: usize) -> usize {
    (i * 7 + 3) % n
}

/// What the scripted person does at a question, before answering as planned.
enum Step {
    /// Say this.
    Say(Reply),
    /// Choose another option than the planned one.
    Other,
}

/// Blue's person at a test terminal. A question is numbered by how many of blue's answers at
/// the terminal stand in the game's save, so a game started again after undo (or resumed) asks
/// its questions under the same numbers; `script` says what to do first at some of them (each
/// step once, in order), and every question is then answered as `planned`.
struct Scripted {
    progress: Progress,
    script: Vec<(usize, Step)>,
    told: Rc<RefCell<Vec<String>>>,
}

impl Terminal for Scripted {
    fn ask(&mut self, prompt: &Prompt) -> Reply {
        assert_eq!(prompt.side, "blue");
        let i = {
            let answers = self.progress.lock();
            let all = &answers.file().answers;
            all.iter()
                .filter(|a| a.side == "blue" && a.agent == "human")
                .count()
        };
        let n = prompt.choices.len();
        if let Some(k) = self.script.iter().position(|(at, _)| *at == i) {
            return match self.script.remove(k).1 {
                Step::Say(reply) => reply,
                Step::Other => Reply::Pick((planned(i, n) + 1) % n),
            };
        }
        Reply::Pick(planned(i, n))
    }

    fn tell(&mut self, text: &str) {
        self.told.borrow_mut().push(text.to_string());
    }
}

/// Gives `game` the scripted person; returns what they are told.
fn script(game: &mut Game, steps: Vec<(usize, Step)>) -> Rc<RefCell<Vec<String>>> {
    let told = Rc::new(RefCell::new(Vec::new()));
    let progress = game.progress();
    game.set_terminal(Box::new(Scripted {
        progress,
        script: steps,
        told: told.clone(),
    }));
    told
}

/// The game never interrupted: blue answers every question as planned.
fn whole_game(red: AgentKind) -> (Game, GameResult) {
    let mut g = Game::from_scenario(Path::new(SKIRMISH), &opts(red)).unwrap();
    script(&mut g, Vec::new());
    match g.play().unwrap() {
        Played::Over(r) => (g, r),
        other => panic!("{other:?}"),
    }
}

fn over(played: Played) -> GameResult {
    match played {
        Played::Over(r) => r,
        other => panic!("the game did not end: {other:?}"),
    }
}

/// The game as `whole_game` plays it, stopped at blue's question `at` after `save` there.
fn saved_at(red: AgentKind, at: usize, save: &Path) -> Game {
    let mut g = Game::from_scenario(Path::new(SKIRMISH), &opts(red)).unwrap();
    script(
        &mut g,
        vec![
            (at, Step::Say(Reply::Save(Some(save.to_path_buf())))),
            (at, Step::Say(Reply::Quit)),
        ],
    );
    assert_eq!(g.play().unwrap(), Played::Stopped(Stop::Quit));
    g
}

#[test]
fn a_game_saved_mid_turn_at_the_terminal_resumes_as_the_game_never_interrupted() {
    for (red, name) in [(AgentKind::Bot, "bot"), (AgentKind::Random, "random")] {
        let (whole, result) = whole_game(red.clone());
        // Blue's fifth question comes in turn 2, after red's moves of that turn.
        let (save, _dir) = temp(&format!("mid-turn-{name}.ron"));
        let stopped = saved_at(red, 4, &save);
        let log = stopped.log();
        let records = log.records();
        let turn_began = records
            .iter()
            .rposition(|r| matches!(r.entry, Entry::Turn { .. }))
            .unwrap();
        let answers_this_turn = records[turn_began..]
            .iter()
            .filter(|r| matches!(&r.entry, Entry::Decision { agent, .. } if agent != "only"))
            .count();
        assert!(
            answers_this_turn > 0 && records[turn_began].turn == 2,
            "{name}: not saved inside a turn"
        );
        let saved = SaveFile::load(&save).unwrap();
        assert_eq!(saved.seed, 5);
        assert_eq!(saved.agents["red"], name);
        assert_eq!(
            saved.answers.len(),
            records
                .iter()
                .filter(|r| matches!(&r.entry, Entry::Decision { agent, .. } if agent != "only"))
                .count(),
            "{name}: every answer so far is saved"
        );
        drop(stopped);
        // The seed and the agents come from the save, not from these options.
        let mut resumed = Game::resume(&save, &GameOptions::default()).unwrap();
        assert!(resumed.warnings().is_empty(), "{:?}", resumed.warnings());
        let told = script(&mut resumed, Vec::new());
        let r = over(resumed.play().unwrap());
        assert_eq!(r, result, "{name}");
        assert_eq!(resumed.log().to_jsonl(), whole.log().to_jsonl(), "{name}");
        assert_eq!(resumed.state(), whole.state(), "{name}");
        let told = told.borrow();
        assert!(
            told.iter()
                .any(|t| t == &format!("resumed at turn 2 after {} decisions", saved.answers.len())),
            "{name}: {told:?}"
        );
    }
}

#[test]
fn undo_at_the_terminal_gives_the_game_without_the_answer_taken_back() {
    let (whole, result) = whole_game(AgentKind::Bot);
    // A question of blue's after which red answers before blue is asked again: taking its answer
    // back takes red's answers back too.
    let answers: Vec<(String, String)> = whole
        .log()
        .records()
        .iter()
        .filter_map(|r| match &r.entry {
            Entry::Decision { side, agent, .. } if agent != "only" => {
                Some((side.clone(), agent.clone()))
            }
            _ => None,
        })
        .collect();
    let blue: Vec<usize> = (0..answers.len())
        .filter(|&k| answers[k].0 == "blue")
        .collect();
    let j = (3..blue.len() - 1)
        .find(|&j| blue[j + 1] > blue[j] + 1)
        .expect("red answers between two questions of blue's");
    let mut g = Game::from_scenario(Path::new(SKIRMISH), &opts(AgentKind::Bot)).unwrap();
    let told = script(
        &mut g,
        vec![
            // Nothing to take back yet, then the help; then the planned answer.
            (0, Step::Say(Reply::Undo)),
            (0, Step::Say(Reply::Help)),
            // Another answer than planned at question j, taken back at the next question; asked
            // question j again, blue takes back the answer before it too.
            (j, Step::Other),
            (j + 1, Step::Say(Reply::Undo)),
            (j, Step::Say(Reply::Undo)),
        ],
    );
    let r = over(g.play().unwrap());
    assert_eq!(r, result);
    assert_eq!(g.log().to_jsonl(), whole.log().to_jsonl());
    assert_eq!(g.state(), whole.state());
    let told = told.borrow();
    assert!(
        told[0].starts_with("nothing to take back: blue has answered nothing"),
        "{told:?}"
    );
    assert_eq!(told[1], HELP);
    // Red answered between blue's answer taken back and the question it was taken back at.
    assert!(
        told[2].starts_with("taking back blue's `") && told[2].ends_with("after it"),
        "{told:?}"
    );
    assert!(told[3].starts_with("taking back blue's `"), "{told:?}");
    assert_eq!(told.len(), 4, "{told:?}");
}

#[test]
fn a_save_whose_bot_or_random_answer_was_changed_does_not_replay() {
    for (red, name) in [(AgentKind::Bot, "bot"), (AgentKind::Random, "random")] {
        let (save, _dir) = temp(&format!("edited-{name}.ron"));
        drop(saved_at(red, 4, &save));
        let mut file = SaveFile::load(&save).unwrap();
        let k = file.answers.iter().rposition(|a| a.agent == name).unwrap();
        let a = &mut file.answers[k];
        a.choice = if a.choice == 0 { 1 } else { a.choice - 1 };
        let (side, kind) = (a.side.clone(), a.kind.clone());
        std::fs::write(&save, file.to_text().unwrap()).unwrap();
        let mut g = Game::resume(&save, &GameOptions::default()).unwrap();
        script(&mut g, Vec::new());
        let err = g.play().unwrap_err().to_string();
        let want = format!(
            "the saved game no longer replays on these rules: decision {}, {side}'s `{kind}`: the save has",
            k + 1
        );
        assert!(err.contains(&want), "{name}: {err}");
        assert!(err.contains(&format!("the {name} now answers")), "{err}");
    }
}

#[test]
fn a_save_with_answers_left_when_the_game_is_over_does_not_replay() {
    let (whole, _) = whole_game(AgentKind::Bot);
    let (save, _dir) = temp("too-many.ron");
    whole.save(&save).unwrap();
    let mut file = SaveFile::load(&save).unwrap();
    let last = file.answers.last().unwrap().clone();
    file.answers.push(last);
    std::fs::write(&save, file.to_text().unwrap()).unwrap();
    let mut g = Game::resume(&save, &GameOptions::default()).unwrap();
    let err = g.play().unwrap_err().to_string();
    assert!(
        err.contains("the game is over with 1 of the save's answers not given"),
        "{err}"
    );
}

#[test]
fn a_save_of_an_older_muster_is_refused_plainly() {
    let (save, _dir) = temp("format-1.ron");
    std::fs::write(
        &save,
        "(scenario: \"x.ron\", state: (), dice: (), agent_stream: (), set_up: true, log: \"\")\n",
    )
    .unwrap();
    let err = Game::resume(&save, &GameOptions::default())
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("written by an older muster"), "{err}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let target = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &target);
        } else {
            std::fs::copy(&p, target).unwrap();
        }
    }
}

#[test]
fn a_game_saved_on_rules_since_changed_resumes_with_a_warning_and_is_checked() {
    // A copy of the demo, so that its rules can change under the save.
    let (root, dir) = temp("changed-rules");
    copy_dir(Path::new("tests/demo"), &root);
    let scenario = root.join("scenarios/demo/skirmish.ron");
    let save = dir.path().join("changed-rules.ron");
    let mut g = Game::from_scenario(&scenario, &opts(AgentKind::Bot)).unwrap();
    script(
        &mut g,
        vec![
            (4, Step::Say(Reply::Save(Some(save.clone())))),
            (4, Step::Say(Reply::Quit)),
        ],
    );
    assert_eq!(g.play().unwrap(), Played::Stopped(Stop::Quit));
    drop(g);
    // A comment changes the version and not the game: the save replays, with a warning.
    let bot = root.join("rulesets/demo/bot.rhai");
    let text = std::fs::read_to_string(&bot).unwrap();
    std::fs::write(&bot, format!("// A comment added since.\n{text}")).unwrap();
    let mut resumed = Game::resume(&save, &GameOptions::default()).unwrap();
    assert!(
        resumed.warnings()[0].contains("the rules changed since this game was saved"),
        "{:?}",
        resumed.warnings()
    );
    script(&mut resumed, Vec::new());
    let (whole, result) = whole_game(AgentKind::Bot);
    assert_eq!(over(resumed.play().unwrap()), result);
    assert_eq!(resumed.log().narration(), whole.log().narration());
    // A bot that now plays otherwise is caught at its first answer that differs.
    let stays = text.replace(
        "fn bot_choose(game, side, kind, options) {",
        "fn bot_choose(game, side, kind, options) {\n    if kind.starts_with(\"move\") { return 0; }",
    );
    assert_ne!(stays, text);
    std::fs::write(&bot, stays).unwrap();
    let mut resumed = Game::resume(&save, &GameOptions::default()).unwrap();
    script(&mut resumed, Vec::new());
    let err = resumed.play().unwrap_err().to_string();
    assert!(
        err.contains("the saved game no longer replays on these rules: decision 1, red's `move"),
        "{err}"
    );
}
