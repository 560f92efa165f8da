//! The replay page in a real browser: `tests/browser/replay.mjs` (playwright-core driving the
//! system Chromium) opens pages written by `muster replay` and `muster play --html` from disk,
//! steps to a move and back, and measures a whole game's first frame. Screenshots go to
//! `target/screenshots/`.
//!
//! Set up with `apt-get install -y chromium` and `npm ci --prefix tests/browser`. Without them
//! the test says how and passes, unless `MUSTER_BROWSER_TEST` is set (CI sets it).

use muster_interpreter::tools::replay;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A whole Last Victory game's page may be this large at most.
const MAX_PAGE: u64 = 2 * 1024 * 1024;

/// Where the system Chromium is (`MUSTER_CHROMIUM` overrides).
fn chromium() -> PathBuf {
    std::env::var_os("MUSTER_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

/// The test's folder under the target directory.
fn target() -> PathBuf {
    // CARGO_TARGET_TMPDIR is <target>/tmp.
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap_or(Path::new("target"))
        .to_path_buf()
}

/// What is missing to run the browser, if anything.
fn missing() -> Option<String> {
    let mut out = Vec::new();
    if !chromium().exists() {
        out.push(format!(
            "no Chromium at {} (apt-get install -y chromium)",
            chromium().display()
        ));
    }
    if !Path::new("tests/browser/node_modules/playwright-core").exists() {
        out.push("no playwright-core (npm ci --prefix tests/browser)".to_string());
    }
    if Command::new("node").arg("--version").output().is_err() {
        out.push("no node (apt-get install -y nodejs npm)".to_string());
    }
    (!out.is_empty()).then(|| out.join("; "))
}

fn muster(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .args(args)
        .output()
        .expect("muster runs");
    assert!(
        out.status.success(),
        "muster {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_replay_page_steps_in_a_browser() {
    if let Some(why) = missing() {
        assert!(
            std::env::var_os("MUSTER_BROWSER_TEST").is_none(),
            "MUSTER_BROWSER_TEST is set, and the browser test cannot run: {why}"
        );
        eprintln!("skipping the browser test: {why}");
        return;
    }
    let dir = target().join("browser");
    let shots = target().join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&shots).unwrap();
    // The short game through the log and `muster replay`.
    let log = dir.join("demo.jsonl");
    let short = dir.join("demo.html");
    let s = |p: &Path| p.to_str().unwrap().to_string();
    muster(&[
        "play",
        "tests/demo/scenarios/demo/skirmish.ron",
        "--seed",
        "1",
        "-q",
        "--log",
        &s(&log),
    ]);
    muster(&["replay", &s(&log), "-o", &s(&short)]);
    // The first record after which a unit stands in another hex than before.
    let (game, recording) = replay::replay(&log).unwrap();
    let (steps, unit, before, hex) = (1..=recording.len())
        .find_map(|n| {
            let (a, b) = (recording.units_after(n - 1)?, recording.units_after(n)?);
            a.iter()
                .zip(&b)
                .find_map(|(x, y)| match (x.location, y.location) {
                    (Some(p), Some(q)) if p != q => Some((n, y.id.clone(), p, q)),
                    _ => None,
                })
        })
        .expect("a unit moves in the demo");
    assert!(
        steps >= 2,
        "the check steps back to a record before the move"
    );
    // The whole Last Victory game through `muster play --html`.
    let whole = dir.join("chickamauga.html");
    muster(&[
        "play",
        "scenarios/last_victory/chickamauga.ron",
        "--seed",
        "1",
        "-q",
        "--html",
        &s(&whole),
    ]);
    let size = std::fs::metadata(&whole).unwrap().len();
    assert!(
        size <= MAX_PAGE,
        "a whole Last Victory game's page is {size} bytes"
    );
    eprintln!("a whole Last Victory game's page: {size} bytes");
    let map = game.map();
    let id = |h| map.id(h);
    let spec = serde_json::json!({
        "chromium": chromium(),
        "shots": shots,
        "short": { "page": std::fs::canonicalize(&short).unwrap(), "steps": steps, "unit": unit, "before": id(before), "hex": id(hex) },
        "whole": { "page": std::fs::canonicalize(&whole).unwrap(), "max_ms": 1000 },
    });
    let spec_file = dir.join("spec.json");
    std::fs::write(&spec_file, spec.to_string()).unwrap();
    let out = Command::new("node")
        .arg("tests/browser/replay.mjs")
        .arg(&spec_file)
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the browser checks failed:\n{text}");
    assert!(text.contains(" passed, 0 failed"), "{text}");
    assert!(shots.join("replay-short-moved.png").exists());
}
