#!/usr/bin/env bash
# Seeds fuzz/corpus/TARGET from the repository's sample data (and ../shared/bench-data when
# present). Run from anywhere; needs the workspace to build (bakes the .nav seeds).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="$root/fuzz/corpus"
bench="$root/../shared/bench-data"
mkdir -p "$corpus"/{load,bake,importers,query}
cd "$root"
cargo build -q --release -p trinav-cli
trinav="$root/target/release/trinav"
for level in data/levels/*.json; do
    name="$(basename "$level" .json)"
    "$trinav" bake "$level" -o "$corpus/load/$name.nav" >/dev/null
    "$trinav" bake "$level" -o "$corpus/load/$name-ear.nav" --triangulation ear-clipping >/dev/null
    cp "$level" "$corpus/bake/"
done
for f in data/maps/tiny.map data/meshes/tiny.mesh data/meshes/tiny.poly; do
    "$trinav" bake "$f" -o "$corpus/load/$(basename "$f").nav" >/dev/null
done
cp data/maps/tiny.map data/maps/tiny.map.scen data/meshes/tiny.mesh data/meshes/tiny.mesh.scen \
    data/meshes/tiny.poly "$corpus/importers/"
printf '4 3\n0 0 1 0\n0 1 1 0\n0 0 0 0\n' > "$corpus/importers/maze.txt"
if [ -d "$bench" ]; then
    cp "$bench/movingai/arena.map" "$corpus/importers/arena.map"
    cp "$bench/mazes/custom_maze14x11/maze.txt" "$corpus/importers/maze14x11.txt"
    cp "$bench/mazes/custom_maze14x11/0-0_11-11.problem" "$corpus/importers/"
fi
chmod -R u+w "$corpus"
# query: structured input (arbitrary); libFuzzer starts it from nothing.
echo "seeded: $(find "$corpus" -type f | wc -l) files"
