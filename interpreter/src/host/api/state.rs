//! The game's state: turn and phase, sides and agents, tracks, global and per-side values,
//! scenario options and ruleset data, decks and cups, the log, dice, and profiling sections.

use crate::host::args::to_value;
use crate::host::engine::operations;
use crate::value::Value;
use crate::world::{fail, GameHandle, Rr};
use rhai::{Array, Dynamic, Module, INT};

/// The heading of this package in the reference.
pub const TITLE: &str = "Turn, state, decks, dice and the log";

/// What the package is about, for the reference.
pub const ABOUT: &str = "The turn and phase, the sides and who plays them, tracks, global and per-side values (plain data, saved with the game), scenario options and ruleset data, decks and cups, the log, the dice (every roll logged; forced values come first in examples) and profiling sections.";

/// The package: every function of this topic, documented.
#[must_use]
pub fn package() -> Module {
    let mut module = Module::new();
    let m = &mut module;
    reg_get!(
        m,
        "turn",
        &["game"],
        &["The current game turn (`game.turn`), counted from the scenario's first turn."],
        |g: &mut GameHandle| g.0.borrow().state().turn,
    );
    reg_get!(
        m,
        "last_turn",
        &["game"],
        &["The scenario's last game turn (`game.last_turn`); the game ends after it."],
        |g: &mut GameHandle| { g.0.borrow().state().last_turn },
    );
    reg!(
        m,
        "end_game",
        &["game"],
        &[
            "Ends the game at the end of this turn, before the turn marker moves on.",
            "Returns nothing."
        ],
        |g: &mut GameHandle| { g.0.borrow_mut().state_mut().ended = true },
    );
    reg_get!(
        m,
        "phase",
        &["game"],
        &[
            "The name of the current phase (`game.phase`), as last set by `set_phase`; `\"\"` before any.",
        ],
        |g: &mut GameHandle| {
        g.0.borrow().state().phase.clone()
    },
    );
    reg!(
        m,
        "set_phase",
        &["game", "phase",],
        &[
            "Sets the name of the current phase to `phase`.",
            "Returns nothing."
        ],
        |g: &mut GameHandle, p: &str| { g.0.borrow_mut().state_mut().phase = p.to_string() },
    );
    reg!(
        m,
        "sides",
        &["game"],
        &[
            "The ruleset's sides, in the order `ruleset.ron` declares them.",
            "Returns an array of side names."
        ],
        |g: &mut GameHandle| -> Array {
            g.0.borrow()
                .ruleset()
                .sides
                .iter()
                .cloned()
                .map(Dynamic::from)
                .collect()
        },
    );
    reg!(
        m,
        "other_side",
        &["game", "side"],
        &[
            "The opponent of `side` in a game of two sides.",
            "Returns the other side's name; a side the ruleset lacks, or a game without exactly two sides, is an error.",
        ],
        other_side,
    );
    reg!(
        m,
        "agent",
        &["game", "side"],
        &[
            "Who plays `side`: give a `\"bot\"` the bot's wishes (a move's `rank`) and a `\"human\"` the options' details.",
            "Returns `\"human\"`, `\"random\"`, `\"bot\"` or `\"replay\"` (the search agent is `\"bot\"`: it starts from the bot's answers); `\"\"` for a side the ruleset lacks.",
        ],
        |g: &mut GameHandle, side: &str| -> String {
        g.0.borrow()
            .agent(side)
            .map_or("", |a| a.seen_by_rules())
            .to_string()
    },
    );
    reg!(
        m,
        "track",
        &["game", "name",],
        &[
            "The value of track `name` (turn record, victory points ...).",
            "Returns the value, 0 when the track was never set."
        ],
        |g: &mut GameHandle, name: &str| -> INT {
            g.0.borrow().state().tracks.get(name).copied().unwrap_or(0)
        },
    );
    reg!(
        m,
        "set_track",
        &["game", "name", "value",],
        &["Sets track `name` to `value`.", "Returns nothing.",],
        |g: &mut GameHandle, name: &str, v: INT| {
            g.0.borrow_mut()
                .state_mut()
                .tracks
                .insert(name.to_string(), v);
        },
    );
    reg!(
        m,
        "add_track",
        &["game", "name", "value",],
        &[
            "Adds `value` (negative to take away) to track `name`, which starts at 0.",
            "Returns the new value."
        ],
        |g: &mut GameHandle, name: &str, v: INT| -> Rr<INT> {
            let mut w = g.0.borrow_mut();
            let t = w.state_mut().tracks.entry(name.to_string()).or_insert(0);
            // A number from the data (say 2^63 - 1) may not wrap a track round.
            *t = t.checked_add(v).ok_or_else(|| {
                format!("add_track: track `{name}` at {t} cannot take {v} more (past the largest whole number)")
            })?;
            Ok(*t)
        },
    );
    reg!(
        m,
        "get",
        &["game", "key",],
        &[
            "The global value `key` (any plain value a script stored with `set`).",
            "Returns a copy of the value, `()` when unset."
        ],
        |g: &mut GameHandle, key: &str| -> Dynamic {
            g.0.borrow()
                .state()
                .globals
                .get(key)
                .map_or(Dynamic::UNIT, Value::to_dynamic)
        },
    );
    reg!(
        m,
        "set",
        &["game", "key", "value"],
        &[
            "Stores `value` (plain data: numbers, text, booleans, arrays, maps) as global `key`, saved with the game.",
            "Returns nothing; a value that is not plain data is an error.",
        ],
        |g: &mut GameHandle, key: &str, v: Dynamic| -> Rr<()> {
            let v = to_value(&v)?;
            g.0.borrow_mut().state_mut().globals.insert(key.to_string(), v);
            Ok(())
        },
    );
    reg!(
        m,
        "get",
        &["game", "key", "field"],
        &[
            "One entry, `field`, of the map global `key`, without copying the whole map into the script.",
            "Returns a copy of the entry, `()` when the global or the entry is unset or the global is not a map.",
        ],
        |g: &mut GameHandle, key: &str, field: &str| -> Dynamic {
            // One entry of a map global, without copying the whole map into the script.
            match g.0.borrow().state().globals.get(key) {
                Some(Value::Map(m)) => m.get(field).map_or(Dynamic::UNIT, Value::to_dynamic),
                _ => Dynamic::UNIT,
            }
        },
    );
    reg!(
        m,
        "set",
        &["game", "key", "field", "value"],
        &[
            "Sets entry `field` of the map global `key` to `value`, making the map when the global is unset.",
            "Returns nothing; a global `key` that is not a map is an error.",
        ],
        set_at,
    );
    // The common test of an on/off option, one call where `game.option(name) == true` is three
    // script steps.
    reg!(
        m,
        "option_on",
        &["game", "name"],
        &[
            "Whether the option `name` (declared in `ruleset.ron`'s `options`) is set to `true`: the usual test of an optional rule in one call.",
            "Returns `true` or `false` (`false` when set to anything else); an option the ruleset does not declare is an error.",
        ],
        |g: &mut GameHandle, key: &str| -> Rr<bool> {
        let w = g.0.borrow();
        if let Some(Value::Map(m)) = w.state().globals.get("options") {
            if let Some(v) = m.get(key) {
                return Ok(matches!(v, Value::Bool(true)));
            }
        }
        let declared = &w.ruleset().options;
        let hint = crate::source::help_choosing(key, declared.keys().map(String::as_str));
        fail(format!("the ruleset declares no option `{key}` ({hint}); declare it in ruleset.ron's `options`"))
    },
    );
    reg!(
        m,
        "data",
        &["game", "key"],
        &[
            "The ruleset data `key` from `ruleset.ron` (`data: { ... }`).",
            "Returns a copy of the value (read it once per procedure); a key the ruleset lacks is an error.",
        ],
        |g: &mut GameHandle, key: &str| -> Rr<Dynamic> {
        match g.0.borrow().ruleset().data.get(key) {
            Some(v) => Ok(v.to_dynamic()),
            None => fail(format!("the ruleset has no data `{key}`")),
        }
    },
    );
    reg!(
        m,
        "side_get",
        &["game", "side", "key",],
        &[
            "The value `key` stored for `side` (per-side data).",
            "Returns a copy of the value, `()` when unset; a side the ruleset lacks is an error."
        ],
        |g: &mut GameHandle, side: &str, key: &str| -> Rr<Dynamic> {
            match g.0.borrow().state().sides.get(side) {
                Some(m) => Ok(m.get(key).map_or(Dynamic::UNIT, Value::to_dynamic)),
                None => fail(format!("no side `{side}`")),
            }
        },
    );
    reg!(
        m,
        "side_set",
        &["game", "side", "key", "value",],
        &[
            "Stores `value` (plain data) as `key` for `side`.",
            "Returns nothing; a side the ruleset lacks is an error."
        ],
        |g: &mut GameHandle, side: &str, key: &str, v: Dynamic| -> Rr<()> {
            let v = to_value(&v)?;
            match g.0.borrow_mut().state_mut().sides.get_mut(side) {
                Some(m) => {
                    m.insert(key.to_string(), v);
                    Ok(())
                }
                None => fail(format!("no side `{side}`")),
            }
        },
    );
    // Decks and cups.
    reg!(
        m,
        "deck",
        &["game", "name",],
        &[
            "The items of deck (or cup) `name`, top first.",
            "Returns an array of text, empty for a deck that does not exist."
        ],
        |g: &mut GameHandle, name: &str| -> Array {
            g.0.borrow()
                .state()
                .decks
                .get(name)
                .map(|d| d.iter().cloned().map(Dynamic::from).collect())
                .unwrap_or_default()
        },
    );
    reg!(
        m,
        "put",
        &["game", "name", "item",],
        &[
            "Adds `item` at the bottom of deck `name`, making the deck if needed.",
            "Returns nothing."
        ],
        |g: &mut GameHandle, name: &str, item: &str| {
            g.0.borrow_mut()
                .state_mut()
                .decks
                .entry(name.to_string())
                .or_default()
                .push(item.to_string());
        },
    );
    reg!(
        m,
        "set_deck",
        &["game", "name", "items",],
        &[
            "Replaces the items of deck `name` by `items`, top first.",
            "Returns nothing; an item that is not text is an error."
        ],
        set_deck
    );
    reg!(
        m,
        "take",
        &["game", "name", "item",],
        &[
            "Removes the first `item` from deck `name`.",
            "Returns whether the item was there."
        ],
        |g: &mut GameHandle, name: &str, item: &str| -> bool {
            let mut w = g.0.borrow_mut();
            let deck = w.state_mut().decks.entry(name.to_string()).or_default();
            match deck.iter().position(|x| x == item) {
                Some(i) => {
                    deck.remove(i);
                    true
                }
                None => false,
            }
        },
    );
    reg!(
        m,
        "draw",
        &["game", "name"],
        &[
            "Draws a random item from deck (cup) `name` with the game's dice, removes it and logs the draw; an example may force the item.",
            "Returns the item, `()` when the deck is empty; a forced item not in the deck is an error, and so is a strict example's draw among two or more items with no forced item left.",
        ],
        draw,
    );
    reg!(
        m,
        "draw_top",
        &["game", "name",],
        &[
            "Takes the top item of deck `name` (no randomness, not logged).",
            "Returns the item, `()` when the deck is empty."
        ],
        |g: &mut GameHandle, name: &str| -> Dynamic {
            let mut w = g.0.borrow_mut();
            match w.state_mut().decks.get_mut(name) {
                Some(d) if !d.is_empty() => d.remove(0).into(),
                _ => Dynamic::UNIT,
            }
        },
    );
    reg!(
        m,
        "shuffle",
        &["game", "name",],
        &[
            "Shuffles deck `name` with the game's dice (Fisher-Yates).",
            "Returns nothing; in a strict example (no random dice) shuffling two or more items is an error."
        ],
        |g: &mut GameHandle, name: &str| -> Rr<()> {
            let mut w = g.0.borrow_mut();
            let mut deck = w.state_mut().decks.shift_remove(name).unwrap_or_default();
            // Fisher–Yates on the game's own stream.
            for i in (1..deck.len()).rev() {
                let j = w
                    .dice_mut()
                    .draw_index(i + 1, || format!("shuffle of deck `{name}`"))
                    .map_err(|e| e.to_string())?;
                deck.swap(i, j);
            }
            w.state_mut().decks.insert(name.to_string(), deck);
            Ok(())
        },
    );
    // Log.
    reg!(
        m,
        "log",
        &["game", "text",],
        &[
            "Logs `text` as a `note` event, in the log and the narration.",
            "Returns nothing."
        ],
        |g: &mut GameHandle, text: &str| { g.0.borrow_mut().event("note", text.to_string()) },
    );
    reg!(
        m,
        "event",
        &["game", "kind", "text"],
        &[
            "Logs a rules event of `kind` (`\"fire\"`, `\"rout\"` ...) with `text`, in the log and the narration.",
            "Returns nothing.",
        ],
        |g: &mut GameHandle, kind: &str, text: &str| {
        g.0.borrow_mut().event(kind, text.to_string())
    },
    );
    reg!(
        m,
        "event",
        &["game", "kind", "text", "between"],
        &[
            "Logs a rules event of `kind` with `text`, as `event(kind, text)` does, that goes between hexes: `between` is `#{ from: [hexes], to: hex }` (each key optional),",
            "a combat's attackers and its target, say, which a replay draws as an arrow labelled with the text. The hexes are checked and kept in the log record;",
            "`()` in `from` (a unit off the map, as `locations` gives it) is passed over, and a hex given twice is kept once.",
            "Returns nothing; an unknown key or a hex not on the map is an error.",
        ],
        event_between,
    );
    // Decisions.
    // Profiling aids for ruleset authors (`muster play --profile`): time spent between
    // `game.timer(name)` and `game.timer_end(name)`. Rules never see the times.
    reg!(
        m,
        "timer",
        &["game", "name",],
        &[
            "Opens profiling section `name` (`muster play --profile`); rules never see the times.",
            "Returns nothing."
        ],
        |g: &mut GameHandle, name: &str| {
            g.0.borrow_mut().timers_mut().enter_at(name, operations());
        },
    );
    reg!(
        m,
        "timer_end",
        &["game", "name"],
        &[
            "Closes profiling section `name` and any left open inside it; a name not open is ignored.",
            "Returns nothing.",
        ],
        |g: &mut GameHandle, name: &str| {
        g.0.borrow_mut().timers_mut().leave_at(name, operations());
    },
    );
    reg!(
        m,
        "roll",
        &["game", "die"],
        &[
            "Rolls the named die (`\"d6\"`, or one `ruleset.ron` names); logged, and a forced value comes first in examples.",
            "Returns the face rolled; a die the ruleset lacks is an error.",
        ],
        |g: &mut GameHandle, die: &str| -> Rr<INT> {
        Ok(g.0.borrow_mut().roll(&[die.to_string()])?[0])
    },
    );
    reg!(
        m,
        "roll_dice",
        &["game", "dice"],
        &[
            "Rolls the named dice together as one group (the group `reroll` repeats); each roll is logged.",
            "Returns the faces in the order of `dice`.",
        ],
        |g: &mut GameHandle, dice: Array| -> Rr<Array> {
            let names: Vec<String> = dice.iter().map(ToString::to_string).collect();
            Ok(g.0
                .borrow_mut()
                .roll(&names)?
                .into_iter()
                .map(Dynamic::from_int)
                .collect())
        },
    );
    reg!(
        m,
        "roll_11_66",
        &["game", "tens", "units",],
        &[
            "Rolls two dice read as tens and units (`11` to `66` with two d6).",
            "Returns the two-digit number."
        ],
        |g: &mut GameHandle, tens: &str, units: &str| -> Rr<INT> {
            let v =
                g.0.borrow_mut()
                    .roll(&[tens.to_string(), units.to_string()])?;
            Ok(crate::world::dice::read_11_66(v[0], v[1]))
        },
    );
    reg!(
        m,
        "reroll",
        &["game"],
        &[
            "Rolls the last group of dice again, logging a `reroll` event and the new rolls.",
            "Returns the new faces in order; with no roll yet, an error."
        ],
        reroll
    );
    module
}

