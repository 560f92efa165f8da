#!/usr/bin/env python3
"""The Rock of Chickamauga (ROC): the game maps, built round every hex fact the rulebook pins.

Writes scenarios/rock_of_chickamauga/maps/chickamauga.ron (the North and South sheets as one map),
scenarios/rock_of_chickamauga/maps/centre.ron (the centre map), the map-only scenarios that
`muster los` and `muster render` read, and tests/rock_of_chickamauga/game_map_los.txt (the LOS
facts on the game map, which tests/rock_of_chickamauga_los.rs runs). The facts are those of
tools/roc_data.py (FACTS, LOS, LOS_EXTRA), read from there, not copied.

THE LAYOUT. The rulebook's ids are CCRR, flat-top, odd columns half a hex lower (worked-examples
1.1.1). Its own directions turn that grid a quarter: north is toward lower CC and west toward
higher RR (King goes "north" from 3622 to 3121, Cleburne "northeastward" to the 32xx/33xx hexrows,
the Rebels face the 3319/3220 logworks and Turchin's 3620 from lower RR, Beatty falls back to
higher RR; the Union Skedaddles of CX-24 fit H-12f only so). So the printed sheets have east at
the top, and the North sheet lies north of the South sheet along CC. Turned north up, CC counts
rows from the north and RR counts columns from the east: a pointy-top grid, ids RRCC in the
engine's terms (order: RowColumn, columns: RightToLeft), odd rows half a hex west (shifted: Even).
Geometry is unchanged by the turn: every adjacency, distance and LOS trace of the flat-top test
maps holds here. Both sheets keep odd CC low, and 39 is odd: two such sheets can only join if
they overlap by one hex row, so the South sheet's row S01 is the North sheet's N39 (either id
names the hex; it prints as N39xx), and S02 follows N39.

Run from the repository root:

    python3 tools/roc_map.py                 # writes the files (deterministic, byte for byte)
    python3 tools/roc_map.py --check         # the files are what this writes; every pinned fact
                                             # holds on the game map (terrain, levels, hexsides,
                                             # movement costs through roc_data.check_group)
    python3 tools/roc_map.py --check --muster target/release/muster
                                             # ... and every LOS fact by `muster los`: the
                                             # printed verdict, and the same reasons in the same
                                             # hexes as on its test map
"""
import functools
import math
import subprocess
import sys
from pathlib import Path

import roc_data as rd

OUT = Path("scenarios/rock_of_chickamauga")
LOS_LIST = Path("tests/rock_of_chickamauga/game_map_los.txt")
GEN = "// Written by tools/roc_map.py; edit the generator, not this file."

# ------------------------------------------------------------------ geometry
# A hex is a global key "GGRR": GG the row from the north (N01-N39 are 1-39, S02-S39 are 40-77),
# RR the printed RR (1 on the east edge, 30 on the west). roc_data's odd-q arithmetic works on
# these keys unchanged (the S sheet is offset by 38, an even number, so parity is kept).
ROWS, COLS, S_OFF = 77, 30, 38
CENTRE = (21, 59)   # the centre map: global rows 21-59 (an even offset keeps odd rows low)


def key(g, r):
    return f"{g:02d}{r:02d}"


def gr(k):
    return int(k[:2]), int(k[2:])


def show(k):
    """The printed id of a global key."""
    g, r = gr(k)
    return f"N{g:02d}{r:02d}" if g <= 39 else f"S{g - S_OFF:02d}{r:02d}"


def glob(hid):
    """The global key of a printed N.... or S.... id."""
    g, r = int(hid[1:3]), int(hid[3:])
    return key(g + (S_OFF if hid[0] == "S" else 0), r)


HEXES = [key(g, r) for g in range(1, ROWS + 1) for r in range(1, COLS + 1)]
ON = set(HEXES)


def neighbours(k):
    g, r = gr(k)
    lo = r if g % 2 else r - 1          # odd rows: neighbours in g +- 1 are RR r and r + 1
    near = [(g - 1, lo), (g - 1, lo + 1), (g + 1, lo), (g + 1, lo + 1), (g, r - 1), (g, r + 1)]
    return [key(a, b) for a, b in near if 1 <= a <= ROWS and 1 <= b <= COLS]


def xy(k):
    """Hex centre in hex widths: x east, y south (odd rows half a hex west)."""
    g, r = gr(k)
    return (COLS + 1 - r) - (0.5 if g % 2 else 0.0), g * math.sqrt(3) / 2


