//! Dice: one seeded generator per game whose stream never changes across
//! versions or platforms, named dice, the `11–66` reading, re-roll of the last
//! roll group, and a queue of forced values for worked examples.
//!
//! The generator is ChaCha8 keyed from the seed by splitmix64, and die faces
//! come from `next_u32` by rejection sampling written here, so that no crate
//! feature or version can change a seeded game.

use indexmap::IndexMap;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// One roll of one named die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// The die's name.
    pub die: String,
    /// The face rolled.
    pub value: i64,
    /// Whether the value came from the forced queue.
    pub forced: bool,
}

/// Why a roll could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// The ruleset declares no die of this name.
    #[error("no die named `{0}` (the ruleset's `dice` declares the names)")]
    UnknownDie(String),
    /// A forced value is not a face of the die.
    #[error("forced value {value} is not a face of die `{die}` (1 to {sides})")]
    BadForced {
        /// The die.
        die: String,
        /// The forced value.
        value: i64,
        /// Its number of faces.
        sides: i64,
    },
    /// Only forced values may be rolled (a strict example) and none is left.
    #[error("a roll of die `{die}` with no forced value left ({used} forced value(s) given, all rolled)")]
    NoForcedLeft {
        /// The die.
        die: String,
        /// How many forced values were rolled before.
        used: usize,
    },
    /// Only forced values may be drawn (a strict example) and a draw or shuffle needs a random one.
    #[error("a random {what} (a strict example forces its draws with `draws` and cannot shuffle; `unforced: (dice: Random)` allows both)")]
    NoForcedDraw {
        /// What needed the random index: a draw from a deck, a shuffle.
        what: String,
    },
    /// Nothing has been rolled, so there is nothing to re-roll.
    #[error("there is no roll to re-roll")]
    NothingToReroll,
}

/// A seeded stream of 32-bit numbers whose position can be saved.
#[derive(Clone, Debug)]
pub struct Stream {
    seed: u64,
    rng: ChaCha8Rng,
}

