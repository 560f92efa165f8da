//! Plain data values: unit properties, per-side data, scenario data and chart
//! entries. Maps keep their order so that iteration, and so games, are
//! deterministic.

use indexmap::IndexMap;
use rhai::Dynamic;
use serde::{Deserialize, Serialize};

/// A data value as written in RON and saved in games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// Nothing (`()` in scripts).
    Unit(()),
    /// true or false.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A fractional number.
    Float(f64),
    /// Text.
    Str(String),
    /// A list.
    List(Vec<Value>),
    /// An ordered map.
    Map(IndexMap<String, Value>),
}

impl Default for Value {
    fn default() -> Self {
        Value::Unit(())
    }
}

impl Value {
    /// Converts to a script value.
    pub fn to_dynamic(&self) -> Dynamic {
        match self {
            Value::Unit(()) => Dynamic::UNIT,
            Value::Bool(b) => Dynamic::from_bool(*b),
            Value::Int(i) => Dynamic::from_int(*i),
            Value::Float(f) => Dynamic::from_float(*f),
            Value::Str(s) => Dynamic::from(s.clone()),
            Value::List(v) => Dynamic::from_array(v.iter().map(Value::to_dynamic).collect()),
            Value::Map(m) => {
                let mut map = rhai::Map::new();
                for (k, v) in m {
                    map.insert(k.as_str().into(), v.to_dynamic());
                }
                Dynamic::from_map(map)
            }
        }
    }

    /// Converts from a script value; anything that is not plain data (a
    /// function pointer, a custom type) is an error naming its type.
    pub fn from_dynamic(d: &Dynamic) -> Result<Value, String> {
        if d.is_unit() {
            return Ok(Value::Unit(()));
        }
        if let Ok(b) = d.as_bool() {
            return Ok(Value::Bool(b));
        }
        if let Ok(i) = d.as_int() {
            return Ok(Value::Int(i));
        }
        if let Ok(f) = d.as_float() {
            return Ok(Value::Float(f));
        }
        if d.is_string() {
            return Ok(Value::Str(d.clone().into_string().unwrap_or_default()));
        }
        if d.is_array() {
            let arr = d.clone().into_array().unwrap_or_default();
            return arr
                .iter()
                .map(Value::from_dynamic)
                .collect::<Result<_, _>>()
                .map(Value::List);
        }
        if d.is_map() {
            let map = d.clone().cast::<rhai::Map>();
            // rhai maps are sorted by key, which is deterministic.
            let mut out = IndexMap::new();
            for (k, v) in &map {
                out.insert(k.to_string(), Value::from_dynamic(v)?);
            }
            return Ok(Value::Map(out));
        }
        // The type's own name, not its path in the engine's code.
        let name = d.type_name().rsplit("::").next().unwrap_or_default();
        Err(format!(
            "a `{name}` is not plain data (numbers, text, true/false, lists and maps) and cannot be kept or compared as a value{}",
            if name == "HexSet" { "; turn a hex set into a list with `.to_array()`" } else { "" }
        ))
    }

    /// The value as an integer, if it is one.
    #[must_use]
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The value as text, if it is text.
    #[must_use]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Unit(()) => write!(f, "()"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{s}"),
            other => write!(f, "{}", serde_json::to_string(other).unwrap_or_default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_scripts() {
        let v = Value::Map(IndexMap::from([
            ("a".to_string(), Value::Int(3)),
            (
                "b".to_string(),
                Value::List(vec![
                    Value::Str("x".into()),
                    Value::Bool(true),
                    Value::Float(0.5),
                ]),
            ),
        ]));
        assert_eq!(Value::from_dynamic(&v.to_dynamic()).unwrap(), v);
    }

    #[test]
    fn reads_ron() {
        let v: Value =
            ron::from_str("{\"turn\": 3, \"hexes\": [\"0101\", \"0102\"], \"on\": true}").unwrap();
        assert_eq!(
            v.to_string(),
            r#"{"turn":3,"hexes":["0101","0102"],"on":true}"#
        );
    }
}
