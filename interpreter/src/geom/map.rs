//! Maps: what is in each hex (terrain tags, elevation), on each hexside
//! (creeks, fords, roads ...), and the named places and areas a ruleset refers to.
//!
//! [`MapFile`] is the RON format a person writes; [`Map`] is the checked,
//! indexed form the engine uses. Terrain tags and hexside features are kept
//! as bit sets so that line of sight and movement search test them cheaply.

use crate::error::{Error, Location, Result};
use crate::geom::hex::{Hex, Hexside};
use crate::geom::numbering::{FastLayout, IdError, Numbering, Orientation};
use crate::source::{help_choosing, load_ron, parse_ron, Cursor};
use indexmap::IndexMap;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The map file as written.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Map")]
pub struct MapFile {
    /// The map's name.
    pub name: String,
    /// How hexes are numbered, with the map's bounds.
    pub numbering: Numbering,
    /// Terrain codes used in `terrain` rows, each standing for one or more tags.
    pub terrain_codes: IndexMap<String, Vec<String>>,
    /// Hexside features that `hexsides` and `paths` may use.
    #[serde(default)]
    pub features: Vec<String>,
    /// One string per row, top row first; codes separated by spaces, in
    /// increasing column number. `_` marks a place that is on no sheet.
    pub terrain: Vec<String>,
    /// Optional rows of elevation levels, same shape as `terrain`.
    #[serde(default)]
    pub elevation: Vec<String>,
    /// Extra terrain tags for single hexes, added to those of the row code.
    #[serde(default)]
    pub hex_tags: IndexMap<String, Vec<String>>,
    /// Features on single hexsides: `("0405/0406", ["creek", "ford"])`.
    #[serde(default)]
    pub hexsides: Vec<(String, Vec<String>)>,
    /// Features along chains of hexes, such as roads: `("road", ["0101", "0102"])`.
    #[serde(default)]
    pub paths: Vec<(String, Vec<String>)>,
    /// Named places: one hex each.
    #[serde(default)]
    pub places: IndexMap<String, String>,
    /// Named areas: entry areas, victory areas, set-up zones.
    #[serde(default)]
    pub areas: IndexMap<String, Vec<String>>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    on_map: bool,
    tags: u64,
    elevation: i32,
    /// The feature bits of each of the six sides, by direction: the movement search asks
    /// for a side at every step, and an array beats a hash lookup there.
    sides: [u64; 6],
}

/// A group of hexes asked, again and again, whether it holds a hex and how far a
/// hex is from the nearest of its hexes (a bot's goals). Distances are remembered
/// per grid hex as they are asked, so a group reused for many moves measures each
/// hex once.
#[derive(Debug, Default)]
pub struct HexGroup {
    list: Vec<Hex>,
    set: HashSet<Hex>,
    nearest: std::cell::RefCell<Vec<u32>>,
}

impl HexGroup {
    /// The group of these hexes (in this order; duplicates are harmless).
    #[must_use]
    pub fn new(list: Vec<Hex>) -> Self {
        let set = list.iter().copied().collect();
        HexGroup {
            list,
            set,
            nearest: std::cell::RefCell::default(),
        }
    }

    /// The hexes, in the order given.
    #[must_use]
    pub fn list(&self) -> &[Hex] {
        &self.list
    }

    /// Whether the group holds `h`.
    #[must_use]
    pub fn contains(&self, h: Hex) -> bool {
        self.set.contains(&h)
    }

    /// The hex distance from `h` to the nearest hex of the group; `None` if it is empty.
    #[must_use]
    pub fn nearest(&self, map: &Map, h: Hex) -> Option<u32> {
        const UNKNOWN: u32 = u32::MAX;
        let measure = || self.list.iter().map(|g| h.distance(*g)).min();
        let Some(i) = map.index(h) else {
            return measure();
        };
        let mut memo = self.nearest.borrow_mut();
        if memo.is_empty() {
            memo.resize(map.grid_len(), UNKNOWN);
        }
        if memo[i] == UNKNOWN {
            memo[i] = measure()?;
        }
        Some(memo[i])
    }
}