/// The saved position of a [`Stream`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamState {
    /// The seed the stream started from.
    pub seed: u64,
    /// How many 32-bit words it has produced.
    pub words: u64,
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Stream {
    /// A stream for `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        let mut key = [0u8; 32];
        let mut s = seed;
        for chunk in key.chunks_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut s).to_le_bytes());
        }
        Stream {
            seed,
            rng: ChaCha8Rng::from_seed(key),
        }
    }

    /// Restores a saved stream.
    #[must_use]
    pub fn restore(state: StreamState) -> Self {
        let mut s = Stream::new(state.seed);
        // ChaCha's word position counts 32-bit words.
        s.rng.set_word_pos(u128::from(state.words));
        s
    }

    /// The stream's position.
    #[must_use]
    pub fn state(&self) -> StreamState {
        StreamState {
            seed: self.seed,
            words: self.rng.get_word_pos() as u64,
        }
    }

    /// A uniform number in `0..n` (n > 0), without modulo bias.
    pub fn below(&mut self, n: u32) -> u32 {
        let zone = u32::MAX - (u32::MAX % n);
        loop {
            let x = self.rng.next_u32();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// The dice of one game.
#[derive(Clone, Debug)]
pub struct Dice {
    sides: IndexMap<String, i64>,
    stream: Stream,
    forced: VecDeque<i64>,
    /// Forced values rolled so far.
    forced_used: usize,
    /// Every roll must take a forced value (strict examples).
    only_forced: bool,
    last_group: Vec<String>,
}

impl Dice {
    /// Dice named as in `sides` (name → number of faces), seeded.
    #[must_use]
    pub fn new(sides: IndexMap<String, i64>, seed: u64) -> Self {
        Dice {
            sides,
            stream: Stream::new(seed),
            forced: VecDeque::new(),
            forced_used: 0,
            only_forced: false,
            last_group: Vec::new(),
        }
    }

    /// Restores dice at a saved stream position.
    #[must_use]
    pub fn restore(sides: IndexMap<String, i64>, state: StreamState) -> Self {
        Dice {
            sides,
            stream: Stream::restore(state),
            forced: VecDeque::new(),
            forced_used: 0,
            only_forced: false,
            last_group: Vec::new(),
        }
    }

    /// The stream position, for saving.
    #[must_use]
    pub fn state(&self) -> StreamState {
        self.stream.state()
    }

    /// Queues values that the next rolls take, in order, instead of random ones.
    pub fn force(&mut self, values: impl IntoIterator<Item = i64>) {
        self.forced.extend(values);
    }

    /// From now on a roll with no forced value left is an error, not a random roll.
    pub fn only_forced(&mut self) {
        self.only_forced = true;
    }

    /// How many forced values are still queued.
    #[must_use]
    pub fn forced_left(&self) -> usize {
        self.forced.len()
    }

    /// The number of faces of a die.
    pub fn sides_of(&self, die: &str) -> Result<i64, DiceError> {
        self.sides
            .get(die)
            .copied()
            .ok_or_else(|| DiceError::UnknownDie(die.to_string()))
    }

    fn roll_one(&mut self, die: &str) -> Result<Roll, DiceError> {
        let sides = self.sides_of(die)?;
        if let Some(value) = self.forced.pop_front() {
            if !(1..=sides).contains(&value) {
                return Err(DiceError::BadForced {
                    die: die.to_string(),
                    value,
                    sides,
                });
            }
            self.forced_used += 1;
            return Ok(Roll {
                die: die.to_string(),
                value,
                forced: true,
            });
        }
        if self.only_forced {
            return Err(DiceError::NoForcedLeft {
                die: die.to_string(),
                used: self.forced_used,
            });
        }
        let value = i64::from(self.stream.below(sides as u32)) + 1;
        Ok(Roll {
            die: die.to_string(),
            value,
            forced: false,
        })
    }

    /// Rolls one die; it becomes the last roll group.
    pub fn roll(&mut self, die: &str) -> Result<Roll, DiceError> {
        self.roll_group(&[die.to_string()]).map(|mut v| v.remove(0))
    }

    /// Rolls several dice together; they become the last roll group.
    pub fn roll_group(&mut self, dice: &[String]) -> Result<Vec<Roll>, DiceError> {
        let rolls = dice
            .iter()
            .map(|d| self.roll_one(d))
            .collect::<Result<Vec<_>, _>>()?;
        self.last_group = dice.to_vec();
        Ok(rolls)
    }

    /// Rolls the last roll group again (as a Fortunes of War re-roll does).
    pub fn reroll(&mut self) -> Result<Vec<Roll>, DiceError> {
        if self.last_group.is_empty() {
            return Err(DiceError::NothingToReroll);
        }
        let group = self.last_group.clone();
        self.roll_group(&group)
    }

    /// Draws an index below `n` from the game's stream (shuffles and cup draws); with only forced
    /// values allowed, a draw among two or more is an error saying `what` needed it.
    pub fn draw_index(
        &mut self,
        n: usize,
        what: impl FnOnce() -> String,
    ) -> Result<usize, DiceError> {
        if self.only_forced && n > 1 {
            return Err(DiceError::NoForcedDraw { what: what() });
        }
        Ok(self.stream.below(n as u32) as usize)
    }
}

/// The `11–66` reading of two dice: the first die gives tens, the second units.
///
/// ```
/// assert_eq!(muster_interpreter::world::dice::read_11_66(5, 3), 53);
/// ```
#[must_use]
pub fn read_11_66(tens: i64, units: i64) -> i64 {
    tens * 10 + units
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(seed: u64) -> Dice {
        Dice::new(
            IndexMap::from([("d6".to_string(), 6), ("d10".to_string(), 10)]),
            seed,
        )
    }

    #[test]
    fn stream_is_pinned() {
        // These values pin the generator: if they change, every seeded game changes.
        let mut d = dice(1);
        let v: Vec<i64> = (0..10).map(|_| d.roll("d6").unwrap().value).collect();
        assert_eq!(v, PINNED_SEED_1);
    }

    const PINNED_SEED_1: [i64; 10] = [3, 1, 4, 2, 1, 3, 5, 3, 1, 2];

    #[test]
    fn only_forced_dice_refuse_a_random_roll() {
        let mut d = dice(1);
        d.force([4]);
        d.only_forced();
        assert_eq!(d.roll("d6").unwrap().value, 4);
        assert_eq!(
            d.roll("d6"),
            Err(DiceError::NoForcedLeft {
                die: "d6".into(),
                used: 1
            })
        );
    }

    #[test]
    fn faces_in_range_and_all_seen() {
        let mut d = dice(7);
        let mut seen = [false; 10];
        for _ in 0..1000 {
            let v = d.roll("d10").unwrap().value;
            assert!((1..=10).contains(&v));
            seen[(v - 1) as usize] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }

    #[test]
    fn forced_values_come_first_and_are_checked() {
        let mut d = dice(1);
        d.force([3, 7]);
        assert_eq!(
            d.roll("d6").unwrap(),
            Roll {
                die: "d6".into(),
                value: 3,
                forced: true
            }
        );
        assert!(matches!(
            d.roll("d6"),
            Err(DiceError::BadForced { value: 7, .. })
        ));
        assert!(matches!(d.roll("d8"), Err(DiceError::UnknownDie(_))));
    }

    #[test]
    fn save_and_restore_continue_the_stream() {
        let mut a = dice(42);
        for _ in 0..17 {
            a.roll("d6").unwrap();
        }
        let mut b = Dice::restore(IndexMap::from([("d6".to_string(), 6)]), a.state());
        for _ in 0..20 {
            assert_eq!(a.roll("d6").unwrap().value, b.roll("d6").unwrap().value);
        }
    }

    #[test]
    fn reroll_repeats_the_group() {
        let mut d = dice(3);
        assert_eq!(d.reroll(), Err(DiceError::NothingToReroll));
        d.roll_group(&["d6".into(), "d10".into()]).unwrap();
        let again = d.reroll().unwrap();
        assert_eq!(
            again.iter().map(|r| r.die.as_str()).collect::<Vec<_>>(),
            ["d6", "d10"]
        );
    }
}
