//! The board as text, for a person at the terminal: the hexes around a decision, each with its
//! terrain and whose units stand there, the hex decided marked `@` and the options' hexes
//! numbered as the option list numbers them, and a legend; and [`BoardTerminal`], the terminal
//! of `muster play` that shows it before the options (and keeps an SVG of the board, with the
//! same marks, in a file a person can keep open beside the terminal).
//!
//! A hex is two lines of at most [`CELL`] characters: its id (or its mark), then its terrain
//! letter (the style's `text`, else a letter of the tag's name; with the elevation where it is
//! not 0) and its units as side
//! letter and strength (`R4`: red, strength 4 in all). Flat-top maps stand in columns, each
//! other column half a hex lower; pointy-top maps in rows, each other row half a hex to the
//! right. The hexes within [`RADIUS`] of the centre fit in 72 columns.
//!
//! ```text
//!          0102            0302
//!          w  B4   0202    .
//!  0101            w2      ...
//! ```

use crate::geom::hex::Hex;
use crate::geom::map::Map;
use crate::style::Style;
use crate::view::svg::Board;
use crate::world::agent::{read_reply, wrap, Choice, Prompt, Reply, Terminal, WIDTH};
use crate::world::save::write_atomically;
use crate::world::state::State;
use indexmap::IndexMap;
use std::io::Write;
use std::path::PathBuf;

/// How far from the centre the picture reaches, in hexes.
pub const RADIUS: u32 = 4;

/// The characters a hex's text takes on each of its two lines.
pub const CELL: usize = 7;

/// From one column (row) of hexes to the next, in characters.
const PITCH: usize = CELL + 1;

/// What the picture marks: the hex it centres on, the hex decided, and the options.
#[derive(Clone, Copy, Debug)]
pub struct Marks<'a> {
    /// The hex in the middle of the picture.
    pub centre: Hex,
    /// The hex the decision is about (marked `@`), if any.
    pub focus: Option<Hex>,
    /// The options, numbered from 1 in the picture where they have a hex.
    pub choices: &'a [Choice],
    /// The side deciding (its units are listed first in a shared hex).
    pub side: &'a str,
}

/// The hex of `hexes` nearest to all the others (the least farthest distance; the first of
/// equals), to centre a picture of them on; `None` for no hexes.
#[must_use]
pub fn middle(hexes: &[Hex]) -> Option<Hex> {
    hexes
        .iter()
        .min_by_key(|h| hexes.iter().map(|o| h.distance(*o)).max().unwrap_or(0))
        .copied()
}

/// The hex the picture of a decision centres on: its focus, else the middle of its options'
/// hexes; `None` when the decision is about no hex.
#[must_use]
pub fn centre(prompt: &Prompt) -> Option<Hex> {
    prompt.focus.or_else(|| {
        let hexes: Vec<Hex> = prompt.choices.iter().filter_map(|c| c.hex).collect();
        middle(&hexes)
    })
}

/// A decision as the terminal shows it: the picture of the board around it (when it is about a
/// hex), then the heading and the options with their details.
#[must_use]
pub fn prompt_text(prompt: &Prompt) -> String {
    let mut out = String::new();
    if let Some(centre) = centre(prompt) {
        let marks = Marks {
            centre,
            focus: prompt.focus,
            choices: prompt.choices,
            side: prompt.side,
        };
        out.push_str(&picture(prompt.map, prompt.state, prompt.style, &marks));
    }
    out.push_str(&prompt.options_text());
    out
}

/// The whole board as SVG with a decision's marks: each option's hex outlined and labelled with
/// its number (the first of those it holds, `+` when it holds more), the focus outlined and
/// labelled `@` (before its option's number).
#[must_use]
pub fn prompt_svg(prompt: &Prompt) -> String {
    let mut hexes: Vec<(Hex, Vec<usize>)> =
        prompt.focus.map(|f| (f, Vec::new())).into_iter().collect();
    for (i, c) in prompt.choices.iter().enumerate() {
        if let Some(h) = c.hex {
            match hexes.iter_mut().find(|(m, _)| *m == h) {
                Some((_, numbers)) => numbers.push(i + 1),
                None => hexes.push((h, vec![i + 1])),
            }
        }
    }
    let marks = hexes
        .into_iter()
        .map(|(h, numbers)| {
            let mut label = if prompt.focus == Some(h) {
                "@".to_string()
            } else {
                String::new()
            };
            if let Some(first) = numbers.first() {
                label.push_str(&first.to_string());
            }
            if numbers.len() > 1 {
                label.push('+');
            }
            (h, Some(label))
        })
        .collect();
    let sides: Vec<String> = prompt.state.sides.keys().cloned().collect();
    Board::new(prompt.map, prompt.style)
        .with_sides(&sides)
        .with_highlights(marks)
        .svg(prompt.state)
}

