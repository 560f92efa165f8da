#!/usr/bin/env python3
"""The Rock of Chickamauga drill: a designed corner of ground, two corps a side, a short card pile.

Writes scenarios/rock_of_chickamauga/maps/drill.ron and scenarios/rock_of_chickamauga/drill.ron.

    python3 tools/roc_drill.py          # writes the two files
    python3 tools/roc_drill.py --check  # writes nothing; exits 1 (and names the file) if a written
                                        # file is not what this writes

Everything here is designed (a drill to exercise the whole turn). The drill's Command Tables
(Crittenden, Buckner, Palmer, Van Cleve, Stewart, Preston) are the game's, written with every
other formation's by tools/roc_command.py.
"""
import os
from pathlib import Path

import generated

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
# The written files, relative to the working directory (the repository root names them as the
# other generators do).
MAP = Path(os.path.relpath(os.path.join(ROOT, "scenarios/rock_of_chickamauga/maps/drill.ron")))
SCENARIO = Path(os.path.relpath(os.path.join(ROOT, "scenarios/rock_of_chickamauga/drill.ron")))
COLS, ROWS = 14, 10
TERRAIN = [
    ". . w w . . t t . . . w . .",
    ". f w . . . t . . . w w . .",
    ". f . . p . . . p . . . . .",
    ". . . p p . . . p . . f . .",
    ". . . . . . . . . . . f . .",
    ". w . . . p . . . . . . . .",
    ". w w . . p p . . . w . . .",
    ". . . . f . . . . . w w . .",
    ". . s . f . . . t . . . . .",
    ". . s . . . . . t t . . . .",
]


def hid(c, r):
    return "%02d%02d" % (c, r)


