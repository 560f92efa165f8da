//! The search agent (`--agent SIDE=search:N`, or `search:N:T`): at each decision it tries some of the options by
//! playing the game forward from a fork of it, and answers the option whose rollouts ended best.
//! It needs no code of the ruleset's beyond what every ruleset has: the bot plays the rollouts,
//! and `victory(game)` (or an optional `evaluate(game, side)`) scores them.
//!
//! How one decision is searched:
//!
//! 1. The options tried ([`candidates`]): as many as the budget allows, the bot's choice first,
//!    then the bot's next preferences where the core ranked the options (a move), else others
//!    drawn at random.
//! 2. The budget of N rollouts is shared among them. Rollout `k` of every option plays under the
//!    same seed, so the options are compared under the same luck (common random numbers). The
//!    second half of an option's rollouts is played only if the first half left it ahead of the
//!    bot's choice.
//! 3. A rollout is a fork of the game ([`crate::world::fork`]): the turn's checkpoint played
//!    again up to the decision, the option taken, and the rest of the turn and T - 1 turns more
//!    (T of `search:N:T`, [`DEFAULT_TURNS`](crate::world::agent::DEFAULT_TURNS) if not given)
//!    played by the ruleset's bot on both sides with the fork's own dice. The fork's dice come
//!    from the game's seed, the decision's number and `k`, never from the game's own stream, so
//!    the agent never knows the rolls the real game will make, and the same seed and budget give
//!    the same game.
//! 4. At the rollout's end the fork is scored for the side asked: `evaluate(game, side)` if the
//!    ruleset defines it, else the side's victory points less the best of the other sides'; either
//!    way a win or loss weighs [`WIN`] more when the game ended.
//! 5. The bot's choice is answered unless another option beat it under the same luck: its
//!    rollouts' scores less the bot choice's, rollout by rollout, average more than zero and more
//!    than [`CONFIDENCE`] standard errors. Of the options that did, the one with the greatest
//!    average gain is answered (a tie goes to the option tried first). A few rollouts are noisy:
//!    an agent that took the best mean would part from the bot on luck alone, and play worse.
//!
//! Rollouts run on every core, each worker thread with its own compiled ruleset.
//!
//! A game may audit its searches ([`Lookahead::auditing`], `muster play --audit N`): after each
//! search, every option it tried plays N more rollouts of fresh seeds, and the search's answer
//! is set beside what they say ([`Audit`]). The game's answers stay the same.

use super::{Game, Loaded};
use crate::error::{Error, Result};
use crate::value::Value;
use crate::world::agent::Budget;
use crate::world::dice::Stream;
use crate::world::fork::{Audit, AuditRow, ForkPoint, Gain, Searched, Searcher, Tried};
use crate::world::Rr;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// How much more a won (or lost) game weighs than one victory point.
pub const WIN: f64 = 1000.0;

/// The most options one decision tries, however large the budget.
pub const MAX_WIDTH: usize = 8;

/// The rollouts one option gets at least, when the budget allows: fewer would compare luck.
pub const MIN_ROLLOUTS_PER_OPTION: usize = 4;

/// How many standard errors of the paired differences an option's average gain over the bot's
/// choice must reach before the search answers it instead (step 5 of the module's text).
pub const CONFIDENCE: f64 = 1.0;

/// The fewest fresh rollouts an audit plays an option: half pick the best option and half
/// measure it, and each half needs two rollouts for a standard error.
pub const MIN_AUDIT_ROLLOUTS: usize = 4;

/// What is wrong with auditing searches on `rollouts` fresh rollouts an option, if anything (0
/// audits none).
#[must_use]
pub fn audit_problem(rollouts: usize) -> Option<String> {
    (1..MIN_AUDIT_ROLLOUTS).contains(&rollouts).then(|| {
        format!("needs {MIN_AUDIT_ROLLOUTS} fresh rollouts or more: half pick the best option, half measure it")
    })
}

/// The search agent of one game: it forks the game's scenario.
pub struct Lookahead {
    scenario: PathBuf,
    /// Fresh rollouts an option for the audit of each search (0: no audit).
    audit: usize,
}

impl Lookahead {
    /// The search agent for games of the scenario `path`.
    #[must_use]
    pub fn new(path: &Path) -> Lookahead {
        Lookahead {
            scenario: path.to_path_buf(),
            audit: 0,
        }
    }