/// A checked, indexed map.
#[derive(Clone, Debug)]
pub struct Map {
    /// The map's name.
    pub name: String,
    /// How hexes are numbered.
    pub numbering: Numbering,
    bounds: (i32, i32, i32, i32),
    layout: FastLayout,
    cells: Vec<Cell>,
    tag_names: Vec<String>,
    feature_names: Vec<String>,
    hexsides: HashMap<Hexside, u64>,
    places: IndexMap<String, Hex>,
    areas: IndexMap<String, Vec<Hex>>,
    /// See [`Map::neighbour_cells`]; made on first use.
    neighbour_cells: std::cell::OnceCell<Vec<[Option<u32>; 6]>>,
    /// The edge areas (`edge`, `edge:north` ...) asked for so far: each is a scan of the
    /// whole map, and rules ask for the same edge again and again.
    edge_areas: std::cell::RefCell<HashMap<String, std::rc::Rc<Vec<Hex>>>>,
}

/// Bit sets hold at most this many distinct tags or features.
const MAX_NAMES: usize = 64;

/// The most hexes a map's grid may span (a thousand by a thousand): the grid is allocated
/// whole, so a typo in a range must not ask for gigabytes.
const MAX_GRID: i64 = 1 << 20;

/// The largest printed column or row number, and sheet offset, in either direction: far past
/// any map, and small enough that no sum of them overflows.
const MAX_COORD: i32 = 1 << 20;

/// Checks the numbering's ranges before any of them is used: each runs from low to high, within
/// [`MAX_COORD`], the digits per number fit a whole number, and the grid they span holds at most
/// [`MAX_GRID`] hexes. Errors stand at the `numbering` key.
fn check_numbering(n: &Numbering, text: &str, path: &Path) -> Result<()> {
    let mut cur = Cursor::new(text, path);
    cur.skip_to("numbering");
    let at = cur.here();
    let fail = |m: String| Err(Error::at(at.clone(), m));
    if !(1..=6).contains(&n.digits) {
        return fail(format!(
            "numbering: `digits` is {}; a number of a hex id has 1 to 6 digits",
            n.digits
        ));
    }
    let mut ranges = Vec::new();
    if n.sheets.is_empty() {
        ranges.push(("column_range".to_string(), n.column_range));
        ranges.push(("row_range".to_string(), n.row_range));
    }
    for s in &n.sheets {
        ranges.push((format!("the columns of sheet `{}`", s.prefix), s.columns));
        ranges.push((format!("the rows of sheet `{}`", s.prefix), s.rows));
    }
    for (what, (lo, hi)) in &ranges {
        if lo > hi {
            return fail(format!(
                "numbering: {what} ({lo}, {hi}) runs from high to low: write ({hi}, {lo})"
            ));
        }
    }
    let offsets = n
        .sheets
        .iter()
        .map(|s| s.offset.0)
        .chain(n.sheets.iter().map(|s| s.offset.1));
    let numbers = ranges
        .iter()
        .flat_map(|(_, (lo, hi))| [*lo, *hi])
        .chain(offsets);
    if let Some(far) = numbers
        .into_iter()
        .find(|v| v.unsigned_abs() > MAX_COORD.unsigned_abs())
    {
        return fail(format!(
            "numbering: {far} is too far out for a column, row or sheet offset (at most {MAX_COORD} either way)"
        ));
    }
    let (c0, c1, r0, r1) = n.bounds();
    let (width, height) = (i64::from(c1 - c0) + 1, i64::from(r1 - r0) + 1);
    if width * height > MAX_GRID {
        return fail(format!(
            "numbering: the map spans {width} columns by {height} rows; a map may span at most {MAX_GRID} hexes"
        ));
    }
    Ok(())
}

impl Map {
    /// Loads and checks a map file.
    pub fn load(path: &Path) -> Result<Map> {
        let (file, text): (MapFile, String) = load_ron(path)?;
        Map::from_file(file, &text, path)
    }

    /// Parses and checks map text that came from `path` (which may be an
    /// example file holding the map inline).
    pub fn from_str(text: &str, path: &Path) -> Result<Map> {
        let file: MapFile = parse_ron(text, path)?;
        Map::from_file(file, text, path)
    }

