//! How a game looks: a ruleset's optional `style.ron`, read beside its `ruleset.ron` (or from
//! the file its `style` names). It maps terrain tags and hexside features to fills, strokes and
//! marks, sides to counter colours, and says what a counter shows. Nothing here draws: the
//! views (`view::svg`, `view::text`) read a [`Style`].
//!
//! A title's style adds to its base's: each map (terrain, hexsides, sides, faces, markers,
//! kinds, areas) is extended entry by entry, and each value the title gives replaces the base's.
//! With no style at all, [`Style::default`] draws a readable map in neutral colours.

use crate::error::{Error, Result};
use crate::source::{load_ron, Cursor};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The style file as written: every field optional, so that a title's style adds to its base's.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Style")]
pub struct StyleFile {
    /// Hex size in pixels, centre to corner (default 32).
    #[serde(default)]
    pub hex_size: Option<f64>,
    /// Whether hex ids are printed in each hex (default: when `hex_size` is at least 20).
    #[serde(default)]
    pub hex_ids: Option<bool>,
    /// The page behind the map.
    #[serde(default)]
    pub background: Option<String>,
    /// The hex grid's lines.
    #[serde(default)]
    pub grid: Option<String>,
    /// The fill of a hex none of whose tags `terrain` names.
    #[serde(default)]
    pub default_fill: Option<String>,
    /// Terrain tags and how a hex with the tag is drawn. Order matters: a hex is filled by the
    /// first tag listed here that it has; the symbols of all its listed tags are drawn.
    #[serde(default)]
    pub terrain: IndexMap<String, TerrainStyle>,
    /// How elevation is shaded.
    #[serde(default)]
    pub elevation: Option<ElevationStyle>,
    /// Hexside features and how each is drawn, in drawing order (later on top).
    #[serde(default)]
    pub hexsides: IndexMap<String, HexsideStyle>,
    /// Named areas and how they are outlined; an area not listed is outlined in a colour of
    /// its own from a fixed palette.
    #[serde(default)]
    pub areas: IndexMap<String, AreaStyle>,
    /// The colour of a place's name and dot.
    #[serde(default)]
    pub places: Option<String>,
    /// Sides and their counters' colours.
    #[serde(default)]
    pub sides: IndexMap<String, SideStyle>,
    /// What a counter shows.
    #[serde(default)]
    pub counter: Option<CounterFile>,
    /// Counter faces (`face` of a unit) drawn differently from the front: a band across the top.
    #[serde(default)]
    pub faces: IndexMap<String, FaceStyle>,
    /// Markers drawn as badges on counters and hexes, with their text and colour. A marker not
    /// listed shows as a grey badge of its first two letters, unless `other_markers` is false.
    #[serde(default)]
    pub markers: IndexMap<String, MarkerStyle>,
    /// Whether markers `markers` does not list are shown (default true).
    #[serde(default)]
    pub other_markers: Option<bool>,
    /// Unit kinds with a symbol printed on the counter (`"artillery": "●"`).
    #[serde(default)]
    pub kinds: IndexMap<String, String>,
    /// The tracks a replay shows beside the turn (default: every track).
    #[serde(default)]
    pub tracks: Option<Vec<String>>,
}

/// How a terrain tag is drawn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainStyle {
    /// The hex's fill (for the first listed tag a hex has).
    #[serde(default)]
    pub fill: Option<String>,
    /// A symbol drawn small in the hex (`"♣"`), in `symbol_colour`.
    #[serde(default)]
    pub symbol: Option<String>,
    /// The symbol's colour (default: the grid's).
    #[serde(default)]
    pub symbol_colour: Option<String>,
    /// The character the terminal's text picture shows for the tag (default: its first letter).
    #[serde(default)]
    pub text: Option<char>,
}

/// How elevation is shaded: each level above the map's lowest darkens the hex by `step` of
/// `colour`; `contour`, when given, is drawn on hexsides between hexes of different levels.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ElevationStyle {
    /// The colour laid over higher hexes.
    pub colour: String,
    /// The opacity added per level (0 to 1).
    pub step: f64,
    /// The stroke of hexsides between levels.
    #[serde(default)]
    pub contour: Option<String>,
}

