//! A minimal stand-in for the board drawing of `tools::render` (being written on main), with
//! its API: it goes when that lands. Plain hexes, terrain as a class, counters as squares.

use crate::geom::hex::Hex;
use crate::geom::map::Map;
use crate::geom::numbering::Orientation;
use crate::world::state::{State, Unit};
use std::fmt::Write;

/// The hex's radius in SVG units.
const SIZE: f64 = 30.0;

/// A map drawn as SVG.
pub struct Board<'a> {
    map: &'a Map,
}

impl<'a> Board<'a> {
    /// The board of `map`.
    #[must_use]
    pub fn new(map: &'a Map) -> Board<'a> {
        Board { map }
    }

    /// The pixel centre of a hex.
    #[must_use]
    pub fn center(&self, h: Hex) -> (f64, f64) {
        let (q, r) = (f64::from(h.q), f64::from(h.r));
        let s3 = 3f64.sqrt();
        match self.map.numbering.orientation {
            Orientation::FlatTop => (1.5 * SIZE * q, s3 * SIZE * (r + q / 2.0)),
            Orientation::PointyTop => (s3 * SIZE * (q + r / 2.0), 1.5 * SIZE * r),
        }
    }

    /// The offset of the i-th counter of a stack.
    #[must_use]
    pub fn stack_offset(&self, i: usize) -> (f64, f64) {
        let i = i as f64;
        (4.0 * i, -4.0 * i)
    }

    /// One counter drawn around (0,0).
    #[must_use]
    pub fn counter_body(&self, u: &Unit) -> String {
        let hue = u
            .side
            .bytes()
            .fold(0u32, |a, b| a.wrapping_mul(31).wrapping_add(u32::from(b)))
            % 360;
        let light = if u.face == "front" { 45 } else { 70 };
        let mut s = format!(
            "<rect x=\"-17\" y=\"-17\" width=\"34\" height=\"34\" rx=\"3\" fill=\"hsl({hue},45%,{light}%)\" stroke=\"#222\"/>\
<text y=\"-4\" font-size=\"8\" text-anchor=\"middle\">{}</text><text y=\"10\" font-size=\"10\" text-anchor=\"middle\">{}-{}</text>",
            super::escape(&u.name.chars().take(9).collect::<String>()),
            u.strength,
            u.rating
        );
        if !u.markers.is_empty() {
            let _ = write!(s, "<circle cx=\"14\" cy=\"-14\" r=\"4\" fill=\"#c00\"/>");
        }
        s
    }

    /// The map: a polygon and the id of each hex.
    #[must_use]
    pub fn map_layer(&self) -> String {
        let mut s = String::from("<g id=\"map\">");
        let corner0 = match self.map.numbering.orientation {
            Orientation::FlatTop => 0.0,
            Orientation::PointyTop => 30.0,
        };
        for h in self.map.hexes() {
            let (x, y) = self.center(h);
            let pts: Vec<String> = (0..6)
                .map(|k| {
                    let a = (corner0 + 60.0 * f64::from(k)).to_radians();
                    format!("{:.1},{:.1}", x + SIZE * a.cos(), y + SIZE * a.sin())
                })
                .collect();
            let class = self.map.terrain(h).first().map_or("clear", |t| t);
            let _ = write!(
                s,
                "<polygon class=\"t-{}\" points=\"{}\"/><text class=\"hexid\" x=\"{x:.1}\" y=\"{:.1}\">{}</text>",
                super::escape(class),
                pts.join(" "),
                y - SIZE * 0.6,
                self.map.id(h)
            );
        }
        s.push_str("</g>");
        s
    }

    /// The SVG's view box: every hex with a margin.
    #[must_use]
    pub fn view_box(&self) -> (f64, f64, f64, f64) {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for h in self.map.hexes() {
            let (x, y) = self.center(h);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
        (
            x0 - SIZE * 1.2,
            y0 - SIZE * 1.2,
            x1 - x0 + SIZE * 2.4,
            y1 - y0 + SIZE * 2.4,
        )
    }

    /// A whole SVG document of `state`: the map and the units.
    #[must_use]
    pub fn svg(&self, state: &State) -> String {
        let (x, y, w, h) = self.view_box();
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"{x:.1} {y:.1} {w:.1} {h:.1}\">{}<g id=\"units\">",
            self.map_layer()
        );
        let mut count: std::collections::HashMap<Hex, usize> = std::collections::HashMap::new();
        for u in state.units.values() {
            let Some(at) = u.location else { continue };
            let i = count.entry(at).or_default();
            let (cx, cy) = self.center(at);
            let (dx, dy) = self.stack_offset(*i);
            *i += 1;
            let _ = write!(
                s,
                "<g class=\"unit\" data-unit=\"{}\" data-hex=\"{}\" transform=\"translate({:.1} {:.1})\">{}</g>",
                super::escape(&u.id),
                self.map.id(at),
                cx + dx,
                cy + dy,
                self.counter_body(u)
            );
        }
        s.push_str("</g></svg>");
        s
    }
}
