//! Benchmarks of the core, each beside a baseline measured in the same run so
//! that figures can be read as ratios on a shared, noisy machine.
//!
//! - LOS: a full line-of-sight evaluation on a 60×40 map at mixed distances,
//!   beside the bare hex distance of the same pairs.
//! - Tables: a CRT lookup by odds with a shift, beside a plain array index.
//! - Script call from Rust: calling a small script function, beside calling
//!   the same logic as a Rust closure.
//! - Registered function from script: a script loop calling `game.distance`,
//!   beside the same loop doing plain arithmetic.
//! - Render: the SVG of the largest bundled map (Salem Church, 1,260 hexes) with every unit
//!   of a scenario on it, beside loading that scenario's map and units (a game started on its
//!   compiled ruleset).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use muster_interpreter::game::{Game, GameOptions};
use muster_interpreter::geom::hex::Hex;
use muster_interpreter::geom::los::{Effect, Height, LosEvaluator, LosRule, LosRules, PairRule};
use muster_interpreter::geom::map::Map;
use muster_interpreter::host::compiled::CompiledRuleset;
use muster_interpreter::table::{ColumnKey, RowQuery, Tables};
use rhai::Dynamic;
use std::path::Path;
use std::rc::Rc;

/// A 60×40 map with a scatter of woods and hills chosen by a fixed formula.
fn big_map() -> Map {
    let mut rows = Vec::new();
    let mut elev = Vec::new();
    for r in 1..=40 {
        let mut codes = Vec::new();
        let mut levels = Vec::new();
        for c in 1..=60 {
            let k = (c * 7 + r * 13) % 17;
            codes.push(if k < 3 { "w" } else { "." });
            levels.push(((c / 10 + r / 8) % 3).to_string());
        }
        rows.push(format!("\"{}\"", codes.join(" ")));
        elev.push(format!("\"{}\"", levels.join(" ")));
    }
    let text = format!(
        "Map(name: \"bench\", numbering: (column_range: (1, 60), row_range: (1, 40)), terrain_codes: {{\".\": [\"clear\"], \"w\": [\"woods\"]}}, terrain: [{}], elevation: [{}])",
        rows.join(","),
        elev.join(",")
    );
    Map::from_str(&text, Path::new("bench.ron")).expect("bench map")
}

/// 1000 pairs of hexes at distances 1 to 12, from a fixed linear
/// congruential sequence.
fn pairs(map: &Map) -> Vec<(Hex, Hex)> {
    let hexes = map.hexes();
    let mut x: u64 = 12345;
    let mut next = || {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (x >> 33) as i64
    };
    let mut out = Vec::new();
    while out.len() < 1000 {
        let a = hexes[next() as usize % hexes.len()];
        let b = Hex::new(
            a.q + (next() % 25 - 12) as i32,
            a.r + (next() % 25 - 12) as i32,
        );
        if map.contains(b) && (1..=12).contains(&a.distance(b)) {
            out.push((a, b));
        }
    }
    out
}

fn los(c: &mut Criterion) {
    let map = big_map();
    let rules = LosRules {
        rules: vec![
            LosRule {
                terrain: vec!["woods".into()],
                height: Height::AtOrAboveLower,
                obstacle: 1,
                effect: Effect::Obscure,
                block_at: Some(2),
                applies_to: Default::default(),
                ..LosRule::default()
            },
            LosRule {
                terrain: vec![],
                height: Height::AboveBoth,
                effect: Effect::Block,
                applies_to: Default::default(),
                ..LosRule::default()
            },
        ],
        hexside_pairs: PairRule::Both,
    };
    let ev = LosEvaluator::new(&rules, &map);
    let ps = pairs(&map);
    let mut g = c.benchmark_group("los_60x40_1000_pairs");
    g.bench_function("baseline_distance", |b| {
        b.iter(|| ps.iter().map(|(a, x)| a.distance(*x)).sum::<u32>())
    });
    g.bench_function("los_evaluate", |b| {
        b.iter(|| {
            ps.iter()
                .filter(|(a, x)| ev.judge(&map, *a, *x, |_| false).is_clear())
                .count()
        })
    });
    g.finish();
}

