//! `muster render`: snapshots of small SVGs (a map with every feature the style draws, a
//! stacked hex with a face band, markers and facing; a pointy-top map of two sheets with
//! prefixed ids numbered right to left; the default style), the geometry behind them, and the
//! command on every bundled scenario.

use muster_interpreter::geom::map::Map;
use muster_interpreter::style::{self, Style};
use muster_interpreter::view::svg::Board;
use muster_interpreter::world::state::{State, Unit};
use std::path::Path;

fn map(name: &str) -> Map {
    Map::load(&Path::new("tests/fixtures/render").join(name)).unwrap()
}

fn fixture_style() -> Style {
    Style::from_files([&style::load(Path::new("tests/fixtures/render/style.ron")).unwrap()])
}

fn unit(map: &Map, id: &str, side: &str, at: &str) -> Unit {
    Unit {
        id: id.into(),
        name: id.to_uppercase(),
        side: side.into(),
        kind: "foot".into(),
        strength: 4,
        rating: 3,
        location: Some(map.parse(at).unwrap()),
        facing: None,
        face: "front".into(),
        markers: Default::default(),
        props: Default::default(),
    }
}

/// Three counters in one hex (the top one worn, shaken, moved and facing), one elsewhere, one
/// off the map, and a marker on a hex.
fn stacked_state(map: &Map) -> State {
    let mut s = State::default();
    let mut top = unit(map, "c", "blue", "0302");
    top.face = "worn".into();
    top.kind = "gun".into();
    top.facing = Some(2);
    top.markers.insert("shaken".into());
    top.markers.insert("moved".into());
    top.markers.insert("out_of_supply".into());
    for u in [
        unit(map, "a", "blue", "0302"),
        unit(map, "b", "blue", "0302"),
        top,
        unit(map, "r", "red", "0504"),
    ] {
        s.units.insert(u.id.clone(), u);
    }
    let mut gone = unit(map, "gone", "red", "0101");
    gone.location = None;
    s.units.insert(gone.id.clone(), gone);
    s.hex_markers
        .entry(map.parse("0104").unwrap())
        .or_default()
        .insert("smoke".into());
    s
}

