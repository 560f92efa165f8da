//! The decision protocol: who answers a decision (a forced answer, a saved answer being
//! replayed, the random agent, a replay, a person, the ruleset's bot, or the search agent,
//! which looks ahead from the bot's choice), how the answer is
//! checked, logged and kept for the save.
//!
//! Invariant: every decision goes through [`pick_index`], which records the options when an
//! example asks, and is logged by [`log_decision`]; a decision with one option asks no one.
//! Every other answer is kept in the game's [`super::save::Progress`]. While a save is being
//! replayed, an answer a person, a replay log or an example gave is taken from the save, and
//! one of the bot or the random agent is worked out again and must be the saved one: the game
//! that replays is the game that was saved, or an error says where it parts.

use super::agent::{AgentKind, Choice, Prompt, Reply, Stop, HELP};
use super::log::Entry;
use super::save::{resume_hint, Answered};
use super::{fail, GameHandle, Offer, Rr, World};
use crate::geom::hex::Hex;
use rhai::{Array, Dynamic, FnPtr, Map as RMap, NativeCallContext, INT};

/// The text of an option: its `label` if it is a map with one. A `label` that is a function
/// pointer is the ruleset's labeller, called as `labeller(game, option)` only when the text is
/// needed (a person, the log, a forced answer): a decision among many options (every
/// destination of a move, every fire a stack may make) does not write out a label for each
/// when a bot answers it.
pub fn option_label(ctx: &NativeCallContext, g: &GameHandle, d: &Dynamic) -> Rr<String> {
    let labeller = match d.read_lock::<RMap>() {
        Some(m) => match m.get("label") {
            Some(l) => match l.read_lock::<FnPtr>() {
                Some(f) => f.clone(),
                None => return Ok(l.to_string()),
            },
            None => return Ok(d.to_string()),
        },
        None => return Ok(d.to_string()),
    };
    let text: Dynamic = labeller.call_within_context(ctx, (g.clone(), d.clone()))?;
    Ok(text.to_string())
}

/// The labels of `options`, in order ([`option_label`]).
fn labels_of(ctx: &NativeCallContext, g: &GameHandle, options: &[Dynamic]) -> Rr<Vec<String>> {
    options.iter().map(|o| option_label(ctx, g, o)).collect()
}

/// What a person is shown of a decision beyond the labels: each option with its detail and
/// hex, and the hex the decision is about. Built only when a person is asked.
#[derive(Clone, Debug, Default)]
pub struct Shown {
    /// The options as a person sees them, in order.
    pub choices: Vec<Choice>,
    /// The hex the decision is about, when there is one.
    pub focus: Option<Hex>,
}

/// A decision's answer so far: the option picked (`usize::MAX` while the bot or the search is
/// still to work it out), the agent that answers, and the labels of the options, when they had to
/// be made (else empty).
pub struct Picked {
    /// The option picked, or `usize::MAX`.
    pub index: usize,
    /// Who answers: `"bot"`, `"human"`, `"forced"` ...
    pub agent: &'static str,
    /// Every option's label, made only when someone reads them.
    pub labels: Vec<String>,
}

/// Which agent answers a decision among `n` options, and, unless it is the
/// bot, which option it picks. `labels` builds the options' labels and is
/// called only when a person, an example or a forced answer needs them; `shown` builds what a
/// person sees from the world and the labels, and is called only when a person is asked.
pub fn pick_index(
    g: &GameHandle,
    side: &str,
    kind: &str,
    n: usize,
    labels: &dyn Fn() -> Rr<Vec<String>>,
    shown: &dyn Fn(&World, Vec<String>) -> Shown,
) -> Rr<Picked> {
    if n == 0 {
        return fail(format!(
            "{side} was asked to choose `{kind}` from no options"
        ));
    }
    // The labels are made before the world is borrowed: a ruleset's labeller reads the game.
    // Empty when no one will read them.
    let labels = if needs_labels(&g.0.borrow(), side, n) {
        labels()?
    } else {
        Vec::new()
    };
    let (index, agent) = answer(g, side, kind, n, &labels, shown)?;
    Ok(Picked {
        index,
        agent,
        labels,
    })
}

