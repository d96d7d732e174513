#!/usr/bin/env python3
# The weighted-terrain bench inputs (README, "Terrain: area types and costs"), into the current
# folder: AR0304SR-terrain.map (AR0304SR.map with 60 seeded random rectangles of S, W and T
# painted over its free cells) and its scenario (AR0304SR.map.scen, map column renamed), and
# terrain.scen (1,000 seeded random pairs on data/levels/terrain.json's ground).
# Usage: python3 tools/terrain-bench.py MOVINGAI_DIR   (the folder holding AR0304SR.map{,.scen})
import math, random, sys
rng = random.Random(13)
src = sys.argv[1] + '/AR0304SR.map'
lines = open(src).read().split('\n')
h = int(lines[1].split()[1]); w = int(lines[2].split()[1])
grid = [list(r) for r in lines[4:4 + h]]
for _ in range(60):
    letter = rng.choice('SWT')
    x0, y0 = rng.randrange(w), rng.randrange(h)
    rw, rh = rng.randrange(8, 60), rng.randrange(8, 60)
    for y in range(y0, min(h, y0 + rh)):
        for x in range(x0, min(w, x0 + rw)):
            if grid[y][x] == '.':
                grid[y][x] = letter
open('AR0304SR-terrain.map', 'w').write('\n'.join(lines[:4] + [''.join(r) for r in grid]) + '\n')
out = []
for l in open(src + '.scen').read().split('\n'):
    if l.startswith('version') or not l.strip():
        out.append(l); continue
    f = l.split('\t') if '\t' in l else l.split()
    f[1] = 'AR0304SR-terrain.map'
    out.append('\t'.join(f))
open('AR0304SR-terrain.map.scen', 'w').write('\n'.join(out))
rects = [(10, 50, 22, 62), (30, 8, 44, 18), (88, 54, 104, 66), (96, 10, 110, 20)]
def free():
    while True:
        x, y = rng.uniform(0, 120), rng.uniform(0, 80)
        if not any(a <= x <= c and b <= y <= d for a, b, c, d in rects):
            return x, y
sc = ['version 1']
for _ in range(1000):
    (ax, ay), (bx, by) = free(), free()
    sc.append(f'0\tterrain.json\t120\t80\t{ax}\t{ay}\t{bx}\t{by}\t{math.hypot(ax - bx, ay - by)}')
open('terrain.scen', 'w').write('\n'.join(sc) + '\n')
