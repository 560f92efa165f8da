//! The map and the units as SVG: every hex's terrain and elevation, the hexside features, the
//! named areas and places, the hex ids, and each unit as a counter in its side's colour with
//! the label, face, markers and facing its ruleset's [`Style`] asks for.
//!
//! [`Board`] does the geometry (a hex's centre, its corners, a hexside's ends) for flat- and
//! pointy-top maps alike, from the axial coordinates the numbering gives, so sheet prefixes and
//! columns numbered right to left need nothing of their own. Output is deterministic: the same
//! map, state and style give the same bytes.
//!
//! In the document, the map is `<g id="map">` and each unit on the map is
//! `<g class="unit" data-unit="ID" data-hex="HEX" transform="translate(X Y)">` inside
//! `<g id="units">`, so a page's script can find and move counters.

use crate::geom::hex::Hex;
use crate::geom::map::Map;
use crate::geom::numbering::Orientation;
use crate::style::{
    HexsideStyle, Shape, Stroke, Style, AREA_PALETTE, SIDE_PALETTE, TERRAIN_PALETTE,
};
use crate::value::Value;
use crate::world::state::{State, Unit};
use std::collections::BTreeMap;
use std::fmt::Write;

const SQRT3: f64 = 1.732_050_807_568_877_2;

/// A map laid out for drawing with a style.
pub struct Board<'a> {
    map: &'a Map,
    style: &'a Style,
    /// Pixels from a hex's centre to a corner.
    size: f64,
    flat: bool,
    /// The ruleset's sides, in order: a side the style gives no colour takes the palette's
    /// colour of its place here.
    sides: Vec<String>,
    /// Hexes drawn outlined, each with an optional label (a person's options).
    highlights: Vec<(Hex, Option<String>)>,
}

/// A number as SVG text: one decimal at most, no `-0`.
fn num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    let r = if r == 0.0 { 0.0 } else { r };
    if r.fract() == 0.0 {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

/// Text made safe inside an SVG element or a quoted attribute.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A value as a counter shows it: text bare, numbers as written, lists joined by spaces.
fn value_text(v: &Value) -> String {
    match v {
        Value::Unit(()) => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Str(s) => s.clone(),
        Value::List(l) => l.iter().map(value_text).collect::<Vec<_>>().join(" "),
        Value::Map(_) => String::new(),
    }
}

/// One field of a counter template (`name`, `strength`, a prop `fresh`, a prop's list item
/// `fresh.1`) for `unit`; empty when the unit has no such field.
fn field(unit: &Unit, key: &str) -> String {
    match key {
        "id" => unit.id.clone(),
        "name" => unit.name.clone(),
        "side" => unit.side.clone(),
        "kind" => unit.kind.clone(),
        "strength" => unit.strength.to_string(),
        "rating" => unit.rating.to_string(),
        "face" => unit.face.clone(),
        _ => {
            let (prop, item) = match key.split_once('.') {
                Some((p, i)) => (p, i.parse::<usize>().ok()),
                None => (key, None),
            };
            match (unit.props.get(prop), item) {
                (Some(Value::List(l)), Some(i)) => l.get(i).map(value_text).unwrap_or_default(),
                (Some(v), None) => value_text(v),
                _ => String::new(),
            }
        }
    }
}

/// A counter template filled for `unit`: each `{key}` replaced by the unit's field or prop (see
/// [`crate::style::Counter::top`]), other text kept.
#[must_use]
pub fn fill_template(template: &str, unit: &Unit) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                out.push_str(&field(unit, &after[..close]));
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// A stable small number for a name, to give sides and areas no style lists a colour of their
/// own that does not change from run to run.
fn name_index(name: &str) -> usize {
    name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    }) as usize
}

