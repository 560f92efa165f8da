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
pub mod los;
pub mod play;
pub mod simulate;
pub mod verify;

use indexmap::IndexMap;
use muster_interpreter::value::Value;
use muster_interpreter::world::agent::AgentKind;

/// Parses `SIDE=AGENT` arguments.
pub fn parse_agents(args: &[String]) -> anyhow::Result<IndexMap<String, AgentKind>> {
    let mut out = IndexMap::new();
    for a in args {
        let (side, agent) = a.split_once('=').ok_or_else(|| {
            anyhow::anyhow!("--agent takes SIDE=AGENT, such as union=human; got `{a}`")
        })?;
        out.insert(side.to_string(), AgentKind::parse(agent, side)?);
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
            anyhow::anyhow!("--option takes NAME=VALUE, such as night_zoc=true; got `{a}`")
        })?;
        let v = ron::from_str::<Value>(value).unwrap_or_else(|_| Value::Str(value.to_string()));
        out.insert(name.to_string(), v);
    }
    Ok(out)
}
