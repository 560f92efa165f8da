//! Tables and charts (looked up in Rust, never handed to scripts whole), and the list and
//! number helpers rules call in place of script loops.

use crate::host::args::number_arg;
use crate::table::{Cell, ColumnKey, Outcome, RowQuery};
use crate::value::Value;
use crate::world::{fail, GameHandle, Rr, World};
use rhai::{Array, Dynamic, Map as RMap, Module, FLOAT, INT};

/// The heading of this package in the reference.
pub const TITLE: &str = "Tables, charts and lists";

/// What the package is about, for the reference.
pub const ABOUT: &str = "Tables stay in Rust: a result table is looked up by column (label or value) and row (roll or key), a values table (chart) by entry and field. `list.contains(x)` and `x in list` for text or integers are compared in Rust (Rhai's own version calls `==` through the engine for every element).";

/// The package: every function of this topic, documented.
#[must_use]
pub fn package() -> Module {
    let mut module = Module::new();
    let m = &mut module;
    // `list.contains(x)` and `x in list` for a text or an integer `x`, compared in Rust.
    //
    // Rhai's own `contains` calls the `==` operator through the engine for every
    // element, which made it the costliest single function in a whole game (lists
    // of hex ids are searched constantly). Registered for exact argument types, these
    // take precedence over the generic version and answer as `==` does: text equals a
    // character of the same text, an integer equals a float of the same value, other
    // types are unequal.
    reg!(
        m,
        "contains",
        &["list", "x"],
        &[
            "Whether `list` holds the text `x` (`list.contains(x)`, `x in list`), compared in Rust.",
            "An element equals `x` as `==` says: text of the same characters, or a character that is `x`.",
            "Returns `true` or `false`.",
        ],
        |list: &mut Array, x: rhai::ImmutableString| {
        list.iter().any(|d| match d.as_immutable_string_ref() {
            Ok(s) => *s == x,
            Err(_) => d.as_char().is_ok_and(|c| {
                let mut buf = [0u8; 4];
                *c.encode_utf8(&mut buf) == *x
            }),
        })
    },
    );
    reg!(
        m,
        "contains",
        &["list", "x"],
        &[
            "Whether `list` holds the integer `x` (`list.contains(x)`, `x in list`), compared in Rust.",
            "An element equals `x` as `==` says: the same integer, or a float of the same value.",
            "Returns `true` or `false`.",
        ],
        |list: &mut Array, x: INT| {
        list.iter().any(|d| match d.as_int() {
            Ok(i) => i == x,
            Err(_) => d.as_float().is_ok_and(|f| f == x as FLOAT),
        })
    },
    );
    reg!(
        m,
        "keys_over",
        &["map", "limit"],
        &[
            "Called on a map of numbers (`stacks.keys_over(limit)`): the keys whose value exceeds `limit` (stacks over a limit, from `sum_by_hex`); other values never do.",
            "Returns an array of keys in key order.",
        ],
        |m: &mut RMap, limit: Dynamic| -> Rr<Array> {
            Ok(keys_over(m, number_arg(&limit, "`limit`")?))
        },
    );
    reg!(
        m,
        "as_keys",
        &["keys", "value"],
        &[
            "Called on an array of strings (`hexes.as_keys(2.0)`): a map with each of them as a key, every one set to `value` (a cost for each of a list of hexes, say).",
            "Returns the map; an entry that is not a string is an error.",
        ],
        |keys: &mut Array, value: Dynamic| -> Rr<RMap> {
            keys.iter()
                .map(|k| match k.clone().into_immutable_string() {
                    Ok(s) => Ok((s.as_str().into(), value.clone())),
                    Err(t) => fail(format!("`as_keys` takes an array of strings, not one holding {t}")),
                })
                .collect()
        },
    );
    reg!(
        m,
        "minimal_sets",
        &["values", "needed"],
        &[
            "Called on an array of numbers (`losses.minimal_sets(needed)`): every set of positions whose values sum to at least `needed` and from which no position could be dropped (losses that must reach a total, say); at most 20 values.",
            "Returns an array of sets, each an array of positions in ascending order, in the order of the bit masks that name them; empty when none reach `needed`.",
        ],
        |values: &mut Array, needed: Dynamic| -> Rr<Array> { minimal_sets(values, &needed) },
    );
    reg!(
        m,
        "outcome",
        &["game", "text"],
        &[
            "Reads `text` by the grammar of result cells (`X / Y`, `X (Y)`, `X + Y`, `A:X`, codes with numbers): a result an event card prints, say.",
            "Returns the outcome map as `lookup` does; text the grammar cannot read is an error.",
        ],
        |_g: &mut GameHandle, text: &str| -> Rr<Dynamic> {
            match crate::table::parse_outcome(text) {
                Ok(o) => Ok(outcome_map(&o)),
                Err(e) => fail(format!("`{text}` is not a result: {e}")),
            }
        },
    );
    reg!(
        m,
        "lookup",
        &["game", "table", "column", "row"],
        &[
            "Looks a cell up in `table`: `column` by label (text) or by value (a number: odds, strength), `row` by roll (a number) or key (text).",
            "Returns an outcome map: `text`, `column` (the label looked up) and `kind`: `nothing`; `number` (`value`); `code` (`name`, `count`, `number` or `()`, `star`); `sided` (`side`, `result`); `both`, `choice`, `optional`, `bands` (`parts`); `range` (`from`, `to`); `text` for a text cell.",
            "An unknown table, column or row is an error.",
        ],
        |g: &mut GameHandle, table: &str, col: Dynamic, row: Dynamic| -> Rr<Dynamic> {
            lookup(&g.0.borrow(), table, &col, &row, 0)
        },
    );
    reg!(
        m,
        "lookup",
        &["game", "table", "column", "row", "shift"],
        &[
            "`lookup` with the column shifted `shift` columns (right for positive), clamped at the ends.",
            "Returns the outcome map as `lookup` does.",
        ],
        |g: &mut GameHandle, table: &str, col: Dynamic, row: Dynamic, shift: INT| -> Rr<Dynamic> {
            lookup(&g.0.borrow(), table, &col, &row, shift)
        },
    );
    reg!(
        m,
        "column",
        &["game", "table", "column", "shift"],
        &[
            "The label of the column `shift` columns from `column` (a label or a value) in `table`, clamped at the ends.",
            "Returns the label.",
        ],
        |g: &mut GameHandle, table: &str, col: Dynamic, shift: INT| -> Rr<String> {
            let w = g.0.borrow();
            let grid = w.ruleset().tables.grid(table).map_err(|e| e.to_string())?;
            let col = column_arg(&col)?;
            let i = grid
                .shifted(table, &column_key(&col), shift)
                .map_err(|e| e.to_string())?;
            Ok(grid.columns[i].clone())
        },
    );
    reg!(
        m,
        "columns",
        &["game", "table",],
        &[
            "Every column label of `table`, in order.",
            "Returns an array of labels."
        ],
        |g: &mut GameHandle, table: &str| -> Rr<Array> {
            // The column labels in order: one call where a script would step with `column`.
            let w = g.0.borrow();
            let grid = w.ruleset().tables.grid(table).map_err(|e| e.to_string())?;
            Ok(grid.columns.iter().map(|c| c.clone().into()).collect())
        },
    );
    reg!(
        m,
        "odds",
        &["game", "table", "attack", "defence"],
        &[
            "The column of `table` for `attack` divided by `defence`, rounded in the defender's favour.",
            "Returns the column label (the last column when `defence` is 0 or less).",
        ],
        odds,
    );
    reg!(
        m,
        "chart",
        &["game", "table", "entry", "field",],
        &[
            "The value `field` of `entry` in the values table `table`.",
            "Returns a copy of the value; an unknown table, entry or field is an error."
        ],
        |g: &mut GameHandle, table: &str, entry: &str, field: &str| -> Rr<Dynamic> {
            let w = g.0.borrow();
            Ok(w.ruleset()
                .tables
                .value(table, entry, field)
                .map_err(|e| e.to_string())?
                .to_dynamic())
        },
    );
    reg!(
        m,
        "chart_band",
        &["game", "table", "entry", "fields", "x"],
        &[
            "The first of `fields` whose number in `entry` of values table `table` is at least `x`: the range band of a distance, say.",
            "Returns the field's name, `()` when none is; a field that is not a number is an error.",
        ],
        chart_band,
    );
    reg!(
        m,
        "has_chart_entry",
        &["game", "table", "entry", "field",],
        &[
            "Whether values table `table` has `field` in `entry`.",
            "Returns `true` or `false`."
        ],
        |g: &mut GameHandle, table: &str, entry: &str, field: &str| -> bool {
            g.0.borrow()
                .ruleset()
                .tables
                .value(table, entry, field)
                .is_ok()
        },
    );
    module
}