fn tables(c: &mut Criterion) {
    let mut t = Tables::default();
    t.load(Path::new("../tests/demo/tables/demo/crt.ron"))
        .expect("demo crt");
    let grid = t.grid("crt").expect("grid");
    let plain: Vec<Vec<u8>> = (0..6)
        .map(|r| (0..5).map(|c| (r * 5 + c) as u8).collect())
        .collect();
    let mut g = c.benchmark_group("table_lookup_x1000");
    g.bench_function("baseline_array_index", |b| {
        b.iter(|| {
            (0..1000)
                .map(|i| u32::from(plain[i % 6][(i * 3) % 5]))
                .sum::<u32>()
        })
    });
    g.bench_function("crt_by_odds_with_shift", |b| {
        b.iter(|| {
            (0..1000)
                .filter(|i| {
                    grid.lookup(
                        "crt",
                        &ColumnKey::Value(black_box((i % 9) as f64 / 2.0)),
                        (*i as i64 % 3) - 1,
                        &RowQuery::Roll((*i as i64 % 6) + 1),
                    )
                    .is_ok()
                })
                .count()
        })
    });
    g.finish();
}

fn scripts(c: &mut Criterion) {
    let ruleset = Rc::new(
        CompiledRuleset::load(Path::new("../tests/demo/rulesets/demo")).expect("demo ruleset"),
    );
    let scenario = muster_interpreter::scenario::Scenario::load(Path::new(
        "../tests/demo/scenarios/demo/skirmish.ron",
    ))
    .expect("scenario");
    let game = Game::start(&scenario, ruleset.clone(), &GameOptions::default()).expect("game");
    let handle = Dynamic::from(game.handle().clone());

    let mut g = c.benchmark_group("script_call_from_rust");
    let rust_defence = |s: i64, m: i64| s * m.max(1);
    g.bench_function("baseline_rust_closure", |b| {
        b.iter(|| rust_defence(black_box(4), black_box(2)))
    });
    g.bench_function("call_defence_strength", |b| {
        b.iter(|| {
            ruleset
                .call("defence_strength", (handle.clone(), "b1".to_string()))
                .expect("call")
        })
    });
    g.finish();

    let probe = ruleset
        .engine()
        .compile(
            "fn with_api(game, n) { let s = 0; for i in 0..n { s += game.distance(\"0101\", \"1008\"); } s }
             fn baseline(game, n) { let s = 0; for i in 0..n { s += i % 7; } s }",
        )
        .expect("probe");
    let ast = ruleset.ast().clone_functions_only().merge(&probe);
    let engine = ruleset.engine();
    let call = |name: &str| {
        let mut scope = rhai::Scope::new();
        engine
            .call_fn_with_options::<i64>(
                rhai::CallFnOptions::new().eval_ast(false),
                &mut scope,
                &ast,
                name,
                (handle.clone(), 1000_i64),
            )
            .expect("probe call")
    };
    let mut g = c.benchmark_group("registered_fn_from_script_x1000");
    g.bench_function("baseline_script_arithmetic", |b| {
        b.iter(|| call("baseline"))
    });
    g.bench_function("game_distance", |b| b.iter(|| call("with_api")));
    g.finish();
}

fn render(c: &mut Criterion) {
    let path = Path::new("../scenarios/sedgwick_attacks/keep_going_boys.ron");
    let scenario = muster_interpreter::scenario::Scenario::load(path).expect("scenario");
    let ruleset = Rc::new(CompiledRuleset::load(&scenario.ruleset_dir()).expect("ruleset"));
    let game = Game::start(&scenario, ruleset.clone(), &GameOptions::default()).expect("game");
    let (map, state, style) = (game.map(), game.state(), ruleset.ruleset().style.clone());
    let mut g = c.benchmark_group("render_largest_map");
    g.sample_size(20);
    g.bench_function("baseline_load_scenario", |b| {
        b.iter(|| Game::start(&scenario, ruleset.clone(), &GameOptions::default()).expect("game"))
    });
    g.bench_function("svg_map_and_units", |b| {
        b.iter(|| {
            muster_interpreter::view::svg::Board::new(&map, &style)
                .with_sides(&ruleset.ruleset().sides)
                .svg(black_box(&state))
        })
    });
    g.finish();
}

criterion_group!(benches, los, tables, scripts, render);
criterion_main!(benches);
