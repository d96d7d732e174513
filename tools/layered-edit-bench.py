#!/usr/bin/env python3
# The layered-edit bench inputs (README, "Obstacles on layered meshes"), into the current folder:
# layered.json (two 100 x 100 rooms side by side, "west" and "east", 600 seeded random boxes
# each, joined by a portal on x = 100 from y = 10 to 90), flat.json (the same boxes in one
# 200 x 100 room), and 200 seeded changes for each (adds of 0.5-3-unit boxes, a tenth of them
# across the portal line, and moves): changes-layered.json (each add names its layer) and
# changes-flat.json. Usage: python3 tools/layered-edit-bench.py; then
#   trinav bake layered.json -o layered.nav && trinav bake flat.json -o flat.nav
#   trinav edit layered.nav --changes changes-layered.json -o out.nav --json
import json, random
random.seed(9)
def rects(x0, x1, n):
    out = []
    while len(out) < n:
        x = random.uniform(x0 + 1, x1 - 5); y = random.uniform(1, 95)
        w = random.uniform(0.5, 3); h = random.uniform(0.5, 3)
        if any(not (x + w + 0.5 < a or a2 + 0.5 < x or y + h + 0.5 < b or b2 + 0.5 < y) for a, b, a2, b2 in out):
            continue
        out.append((x, y, x + w, y + h))
    return out
west, east = rects(0, 96, 600), rects(104, 200, 600)
poly = lambda r: {"outer": [[r[0], r[1]], [r[2], r[1]], [r[2], r[3]], [r[0], r[3]]]}
layered = {"layers": [
    {"name": "west", "walkable": [{"outer": [[0, 0], [100, 0], [100, 100], [0, 100]]}], "obstacles": [poly(r) for r in west]},
    {"name": "east", "walkable": [{"outer": [[100, 0], [200, 0], [200, 100], [100, 100]]}], "obstacles": [poly(r) for r in east]}],
    "portals": [{"layers": ["west", "east"], "from": [100, 10], "to": [100, 90]}]}
flat = {"walkable": [{"outer": [[0, 0], [200, 0], [200, 100], [0, 100]]}], "obstacles": [poly(r) for r in west + east]}
json.dump(layered, open('layered.json', 'w'))
json.dump(flat, open('flat.json', 'w'))
def changes(with_layers):
    random.seed(11)
    out, n = [], 0
    for _ in range(200):
        r = random.random()
        if n == 0 or r < 0.5:
            side = random.randrange(2)
            x = random.uniform(2, 95) + 100 * side; y = random.uniform(2, 95)
            w = random.uniform(0.5, 3); h = random.uniform(0.5, 3)
            if random.random() < 0.1:
                x = 100 - w / 2
            o = {"outer": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]}
            if with_layers:
                o["layer"] = ["west", "east"][side]
            out.append({"add": o}); n += 1
        else:
            out.append({"move": {"id": random.randrange(n), "by": [random.uniform(-2, 2), random.uniform(-2, 2)]}})
    return out
json.dump(changes(True), open('changes-layered.json', 'w'))
json.dump(changes(False), open('changes-flat.json', 'w'))
