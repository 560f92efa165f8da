//! The engine's layers run downward only: no module of `interpreter/src` names a module of a
//! higher layer (ARCHITECTURE.md, "Code map"), and inside a layer folder no two files name each
//! other.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers from the ground up: a module may name only modules of its own layer or below.
const LAYERS: [&str; 12] = [
    "error", "value", "alloc", "source", "geom", "table", "ruleset", "world", "host", "scenario",
    "game", "tools",
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("interpreter/src") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The modules a file names as `crate::a` or `crate::a::b` (comments included: a doc link to a
/// higher layer is a dependency too), as (top-level module, second-level module).
fn named(text: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        let mut parts = rest.split("::").map(|p| {
            p.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        });
        let top = parts.next().unwrap_or_default();
        let sub = parts.next().unwrap_or_default();
        out.insert((top, sub));
    }
    out
}

#[test]
fn modules_name_only_modules_of_their_layer_or_below() {
    let root = Path::new("interpreter/src");
    let mut all = Vec::new();
    files(root, &mut all);
    all.sort();
    let rank = |m: &str| LAYERS.iter().position(|l| *l == m);
    let mut wrong = Vec::new();
    let mut edges = BTreeSet::new();
    for f in &all {
        let rel = f.strip_prefix(root).expect("under src");
        let parts: Vec<String> = rel
            .iter()
            .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if parts[0] == "lib" {
            continue;
        }
        let own = rank(&parts[0]).unwrap_or_else(|| panic!("{} is in no layer", rel.display()));
        let text = std::fs::read_to_string(f).expect("source");
        for (top, sub) in named(&text) {
            match rank(&top) {
                Some(r) if r > own => wrong.push(format!("{} names crate::{top}", rel.display())),
                Some(_) if top == parts[0] && parts.len() > 1 && !sub.is_empty() => {
                    edges.insert((parts[1].clone(), sub));
                }
                _ => {}
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "upward dependencies:\n{}",
        wrong.join("\n")
    );
    let cycles: Vec<_> = edges
        .iter()
        .filter(|(a, b)| a != b && a != "mod" && edges.contains(&(b.clone(), a.clone())))
        .collect();
    assert!(
        cycles.is_empty(),
        "files of one layer naming each other: {cycles:?}"
    );
}
