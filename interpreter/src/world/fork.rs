//! Forks of a game in progress, for agents that look ahead (the search agent).
//!
//! A decision is asked from deep inside the scripts' calls, whose stack cannot be copied. So a
//! game keeps a [`Checkpoint`] at the start of every turn (the state, the dice and the number of
//! answers given), and a fork is that checkpoint played again with the answers given since as
//! forced answers: it reaches the same decision with the same past. Then the fork takes the
//! option to try, and from there its dice, draws and random answers come from a fresh stream
//! ([`ForkPoint::rollout_seed`]): nothing the real game has still to roll reaches a fork, so an
//! agent that looks ahead cannot know the real game's future.

use super::agent::Budget;
use super::dice::{Dice, Stream, StreamState};
use super::state::State;
use super::{Rr, World};
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

/// What a fork starts from: the game as it stood at the start of a turn.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The state, the turn marker on the turn about to be played.
    pub state: State,
    /// The dice then, forced values still queued included (an example's: a fork replays the
    /// past with them and drops the rest at its decision).
    pub dice: Dice,
    /// Forced draws still queued then (examples).
    pub forced_draws: VecDeque<String>,
    /// The random agent's stream then.
    pub agent_stream: StreamState,
    /// How many answers had been given then.
    pub answers: usize,
}

/// A decision to look ahead from: where its game last kept a checkpoint and what was answered
/// since, all a fork needs to reach the decision again.
#[derive(Clone, Debug)]
pub struct ForkPoint {
    /// The checkpoint at the start of this turn.
    pub checkpoint: Arc<Checkpoint>,
    /// The option indices answered since the checkpoint, in order.
    pub answers: Vec<usize>,
    /// The decision's number in the game (answers given before it, plus one).
    pub number: usize,
    /// The game's seed.
    pub seed: u64,
    /// The side asked.
    pub side: String,
    /// The kind of decision.
    pub kind: String,
    /// How many options the decision has.
    pub options: usize,
}

impl ForkPoint {
    /// The seed of rollout `k` from this decision: made of the game's seed, the decision's number
    /// and `k` only, never of the game's streams, so the same game and budget give the same
    /// rollouts and no rollout shares a roll with the real game's future.
    #[must_use]
    pub fn rollout_seed(&self, k: usize) -> u64 {
        mix(mix(mix(self.seed ^ 0xA076_1D64_78BD_642F) ^ self.number as u64) ^ k as u64)
    }
}

/// A splitmix64 step: spreads nearby inputs over the whole range.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a search found: the option chosen and how each option tried did.
#[derive(Clone, Debug, PartialEq)]
pub struct Searched {
    /// The option chosen.
    pub index: usize,
    /// Each option tried, in the order tried.
    pub tried: Vec<Tried>,
    /// What fresh rollouts said of the options tried, when the game audits its searches.
    pub audit: Option<Audit>,
}

/// A search audited (`muster play --audit N`): each option it tried played again on N rollouts
/// of fresh seeds, none of them the search's own, so the gains below are not the luck that
/// made the search choose.
#[derive(Clone, Debug, PartialEq)]
pub struct Audit {
    /// The fresh rollouts each option had.
    pub rollouts: usize,
    /// Each option tried, in the order tried: its gain over the bot's choice (the first, whose
    /// own gain is 0) under the same luck, over all the fresh rollouts.
    pub gains: Vec<Gain>,
    /// The gain, over the second half of the fresh rollouts, of the option whose first half
    /// scored best (the first such, the bot's choice on a tie): what taking the best mean of
    /// the same options on half the rollouts would gain, measured without the luck that
    /// picked it.
    pub best_of_half: Gain,
}

/// A gain in score over the bot's choice, rollout by rollout under the same luck.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Gain {
    /// The mean of the differences.
    pub mean: f64,
    /// Its standard error (0 for fewer than two rollouts).
    pub standard_error: f64,
}

impl Gain {
    /// The mean and standard error of the differences `values`.
    #[must_use]
    pub fn of(values: &[f64]) -> Gain {
        let (mean, variance) = mean_and_variance(values);
        let n = values.len().max(1) as f64;
        Gain {
            mean,
            standard_error: (variance / n).sqrt(),
        }
    }
}

/// The mean of `values` and their sample variance (0 for fewer than two; both 0 for none).
#[must_use]
pub fn mean_and_variance(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = if values.len() > 1 {
        values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (mean, variance)
}

/// One audited search of a game, as [`World::audits`] keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct AuditRow {
    /// The game turn of the decision.
    pub turn: i64,
    /// The side asked.
    pub side: String,
    /// The kind of decision.
    pub kind: String,
    /// Whether the search answered another option than the bot's choice.
    pub parted: bool,
    /// The fresh rollouts' gain of the option answered over the bot's choice (0 when it kept it).
    pub chosen: Gain,
    /// [`Audit::best_of_half`]'s gain.
    pub best_of_half: Gain,
}