    /// Checks a parsed map file; `text` is its source, used to place errors.
    pub fn from_file(file: MapFile, text: &str, path: &Path) -> Result<Map> {
        MapBuilder::new(file, text, path)?.build()
    }

    /// The index of a hex in `cells`, if inside the bounding box.
    #[inline]
    /// The hex's position in the map's dense row-major grid (`None` off the
    /// grid): a key for per-hex caches.
    #[must_use]
    pub fn index(&self, h: Hex) -> Option<usize> {
        let (col, row) = self.layout.hex_to_offset(h);
        let (c0, c1, r0, r1) = self.bounds;
        if col < c0 || col > c1 || row < r0 || row > r1 {
            return None;
        }
        let width = (c1 - c0 + 1) as usize;
        Some((col - c0) as usize + (row - r0) as usize * width)
    }

    #[inline]
    fn cell(&self, h: Hex) -> Option<&Cell> {
        self.index(h).map(|i| &self.cells[i]).filter(|c| c.on_map)
    }

    /// For a hex at grid `index` (see [`Map::index`]): whether it is on the map, its terrain
    /// bits, and the feature bits of its side in direction `dir` — what a search needs at
    /// each step, read once.
    #[inline]
    #[must_use]
    pub(crate) fn step_bits(&self, index: usize, dir: usize) -> (bool, u64, u64) {
        let c = &self.cells[index];
        (c.on_map, c.tags, c.sides[dir])
    }

    /// The elevation of the grid cell at `index` (see [`Self::step_bits`]).
    pub(crate) fn cell_elevation(&self, index: usize) -> i32 {
        self.cells[index].elevation
    }

    /// Whether the hex is on the map.
    #[must_use]
    pub fn contains(&self, h: Hex) -> bool {
        self.cell(h).is_some()
    }

    /// Parses an id and checks that it is on the map.
    pub fn parse(&self, id: &str) -> Result<Hex, IdError> {
        let h = self.numbering.parse(id)?;
        if self.contains(h) {
            Ok(h)
        } else {
            Err(IdError::OffMap(id.to_string()))
        }
    }

    /// The printed id of a hex (`?q,r` for a hex off the map, which only a bug produces).
    #[must_use]
    pub fn id(&self, h: Hex) -> String {
        let (col, row) = self.layout.hex_to_offset(h);
        self.numbering
            .format_offset(col, row)
            .unwrap_or_else(|| format!("?{},{}", h.q, h.r))
    }

    /// A distance no two hexes of the map are further apart than (the grid's columns plus
    /// rows): a radius beyond it reaches no more hexes.
    #[must_use]
    pub fn span(&self) -> u32 {
        let (c0, c1, r0, r1) = self.bounds;
        ((c1 - c0) + (r1 - r0)).max(0) as u32 + 1
    }

    /// How many cells the dense grid behind [`Map::index`] has.
    #[must_use]
    pub fn grid_len(&self) -> usize {
        let (c0, c1, r0, r1) = self.bounds;
        ((c1 - c0 + 1) * (r1 - r0 + 1)) as usize
    }

    /// For each grid index (see [`Map::index`]), the grid indices of the six neighbours by
    /// direction (`None` off the grid): a search steps by index without converting hexes.
    #[must_use]
    pub fn neighbour_cells(&self) -> &[[Option<u32>; 6]] {
        self.neighbour_cells.get_or_init(|| {
            let (c0, c1, r0, r1) = self.bounds;
            let mut out = vec![[None; 6]; self.grid_len()];
            for row in r0..=r1 {
                for col in c0..=c1 {
                    let h = self.numbering.offset_to_hex(col, row);
                    let Some(i) = self.index(h) else { continue };
                    for (d, n) in h.neighbours().into_iter().enumerate() {
                        out[i][d] = self.index(n).map(|j| j as u32);
                    }
                }
            }
            out
        })
    }

    /// Every hex on the map in row-major printed order.
    #[must_use]
    pub fn hexes(&self) -> Vec<Hex> {
        let (c0, c1, r0, r1) = self.bounds;
        let mut out = Vec::new();
        for row in r0..=r1 {
            for col in c0..=c1 {
                let h = self.numbering.offset_to_hex(col, row);
                if self.contains(h) {
                    out.push(h);
                }
            }
        }
        out
    }