/// Backs the script function `other_side`, registered and documented in [`package`].
fn other_side(g: &mut GameHandle, side: &str) -> Rr<rhai::ImmutableString> {
    // The opponent in a two-sided game: one call for the helper every ruleset writes.
    let w = g.0.borrow();
    match w.ruleset().sides.as_slice() {
        [a, b] if a == side => Ok(b.as_str().into()),
        [a, b] if b == side => Ok(a.as_str().into()),
        [_, _] => fail(format!("`other_side`: no side `{side}`")),
        sides => fail(format!(
            "`other_side` needs a game of two sides; this one has {}",
            sides.len()
        )),
    }
}

/// Backs the script function `set` with a field, registered and documented in [`package`].
fn set_at(g: &mut GameHandle, key: &str, field: &str, v: Dynamic) -> Rr<()> {
    let v = to_value(&v)?;
    let mut w = g.0.borrow_mut();
    match w.state_mut().globals.get_mut(key) {
        Some(Value::Map(m)) => {
            m.insert(field.to_string(), v);
            Ok(())
        }
        None => {
            let m = indexmap::IndexMap::from([(field.to_string(), v)]);
            w.state_mut().globals.insert(key.to_string(), Value::Map(m));
            Ok(())
        }
        Some(_) => fail(format!(
            "`set(key, field, value)`: global `{key}` is not a map"
        )),
    }
}