/// The answer of [`pick_index`] once the labels are made.
fn answer(
    g: &GameHandle,
    side: &str,
    kind: &str,
    n: usize,
    labels: &[String],
    shown: &dyn Fn(&World, Vec<String>) -> Shown,
) -> Rr<(usize, &'static str)> {
    let mut w = g.0.borrow_mut();
    if let Some(stop) = w.stop {
        // Stopped at the terminal: nothing more is decided, so the scripts unwind to the loop.
        return fail(stop.to_string());
    }
    if !w.agents.contains_key(side) {
        return fail(format!("`{side}` is not a side of this ruleset"));
    }
    if let Some(offers) = &mut w.offers {
        offers.push(Offer {
            side: side.to_string(),
            kind: kind.to_string(),
            labels: labels.to_vec(),
        });
    }
    if n == 1 {
        // Nothing to decide: no agent is asked and no forced answer is used.
        return Ok((0, "only"));
    }
    if let Some(ans) = w.forced.pop_front() {
        let index = match ans {
            // An index in range needs no labels (a fork replays its answers so).
            super::agent::Answer::Index(i) if i < n => i,
            ans => ans.pick(labels).map_err(|e| e.to_string())?,
        };
        if w.forced.is_empty() {
            w.after_forced();
        }
        return Ok((index, "forced"));
    }
    if w.only_forced {
        return fail(format!(
            "{side}'s `{kind}` decision has no forced answer left; its options: {}",
            labels.join(" | ")
        ));
    }
    let saved = w.progress.lock().pending().map(|(i, a)| (i, a.clone()));
    if let Some((number, saved)) = saved {
        return replayed_pick(&mut w, side, kind, n, number, &saved);
    }
    let w = &mut *w;
    match w.agents.get_mut(side) {
        Some(AgentKind::Random) => Ok((w.agent_stream.below(n as u32) as usize, "random")),
        Some(AgentKind::Replay { answers, .. }) => match answers.pop_front() {
            Some(i) if i < n => Ok((i, "replay")),
            Some(i) => fail(format!(
                "replayed answer {i} for {side}'s `{kind}` is illegal: there are {n} options"
            )),
            None => fail(format!(
                "the replay for {side} has no answer left for `{kind}`"
            )),
        },
        Some(AgentKind::Human) => {
            let shown = shown(w, labels.to_vec());
            Ok((ask_person(w, side, kind, &shown)?, "human"))
        }
        Some(AgentKind::Bot) | None => Ok((usize::MAX, "bot")),
        Some(AgentKind::Search(_)) => Ok((usize::MAX, "search")),
    }
}

/// Whether [`pick_index`] may need the labels of `side`'s decision among `n` options: an
/// example records every decision's options, a forced answer may name its option or, when none
/// is left, the error lists them, and a person reads them.
fn needs_labels(w: &World, side: &str, n: usize) -> bool {
    if w.offers.is_some() {
        return true;
    }
    if n < 2 || w.stop.is_some() {
        return false;
    }
    match w.forced.front() {
        Some(super::agent::Answer::Index(i)) => *i >= n,
        Some(super::agent::Answer::Label(_)) => true,
        None => w.only_forced || matches!(w.agents.get(side), Some(AgentKind::Human)),
    }
}

/// The index an agent that works in the scripts answers with: the bot's (the first of `bot`'s
/// options, the bot's preferences, best first), or the search agent's, which starts from the
/// bot's; any other agent's `index` as it is.
fn worked_out(
    g: &GameHandle,
    side: &str,
    kind: &str,
    n: usize,
    &Picked { index, agent, .. }: &Picked,
    bot: &dyn Fn() -> Rr<Vec<usize>>,
    labels: &dyn Fn() -> Rr<Vec<String>>,
) -> Rr<usize> {
    match agent {
        // `usize::MAX`: to be worked out now (a search answer being replayed is given).
        "bot" | "search" if index == usize::MAX => {
            let preferred = bot()?;
            let Some(&first) = preferred.first() else {
                return fail(format!("the bot chose none of {side}'s `{kind}` options"));
            };
            if agent == "bot" {
                Ok(first)
            } else {
                searched(g, side, kind, n, &preferred, labels)
            }
        }
        _ => Ok(index),
    }
}