    /// The on-map neighbours of a hex.
    pub fn neighbours(&self, h: Hex) -> impl Iterator<Item = Hex> + '_ {
        h.neighbours().into_iter().filter(|n| self.contains(*n))
    }

    /// The terrain bits and elevation of a hex at once ((0, 0) off the map).
    #[inline]
    #[must_use]
    pub fn tags_and_elevation(&self, h: Hex) -> (u64, i32) {
        self.cell(h).map_or((0, 0), |c| (c.tags, c.elevation))
    }

    /// The bit of a terrain tag, if the map uses it.
    #[must_use]
    pub fn tag_bit(&self, tag: &str) -> Option<u64> {
        self.tag_names
            .iter()
            .position(|t| t == tag)
            .map(|i| 1u64 << i)
    }

    /// The bit of a hexside feature, if the map declares it.
    #[must_use]
    pub fn feature_bit(&self, feature: &str) -> Option<u64> {
        self.feature_names
            .iter()
            .position(|t| t == feature)
            .map(|i| 1u64 << i)
    }

    /// The bit set of a list of tags; tags the map does not use add nothing.
    #[must_use]
    pub fn tag_mask<'a>(&self, tags: impl IntoIterator<Item = &'a String>) -> u64 {
        tags.into_iter()
            .filter_map(|t| self.tag_bit(t))
            .fold(0, |a, b| a | b)
    }

    /// The bit set of a list of features; features not declared add nothing.
    #[must_use]
    pub fn feature_mask<'a>(&self, features: impl IntoIterator<Item = &'a String>) -> u64 {
        features
            .into_iter()
            .filter_map(|t| self.feature_bit(t))
            .fold(0, |a, b| a | b)
    }

    /// The terrain tag bits of a hex (0 off the map).
    #[inline]
    #[must_use]
    pub fn tag_bits(&self, h: Hex) -> u64 {
        self.cell(h).map_or(0, |c| c.tags)
    }

    /// The terrain tags of a hex.
    #[must_use]
    pub fn terrain(&self, h: Hex) -> Vec<&str> {
        names_of(self.tag_bits(h), &self.tag_names)
    }

    /// Whether a hex carries a terrain tag.
    #[must_use]
    pub fn has_terrain(&self, h: Hex, tag: &str) -> bool {
        self.tag_bit(tag).is_some_and(|b| self.tag_bits(h) & b != 0)
    }

    /// The elevation level of a hex (0 off the map).
    #[inline]
    #[must_use]
    pub fn elevation(&self, h: Hex) -> i32 {
        self.cell(h).map_or(0, |c| c.elevation)
    }

    /// The feature bits of the side between two hexes (0 if not adjacent).
    #[must_use]
    pub fn side_bits(&self, a: Hex, b: Hex) -> u64 {
        if let (Some(i), Some(d)) = (self.index(a), a.direction_to(b)) {
            return self.cells[i].sides[d];
        }
        Hexside::between(a, b)
            .and_then(|s| self.hexsides.get(&s).copied())
            .unwrap_or(0)
    }

    /// The features of the side between two hexes.
    #[must_use]
    pub fn hexside(&self, a: Hex, b: Hex) -> Vec<&str> {
        names_of(self.side_bits(a, b), &self.feature_names)
    }

    /// A named place.
    #[must_use]
    pub fn place(&self, name: &str) -> Option<Hex> {
        self.places.get(name).copied()
    }

    /// The named places.
    #[must_use]
    pub fn places(&self) -> &IndexMap<String, Hex> {
        &self.places
    }

    /// A named area, a map edge: `edge:north`, `edge:east` ... (directions
    /// of the map's orientation), or `edge`: every edge hex.
    #[must_use]
    pub fn area(&self, name: &str) -> Option<Vec<Hex>> {
        match self.named_area(name) {
            Some(a) => Some(a.to_vec()),
            None => self.edge_area(name).map(|a| a.to_vec()),
        }
    }

    /// An area the map file declares by name.
    #[must_use]
    pub fn named_area(&self, name: &str) -> Option<&[Hex]> {
        self.areas.get(name).map(Vec::as_slice)
    }

    /// An edge area of [`Map::area`] (`edge`, `edge:north` ...), worked out on first use and
    /// shared after; `None` for a name that is not one.
    #[must_use]
    pub fn edge_area(&self, name: &str) -> Option<std::rc::Rc<Vec<Hex>>> {
        if let Some(a) = self.edge_areas.borrow().get(name) {
            return Some(a.clone());
        }
        let a = std::rc::Rc::new(self.scan_edge(name)?);
        self.edge_areas
            .borrow_mut()
            .insert(name.to_string(), a.clone());
        Some(a)
    }

    /// The hexes of an edge area, from a scan of the map.
    fn scan_edge(&self, name: &str) -> Option<Vec<Hex>> {
        if name == "edge" {
            // Every hex on any edge of the map.
            return Some(
                self.hexes()
                    .into_iter()
                    .filter(|h| (0..6).any(|d| !self.contains(h.neighbour(d))))
                    .collect(),
            );
        }
        let dir = name.strip_prefix("edge:")?;
        let dirs = direction_names(self.numbering.orientation);
        let edge_dirs: Vec<usize> = match dir {
            // A straight edge touches two directions of a hex.
            // A straight edge faces one direction; a jagged one faces two
            // (flat-top east = north-east + south-east).
            "north" | "south" | "east" | "west" => match dirs.iter().position(|n| *n == dir) {
                Some(i) => vec![i],
                None => dirs
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| n.contains(dir))
                    .map(|(i, _)| i)
                    .collect(),
            },
            _ => return None,
        };
        Some(
            self.hexes()
                .into_iter()
                .filter(|h| edge_dirs.iter().any(|&d| !self.contains(h.neighbour(d))))
                .collect(),
        )
    }

    /// The hexside features the map declares, in its order.
    #[must_use]
    pub fn feature_names(&self) -> &[String] {
        &self.feature_names
    }

    /// The names of the areas declared by the map.
    pub fn area_names(&self) -> impl Iterator<Item = &str> {
        self.areas.keys().map(String::as_str)
    }

    /// The name of a direction index on this map (`north`, `north-east` ...).
    #[must_use]
    pub fn direction_name(&self, dir: usize) -> &'static str {
        direction_names(self.numbering.orientation)[dir % 6]
    }
}