def hexline(a, b):
    """The hexes of a straight line a -> b (both included), each next to the last."""
    def cube(k):
        q, rr = rd.axial(k)
        return q, -q - rr, rr
    (x1, y1, z1), (x2, y2, z2) = cube(a), cube(b)
    n = rd.distance(a, b)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0
        x, y, z = (x1 + (x2 - x1) * t + 1e-6, y1 + (y2 - y1) * t + 2e-6, z1 + (z2 - z1) * t - 3e-6)
        rx, ry, rz = round(x), round(y), round(z)
        dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
        if dx > dy and dx > dz:
            rx = -ry - rz
        elif dy > dz:
            ry = -rx - rz
        else:
            rz = -rx - ry
        q, rr = rx, rz
        k = key(q, rr + (q - (q & 1)) // 2)
        if not out or out[-1] != k:
            out.append(k)
    return out


def route(*points):
    """A chain of hexes through waypoints ((g, r) pairs or global keys)."""
    ks = [p if isinstance(p, str) else key(*p) for p in points]
    out = [ks[0]]
    for a, b in zip(ks, ks[1:]):
        out += hexline(a, b)[1:]
    return out


# ------------------------------------------------------------------ the facts on the sheets
# The N-prefixed facts (H-2's LOS examples) lie on the North sheet at their ids. The unprefixed
# facts print no sheet; each example's hexes go where the battle and the other facts put them:
#   South sheet: ROC-MOV-1/2 (King on the Major Road 1921-1221), ROC-AS-1 (Deas against Carlin),
#     ROC-CX-18 (Carlin's 1221/1222) and ROC-FIRE-1/2 (Bate on the ridge 1123/1223 against Wilder
#     and Starkweather), columns 11-19. They cannot be on the North sheet: 1721 is a Clear Major
#     Road hex there and N1721 is Thick Woods (LOS-9). Carlin holds the Union right on the 20th,
#     south of Kelly Field, and Wilder fought at Viniard's: the South sheet, on the LaFayette Road,
#     which runs on in the RR 20-21 line of Grose's road (3520-3120) on the North sheet.
#   North sheet: the Comprehensive Example's Kelly Field hexes (CX-01 to CX-32, columns 26-39:
#     Breckinridge against the Union left, the logworks, Poe Field), ROC-ASLT-1 (3529-3728) and
#     ROC-DF-1 (3717-3917). Nothing conflicts: 3719 (Brown's Full Woods) is N3719, LOS-14's Level 1
#     target, so it is Full Woods one level up. CX-12 calls 3023 the Brock Farm.


def ren_ex(h):
    return key(int(h[:2]) + (S_OFF if int(h[:2]) < 25 else 0), int(h[2:]))


REN = {"north": glob, "examples": ren_ex}


def los_lines(group):
    """The LOS facts' lines of a group, as game-map key pairs."""
    lines = [(f[2], f[3]) for f in rd.LOS if f[1] == group]
    lines += [(a, b) for n, (a, b, _) in rd.LOS_SECOND.items() if rd.LOS[n - 1][1] == group]
    if group == "examples":
        lines += [(a, b) for a, b, _, _ in rd.LOS_EXTRA]
    return [(REN[group](a), REN[group](b)) for a, b in lines]


def corners(k):
    x, y = xy(k)
    s = 1 / math.sqrt(3)
    return [(x + s * math.cos(math.radians(a)), y + s * math.sin(math.radians(a))) for a in range(30, 390, 60)]


def crossed(a, b):
    """The hexes a straight line a-b touches (its ends included)."""
    def cross(o, p, q):
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])

    def meets(p1, p2, q1, q2):
        d1, d2 = cross(q1, q2, p1), cross(q1, q2, p2)
        d3, d4 = cross(p1, p2, q1), cross(p1, p2, q2)
        return d1 * d2 <= 1e-12 and d3 * d4 <= 1e-12
    p1, p2 = xy(a), xy(b)
    (ga, ra), (gb, rb) = gr(a), gr(b)
    out = set()
    for k in HEXES:
        g, r = gr(k)
        if not (min(ga, gb) - 1 <= g <= max(ga, gb) + 1 and min(ra, rb) - 1 <= r <= max(ra, rb) + 1):
            continue
        c = corners(k)
        if k in (a, b) or any(meets(p1, p2, c[i], c[(i + 1) % 6]) for i in range(6)):
            out.add(k)
    return out


def placed(group):
    """The test map's terrain and level of every hex a group's facts use, as game-map keys: the
    pinned hexes, the paths' hexes, and the hexes a LOS fact's line touches among those the test
    map keeps Clear for it (roc_data.protected); with the hexes that are pinned."""
    terrain, level, _ = rd.build(group)
    ren = REN[group]
    prot = {ren(h): h for h in rd.protected(group)}
    use = {ren(h) for h in rd.FACTS[group]["hexes"]}
    use |= {ren(h) for _, path, _ in rd.FACTS[group]["paths"] for h in path}
    for a, b in los_lines(group):
        use |= crossed(a, b) & set(prot)
    return ({k: terrain[prot[k]] for k in use}, {k: level[prot[k]] for k in use},
            {ren(h) for h in rd.FACTS[group]["hexes"]})


def zones():
    """The fact zones: connected sets of fact hexes (both groups), each shifted by one base level
    (LOS and costs read relative levels only)."""
    terrain, level, pinned = {}, {}, set()
    for group in rd.FACTS:    # a hex of both groups (3719) takes what each group pins
        t, lv, p = placed(group)
        facts = {REN[group](h): f for h, f in rd.FACTS[group]["hexes"].items()}
        for k in t:
            if k not in terrain or "terrain" in facts.get(k, {}):
                terrain[k] = t[k]
            if k not in level or "elevation" in facts.get(k, {}):
                level[k] = lv[k]
        pinned |= p
    todo, comps = set(level), []
    while todo:
        comp, stack = set(), [todo.pop()]
        while stack:
            k = stack.pop()
            comp.add(k)
            for n in neighbours(k):
                if n in todo:
                    todo.remove(n)
                    stack.append(n)
        comps.append(comp)
    return terrain, level, pinned, sorted(comps, key=min)



# ------------------------------------------------------------------ the guide: The Last Victory
# scenarios/last_victory/maps/chickamauga.ron is the same ground at about 440 yards a hex
# (flat-top, even columns low; its terrain is published, 1975 charts, as transcribed by the VALOR
# engine project, /work/shared/reference/bluegray-chickamauga). Its woods, clearings and rough
# ground are read at each ROC hex's place: Kelly Field (ROC N3121) on LV 1117/1217, which puts
# Lee and Gordon's Mill on LV 1127 and the creek's Reed's and Alexander's Bridges at RR 1 and 6.
LV_MAP = Path("scenarios/last_victory/maps/chickamauga.ron")
LV_HEX = 440.0                      # yards (ROC: 200)
LV_SHIFT = (2481.0, 2331.0)         # yards: LV position minus ROC position


def lv_terrain():
    import re
    rows = re.findall(r'^\s*"([^"]*)",\s*// row (\d+)', LV_MAP.read_text(), re.M)
    return {(c + 1, int(n)): code for row, n in rows for c, code in enumerate(row.split())}


def lv_at(k, lv):
    x, y = xy(k)
    x, y = x * 200 + LV_SHIFT[0], y * 200 + LV_SHIFT[1]
    c = round(x / (LV_HEX * math.sqrt(3) / 2))
    return lv.get((c, round(y / LV_HEX - (0.5 if c % 2 == 0 else 0))))


def _hash(g, r):
    h = (g * 92821 + r * 68917 + g * r * 31) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    return (h ^ (h >> 16)) % 1000