/// The search agent's answer to `side`'s decision among `n` options, the bot preferring the
/// options of `bot` in that order: its searcher looks ahead from the decision. A decision before
/// the game's first checkpoint (the set-up's) takes the bot's choice. The log says what the
/// search found, each option tried with its mean score (the options' `labels`).
fn searched(
    g: &GameHandle,
    side: &str,
    kind: &str,
    n: usize,
    bot: &[usize],
    labels: &dyn Fn() -> Rr<Vec<String>>,
) -> Rr<usize> {
    let (searcher, at, budget) = {
        let w = g.0.borrow();
        let Some(&AgentKind::Search(budget)) = w.agents.get(side) else {
            return Ok(bot[0]);
        };
        match (w.searcher.clone(), w.fork_point(side, kind, n)) {
            (Some(searcher), Some(at)) => (searcher, at, budget),
            _ => return Ok(bot[0]),
        }
    };
    let found = searcher.pick(&at, budget, bot)?;
    let index = found.index;
    if index >= n || found.tried.iter().any(|t| t.option >= n) {
        return fail(format!(
            "the search agent chose option {} of {side}'s `{kind}`, which has {n}",
            index + 1
        ));
    }
    let labels = labels()?;
    let tried: Vec<String> = found
        .tried
        .iter()
        .map(|t| format!("`{}` {:.2} ({})", labels[t.option], t.mean, t.rollouts))
        .collect();
    let audit = found.audit.as_ref().map_or_else(String::new, |a| {
        let gains: Vec<String> = found
            .tried
            .iter()
            .zip(&a.gains)
            .skip(1)
            .map(|(t, g)| {
                format!(
                    "`{}` {:+.2} ± {:.2}",
                    labels[t.option], g.mean, g.standard_error
                )
            })
            .collect();
        format!(
            "; audited on {} fresh rollouts (gain over the bot's choice ± standard error): {}",
            a.rollouts,
            gains.join(", ")
        )
    });
    let mut w = g.0.borrow_mut();
    w.keep_audit(side, kind, &found);
    w.event(
        "search",
        format!(
            "{side}'s `{kind}` searched (mean score, rollouts): {}; chose `{}`{audit}",
            tried.join(", "),
            labels[index]
        ),
    );
    Ok(index)
}

/// The error of a save that parts from the game replaying it at its decision `number`.
fn no_longer(number: usize, detail: &str) -> String {
    format!("the saved game no longer replays on these rules: decision {number}, {detail}")
}

/// Who answers the decision that the save's answer `number` (`saved`) was given to, and with
/// what: the saved choice for a person, a replay log or an example; the bot and the random agent
/// answer again (and [`log_decision`] compares).
fn replayed_pick(
    w: &mut World,
    side: &str,
    kind: &str,
    n: usize,
    number: usize,
    saved: &Answered,
) -> Rr<(usize, &'static str)> {
    if saved.side != side || saved.kind != kind {
        return fail(no_longer(
            number,
            &format!(
                "{}'s `{}` in the save, where the rules now ask {side}'s `{kind}`",
                saved.side, saved.kind
            ),
        ));
    }
    if saved.choice >= n {
        return fail(no_longer(
            number,
            &format!(
                "{side}'s `{kind}`: the save chose option {} and there are now {n}",
                saved.choice + 1
            ),
        ));
    }
    match saved.agent.as_str() {
        "human" => Ok((saved.choice, "human")),
        "forced" => Ok((saved.choice, "forced")),
        // The search agent's answer is not worked out again: its rollouts would cost the whole
        // search once more, for the same answer.
        "search" => Ok((saved.choice, "search")),
        "bot" => Ok((usize::MAX, "bot")),
        "random" => Ok((w.agent_stream.below(n as u32) as usize, "random")),
        "replay" => {
            // A side still played by its replay log takes that answer too, to stay in step.
            if let Some(AgentKind::Replay { answers, .. }) = w.agents.get_mut(side) {
                if let Some(i) = answers.pop_front().filter(|i| *i != saved.choice) {
                    return fail(no_longer(
                        number,
                        &format!(
                            "{side}'s `{kind}`: the save chose option {} and the replay log now option {}",
                            saved.choice + 1,
                            i + 1
                        ),
                    ));
                }
            }
            Ok((saved.choice, "replay"))
        }
        other => fail(no_longer(
            number,
            &format!("{side}'s `{kind}` was answered by `{other}`, which is not an agent"),
        )),
    }
}