/// Direction names by index for an orientation.
#[must_use]
pub fn direction_names(o: Orientation) -> [&'static str; 6] {
    match o {
        Orientation::FlatTop => [
            "north",
            "north-east",
            "south-east",
            "south",
            "south-west",
            "north-west",
        ],
        Orientation::PointyTop => [
            "north-west",
            "north-east",
            "east",
            "south-east",
            "south-west",
            "west",
        ],
    }
}

fn names_of(bits: u64, names: &[String]) -> Vec<&str> {
    names
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1u64 << i) != 0)
        .map(|(_, n)| n.as_str())
        .collect()
}

/// Turns a [`MapFile`] into a [`Map`], reporting each problem at its place.
struct MapBuilder<'a> {
    file: MapFile,
    cursor: Cursor<'a>,
    map: Map,
}

impl<'a> MapBuilder<'a> {
    fn new(file: MapFile, text: &'a str, path: &'a Path) -> Result<Self> {
        let cursor = Cursor::new(text, path);
        let numbering = file.numbering.clone();
        if numbering.sheets.is_empty() && numbering.column_range == (0, 0) {
            return Err(Error::at(
                Location::file(path),
                "numbering needs `column_range` and `row_range` (or `sheets`)",
            ));
        }
        check_numbering(&numbering, text, path)?;
        let bounds = numbering.bounds();
        let (c0, c1, r0, r1) = bounds;
        let size = ((c1 - c0 + 1) * (r1 - r0 + 1)).max(0) as usize;
        let mut tag_names: Vec<String> = Vec::new();
        for tags in file.terrain_codes.values() {
            for t in tags {
                if !tag_names.contains(t) {
                    tag_names.push(t.clone());
                }
            }
        }
        for tags in file.hex_tags.values() {
            for t in tags {
                if !tag_names.contains(t) {
                    tag_names.push(t.clone());
                }
            }
        }
        if tag_names.len() > MAX_NAMES || file.features.len() > MAX_NAMES {
            return Err(Error::at(
                Location::file(path),
                "a map may use at most 64 terrain tags and 64 hexside features",
            ));
        }
        let layout = numbering.fast_layout();
        let map = Map {
            name: file.name.clone(),
            numbering,
            bounds,
            layout,
            cells: vec![Cell::default(); size],
            tag_names,
            feature_names: file.features.clone(),
            hexsides: HashMap::default(),
            places: IndexMap::new(),
            areas: IndexMap::new(),
            neighbour_cells: std::cell::OnceCell::new(),
            edge_areas: std::cell::RefCell::default(),
        };
        Ok(MapBuilder { file, cursor, map })
    }

