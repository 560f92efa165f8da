//! `muster render`: a position of a game drawn as SVG. The position is a scenario after its
//! set-up, or a saved game where it was saved: the game is played (replayed) until a decision
//! would ask someone, and drawn as it stands then, in its ruleset's style.

use crate::error::{Error, Result};
use crate::game::{Game, GameOptions};
use crate::view::svg::Board;
use crate::world::save::SaveFile;
use std::path::Path;

/// What a drawing may change of its ruleset's style.
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    /// Print hex ids (`None`: as the style says).
    pub hex_ids: Option<bool>,
    /// Pixels from a hex's centre to a corner (`None`: as the style says).
    pub hex_size: Option<f64>,
}

/// The position of a scenario after its set-up, before any turn (`save` is `None`), or of a save
/// where it stopped: the game played until a decision would ask someone. With a save, `scenario`
/// may be left out; given, it must be the save's.
pub fn position(scenario: Option<&Path>, save: Option<&Path>) -> Result<Game> {
    let opts = GameOptions::default();
    let game = match (scenario, save) {
        (_, Some(path)) => {
            let file = SaveFile::load(path)?;
            if let Some(s) = scenario {
                let same = |p: &Path| crate::source::normalize(p);
                if same(s) != same(&file.scenario) {
                    return Err(Error::usage(format!(
                        "{} is a game of {}, not of {}",
                        path.display(),
                        file.scenario.display(),
                        s.display()
                    )));
                }
            }
            let mut game = Game::resume_from(file, path, &opts)?;
            game.play_until_asked()?;
            game
        }
        (Some(s), None) => {
            // A scenario is drawn as its set-up leaves it, before any turn is played.
            let mut game = Game::from_scenario(s, &opts)?;
            game.set_up()?;
            game
        }
        (None, None) => {
            return Err(Error::usage(
                "muster render needs a SCENARIO, or --save FILE",
            ))
        }
    };
    Ok(game)
}

/// The game's map and units as an SVG document, in its ruleset's style.
#[must_use]
pub fn render(game: &Game, opts: &RenderOptions) -> String {
    render_state(game, &game.state(), opts)
}

/// `state` on the game's map as an SVG document, in its ruleset's style (a position of the
/// game other than where it stands: `muster render --log FILE --at N`).
#[must_use]
pub fn render_state(
    game: &Game,
    state: &crate::world::state::State,
    opts: &RenderOptions,
) -> String {
    let mut style = game.ruleset().style.clone();
    if let Some(size) = opts.hex_size {
        style.hex_size = size;
    }
    if let Some(ids) = opts.hex_ids {
        style.hex_ids = ids;
    }
    let map = game.map();
    Board::new(&map, &style)
        .with_sides(&game.ruleset().sides)
        .svg(state)
}
