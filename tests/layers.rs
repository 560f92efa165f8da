//! The engine's layers run downward only: no module of `interpreter/src` names a module of a
//! higher layer (ARCHITECTURE.md, "Code map"), and inside a layer folder no two files name each
//! other.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers from the ground up: a module may name only modules of its own layer or below.
const LAYERS: [&str; 14] = [
    "error", "value", "alloc", "source", "geom", "table", "style", "ruleset", "world", "view",
    "host", "scenario", "game", "tools",
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

/// The modules a file names as `crate::a::b`, or as `super::b` from inside module `module` (the
/// file's path in the crate; a file's `mod tests` is one deeper), as (top-level module,
/// second-level module). Comments count: a doc link to a higher layer is a dependency too.
fn named(text: &str, module: &[String]) -> BTreeSet<(String, String)> {
    let tests_at = text.find("mod tests").unwrap_or(text.len());
    let mut out = BTreeSet::new();
    for (i, start) in text
        .match_indices("crate::")
        .chain(text.match_indices("super::"))
    {
        if i > 0 && text[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        {
            continue; // `super::super::...` is read from its first `super`
        }
        let mut path: Vec<String> = if start == "crate::" {
            Vec::new()
        } else if i > tests_at {
            module.to_vec() // `super` of a file's own test module is the file
        } else {
            module[..module.len().saturating_sub(1)].to_vec()
        };
        let mut rest = &text[i + start.len()..];
        while let Some(r) = rest.strip_prefix("super::") {
            path.pop();
            rest = r;
        }
        for p in rest.split("::").take(2) {
            let word: String = p
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let last = word.len() < p.len();
            path.push(word);
            if last {
                break;
            }
        }
        let top = path.first().cloned().unwrap_or_default();
        let sub = path.get(1).cloned().unwrap_or_default();
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
        let module: Vec<String> = parts.iter().filter(|p| *p != "mod").cloned().collect();
        for (top, sub) in named(&text, &module) {
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
