#!/usr/bin/env python3
"""What a point of a side's strength is worth in victory points, fitted to bot games.

    cargo run --release -p muster-interpreter --example turn_scores -- SCENARIO 400 strength_kept > scores.csv
    python3 tools/fit_sp_value.py scores.csv

For each third of the game apart, fits the winner of each game that had one to the victory
margin and the strength difference at a turn's end (logistic regression, by Newton's method),
and prints the ratio of the strength's weight to the margin's: how many victory points a point
of strength is worth when the search agent weighs a position (docs/search.md). Drawn games are
left out.
"""

import csv
import math
import sys


def logistic_fit(xs, ys, steps=30):
    """The weights w (bias first) of P(y = 1) = 1 / (1 + exp(-w.x)), x with a leading 1."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(steps):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in zip(xs, ys):
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x))))))
            for i in range(k):
                grad[i] += (y - p) * x[i]
                for j in range(k):
                    hess[i][j] += p * (1.0 - p) * x[i] * x[j]
        step = solve(hess, grad)
        w = [a + b for a, b in zip(w, step)]
    return w


def solve(a, b):
    """x with a x = b (Gaussian elimination with partial pivoting; a is small and well posed)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        if abs(m[c][c]) < 1e-12:
            raise SystemExit("the fit is singular: too few games, or a column that never changes")
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def main(path):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = list(reader)
    first = header[2].removesuffix("_vp")
    turns = max(int(r[1]) for r in rows)
    decided = [r for r in rows if r[6] != "draw"]
    print(f"{path}: {len({r[0] for r in rows})} games, {turns} turns scored, "
          f"{len({r[0] for r in decided})} with a winner")
    for third in range(3):
        low, high = third * turns // 3 + 1, (third + 1) * turns // 3
        part = [r for r in decided if low <= int(r[1]) <= high]
        if not part:
            continue
        xs = [[1.0, float(r[2]) - float(r[4]), float(r[3]) - float(r[5])] for r in part]
        ys = [1.0 if r[6] == first else 0.0 for r in part]
        _, margin, strength = logistic_fit(xs, ys)
        print(f"  turns {low}-{high}: margin weight {margin:.3f}, strength weight {strength:.3f}, "
              f"a point of strength is worth {strength / margin:.2f} victory points")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