/// The terminal of `muster play`: each decision drawn around its hex (see [`prompt_text`]) on
/// standard error, read from standard input; with a `board` file, the whole board as SVG with
/// the same marks (see [`prompt_svg`]) written there anew at each decision, whole or not at all.
#[derive(Debug, Default)]
pub struct BoardTerminal {
    /// The SVG file to keep, if any.
    pub board: Option<PathBuf>,
}

impl Terminal for BoardTerminal {
    fn ask(&mut self, prompt: &Prompt) -> Reply {
        let mut err = std::io::stderr();
        if let Some(path) = &self.board {
            // A board that cannot be written is said, and the game goes on.
            if let Err(e) = write_atomically(path, &prompt_svg(prompt)) {
                let _ = writeln!(err, "cannot write the board: {e}");
            }
        }
        let _ = write!(err, "\n{}", prompt_text(prompt));
        read_reply(prompt.choices.len())
    }
}

/// The picture of the hexes within [`RADIUS`] of `marks.centre` as they stand in `state`, then
/// its legend; every line ends in a line break.
#[must_use]
pub fn picture(map: &Map, state: &State, style: &Style, marks: &Marks) -> String {
    let hexes: Vec<Hex> = marks
        .centre
        .within(RADIUS)
        .into_iter()
        .filter(|h| map.contains(*h))
        .collect();
    let letters = Letters::new(map, state, style, &hexes);
    let heights = hexes.iter().any(|h| map.elevation(*h) != 0);
    let rows = 4 * RADIUS as usize + 2;
    let width = 2 * RADIUS as usize * PITCH + CELL;
    let mut grid = vec![vec![' '; width]; rows];
    for &h in &hexes {
        let (x, y) = place(map, marks.centre, h);
        let top = name(map, h, marks);
        let mut bottom = String::new();
        bottom.push(letters.terrain_of(map, h));
        if map.elevation(h) != 0 {
            bottom.push_str(&map.elevation(h).to_string());
        }
        let units = letters.units_in(state, h, marks.side);
        if !units.is_empty() {
            bottom.push(' ');
            bottom.push_str(&units);
        }
        write_centred(&mut grid[y], x, &top);
        write_centred(&mut grid[y + 1], x, &bottom);
    }
    // The lines beyond the map's edge stay out.
    let lines: Vec<String> = grid
        .into_iter()
        .map(|l| l.into_iter().collect::<String>().trim_end().to_string())
        .collect();
    let first = lines.iter().position(|l| !l.is_empty()).unwrap_or(0);
    let last = lines.iter().rposition(|l| !l.is_empty()).unwrap_or(0);
    let mut out = String::new();
    for line in &lines[first..=last] {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&legend(map, state, marks, &hexes, &letters, heights));
    out
}

/// Where a hex's text starts in the picture: (character, line).
fn place(map: &Map, centre: Hex, h: Hex) -> (usize, usize) {
    use crate::geom::numbering::Orientation;
    let r = RADIUS as i32;
    let (dq, dr) = (h.q - centre.q, h.r - centre.r);
    let (x, y) = match map.numbering.orientation {
        // Columns of hexes; a step along q goes half a hex down.
        Orientation::FlatTop => ((dq + r) * PITCH as i32, 2 * dr + dq + 2 * r),
        // Rows of hexes; a step along r goes half a hex right.
        Orientation::PointyTop => ((2 * dq + dr + 2 * r) * PITCH as i32 / 2, 2 * (dr + r)),
    };
    (x.max(0) as usize, y.max(0) as usize)
}

