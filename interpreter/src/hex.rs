//! Hex geometry in axial coordinates: neighbours, distance, rings, directions,
//! canonical hexsides and the centre-to-centre line trace used by line of sight.
//!
//! Geometry knows nothing of terrain or of how a map numbers its hexes; see
//! [`crate::numbering`] for printed ids and [`crate::map`] for what is in a hex.

use serde::{Deserialize, Serialize};

/// A hex in axial coordinates (`q` grows to the right, `r` down the column).
///
/// The third cube coordinate is `s = -q - r`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hex {
    /// Column axis.
    pub q: i32,
    /// Row axis (slanted).
    pub r: i32,
}

/// The six axial direction vectors, clockwise. For a flat-top map index 0 is
/// north; for a pointy-top map index 0 is north-east.
pub const DIRECTIONS: [Hex; 6] = [
    Hex::new(0, -1),
    Hex::new(1, -1),
    Hex::new(1, 0),
    Hex::new(0, 1),
    Hex::new(-1, 1),
    Hex::new(-1, 0),
];

impl Hex {
    /// Makes a hex from axial coordinates.
    #[must_use]
    pub const fn new(q: i32, r: i32) -> Self {
        Hex { q, r }
    }

    /// The third cube coordinate.
    #[must_use]
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// The neighbour in direction `dir` (taken modulo 6).
    ///
    /// ```
    /// use muster_interpreter::hex::Hex;
    /// assert_eq!(Hex::new(0, 0).neighbour(2), Hex::new(1, 0));
    /// ```
    #[must_use]
    pub fn neighbour(self, dir: usize) -> Hex {
        let d = DIRECTIONS[dir % 6];
        Hex::new(self.q + d.q, self.r + d.r)
    }

    /// All six neighbours, in direction order.
    #[must_use]
    pub fn neighbours(self) -> [Hex; 6] {
        std::array::from_fn(|d| self.neighbour(d))
    }

    /// Distance in hexes.
    ///
    /// ```
    /// use muster_interpreter::hex::Hex;
    /// assert_eq!(Hex::new(0, 0).distance(Hex::new(2, -1)), 2);
    /// ```
    #[must_use]
    pub fn distance(self, other: Hex) -> u32 {
        let dq = (self.q - other.q).abs();
        let dr = (self.r - other.r).abs();
        let ds = (self.s() - other.s()).abs();
        dq.max(dr).max(ds) as u32
    }

    /// The direction index from `self` to an adjacent `other`, if adjacent.
    #[must_use]
    pub fn direction_to(self, other: Hex) -> Option<usize> {
        (0..6).find(|&d| self.neighbour(d) == other)
    }

    /// The hexes at exactly `radius` from `self`, clockwise from the
    /// direction-4 corner. Radius 0 is the hex itself.
    #[must_use]
    pub fn ring(self, radius: u32) -> Vec<Hex> {
        if radius == 0 {
            return vec![self];
        }
        let mut out = Vec::with_capacity(6 * radius as usize);
        let start = DIRECTIONS[4];
        let mut h = Hex::new(
            self.q + start.q * radius as i32,
            self.r + start.r * radius as i32,
        );
        for dir in 0..6 {
            for _ in 0..radius {
                out.push(h);
                h = h.neighbour(dir);
            }
        }
        out
    }

    /// Every hex within `radius` of `self`, including `self`.
    #[must_use]
    pub fn within(self, radius: u32) -> Vec<Hex> {
        (0..=radius).flat_map(|r| self.ring(r)).collect()
    }
}

/// A hexside named canonically as a hex and one of directions 0, 1 or 2, so
/// that the side between `a` and `b` has one name whichever hex you start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Hexside {
    /// The hex the side belongs to in canonical form.
    pub hex: Hex,
    /// Direction 0, 1 or 2 from `hex`.
    pub dir: u8,
}

impl Hexside {
    /// The canonical name of side `dir` of `hex`.
    #[must_use]
    pub fn new(hex: Hex, dir: usize) -> Self {
        let dir = dir % 6;
        if dir < 3 {
            Hexside {
                hex,
                dir: dir as u8,
            }
        } else {
            Hexside {
                hex: hex.neighbour(dir),
                dir: (dir - 3) as u8,
            }
        }
    }

