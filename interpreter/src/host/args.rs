//! Reading what scripts pass: hex ids and lists of hexes (with [`HexSet`]), numbers, text,
//! plain values. Each reader's error names the argument, so a script error says which value
//! was wrong.

use crate::geom::hex::Hex;
use crate::geom::map::HexGroup;
use crate::value::Value;
use crate::world::{fail, Rr, World};
use rhai::{Array, Dynamic, ImmutableString, FLOAT};
use std::rc::Rc;

/// A script's value as plain data (an error for a value that is not: a function pointer, say).
pub fn to_value(d: &Dynamic) -> Rr<Value> {
    Value::from_dynamic(d).map_err(Into::into)
}

/// A set of hexes held in Rust (`game.hexset(list)`): cheap to pass from
/// script function to function (a shared pointer, where an array is copied)
/// and accepted wherever the search and move calls take a list of hexes.
#[derive(Clone)]
pub struct HexSet {
    pub(crate) hexes: Rc<HexGroup>,
    pub(crate) map: Rc<crate::geom::map::Map>,
}

/// A script's list of hexes as a [`HexGroup`]: a hex set's own (shared, with
/// what it has measured), or a new one.
pub fn hex_group(w: &World, d: &Dynamic, what: &str) -> Rr<Rc<HexGroup>> {
    if let Some(set) = d.read_lock::<HexSet>() {
        return Ok(set.hexes.clone());
    }
    Ok(Rc::new(HexGroup::new(hex_list(w, d, what)?)))
}

/// A list of hexes from a script: an array of ids or a [`HexSet`].
pub fn hex_list(w: &World, d: &Dynamic, what: &str) -> Rr<Vec<Hex>> {
    if let Some(set) = d.read_lock::<HexSet>() {
        return Ok(set.hexes.list().to_vec());
    }
    match d.read_lock::<Array>() {
        Some(a) => hexes(w, &a),
        None => fail(format!(
            "{what} must be a list of hex ids or a hex set, not {}",
            d.type_name()
        )),
    }
}

/// The hexes of a script's list. An entry may be a hex id, a [`HexSet`] or
/// another list, so a script joins lists by nesting them (`[enemies, [train]]`)
/// instead of copying them into one.
pub fn hexes(w: &World, ids: &Array) -> Rr<Vec<Hex>> {
    let mut out = Vec::with_capacity(ids.len());
    push_hexes(w, ids, &mut out)?;
    Ok(out)
}

/// Appends the hexes of a script's list to `out` (see [`hexes`]).
pub fn push_hexes(w: &World, ids: &Array, out: &mut Vec<Hex>) -> Rr<()> {
    for d in ids {
        if let Ok(id) = d.as_immutable_string_ref() {
            out.push(w.hex(&id)?);
        } else if let Some(set) = d.read_lock::<HexSet>() {
            out.extend_from_slice(set.hexes.list());
        } else if let Some(list) = d.read_lock::<Array>() {
            push_hexes(w, &list, out)?;
        } else {
            return fail(format!(
                "a list of hexes holds hex ids, hex sets or lists, not {}",
                d.type_name()
            ));
        }
    }
    Ok(())
}

/// A number a script passed as INT or FLOAT.
pub fn number_arg(d: &Dynamic, what: &str) -> Rr<FLOAT> {
    d.as_float()
        .or_else(|_| d.as_int().map(|i| i as FLOAT))
        .or_else(|t| fail(format!("{what} must be a number, not {t}")))
}

/// Text or a list of text from a script (`kind: "gun"` or `kind: ["gun", "train"]`), shared
/// with the script rather than copied.
pub fn text_list(d: &Dynamic, key: &str) -> Rr<Vec<ImmutableString>> {
    if let Some(s) = d.read_lock::<ImmutableString>() {
        return Ok(vec![s.clone()]);
    }
    match d.read_lock::<Array>() {
        Some(a) => a.iter().map(|t| shared_text(t, key)).collect(),
        None => fail(format!(
            "`{key}` must be text or a list of text, not {}",
            d.type_name()
        )),
    }
}

/// A script's text, shared rather than copied.
pub fn shared_text(d: &Dynamic, key: &str) -> Rr<ImmutableString> {
    match d.read_lock::<ImmutableString>() {
        Some(s) => Ok(s.clone()),
        None => fail(format!("`{key}` must be text, not {}", d.type_name())),
    }
}

/// A hex id from a script's value, read in place (a hex id the core handed out is then found by
/// the address of its text, without parsing).
pub fn hex_arg(w: &World, d: &Dynamic, key: &str) -> Rr<Hex> {
    match d.as_immutable_string_ref() {
        Ok(id) => w.hex(&id),
        Err(t) => fail(format!("`{key}` must be a hex id, not {t}")),
    }
}

/// Refuses a key of an options map that is not among `allowed`, naming it and the keys there are.
pub fn check_keys(m: &rhai::Map, allowed: &[&str], what: &str) -> Rr<()> {
    match m.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => fail(format!(
            "{what} has no key `{k}` (it takes {})",
            allowed.join(", ")
        )),
        None => Ok(()),
    }
}
