//! Wald's sequential probability ratio test (SPRT) on a win rate: does an agent win at least a
//! target share of its games? Games are played one after another and the test stops as soon as
//! the evidence settles the question, which takes far fewer games than a fixed-size run when
//! the true rate is well away from the target. Engine testers use it for the same reason: each
//! game of a strong agent is expensive.
//!
//! The test weighs H0, "the rate is `low`", against H1, "the rate is `high`", with the target
//! in between (the indifference zone: a rate inside it may be judged either way). After `w`
//! wins of `n` games the log-likelihood ratio is
//! `w ln(high / low) + (n - w) ln((1 - high) / (1 - low))`. The test answers "at least the
//! target" when it reaches `ln((1 - BETA) / ALPHA)`, "below" when it falls to
//! `ln(BETA / (1 - ALPHA))`, and goes on otherwise. A true rate of `low` or less is called
//! "at least" with probability at most [`ALPHA`]; a rate of `high` or more is called "below"
//! with probability at most [`BETA`].

/// The chance of answering "at least the target" when the rate is the zone's low end.
pub const ALPHA: f64 = 0.05;

/// The chance of answering "below the target" when the rate is the zone's high end.
pub const BETA: f64 = 0.05;

/// The half-width of the indifference zone around the target when none is given.
pub const DEFAULT_MARGIN: f64 = 0.05;

/// A test of whether a win rate reaches a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The target rate.
    pub target: f64,
    /// The rate under H0, below the target.
    pub low: f64,
    /// The rate under H1, above the target.
    pub high: f64,
}

/// What the games so far say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The rate is at least the target.
    AtLeast,
    /// The rate is below the target.
    Below,
    /// Not yet settled: play on.
    Undecided,
}

impl Sprt {
    /// The test of rate `target` with the zone `target ± margin`, which must lie inside (0, 1).
    pub fn new(target: f64, margin: f64) -> Result<Sprt, String> {
        let (low, high) = (target - margin, target + margin);
        if !(margin > 0.0 && low > 0.0 && high < 1.0) {
            return Err(format!(
                "the target {target} less and plus the margin {margin} must lie strictly between 0 and 1, with a margin above 0"
            ));
        }
        Ok(Sprt { target, low, high })
    }

    /// The log-likelihood ratio of H1 against H0 after `wins` of `games`.
    #[must_use]
    pub fn llr(&self, wins: usize, games: usize) -> f64 {
        let losses = games.saturating_sub(wins) as f64;
        wins as f64 * (self.high / self.low).ln()
            + losses * ((1.0 - self.high) / (1.0 - self.low)).ln()
    }

    /// The ratio's bounds: below the first the rate is below the target, at the second or
    /// above it is at least the target.
    #[must_use]
    pub fn bounds() -> (f64, f64) {
        ((BETA / (1.0 - ALPHA)).ln(), ((1.0 - BETA) / ALPHA).ln())
    }

    /// The verdict after `wins` of `games`.
    #[must_use]
    pub fn verdict(&self, wins: usize, games: usize) -> Verdict {
        let (below, at_least) = Sprt::bounds();
        let llr = self.llr(wins, games);
        if llr >= at_least {
            Verdict::AtLeast
        } else if llr <= below {
            Verdict::Below
        } else {
            Verdict::Undecided
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_wins_or_of_losses_settles_it_at_the_bounds() {
        let t = Sprt::new(0.6, 0.05).unwrap();
        // A win weighs ln(0.65 / 0.55) = 0.167, a loss ln(0.35 / 0.45) = -0.251; the bounds
        // are -+ln(19) = -+2.944: 18 straight wins say "at least", 12 straight losses "below".
        assert_eq!(t.verdict(17, 17), Verdict::Undecided);
        assert_eq!(t.verdict(18, 18), Verdict::AtLeast);
        assert_eq!(t.verdict(0, 11), Verdict::Undecided);
        assert_eq!(t.verdict(0, 12), Verdict::Below);
        // Wins at the target's own rate keep it undecided for long.
        assert_eq!(t.verdict(60, 100), Verdict::Undecided);
        // Well above it, and well below it.
        assert_eq!(t.verdict(77, 100), Verdict::AtLeast);
        assert_eq!(t.verdict(25, 100), Verdict::Below);
    }

    #[test]
    fn the_zone_must_lie_inside_zero_and_one() {
        assert!(Sprt::new(0.97, 0.05).is_err());
        assert!(Sprt::new(0.5, 0.0).is_err());
        assert!(Sprt::new(0.03, 0.05).is_err());
        let t = Sprt::new(0.5, 0.1).unwrap();
        assert!((t.low - 0.4).abs() < 1e-12 && (t.high - 0.6).abs() < 1e-12);
    }

    #[test]
    fn more_wins_never_lower_the_ratio() {
        let t = Sprt::new(0.6, 0.05).unwrap();
        for n in 0..60 {
            for w in 0..n {
                assert!(t.llr(w + 1, n) > t.llr(w, n));
            }
        }
    }
}