/// One option a search tried: its rollouts and their mean score.
#[derive(Clone, Debug, PartialEq)]
pub struct Tried {
    /// The option's index.
    pub option: usize,
    /// The mean score of its rollouts.
    pub mean: f64,
    /// How many rollouts it had.
    pub rollouts: usize,
}

/// Who picks an option by looking ahead: the search agent. The world hands it the decision as
/// a [`ForkPoint`], its budget and the ruleset's bot's preferences, and it answers an option.
pub trait Searcher {
    /// Picks an option of the decision `at` within `budget`; `bot` holds the options the
    /// ruleset's bot prefers, best first (its choice alone, unless the core ranked them).
    fn pick(&self, at: &ForkPoint, budget: Budget, bot: &[usize]) -> Rr<Searched>;
}

impl World {
    /// Keeps a checkpoint of the game as it stands, for forks of the decisions to come. Only a
    /// game with a searcher keeps one.
    pub fn keep_checkpoint(&mut self) {
        if self.searcher.is_none() {
            return;
        }
        let answers = self.progress.lock().replayed();
        self.checkpoint = Some(Arc::new(Checkpoint {
            state: self.state.clone(),
            dice: self.dice.clone(),
            forced_draws: self.forced_draws.clone(),
            agent_stream: self.agent_stream.state(),
            answers,
        }));
    }

    /// The searches audited so far (`muster play --audit N`), in order.
    #[must_use]
    pub fn audits(&self) -> &[AuditRow] {
        &self.audits
    }

    /// Keeps an audited search of `side`'s `kind` at the current turn. A search whose answer
    /// its audit did not measure (an answer not among the options tried) is left out.
    pub(super) fn keep_audit(&mut self, side: &str, kind: &str, found: &Searched) {
        let Some(audit) = &found.audit else { return };
        let Some(answered) = found.tried.iter().position(|t| t.option == found.index) else {
            return;
        };
        let Some(&chosen) = audit.gains.get(answered) else {
            return;
        };
        self.audits.push(AuditRow {
            turn: self.state.turn,
            side: side.to_string(),
            kind: kind.to_string(),
            parted: answered != 0,
            chosen,
            best_of_half: audit.best_of_half,
        });
    }

    /// Hands the game the searcher its search agents ask.
    pub fn set_searcher(&mut self, searcher: Rc<dyn Searcher>) {
        self.searcher = Some(searcher);
    }

    /// The decision now being asked of `side`, as a fork would reach it; `None` before the
    /// game's first checkpoint (a decision of the set-up).
    #[must_use]
    pub fn fork_point(&self, side: &str, kind: &str, options: usize) -> Option<ForkPoint> {
        let checkpoint = self.checkpoint.clone()?;
        let progress = self.progress.lock();
        let given = &progress.file().answers[checkpoint.answers..progress.replayed()];
        Some(ForkPoint {
            answers: given.iter().map(|a| a.choice).collect(),
            number: progress.replayed() + 1,
            seed: progress.file().seed,
            side: side.to_string(),
            kind: kind.to_string(),
            options,
            checkpoint,
        })
    }

    /// Turns this world (new, on the checkpoint's game) into a fork of `at` that tries option
    /// `option` and then rolls with the stream of seed `seed`.
    pub fn become_fork(&mut self, at: &ForkPoint, option: usize, seed: u64) {
        let cp = &at.checkpoint;
        self.state = cp.state.clone();
        self.dice = cp.dice.clone();
        self.forced_draws = cp.forced_draws.clone();
        self.agent_stream = Stream::restore(cp.agent_stream);
        self.forced = at
            .answers
            .iter()
            .chain([&option])
            .map(|&i| super::agent::Answer::Index(i))
            .collect();
        self.fresh_after_forced = Some(seed);
    }

    /// After the last forced answer of a fork: the dice, draws and random answers from now on
    /// come from the fork's own stream, and nothing an example forced for later is used.
    pub(super) fn after_forced(&mut self) {
        if let Some(seed) = self.fresh_after_forced.take() {
            self.dice = Dice::new(self.ruleset.dice.clone(), seed);
            self.forced_draws.clear();
            self.agent_stream = Stream::new(seed ^ 0x5851_F42D_4C95_7F2D);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rollout_seeds_differ_by_decision_and_rollout_and_game() {
        let at = |seed, number| ForkPoint {
            checkpoint: Arc::new(Checkpoint {
                state: State::default(),
                dice: Dice::new(indexmap::IndexMap::new(), 1),
                forced_draws: VecDeque::new(),
                agent_stream: Stream::new(1).state(),
                answers: 0,
            }),
            answers: Vec::new(),
            number,
            seed,
            side: "red".into(),
            kind: "k".into(),
            options: 2,
        };
        let seeds = [
            at(1, 1).rollout_seed(0),
            at(1, 1).rollout_seed(1),
            at(1, 2).rollout_seed(0),
            at(2, 1).rollout_seed(0),
        ];
        let distinct: std::collections::HashSet<_> = seeds.iter().collect();
        assert_eq!(distinct.len(), seeds.len());
        assert_eq!(at(1, 1).rollout_seed(3), at(1, 1).rollout_seed(3));
    }
}
