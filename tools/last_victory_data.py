#!/usr/bin/env python3
"""Builds the Last Victory map and scenario RON files from the third-party
transcription of the published game in ../shared/reference/bluegray-chickamauga.

The JSON files are read, never copied: this script writes the project's own
RON files with provenance headers. Run from the repository root:

    python3 tools/last_victory_data.py [REFERENCE_DIR]
"""
import json
import sys
import textwrap
from pathlib import Path

REF = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/reference/bluegray-chickamauga")
OUT_MAP = Path("scenarios/last_victory/maps/chickamauga.ron")
OUT_SCEN = Path("scenarios/last_victory/chickamauga.ron")

CITE = "published (1975 charts, as transcribed by the VALOR engine project)"
CODES = {"clear": ".", "forest": "f", "rough": "r", "forest_rough": "fr", "offmap": "_"}
KIND = {"inf": "infantry", "cav": "cavalry", "arty": "artillery", "train": "train"}


def hex_id(c, r):
    return f"{c:02d}{r:02d}"


def neighbours(c, r):
    # Flat-top, odd columns sit half a hex higher (even columns shifted down).
    if c % 2 == 1:
        return [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    return [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]


def east_neighbours(c, r):
    return [n for n in neighbours(c, r) if n[0] == c + 1]


def cr(h):
    return int(h[:2]), int(h[2:])


def nbrs(h):
    return [hex_id(*n) for n in neighbours(*cr(h))]


def side(a, b):
    return tuple(sorted((a, b)))


def is_gap_side(a, b):
    # The orientation the transcription never classified: an even-column hex and its lower-right
    # neighbour (e.g. 0417/0518).
    (ca, ra), (cb, rb) = sorted((cr(a), cr(b)))
    return ca % 2 == 0 and cb == ca + 1 and rb == ra + 1


def common(a, b):
    return sorted(set(nbrs(a)) & set(nbrs(b)))


def corners(s):
    # The two ends of a hexside, each named by the three hexes that meet there.
    return [frozenset((s[0], s[1], x)) for x in common(*s)]


def corner_sides(v):
    a, b, c = sorted(v)
    return [(a, b), (a, c), (b, c)]


class Lines:
    """One line feature's hexsides, with each hex's number of them."""

    def __init__(self, sides=()):
        self.sides = set()
        self.at = {}
        for s in sides:
            self.add(s)

    def add(self, s):
        if s not in self.sides:
            self.sides.add(s)
            for h in s:
                self.at.setdefault(h, set()).add(s[1] if h == s[0] else s[0])

    def deg(self, h):
        return len(self.at.get(h, ()))

    def meet(self, a, b):
        # a and b are already joined through a common hex of the line (a bend, not a break).
        return bool(self.at.get(a, set()) & self.at.get(b, set()))


def components(sides):
    parent = {}

    def root(h):
        while parent.setdefault(h, h) != h:
            parent[h] = parent[parent[h]]
            h = parent[h]
        return h

    for a, b in sides:
        parent[root(a)] = root(b)
    return {root(h) for h in list(parent)}


def reached(sides, start):
    lines = Lines(sides)
    seen, todo = set(start), list(start)
    while todo:
        for n in lines.at.get(todo.pop(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


GAP = "reconstructed (transcription gap)"
MISS = "reconstructed (classifier miss)"


class Transcription:
    """The transcription's map: hex terrain, its records between neighbours as classified, and its
    records between hexes two apart."""

    def __init__(self, t):
        self.hexes = t["hexes"]
        self.on = {h for h, v in self.hexes.items() if v["t"] != "offmap"}
        self.records, self.two_apart = [], []
        for key, v in t["sides"].items():
            a, b = key.split("|")
            feats = [f for f in ("road", "trail", "creek", "ford", "bridge") if v.get(f)]
            if b in nbrs(a):
                self.records.append(((a, b), feats, v.get("name")))
            else:
                self.two_apart.append((a, b, feats))
        self.line = {f: Lines(side(*ab) for ab, feats, _ in self.records if f in feats)
                     for f in ("road", "trail", "creek")}
        self.sides = sorted({side(h, n) for h in self.on for n in nbrs(h) if n in self.on})
        self.gap_sides = [s for s in self.sides if is_gap_side(*s)]
        assert not any(side(*ab) in self.gap_sides for ab, feats, _ in self.records if feats)
        # Every road the transcription takes across a creek is a bridge, every trail a ford.
        over_creek = [feats for ab, feats, _ in self.records if "creek" in feats]
        assert all("bridge" in f for f in over_creek if "road" in f)
        assert all("ford" in f for f in over_creek if "trail" in f)
        self.bridges = sum("road" in f for f in over_creek)
        self.fords = sum("trail" in f for f in over_creek)

    def edge(self, h):
        return any(n not in self.on for n in nbrs(h))

    def east_edge(self, h):
        return all(hex_id(*n) not in self.on for n in east_neighbours(*cr(h)))

    def lines_per_orientation(self):
        count = {}
        for f in ("road", "trail", "creek"):
            for s in self.line[f].sides:
                (ca, ra), (cb, rb) = sorted((cr(s[0]), cr(s[1])))
                o = (ca % 2, cb - ca, rb - ra)
                count[o] = count.get(o, 0) + 1
        return count


def creek_ends(creek, corner):
    return sum(c in creek for c in corner_sides(corner))


def repair_gap(tr):
    """The transcription gap: a line that stops at one of its sides is carried across it. A road stops
    in a hex with one road side; a trail in a hex with one trail side and no road (a trail that reaches
    a road has joined it); a creek at a corner where one creek side ends. Each hex has one
    unclassified side, so a line that stops there can only go on through it."""
    road, trail, creek = tr.line["road"], tr.line["trail"], tr.line["creek"]
    added, kinds = [], {"both": 0, "meets": 0, "leaves": 0}
    for s in tr.gap_sides:
        a, b = s
        if road.deg(a) == 1 and road.deg(b) == 1 and not road.meet(a, b):
            added.append((s, ["road"], GAP, "road dead ends on both sides"))
            kinds["both"] += 1
            continue
        for x, y in ((a, b), (b, a)):
            if road.deg(x) != 1 or tr.edge(x) or road.meet(x, y):
                continue
            if road.deg(y) >= 2:
                added.append((s, ["road"], GAP, f"road dead end in {x} meets the road through {y}"))
                kinds["meets"] += 1
                break
            if road.deg(y) == 0 and trail.deg(y) == 0 and tr.edge(y):
                added.append((s, ["road"], GAP, f"road dead end in {x} leaves the map through {y}"))
                kinds["leaves"] += 1
                break
        else:
            if all(trail.deg(h) == 1 and road.deg(h) == 0 for h in s) and not trail.meet(a, b):
                added.append((s, ["trail"], GAP, "trail dead ends on both sides"))
    for s in tr.gap_sides:
        v, w = (creek_ends(creek.sides, c) for c in corners(s))
        if (v, w) == (1, 1):
            added.append((s, ["creek"], GAP, "creek dead ends at both corners"))
        elif sorted((v, w)) == [0, 1] and any(h not in tr.on for h in corners(s)[0 if v == 0 else 1]):
            added.append((s, ["creek"], GAP, "creek dead end at one corner, the other on the map edge"))
    return added, kinds


def route_two_apart(tr):
    """Records between hexes two apart: each runs from an odd-column hex to the even-column hex
    below-right of it, exactly along the hexside between their two common neighbours, so a line
    through either common neighbour, or one crossing that hexside, reads on it. Kept only where both
    ends already carry such a line (a road record: a road; a trail record: a road or trail), routed
    through the common neighbour on the same line, else a Clear one, else the first by id; otherwise
    an echo, dropped."""
    road, trail = tr.line["road"], tr.line["trail"]
    kept, dropped = [], []
    for a, b, feats in tr.two_apart:
        f = feats[0]
        kinds = [road] if f == "road" else [road, trail]
        cm = common(a, b)
        bare = [h for h in (a, b) if not any(k.deg(h) for k in kinds)]
        if bare:
            why = f"no other {'road' if f == 'road' else 'road or trail'} in {' or '.join(bare)}"
            if side(*cm) in road.sides | trail.sides:
                why += f"; echo of the crossing {cm[0]}/{cm[1]}"
            dropped.append((a, b, feats, why))
            continue
        on_line = [c for c in cm if c in tr.line[f].at.get(a, set()) | tr.line[f].at.get(b, set())]
        clear = [c for c in cm if tr.hexes[c]["t"] == "clear"]
        mid = (on_line or clear or cm)[0]
        kept.append((a, b, feats, mid))
    return kept, dropped


def repair_breaks(tr, roads):
    """Road breaks on classified sides: two road dead ends facing each other across a side, not meeting
    through a common neighbour and off the map edge, are joined, in order of the side's hexes."""
    roads = Lines(roads)
    added = []
    for s in tr.sides:
        a, b = s
        if s in roads.sides or roads.deg(a) != 1 or roads.deg(b) != 1 or roads.meet(a, b):
            continue
        if tr.edge(a) or tr.edge(b):
            continue
        how = "transcribed as trail" if s in tr.line["trail"].sides else "transcribed with no line"
        added.append((s, ["road"], MISS, f"road dead ends on both sides, {how}"))
        roads.add(s)
    return added


def build_map():
    tr = Transcription(json.load(open(REF / "terrain.json")))
    rows = []
    for r in range(1, 29):
        rows.append(" ".join(CODES[tr.hexes[hex_id(c, r)]["t"]].ljust(2) for c in range(1, 27)).rstrip())

    added, road_kinds = repair_gap(tr)
    kept, dropped = route_two_apart(tr)
    routed, seen = [], set()
    for a, b, feats, mid in kept:
        for x, y in ((a, mid), (mid, b)):
            if (side(x, y), feats[0]) not in seen:
                seen.add((side(x, y), feats[0]))
                routed.append(((x, y), feats, f"transcribed as {a}/{b}, two hexes apart"))

    def with_feature(f, *groups):
        return {side(*ab) for group in groups for ab, feats, *_ in group if f in feats}

    gap_added = list(added)
    added += repair_breaks(tr, with_feature("road", tr.records, routed, added))
    # A road or trail across a creek side is a bridge or a ford, as on every such side transcribed.
    creeks = with_feature("creek", tr.records, added)
    crossings = 0
    for i, (s, feats, label, why) in enumerate(added):
        if s in creeks and feats in (["road"], ["trail"]):
            added[i] = (s, feats + ["creek", "bridge" if feats == ["road"] else "ford"], label, why)
            crossings += 1

    def entry(ab, feats, note):
        return f'        ("{ab[0]}/{ab[1]}", [{", ".join(chr(34) + f + chr(34) for f in feats)}]),' + (
            f"  // {note}" if note else "")

    sides = [entry(ab, feats, name) for ab, feats, name in tr.records]
    sides += [entry(ab, feats, note) for ab, feats, note in routed]
    sides += [f"        // dropped: {a}/{b} {feats[0]}, transcribed two hexes apart ({why})"
              for a, b, feats, why in dropped]
    sides += [entry(s, feats, f"{label}: {why}") for s, feats, label, why in added]

    roads = with_feature("road", tr.records, routed, added)
    trails = with_feature("trail", tr.records, routed, added)
    east_roads = sorted({h for s in roads for h in s if tr.east_edge(h)})
    net = reached(roads, ["0101", "0111"])
    corners_of = {c for s in creeks for c in corners(s)}
    transcribed = tr.line["creek"].sides
    per_orientation = tr.lines_per_orientation()
    assert len(per_orientation) == 5
    stats = dict(
        gap_sides=len(tr.gap_sides), others=(min(per_orientation.values()), max(per_orientation.values())),
        road_kinds=road_kinds, bridges=tr.bridges, fords=tr.fords, crossings=crossings,
        n_gap={f: sum(f in feats for s, feats, *_ in gap_added) for f in ("road", "trail", "creek")},
        n_miss=len(added) - len(gap_added), kept=len(kept), dropped=len(dropped), two_apart=len(tr.two_apart),
        comp={
            "road": (len(components(tr.line["road"].sides)), len(components(roads))),
            "both": (len(components(tr.line["road"].sides | tr.line["trail"].sides)),
                     len(components(roads | trails))),
            "creek_ends": (sum(creek_ends(transcribed, c) == 1 for c in {c for s in transcribed
                                                                          for c in corners(s)}),
                           sum(creek_ends(creeks, c) == 1 for c in corners_of)),
            "creek_edge": all(any(h not in tr.on for h in c) for c in corners_of if creek_ends(creeks, c) == 1),
        },
        east=east_roads, reach=sorted(h for h in east_roads if h in net),
        over=sorted(name for ab, feats, name in tr.records if name and "road" in feats and set(ab) <= net),
    )
    return rows, sides, stats


def header_notes(st):
    g, c, rk = st["n_gap"], st["comp"], st["road_kinds"]
    crossings = "none does" if st["crossings"] == 0 else f"{st['crossings']} do"
    paragraphs = [
        "Reconstructed (transcription gap): the transcription never classified one of the six hexside "
        "orientations, an even-column hex and its lower-right neighbour (e.g. 0417/0518): its "
        f"{st['gap_sides']} sides carry no line at all, while each of the other five carries "
        f"{st['others'][0]}-{st['others'][1]} road, trail and creek sides. Every hex has one such side, so a "
        "line that stops in a hex can only go on through it. Rule, on the sides as transcribed: a road "
        "stops in a hex with one road side; a trail in a hex with one trail side and no road (a trail that "
        "reaches a road has joined it); a creek at a corner where one creek side ends. Such a side gets the "
        "road when the road stops on both sides, or stops on one side (not on the map edge) facing the road "
        "through the other hex, or facing a map-edge hex with no line (it leaves the map there); the trail "
        "when it stops on both sides; the creek when it stops at both corners, or at one with the other on "
        "the map edge. Not where the two hexes already meet through a common neighbour on the line (a bend, "
        "not a break). A road or trail repaired across a creek side would get a bridge or a ford, as all "
        f"{st['bridges']} roads and {st['fords']} trails transcribed across creeks have; {crossings}. "
        f"Repaired: {g['road']} road sides ({rk['both']} with the road stopping on both sides, {rk['meets']} "
        f"meeting a road, {rk['leaves']} leaving the map), {g['trail']} trail and {g['creek']} creek sides, "
        f"marked below. Creek ends: {c['creek_ends'][1]}{', all on the map edge' if c['creek_edge'] else ''} "
        f"({c['creek_ends'][0]} on the sides as transcribed).",
        f"Reconstructed (classifier miss): then {st['n_miss']} sides between two road dead ends that face each "
        "other and do not meet get the road (marked below): the classifier told road, trail and nothing apart "
        "by how much of the line between two hex centres the drawn line covered, and passed over these.",
        f"Reconstructed: the transcription lists {st['two_apart']} road/trail 'hexsides' between hexes two "
        "apart, each from an odd-column hex to the even-column hex below-right of it. That line runs exactly "
        "along the hexside between their two common neighbours, so a line through either neighbour, or one "
        "crossing that hexside, reads on it. A record is kept where both ends carry another such line (a "
        "road record: a road; a trail record: a road or trail), routed through the common neighbour on the "
        f"same line, else a Clear one, else the first by id: {st['kept']} kept. The other {st['dropped']} would "
        "take the line into a hex that no such line reaches: echoes, dropped (listed below as comments).",
        f"Road network: {c['road'][1]} connected parts ({c['road'][0]} on the sides as transcribed); roads "
        f"and trails together: {c['both'][1]} ({c['both'][0]}).",
        "Areas: `exits` (18.3) and the entry hexes (18.2) are published (the deluxe text's 0101 and 0111, "
        "see the exit-hex defect note in the scenario); `east_road_exits` is reconstructed: the road hexes "
        "with no eastern neighbour on the map, where a road leaves the east edge (18.4.3). The roads from "
        f"0101/0111 reach {', '.join(st['reach']) or 'none of them'}"
        + (f" (over {', '.join(st['over'])})." if st["over"] else "."),
    ]
    out = []
    for p in paragraphs:
        out += ["//"] + ["// " + w for w in textwrap.wrap(p, 98)]
    return out


def build_map_file():
    rows, sides, st = build_map()
    lines = [
        "// Chickamauga: The Last Victory — the game map (26 columns x 28 rows, flat-top,",
        "// odd columns half a hex higher; 54 printed hexes are off the playing area).",
        "//",
        f"// Provenance: terrain of every hex and every road/trail/creek/ford/bridge hexside is {CITE};",
        "// the transcription classified a faithful redraw of the 1975 map and spot-checked it against the scan.",
        *header_notes(st),
        "//",
        "// Generated by tools/last_victory_data.py; edit the generator, not this file.",
        "Map(",
        '    name: "Chickamauga",',
        "    numbering: (orientation: FlatTop, shifted: Even, order: ColumnRow, columns: LeftToRight,",
        "                column_range: (1, 26), row_range: (1, 28)),",
        '    terrain_codes: {".": ["clear"], "f": ["forest"], "r": ["rough"], "fr": ["forest_rough"]},',
        '    features: ["road", "trail", "creek", "ford", "bridge"],',
        "    terrain: [",
    ]
    lines += [f'        "{row}",  // row {i + 1:02d}' for i, row in enumerate(rows)]
    lines += ["    ],", "    hexsides: ["] + sides + ["    ],"]
    lines += [
        "    areas: {",
        '        "exits": ["0101", "0111"],',
        '        "union_entry": ["0728", "1027"],',
        '        "confederate_entry": ["1627", "1928"],',
        f'        "east_road_exits": [{", ".join(chr(34) + h + chr(34) for h in st["east"])}],',
        "    },",
        ")",
        "",
    ]
    OUT_MAP.write_text("\n".join(lines))

def unit_id(side, name, kind):
    # A reinforcement printed "Andrsn (Anderson)" is a different brigade from the
    # at-start "Andrsn": the long name keeps the ids apart.
    base = name.split(" (")[-1].rstrip(")") if "(" in name else name
    base = base.lower().replace("/", "_").replace(" ", "_")
    if kind == "artillery":
        base = f"art_{base}"
    return ("u_" if side == "Union" else "c_") + base


def unit_name(side, name, kind):
    name = name.split(" (")[-1].rstrip(")") if "(" in name else name
    if kind == "artillery" and side == "Confederate":
        return f"Artillery {name}"
    if kind == "artillery":
        return f"{name} Artillery"
    return name


def build_scenario():
    r = json.load(open(REF / "rules_transcription.json"))["chickamauga_exclusive"]
    units = []
    for side, key in (("Union", "initial_deployment_union"), ("Confederate", "initial_deployment_confederate")):
        for u in r[key]:
            kind = KIND[u["type"]]
            units.append((side, u["name"], kind, u["str"], u["hex"], None))
    for side, key, entry in (("Union", "reinforcements_union", "union_entry"),
                             ("Confederate", "reinforcements_confederate", "confederate_entry")):
        for wave in r[key]:
            for u in wave["units"]:
                units.append((side, u["name"], KIND[u["type"]], u["str"], None, wave["gt"]))
    out = [
        "// Chickamauga: The Last Victory, 20 September 1863 — the 15-turn battle (rules 18.0-18.5).",
        "//",
        f"// Provenance: every unit's strength, type and set-up hex, and the reinforcement schedule with",
        f"// its turns and entry hexes, are {CITE}, from the 1975 deployment and reinforcement charts.",
        "// The victory point schedule, the initial occupation and the 15 turns with GT 9 at night are",
        "// published (rules 18.1.1, 18.4.1, 18.4.2). Unit ids are the project's own.",
        "//",
        "// Defects of the printed game, resolved deliberately:",
        "// - Exit hexes: the 1975 exclusive rules say 0101 and 0110 three times; the map's road leaves through",
        "//   0111 and 0110 has no road. We use 0101 and 0111, as the Deluxe rulebook (our authority) prints.",
        "// - Ford on a trail: the trail's 2 MP and the ford's +1 MP both apply (5.2: terrain effects on",
        "//   movement are cumulative), so a ford into forest along the trail costs 3 MP.",
        "// - Confederate exits at 10 VP per CSP are applied as printed (18.4.1), with the 18.4.3 road trace.",
        "// - 18.4.3 says the Confederate road runs from 0101/0111 'off the eastern edge': we read it as a road",
        "//   from the exit hex to a road hex on the east edge of the map, free of Union units.",
        "// - The Vassal module misplaces Wilder and omits 2/4/XIV; we follow the printed chart.",
        "// Generated by tools/last_victory_data.py; edit the generator, not this file.",
        "Scenario(",
        '    name: "Chickamauga: The Last Victory (15 turns)",',
        '    ruleset: "../../rulesets/last_victory",',
        '    map: "maps/chickamauga.ron",',
        "    last_turn: 15,",
        "    units: [",
    ]
    for side, name, kind, strength, at, gt in units:
        uid = unit_id(side, name, kind)
        disp = unit_name(side, name, kind)
        props = f'props: {{"printed": {strength}' + (f', "arrives": {gt}' if gt else "") + "}"
        where = f', at: "{at}"' if at else ""
        out.append(f'        (id: "{uid}", name: "{disp}", side: "{side.lower()}", kind: "{kind}", strength: {strength}{where}, {props}),')
    out += [
        "    ],",
        '    tracks: {"union_vp": 0, "confederate_vp": 0},',
        "    data: {",
        '        "night_turns": [9],',
        '        "entry": {"union": "union_entry", "confederate": "confederate_entry"},',
        '        "occupation_vp": {',
        '            "union": {"1920": 10, "2311": 20},',
        '            "confederate": {"0211": 20, "0502": 20},',
        '            "either": {"0822": 5, "1115": 5, "1108": 5},',
        "        },",
        '        "occupied_at_start": {"0211": "union", "0502": "union", "0822": "union", "1108": "union", "1115": "union",',
        '                              "1920": "confederate", "2311": "confederate"},',
        '        "exit_vp_per_csp": {"union": 1, "confederate": 10},',
        '        "train_fails_vp": 10,',
        '        "union_trace_hexes": 10,',
        "    },",
        '    options: {"attack_effectiveness": true},',
        ")",
        "",
    ]
    OUT_SCEN.write_text("\n".join(out))


if __name__ == "__main__":
    build_map_file()
    build_scenario()
    print(f"wrote {OUT_MAP} and {OUT_SCEN}")
