//! Whole-game benchmarks, each beside a baseline from the same run:
//!
//! - a Last Victory game, a Sedgwick Attacks scenario (16.1), The Rock of Chickamauga's drill and
//!   its scenario #10 (Longstreet Attacks), bot against bot, beside a Crossroads demo game;
//! - ruleset + scenario + map load time of the same, beside the demo's;
//! - simulate throughput with 1 and with 2 jobs (the ratio is the speed-up), on demo games and
//!   on Last Victory games;
//! - one search decision of the search agent at its default budget, in a Last Victory game,
//!   beside a demo game.

use criterion::{criterion_group, criterion_main, Criterion};
use muster_interpreter::game::lookahead::Lookahead;
use muster_interpreter::game::{Game, GameOptions};
use muster_interpreter::host::compiled::CompiledRuleset;
use muster_interpreter::scenario::Scenario;
use muster_interpreter::tools::simulate::{self, Spec};
use muster_interpreter::world::agent::{AgentKind, Budget};
use muster_interpreter::world::fork::{ForkPoint, Searched, Searcher, Tried};
use muster_interpreter::world::Rr;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

/// The allocator the `muster` binary uses (see src/main.rs), so that these figures are the
/// binary's.
#[global_allocator]
static ALLOCATOR: muster_interpreter::alloc::Mimalloc = muster_interpreter::alloc::Mimalloc;

const LAST_VICTORY: &str = "../scenarios/last_victory/chickamauga.ron";
const DEMO: &str = "../tests/demo/scenarios/demo/skirmish.ron";
const SEDGWICK: &str = "../scenarios/sedgwick_attacks/rebel_ambush.ron";
const ROC_DRILL: &str = "../scenarios/rock_of_chickamauga/drill.ron";
const ROC_LONGSTREET: &str = "../scenarios/rock_of_chickamauga/longstreet_attacks.ron";

fn play(scenario: &Scenario, ruleset: &Rc<CompiledRuleset>, seed: u64) -> i64 {
    let opts = GameOptions {
        seed,
        ..GameOptions::default()
    };
    let mut g = Game::start(scenario, ruleset.clone(), &opts).expect("start");
    g.run(None).expect("game").turns
}

fn whole_games(c: &mut Criterion) {
    let mut g = c.benchmark_group("whole_game_bot_vs_bot");
    g.sample_size(10).measurement_time(Duration::from_secs(12));
    for (name, path) in [
        ("baseline_crossroads_demo", DEMO),
        ("last_victory", LAST_VICTORY),
        ("sedgwick_rebel_ambush", SEDGWICK),
        ("rock_of_chickamauga_drill", ROC_DRILL),
        ("rock_of_chickamauga_longstreet_attacks", ROC_LONGSTREET),
    ] {
        let scenario = Scenario::load(Path::new(path)).expect("scenario");
        let ruleset = Rc::new(CompiledRuleset::load(&scenario.ruleset_dir()).expect("ruleset"));
        let mut seed = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                play(&scenario, &ruleset, seed)
            })
        });
    }
    g.finish();
}

fn load_times(c: &mut Criterion) {
    let mut g = c.benchmark_group("load_ruleset_scenario_map");
    for (name, path) in [
        ("baseline_crossroads_demo", DEMO),
        ("last_victory", LAST_VICTORY),
        ("sedgwick_rebel_ambush", SEDGWICK),
        ("rock_of_chickamauga_drill", ROC_DRILL),
        ("rock_of_chickamauga_longstreet_attacks", ROC_LONGSTREET),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let s = Scenario::load(Path::new(path)).expect("scenario");
                let r = CompiledRuleset::load(&s.ruleset_dir()).expect("ruleset");
                let m = s.load_map().expect("map");
                (r.ruleset().sides.len(), m.hexes().len())
            })
        });
    }
    g.finish();
}

/// `simulate` with 1 and with 2 jobs: 64 short demo games (where the per-worker start-up
/// shows most) and 16 Last Victory games (what a designer runs).
fn throughput(c: &mut Criterion) {
    for (group, path, games) in [
        ("simulate_64_demo_games", DEMO, 64),
        ("simulate_16_last_victory_games", LAST_VICTORY, 16),
    ] {
        let spec = Spec {
            scenario: PathBuf::from(path),
            games,
            seed: 1,
            agents: Default::default(),
            options: Default::default(),
        };
        let mut g = c.benchmark_group(group);
        g.sample_size(10);
        for jobs in [1, 2] {
            g.bench_function(format!("jobs_{jobs}"), |b| {
                b.iter(|| {
                    simulate::run(&spec, None, jobs, &|_| {})
                        .expect("run")
                        .records
                        .len()
                })
            });
        }
        g.finish();
    }
}

/// A searcher that keeps the decisions it is asked and answers the bot's choice: the bench plays
/// a game with it to find a decision to search.
#[derive(Default)]
struct Keep(std::cell::RefCell<Vec<(ForkPoint, Vec<usize>)>>);

impl Searcher for Keep {
    fn pick(&self, at: &ForkPoint, _: Budget, bot: &[usize]) -> Rr<Searched> {
        self.0.borrow_mut().push((at.clone(), bot.to_vec()));
        Ok(Searched {
            index: bot[0],
            tried: vec![Tried {
                option: bot[0],
                mean: 0.0,
                rollouts: 0,
            }],
            audit: None,
        })
    }
}

/// The Confederate's `n`-th decision of a Last Victory game, with the bot's preferences there.
fn last_victory_decision(n: usize) -> (ForkPoint, Vec<usize>) {
    let opts = GameOptions {
        seed: 1,
        agents: [(
            "confederate".to_string(),
            AgentKind::Search(Budget {
                rollouts: 1,
                turns: 1,
            }),
        )]
        .into_iter()
        .collect(),
        ..GameOptions::default()
    };
    let mut game = Game::from_scenario(Path::new(LAST_VICTORY), &opts).expect("start");
    let keep = Rc::new(Keep::default());
    game.handle().0.borrow_mut().set_searcher(keep.clone());
    game.run(None).expect("game");
    let asked = keep.0.borrow();
    asked[n.min(asked.len() - 1)].clone()
}

fn search_decision(c: &mut Criterion) {
    let mut g = c.benchmark_group("search_decision");
    g.sample_size(10).measurement_time(Duration::from_secs(12));
    let scenario = Scenario::load(Path::new(DEMO)).expect("scenario");
    let ruleset = Rc::new(CompiledRuleset::load(&scenario.ruleset_dir()).expect("ruleset"));
    g.bench_function("baseline_crossroads_demo", |b| {
        b.iter(|| play(&scenario, &ruleset, 1))
    });
    // A decision in the middle of the game (the 200th of about 560), searched as a real game
    // would at the default budget.
    let (at, bot) = last_victory_decision(200);
    let search = Lookahead::new(Path::new(LAST_VICTORY));
    g.bench_function("last_victory_default_budget", |b| {
        b.iter(|| {
            search
                .pick(&at, Budget::default(), &bot)
                .expect("search")
                .index
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    whole_games,
    load_times,
    throughput,
    search_decision
);
criterion_main!(benches);
