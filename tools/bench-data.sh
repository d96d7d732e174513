#!/usr/bin/env bash
# Bakes every map and mesh of ../shared/bench-data and runs its scenarios with `trinav bench`
# in both path modes, printing the README's table (markdown). Usage: tools/bench-data.sh [BENCH_DATA_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/bench-data}
cargo build --release --locked -q -p trinav-cli
trinav=target/release/trinav
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

row() { # name input scenario
  local name=$1 input=$2 scen=$3
  "$trinav" bake "$input" -o "$out/m.nav" --json > "$out/bake.json"
  "$trinav" bench "$out/m.nav" --scen "$scen" --json > "$out/bench.json"
  "$trinav" bench "$out/m.nav" --scen "$scen" --mode optimal --json > "$out/optimal.json"
  python3 - "$name" "$out/bake.json" "$out/bench.json" "$out/optimal.json" <<'PY'
import json, sys
name = sys.argv[1]
bake, bench, optimal = (json.load(open(path)) for path in sys.argv[2:5])
f = lambda v, d: "-" if v is None else f"{v:.{d}f}"
print(f"| {name} | {bake['bake_ms']:.1f} | {bake['triangles']} | {bench['queries']} | {bench['found']} | "
      f"{bench['p50_us']:.1f} | {f(bench['ratio_mean'], 4)} | {f(bench['ratio_max'], 4)} | {bench['shorter_than_reference']} | "
      f"{optimal['found']} | {optimal['p50_us']:.1f} | {f(optimal['ratio_mean'], 4)} | {f(optimal['ratio_max'], 4)} |")
PY
}

echo "| input (scenario) | bake ms | triangles | queries | fast found | fast p50 µs | fast mean ratio | fast max ratio | fast shorter (>1e-6) | optimal found | optimal p50 µs | optimal mean ratio | optimal max ratio |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for map in arena den011d lak303d AR0304SR maze512-32-0 random512-10-0 8room_000; do
  row "movingai/$map.map ($map.map.scen)" "$data/movingai/$map.map" "$data/movingai/$map.map.scen"
done
row "movingai/arena.map (arena.map.exact.scen)" "$data/movingai/arena.map" "$data/movingai/arena.map.exact.scen"
row "polyanya/arena.mesh (arena.scen)" "$data/polyanya/arena.mesh" "$data/polyanya/arena.scen"
row "polyanya/arena-merged.mesh (arena.scen)" "$data/polyanya/arena-merged.mesh" "$data/polyanya/arena.scen"
row "iron-harvest/scene_mp_2p_01.mesh (.mesh.scen, exact)" "$data/iron-harvest/scene_mp_2p_01.mesh" \
  "$data/iron-harvest/scene_mp_2p_01.mesh.scen"
for maze in "$data"/mazes/*/; do
  name=$(basename "$maze")
  row "mazes/$name (.problem files, exact)" "$maze/maze.txt" "$maze"
done
