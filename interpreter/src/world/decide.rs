//! The decision protocol: who answers a decision (a forced answer, the random agent, a
//! replay, a person, or the ruleset's bot), how the answer is checked and how it is logged.
//!
//! Invariant: every decision goes through [`pick_index`], which records the options when an
//! example asks, and is logged by [`log_decision`]; a decision with one option asks no one.

use super::agent::AgentKind;
use super::log::Entry;
use super::{fail, GameHandle, Offer, Rr};
use rhai::{Array, Dynamic, Map as RMap, NativeCallContext, INT};

/// The text of an option: its `label` if it is a map with one.
#[must_use]
pub fn option_label(d: &Dynamic) -> String {
    if let Some(m) = d.read_lock::<RMap>() {
        if let Some(l) = m.get("label") {
            return l.to_string();
        }
    }
    d.to_string()
}

/// Which agent answers a decision among `n` options, and, unless it is the
/// bot, which option it picks. `labels` builds the options' labels and is
/// called only when a person or a forced answer needs them.
pub fn pick_index(
    g: &GameHandle,
    side: &str,
    kind: &str,
    n: usize,
    labels: &dyn Fn() -> Vec<String>,
) -> Rr<(usize, &'static str)> {
    if n == 0 {
        return fail(format!(
            "{side} was asked to choose `{kind}` from no options"
        ));
    }
    let mut w = g.0.borrow_mut();
    if !w.agents.contains_key(side) {
        return fail(format!("`{side}` is not a side of this ruleset"));
    }
    if let Some(offers) = &mut w.offers {
        offers.push(Offer {
            side: side.to_string(),
            kind: kind.to_string(),
            labels: labels(),
        });
    }
    if n == 1 {
        // Nothing to decide: no agent is asked and no forced answer is used.
        return Ok((0, "only"));
    }
    if let Some(ans) = w.forced.pop_front() {
        return Ok((ans.pick(&labels()).map_err(|e| e.to_string())?, "forced"));
    }
    if w.only_forced {
        return fail(format!(
            "{side}'s `{kind}` decision has no forced answer left; its options: {}",
            labels().join(" | ")
        ));
    }
    let agent = w.agents[side].clone();
    Ok(match agent {
        AgentKind::Random => (w.agent_stream.below(n as u32) as usize, "random"),
        AgentKind::Replay(_) => {
            let Some(AgentKind::Replay(q)) = w.agents.get_mut(side) else {
                unreachable!()
            };
            match q.pop_front() {
                Some(i) if i < n => (i, "replay"),
                Some(i) => {
                    return fail(format!(
                    "replayed answer {i} for {side}'s `{kind}` is illegal: there are {n} options"
                ))
                }
                None => {
                    return fail(format!(
                        "the replay for {side} has no answer left for `{kind}`"
                    ))
                }
            }
        }
        AgentKind::Human => match w.terminal.ask(side, kind, &labels()) {
            Some(i) => (i, "human"),
            None => {
                return fail(format!(
                    "no answer from the terminal for {side}'s `{kind}` (end of input)"
                ))
            }
        },
        AgentKind::Bot => (usize::MAX, "bot"),
    })
}

/// Records a decision in the log.
pub fn log_decision(
    g: &GameHandle,
    side: &str,
    kind: &str,
    index: usize,
    label: String,
    agent: &str,
) {
    let mut w = g.0.borrow_mut();
    let turn = w.state.turn;
    w.log.push(
        turn,
        Entry::Decision {
            side: side.to_string(),
            kind: kind.to_string(),
            choice: index,
            label,
            agent: agent.to_string(),
        },
    );
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

/// Asks a side to choose among options and returns the chosen option.
pub fn choose(
    ctx: &NativeCallContext,
    g: &GameHandle,
    side: &str,
    kind: &str,
    options: Array,
) -> Rr<Dynamic> {
    let labels = || options.iter().map(option_label).collect::<Vec<_>>();
    let (index, agent) = pick_index(g, side, kind, options.len(), &labels)?;
    let index = if agent == "bot" {
        ask_bot(ctx, g, side, kind, &options)?
    } else {
        index
    };
    log_decision(g, side, kind, index, option_label(&options[index]), agent);
    Ok(options[index].clone())
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
/// and the option. A bot is answered by `ranked` when it is given (the core scores the options),
/// else by the ruleset's `bot_choose` with every option.
pub fn choose_among(
    ctx: &NativeCallContext,
    g: &GameHandle,
    side: &str,
    kind: &str,
    n: usize,
    option: &dyn Fn(usize) -> Dynamic,
    ranked: Option<&dyn Fn() -> Rr<usize>>,
) -> Rr<(usize, Dynamic)> {
    let labels = || (0..n).map(|i| option_label(&option(i))).collect::<Vec<_>>();
    let (index, agent) = pick_index(g, side, kind, n, &labels)?;
    let index = match (agent, ranked) {
        ("bot", Some(best)) => best()?,
        ("bot", None) => ask_bot(ctx, g, side, kind, &(0..n).map(option).collect())?,
        _ => index,
    };
    let chosen = option(index);
    log_decision(g, side, kind, index, option_label(&chosen), agent);
    Ok((index, chosen))
}