#[test]
fn every_feature_and_a_stack() {
    let map = map("features.ron");
    let style = fixture_style();
    let sides = vec!["red".to_string(), "blue".to_string()];
    let svg = Board::new(&map, &style)
        .with_sides(&sides)
        .svg(&stacked_state(&map));
    // What the snapshot must show, said plainly: each feature in its place.
    for part in [
        r#"class="creek""#,
        r#"class="road""#,
        r#"class="trail""#,
        "<g class=\"ford\">\n<circle",
        "<g class=\"bridge\">\n<rect",
        r#"class="slope""#,
        r#"class="wall""#, // not in the style: still drawn
        r#"class="contour""#,
        r#"data-area="victory""#,
        r#"data-area="entry""#,
        ">Mill</text>",
        ">0503</text>",
        r#"data-marker="shaken""#,
        r#"data-marker="out_of_supply""#,
        r#"data-marker="smoke""#,
        r#"class="facing""#,
        "fill=\"#b3261e\"/>", // the worn face's band
        ">4-3</text>",
    ] {
        assert!(svg.contains(part), "the SVG lacks {part}");
    }
    assert!(
        !svg.contains(r#"data-marker="moved""#),
        "a hidden marker is drawn"
    );
    assert!(!svg.contains("GONE"), "a unit off the map is drawn");
    insta::assert_snapshot!("every_feature_and_a_stack", svg);
}

#[test]
fn a_stack_steps_up_and_right_from_the_hex_centre() {
    let map = map("features.ron");
    let style = fixture_style();
    let board = Board::new(&map, &style);
    let svg = board.svg(&stacked_state(&map));
    let (cx, cy) = board.center(map.parse("0302").unwrap());
    let at = |id: &str| {
        let key = format!(r#"data-unit="{id}" data-hex="0302" transform="translate("#);
        let rest = &svg[svg.find(&key).unwrap_or_else(|| panic!("{id} not in 0302")) + key.len()..];
        let xy: Vec<f64> = rest[..rest.find(')').unwrap()]
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        (xy[0], xy[1])
    };
    let step = 0.12 * 24.0;
    for (i, id) in ["a", "b", "c"].into_iter().enumerate() {
        let (x, y) = at(id);
        let want = (cx + step * i as f64, cy - step * i as f64);
        assert!(
            (x - want.0).abs() < 0.06 && (y - want.1).abs() < 0.06,
            "{id} at ({x}, {y}), not {want:?}"
        );
    }
}

#[test]
fn sheets_pointy_top_right_to_left() {
    let map = map("sheets.ron");
    let style = Style::default();
    let board = Board::new(&map, &style);
    let svg = board.svg(&State::default());
    for id in ["N0101", "N0302", "S0101", "S0302"] {
        assert!(svg.contains(&format!(">{id}</text>")), "no id {id}");
    }
    // Columns count from the right: N0101 stands east of N0301, on the same row.
    let (e, w) = (
        board.center(map.parse("N0101").unwrap()),
        board.center(map.parse("N0301").unwrap()),
    );
    assert!(e.0 > w.0 && (e.1 - w.1).abs() < 1e-9, "{e:?} {w:?}");
    // The south sheet lies below the north one.
    assert!(board.center(map.parse("S0101").unwrap()).1 > e.1);
    insta::assert_snapshot!("sheets_pointy_top_right_to_left", svg);
}

#[test]
fn neighbours_touch_on_every_orientation() {
    // Any two neighbours' centres are one hex width apart (a flat-top hex of size s is
    // √3·s across its flats; so is a pointy-top one).
    for name in ["features.ron", "sheets.ron"] {
        let map = map(name);
        let style = Style::default();
        let board = Board::new(&map, &style);
        for h in map.hexes() {
            for n in map.neighbours(h) {
                let (a, b) = (board.center(h), board.center(n));
                let d = (a.0 - b.0).hypot(a.1 - b.1);
                assert!(
                    (d - 3f64.sqrt() * style.hex_size).abs() < 1e-6,
                    "{name}: {d}"
                );
            }
        }
    }
}

#[test]
fn the_default_style_still_tells_terrain_apart() {
    let map = map("features.ron");
    let style = Style::default();
    let svg = Board::new(&map, &style).svg(&State::default());
    let fills: std::collections::BTreeSet<&str> = svg
        .split(r##"<use href="#hx""##)
        .skip(1)
        .filter_map(|s| s.split("fill=\"").nth(1)?.split('"').next())
        .collect();
    // clear, woods, town and marsh, and the elevation overlay's colour.
    assert!(fills.len() >= 5, "{fills:?}");
}

#[test]
fn render_draws_every_bundled_scenario() {
    for scenario in [
        "scenarios/last_victory/chickamauga.ron",
        "scenarios/sedgwick_attacks/rebel_ambush.ron",
        "scenarios/sedgwick_attacks/sedgwicks_switch.ron",
        "scenarios/sedgwick_attacks/keep_going_boys.ron",
        "scenarios/rock_of_chickamauga/map_only.ron",
        "scenarios/rock_of_chickamauga/centre_map_only.ron",
        "tests/demo/scenarios/demo/skirmish.ron",
    ] {
        let game = muster_interpreter::tools::render::position(Some(Path::new(scenario)), None)
            .unwrap_or_else(|e| panic!("{scenario}: {e}"));
        let svg = muster_interpreter::tools::render::render(&game, &Default::default());
        let on_map = game
            .state()
            .units
            .values()
            .filter(|u| u.location.is_some())
            .count();
        assert_eq!(
            svg.matches(r#"<g class="unit""#).count(),
            on_map,
            "{scenario}: a counter per unit on the map"
        );
        assert!(svg.starts_with("<svg xmlns="), "{scenario}");
    }
}