    /// The side between two adjacent hexes, or `None` if they are not adjacent.
    #[must_use]
    pub fn between(a: Hex, b: Hex) -> Option<Self> {
        a.direction_to(b).map(|d| Hexside::new(a, d))
    }

    /// The two hexes that share this side.
    #[must_use]
    pub fn hexes(self) -> (Hex, Hex) {
        (self.hex, self.hex.neighbour(self.dir as usize))
    }
}

/// One step of a line traced between two hex centres.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum LineStep {
    /// The line passes through this hex.
    Hex(Hex),
    /// The line runs exactly along the side shared by these two hexes.
    Pair(Hex, Hex),
}

impl LineStep {
    /// The hexes of this step (one or two).
    pub fn hexes(&self) -> impl Iterator<Item = Hex> {
        let (a, b) = match *self {
            LineStep::Hex(h) => (h, None),
            LineStep::Pair(a, b) => (a, Some(b)),
        };
        std::iter::once(a).chain(b)
    }
}

/// Nearest whole number, without a libm call (the hot path of every LOS
/// trace). Exact for the magnitudes hex coordinates reach; halves round up.
#[inline]
fn round_fast(x: f64) -> f64 {
    let y = x + 0.5;
    let t = y as i64 as f64;
    if t > y {
        t - 1.0
    } else {
        t
    }
}

/// Rounds fractional cube coordinates to the nearest hex.
#[inline]
fn cube_round(q: f64, r: f64) -> Hex {
    let s = -q - r;
    let (mut rq, mut rr, rs) = (round_fast(q), round_fast(r), round_fast(s));
    let (dq, dr, ds) = ((rq - q).abs(), (rr - r).abs(), (rs - s).abs());
    if dq > dr && dq > ds {
        rq = -rr - rs;
    } else if dr > ds {
        rr = -rq - rs;
    }
    Hex::new(rq as i32, rr as i32)
}

/// The intervening steps of a straight line from the centre of `from` to the
/// centre of `to`, endpoints excluded. Where the line runs exactly along a
/// hexside the step is the [`LineStep::Pair`] of the hexes either side.
///
/// The trace is symmetric: tracing back gives the same steps reversed.
///
/// ```
/// use muster_interpreter::hex::{line_trace, Hex, LineStep};
/// // Along a hex row the line meets no hexside.
/// assert_eq!(line_trace(Hex::new(0, 0), Hex::new(2, 0)), vec![LineStep::Hex(Hex::new(1, 0))]);
/// ```
#[must_use]
pub fn line_trace(from: Hex, to: Hex) -> Vec<LineStep> {
    LineIter::new(from, to).collect()
}

/// The steps of [`line_trace`] one at a time, without allocating.
#[derive(Clone, Debug)]
pub struct LineIter {
    // The line is always walked from the lesser hex; `reversed` walks the
    // steps backwards so both directions compute the very same points.
    lo: (f64, f64),
    per_step: (f64, f64),
    n: i64,
    i: i64,
    end: i64,
    reversed: bool,
}

impl LineIter {
    /// The intervening steps from `from` to `to`.
    #[must_use]
    pub fn new(from: Hex, to: Hex) -> Self {
        let reversed = to < from;
        let (a, b) = if reversed { (to, from) } else { (from, to) };
        let n = i64::from(from.distance(to));
        let inv = if n > 0 { 1.0 / n as f64 } else { 0.0 };
        LineIter {
            lo: (f64::from(a.q), f64::from(a.r)),
            per_step: (f64::from(b.q - a.q) * inv, f64::from(b.r - a.r) * inv),
            n,
            i: 1,
            end: n - 1,
            reversed,
        }
    }