    /// The same agent, auditing each search with `rollouts` fresh rollouts an option tried (see
    /// the module's text); 0 audits none.
    ///
    /// # Errors
    /// [`audit_problem`]: fewer than [`MIN_AUDIT_ROLLOUTS`], but more than 0.
    pub fn auditing(self, rollouts: usize) -> Result<Lookahead> {
        if let Some(problem) = audit_problem(rollouts) {
            return Err(Error::rules(format!("an audit {problem}")));
        }
        Ok(Lookahead {
            audit: rollouts,
            ..self
        })
    }
}

impl Searcher for Lookahead {
    fn pick(&self, at: &ForkPoint, budget: Budget, bot: &[usize]) -> Rr<Searched> {
        search(&self.scenario, at, budget, bot, self.audit).map_err(|e| {
            format!(
                "the search agent's rollouts of {}'s `{}` failed: {e}",
                at.side, at.kind
            )
            .into()
        })
    }
}

/// The options a decision of `at.options` tries with `rollouts` rollouts: as many as the budget
/// allows ([`MIN_ROLLOUTS_PER_OPTION`] each, at least 2 and at most [`MAX_WIDTH`]), the bot's
/// preferences `bot` first, in order, then others drawn at random from a stream of the
/// decision's own.
#[must_use]
pub fn candidates(at: &ForkPoint, rollouts: usize, bot: &[usize]) -> Vec<usize> {
    let width = (rollouts / MIN_ROLLOUTS_PER_OPTION)
        .clamp(2, MAX_WIDTH)
        .min(at.options);
    let mut tried: Vec<usize> = bot.iter().copied().take(width).collect();
    let mut others: Vec<usize> = (0..at.options).filter(|i| !tried.contains(i)).collect();
    // A partial shuffle: the first ones drawn are a uniform sample of the others.
    let mut stream = Stream::new(at.rollout_seed(usize::MAX));
    while tried.len() < width {
        let j = stream.below(others.len() as u32) as usize;
        tried.push(others.swap_remove(j));
    }
    tried
}

/// Searches the decision `at` of a game of `scenario` (see the module's text). The rollouts
/// are played in two rounds: the first half of every option's, then the second half of the
/// bot's choice and of the options still ahead of it. An option behind the bot's choice on the
/// first half's luck is unlikely to prove a sure gain, and most decisions of a game (a move
/// that changes nothing by the turn's end) have none ahead, so they cost half. With `audit`
/// above 0 the search is audited with that many fresh rollouts an option.
fn search(
    scenario: &Path,
    at: &ForkPoint,
    budget: Budget,
    bot: &[usize],
    audit: usize,
) -> Result<Searched> {
    let tried = candidates(at, budget.rollouts, bot);
    let each = (budget.rollouts / tried.len()).max(1);
    let rounds = Rounds {
        scenario,
        at,
        tried: &tried,
        turns: budget.turns,
    };
    let half = each.div_ceil(2);
    // scores[c][k]: the score of rollout k of the option tried c-th (the bot's choice first).
    let mut scores: Vec<Vec<f64>> = vec![Vec::new(); tried.len()];
    let all: Vec<usize> = (0..tried.len()).collect();
    rounds.play(&all, 0..half, &mut scores)?;
    let ahead: Vec<usize> = (1..tried.len())
        .filter(|&c| mean(&gains(&scores[c], &scores[0])) > 0.0)
        .collect();
    if !ahead.is_empty() && half < each {
        let again: Vec<usize> = std::iter::once(0).chain(ahead).collect();
        rounds.play(&again, half..each, &mut scores)?;
    }
    let mut best = 0;
    let mut best_gain = 0.0;
    for c in 1..tried.len() {
        if scores[c].len() < each {
            continue;
        }
        if let Some(gain) = sure_gain(&scores[c], &scores[0]).filter(|&g| g > best_gain) {
            best = c;
            best_gain = gain;
        }
    }
    Ok(Searched {
        index: tried[best],
        tried: tried
            .iter()
            .zip(&scores)
            .map(|(&option, own)| Tried {
                option,
                mean: mean(own),
                rollouts: own.len(),
            })
            .collect(),
        audit: (audit > 0)
            .then(|| fresh_rollouts(&rounds, each, audit))
            .transpose()
            .map_err(|e| {
                Error::rules(format!(
                    "the audit's fresh rollouts failed, where the search's own did not: {e}"
                ))
            })?,
    })
}

