//! Runs every example file under tests/examples, as `muster verify` does.

use muster_interpreter::tools::verify::{collect, Runner};
use std::path::PathBuf;

#[test]
fn every_example_file_passes() {
    let files = collect(&[PathBuf::from("tests/examples")]);
    assert!(!files.is_empty());
    let mut runner = Runner::default();
    let mut failed = Vec::new();
    for f in &files {
        match runner.run(f) {
            Ok(o) if o.failures.is_empty() => {}
            Ok(o) => failed.push(format!(
                "{}: {}\n  {}",
                f.display(),
                o.title,
                o.failures.join("\n  ")
            )),
            Err(e) => failed.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} example files failed:\n{}",
        failed.len(),
        files.len(),
        failed.join("\n")
    );
}