/// The first line of a hex: `@` before the mark of the hex decided, the numbers of the options
/// in it in brackets, or else its id.
fn name(map: &Map, h: Hex, marks: &Marks) -> String {
    let numbers: Vec<String> = marks
        .choices
        .iter()
        .enumerate()
        .filter(|(_, c)| c.hex == Some(h))
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    let at = if marks.focus == Some(h) { "@" } else { "" };
    let all = format!("{at}({})", numbers.join(","));
    match numbers.len() {
        0 => format!("{at}{}", map.id(h)),
        // Too many to list in the hex: the first, and a sign that more follow.
        _ if all.chars().count() > CELL => format!("{at}({}+)", numbers[0]),
        _ => all,
    }
}

/// Writes `text` centred in the cell starting at `x`, cut to the cell.
fn write_centred(line: &mut [char], x: usize, text: &str) {
    let chars: Vec<char> = text.chars().take(CELL).collect();
    let start = x + (CELL - chars.len()) / 2;
    for (i, c) in chars.into_iter().enumerate() {
        if let Some(slot) = line.get_mut(start + i) {
            *slot = c;
        }
    }
}

/// The letters of the picture: one per terrain tag and one per side, each distinct.
struct Letters {
    /// Each tag a hex shown is shown by, in the map's order, with its letter.
    terrain: IndexMap<String, char>,
    /// Each side, in the state's order, with its capital letter.
    sides: IndexMap<String, char>,
    /// The tags the style names, in its order (the first a hex has shows it).
    style_tags: Vec<String>,
}

impl Letters {
    fn new(map: &Map, state: &State, style: &Style, hexes: &[Hex]) -> Letters {
        // The tag each hex is shown by: the first its style names, else its first.
        let shown_tag = |h: &Hex| {
            let tags = map.terrain(*h);
            style
                .terrain
                .keys()
                .find(|t| tags.contains(&t.as_str()))
                .cloned()
                .or_else(|| tags.first().map(|t| (*t).to_string()))
        };
        let mut tags: Vec<String> = hexes.iter().filter_map(shown_tag).collect();
        let order = |t: &String| map.tag_bit(t).unwrap_or(u64::MAX);
        tags.sort_by_key(order);
        tags.dedup();
        // The style's letters first, then a letter of its own for each other tag.
        let mut taken = vec!['.', '@'];
        let given = |t: &str| style.terrain.get(t).and_then(|s| s.text);
        taken.extend(tags.iter().filter_map(|t| given(t)));
        let terrain = tags
            .into_iter()
            .map(|t| {
                let c = given(&t).unwrap_or_else(|| letter(&t, &mut taken, false));
                (t, c)
            })
            .collect();
        let mut names: Vec<String> = state.sides.keys().cloned().collect();
        for u in state.units.values() {
            if !names.contains(&u.side) {
                names.push(u.side.clone());
            }
        }
        let mut taken = Vec::new();
        let sides = names
            .into_iter()
            .map(|s| {
                let c = letter(&s, &mut taken, true);
                (s, c)
            })
            .collect();
        Letters {
            terrain,
            sides,
            style_tags: style.terrain.keys().cloned().collect(),
        }
    }

    /// The letter of a hex's terrain (`.` for a hex with none): that of the first tag the style
    /// names, else of its first tag.
    fn terrain_of(&self, map: &Map, h: Hex) -> char {
        let tags = map.terrain(h);
        self.style_tags
            .iter()
            .find(|t| tags.contains(&t.as_str()))
            .map(String::as_str)
            .or_else(|| tags.first().copied())
            .and_then(|t| self.terrain.get(t).copied())
            .unwrap_or('.')
    }

    /// The units in a hex as side letter and strength, the deciding side first: `R4B2`.
    fn units_in(&self, state: &State, h: Hex, side: &str) -> String {
        let mut by_side: IndexMap<&str, i64> = IndexMap::new();
        for u in state.units_at(h) {
            *by_side.entry(u.side.as_str()).or_default() += u.strength;
        }
        if let Some(i) = by_side.get_index_of(side) {
            by_side.move_index(i, 0);
        }
        by_side
            .into_iter()
            .map(|(s, strength)| format!("{}{strength}", self.sides.get(s).copied().unwrap_or('?')))
            .collect()
    }
}