    #[inline]
    fn step(&self, i: i64) -> LineStep {
        // Nudging the point in opposite cube directions splits a line that
        // runs along a hexside into its two sides. The nudge (1e-6) is far
        // below any hex-scale distance and far above the rounding error of
        // the arithmetic (1e-15), so it changes nothing else.
        const EPS: f64 = 1e-6;
        let q = self.lo.0 + i as f64 * self.per_step.0;
        let r = self.lo.1 + i as f64 * self.per_step.1;
        // Only a point on a hexside (two cube coordinates at a half) can round
        // two ways; elsewhere one rounding is enough.
        let near_half = |x: f64| ((x - x as i64 as f64).abs() - 0.5).abs() < 2.0 * EPS;
        let halves = u8::from(near_half(q)) + u8::from(near_half(r)) + u8::from(near_half(-q - r));
        if halves < 2 {
            return LineStep::Hex(cube_round(q, r));
        }
        let a = cube_round(q + EPS, r + EPS);
        let b = cube_round(q - EPS, r - EPS);
        if a == b {
            LineStep::Hex(a)
        } else if a <= b {
            LineStep::Pair(a, b)
        } else {
            LineStep::Pair(b, a)
        }
    }
}

impl Iterator for LineIter {
    type Item = LineStep;

    fn next(&mut self) -> Option<LineStep> {
        if self.i > self.end {
            return None;
        }
        // Walking backwards, the i-th step from `from` is step n-i from the lesser hex.
        let k = if self.reversed {
            self.n - self.i
        } else {
            self.i
        };
        self.i += 1;
        Some(self.step(k))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.end - self.i + 1).max(0) as usize;
        (left, Some(left))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn arb_hex() -> impl Strategy<Value = Hex> {
        (-30i32..30, -30i32..30).prop_map(|(q, r)| Hex::new(q, r))
    }

    #[test]
    fn ring_sizes() {
        let h = Hex::new(3, -2);
        assert_eq!(h.ring(0), vec![h]);
        for r in 1..5 {
            let ring = h.ring(r);
            assert_eq!(ring.len(), 6 * r as usize);
            assert!(ring.iter().all(|x| x.distance(h) == r));
        }
        assert_eq!(h.within(2).len(), 19);
    }

    #[test]
    fn hexside_is_canonical() {
        let a = Hex::new(0, 0);
        for d in 0..6 {
            let b = a.neighbour(d);
            assert_eq!(Hexside::between(a, b), Hexside::between(b, a));
            let (x, y) = Hexside::between(a, b).unwrap().hexes();
            assert!((x, y) == (a, b) || (x, y) == (b, a));
        }
        assert_eq!(Hexside::between(a, Hex::new(2, 0)), None);
    }

    #[test]
    fn line_along_a_hexside_gives_pairs() {
        // (0,0) to (1,1) is distance 2 and runs between (1,0) and (0,1).
        let t = line_trace(Hex::new(0, 0), Hex::new(1, 1));
        assert_eq!(t, vec![LineStep::Pair(Hex::new(0, 1), Hex::new(1, 0))]);
    }

    proptest! {
        #[test]
        fn distance_is_a_metric(a in arb_hex(), b in arb_hex(), c in arb_hex()) {
            prop_assert_eq!(a.distance(b), b.distance(a));
            prop_assert_eq!(a.distance(a), 0);
            prop_assert!(a.distance(c) <= a.distance(b) + b.distance(c));
        }

        #[test]
        fn neighbours_are_adjacent_and_distinct(a in arb_hex()) {
            let ns = a.neighbours();
            for (i, n) in ns.iter().enumerate() {
                prop_assert_eq!(a.distance(*n), 1);
                prop_assert_eq!(a.direction_to(*n), Some(i));
                prop_assert_eq!(n.neighbour(i + 3), a);
            }
        }

        #[test]
        fn trace_is_symmetric(a in arb_hex(), b in arb_hex()) {
            let mut back = line_trace(b, a);
            back.reverse();
            prop_assert_eq!(line_trace(a, b), back);
        }

        #[test]
        fn trace_has_distance_minus_one_steps_in_order(a in arb_hex(), b in arb_hex()) {
            let t = line_trace(a, b);
            prop_assert_eq!(t.len() as u32, a.distance(b).saturating_sub(1));
            for (i, step) in t.iter().enumerate() {
                for h in step.hexes() {
                    prop_assert_eq!(h.distance(a), i as u32 + 1);
                }
                if let LineStep::Pair(x, y) = step {
                    prop_assert_eq!(x.distance(*y), 1);
                }
            }
        }

        #[test]
        fn adjacent_hexes_have_nothing_between(a in arb_hex(), d in 0usize..6) {
            prop_assert!(line_trace(a, a.neighbour(d)).is_empty());
        }
    }
}
