//! The Rock of Chickamauga's line-of-sight facts (worked-examples 1.5) through `muster los` on the
//! test maps that tools/roc_data.py writes: the verdict word each example prints (clear,
//! obscured, blocked) and, where the printed example (or the map's reconstruction of it) names
//! one, the blocking hex. Fact 11 needs a unit in N1824 and is checked by its example file only
//! (tests/examples/rock_of_chickamauga/los_11_*.ron), as are the Obscured categories.
//!
//! The same facts hold on the game map (scenarios/rock_of_chickamauga/maps/chickamauga.ron),
//! where tools/roc_map.py put them: tests/rock_of_chickamauga/game_map_los.txt, which it writes,
//! lists them with the game map's ids. (`python3 tools/roc_map.py --check --muster BIN` also
//! checks that each gives the same reasons in the same hexes there as on its test map.)

use assert_cmd::Command;

const NORTH: &str = "tests/rock_of_chickamauga/north_los.ron";
const EXAMPLES: &str = "tests/rock_of_chickamauga/examples.ron";
const GAME: &str = "scenarios/rock_of_chickamauga/map_only.ron";

/// (fact, scenario, from, to, verdict word, blocking hex or "").
const FACTS: &[(&str, &str, &str, &str, &str, &str)] = &[
    ("1", NORTH, "N1904", "N1703", "clear", ""),
    ("2", NORTH, "N3513", "N3312", "blocked", "N3413"),
    ("3", NORTH, "N2007", "N1708", "obscured", ""),
    ("4", NORTH, "N2007", "N1706", "obscured", ""),
    ("5", NORTH, "N2007", "N2011", "blocked", "N2010"),
    ("6", NORTH, "N1606", "N1707", "clear", ""),
    ("7", NORTH, "N1606", "N1613", "obscured", ""),
    ("8", NORTH, "N1606", "N1409", "blocked", "N1408/N1508"),
    ("9", NORTH, "N1922", "N1621", "obscured", ""),
    ("10", NORTH, "N2223", "N1724", "obscured", ""),
    ("12", NORTH, "N1925", "N1724", "blocked", "N1825"),
    ("13", NORTH, "N2122", "N1822", "blocked", "N1922"),
    ("14", NORTH, "N3723", "N3719", "obscured", ""),
    ("15", NORTH, "N3722", "N3719", "obscured", ""),
    ("16", NORTH, "N3823", "N3828", "blocked", "N3827"),
    // Printed "Blocked by hex N3926", which is off the straight line (worked-examples 1.9 #16).
    ("17", NORTH, "N3729", "N3927", "blocked", "N3828"),
    ("18", NORTH, "N3704", "N3611", "clear", ""),
    // Printed "Obscured by the Heavy Woods in hex N3807", the target (worked-examples 1.9 #17).
    ("19", NORTH, "N3704", "N3807", "obscured", ""),
    ("20", NORTH, "N3704", "N3209", "obscured", ""),
    ("21", NORTH, "N3408", "N3609", "blocked", "N3508"),
    ("22", NORTH, "N3804", "N3505", "blocked", "N3704"),
    ("23 (ROC-FIRE-2)", EXAMPLES, "1123", "1225", "obscured", ""),
    ("24 (ROC-FIRE-1)", EXAMPLES, "1223", "1324", "clear", ""),
    // Adams' hex is not given (chosen: 2817); the 2818 knoll blocks.
    (
        "25 (ROC-CX-01)",
        EXAMPLES,
        "2817",
        "2919",
        "blocked",
        "2818",
    ),
    ("26 (ROC-CX-24)", EXAMPLES, "2720", "2921", "obscured", ""),
    ("26 (ROC-CX-19)", EXAMPLES, "3319", "3317", "obscured", ""),
    // Stovall's hex is not given (chosen: 3018), nor is 3019's terrain (Partial Woods).
    ("CX-01 Stovall", EXAMPLES, "3018", "3020", "obscured", ""),
    ("CX-24 Stovall", EXAMPLES, "2918", "3119", "obscured", ""),
];

#[test]
fn every_printed_los_verdict_comes_out() {
    let mut failures = Vec::new();
    for &(fact, scenario, from, to, word, at) in FACTS {
        let out = Command::cargo_bin("muster")
            .unwrap()
            .args(["los", scenario, from, to])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let verdict = text.split([' ', ':']).next().unwrap_or("");
        let place_ok = at.is_empty() || text.starts_with(&format!("blocked by {at} "));
        if !out.status.success() || verdict != word || !place_ok {
            let want = if at.is_empty() {
                word.to_string()
            } else {
                format!("{word} by {at}")
            };
            failures.push(format!(
                "LOS fact {fact}: {from} -> {to}: expected {want}, got `{text}` {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The two hexes of a hexside pair in order (the game map may print `b/a` for the test map's `a/b`).
fn sorted_pair(place: &str) -> Vec<&str> {
    let mut v: Vec<&str> = place.split('/').collect();
    v.sort_unstable();
    v
}

#[test]
fn every_printed_los_verdict_comes_out_on_the_game_map() {
    let list = include_str!("rock_of_chickamauga/game_map_los.txt");
    let mut failures = Vec::new();
    let mut facts = 0;
    for line in list
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 5, "a line of game_map_los.txt: `{line}`");
        let (fact, from, to, word, at) = (f[0], f[1], f[2], f[3], f[4]);
        facts += 1;
        let out = Command::cargo_bin("muster")
            .unwrap()
            .args(["los", GAME, from, to])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let verdict = text.split([' ', ':']).next().unwrap_or("");
        let place = text
            .strip_prefix("blocked by ")
            .and_then(|t| t.split(' ').next())
            .unwrap_or("");
        let place_ok = at == "-" || sorted_pair(place) == sorted_pair(at);
        if !out.status.success() || verdict != word || !place_ok {
            failures.push(format!(
                "LOS fact {fact} on the game map: {from} -> {to}: expected {word} {at}, got `{text}` {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
    }
    assert_eq!(
        facts,
        FACTS.len(),
        "game_map_los.txt lists the facts the test maps check"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
