//! The subcommands.

/// Prints a line on standard output. A closed pipe (`muster ... | head`) is
/// no reason to panic, so write errors are ignored.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($t)*);
    }};
}

pub mod api;
pub mod check;
pub mod duel;
pub mod los;
pub mod play;
pub mod render;
pub mod replay;
pub mod simulate;
pub mod verify;

use indexmap::IndexMap;
use muster_interpreter::error::Error;
use muster_interpreter::value::Value;
use muster_interpreter::world::agent::AgentKind;

/// A usage error: the command was given arguments it cannot use (exit status 2).
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    Error::usage(message).into()
}

/// Parses `SIDE=AGENT` arguments.
pub fn parse_agents(args: &[String]) -> anyhow::Result<IndexMap<String, AgentKind>> {
    let mut out = IndexMap::new();
    for a in args {
        let (side, agent) = a.split_once('=').ok_or_else(|| {
            usage(format!(
                "--agent takes SIDE=AGENT, such as union=human; got `{a}`"
            ))
        })?;
        let kind = AgentKind::parse(agent, side).map_err(|e| match e {
            // An unknown agent name is a usage error; a replay log that cannot be read is not.
            Error::Rules(m) => usage(format!("--agent {a}: {m}")),
            other => other.into(),
        })?;
        out.insert(side.to_string(), kind);
    }
    Ok(out)
}

/// Reads `SIDE=AGENT` arguments as text (checked by parsing them once).
pub fn read_agents(args: &[String]) -> anyhow::Result<IndexMap<String, String>> {
    parse_agents(args)?;
    Ok(args
        .iter()
        .filter_map(|a| a.split_once('='))
        .map(|(s, a)| (s.to_string(), a.to_string()))
        .collect())
}

/// Parses `NAME=VALUE` options; VALUE is read as RON (`true`, `3`, `"x"`), or else as text.
pub fn parse_options(args: &[String]) -> anyhow::Result<IndexMap<String, Value>> {
    let mut out = IndexMap::new();
    for a in args {
        let (name, value) = a.split_once('=').ok_or_else(|| {
            usage(format!(
                "--option takes NAME=VALUE, such as night_zoc=true; got `{a}`"
            ))
        })?;
        // RON reads a bare word such as `maybe` as `()`; it is text here.
        let v = match ron::from_str::<Value>(value) {
            Ok(Value::Unit(())) if value.trim() != "()" => Value::Str(value.to_string()),
            Ok(v) => v,
            Err(_) => Value::Str(value.to_string()),
        };
        out.insert(name.to_string(), v);
    }
    Ok(out)
}