/// Backs the script function `set_deck`, registered and documented in [`package`].
fn set_deck(g: &mut GameHandle, name: &str, items: Array) -> Rr<()> {
    let items = items
        .iter()
        .map(|d| {
            d.clone()
                .into_string()
                .map_err(|t| format!("a deck holds text, not {t}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    g.0.borrow_mut()
        .state_mut()
        .decks
        .insert(name.to_string(), items);
    Ok(())
}

/// Backs the script function `draw`, registered and documented in [`package`].
fn draw(g: &mut GameHandle, name: &str) -> Rr<Dynamic> {
    let mut w = g.0.borrow_mut();
    let n = w.state().decks.get(name).map_or(0, Vec::len);
    if n == 0 {
        return Ok(Dynamic::UNIT);
    }
    // A worked example may force the draw; the item must be in the deck.
    let i = match w.take_forced_draw() {
        Some(want) => w.state().decks[name]
            .iter()
            .position(|x| *x == want)
            .ok_or_else(|| format!("forced draw `{want}` is not in deck `{name}`"))?,
        None => w
            .dice_mut()
            .draw_index(n, || {
                format!("draw from deck `{name}` with no forced draw left")
            })
            .map_err(|e| e.to_string())?,
    };
    let item = w
        .state_mut()
        .decks
        .get_mut(name)
        .map(|d| d.remove(i))
        .unwrap_or_default();
    w.event("draw", format!("drew {item} from {name}"));
    Ok(item.into())
}

/// Backs the script function `event` with hexes, registered and documented in [`package`].
fn event_between(g: &mut GameHandle, kind: &str, text: &str, between: rhai::Map) -> Rr<()> {
    crate::host::args::check_keys(&between, &["from", "to"], "the event's hexes")?;
    let mut w = g.0.borrow_mut();
    // `()` (a unit off the map, from `locations`) is passed over; a hex given twice is kept once.
    let from = match between.get("from") {
        Some(d) => match d.read_lock::<Array>() {
            Some(a) => {
                let on_map: Array = a.iter().filter(|x| !x.is_unit()).cloned().collect();
                crate::host::args::hexes(&w, &on_map)?
            }
            None => crate::host::args::hex_list(&w, d, "`from`")?,
        },
        None => Vec::new(),
    };
    let mut seen = std::collections::HashSet::new();
    let from = from
        .into_iter()
        .filter(|h| seen.insert(*h))
        .map(|h| w.map().id(h))
        .collect();
    let to = match between.get("to") {
        Some(d) => Some(w.map().id(crate::host::args::hex_arg(&w, d, "to")?)),
        None => None,
    };
    w.event_between(kind, text.to_string(), from, to);
    Ok(())
}

/// Backs the script function `reroll`, registered and documented in [`package`].
fn reroll(g: &mut GameHandle) -> Rr<Array> {
    let mut w = g.0.borrow_mut();
    let rolls = w.dice_mut().reroll().map_err(|e| e.to_string())?;
    w.event("reroll", "the last roll is rolled again".into());
    for r in &rolls {
        w.record(crate::world::log::Entry::Roll {
            die: r.die.clone(),
            value: r.value,
            forced: r.forced,
        });
    }
    Ok(rolls
        .into_iter()
        .map(|r| Dynamic::from_int(r.value))
        .collect())
}