    fn build(mut self) -> Result<Map> {
        self.terrain_rows()?;
        self.elevation_rows()?;
        self.hex_tags()?;
        self.hexsides()?;
        self.paths()?;
        self.places_and_areas()?;
        Ok(self.map)
    }

    fn hex(&mut self, id: &str) -> Result<Hex> {
        let at = self.cursor.find_str(id);
        self.map.parse(id).map_err(|e| Error::at(at, e.to_string()))
    }

    fn rows_shape(&self) -> (i32, i32, i32, i32) {
        self.map.bounds
    }

    fn terrain_rows(&mut self) -> Result<()> {
        let (c0, c1, r0, r1) = self.rows_shape();
        let width = (c1 - c0 + 1) as usize;
        let expected_rows = (r1 - r0 + 1) as usize;
        self.cursor.skip_to("terrain:");
        let rows = std::mem::take(&mut self.file.terrain);
        if rows.len() != expected_rows {
            return Err(Error::at(
                self.cursor.here(),
                format!(
                    "`terrain` has {} rows; the map has {expected_rows} (rows {r0} to {r1})",
                    rows.len()
                ),
            ));
        }
        for (ri, row) in rows.iter().enumerate() {
            let at = self.cursor.find_str(row);
            let codes: Vec<&str> = row.split_whitespace().collect();
            if codes.len() != width {
                return Err(Error::at(
                    at,
                    format!(
                        "terrain row {} has {} codes; the map is {width} columns wide",
                        r0 + ri as i32,
                        codes.len()
                    ),
                ));
            }
            for (ci, code) in codes.iter().enumerate() {
                let (col, rowno) = (c0 + ci as i32, r0 + ri as i32);
                if *code == "_" || !self.map.numbering.on_map(col, rowno) {
                    continue;
                }
                let tags = self.file.terrain_codes.get(*code).ok_or_else(|| {
                    let col_at = Location::new(&at.file, at.line, at.col + column_offset(row, ci));
                    let hint =
                        help_choosing(code, self.file.terrain_codes.keys().map(String::as_str));
                    Error::at(col_at, format!("unknown terrain code `{code}`"))
                        .with_help(Some(hint))
                })?;
                let bits = self.map.tag_mask(tags);
                let h = self.map.numbering.offset_to_hex(col, rowno);
                let idx = self.map.index(h).expect("inside bounds by construction");
                self.map.cells[idx] = Cell {
                    on_map: true,
                    tags: bits,
                    ..Cell::default()
                };
            }
        }
        Ok(())
    }