/// Plays each option tried on `rollouts` fresh rollouts, numbered from `from` on (past the
/// search's own, so none shares its luck), and sets each one's gain over the bot's choice beside
/// the best of the first half measured on the second (see [`Audit`]).
fn fresh_rollouts(rounds: &Rounds, from: usize, rollouts: usize) -> Result<Audit> {
    let mut scores: Vec<Vec<f64>> = vec![Vec::new(); rounds.tried.len()];
    let all: Vec<usize> = (0..rounds.tried.len()).collect();
    rounds.play(&all, from..from + rollouts, &mut scores)?;
    let half = rollouts / 2;
    let gain = |c: usize, ks: std::ops::Range<usize>| {
        Gain::of(&gains(&scores[c][ks.clone()], &scores[0][ks]))
    };
    let best = (0..scores.len()).fold(0, |best, c| {
        if mean(&scores[c][..half]) > mean(&scores[best][..half]) {
            c
        } else {
            best
        }
    });
    Ok(Audit {
        rollouts,
        gains: (0..scores.len()).map(|c| gain(c, 0..rollouts)).collect(),
        best_of_half: gain(best, half..rollouts),
    })
}

/// What a game's audited searches found ([`Game::audits`]), as a table by game turn: the
/// searches, how many parted from the bot's choice, the fresh rollouts' sum of the answers'
/// gains over the bot's choices, and that of the best of half of them (see [`Audit`]), each
/// with the standard error of the sum.
#[must_use]
pub fn audit_table(audits: &[AuditRow]) -> String {
    let mut turns: BTreeMap<i64, Vec<&AuditRow>> = BTreeMap::new();
    for a in audits {
        turns.entry(a.turn).or_default().push(a);
    }
    let row = |label: String, these: &[&AuditRow]| {
        let line = format!(
            "  {label:>5} {:>8} {:>6}  {}  {}",
            these.len(),
            these.iter().filter(|a| a.parted).count(),
            summed(these.iter().map(|a| a.chosen)),
            summed(these.iter().map(|a| a.best_of_half)),
        );
        format!("{}\n", line.trim_end())
    };
    let mut out = format!(
        "audit of {} searches (score gained over the bot's choices, by fresh rollouts)\n  {:>5} {:>8} {:>6}  {:<19}  {:<19}\n",
        audits.len(),
        "turn",
        "searches",
        "parted",
        "answers' gain",
        "best of half's gain"
    );
    for (turn, these) in &turns {
        out += &row(turn.to_string(), these);
    }
    out += &row("all".into(), &audits.iter().collect::<Vec<_>>());
    out
}

/// The sum of `gains` and its standard error, as a column of [`audit_table`].
fn summed(gains: impl Iterator<Item = Gain>) -> String {
    let (mean, variance) = gains.fold((0.0, 0.0), |(m, v), g| {
        (m + g.mean, v + g.standard_error.powi(2))
    });
    format!("{mean:+9.2} ± {:<7.2}", variance.sqrt())
}

/// The rollouts of one search: its decision, the options it tries and how far they look.
struct Rounds<'a> {
    scenario: &'a Path,
    at: &'a ForkPoint,
    /// The options tried, the bot's choice first.
    tried: &'a [usize],
    /// How many turns a rollout plays (see [`Budget::turns`]).
    turns: usize,
}

impl Rounds<'_> {
    /// Plays the rollouts `ks` of each option tried `which[i]`-th (an index into `tried`) on
    /// every core, adding each score to that option's `scores` in rollout order.
    fn play(
        &self,
        which: &[usize],
        ks: std::ops::Range<usize>,
        scores: &mut [Vec<f64>],
    ) -> Result<()> {
        let jobs: Vec<(usize, usize)> = which
            .iter()
            .flat_map(|&c| ks.clone().map(move |k| (c, k)))
            .collect();
        let results: Vec<f64> = pool()?.install(|| {
            jobs.par_iter()
                .map(|&(c, k)| self.rollout(self.tried[c], k))
                .collect::<Result<_>>()
        })?;
        for (&(c, _), score) in jobs.iter().zip(results) {
            scores[c].push(score);
        }
        Ok(())
    }

    /// Plays rollout `k` of `option` to the end of its turn, or of as many more turns as the
    /// budget looks ahead less one, and scores it for the side asked.
    fn rollout(&self, option: usize, k: usize) -> Result<f64> {
        let loaded = Loaded::on_this_thread(self.scenario)?;
        let mut game = Game::fork(&loaded, self.at, option, self.at.rollout_seed(k));
        for _ in 0..self.turns {
            if game.over() {
                break;
            }
            game.play_turn()?;
        }
        score(&game, &self.at.side)
    }
}