/// Asks a person at the terminal, until an option is chosen or the game stops (undo, quit, end
/// of input: the decision fails with the [`Stop`] kept in the world).
fn ask_person(w: &mut World, side: &str, kind: &str, shown: &Shown) -> Rr<usize> {
    // `--save` keeps the game whenever a person is asked: a terminal closed now loses nothing.
    if let Some(Err(e)) = w.progress.autosave() {
        w.terminal.tell(&format!("cannot save the game: {e}"));
    }
    let n = shown.choices.len();
    loop {
        let prompt = Prompt {
            side,
            kind,
            choices: &shown.choices,
            focus: shown.focus,
            map: w.bound.map(),
            state: &w.state,
            style: &w.ruleset.style,
        };
        match w.terminal.ask(&prompt) {
            Reply::Pick(i) if i < n => return Ok(i),
            Reply::Pick(i) => {
                return fail(format!(
                    "the terminal chose option {} of {side}'s `{kind}`, which has {n}",
                    i + 1,
                ))
            }
            Reply::Help => w.terminal.tell(HELP),
            Reply::Save(to) => {
                let text = match w.progress.save(to.as_deref()) {
                    Ok(path) => resume_hint(&path),
                    Err(e) => format!("cannot save the game: {e}"),
                };
                w.terminal.tell(&text);
            }
            Reply::Undo => {
                let last = {
                    let answers = w.progress.lock();
                    let all = &answers.file().answers;
                    all.iter()
                        .rposition(|a| a.side == side && a.agent == "human")
                        .map(|k| (k, all[k].clone(), all.len() - k - 1))
                };
                let Some((keep, taken, later)) = last else {
                    w.terminal.tell(&format!(
                        "nothing to take back: {side} has answered nothing at the terminal yet"
                    ));
                    continue;
                };
                let after = match later {
                    0 => String::new(),
                    1 => " and the answer after it".to_string(),
                    k => format!(" and the {k} answers after it"),
                };
                w.terminal.tell(&format!(
                    "taking back {side}'s `{}`: {}{after}",
                    taken.kind, taken.label
                ));
                return stop(w, Stop::Undo { keep });
            }
            Reply::Quit => return stop(w, Stop::Quit),
            Reply::End => return stop(w, Stop::End),
        }
    }
}

/// Stops the game at the terminal: the decision fails, and so does every one after it, until
/// the game's loop takes the stop.
fn stop<T>(w: &mut World, why: Stop) -> Rr<T> {
    w.stop = Some(why);
    fail(why.to_string())
}

/// Records a decision in the log, and keeps its answer for the save; while a save is being
/// replayed, the answer must be the saved one.
pub fn log_decision(
    g: &GameHandle,
    side: &str,
    kind: &str,
    index: usize,
    label: String,
    agent: &str,
) -> Rr<()> {
    let mut w = g.0.borrow_mut();
    let mut replay_done = false;
    if agent != "only" {
        let answer = Answered {
            side: side.to_string(),
            kind: kind.to_string(),
            choice: index,
            label: label.clone(),
            agent: agent.to_string(),
        };
        let mut answers = w.progress.lock();
        match answers.pending() {
            Some((number, saved)) if *saved != answer => {
                return fail(no_longer(
                    number,
                    &format!(
                        "{side}'s `{kind}`: the save has `{}` (option {}, by {}), and the {agent} now answers `{label}` (option {})",
                        saved.label,
                        saved.choice + 1,
                        saved.agent,
                        index + 1
                    ),
                ));
            }
            Some(_) => {
                answers.confirm();
                replay_done = answers.pending_len() == 0;
            }
            None => answers.record(answer),
        }
    }
    w.record(Entry::Decision {
        side: side.to_string(),
        kind: kind.to_string(),
        choice: index,
        label,
        agent: agent.to_string(),
    });
    if replay_done {
        w.end_replay();
    }
    Ok(())
}

/// Asks the ruleset's bot (`fn bot_choose`) to pick among `options`.
pub fn ask_bot(
    ctx: &NativeCallContext,
    g: &GameHandle,
    side: &str,
    kind: &str,
    options: &Array,
) -> Rr<usize> {
    // No borrow is held: the bot reads the game through the same handle.
    let answer: Dynamic = ctx.call_fn(
        "bot_choose",
        (
            g.clone(),
            side.to_string(),
            kind.to_string(),
            options.clone(),
        ),
    )?;
    bot_index(&answer, options, side, kind)
}