    fn elevation_rows(&mut self) -> Result<()> {
        if self.file.elevation.is_empty() {
            return Ok(());
        }
        let (c0, c1, r0, r1) = self.rows_shape();
        let width = (c1 - c0 + 1) as usize;
        self.cursor.skip_to("elevation:");
        let rows = std::mem::take(&mut self.file.elevation);
        if rows.len() != (r1 - r0 + 1) as usize {
            return Err(Error::at(
                self.cursor.here(),
                format!(
                    "`elevation` has {} rows; the map has {}",
                    rows.len(),
                    r1 - r0 + 1
                ),
            ));
        }
        for (ri, row) in rows.iter().enumerate() {
            let at = self.cursor.find_str(row);
            let levels: Vec<&str> = row.split_whitespace().collect();
            if levels.len() != width {
                return Err(Error::at(
                    at,
                    format!(
                        "elevation row {} has {} entries; the map is {width} columns wide",
                        r0 + ri as i32,
                        levels.len()
                    ),
                ));
            }
            for (ci, level) in levels.iter().enumerate() {
                if *level == "_" {
                    continue;
                }
                let value: i32 = level.parse().map_err(|_| {
                    let col_at = Location::new(&at.file, at.line, at.col + column_offset(row, ci));
                    Error::at(col_at, format!("elevation `{level}` is not a whole number"))
                })?;
                let h = self
                    .map
                    .numbering
                    .offset_to_hex(c0 + ci as i32, r0 + ri as i32);
                if let Some(idx) = self.map.index(h) {
                    self.map.cells[idx].elevation = value;
                }
            }
        }
        Ok(())
    }

    fn hex_tags(&mut self) -> Result<()> {
        let extra = std::mem::take(&mut self.file.hex_tags);
        for (id, tags) in &extra {
            let h = self.hex(id)?;
            let bits = self.map.tag_mask(tags);
            let idx = self.map.index(h).expect("parsed hexes are inside bounds");
            self.map.cells[idx].tags |= bits;
        }
        Ok(())
    }

    fn feature(&mut self, name: &str) -> Result<u64> {
        let at = self.cursor.find_str(name);
        self.map.feature_bit(name).ok_or_else(|| {
            let hint = help_choosing(name, self.map.feature_names.iter().map(String::as_str));
            Error::at(
                at,
                format!("hexside feature `{name}` is not declared in `features`"),
            )
            .with_help(Some(hint))
        })
    }

    fn add_side(&mut self, a: Hex, b: Hex, bits: u64, at: Location) -> Result<()> {
        let side = Hexside::between(a, b).ok_or_else(|| {
            Error::at(
                at,
                format!(
                    "{} and {} are not adjacent, so they share no hexside",
                    self.map.id(a),
                    self.map.id(b)
                ),
            )
        })?;
        *self.map.hexsides.entry(side).or_default() |= bits;
        for (from, to) in [(a, b), (b, a)] {
            if let (Some(i), Some(d)) = (self.map.index(from), from.direction_to(to)) {
                self.map.cells[i].sides[d] |= bits;
            }
        }
        Ok(())
    }

    fn hexsides(&mut self) -> Result<()> {
        self.cursor.skip_to("hexsides:");
        let sides = std::mem::take(&mut self.file.hexsides);
        for (pair, features) in &sides {
            let at = self.cursor.find_str(pair);
            let (a, b) = pair.split_once('/').ok_or_else(|| {
                Error::at(
                    at.clone(),
                    format!(
                        "hexside `{pair}` should be two hex ids joined by `/`, such as `0405/0406`"
                    ),
                )
            })?;
            let parse = |id: &str| {
                self.map
                    .parse(id)
                    .map_err(|e| Error::at(at.clone(), e.to_string()))
            };
            let (a, b) = (parse(a)?, parse(b)?);
            let mut bits = 0;
            for f in features {
                bits |= self.feature(f)?;
            }
            self.add_side(a, b, bits, at)?;
        }
        Ok(())
    }

    fn paths(&mut self) -> Result<()> {
        self.cursor.skip_to("paths:");
        let paths = std::mem::take(&mut self.file.paths);
        for (feature, ids) in &paths {
            let bit = self.feature(feature)?;
            let mut prev: Option<Hex> = None;
            for id in ids {
                let at = self.cursor.find_str(id);
                let h = self
                    .map
                    .parse(id)
                    .map_err(|e| Error::at(at.clone(), e.to_string()))?;
                if let Some(p) = prev {
                    self.add_side(p, h, bit, at)?;
                }
                prev = Some(h);
            }
        }
        Ok(())
    }