def neighbours(c, r):
    """Odd-q (odd columns half a hex down): the six neighbours on the map."""
    if c % 2 == 1:
        cand = [(c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
    else:
        cand = [(c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    cand += [(c, r - 1), (c, r + 1)]
    return [(x, y) for x, y in cand if 1 <= x <= COLS and 1 <= y <= ROWS]


def elevation(c, r):
    return 1 if 6 <= c <= 8 and 2 <= r <= 8 else 0


def map_text():
    hexsides = {}
    for c in range(1, COLS + 1):
        for r in range(1, ROWS + 1):
            for x, y in neighbours(c, r):
                if (x, y) < (c, r):
                    continue
                if elevation(c, r) != elevation(x, y):
                    hexsides.setdefault((hid(c, r), hid(x, y)), []).append("slope")
                # Chickamauga Creek between columns 10 and 11, with a bridge on the road (row 5)
                # and a ford at row 8.
                if {c, x} == {10, 11}:
                    feats = ["creek"]
                    if r == 5 and y == 5:
                        feats.append("bridge")
                    if r == 8 and y == 8:
                        feats.append("ford")
                    hexsides.setdefault((hid(c, r), hid(x, y)), []).extend(feats)
    elev = [" ".join(str(elevation(c, r)) for c in range(1, COLS + 1)) for r in range(1, ROWS + 1)]
    sides = ",\n        ".join('("%s/%s", [%s])' % (a, b, ", ".join('"%s"' % f for f in fs))
                              for (a, b), fs in sorted(hexsides.items()))
    road = ", ".join('"%s"' % hid(c, 5) for c in range(1, COLS + 1))
    lane = ", ".join('"%s"' % hid(4, r) for r in range(1, 6))
    text = f'''// The Rock of Chickamauga drill map: a designed corner of ground, not the game's map. A ridge
// (level 1, columns 06-08, with Slope hexsides round it) between two woods-broken fields;
// Chickamauga Creek between columns 10 and 11, bridged on the Major Road (row 05) and forded at
// row 08; a Lane up column 04 to the road. The VP hexes are the scenario's.
// Provenance: designed, every value (tools/roc_drill.py writes this file).
Map(
    name: "Drill ground (designed)",
    numbering: (orientation: FlatTop, shifted: Odd, order: ColumnRow, columns: LeftToRight, digits: 2,
                column_range: (1, {COLS}), row_range: (1, {ROWS})),
    terrain_codes: {{".": ["clear"], "f": ["farm"], "p": ["partial_woods"], "w": ["full_woods"], "t": ["thick_woods"], "s": ["swamp"]}},
    features: ["slope", "creek", "bridge", "ford", "major_road", "lane"],
    terrain: [
{chr(10).join('        "%s",' % t for t in TERRAIN)}
    ],
    elevation: [
{chr(10).join('        "%s",' % e for e in elev)}
    ],
    hexsides: [
        {sides},
    ],
    paths: [("major_road", [{road}]), ("lane", [{lane}])],
    places: {{"the crossroads": "0705", "Brock's farm": "0508", "the ridge road": "0903"}},
    areas: {{"union_entry": ["0101", "0105", "0110"], "confederate_entry": ["1401", "1405", "1410"]}},
)
'''
    return text


def unit(uid, name, side, kind, at, brigade, division, fresh, bw, entry=None, face=None, arrives=None):
    faces = ('"mounted": %s, "dismounted": %s' if kind == "cavalry" else '"fresh": %s, "battleworn": %s') % (fresh, bw)
    face = face or ("mounted" if kind == "cavalry" else "fresh")
    at_s = ', at: "%s"' % at if at else ""
    extra = ', "entry": "%s"' % entry if entry else ""
    extra += ', "arrives": %d' % arrives if arrives else ""
    return (f'        (id: "{uid}", name: "{name}", side: "{side}", kind: "{kind}", face: "{face}"{at_s},\n'
            f'         props: {{"brigade": "{brigade}", "division": "{division}", {faces}{extra}}}),')


UNITS = [
    # Union: Crittenden's XXI Corps, Palmer's and Van Cleve's divisions.
    unit("hazen1", "Hazen", "union", "infantry", "0304", "Hazen", "PA", '[6, "", 3]', '[3, "", 2]'),
    unit("hazen2", "Hazen", "union", "infantry", "0305", "Hazen", "PA", '[5, "", 3]', '[3, "", 2]'),
    unit("cruft1", "Cruft", "union", "infantry", "0307", "Cruft", "PA", '[7, "", 3]', '[4, "", 2]'),
    unit("cruft2", "Cruft", "union", "infantry", "0308", "Cruft", "PA", '[4, "", 3]', '[2, "", 2]'),
    unit("pa_art", "F, 1 OH", "union", "artillery", "0205", "Palmer Artillery", "PA", '[4, "R", 3]', '[2, "R", 2]'),
    unit("beatty1", "S. Beatty", "union", "infantry", "0302", "S. Beatty", "VC", '[7, "", 3]', '[4, "", 2]'),
    unit("beatty2", "S. Beatty", "union", "infantry", "0202", "S. Beatty", "VC", '[4, "", 3]', '[2, "", 2]'),
    unit("vc_art", "7 IN", "union", "artillery", "0203", "Van Cleve Artillery", "VC", '[4, "S", 3]', '[2, "S", 2]'),
    # A Reinforcement scheduled for the first turn (I-10), waiting off the map at 0105.
    unit("dick1", "Dick", "union", "infantry", None, "Dick", "VC", '[5, "", 3]', '[3, "", 2]', entry="0105", arrives=1),
    # Confederates: Buckner's Corps, Stewart's and Preston's divisions, and the corps artillery.
    unit("bate1", "Bate", "confederate", "infantry", "1204", "Bate", "ST", '[6, "", 4]', '[4, "", 3]'),
    unit("bate2", "Bate", "confederate", "infantry", "1205", "Bate", "ST", '[5, "", 3]', '[3, "", 2]'),
    unit("brown1", "Brown", "confederate", "infantry", "1207", "Brown", "ST", '[7, "", 3]', '[4, "", 2]'),
    unit("brown2", "Brown", "confederate", "infantry", "1208", "Brown", "ST", '[4, "", 3]', '[2, "", 2]'),
    unit("st_art", "Dawson", "confederate", "artillery", "1306", "Stewart Artillery", "ST", '[4, "S", 3]', '[2, "S", 2]'),
    unit("gracie1", "Gracie", "confederate", "infantry", "1202", "Gracie", "PR", '[8, "", 3]', '[4, "", 2]'),
    unit("gracie2", "Gracie", "confederate", "infantry", "1302", "Gracie", "PR", '[5, "", 3]', '[3, "", 2]'),
    unit("pr_art", "Jeffress", "confederate", "artillery", "1303", "Preston Artillery", "PR", '[4, "S", 3]', '[2, "S", 2]'),
    unit("baxter", "Baxter", "confederate", "artillery", "1405", "Buckner Corps Artillery", "", '[4, "R", 3]', '[2, "R", 2]'),
]


def scenario_text():
    text = f'''// The Rock of Chickamauga drill: Crittenden's XXI Corps (Palmer, Van Cleve) against Buckner's
// Corps (Stewart, Preston, and Buckner's Corps Artillery) over a designed ridge and creek, for seven
// turns from 6 pm on the 19th: two day turns, Dusk, Evening, Deep Night, Dawn and 7 am. Its pile
// holds the two Corps Activation Cards twice each, three CIC cards (Rosecrans, Thomas, Bragg), a
// Fog of War and a Friction of War card, and the Event Cards each side chooses from its pool (one
// Key Event a side, two Random Union and three Random Confederate cards; a card set aside buys an
// extra bombardment). It exercises the whole turn (Command Decision with its
// event cards, Preliminary Bombardment, the card draw, activations with every step, held cards,
// Default Events, every family of the Fog of War, CIC actions, General Casualties and
// Replacement Generals, and the Overnight Game Turns with Bivouac) before the full scenarios.
// Provenance: designed, every value: the order of battle (the brigades' names are the battle's;
// their counters and SP-CR are not), the leaders' ratings, the positions, the pile and the pools,
// the General Casualty charts, the VP hexes (P-1; the casualty VP are the title's, P-2).
// Written by tools/roc_drill.py.
Scenario(
    name: "Drill: the ridge road (designed)",
    ruleset: "../../rulesets/rock_of_chickamauga",
    map: "maps/drill.ron",
    first_turn: 1,
    last_turn: 7,
    units: [
{chr(10).join(UNITS)}
    ],
    data: {{
        "corps": {{
            "Crittenden": {{"side": "union", "card": "Crittenden (XXI Corps)", "table": "corps_crittenden", "divisions": ["PA", "VC"], "artillery": (),
                            "wing": (), "replacement": {{"card": "Crittenden Replacement", "table": "replacement_crittenden"}}}},
            "Buckner": {{"side": "confederate", "card": "Buckner", "table": "corps_buckner", "divisions": ["ST", "PR"], "artillery": "Buckner Corps Artillery",
                         "wing": "Left Wing", "replacement": {{"card": "Buckner Replacement", "table": "replacement_buckner"}}}},
        }},
        "divisions": {{
            "PA": {{"name": "Palmer", "table": "division_palmer", "rating": "good"}},
            "VC": {{"name": "Van Cleve", "table": "division_van_cleve", "rating": "poor"}},
            "ST": {{"name": "Stewart", "table": "division_stewart", "rating": "good"}},
            "PR": {{"name": "Preston", "table": "division_preston", "rating": "average"}},
        }},
        "pile": ["Crittenden", "Buckner", "Crittenden", "Buckner", "Rosecrans", "Thomas (CIC)", "Bragg", "Fog of War", "Friction of War"],
        "event_pool": {{
            "union": ["The Colonel is Down! (U)", "Good Ground", "Casey's Tactics", "Rock of Chickamauga", "Hot Headed Rebels", "Rally 'round the Flag!"],
            "confederate": ["Rebel Yell!", "Rebel Yell!", "The Colonel is Down! (C)", "On to Tennessee!", "March to the Sound of the Guns",
                            "Bushwhacked", "Hardee Tactics", "Low Ammo"],
        }},
        "key_events": {{"union": 1, "confederate": 1}},
        "random_events": {{"union": 2, "confederate": 3}},
        "general_casualty": {{
            "corps": {{"11": "Crittenden", "22": "Crittenden", "45": "Buckner", "63": "Buckner"}},
            "division": {{"12": "PA", "24": "VC", "33": "VC", "41": "ST", "55": "PR", "66": "PR"}},
        }},
        "start": {{"day": 19, "hour": 18}},
        "vp_hexes": {{"0705": 3, "0508": 2, "0903": 2}},
    }},
)
'''
    return text


def outputs():
    return {MAP: map_text(), SCENARIO: scenario_text()}


def check():
    """The drill is designed throughout: no pins of its own, only the written files to compare."""
    return []


if __name__ == "__main__":
    generated.main(outputs, check, "tools/roc_drill.py")