impl Default for ElevationStyle {
    fn default() -> Self {
        ElevationStyle {
            colour: "#6b4a2b".into(),
            step: 0.12,
            contour: Some("#8a6a45".into()),
        }
    }
}

/// How a hexside feature is drawn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum HexsideStyle {
    /// Along the hexside (a creek, a slope, an improved position).
    Edge(Stroke),
    /// Across the hexside, from one hex's centre to the other's (a road, a trail).
    Link(Stroke),
    /// A mark where the hexside's middle is (a ford, a bridge).
    Mark(MarkStyle),
    /// Not drawn.
    Hidden,
}

/// A line's colour, width and dashes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stroke {
    /// The colour.
    pub colour: String,
    /// The width, as a fraction of the hex size.
    #[serde(default = "default_width")]
    pub width: f64,
    /// SVG dashes, in fractions of the hex size (`[0.2, 0.1]`); none for a solid line.
    #[serde(default)]
    pub dash: Vec<f64>,
}

fn default_width() -> f64 {
    0.08
}

/// The shape of a [`HexsideStyle::Mark`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shape {
    /// A bar across the hexside, along the line between the two centres (a bridge).
    Bar,
    /// A dot on the hexside (a ford).
    Dot,
}

/// A mark on a hexside.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkStyle {
    /// Its shape.
    pub shape: Shape,
    /// Its fill.
    pub fill: String,
    /// Its outline.
    #[serde(default)]
    pub outline: Option<String>,
    /// Its size, as a fraction of the hex size.
    #[serde(default = "default_mark_size")]
    pub size: f64,
}

fn default_mark_size() -> f64 {
    0.3
}

/// How an area is outlined.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaStyle {
    /// The outline's colour; none hides the area.
    #[serde(default)]
    pub colour: Option<String>,
    /// The name written beside it (default: the area's own name).
    #[serde(default)]
    pub label: Option<String>,
}

/// A side's counters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideStyle {
    /// The counter's colour.
    pub fill: String,
    /// The text's colour.
    #[serde(default)]
    pub text: Option<String>,
}

/// What a counter shows, as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterFile {
    /// The counter's side as a fraction of the hex size (default 1.0).
    #[serde(default)]
    pub size: Option<f64>,
    /// The small line at the top: a template of unit fields (see [`Counter::top`]).
    #[serde(default)]
    pub top: Option<String>,
    /// The big line at the bottom, a template likewise.
    #[serde(default)]
    pub bottom: Option<String>,
    /// How far each counter of a stack is drawn from the one below, as a fraction of the hex
    /// size (default 0.1).
    #[serde(default)]
    pub stack_offset: Option<f64>,
}

/// What a counter shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Counter {
    /// The counter's side as a fraction of the hex size.
    pub size: f64,
    /// The top line: a template where `{name}`, `{id}`, `{side}`, `{kind}`, `{strength}`,
    /// `{rating}`, `{face}` and `{KEY}` for any of the unit's props (a prop's list item:
    /// `{KEY.N}`) are replaced; a field the unit lacks is left out.
    pub top: String,
    /// The bottom line, a template likewise.
    pub bottom: String,
    /// How far each counter of a stack is drawn from the one below, as a fraction of the hex.
    pub stack_offset: f64,
}

impl Default for Counter {
    fn default() -> Self {
        Counter {
            size: 1.0,
            top: "{name}".into(),
            bottom: "{strength}".into(),
            stack_offset: 0.1,
        }
    }
}

/// A counter face drawn differently.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaceStyle {
    /// The colour of the band across the counter's top.
    pub band: String,
}

/// A marker's badge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkerStyle {
    /// The badge's text (one to three characters read best); empty hides the marker.
    pub text: String,
    /// The badge's colour.
    #[serde(default)]
    pub fill: Option<String>,
}

