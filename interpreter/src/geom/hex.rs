//! Hex geometry in axial coordinates: neighbours, distance, rings, directions,
//! canonical hexsides and the centre-to-centre line trace used by line of sight.
//!
//! Geometry knows nothing of terrain or of how a map numbers its hexes; see
//! `numbering` for printed ids and `map` for what is in a hex.

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
    /// use muster_interpreter::geom::hex::Hex;
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
    /// use muster_interpreter::geom::hex::Hex;
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

/// The intervening steps of a straight line from the centre of `from` to the
/// centre of `to`, endpoints excluded. Where the line runs exactly along a
/// hexside the step is the [`LineStep::Pair`] of the hexes either side.
///
/// The trace is symmetric: tracing back gives the same steps reversed.
///
/// ```
/// use muster_interpreter::geom::hex::{line_trace, Hex, LineStep};
/// // Along a hex row the line meets no hexside.
/// assert_eq!(line_trace(Hex::new(0, 0), Hex::new(2, 0)), vec![LineStep::Hex(Hex::new(1, 0))]);
/// ```
#[must_use]
pub fn line_trace(from: Hex, to: Hex) -> Vec<LineStep> {
    LineIter::new(from, to).collect()
}

/// The steps of [`line_trace`] one at a time, without allocating.
///
/// The line is walked in exact integer arithmetic: each cube coordinate of
/// the point at step `i` of `n` is `X/n`, and the iterator keeps `2X + n` as
/// a quotient and remainder by `2n`, so that the quotient is the coordinate
/// rounded (halves up) and a zero remainder marks an exact half. A point
/// with two exact halves lies on a hexside: the step is the pair of hexes
/// either side. No floating point, no division in the loop.
#[derive(Clone, Debug)]
pub struct LineIter {
    axes: [Axis; 3],
    n: i64,
    left: i64,
    // Walking from the greater hex steps the axes backwards, so that both
    // directions compute the very same points (the trace is symmetric).
    reversed: bool,
}

/// One cube coordinate along the line: `2X + n = 2n·k + r`, `0 <= r < 2n`.
#[derive(Clone, Copy, Debug)]
struct Axis {
    k: i64,
    r: i64,
    dk: i64,
    dr: i64,
}

impl Axis {
    fn new(from: i64, to: i64, n: i64) -> Axis {
        let d = 2 * (to - from);
        Axis {
            k: from,
            r: n,
            dk: d.div_euclid(2 * n),
            dr: d.rem_euclid(2 * n),
        }
    }

    #[inline]
    fn forward(&mut self, two_n: i64) {
        self.k += self.dk;
        self.r += self.dr;
        if self.r >= two_n {
            self.r -= two_n;
            self.k += 1;
        }
    }

    #[inline]
    fn backward(&mut self, two_n: i64) {
        self.k -= self.dk;
        self.r -= self.dr;
        if self.r < 0 {
            self.r += two_n;
            self.k -= 1;
        }
    }
}

impl LineIter {
    /// The intervening steps from `from` to `to`.
    #[must_use]
    pub fn new(from: Hex, to: Hex) -> Self {
        let reversed = to < from;
        let (a, b) = if reversed { (to, from) } else { (from, to) };
        let n = i64::from(from.distance(to)).max(1);
        let mut axes = [
            Axis::new(i64::from(a.q), i64::from(b.q), n),
            Axis::new(i64::from(a.r), i64::from(b.r), n),
            Axis::new(i64::from(a.s()), i64::from(b.s()), n),
        ];
        if reversed {
            // Start at the last step before the greater hex... and walk back.
            for ax in &mut axes {
                for _ in 0..n {
                    ax.forward(2 * n);
                }
            }
        }
        LineIter {
            axes,
            n,
            left: i64::from(from.distance(to)) - 1,
            reversed,
        }
    }

    #[inline]
    fn current(&self) -> LineStep {
        let n = self.n;
        let [q, r, s] = self.axes;
        let ties = u8::from(q.r == 0) + u8::from(r.r == 0) + u8::from(s.r == 0);
        if ties >= 2 {
            // On a hexside: each tied coordinate is k - 1/2, the third is whole.
            let (h1, h2) = if s.r != 0 {
                (
                    Hex::new(q.k as i32, (r.k - 1) as i32),
                    Hex::new((q.k - 1) as i32, r.k as i32),
                )
            } else if r.r != 0 {
                (
                    Hex::new(q.k as i32, r.k as i32),
                    Hex::new((q.k - 1) as i32, r.k as i32),
                )
            } else {
                (
                    Hex::new(q.k as i32, r.k as i32),
                    Hex::new(q.k as i32, (r.k - 1) as i32),
                )
            };
            return if h1 <= h2 {
                LineStep::Pair(h1, h2)
            } else {
                LineStep::Pair(h2, h1)
            };
        }
        // Cube rounding: the coordinate that rounded furthest is rebuilt from the other two.
        let (eq, er, es) = ((q.r - n).abs(), (r.r - n).abs(), (s.r - n).abs());
        let hex = if eq > er && eq > es {
            Hex::new((-r.k - s.k) as i32, r.k as i32)
        } else if er > es {
            Hex::new(q.k as i32, (-q.k - s.k) as i32)
        } else {
            Hex::new(q.k as i32, r.k as i32)
        };
        LineStep::Hex(hex)
    }
}