/// Backs the script function `odds`, registered and documented in [`package`].
fn odds(g: &mut GameHandle, table: &str, attack: INT, defence: INT) -> Rr<String> {
    let w = g.0.borrow();
    let grid = w.ruleset().tables.grid(table).map_err(|e| e.to_string())?;
    if defence <= 0 {
        return Ok(grid.columns.last().cloned().unwrap_or_default());
    }
    let ratio = attack as f64 / defence as f64;
    let i = grid
        .column_index(table, &ColumnKey::Value(ratio))
        .map_err(|e| e.to_string())?;
    Ok(grid.columns[i].clone())
}

/// Backs the script function `chart_band`, registered and documented in [`package`].
fn chart_band(
    g: &mut GameHandle,
    table: &str,
    entry: &str,
    fields: Array,
    x: Dynamic,
) -> Rr<Dynamic> {
    // The first of `fields` whose number in `entry` is at least `x` (() if none): the
    // range band of a distance, say.
    let x = number_arg(&x, "`chart_band` value")?;
    let w = g.0.borrow();
    for f in &fields {
        let f = f.to_string();
        let v = w
            .ruleset()
            .tables
            .value(table, entry, &f)
            .map_err(|e| e.to_string())?;
        let n = match v {
            Value::Int(i) => *i as FLOAT,
            Value::Float(x) => *x,
            _ => return fail(format!("`chart_band`: {table}.{entry}.{f} is not a number")),
        };
        if n >= x {
            return Ok(f.into());
        }
    }
    Ok(Dynamic::UNIT)
}