/// A resolved style: the files of a ruleset and its bases merged, defaults filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    /// Hex size in pixels, centre to corner.
    pub hex_size: f64,
    /// Whether hex ids are printed.
    pub hex_ids: bool,
    /// The page behind the map.
    pub background: String,
    /// The grid's lines.
    pub grid: String,
    /// The fill of a hex whose tags `terrain` does not name.
    pub default_fill: String,
    /// See [`StyleFile::terrain`].
    pub terrain: IndexMap<String, TerrainStyle>,
    /// How elevation is shaded.
    pub elevation: ElevationStyle,
    /// See [`StyleFile::hexsides`].
    pub hexsides: IndexMap<String, HexsideStyle>,
    /// See [`StyleFile::areas`].
    pub areas: IndexMap<String, AreaStyle>,
    /// The colour of places.
    pub places: String,
    /// See [`StyleFile::sides`].
    pub sides: IndexMap<String, SideStyle>,
    /// What a counter shows.
    pub counter: Counter,
    /// See [`StyleFile::faces`].
    pub faces: IndexMap<String, FaceStyle>,
    /// See [`StyleFile::markers`].
    pub markers: IndexMap<String, MarkerStyle>,
    /// Whether unlisted markers show.
    pub other_markers: bool,
    /// See [`StyleFile::kinds`].
    pub kinds: IndexMap<String, String>,
    /// See [`StyleFile::tracks`]; `None` shows every track.
    pub tracks: Option<Vec<String>>,
}

impl Default for Style {
    fn default() -> Self {
        Style::from_files(std::iter::empty())
    }
}

/// Counter colours for sides a style does not list, in the order the ruleset lists its sides.
pub const SIDE_PALETTE: [&str; 6] = [
    "#3d5a99", "#a33b32", "#3f7f4a", "#8a6d1f", "#6b4a8a", "#2f7f86",
];

/// Fills for terrain tags a style does not list, chosen by the tag's name.
pub const TERRAIN_PALETTE: [&str; 8] = [
    "#e9e1c6", "#b9d3a0", "#d8c7a0", "#a9c6cf", "#d9b8a8", "#c9c9b0", "#bfd8b8", "#e0d0e0",
];

/// Outline colours for areas a style does not list, in the order the map lists them.
pub const AREA_PALETTE: [&str; 6] = [
    "#c0392b", "#8e44ad", "#16a085", "#d35400", "#2c3e50", "#7f8c8d",
];

impl Style {
    /// The style of these files, bases first, each adding to and overriding what came before.
    pub fn from_files<'a>(files: impl IntoIterator<Item = &'a StyleFile>) -> Style {
        let mut s = Style {
            hex_size: 32.0,
            hex_ids: true,
            background: "#f7f3e8".into(),
            grid: "#9a917c".into(),
            default_fill: "#efe8d2".into(),
            terrain: IndexMap::new(),
            elevation: ElevationStyle::default(),
            hexsides: IndexMap::new(),
            areas: IndexMap::new(),
            places: "#3a2f25".into(),
            sides: IndexMap::new(),
            counter: Counter::default(),
            faces: IndexMap::new(),
            markers: IndexMap::new(),
            other_markers: true,
            kinds: IndexMap::new(),
            tracks: None,
        };
        let mut hex_ids = None;
        for f in files {
            let set = |to: &mut String, from: &Option<String>| {
                if let Some(v) = from {
                    to.clone_from(v);
                }
            };
            if let Some(v) = f.hex_size {
                s.hex_size = v;
            }
            hex_ids = f.hex_ids.or(hex_ids);
            set(&mut s.background, &f.background);
            set(&mut s.grid, &f.grid);
            set(&mut s.default_fill, &f.default_fill);
            set(&mut s.places, &f.places);
            s.terrain.extend(f.terrain.clone());
            if let Some(e) = &f.elevation {
                s.elevation = e.clone();
            }
            s.hexsides.extend(f.hexsides.clone());
            s.areas.extend(f.areas.clone());
            s.sides.extend(f.sides.clone());
            if let Some(c) = &f.counter {
                let d = &mut s.counter;
                d.size = c.size.unwrap_or(d.size);
                set(&mut d.top, &c.top);
                set(&mut d.bottom, &c.bottom);
                d.stack_offset = c.stack_offset.unwrap_or(d.stack_offset);
            }
            s.faces.extend(f.faces.clone());
            s.markers.extend(f.markers.clone());
            s.other_markers = f.other_markers.unwrap_or(s.other_markers);
            s.kinds.extend(f.kinds.clone());
            if f.tracks.is_some() {
                s.tracks.clone_from(&f.tracks);
            }
        }
        s.hex_ids = hex_ids.unwrap_or(s.hex_size >= 20.0);
        s
    }

    /// The counter colours of `side`, the `index`-th side of the ruleset: the style's, else one
    /// of [`SIDE_PALETTE`]. Returns (fill, text).
    #[must_use]
    pub fn side_colours(&self, side: &str, index: usize) -> (&str, &str) {
        match self.sides.get(side) {
            Some(s) => (&s.fill, s.text.as_deref().unwrap_or("#ffffff")),
            None => (SIDE_PALETTE[index % SIDE_PALETTE.len()], "#ffffff"),
        }
    }

    /// The character the text picture shows for a hex with these tags: that of the first tag
    /// `terrain` lists, else the first letter of the first tag, else `.`.
    #[must_use]
    pub fn terrain_char<'a>(&self, tags: impl IntoIterator<Item = &'a str> + Clone) -> char {
        for (tag, t) in &self.terrain {
            if tags.clone().into_iter().any(|x| x == tag) {
                return t.text.unwrap_or_else(|| tag.chars().next().unwrap_or('.'));
            }
        }
        tags.into_iter()
            .next()
            .and_then(|t| t.chars().next())
            .unwrap_or('.')
    }
}