    fn places_and_areas(&mut self) -> Result<()> {
        let places = std::mem::take(&mut self.file.places);
        for (name, id) in &places {
            self.cursor.skip_to(name);
            let h = self.hex(id)?;
            self.map.places.insert(name.clone(), h);
        }
        let areas = std::mem::take(&mut self.file.areas);
        for (name, ids) in &areas {
            self.cursor.skip_to(name);
            let mut hexes = Vec::with_capacity(ids.len());
            for id in ids {
                hexes.push(self.hex(id)?);
            }
            self.map.areas.insert(name.clone(), hexes);
        }
        Ok(())
    }
}

/// The character offset of the `n`-th whitespace-separated word of a row.
fn column_offset(row: &str, n: usize) -> usize {
    let mut seen = 0;
    let mut in_word = false;
    for (i, c) in row.char_indices() {
        if c.is_whitespace() {
            in_word = false;
        } else if !in_word {
            if seen == n {
                return i;
            }
            seen += 1;
            in_word = true;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"Map(
    name: "t",
    numbering: (column_range: (1, 3), row_range: (1, 2)),
    terrain_codes: {".": ["clear"], "f": ["forest"], "fr": ["forest", "rough"]},
    features: ["creek", "ford", "road"],
    terrain: [
        ". f fr",
        ". . f",
    ],
    elevation: ["0 1 2", "0 0 1"],
    hexsides: [("0101/0102", ["creek", "ford"])],
    paths: [("road", ["0101", "0201", "0301"])],
    places: {"Mill": "0202"},
    areas: {"entry": ["0101", "0102"]},
)"#;

    fn small() -> Map {
        Map::from_str(SMALL, Path::new("small.ron")).unwrap()
    }

    #[test]
    fn terrain_elevation_and_sides() {
        let m = small();
        let h = m.parse("0301").unwrap();
        assert_eq!(m.terrain(h), vec!["forest", "rough"]);
        assert_eq!(m.elevation(h), 2);
        let (a, b) = (m.parse("0101").unwrap(), m.parse("0102").unwrap());
        assert_eq!(m.hexside(b, a), vec!["creek", "ford"]);
        assert_eq!(m.hexside(a, m.parse("0201").unwrap()), vec!["road"]);
        assert_eq!(m.place("Mill"), Some(m.parse("0202").unwrap()));
        assert_eq!(m.hexes().len(), 6);
        assert!(m.parse("0401").is_err());
    }

    #[test]
    fn edges() {
        let m = small();
        let north: Vec<String> = m
            .area("edge:north")
            .unwrap()
            .into_iter()
            .map(|h| m.id(h))
            .collect();
        assert!(north.contains(&"0101".to_string()));
        assert!(!north.contains(&"0102".to_string()));
    }

    #[test]
    fn an_edge_is_scanned_once_and_a_declared_area_is_not_an_edge() {
        let m = small();
        let first = m.edge_area("edge").unwrap();
        assert!(std::rc::Rc::ptr_eq(&first, &m.edge_area("edge").unwrap()));
        assert_eq!(m.area("edge").unwrap(), *first);
        // Every hex of this 3 x 2 map is on its edge.
        assert_eq!(first.len(), 6);
        assert_eq!(m.named_area("entry").map(<[Hex]>::len), Some(2));
        assert!(m.edge_area("entry").is_none());
        assert!(m.named_area("edge").is_none());
        assert!(m.area("edge:up").is_none());
    }

    #[test]
    fn unknown_code_is_placed() {
        let bad = SMALL.replace("\". . f\"", "\". x f\"");
        let err = Map::from_str(&bad, Path::new("small.ron"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "small.ron:8:12: unknown terrain code `x` (the choices are `.`, `f`, `fr`)"
        );
    }

    #[test]
    fn off_map_hex_is_placed() {
        let bad = SMALL.replace("\"Mill\": \"0202\"", "\"Mill\": \"0909\"");
        let err = Map::from_str(&bad, Path::new("small.ron"))
            .unwrap_err()
            .to_string();
        assert_eq!(err, "small.ron:13:23: hex `0909` is off the map");
    }

    #[test]
    fn non_adjacent_side_is_an_error() {
        let bad = SMALL.replace("0101/0102", "0101/0301");
        let err = Map::from_str(&bad, Path::new("small.ron"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("not adjacent"), "{err}");
    }
}
