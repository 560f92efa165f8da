//! Bot games of a scenario, scored at every turn's end: the data to fit a search agent's
//! `evaluate` to (docs/search.md, `tools/fit_sp_value.py`).
//!
//! ```sh
//! cargo run --release -p muster-interpreter --example turn_scores -- SCENARIO GAMES FUNCTION > scores.csv
//! ```
//!
//! Plays GAMES games, every side played by the ruleset's bot, with seeds 1 to GAMES. After each
//! turn but the last it writes one CSV row: the seed, the turn, then for each side its victory
//! points and what the ruleset's `FUNCTION(game, side)` returns (a number, such as Blind Swords'
//! `strength_kept`), and last the game's winner (`draw` if none). Two sides only.

use muster_interpreter::game::{Game, GameOptions, Loaded};
use std::io::Write;
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, scenario, games, function] = args.as_slice() else {
        return Err("usage: turn_scores SCENARIO GAMES FUNCTION".into());
    };
    // The ruleset compiled and its rules bound to the map once, for every game.
    let loaded = Loaded::load(Path::new(scenario))?;
    let sides = loaded.ruleset.ruleset().sides.clone();
    let [first, second] = sides.as_slice() else {
        return Err(format!("the ruleset has {} sides; this needs two", sides.len()).into());
    };
    // Written, not printed: a reader that stops early (`| head`) ends the run with an error.
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "seed,turn,{first}_vp,{first}_{function},{second}_vp,{second}_{function},winner"
    )?;
    for seed in 1..=games.parse::<u64>()? {
        let opts = GameOptions {
            seed,
            ..GameOptions::default()
        };
        let mut game = Game::start_on(
            &loaded.scenario,
            loaded.ruleset.clone(),
            loaded.bound.clone(),
            &opts,
        )?;
        let mut rows = Vec::new();
        while !game.over() {
            game.play_turn()?;
            if game.over() {
                break;
            }
            let vp = game.victory()?.vp;
            let mut row = format!("{seed},{}", rows.len() + 1);
            for side in [first, second] {
                let value = game.call(function, vec![side.as_str().into()])?;
                let value = value
                    .as_float()
                    .or_else(|_| value.as_int().map(|i| i as f64))
                    .map_err(|t| format!("`{function}` returned a {t}, not a number"))?;
                row += &format!(",{},{value}", vp.get(side).copied().unwrap_or(0));
            }
            rows.push(row);
        }
        let winner = game.victory()?.winner.unwrap_or_else(|| "draw".into());
        for row in rows {
            writeln!(out, "{row},{winner}")?;
        }
    }
    Ok(())
}