def _noise():
    """A number 0-99 per hex, smoothed over its neighbours so that woods come in patches, ranked
    so that each value is about as common as another."""
    raw = {k: _hash(*gr(k)) for k in HEXES}
    smooth = {k: raw[k] + sum(raw[n] for n in neighbours(k)) / 2 for k in HEXES}
    order = sorted(HEXES, key=lambda k: (smooth[k], k))
    return {k: i * 100 // len(order) for i, k in enumerate(order)}


NOISE = _noise()


def noise(k):
    return NOISE[k]


# ------------------------------------------------------------------ the design (after the battlefield)
# West Chickamauga Creek, as (row, RR) points from the south edge to the east edge: up from the
# south past Glass Mill, Lee and Gordon's Mill where the LaFayette Road crosses, north-east by
# Thedford's and Dalton's Fords to Alexander's Bridge, then north close to the east edge past
# Byram's Ford and Reed's Bridge (LV's course, moved a hex or two where the facts need room).
CREEK = [(79, 25.0), (72, 24.6), (66, 24.2), (62, 23.6), (59.6, 22.4), (58.5, 21.3), (57.3, 19.6),
         (56.4, 16.5), (55.6, 13.5), (55.4, 10.6), (54.2, 8.6), (53.0, 6.6), (51.3, 7.0),
         (49.8, 8.8), (47.6, 9.6), (45.6, 9.2), (44.2, 8.0), (43.2, 6.2), (42.0, 4.0),
         (39.5, 2.4), (36.0, 2.3), (33.0, 1.8), (30.0, 2.5), (28.0, 1.6), (25.0, 1.6),
         (22.0, 2.8), (20.0, 2.1), (18.0, 1.5), (16.5, 0.4), (15.0, -1.5)]
EAST_BANK = CREEK + [(15.0, -3.0), (80.0, -3.0), (80.0, 25.0)]

# Heights: (name, ridge line of (row, RR) points, top level, hex widths a level down the side).
HILLS = [
    ("Snodgrass Hill and Horseshoe Ridge", [(29.5, 26.5), (31.0, 27.6), (32.2, 28.6), (33.4, 29.4)], 5, 1.3),
    ("Missionary Ridge's foot", [(0.0, 29.6), (12.0, 30.2), (25.0, 30.6)], 4, 1.2),
    ("the heights west of the LaFayette Road by Cloud Church", [(8.0, 26.0), (14.0, 27.0), (22.0, 27.5)], 4, 1.6),
    ("the heights west of Dyer Field", [(41.0, 29.5), (45.0, 30.5)], 4, 1.2),
    ("Lytle Hill", [(49.5, 27.0)], 4, 1.1),
    ("the ridge west of Viniard's", [(50.0, 24.5), (53.5, 26.0)], 3, 1.5),
    ("the heights above Crawfish Springs", [(64.0, 30.5), (73.0, 29.5)], 4, 1.5),
    ("Pigeon Mountain's foothills, east of the creek", [(68.0, 2.0), (77.0, 5.0)], 3, 2.0),
    ("the rise east of the LaFayette Road by Winfrey Field", [(29.0, 14.0), (31.0, 16.5)], 3, 1.4),
    ("the rise south of Jay's Mill", [(23.0, 11.0), (25.0, 13.0)], 3, 1.4),
    ("the high ground east of Brotherton's", [(42.0, 16.0), (45.0, 17.0)], 3, 1.4),
    ("the rise west of Dyer Field", [(37.5, 26.0)], 3, 1.0),
]

# Places (row, RR); published: the Brock Farm (CX-12: "the Brock Farm 3023"); the rest designed
# after the battlefield. `field`: the Clear hexes round the farmstead (which is a Farm hex).
PLACES = [
    ("Brock Farm", ren_ex("3023"), 1),
    ("Kelly Field", (31, 21), 1),
    ("McDonald Farm", (26, 21), 2),
    ("Strange Farm", (29, 22), 0),
    ("Poe Field", (37, 22), 1),
    ("Brotherton Farm", (40, 22), 1),
    ("Dyer Field", (40, 26), 2),
    ("Snodgrass Hill", (31, 28), 1),
    ("Horseshoe Ridge", (33, 29), -1),
    ("Vittetoe House", (35, 30), 1),
    ("Widow Glenn's", (46, 28), 1),
    ("Viniard Farm", (48, 20), 2),
    ("Lee and Gordon's Mill", (58, 22), 1),
    ("Crawfish Springs", (62, 27), 2),
    ("Glass Mill", (66, 25), 0),
    ("Jay's Mill", (28, 9), 1),
    ("Winfrey Field", (33, 15), 1),
    ("Cloud Church", (19, 20), 1),
]
VP = ["Kelly Field", "McDonald Farm", "Snodgrass Hill", "Poe Field", "Brotherton Farm", "Dyer Field",
      "Widow Glenn's", "Viniard Farm", "Lee and Gordon's Mill", "Crawfish Springs", "Jay's Mill"]


def pinned_path(i):
    """The i-th path of the unprefixed facts, on the game map."""
    feature, hexes, _ = rd.FACTS["examples"]["paths"][i]
    return feature, [ren_ex(h) for h in hexes]


# Roads: (name, feature, chain). The pinned chains are roc_data's (MOV-1's Major Road and MOV-2's
# Lane, CX-12's road to the Brock Farm, CX-06's road from 2916 to 2720); the rest is designed.
ROADS = [
    ("LaFayette Road", "major_road", route((1, 19), (12, 19), (21, 20), (26, 20), (27, 20))),
    ("LaFayette Road", "major_road", route((27, 20), (31, 20))),
    ("LaFayette Road", "major_road", route((35, 20), (37, 20), (38, 21), (48, 21), (49, 21), (50, 21))),
    ("LaFayette Road", "major_road", route((57, 21), (68, 21), (77, 20))),
    ("LaFayette Road (ROC-MOV-1)",) + pinned_path(0),
    ("the lane west of Viniard's (ROC-MOV-2)",) + pinned_path(1),
    ("LaFayette Road (ROC-CX-12, with the McFarland's Gap Road from 3120)",) + pinned_path(2),
    ("Reed's Bridge Road (ROC-CX-06)",) + pinned_path(3),
    ("McFarland's Gap Road", "major_road", route(ren_ex("3023"), (29, 25), (28, 27), (27, 30))),
    ("Reed's Bridge Road", "major_road", route((29, 16), (29, 12), (28, 6), (28, 1))),
    ("Alexander's Bridge Road", "major_road", route((29, 13), (33, 11), (38, 9), (42, 7), (44, 4), (45, 1))),
    ("Dry Valley Road", "major_road", route((62, 27), (56, 29), (46, 29), (40, 30), (27, 30), (14, 30), (1, 29))),
    ("Brotherton Road", "lane", route((40, 21), (39, 17), (38, 13), (37, 10))),
    ("Viniard-Alexander Road", "lane", route((48, 21), (47, 16), (45, 11), (43, 7))),
    ("Thedford's Ford Road", "lane", route((55, 21), (54, 16), (55, 11), (56, 5), (57, 1))),
    ("Byram's Ford Road", "lane", route((28, 8), (31, 4), (33, 2), (33, 1))),
    ("Glenn-Kelly Road", "lane", route((31, 22), (34, 24), (38, 27), (43, 28), (46, 28))),
    ("Crawfish Springs Road", "lane", route((57, 21), (59, 25), (62, 27), (70, 28), (77, 28))),
    ("Glass Mill Road", "lane", route((66, 27), (66, 21))),
    ("Ringgold Road", "major_road", route((8, 19), (11, 14), (13, 8), (15, 4), (16, 1))),
    ("Jay's Mill Road", "lane", route((28, 9), (24, 7), (20, 6), (14, 6))),
]
CROSSINGS = {"LaFayette Road": "Lee and Gordon's Mill Bridge", "Reed's Bridge Road": "Reed's Bridge",
             "Alexander's Bridge Road": "Alexander's Bridge", "Thedford's Ford Road": "Thedford's Ford",
             "Byram's Ford Road": "Byram's Ford", "Glass Mill Road": "Glass Mill Ford",
             "Viniard-Alexander Road": "Dalton's Ford", "Crawfish Springs Road": "Crawfish Springs Ford",
             "Ringgold Road": "Ringgold Bridge", "Jay's Mill Road": "Jay's Mill Ford"}
# Dry stream beds (Ditch hexes, I-3e, with the stream drawn through the hexsides between them):
# through the pinned Ditches (2819, 3020, 3023, 3317) and designed elsewhere; a bed skips the
# hexes the facts use.
DITCHES = [route(ren_ex("3023"), (29, 24), (28, 26)), route(ren_ex("3020"), (30, 22), (30, 24)),
           route(ren_ex("2819"), (27, 18), (26, 16)), route(ren_ex("3317"), (33, 15), (34, 12)),
           route((45, 24), (43, 20), (42, 15)), route((20, 14), (22, 8), (22, 4)),
           route((60, 26), (64, 25))]


def inside(pt, poly):
    x, y = pt
    hit = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def spread(start):
    """Hex steps from the nearest of `start`."""
    dist, todo = {k: 0 for k in start}, list(start)
    for k in todo:
        for n in neighbours(k):
            if n not in dist:
                dist[n] = dist[k] + 1
                todo.append(n)
    return dist


def seg_dist(p, a, b):
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = 0 if dx == dy == 0 else max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def fxy(p):
    """A (row, RR) point in the units of xy()."""
    g, r = p
    return COLS + 1 - r - 0.25, g * math.sqrt(3) / 2


@functools.lru_cache(maxsize=None)
def build():
    """The game map: terrain, level, hexsides ("a/b" -> features), paths, places, areas."""
    zt, zl, pinned, comps = zones()
    poly = [fxy(p) for p in EAST_BANK]
    east = {k for k in HEXES if inside(xy(k), poly)}
    creek = {"/".join(sorted((a, b))) for a in HEXES for b in neighbours(a) if (a in east) != (b in east)}
    bottoms = {k for side in creek for k in side.split("/")}
    near = spread(bottoms)
    level = {}
    for k in HEXES:
        lv = 0 if k in bottoms else 1 if near[k] <= 2 else 2
        for _, line, top, fall in HILLS:
            pts = [fxy(p) for p in line]
            d = min(seg_dist(xy(k), a, b) for a, b in zip(pts, pts[1:] or pts))
            lv = max(lv, top - int(d / fall))
        level[k] = lv
    for comp in comps:    # a fact zone stands at its ground's commonest level
        lvs = sorted(level[k] for k in comp)
        base = max(set(lvs), key=lambda v: (lvs.count(v), -v))
        for k in comp:
            level[k] = base + zl[k]
    # terrain
    lv_map = lv_terrain()
    farms, fields = set(), set()
    for name, p, rad in PLACES:
        k = p if isinstance(p, str) else key(*p)
        if rad >= 0:
            farms.add(k)
            fields |= {n for n, d in spread([k]).items() if d <= rad}
    clearing = {k for k in HEXES if lv_at(k, lv_map) == "."}
    road_hexes = {k for _, _, chain in ROADS for k in chain}
    terrain = {}
    for k in HEXES:
        g, r = gr(k)
        n, code = noise(k), lv_at(k, lv_map)
        edge = any(m in clearing for m in neighbours(k))
        if k in farms:
            t = "farm"
        elif k in fields:
            t = "clear"
        elif code == ".":
            t = "farm" if n < 20 else "clear"
        elif code is None and n < 15:          # south of LV's map: designed clearings
            t = "clear"
        elif k in bottoms:
            t = "swamp" if n < 14 and k not in road_hexes else "thick_woods" if n < 55 else "full_woods"
        elif level[k] >= 4 or code == "r":
            t = "partial_woods" if n < 55 else "full_woods"
        elif r < 19 and g < 48:                # the thickets east of the LaFayette Road
            t = "thick_woods" if n < 35 else "full_woods" if n < 80 else "partial_woods"
        else:
            t = "full_woods" if n < 50 else "partial_woods" if n < 85 else "thick_woods"
        if edge and t in ("full_woods", "thick_woods") and n % 2:
            t = "partial_woods"
        terrain[k] = [t]
    for k in zl:          # the facts: pinned terrain; other fact hexes Clear (or Farm)
        terrain[k] = zt[k] if k in pinned else ["farm"] if terrain[k] == ["farm"] else ["clear"]
    # roads, their crossings of the creek, and the stream beds
    paths, sides = [], {s: ["creek"] for s in creek}
    crossings = {}
    for name, feature, chain in ROADS:
        paths.append((feature, chain))
        for a, b in zip(chain, chain[1:]):
            s = "/".join(sorted((a, b)))
            if s in creek:
                kind = "bridge" if feature == "major_road" else "ford"
                sides[s] = ["creek", kind]
                crossings[CROSSINGS.get(name.split(" (")[0], name)] = (a, b) if a not in east else (b, a)
    for chain in DITCHES:    # a stream bed: Ditch hexes a level down, joined through their sides
        bed = {k for k in chain if k not in zl and k not in road_hexes}
        for k in bed:
            terrain[k] = sorted(set(terrain[k]) - {"swamp", "clear"} | {"ditch"})
            level[k] = max(1, level[k] - 1) if level[k] > 0 else 0
        bed |= {k for k in chain if k in pinned and "ditch" in terrain[k]}
        run = []
        for k in chain + [None]:
            if k in bed:
                run.append(k)
                continue
            if len(run) > 1:
                paths.append(("ditch", run))
            run = []
    for a in HEXES:
        for b in neighbours(a):
            d = abs(level[a] - level[b])
            if a < b and d:
                sides.setdefault(f"{a}/{b}", []).append("slope" if d == 1 else "steep_slope")
    places = {name: (p if isinstance(p, str) else key(*p)) for name, p, _ in PLACES}
    for name, (w, e) in crossings.items():
        places[name] = w
    areas = {"vp_hexes": [places[n] for n in VP]}
    for name, (w, e) in sorted(crossings.items()):
        areas[name] = [w, e]
    return dict(terrain=terrain, level=level, sides=sides, paths=paths, places=places,
                areas=areas, east=east, zones=comps, zone_level=zl, pinned=pinned)


def preview(m, what="terrain"):
    ch = {"clear": ".", "farm": "f", "partial_woods": "p", "full_woods": "w", "thick_woods": "t",
          "swamp": "s", "ditch": "d"}
    roads = {k for f, c in m["paths"] if f != "ditch" for k in c}
    for g in range(1, ROWS + 1):
        row = ""
        for r in range(COLS, 0, -1):      # west to east, as drawn
            k = key(g, r)
            c = ch[m["terrain"][k][-1]] if what == "terrain" else str(m["level"][k])
            if k in roads:
                c = "#"
            if what == "creek" and k in m["east"]:
                c = "~"
            row += c
        print(f"{show(key(g, 1))[:3]} " + (" " if g % 2 == 0 else "") + " ".join(row))


# ------------------------------------------------------------------ writing the maps
CODES = rd.CODES + [("td", ["ditch", "thick_woods"]), ("pd", ["ditch", "partial_woods"])]
CODES = [(c, sorted(t)) for c, t in dict(CODES).items()]
CODE_OF = {tuple(t): c for c, t in CODES}
FEATURES = ["slope", "steep_slope", "creek", "ford", "bridge", "major_road", "lane", "ditch"]


def q(s):
    return '"' + s + '"'


def window(m, rows, name_of):
    """The map cut to global rows `rows` (inclusive), its hexes named by `name_of`: paths broken
    where they leave it; the road hexes where a road leaves it become entry areas."""
    lo, hi = rows
    keep = {k for k in HEXES if lo <= gr(k)[0] <= hi}
    paths = []
    for feature, chain in m["paths"]:
        run = []
        for k in chain + [None]:
            if k in keep:
                run.append(k)
            else:
                if len(run) > 1:
                    paths.append((feature, run))
                run = []
    ends = {"union": set(), "confederate": set()}
    for feature, chain in paths:
        if feature == "ditch":
            continue
        for k in (chain[0], chain[-1]):    # a road's end on an edge: where it leaves the map
            g, r = gr(k)
            side = "union" if g == lo or r == COLS else "confederate" if g == hi or r == 1 else None
            if side:
                ends[side].add(k)
    areas = {n: [h for h in hs if h in keep] for n, hs in m["areas"].items()}
    areas = {n: hs for n, hs in areas.items() if len(hs) == len(m["areas"][n]) or n == "vp_hexes"}
    areas["union_entry"] = sorted(ends["union"])
    areas["confederate_entry"] = sorted(ends["confederate"])
    return dict(keep=keep, paths=paths, areas=areas, name=name_of,
                places={n: k for n, k in m["places"].items() if k in keep},
                sides={s: f for s, f in m["sides"].items() if set(s.split("/")) <= keep})


def map_text(m, w, header, title, numbering, row_label):
    name = w["name"]
    lo, hi = min(gr(k)[0] for k in w["keep"]), max(gr(k)[0] for k in w["keep"])
    out = header + [GEN, "Map(", f"    name: {q(title)},", numbering]
    out.append("    terrain_codes: {" + ", ".join(f"{q(c)}: [{', '.join(q(x) for x in t)}]" for c, t in CODES) + "},")
    out.append(f"    features: [{', '.join(q(f) for f in FEATURES)}],")
    for label, cell in (("terrain", lambda k: CODE_OF[tuple(sorted(m["terrain"][k]))]),
                        ("elevation", lambda k: str(m["level"][k]))):
        out.append(f"    {label}: [")
        for g in range(lo, hi + 1):
            row = " ".join(cell(key(g, r)).ljust(2) for r in range(1, COLS + 1)).rstrip()
            out.append(f'        "{row}",  // {row_label(g)}')
        out.append("    ],")
    out.append("    hexsides: [")
    for s in sorted(w["sides"], key=lambda s: s.split("/")):
        a, b = s.split("/")
        out.append(f"        ({q(name(a) + '/' + name(b))}, [{', '.join(q(f) for f in w['sides'][s])}]),")
    out.append("    ],")
    out.append("    paths: [")
    for feature, chain in w["paths"]:
        ids = [q(name(k)) for k in chain]
        lines, cur = [], f"        ({q(feature)}, ["
        for i, h in enumerate(ids):
            piece = h + (", " if i < len(ids) - 1 else "]),")
            if len(cur) + len(piece) > 100:
                lines.append(cur.rstrip())
                cur = "            "
            cur += piece
        out += lines + [cur]
    out.append("    ],")
    out.append("    places: {")
    for n, k in sorted(w["places"].items(), key=lambda x: x[1]):
        out.append(f"        {q(n)}: {q(name(k))},")
    out.append("    },")
    out.append("    areas: {")
    for n, hs in w["areas"].items():
        out.append(f"        {q(n)}: [{', '.join(q(name(k)) for k in hs)}],")
    out.append("    },")
    out.append(")")
    return "\n".join(out) + "\n"


GAME_NUMBERING = (
    '    numbering: (orientation: PointyTop, shifted: Even, order: RowColumn, columns: RightToLeft, digits: 2,\n'
    '                sheets: [(prefix: "N", columns: (1, 30), rows: (1, 39)),\n'
    '                         (prefix: "S", columns: (1, 30), rows: (1, 39), offset: (0, 38))]),')
CENTRE_NUMBERING = (
    '    numbering: (orientation: PointyTop, shifted: Even, order: RowColumn, columns: RightToLeft, digits: 2,\n'
    '                column_range: (1, 30), row_range: (1, 39)),')


def centre_id(k):
    g, r = gr(k)
    return f"{g - CENTRE[0] + 1:02d}{r:02d}"


def scenario_text(mapfile, title, about):
    return rd.map_only_scenario([
        f"// The Rock of Chickamauga: {about}, with no units, for `muster los` and `muster render`.",
        "// Not a scenario of the game. Provenance: designed.",
    ], GEN, q(title), mapfile)


def outputs():
    m = build()
    game = window(m, (1, ROWS), show)
    centre = window(m, CENTRE, centre_id)
    files = {
        OUT / "maps/chickamauga.ron": map_text(
            m, game, game_header(m), "Chickamauga: the North and South sheets", GAME_NUMBERING,
            lambda g: f"N{g:02d}" + (" = S01" if g == 39 else "") if g <= 39 else f"S{g - S_OFF:02d}"),
        OUT / "maps/centre.ron": map_text(
            m, centre, centre_header(), "Chickamauga: the centre map", CENTRE_NUMBERING,
            lambda g: f"row {g - CENTRE[0] + 1:02d} ({show(key(g, 1))[:3]})"),
        OUT / "map_only.ron": scenario_text("chickamauga.ron", "The Rock of Chickamauga: the map alone",
                                            "the game map (North and South sheets)"),
        OUT / "centre_map_only.ron": scenario_text("centre.ron", "The Rock of Chickamauga: the centre map alone",
                                                   "the centre map"),
        LOS_LIST: los_list(),
    }
    return files


NAMES = {"clear": "Clear", "farm": "Farm", "partial_woods": "Partial Woods", "full_woods": "Full Woods",
         "thick_woods": "Thick Woods", "swamp": "Swamp", "ditch": "Ditch"}


def fact_list(m, kind):
    """The pinned hexes of `kind` (published | reconstructed) on the game map, with their sources."""
    out = []
    for group in rd.FACTS:
        for h, f in rd.FACTS[group]["hexes"].items():
            if f["kind"] != kind:
                continue
            k = REN[group](h)
            what = "+".join(NAMES[t] for t in f["terrain"]) + " " if "terrain" in f else ""
            name = show(k) + ("" if group == "north" else f" (printed {h})")
            out.append(f"{name} {what}Level {m['level'][k]} ({f['source'].split(':')[0]})")
    for group in rd.FACTS:
        for side, f in rd.FACTS[group]["hexsides"].items():
            a, b = (show(REN[group](h)) for h in side.split("/"))
            out.append(f"hexside {a}/{b} {'+'.join(f['features'])} ({f['source'].split(':')[0]})")
    return out


def game_header(m):
    base = []
    for comp in m["zones"]:
        k = min(comp)
        base.append(f"{show(k)} and {len(comp) - 1} more: {m['level'][k] - m['zone_level'][k]}")
    w = rd.wrap
    h = ["// The Rock of Chickamauga: the game map, the North and South sheets joined (A-7: \"a North and a",
         "// South map and hex numbers are indicated with an N or S prefix\"). Chickamauga, 18-20 September",
         "// 1863, at 200 yards a hex (A-1): from the LaFayette Road's way north to Rossville down to Glass",
         "// Mill below Lee and Gordon's Mill, and from West Chickamauga Creek (Reed's and Alexander's",
         "// Bridges) in the east to Snodgrass Hill, Horseshoe Ridge and the foot of Missionary Ridge in the",
         "// west. North is up.", "//"]
    h += w("Layout (reconstructed from the text's directions): the rulebook's ids are CCRR, flat-top, odd "
           "columns half a hex lower (worked-examples 1.1.1), and its directions turn that grid a quarter: north "
           "is toward lower CC and west toward higher RR (King goes \"north\" from 3622 to 3121, Cleburne "
           "\"northeastward\" to the 32xx/33xx hexrows, the Rebels face the 3319/3220 logworks and Turchin's 3620 "
           "from lower RR, J. Beatty falls back to higher RR). So the printed sheets have east at the top and the "
           "North sheet lies north of the South sheet along CC. Turned north up, CC numbers rows from the north "
           "and RR columns from the east: pointy-top hexes, ids RRCC in the engine's terms (order: RowColumn, "
           "columns: RightToLeft), odd rows half a hex west (shifted: Even). A turn changes no adjacency, "
           "distance or line of sight. Joining: both sheets keep odd CC low and 39 is odd, so the sheets overlap "
           "by one row (designed): S01 is N39 (either id names the hex, which prints as N39xx) and S02 lies "
           "south of it. Movement, LOS and distances run across the join. 2,310 hexes: N0101-N3930 and "
           "S0201-S3930, 30 a row.")
    h.append("//")
    h += w("The sheets of the unprefixed facts (the Fire, Movement, Attack Support, Assault and Defensive Fire "
           "examples and the Comprehensive Example print no sheet): South: ROC-MOV-1/2 (King on the Major Road "
           "1921-1221), ROC-AS-1 (Deas against Carlin), ROC-CX-18 (Carlin's 1221/1222) and ROC-FIRE-1/2 (Bate on "
           "the ridge at 1123/1223, Wilder, Starkweather): they cannot be on the North sheet, where 1721 would be "
           "N1721, Thick Woods by LOS-9 (a Clear Major Road hex in ROC-MOV-1); Carlin holds the Union right on "
           "the 20th, south of Kelly Field, and Wilder fought at Viniard's; so they are S1120-S1922, on the "
           "LaFayette Road, which runs on from Grose's road (3520-3120) on the North sheet in the same RR 20-21 "
           "line. North: the Comprehensive Example's hexes of Kelly Field (CX-01 to CX-32: Breckinridge against "
           "the Union left, the logworks, Poe Field), ROC-ASLT-1 (3529-3728) and ROC-DF-1 (3717-3917), N2616-N3930: "
           "the north half of the field, the Union left at 9 am on the 20th, and no conflict: 3719 (Brown's Full "
           "Woods, level not given) is N3719 (LOS-14's Level 1 target), so it is Full Woods a level up. The "
           "unprefixed ids could also be the centre map's; Carlin's 1221 cannot share a sheet with the Kelly "
           "Field hexes on the text's compass, so the two-sheet reading is kept.")
    h.append("//")
    h += w("Compass: the test maps (tests/rock_of_chickamauga/maps, tools/roc_data.py) are drawn flat-top with "
           "CC across, so their north is this map's east. The example files that follow H-12f on the test map's "
           "compass would retreat otherwise here: CX-24's J. Beatty from 3119 ties 3220 (south-west) and 3120 "
           "(west), then 3221 (west) and 3320, as printed; CX-05's stack from 2920 goes to 2821 (north-west), not "
           "the printed 2921 (west), as on the test map; CX-10's L.E. Polk goes east toward 3315.")
    h.append("//")
    h.append("// Provenance:")
    h += w("- published (the text names the terrain, the height or the place): " + "; ".join(fact_list(m, "published"))
           + "; the Brock Farm at 3023 (ROC-CX-12).")
    h += w("- reconstructed (chosen so that an example comes out as printed: tools/roc_data.py's FACTS, with "
           "their sources): " + "; ".join(fact_list(m, "reconstructed")) + ". The hexes a LOS fact's line crosses "
           "that no fact names are Clear (or Farm) at their zone's level.")
    h += w("- levels: H-2 reads relative levels only. Each fact zone (the fact hexes joined by adjacency) "
           "keeps its test map's levels raised by one base, the commonest designed level of its ground: "
           + "; ".join(base) + ".")
    for where, cid, text in rd.CONFLICTS:
        h += w(f"- conflict (worked-examples {cid}): {text}")
    for k, (hx, why) in rd.FACTS["examples"]["chosen"].items():
        where = "-".join(show(ren_ex(x)) for x in hx.split("-")) if hx else None
        h += w(f"- not given: {k}: " + (f"{where}, " if where else "") + why + ".")
    h += w("- designed, after the historical battlefield: every other hex's terrain and level, every other "
           "hexside, the roads beyond the pinned stretches, the creek, the stream beds, the places, the VP hexes "
           "and the entry areas. The guide: The Last Victory's map of the same ground (scenarios/last_victory/"
           "maps/chickamauga.ron; its terrain published, 1975 charts, as transcribed by the VALOR engine project), "
           "about 440 yards a hex, read at each hex's place with Kelly Field (N3121) on its 1117/1217: its forest "
           "gives woods, its clear ground Clear or Farm, its rough ground Partial Woods, and its creek's course "
           "(Reed's Bridge, Alexander's Bridge, the fords, Lee and Gordon's Mill on the LaFayette Road) gives "
           "West Chickamauga Creek's, moved a hex or two where the facts need room; south of its map (below S20) "
           "the ground is designed alone. Woods: Thick in the creek bottoms and the thickets east of the "
           "LaFayette Road, Partial on the heights and by the clearings, Full elsewhere, Swamp in some bottoms. "
           "Levels: 0 the creek bottoms (dark green), 1 within two hexes of them, 2 the plain, 3-5 the heights: "
           + ", ".join(n for n, *_ in HILLS) + ". A Slope on every hexside between two levels, a Steep Slope "
           "between levels two or more apart. Roads: " + ", ".join(sorted({n.split(' (')[0] for n, *_ in ROADS}))
           + "; a Bridge where a Major Road crosses the creek, a Ford where a Lane does: "
           + ", ".join(sorted(k for k in m["areas"] if k != "vp_hexes")) + ". "
           "Ditches: dry stream beds (I-3e) through the pinned Ditch hexes and elsewhere, a level below their "
           "ground, the `ditch` hexside feature between two of them (J-8e's connected Ditch). Places: the farms, "
           "mills, fields, fords and bridges of the battle (the Brock Farm's 3023 is printed; the historical "
           "Brock field lies east of the LaFayette Road, the printed 3023 west of it). The VP hexes "
           "(`vp_hexes`, for the scenarios' P-1 awards): " + ", ".join(VP) + ". Each crossing is an area of its "
           "two hexes (P-1: a Bridge is held by the side that last entered both). `union_entry` and "
           "`confederate_entry`: where the roads leave the north and west, and the east and south edges.")
    h += w("- not pinned by the text: the hexes of the VP awards and entries (scenario data), where the "
           "Strange Farm (CX-22: the road from 2916 \"toward the Strange Farm\") and Snodgrass Hill (CX-28) "
           "lie, Mebane's, Cobb's and Cleburne's hexes (CX-06, CX-30), and whether the ridge that Bate holds in "
           "ROC-FIRE-1/2 and the knoll of 2818 are one level or more. The map's west edge is only 11 hexes "
           "west of the LaFayette Road at Kelly Field (CX-12's road is printed at RR 20): Snodgrass Hill and "
           "Horseshoe Ridge stand at the edge and the Dry Valley Road runs along it.")
    return h


def centre_header():
    w = rd.wrap
    lo, hi = CENTRE
    h = ["// The Rock of Chickamauga: the centre map (A-7: \"an additional third map ... which displays the",
         "// relative center of the battlefield\", for scenarios that use it in lieu of both sheets).", "//"]
    h += w(f"Provenance: designed, every value. It is the game map's middle, rows N{lo:02d} to S{hi - S_OFF:02d} "
           f"(McDonald's and Jay's Mill in the north to Lee and Gordon's Mill in the south, the creek to "
           f"Snodgrass Hill), numbered as a sheet of its own: row 01 is N{lo:02d}, row 19 is N39 (S01), row 39 is "
           f"S{hi - S_OFF:02d}; RR as on the game map (01 on the east edge). Its terrain, levels, hexsides, roads, "
           f"places and VP hexes are the game map's there (tools/roc_map.py cuts them from it), so every fact "
           f"the game map keeps holds here, shifted: N3319 is 1319, S1221 is {centre_id(key(50, 21))}. The "
           f"text pins no hex of the centre map. `union_entry` and `confederate_entry`: where the roads leave "
           f"its north and west, and its east and south edges. North is up; pointy-top, odd rows half a hex "
           f"west, as the game map (see its header for the layout).")
    return h


def los_facts():
    """(fact, group, from, to, verdict, blocking hex or "") of every LOS fact, with the test
    maps' ids (worked-examples 1.5; fact 11 needs a unit: its example file has it)."""
    out = []
    for n, group, a, b, want, *_ in rd.LOS:
        if n == 11:
            continue
        word = "blocked" if not want["seen"] else "obscured" if want["obscured"] else "clear"
        out.append((str(n), group, a, b, word, want.get("blocked_by", "")))
        if n in rd.LOS_SECOND:
            a2, b2, _ = rd.LOS_SECOND[n]
            out.append((f"{n} (second)", group, a2, b2, "obscured", ""))
    for a, b, word, src in rd.LOS_EXTRA:
        out.append((src.split(":")[0], "examples", a, b, word, ""))
    return out


HEX_RE = r"[NS]?\d{4}(/[NS]?\d{4})?"


def on_game(group, text):
    """A test map's hex ids in `text` as the game map's, each hexside pair in sorted order."""
    import re
    return re.sub(HEX_RE, lambda m: "/".join(sorted(show(REN[group](h)) for h in m.group(0).split("/"))), text)


def pairs_sorted(text):
    import re
    return re.sub(HEX_RE, lambda m: "/".join(sorted(m.group(0).split("/"))), text)


def los_list():
    lines = ["# The LOS facts of tools/roc_data.py on the game map (scenarios/rock_of_chickamauga/",
             "# maps/chickamauga.ron), for tests/rock_of_chickamauga_los.rs: fact, from, to, verdict,",
             "# blocking hex or hexside (- for none). Written by tools/roc_map.py."]
    for n, group, a, b, word, at in los_facts():
        lines.append("\t".join([n, show(REN[group](a)), show(REN[group](b)), word,
                                on_game(group, at) if at else "-"]))
    return "\n".join(lines) + "\n"


TEST_SCENARIO = {"north": "tests/rock_of_chickamauga/north_los.ron", "examples": "tests/rock_of_chickamauga/examples.ron"}


def muster_los(muster, scenario, a, b):
    out = subprocess.run([muster, "los", scenario, a, b], capture_output=True, text=True)
    return out.stdout.strip() or out.stderr.strip()


def check_los(muster):
    """Each LOS fact through `muster los`: the printed verdict and blocking hex on the game map,
    and the same verdict, reasons and hexes as on its test map."""
    problems = []
    for n, group, a, b, word, at in los_facts():
        ga, gb = show(REN[group](a)), show(REN[group](b))
        text = pairs_sorted(muster_los(muster, str(OUT / "map_only.ron"), ga, gb))
        test = on_game(group, muster_los(muster, TEST_SCENARIO[group], a, b))
        verdict = text.replace(":", " ").split(" ")[0]
        place = text.split(" ")[2] if text.startswith("blocked by ") else ""
        if verdict != word or (at and place != on_game(group, at)):
            problems.append(f"LOS fact {n}: {ga} -> {gb}: expected {word} {at}, muster says `{text}`")
        if text != test:
            problems.append(f"LOS fact {n}: {ga} -> {gb} is `{text}` on the game map, `{test}` on the test map")
    return problems


def main():
    if "--check" in sys.argv[1:]:
        sys.exit(check())
    for path, text in outputs().items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def check():
    problems = []
    for path, text in outputs().items():
        if not path.exists() or path.read_text() != text:
            problems.append(f"{path} is not what the generator writes (run python3 tools/roc_map.py)")
    m = build()
    conn = rd.connections([(f, c) for f, c in m["paths"] if f != "ditch"])
    for group in rd.FACTS:
        g, ren = rd.FACTS[group], REN[group]
        problems += rd.check_group(group, m["terrain"], m["level"], m["sides"], conn, ren)
        for h, f in g["hexes"].items():
            if "terrain" in f and sorted(m["terrain"][ren(h)]) != sorted(f["terrain"]):
                problems.append(f"{group}: {h} is {m['terrain'][ren(h)]}, pinned {f['terrain']} ({f['source']})")
        for side, f in g["hexsides"].items():
            got = m["sides"].get("/".join(sorted(ren(h) for h in side.split("/"))), [])
            if not set(f["features"]) <= set(got):
                problems.append(f"{group}: hexside {side} has {got}, pinned {f['features']} ({f['source']})")
    for comp in m["zones"]:    # a zone's levels are the test map's, all shifted alike
        shifts = {m["level"][k] - m["zone_level"][k] for k in comp}
        if len(shifts) != 1:
            problems.append(f"the fact zone at {show(min(comp))} is shifted by {sorted(shifts)}")
    # ROC-CX-17: King starts next to 3622 (not given) and enters it for 2 MP
    start = [n for n in neighbours(ren_ex("3622")) if n not in (ren_ex("3522"),) and
             rd.step_cost(m["terrain"], m["level"], m["sides"], conn, n, ren_ex("3622"), "terrain") == 2]
    if not start:
        problems.append("ROC-CX-17: no hex next to 3622 enters it for 2 MP")
    for feature, chain in m["paths"]:
        for a, b in zip(chain, chain[1:]):
            if b not in neighbours(a):
                problems.append(f"{feature} {show(a)}-{show(b)} not adjacent")
            side = m["sides"].get("/".join(sorted((a, b))), [])
            if feature != "ditch" and "creek" in side and not {"ford", "bridge"} & set(side):
                problems.append(f"{feature} crosses the creek at {show(a)}/{show(b)} with no Ford or Bridge")
    def network(start, chains):
        links = rd.connections([("road", c) for c in chains])
        net, todo = set(), [start]
        while todo:
            k = todo.pop()
            if k not in net:
                net.add(k)
                todo += [n for n in neighbours(k) if frozenset((k, n)) in links]
        return net
    roads = [c for f, c in m["paths"] if f != "ditch"]    # one road network
    every = network(roads[0][0], roads)
    for chain in roads:
        if chain[0] not in every:
            problems.append(f"the road through {show(chain[0])} is not joined to the others")
    lafayette = [c for n, _, c in ROADS if n.startswith("LaFayette Road")]
    if glob("S3920") not in network(glob("N0119"), lafayette):
        problems.append("the LaFayette Road does not run from N0119 to S3920")
    if "--muster" in sys.argv:
        problems += check_los(sys.argv[sys.argv.index("--muster") + 1])
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    main()