/// The label of option `index` for the log: the one already made for the decision, if the
/// labels were made, else made now by `make`.
fn chosen_label(picked: &Picked, index: usize, make: impl FnOnce() -> Rr<String>) -> Rr<String> {
    match picked.labels.get(index) {
        Some(label) => Ok(label.clone()),
        None => make(),
    }
}

/// Asks a side to choose among options and returns the chosen option.
pub fn choose(
    ctx: &NativeCallContext,
    g: &GameHandle,
    side: &str,
    kind: &str,
    options: Array,
) -> Rr<Dynamic> {
    let labels = || labels_of(ctx, g, &options);
    let shown = |w: &World, labels: Vec<String>| shown_options(w, &options, labels);
    let picked = pick_index(g, side, kind, options.len(), &labels, &shown)?;
    let bot = || ask_bot(ctx, g, side, kind, &options).map(|i| vec![i]);
    let index = worked_out(g, side, kind, options.len(), &picked, &bot, &labels)?;
    let label = chosen_label(&picked, index, || option_label(ctx, g, &options[index]))?;
    log_decision(g, side, kind, index, label, picked.agent)?;
    Ok(options[index].clone())
}

/// What a person sees of a script's options: each option's label (`labels`, in order), its
/// `detail` (a text shown only at the prompt) and its hex (the option's `hex`, else a label that
/// is a hex id); the decision's focus is the first option's `focus` hex.
#[must_use]
pub fn shown_options(w: &World, options: &Array, labels: Vec<String>) -> Shown {
    let map = w.map();
    let hex_of = |d: Option<&Dynamic>| {
        d.and_then(|v| v.clone().into_immutable_string().ok())
            .and_then(|id| map.parse(&id).ok())
    };
    let mut shown = Shown::default();
    for (o, label) in options.iter().zip(labels) {
        let mut choice = Choice::plain(label);
        if let Some(m) = o.read_lock::<RMap>() {
            choice.detail = m.get("detail").map(ToString::to_string).unwrap_or_default();
            choice.hex = hex_of(m.get("hex"));
            if shown.focus.is_none() {
                shown.focus = hex_of(m.get("focus"));
            }
        }
        if choice.hex.is_none() {
            choice.hex = map.parse(&choice.label).ok();
        }
        shown.choices.push(choice);
    }
    shown
}

/// The index a bot's answer picks: an index, or one of the options.
pub fn bot_index(answer: &Dynamic, options: &Array, side: &str, kind: &str) -> Rr<usize> {
    if let Ok(i) = answer.as_int() {
        if (0..options.len() as INT).contains(&i) {
            return Ok(i as usize);
        }
        return fail(format!(
            "bot_choose for {side}'s `{kind}` returned index {i}; there are {} options",
            options.len()
        ));
    }
    let text = answer.to_string();
    match options.iter().position(|o| o.to_string() == text) {
        Some(i) => Ok(i),
        None => fail(format!(
            "bot_choose for {side}'s `{kind}` returned `{text}`, which is not one of the options"
        )),
    }
}

/// Asks a side to choose among `n` options built on demand by `option` (a move's destinations,
/// say, too many to build unless someone looks at them), logs the answer and returns its index
/// and the option. A bot is answered by `ranked` when it is given (the core scores the options
/// and gives those it may pick, best first), else by the ruleset's `bot_choose` with every
/// option; a person sees `shown`.
#[allow(clippy::too_many_arguments)] // the decision, and the three ways its options are seen
pub fn choose_among(
    ctx: &NativeCallContext,
    g: &GameHandle,
    side: &str,
    kind: &str,
    n: usize,
    option: &dyn Fn(usize) -> Dynamic,
    ranked: Option<&dyn Fn() -> Rr<Vec<usize>>>,
    shown: &dyn Fn(&World, Vec<String>) -> Shown,
) -> Rr<(usize, Dynamic)> {
    let labels = || (0..n).map(|i| option_label(ctx, g, &option(i))).collect();
    let picked = pick_index(g, side, kind, n, &labels, shown)?;
    let bot = || match ranked {
        Some(order) => order(),
        None => ask_bot(ctx, g, side, kind, &(0..n).map(option).collect()).map(|i| vec![i]),
    };
    let index = worked_out(g, side, kind, n, &picked, &bot, &labels)?;
    let chosen = option(index);
    let label = chosen_label(&picked, index, || option_label(ctx, g, &chosen))?;
    log_decision(g, side, kind, index, label, picked.agent)?;
    Ok((index, chosen))
}