/// An outcome as a script map: `kind` is one of nothing, number, code,
/// sided, both, choice, optional.
fn outcome_map(o: &Outcome) -> Dynamic {
    let mut m = RMap::new();
    m.insert("text".into(), o.to_string().into());
    let parts = |v: &[Outcome]| Dynamic::from_array(v.iter().map(outcome_map).collect());
    let kind = match o {
        Outcome::Nothing => "nothing",
        Outcome::Number(n) => {
            m.insert("value".into(), Dynamic::from_int(*n));
            "number"
        }
        Outcome::Code(c) => {
            m.insert("name".into(), c.name.clone().into());
            m.insert("count".into(), Dynamic::from_int(c.count.unwrap_or(1)));
            m.insert(
                "number".into(),
                c.number.map_or(Dynamic::UNIT, Dynamic::from_int),
            );
            m.insert("star".into(), Dynamic::from_bool(c.star));
            "code"
        }
        Outcome::Sided(s, inner) => {
            m.insert("side".into(), s.clone().into());
            m.insert("result".into(), outcome_map(inner));
            "sided"
        }
        Outcome::Both(v) => {
            m.insert("parts".into(), parts(v));
            "both"
        }
        Outcome::Choice(v) => {
            m.insert("parts".into(), parts(v));
            "choice"
        }
        Outcome::Optional(a, b) => {
            m.insert("parts".into(), parts(&[(**a).clone(), (**b).clone()]));
            "optional"
        }
        Outcome::Range(lo, hi) => {
            m.insert("from".into(), Dynamic::from_int(*lo));
            m.insert("to".into(), Dynamic::from_int(*hi));
            "range"
        }
        Outcome::Bands(v) => {
            m.insert("parts".into(), parts(v));
            "bands"
        }
    };
    m.insert("kind".into(), kind.into());
    Dynamic::from_map(m)
}

/// A column asked for by a script: a number (value) or text (label).
fn column_arg(d: &Dynamic) -> Rr<Result<f64, String>> {
    if let Ok(i) = d.as_int() {
        return Ok(Ok(i as f64));
    }
    if let Ok(f) = d.as_float() {
        return Ok(Ok(f));
    }
    if d.is_string() {
        return Ok(Err(d.to_string()));
    }
    fail(format!(
        "a column is a label or a number, not `{}`",
        d.type_name()
    ))
}