/// The mean of `values` (0 for none).
fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

/// The rollout-by-rollout differences of `scores` from the bot choice's `bot`, as far as both go.
fn gains(scores: &[f64], bot: &[f64]) -> Vec<f64> {
    scores.iter().zip(bot).map(|(s, b)| s - b).collect()
}

/// The average gain of the rollouts `scores` over the bot choice's `bot` under the same luck
/// (rollout by rollout), when it is above zero and above [`CONFIDENCE`] standard errors; else
/// none.
fn sure_gain(scores: &[f64], bot: &[f64]) -> Option<f64> {
    let Gain {
        mean,
        standard_error,
    } = Gain::of(&gains(scores, bot));
    (mean > 0.0 && mean > CONFIDENCE * standard_error).then_some(mean)
}

/// How good the game stands for `side`: the ruleset's `evaluate(game, side)` if it has one,
/// else the victory margin, with a won (or lost) game weighing [`WIN`] more (or less) either way
/// (see the module's text).
pub fn score(game: &Game, side: &str) -> Result<f64> {
    let result = game.victory()?;
    let mut score = if game.compiled().has_function("evaluate", 2) {
        evaluated(game, side)?
    } else {
        margin(&result, side)
    };
    if game.over() {
        match result.winner.as_deref() {
            Some(w) if w == side => score += WIN,
            Some(_) => score -= WIN,
            None => {}
        }
    }
    Ok(score)
}

/// The ruleset's `evaluate(game, side)`, which must be a number.
fn evaluated(game: &Game, side: &str) -> Result<f64> {
    let v = game.call("evaluate", vec![side.into()])?;
    match Value::from_dynamic(&v).map_err(Error::rules)? {
        Value::Int(i) => Ok(i as f64),
        Value::Float(f) => Ok(f),
        other => Err(Error::rules(format!(
            "`evaluate(game, side)` must return a number; it returned {other:?}"
        ))),
    }
}

/// `side`'s victory points less the best of the other sides'.
fn margin(result: &super::GameResult, side: &str) -> f64 {
    let own = result.vp.get(side).copied().unwrap_or(0);
    let best_other = result
        .vp
        .iter()
        .filter(|(s, _)| s.as_str() != side)
        .map(|(_, v)| *v)
        .max()
        .unwrap_or(0);
    (own - best_other) as f64
}

/// The threads rollouts run on: one a core, each with a stack deep enough for the scripts.
fn pool() -> Result<&'static rayon::ThreadPool> {
    static POOL: OnceLock<std::result::Result<rayon::ThreadPool, String>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .stack_size(crate::host::engine::SCRIPT_THREAD_STACK)
            .thread_name(|i| format!("muster-search-{i}"))
            .build()
            .map_err(|e| format!("cannot start the search agent's worker threads: {e}"))
    })
    .as_ref()
    .map_err(|e| Error::rules(e.clone()))
}

#[cfg(test)]
mod tests {
    use super::sure_gain;

    #[test]
    fn an_option_must_beat_the_bot_under_the_same_luck_to_be_answered() {
        // Better in every rollout: a sure gain.
        assert_eq!(
            sure_gain(&[3.0, 4.0, 5.0, 6.0], &[1.0, 2.0, 3.0, 4.0]),
            Some(2.0)
        );
        // A better mean from one lucky rollout is within the noise: the bot's choice stands.
        assert_eq!(
            sure_gain(&[20.0, 0.0, 0.0, 0.0], &[1.0, 1.0, 1.0, 1.0]),
            None
        );
        // Alike in every rollout, or worse: no gain.
        assert_eq!(sure_gain(&[1.0, 2.0], &[1.0, 2.0]), None);
        assert_eq!(sure_gain(&[0.0, 1.0], &[1.0, 2.0]), None);
    }
}