/// Reads a style file, checking its numbers and colours: each error stands at its place.
pub fn load(path: &Path) -> Result<StyleFile> {
    let (file, text): (StyleFile, String) = load_ron(path)?;
    check(&file, &text, path)?;
    Ok(file)
}

/// Whether `c` is a colour a style may give: `#` and 3, 4, 6 or 8 hex digits, `none`, or a CSS
/// colour name (letters only).
#[must_use]
pub fn is_colour(c: &str) -> bool {
    match c.strip_prefix('#') {
        Some(hex) => {
            [3, 4, 6, 8].contains(&hex.len()) && hex.bytes().all(|b| b.is_ascii_hexdigit())
        }
        None => !c.is_empty() && c.bytes().all(|b| b.is_ascii_alphabetic()),
    }
}

/// The colours and numbers of a style file that would draw nothing sensible, refused at their
/// place in `text`.
fn check(f: &StyleFile, text: &str, path: &Path) -> Result<()> {
    let mut colours: Vec<&str> = [&f.background, &f.grid, &f.default_fill, &f.places]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    for t in f.terrain.values() {
        colours.extend(t.fill.as_deref());
        colours.extend(t.symbol_colour.as_deref());
    }
    if let Some(e) = &f.elevation {
        colours.push(&e.colour);
        colours.extend(e.contour.as_deref());
    }
    for h in f.hexsides.values() {
        match h {
            HexsideStyle::Edge(s) | HexsideStyle::Link(s) => colours.push(&s.colour),
            HexsideStyle::Mark(m) => {
                colours.push(&m.fill);
                colours.extend(m.outline.as_deref());
            }
            HexsideStyle::Hidden => {}
        }
    }
    colours.extend(f.areas.values().filter_map(|a| a.colour.as_deref()));
    for s in f.sides.values() {
        colours.push(&s.fill);
        colours.extend(s.text.as_deref());
    }
    colours.extend(f.faces.values().map(|x| x.band.as_str()));
    colours.extend(f.markers.values().filter_map(|m| m.fill.as_deref()));
    let mut cur = Cursor::new(text, path);
    if let Some(bad) = colours.into_iter().find(|c| !is_colour(c)) {
        return Err(
            Error::at(cur.find_str(bad), format!("`{bad}` is not a colour")).with_help(Some(
                "write `#rrggbb`, `#rgb`, a CSS colour name such as `navy`, or `none`".into(),
            )),
        );
    }
    // Widths, dashes and mark sizes are fractions of the hex: each from 0 to 2.
    for (feature, h) in &f.hexsides {
        let numbers: Vec<f64> = match h {
            HexsideStyle::Edge(s) | HexsideStyle::Link(s) => std::iter::once(s.width)
                .chain(s.dash.iter().copied())
                .collect(),
            HexsideStyle::Mark(m) => vec![m.size],
            HexsideStyle::Hidden => Vec::new(),
        };
        if let Some(bad) = numbers.into_iter().find(|v| !(0.0..=2.0).contains(v)) {
            let mut cur = Cursor::new(text, path);
            return Err(Error::at(
                cur.find_str(feature),
                format!("hexside `{feature}`: {bad} is not a fraction of the hex from 0 to 2"),
            ));
        }
    }
    let sizes = [
        ("hex_size", f.hex_size, 4.0, 400.0),
        ("size", f.counter.as_ref().and_then(|c| c.size), 0.1, 2.0),
        (
            "stack_offset",
            f.counter.as_ref().and_then(|c| c.stack_offset),
            0.0,
            1.0,
        ),
        ("step", f.elevation.as_ref().map(|e| e.step), 0.0, 1.0),
    ];
    for (key, value, lo, hi) in sizes {
        if let Some(v) = value.filter(|v| !(lo..=hi).contains(v)) {
            let mut cur = Cursor::new(text, path);
            cur.skip_to(key);
            return Err(Error::at(
                cur.here(),
                format!("`{key}` is {v}; it goes from {lo} to {hi}"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_title_adds_to_its_base_and_overrides_it() {
        let base: StyleFile = ron::from_str(
            r##"Style(hex_size: Some(30), terrain: {"woods": (fill: Some("#0a0"))}, sides: {"blue": (fill: "#00f")})"##,
        )
        .unwrap();
        let title: StyleFile = ron::from_str(
            r##"Style(terrain: {"clear": (fill: Some("#eee"))}, sides: {"blue": (fill: "#009")})"##,
        )
        .unwrap();
        let s = Style::from_files([&base, &title]);
        assert_eq!(s.hex_size, 30.0);
        assert_eq!(s.terrain.keys().collect::<Vec<_>>(), ["woods", "clear"]);
        assert_eq!(s.side_colours("blue", 0).0, "#009");
        assert_eq!(s.side_colours("red", 1).0, SIDE_PALETTE[1]);
        assert!(s.hex_ids);
    }

    #[test]
    fn colours_are_checked() {
        assert!(is_colour("#a0b"));
        assert!(is_colour("#a0b0c0"));
        assert!(is_colour("navy"));
        assert!(!is_colour("#a0"));
        assert!(!is_colour("red\" onload=\"x"));
        let text = "Style(grid: Some(\"#12\"))";
        let f: StyleFile = ron::from_str(text).unwrap();
        let e = check(&f, text, Path::new("style.ron")).unwrap_err();
        assert!(e.to_string().contains("1:"), "{e}");
        assert!(e.to_string().contains("`#12` is not a colour"), "{e}");
    }

    #[test]
    fn hexside_widths_are_fractions_of_the_hex() {
        let text = "Style(hexsides: {\"road\": Link((colour: \"#000\", width: 40))})";
        let f: StyleFile = crate::source::parse_ron(text, Path::new("style.ron")).unwrap();
        let e = check(&f, text, Path::new("style.ron")).unwrap_err();
        assert!(e.to_string().contains("hexside `road`: 40"), "{e}");
    }

    #[test]
    fn terrain_chars_follow_the_style() {
        let mut s = Style::default();
        s.terrain.insert(
            "woods".into(),
            TerrainStyle {
                text: Some('^'),
                ..TerrainStyle::default()
            },
        );
        assert_eq!(s.terrain_char(["clear", "woods"]), '^');
        assert_eq!(s.terrain_char(["clear"]), 'c');
        assert_eq!(s.terrain_char([]), '.');
    }
}
