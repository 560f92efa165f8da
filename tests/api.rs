//! The script API's generated documents match the code: the Rhai definition files in
//! `docs/definitions/` and the reference part of `docs/script-api.md` are what `muster api`
//! makes from the registered functions' metadata now.

use muster_interpreter::tools::api::{definition_files, with_reference, MARKER};
use std::path::Path;

const REGENERATE: &str = "regenerate them with `cargo run -- api --definitions docs/definitions --markdown docs/script-api.md`";

/// The first line where two texts differ, for the failure message.
fn first_difference(committed: &str, fresh: &str) -> String {
    let (mut c, mut f) = (committed.lines(), fresh.lines());
    for n in 1.. {
        match (c.next(), f.next()) {
            (None, None) => break,
            (a, b) if a == b => {}
            (a, b) => {
                return format!(
                    "line {n}: committed {:?}, generated {:?}",
                    a.unwrap_or("<end>"),
                    b.unwrap_or("<end>")
                )
            }
        }
    }
    "they differ only in line endings".to_string()
}

#[test]
fn the_definition_files_match_the_code() {
    let dir = Path::new("docs/definitions");
    let fresh = definition_files();
    for (name, text) in &fresh {
        let committed = std::fs::read_to_string(dir.join(name))
            .unwrap_or_else(|_| panic!("docs/definitions/{name} is missing; {REGENERATE}"));
        assert!(
            committed == *text,
            "docs/definitions/{name} differs from the code ({}); {REGENERATE}",
            first_difference(&committed, text)
        );
    }
    for entry in std::fs::read_dir(dir).expect("docs/definitions") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .to_string();
        assert!(
            fresh.iter().any(|(n, _)| *n == name),
            "docs/definitions/{name} is no longer generated: remove it"
        );
    }
}

#[test]
fn the_reference_matches_the_code() {
    let committed = std::fs::read_to_string("docs/script-api.md").expect("docs/script-api.md");
    let fresh = with_reference(&committed)
        .unwrap_or_else(|| panic!("docs/script-api.md has no line `{MARKER}`"));
    assert!(
        committed == fresh,
        "the reference in docs/script-api.md differs from the code ({}); {REGENERATE}",
        first_difference(&committed, &fresh)
    );
}