fn column_key(c: &Result<f64, String>) -> ColumnKey<'_> {
    match c {
        Ok(v) => ColumnKey::Value(*v),
        Err(l) => ColumnKey::Label(l),
    }
}

/// A row asked for by a script: a roll (number) or a key (text).
fn row_arg(d: &Dynamic) -> Rr<Result<i64, String>> {
    if let Ok(i) = d.as_int() {
        return Ok(Ok(i));
    }
    if d.is_string() {
        return Ok(Err(d.to_string()));
    }
    fail(format!("a row is a roll or a key, not `{}`", d.type_name()))
}

fn lookup(w: &World, table: &str, col: &Dynamic, row: &Dynamic, shift: INT) -> Rr<Dynamic> {
    let grid = w.ruleset().tables.grid(table).map_err(|e| e.to_string())?;
    let col = column_arg(col)?;
    let row = row_arg(row)?;
    let rq = match &row {
        Ok(n) => RowQuery::Roll(*n),
        Err(k) => RowQuery::Key(k),
    };
    let (label, cell) = grid
        .lookup(table, &column_key(&col), shift, &rq)
        .map_err(|e| e.to_string())?;
    let mut m: RMap = match cell {
        Cell::Result(o) => outcome_map(o).cast(),
        Cell::Text(t) => {
            let mut m = RMap::new();
            m.insert("kind".into(), "text".into());
            m.insert("text".into(), t.clone().into());
            m
        }
    };
    m.insert("column".into(), label.to_string().into());
    Ok(Dynamic::from_map(m))
}

/// The most values `minimal_sets` takes: it looks at every subset, 2^n of them.
const MINIMAL_SETS_MAX: usize = 20;

/// The keys of `m` whose value, a number, exceeds `limit`; other values never do.
fn keys_over(m: &RMap, limit: FLOAT) -> Array {
    m.iter()
        .filter(|(_, v)| {
            v.as_float()
                .ok()
                .or_else(|| v.as_int().ok().map(|i| i as FLOAT))
                .is_some_and(|x| x > limit)
        })
        .map(|(k, _)| Dynamic::from(rhai::ImmutableString::from(k.as_str())))
        .collect()
}

/// `game.minimal_sets(values, needed)`: every set of positions in `values` whose values sum to
/// at least `needed` and from which no one position could be dropped (losses that must reach a
/// total, say), as lists of positions. Sets come in the order of the bit masks that name them
/// (the set with position 0 alone first), positions within a set in ascending order.
fn minimal_sets(values: &Array, needed: &Dynamic) -> Rr<Array> {
    if values.len() > MINIMAL_SETS_MAX {
        return fail(format!(
            "minimal_sets takes at most {MINIMAL_SETS_MAX} values, not {}",
            values.len()
        ));
    }
    let values = values
        .iter()
        .map(|v| number_arg(v, "a value"))
        .collect::<Rr<Vec<FLOAT>>>()?;
    let needed = number_arg(needed, "`needed`")?;
    let mut out = Array::new();
    for mask in 1u32..(1 << values.len()) {
        let members = (0..values.len()).filter(|i| mask >> i & 1 == 1);
        let sum: FLOAT = members.clone().map(|i| values[i]).sum();
        if sum < needed || members.clone().any(|i| sum - values[i] >= needed) {
            continue;
        }
        out.push(Dynamic::from_array(
            members.map(|i| Dynamic::from_int(i as INT)).collect(),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{minimal_sets, MINIMAL_SETS_MAX};
    use rhai::{Array, Dynamic};

    #[test]
    fn minimal_sets_refuses_lists_too_long_to_enumerate() {
        let values: Array = (0..=MINIMAL_SETS_MAX)
            .map(|_| Dynamic::from_int(1))
            .collect();
        let err = minimal_sets(&values, &Dynamic::from_int(2)).unwrap_err();
        assert!(err.to_string().contains("at most 20 values"), "{err}");
        let ok: Array = (0..MINIMAL_SETS_MAX)
            .map(|_| Dynamic::from_int(1))
            .collect();
        // Twenty ones reaching 20: only the whole set.
        assert_eq!(minimal_sets(&ok, &Dynamic::from_int(20)).unwrap().len(), 1);
    }
}