impl<'a> Board<'a> {
    /// The map laid out with the style's hex size.
    #[must_use]
    pub fn new(map: &'a Map, style: &'a Style) -> Board<'a> {
        Board {
            map,
            style,
            size: style.hex_size,
            flat: map.numbering.orientation == Orientation::FlatTop,
            sides: Vec::new(),
            highlights: Vec::new(),
        }
    }

    /// The ruleset's sides in order, which give sides the style has no colour for a colour
    /// each from [`SIDE_PALETTE`].
    #[must_use]
    pub fn with_sides(mut self, sides: &[String]) -> Self {
        self.sides = sides.to_vec();
        self
    }

    /// Hexes to outline, each with an optional label (the options of a decision).
    #[must_use]
    pub fn with_highlights(mut self, hexes: Vec<(Hex, Option<String>)>) -> Self {
        self.highlights = hexes;
        self
    }

    /// The pixel centre of a hex.
    #[must_use]
    pub fn center(&self, h: Hex) -> (f64, f64) {
        let (q, r) = (f64::from(h.q), f64::from(h.r));
        if self.flat {
            (1.5 * self.size * q, SQRT3 * self.size * (r + q / 2.0))
        } else {
            (SQRT3 * self.size * (q + r / 2.0), 1.5 * self.size * r)
        }
    }

    /// The offset of the `i`-th counter of a stack from the hex centre (0: the bottom one):
    /// up and to the right, no further than the fifth.
    #[must_use]
    pub fn stack_offset(&self, i: usize) -> (f64, f64) {
        let step = self.style.counter.stack_offset * self.size * (i.min(4) as f64);
        (step, -step)
    }

    /// The corners of a hex shape centred on the origin, as SVG points.
    fn corners(&self) -> String {
        let start = if self.flat { 0.0 } else { 30.0_f64 };
        (0..6)
            .map(|k| {
                let a = (start + 60.0 * f64::from(k)).to_radians();
                format!("{},{}", num(self.size * a.cos()), num(self.size * a.sin()))
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The viewing box of the whole map with a margin: (x, y, width, height).
    #[must_use]
    pub fn view_box(&self) -> (f64, f64, f64, f64) {
        let mut b = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for h in self.map.hexes() {
            let (x, y) = self.center(h);
            b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        }
        if b.0 > b.2 {
            return (0.0, 0.0, self.size, self.size);
        }
        // A wider margin above, for the caption.
        let (m, top) = (self.size * 1.2, self.size * 1.8);
        (b.0 - m, b.1 - top, b.2 - b.0 + 2.0 * m, b.3 - b.1 + m + top)
    }

    /// The two ends of the hexside between neighbours `a` and `b`.
    fn side_ends(&self, a: Hex, b: Hex) -> ((f64, f64), (f64, f64)) {
        let (ca, cb) = (self.center(a), self.center(b));
        let (mx, my) = ((ca.0 + cb.0) / 2.0, (ca.1 + cb.1) / 2.0);
        let (dx, dy) = (cb.0 - ca.0, cb.1 - ca.1);
        let len = dx.hypot(dy);
        let (px, py) = (-dy / len * self.size / 2.0, dx / len * self.size / 2.0);
        ((mx + px, my + py), (mx - px, my - py))
    }

    /// Every hexside of the map once, as (hex, neighbour) with the hex on the map: the
    /// neighbour is off the map for a side on its edge.
    fn sides_of_map(&self) -> Vec<(Hex, Hex)> {
        let mut out = Vec::new();
        for h in self.map.hexes() {
            for n in h.neighbours() {
                if h < n || !self.map.contains(n) {
                    out.push((h, n));
                }
            }
        }
        out
    }

    /// The whole document: the map and the units of `state` on it.
    #[must_use]
    pub fn svg(&self, state: &State) -> String {
        let (x, y, w, h) = self.view_box();
        let mut out = String::new();
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{} {} {} {}" width="{}" height="{}" font-family="Helvetica, Arial, sans-serif">"#,
            num(x),
            num(y),
            num(w),
            num(h),
            num(w),
            num(h)
        );
        let _ = write!(out, "<title>{}</title>", escape(&self.map.name));
        out.push_str(&self.defs());
        out.push_str(&self.map_layer());
        out.push_str(&self.units_layer(state));
        // Where the game stands, in the margin above the map.
        let mut caption = self.map.name.clone();
        if state.turn != 0 {
            let _ = write!(caption, " · turn {}", state.turn);
        }
        if !state.phase.is_empty() {
            let _ = write!(caption, " · {}", state.phase);
        }
        let _ = write!(
            out,
            r#"<text class="caption" x="{}" y="{}" font-size="{}" fill="{}">{}</text>"#,
            num(x + self.size * 0.3),
            num(y + self.size * 0.55),
            num(self.size * 0.4),
            self.style.places,
            escape(&caption)
        );
        out.push_str("</svg>\n");
        // One element a line: a file a person can read and diff. No element holds another's
        // text, so the breaks fall only between elements.
        out.replace("><", ">\n<")
    }

    /// The shapes the map and counters reuse: `<defs>` with the hex outline `#hx`.
    #[must_use]
    pub fn defs(&self) -> String {
        format!(
            r#"<defs><polygon id="hx" points="{}"/></defs>"#,
            self.corners()
        )
    }

    /// `<g id="map">`: the background, terrain, elevation, hexside features, areas, places, hex
    /// ids and highlights. It uses the shapes of [`Board::defs`].
    #[must_use]
    pub fn map_layer(&self) -> String {
        let (x, y, w, h) = self.view_box();
        let mut out = format!(
            r#"<g id="map"><rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
            num(x),
            num(y),
            num(w),
            num(h),
            self.style.background
        );
        self.terrain(&mut out);
        self.hexsides(&mut out);
        self.areas(&mut out);
        self.places(&mut out);
        if self.style.hex_ids {
            self.hex_ids(&mut out);
        }
        self.highlights_layer(&mut out);
        out.push_str("</g>");
        out
    }

    /// Each hex filled by its first styled tag, shaded by elevation, with its tags' symbols.
    fn terrain(&self, out: &mut String) {
        let hexes = self.map.hexes();
        let lowest = hexes
            .iter()
            .map(|h| self.map.elevation(*h))
            .min()
            .unwrap_or(0);
        let s = self.style;
        let _ = write!(
            out,
            r#"<g class="terrain" stroke="{}" stroke-width="{}">"#,
            s.grid,
            num(self.size * 0.03)
        );
        for &h in &hexes {
            let tags = self.map.terrain(h);
            let fill = s
                .terrain
                .iter()
                .find(|(tag, t)| t.fill.is_some() && tags.contains(&tag.as_str()))
                .and_then(|(_, t)| t.fill.as_deref())
                .or_else(|| {
                    // A tag the style does not know still shows, in a colour of its own.
                    let tag = tags.iter().find(|t| !s.terrain.contains_key(**t))?;
                    Some(TERRAIN_PALETTE[name_index(tag) % TERRAIN_PALETTE.len()])
                })
                .unwrap_or(&s.default_fill);
            let (cx, cy) = self.center(h);
            let _ = write!(
                out,
                r##"<use href="#hx" x="{}" y="{}" fill="{fill}"/>"##,
                num(cx),
                num(cy)
            );
        }
        out.push_str("</g><g class=\"elevation\" stroke=\"none\">");
        for &h in &hexes {
            let level = self.map.elevation(h) - lowest;
            if level > 0 {
                let (cx, cy) = self.center(h);
                let opacity = (f64::from(level) * s.elevation.step).min(0.85);
                let _ = write!(
                    out,
                    r##"<use href="#hx" x="{}" y="{}" fill="{}" fill-opacity="{}"/>"##,
                    num(cx),
                    num(cy),
                    s.elevation.colour,
                    (opacity * 100.0).round() / 100.0
                );
            }
        }
        out.push_str("</g>");
        let _ = write!(
            out,
            r#"<g class="symbols" text-anchor="middle" font-size="{}">"#,
            num(self.size * 0.45)
        );
        for &h in &hexes {
            let tags = self.map.terrain(h);
            let symbols: Vec<(&str, &str)> = s
                .terrain
                .iter()
                .filter(|(tag, _)| tags.contains(&tag.as_str()))
                .filter_map(|(_, t)| {
                    let colour = t.symbol_colour.as_deref().unwrap_or(&s.grid);
                    t.symbol.as_deref().map(|sym| (sym, colour))
                })
                .collect();
            let (cx, cy) = self.center(h);
            for (k, (sym, colour)) in symbols.iter().enumerate() {
                let dx = (k as f64 - (symbols.len() as f64 - 1.0) / 2.0) * self.size * 0.45;
                let _ = write!(
                    out,
                    r#"<text x="{}" y="{}" fill="{colour}" fill-opacity="0.55">{}</text>"#,
                    num(cx + dx - self.size * 0.35),
                    num(cy + self.size * 0.55),
                    escape(sym)
                );
            }
        }
        out.push_str("</g>");
    }

    /// The hexside features in the style's order (later on top), and elevation contours.
    fn hexsides(&self, out: &mut String) {
        let sides = self.sides_of_map();
        if let Some(contour) = &self.style.elevation.contour {
            let d: String = sides
                .iter()
                .filter(|(a, b)| {
                    self.map.contains(*b) && self.map.elevation(*a) != self.map.elevation(*b)
                })
                .map(|(a, b)| self.edge_path(*a, *b))
                .collect();
            if !d.is_empty() {
                let _ = write!(
                    out,
                    r#"<path class="contour" d="{d}" fill="none" stroke="{contour}" stroke-width="{}"/>"#,
                    num(self.size * 0.05)
                );
            }
        }
        // Features the style does not list are drawn along their hexsides, each in a colour of
        // its own, so that nothing on the map is silently left out.
        let unlisted: Vec<(String, HexsideStyle)> = self
            .map
            .feature_names()
            .iter()
            .filter(|f| !self.style.hexsides.contains_key(*f))
            .map(|f| {
                let colour = AREA_PALETTE[name_index(f) % AREA_PALETTE.len()].to_string();
                (
                    f.clone(),
                    HexsideStyle::Edge(Stroke {
                        colour,
                        width: 0.06,
                        dash: Vec::new(),
                    }),
                )
            })
            .collect();
        let listed = self
            .style
            .hexsides
            .iter()
            .map(|(f, h)| (f.clone(), h.clone()));
        for (feature, how) in unlisted.into_iter().chain(listed) {
            let feature = &feature;
            let how = &how;
            let Some(bit) = self.map.feature_bit(feature) else {
                continue;
            };
            let with: Vec<(Hex, Hex)> = sides
                .iter()
                .copied()
                .filter(|(a, b)| self.map.side_bits(*a, *b) & bit != 0)
                .collect();
            if with.is_empty() {
                continue;
            }
            let class = escape(feature);
            match how {
                HexsideStyle::Edge(stroke) => {
                    let d: String = with.iter().map(|(a, b)| self.edge_path(*a, *b)).collect();
                    self.stroke_path(out, &class, &d, stroke);
                }
                HexsideStyle::Link(stroke) => {
                    let d: String = with.iter().map(|(a, b)| self.link_path(*a, *b)).collect();
                    self.stroke_path(out, &class, &d, stroke);
                }
                HexsideStyle::Mark(mark) => {
                    let _ = write!(out, r#"<g class="{class}">"#);
                    for (a, b) in &with {
                        self.mark(out, *a, *b, mark);
                    }
                    out.push_str("</g>");
                }
                HexsideStyle::Hidden => {}
            }
        }
    }

    fn edge_path(&self, a: Hex, b: Hex) -> String {
        let (p, q) = self.side_ends(a, b);
        format!("M{} {}L{} {}", num(p.0), num(p.1), num(q.0), num(q.1))
    }

    /// From `a`'s centre across the side to `b`'s, or to the side's middle when `b` is off the
    /// map (a road that leaves it).
    fn link_path(&self, a: Hex, b: Hex) -> String {
        let (ca, mut cb) = (self.center(a), self.center(b));
        if !self.map.contains(b) {
            cb = ((ca.0 + cb.0) / 2.0, (ca.1 + cb.1) / 2.0);
        }
        format!("M{} {}L{} {}", num(ca.0), num(ca.1), num(cb.0), num(cb.1))
    }

    fn stroke_path(&self, out: &mut String, class: &str, d: &str, s: &Stroke) {
        let dash = if s.dash.is_empty() {
            String::new()
        } else {
            let parts: Vec<String> = s.dash.iter().map(|x| num(x * self.size)).collect();
            format!(r#" stroke-dasharray="{}""#, parts.join(" "))
        };
        let _ = write!(
            out,
            r#"<path class="{class}" d="{d}" fill="none" stroke="{}" stroke-width="{}" stroke-linecap="round"{dash}/>"#,
            s.colour,
            num(s.width * self.size)
        );
    }

    fn mark(&self, out: &mut String, a: Hex, b: Hex, m: &crate::style::MarkStyle) {
        let (ca, cb) = (self.center(a), self.center(b));
        let (mx, my) = ((ca.0 + cb.0) / 2.0, (ca.1 + cb.1) / 2.0);
        let outline = m.outline.as_deref().unwrap_or("none");
        let r = m.size * self.size / 2.0;
        match m.shape {
            Shape::Dot => {
                let _ = write!(
                    out,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{}" stroke="{outline}" stroke-width="{}"/>"#,
                    num(mx),
                    num(my),
                    num(r),
                    m.fill,
                    num(self.size * 0.03)
                );
            }
            Shape::Bar => {
                let (dx, dy) = (cb.0 - ca.0, cb.1 - ca.1);
                let angle = dy.atan2(dx).to_degrees();
                let _ = write!(
                    out,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}" stroke="{outline}" stroke-width="{}" transform="rotate({} {} {})"/>"#,
                    num(mx - r * 1.4),
                    num(my - r * 0.5),
                    num(r * 2.8),
                    num(r),
                    m.fill,
                    num(self.size * 0.03),
                    num(angle),
                    num(mx),
                    num(my)
                );
            }
        }
    }

    /// Each named area outlined along its border, with its name at its first hex.
    fn areas(&self, out: &mut String) {
        out.push_str(r#"<g class="areas" fill="none">"#);
        for (k, name) in self.map.area_names().enumerate() {
            let style = self.style.areas.get(name);
            let colour = match style {
                Some(a) => match &a.colour {
                    Some(c) => c.as_str(),
                    None => continue,
                },
                None => AREA_PALETTE[(k + name_index(name)) % AREA_PALETTE.len()],
            };
            let Some(hexes) = self.map.named_area(name) else {
                continue;
            };
            let inside: std::collections::HashSet<Hex> = hexes.iter().copied().collect();
            let d: String = hexes
                .iter()
                .flat_map(|h| h.neighbours().into_iter().map(move |n| (*h, n)))
                .filter(|(_, n)| !inside.contains(n))
                .map(|(h, n)| self.edge_path(h, n))
                .collect();
            let label = style.and_then(|a| a.label.as_deref()).unwrap_or(name);
            let _ = write!(
                out,
                r#"<path data-area="{}" d="{d}" stroke="{colour}" stroke-width="{}" stroke-dasharray="{} {}"/>"#,
                escape(name),
                num(self.size * 0.07),
                num(self.size * 0.2),
                num(self.size * 0.1)
            );
            if let Some(first) = hexes.first() {
                let (cx, cy) = self.center(*first);
                let _ = write!(
                    out,
                    r#"<text x="{}" y="{}" fill="{colour}" stroke="none" font-size="{}" font-style="italic">{}</text>"#,
                    num(cx - self.size * 0.8),
                    num(cy + self.size * 0.15),
                    num(self.size * 0.22),
                    escape(label)
                );
            }
        }
        out.push_str("</g>");
    }

    /// Each named place: a dot and its name.
    fn places(&self, out: &mut String) {
        let colour = &self.style.places;
        let _ = write!(
            out,
            r#"<g class="places" fill="{colour}" font-size="{}" text-anchor="middle" stroke="{}" stroke-width="{}" paint-order="stroke">"#,
            num(self.size * 0.3),
            self.style.background,
            num(self.size * 0.08)
        );
        for (name, h) in self.map.places() {
            let (cx, cy) = self.center(*h);
            let _ = write!(
                out,
                r#"<circle cx="{}" cy="{}" r="{}"/><text x="{}" y="{}">{}</text>"#,
                num(cx),
                num(cy + self.size * 0.2),
                num(self.size * 0.08),
                num(cx),
                num(cy + self.size * 0.62),
                escape(name)
            );
        }
        out.push_str("</g>");
    }

    fn hex_ids(&self, out: &mut String) {
        let _ = write!(
            out,
            r#"<g class="ids" fill="{}" font-size="{}" text-anchor="middle">"#,
            self.style.grid,
            num(self.size * 0.24)
        );
        let top = if self.flat { 0.62 } else { 0.7 };
        for h in self.map.hexes() {
            let (cx, cy) = self.center(h);
            let _ = write!(
                out,
                r#"<text x="{}" y="{}">{}</text>"#,
                num(cx),
                num(cy - self.size * top),
                escape(&self.map.id(h))
            );
        }
        out.push_str("</g>");
    }

    fn highlights_layer(&self, out: &mut String) {
        if self.highlights.is_empty() {
            return;
        }
        out.push_str(r##"<g class="highlights" fill="none" stroke="#e0301e">"##);
        for (h, label) in &self.highlights {
            let (cx, cy) = self.center(*h);
            let _ = write!(
                out,
                r##"<use href="#hx" x="{}" y="{}" stroke-width="{}"/>"##,
                num(cx),
                num(cy),
                num(self.size * 0.1)
            );
            if let Some(l) = label {
                let _ = write!(
                    out,
                    r##"<text x="{}" y="{}" fill="#e0301e" stroke="#ffffff" stroke-width="{}" paint-order="stroke" font-size="{}" font-weight="bold" text-anchor="middle">{}</text>"##,
                    num(cx - self.size * 0.55),
                    num(cy + self.size * 0.1),
                    num(self.size * 0.06),
                    num(self.size * 0.34),
                    escape(l)
                );
            }
        }
        out.push_str("</g>");
    }

    /// `<g id="units">`: the hex markers, then every unit on the map as a counter, each stack
    /// in set-up order from the bottom.
    #[must_use]
    pub fn units_layer(&self, state: &State) -> String {
        let mut out = String::from(r#"<g id="units">"#);
        for (h, markers) in &state.hex_markers {
            if !self.map.contains(*h) {
                continue;
            }
            let (cx, cy) = self.center(*h);
            let (dx, dy) = self.hex_markers_offset();
            let _ = write!(
                out,
                r#"<g class="hex-markers" data-hex="{}" transform="translate({} {})">{}</g>"#,
                escape(&self.map.id(*h)),
                num(cx + dx),
                num(cy + dy),
                self.hex_markers_body(markers.iter())
            );
        }
        let mut stacks: BTreeMap<Hex, usize> = BTreeMap::new();
        for u in state.units.values() {
            let Some(h) = u.location.filter(|h| self.map.contains(*h)) else {
                continue;
            };
            let i = stacks.entry(h).or_insert(0);
            let (cx, cy) = self.center(h);
            let (dx, dy) = self.stack_offset(*i);
            *i += 1;
            let _ = write!(
                out,
                r#"<g class="unit" data-unit="{}" data-hex="{}" transform="translate({} {})">{}</g>"#,
                escape(&u.id),
                escape(&self.map.id(h)),
                num(cx + dx),
                num(cy + dy),
                self.counter_body(u)
            );
        }
        out.push_str("</g>");
        out
    }

    /// Where a hex's marker badges stand, from its centre: near its top left corner.
    #[must_use]
    pub fn hex_markers_offset(&self) -> (f64, f64) {
        (-self.size * 0.55, -self.size * 0.35)
    }

    /// A hex's markers as badges down from the origin (see [`Board::hex_markers_offset`]);
    /// empty when the style shows none of them.
    #[must_use]
    pub fn hex_markers_body<'m>(&self, markers: impl Iterator<Item = &'m String>) -> String {
        let mut out = String::new();
        self.badges(&mut out, markers, 0.0, 0.0);
        out
    }

    /// One counter drawn around the origin: its side's colour, the band of its face, its kind's
    /// symbol, the style's top and bottom lines, its markers as badges down the right edge and
    /// its facing as an arrow.
    #[must_use]
    pub fn counter_body(&self, unit: &Unit) -> String {
        let s = self.style;
        let c = s.counter.size * self.size;
        let index = self
            .sides
            .iter()
            .position(|x| *x == unit.side)
            .unwrap_or_else(|| name_index(&unit.side) % SIDE_PALETTE.len());
        let (fill, ink) = s.side_colours(&unit.side, index);
        let half = c / 2.0;
        let mut out = String::new();
        let _ = write!(
            out,
            r##"<title>{}</title><rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{fill}" stroke="#1d1d1d" stroke-width="{}"/>"##,
            escape(&format!("{} ({}, {})", unit.name, unit.side, unit.face)),
            num(-half),
            num(-half),
            num(c),
            num(c),
            num(c * 0.08),
            num(c * 0.03)
        );
        if let Some(face) = s.faces.get(&unit.face) {
            let _ = write!(
                out,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
                num(-half + c * 0.04),
                num(-half + c * 0.04),
                num(c * 0.92),
                num(c * 0.12),
                face.band
            );
        }
        let text = |out: &mut String, line: &str, y: f64, size: f64, bold: bool| {
            if line.is_empty() {
                return;
            }
            // A long line is squeezed to the counter's width rather than spilling over it.
            let fit = if line.chars().count() as f64 * size * 0.55 > c * 0.9 {
                format!(
                    r#" textLength="{}" lengthAdjust="spacingAndGlyphs""#,
                    num(c * 0.9)
                )
            } else {
                String::new()
            };
            let anchor = if fit.is_empty() { "middle" } else { "start" };
            let _ = write!(
                out,
                r#"<text x="{}" y="{}" font-size="{}" fill="{ink}" text-anchor="{anchor}"{}{fit}>{}</text>"#,
                num(if fit.is_empty() { 0.0 } else { -c * 0.45 }),
                num(y),
                num(size),
                if bold { r#" font-weight="bold""# } else { "" },
                escape(line)
            );
        };
        text(
            &mut out,
            &fill_template(&s.counter.top, unit),
            -c * 0.18,
            c * 0.2,
            false,
        );
        if let Some(symbol) = s.kinds.get(&unit.kind) {
            text(&mut out, symbol, c * 0.08, c * 0.26, false);
        }
        text(
            &mut out,
            &fill_template(&s.counter.bottom, unit),
            c * 0.4,
            c * 0.32,
            true,
        );
        self.badges(&mut out, unit.markers.iter(), half, -half);
        if let Some(dir) = unit.facing {
            let (ox, oy) = self.center(Hex::new(0, 0));
            let (nx, ny) = self.center(Hex::new(0, 0).neighbour(usize::from(dir)));
            let (dx, dy) = (nx - ox, ny - oy);
            let len = dx.hypot(dy);
            let (ux, uy) = (dx / len, dy / len);
            let tip = (ux * half * 1.35, uy * half * 1.35);
            let base = (ux * half * 1.02, uy * half * 1.02);
            let w = c * 0.14;
            let _ = write!(
                out,
                r##"<polygon class="facing" points="{},{} {},{} {},{}" fill="{fill}" stroke="#1d1d1d" stroke-width="{}"/>"##,
                num(tip.0),
                num(tip.1),
                num(base.0 - uy * w),
                num(base.1 + ux * w),
                num(base.0 + uy * w),
                num(base.1 - ux * w),
                num(c * 0.02)
            );
        }
        out
    }

    /// Markers as small round badges down from (x, y): the style's text and colour, or a grey
    /// badge of the marker's first two letters.
    fn badges<'m>(
        &self,
        out: &mut String,
        markers: impl Iterator<Item = &'m String>,
        x: f64,
        y: f64,
    ) {
        let r = self.size * 0.16;
        let mut k = 0.0;
        for m in markers {
            let (text, fill) = match self.style.markers.get(m.as_str()) {
                Some(st) if st.text.is_empty() => continue,
                Some(st) => (st.text.clone(), st.fill.as_deref().unwrap_or("#555555")),
                None if self.style.other_markers => {
                    (m.chars().take(2).collect::<String>(), "#555555")
                }
                None => continue,
            };
            let (cx, cy) = (x, y + r + k * r * 2.1);
            let _ = write!(
                out,
                r##"<g class="marker" data-marker="{}"><circle cx="{}" cy="{}" r="{}" fill="{fill}" stroke="#ffffff" stroke-width="{}"/><text x="{}" y="{}" font-size="{}" fill="#ffffff" text-anchor="middle" font-weight="bold">{}</text></g>"##,
                escape(m),
                num(cx),
                num(cy),
                num(r),
                num(r * 0.15),
                num(cx),
                num(cy + r * 0.4),
                num(r * if text.chars().count() > 1 { 1.0 } else { 1.2 }),
                escape(&text)
            );
            k += 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_never_minus_zero() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(-0.01), "0");
        assert_eq!(num(2.449), "2.4");
        assert_eq!(num(-7.25), "-7.3");
    }

    #[test]
    fn templates_read_fields_and_props() {
        let mut u = Unit {
            id: "a".into(),
            name: "8th <AL>".into(),
            side: "grey".into(),
            kind: "infantry".into(),
            strength: 6,
            rating: 4,
            location: None,
            facing: None,
            face: "fresh".into(),
            markers: Default::default(),
            props: Default::default(),
        };
        u.props.insert(
            "fresh".into(),
            Value::List(vec![Value::Int(6), Value::Str("R".into())]),
        );
        assert_eq!(fill_template("{strength}-{rating}", &u), "6-4");
        assert_eq!(fill_template("{fresh.1} {nothing}|{", &u), "R |{");
        assert_eq!(escape(&fill_template("{name}", &u)), "8th &lt;AL&gt;");
    }
}
