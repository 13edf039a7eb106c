"""Hand experiment (README, "Cube-and-conquer ... and other attempts to reach 50"): add
pairwise distance clauses to a kept tilekit CNF (`solve --certify --proof-dir DIR`) of a 4x4
puzzle with the blank-first goal, for every step t < T:

  -a(i,c,t) v -a(j,e,t)  when d(c, home i) + d(e, home j) [+ 2 for a linear conflict] > T - t
                          or d(start i, c) + d(start j, e) > t   (omitted with "lc")

Valid because each move shifts exactly one tile by one cell; two tiles in their goal row (or
column) in reversed order need two extra moves (one leaves the line and comes back).

usage: pair_clauses.py IN.cnf OUT.cnf T "start tiles row-major" [lc]
"""
import re, sys
src, dst, T = sys.argv[1], sys.argv[2], int(sys.argv[3])
start = [int(x) for x in sys.argv[4].split()]
lc_only = len(sys.argv) > 5 and sys.argv[5] == "lc"
N, C = 16, 4
var = {}
lines = open(src).read().split("\n")
for l in lines:
    m = re.match(r"c var (\d+) a_i(\d+)_c(\d+)_t(\d+)$", l)
    if m:
        v, i, c, t = map(int, m.groups())
        var[(i, c, t)] = v
d = lambda a, b: abs(a // C - b // C) + abs(a % C - b % C)
spos = {t: c for c, t in enumerate(start)}
new = []
for t in range(1, T):
    cells = {}
    for (i, c, tt), v in var.items():
        if tt == t and i != 0:
            cells.setdefault(i, []).append((c, v))
    tiles = sorted(cells)
    for x in range(len(tiles)):
        for y in range(x + 1, len(tiles)):
            i, j = tiles[x], tiles[y]
            for c, vi in cells[i]:
                for e, vj in cells[j]:
                    if c == e:
                        continue
                    need = d(c, i) + d(e, j)
                    # linear conflict: both in their goal row (or column), reversed order
                    if c // C == i // C == e // C == j // C and (c % C - e % C) * (i % C - j % C) < 0:
                        need += 2
                    elif c % C == i % C == e % C == j % C and (c // C - e // C) * (i // C - j // C) < 0:
                        need += 2
                    elif lc_only:
                        need = 0
                    bad = need > T - t
                    if not lc_only:
                        bad = bad or d(spos[i], c) + d(spos[j], e) > t
                    if bad:
                        new.append(f"-{vi} -{vj} 0")
out = []
for l in lines:
    if l.startswith("p cnf"):
        p = l.split()
        l = f"p cnf {p[2]} {int(p[3]) + len(new)}"
    out.append(l)
while out and out[-1] == "":
    out.pop()
open(dst, "w").write("\n".join(out + new) + "\n")
print(len(new), "clauses added")