impl Iterator for LineIter {
    type Item = LineStep;

    fn next(&mut self) -> Option<LineStep> {
        if self.left <= 0 {
            return None;
        }
        self.left -= 1;
        let two_n = 2 * self.n;
        for ax in &mut self.axes {
            if self.reversed {
                ax.backward(two_n);
            } else {
                ax.forward(two_n);
            }
        }
        Some(self.current())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.left.max(0) as usize;
        (left, Some(left))
    }
}

/// Whether the infinite straight line through the centres of `a` and `b`
/// passes through the inside of hex `c` (touching only a corner or running
/// along a side does not count). Flanking and field-of-fire rules use it.
#[must_use]
pub fn line_splits(a: Hex, b: Hex, c: Hex) -> bool {
    let centre = |h: Hex| {
        let (q, r) = (f64::from(h.q), f64::from(h.r));
        (1.5 * q, 3f64.sqrt() * (r + q / 2.0))
    };
    let (ax, ay) = centre(a);
    let (bx, by) = centre(b);
    let (cx, cy) = centre(c);
    let (dx, dy) = (bx - ax, by - ay);
    let len = (dx * dx + dy * dy).sqrt();
    if len == 0.0 {
        return a == c;
    }
    let (nx, ny) = (-dy / len, dx / len);
    let (mut lo, mut hi) = (f64::MAX, f64::MIN);
    for k in 0..6 {
        let t = std::f64::consts::FRAC_PI_3 * f64::from(k);
        let side = (cx + t.cos() - ax) * nx + (cy + t.sin() - ay) * ny;
        lo = lo.min(side);
        hi = hi.max(side);
    }
    lo < -1e-9 && hi > 1e-9
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Nearest whole number, without a libm call (the hot path of every LOS
    /// trace). Exact for the magnitudes hex coordinates reach; halves round up.
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

    /// The straightforward trace: sample the line at each step, nudged both
    /// ways off any hexside (across it, never along it), and round. The fast iterator must agree with it.
    fn reference_trace(from: Hex, to: Hex) -> Vec<LineStep> {
        let n = from.distance(to) as i64;
        let (a, b) = if to < from { (to, from) } else { (from, to) };
        let mut out = Vec::new();
        for i in 1..n {
            // One correctly rounded division from integers: exact halves stay exact.
            let q = (i64::from(a.q) * (n - i) + i64::from(b.q) * i) as f64 / n as f64;
            let r = (i64::from(a.r) * (n - i) + i64::from(b.r) * i) as f64 / n as f64;
            // Nudge along (1, 2, -3): not parallel to any hexside (a nudge along
            // (1, 1, -2) runs along the sides between hexes differing in q and r,
            // and then float noise picks one hex where the line runs on the side).
            let x = cube_round(q + 1e-6, r + 2e-6);
            let y = cube_round(q - 1e-6, r - 2e-6);
            out.push(if x == y {
                LineStep::Hex(x)
            } else if x <= y {
                LineStep::Pair(x, y)
            } else {
                LineStep::Pair(y, x)
            });
        }
        if to < from {
            out.reverse();
        }
        out
    }

    fn arb_hex() -> impl Strategy<Value = Hex> {
        (-30i32..30, -30i32..30).prop_map(|(q, r)| Hex::new(q, r))
    }

    #[test]
    fn a_line_along_a_side_between_hexes_differing_in_q_and_r_gives_a_pair() {
        // Found by the property test: (0,-2) to (4,10) runs along the side between
        // (0,0) and (1,-1) at its second step.
        let t = line_trace(Hex::new(0, -2), Hex::new(4, 10));
        assert_eq!(t[1], LineStep::Pair(Hex::new(0, 0), Hex::new(1, -1)));
        assert_eq!(t, reference_trace(Hex::new(0, -2), Hex::new(4, 10)));
    }

    #[test]
    fn line_splits_only_hexes_the_line_crosses() {
        let h = |q, r| Hex { q, r };
        assert!(line_splits(h(0, 0), h(2, 0), h(1, 0)));
        assert!(
            line_splits(h(0, 0), h(2, 0), h(4, 0)),
            "the line goes on past b"
        );
        assert!(!line_splits(h(0, 0), h(2, 0), h(0, 1)));
        assert!(!line_splits(h(0, 0), h(2, 0), h(3, -2)));
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
        fn fast_trace_matches_the_reference(a in arb_hex(), b in arb_hex()) {
            prop_assert_eq!(line_trace(a, b), reference_trace(a, b));
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