/// A letter for `name` not in `taken` (which it joins): its first letter, else the next of its
/// letters, else any letter; capitals for sides, small letters for terrain.
fn letter(name: &str, taken: &mut Vec<char>, capital: bool) -> char {
    let case = |c: char| {
        if capital {
            c.to_ascii_uppercase()
        } else {
            c.to_ascii_lowercase()
        }
    };
    let candidates = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .chain('a'..='z')
        .map(case);
    let mut chosen = '?';
    for c in candidates {
        if !taken.contains(&c) {
            chosen = c;
            break;
        }
    }
    taken.push(chosen);
    chosen
}

/// The legend under the picture: the hex decided and its units, the marks, the letters, and
/// the options that lie beyond the picture.
fn legend(
    map: &Map,
    state: &State,
    marks: &Marks,
    shown: &[Hex],
    letters: &Letters,
    heights: bool,
) -> String {
    let mut out = String::new();
    if let Some(f) = marks.focus {
        let units: Vec<String> = state
            .units_at(f)
            .map(|u| format!("{} {}", u.name, u.strength))
            .collect();
        let who = if units.is_empty() {
            String::new()
        } else {
            format!(" ({})", units.join(", "))
        };
        out.push_str(&format!("@ {}{who}; ", map.id(f)));
    }
    out.push_str("(n) option n\n");
    let terrain: Vec<String> = letters
        .terrain
        .iter()
        .map(|(t, c)| format!("{c} {t}"))
        .collect();
    let sides: Vec<String> = letters
        .sides
        .iter()
        .map(|(s, c)| format!("{c} {s}"))
        .collect();
    let elevation = if heights {
        " (then the elevation where not 0)"
    } else {
        ""
    };
    out.push_str(&wrap(
        &format!("terrain: {}{elevation}", terrain.join(", ")),
        WIDTH,
        "",
        "  ",
    ));
    out.push_str(&wrap(
        &format!("units: side and strength in all: {}", sides.join(", ")),
        WIDTH,
        "",
        "  ",
    ));
    let beyond: Vec<String> = marks
        .choices
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.hex.filter(|h| !shown.contains(h)).map(|h| (i, h)))
        .map(|(i, h)| format!("{} ({})", i + 1, map.id(h)))
        .collect();
    if !beyond.is_empty() {
        out.push_str(&wrap(
            &format!("beyond the picture: {}", beyond.join(", ")),
            WIDTH,
            "",
            "  ",
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn wrapping_keeps_every_word_within_the_width() {
        let text = "beyond the picture: 29 (0818), 30 (0819), 31 (0820)";
        let w = super::wrap(text, 24, "", "  ");
        assert_eq!(
            w,
            "beyond the picture: 29\n  (0818), 30 (0819), 31\n  (0820)\n"
        );
        assert_eq!(super::wrap("short", 24, "", "  "), "short\n");
    }

    use super::*;
    use std::path::Path;

    fn map() -> Map {
        Map::load(Path::new("../tests/demo/scenarios/demo/maps/field.ron")).unwrap()
    }

    #[test]
    fn the_middle_is_nearest_to_all() {
        let m = map();
        let h = |id: &str| m.parse(id).unwrap();
        assert_eq!(middle(&[]), None);
        assert_eq!(middle(&[h("0101"), h("0103"), h("0102")]), Some(h("0102")));
    }

    #[test]
    fn letters_are_distinct() {
        let mut taken = vec!['.'];
        assert_eq!(letter("woods", &mut taken, false), 'w');
        assert_eq!(letter("wheat", &mut taken, false), 'h');
        assert_eq!(letter("ww", &mut taken, false), 'a');
        assert_eq!(letter("red", &mut taken, true), 'R');
    }

    #[test]
    fn the_picture_marks_the_focus_and_the_options() {
        let m = map();
        let h = |id: &str| m.parse(id).unwrap();
        let choices = [
            Choice::plain("stay".into()),
            Choice {
                hex: Some(h("0102")),
                ..Choice::plain("move".into())
            },
        ];
        let mut choices = choices.to_vec();
        choices[0].hex = Some(h("0101"));
        let text = picture(
            &m,
            &State::default(),
            &Style::default(),
            &Marks {
                centre: h("0101"),
                focus: Some(h("0101")),
                choices: &choices,
                side: "red",
            },
        );
        assert!(text.contains("@(1)"), "{text}");
        assert!(text.contains("(2)"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    }
}
