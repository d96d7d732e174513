//! Edge adjacency and islands, computed from triangle vertex indices alone.
//!
//! Edge `i` of triangle `t` runs from its vertex `i` to vertex `(i + 1) % 3`; the neighbour
//! across it is stored at `neighbours[t][i]`. Two triangles are adjacent only when they share an
//! edge (the same two vertices, in opposite directions): triangles that merely share a vertex
//! (two obstacles meeting corner to corner) are not connected.

use crate::ids::{IslandId, TriangleId, VertexId};

/// Why adjacency could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TopologyError {
    /// A triangle names a vertex that does not exist.
    #[error("triangle {triangle} names vertex {vertex}, but there are only {vertex_count} vertices")]
    VertexOutOfRange {
        /// The triangle.
        triangle: TriangleId,
        /// The vertex it names.
        vertex: VertexId,
        /// How many vertices there are.
        vertex_count: usize,
    },
    /// Two triangles use the same directed edge: they overlap, or one is flipped.
    #[error(
        "triangles {first} and {second} both use edge {from}->{to} in the same direction (overlapping or flipped triangles)"
    )]
    NonManifoldEdge {
        /// The first triangle using the edge.
        first: TriangleId,
        /// The second triangle using the edge.
        second: TriangleId,
        /// Edge start.
        from: VertexId,
        /// Edge end.
        to: VertexId,
    },
}

/// The neighbour of every triangle across each of its three edges ([`TriangleId::NONE`] on the
/// boundary).
///
/// Runs in `O(T + V)` for `T` triangles and `V` vertices, with no hashing and no sorting: every
/// edge is bucketed under its lower vertex, and within a bucket the edges meeting at the same
/// other vertex are paired through one slot per vertex.
///
/// ```
/// use trinav::build::build_adjacency;
/// use trinav::{TriangleId, VertexId};
/// // Two triangles of the unit square, sharing the diagonal 0-2.
/// let tris = [[0, 1, 2], [0, 2, 3]].map(|t| t.map(VertexId));
/// let adj = build_adjacency(&tris, 4)?;
/// assert_eq!(adj[0], [TriangleId::NONE, TriangleId::NONE, TriangleId(1)]);
/// assert_eq!(adj[1], [TriangleId(0), TriangleId::NONE, TriangleId::NONE]);
/// # Ok::<(), trinav::build::TopologyError>(())
/// ```
pub fn build_adjacency(
    triangles: &[[VertexId; 3]],
    vertex_count: usize,
) -> Result<Vec<[TriangleId; 3]>, TopologyError> {
    for (t, tri) in triangles.iter().enumerate() {
        if let Some(&v) = tri.iter().find(|v| v.index() >= vertex_count) {
            return Err(TopologyError::VertexOutOfRange {
                triangle: TriangleId::from_index(t),
                vertex: v,
                vertex_count,
            });
        }
    }
    // Half edge `h = 3 t + i` is edge `i` of triangle `t`, from `tri[i]` to `tri[(i + 1) % 3]`.
    let ends = |h: usize| {
        let tri = &triangles[h / 3];
        (tri[h % 3], tri[(h + 1) % 3])
    };
    // Bucket every half edge under its lower vertex (compressed rows, ascending half edge ids),
    // as (higher vertex, half edge).
    let mut start = vec![0u32; vertex_count + 1];
    for tri in triangles {
        let [a, b, c] = tri.map(|v| v.index());
        start[a.min(b) + 1] += 1;
        start[b.min(c) + 1] += 1;
        start[c.min(a) + 1] += 1;
    }
    for v in 0..vertex_count {
        start[v + 1] += start[v];
    }
    let mut bucketed = vec![(0u32, 0u32); triangles.len() * 3];
    for (t, tri) in triangles.iter().enumerate() {
        for i in 0..3 {
            let (a, b) = (tri[i].0, tri[(i + 1) % 3].0);
            let slot = &mut start[a.min(b) as usize];
            bucketed[*slot as usize] = (a.max(b), (3 * t + i) as u32);
            *slot += 1;
        }
    }
    // The fill moved each bucket's start to the next one's: shift back.
    start.rotate_right(1);
    start[0] = 0;
    // Within the bucket of `low`, `first[high]` is the first half edge seen between `low` and
    // `high`; the second, running the other way, is its twin; any other is one too many.
    let mut neighbours = vec![[TriangleId::NONE; 3]; triangles.len()];
    let mut first = vec![u32::MAX; vertex_count];
    for low in 0..vertex_count {
        let bucket = &bucketed[start[low] as usize..start[low + 1] as usize];
        for &(high, h) in bucket {
            let h = h as usize;
            let g = std::mem::replace(&mut first[high as usize], h as u32);
            if g == u32::MAX {
                continue;
            }
            first[high as usize] = g; // keep the first one
            let g = g as usize;
            let (from, to) = ends(h);
            if from == to {
                continue; // a degenerate triangle's edge joins nothing (validation refuses it)
            }
            if ends(g).0 != to || !neighbours[g / 3][g % 3].is_none() {
                // The same directed edge twice, or a third edge between the same two vertices.
                let earlier = if ends(g).0 == from { g } else { twin_of(&neighbours, triangles, g) };
                return Err(TopologyError::NonManifoldEdge {
                    first: TriangleId::from_index(earlier / 3),
                    second: TriangleId::from_index(h / 3),
                    from,
                    to,
                });
            }
            neighbours[g / 3][g % 3] = TriangleId::from_index(h / 3);
            neighbours[h / 3][h % 3] = TriangleId::from_index(g / 3);
        }
        for &(high, _) in bucket {
            first[high as usize] = u32::MAX;
        }
    }
    Ok(neighbours)
}

/// The half edge paired with half edge `g` (which has a neighbour): the edge of that neighbour
/// running the other way.
fn twin_of(neighbours: &[[TriangleId; 3]], triangles: &[[VertexId; 3]], g: usize) -> usize {
    let (from, to) = (triangles[g / 3][g % 3], triangles[g / 3][(g + 1) % 3]);
    let n = neighbours[g / 3][g % 3].index();
    let i = (0..3).find(|&i| triangles[n][i] == to && triangles[n][(i + 1) % 3] == from).expect("paired");
    3 * n + i
}

/// The island of every triangle and the number of islands.
///
/// Islands are numbered in order of their lowest triangle id, so the numbering depends only on
/// the mesh, never on traversal details.
pub fn find_islands(neighbours: &[[TriangleId; 3]]) -> (Vec<IslandId>, u32) {
    let mut islands = vec![IslandId::NONE; neighbours.len()];
    let mut count = 0u32;
    let mut stack = Vec::new();
    for seed in 0..neighbours.len() {
        if !islands[seed].is_none() {
            continue;
        }
        let island = IslandId(count);
        count += 1;
        islands[seed] = island;
        stack.push(seed);
        while let Some(t) = stack.pop() {
            for n in neighbours[t] {
                if !n.is_none() && n.index() < neighbours.len() && islands[n.index()].is_none() {
                    islands[n.index()] = island;
                    stack.push(n.index());
                }
            }
        }
    }
    (islands, count)
}

/// Where a triangle stands in the dead-end structure of the mesh (see [`find_pockets`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pocket {
    /// On a cycle of the adjacency graph, or on a chain between two cycles: paths may pass
    /// through.
    Core,
    /// In a pocket, a tree of triangles hanging off the core through a single edge: paths enter
    /// it only to reach a point inside. The triangle one step towards the core.
    Towards(TriangleId),
    /// The last triangle of an island that is all pocket (its adjacency graph is a tree).
    Root,
}

/// The pockets of a mesh: repeatedly removing triangles with at most one remaining neighbour
/// peels every tree of triangles that hangs off the rest through a single edge (dead-end
/// corridors, alcoves, a whole maze without loops). A shortest path never enters such a tree
/// unless its start or goal lies inside, so searches skip them.
pub(crate) fn find_pockets(neighbours: &[[TriangleId; 3]]) -> Vec<Pocket> {
    let n = neighbours.len();
    // Per triangle, its linked neighbours not peeled yet; `PEELED` once it is. One more entry,
    // always `PEELED`, stands for every link out of range (the boundary's among them).
    const PEELED: u8 = u8::MAX;
    let mut degree: Vec<u8> = (neighbours.iter())
        .map(|links| links.iter().map(|u| u8::from(u.index() < n)).sum())
        .chain([PEELED])
        .collect();
    let slot = |u: TriangleId| u.index().min(n);
    let mut pockets = vec![Pocket::Core; n];
    // First in, first out: trees peel from their leaves inwards, level by level. Every
    // triangle enters the queue at most once (when its degree drops to 1, or starts at <= 1),
    // so the queue never holds more than `n`; it is written without branches (whether a
    // triangle enters depends on the mesh, in no order a branch could predict): each
    // candidate is written at the end and kept by moving the end past it.
    let mut queue: Vec<u32> = vec![0; n + 1];
    let mut len = 0;
    for (t, &d) in degree[..n].iter().enumerate() {
        queue[len] = t as u32;
        len += usize::from(d <= 1);
    }
    let mut head = 0;
    while head < len {
        let t = queue[head] as usize;
        head += 1;
        degree[t] = PEELED;
        // The first linked neighbour not peeled, if any (chosen without branches).
        let next = (neighbours[t].into_iter().rev())
            .fold(TriangleId::NONE, |next, u| if degree[slot(u)] != PEELED { u } else { next });
        pockets[t] = if next.is_none() {
            Pocket::Root
        } else {
            let k = next.index();
            // Saturating: with links that are not symmetric (a file still being checked)
            // a degree could reach zero first; each triangle still enters the queue once.
            degree[k] = degree[k].saturating_sub(1);
            queue[len] = k as u32;
            len += usize::from(degree[k] == 1);
            Pocket::Towards(next)
        };
    }
    pockets
}

/// [`find_pockets`] of one island, `nodes` its triangles in ascending order (every neighbour of
/// a node is a node): the same answer the whole-mesh pass gives there, since peeling one island
/// visits its triangles in the same order whatever else the mesh holds.
pub(crate) fn find_pockets_of(neighbours: &[[TriangleId; 3]], nodes: &[TriangleId]) -> Vec<Pocket> {
    let local: foldhash::HashMap<TriangleId, u32> =
        nodes.iter().enumerate().map(|(i, &t)| (t, i as u32)).collect();
    let links: Vec<[TriangleId; 3]> = (nodes.iter())
        .map(|t| neighbours[t.index()].map(|u| local.get(&u).map_or(TriangleId::NONE, |&i| TriangleId(i))))
        .collect();
    (find_pockets(&links).into_iter())
        .map(|p| match p {
            Pocket::Towards(u) => Pocket::Towards(nodes[u.index()]),
            other => other,
        })
        .collect()
}

/// Updates `pockets` after a local change of the mesh: `added` are new triangles (their pocket
/// entries are placeholders), `seeds` the kept triangles that lost a neighbour. Returns one
/// triangle of each island that is now a tree (its pockets depend on the order of the whole
/// island, so the caller recomputes those with [`find_pockets_of`]). Pushes every triangle
/// whose entry it writes onto `written`.
///
/// Only the core (the 2-core of the adjacency graph) and the trees next to the change can
/// differ: a pocket tree that no seed belongs to still hangs off the rest through its one edge,
/// and a core triangle keeps two core neighbours unless peeling from the change reaches it.
/// So the triangles that may be core are the added ones, the old core, and the pocket trees
/// holding a seed; peeling them from the change outwards gives the new core, and each triangle
/// peeled points to its one remaining neighbour, which for an island with a core is the unique
/// way towards it whatever the order.
pub(crate) fn update_pockets(
    neighbours: &[[TriangleId; 3]],
    pockets: &mut [Pocket],
    added: &[TriangleId],
    seeds: &[TriangleId],
    written: &mut Vec<u32>,
) -> Vec<TriangleId> {
    use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
    // `added` is ascending (the patch's slots): searched, not hashed.
    debug_assert!(added.is_sorted());
    let is_added = |t: &TriangleId| added.binary_search(t).is_ok();
    // The pocket trees holding a seed.
    let mut trees: HashSet<TriangleId> = HashSet::with_capacity(2 * seeds.len());
    let mut stack: Vec<TriangleId> = Vec::with_capacity(16);
    for &s in seeds {
        if pockets[s.index()] != Pocket::Core && !is_added(&s) && trees.insert(s) {
            stack.push(s);
        }
        while let Some(t) = stack.pop() {
            for u in neighbours[t.index()] {
                if !u.is_none() && !is_added(&u) && pockets[u.index()] != Pocket::Core && trees.insert(u) {
                    stack.push(u);
                }
            }
        }
    }
    let size = added.len() + seeds.len() + trees.len();
    let mut peeled: HashSet<TriangleId> = HashSet::with_capacity(size);
    let alive = |u: TriangleId, peeled: &HashSet<TriangleId>| {
        !u.is_none()
            && !peeled.contains(&u)
            && (is_added(&u) || trees.contains(&u) || pockets[u.index()] == Pocket::Core)
    };
    let mut degree: HashMap<TriangleId, u8> = HashMap::with_capacity(2 * size);
    let mut candidates: Vec<TriangleId> = Vec::with_capacity(size);
    candidates.extend(added.iter().chain(seeds).chain(trees.iter()));
    candidates.sort_unstable();
    candidates.dedup();
    let mut queue: std::collections::VecDeque<TriangleId> = std::collections::VecDeque::new();
    let mut queued: HashSet<TriangleId> = HashSet::with_capacity(size);
    for &t in &candidates {
        if !alive(t, &peeled) {
            continue;
        }
        let d = neighbours[t.index()].iter().filter(|&&u| alive(u, &peeled)).count() as u8;
        degree.insert(t, d);
        if d <= 1 && queued.insert(t) {
            queue.push_back(t);
        }
    }
    let mut roots = Vec::new();
    let mut new_pockets: HashMap<TriangleId, Pocket> = HashMap::with_capacity(size);
    while let Some(t) = queue.pop_front() {
        peeled.insert(t);
        let next = neighbours[t.index()].into_iter().find(|&u| alive(u, &peeled));
        let pocket = match next {
            Some(u) => {
                let d = match degree.get_mut(&u) {
                    Some(d) => {
                        *d -= 1;
                        *d
                    }
                    None => {
                        let d = neighbours[u.index()].iter().filter(|&&w| alive(w, &peeled)).count() as u8;
                        degree.insert(u, d);
                        d
                    }
                };
                if d <= 1 && queued.insert(u) {
                    queue.push_back(u);
                }
                Pocket::Towards(u)
            }
            None => {
                roots.push(t);
                Pocket::Root
            }
        };
        new_pockets.insert(t, pocket);
    }
    for t in candidates {
        if (is_added(&t) || trees.contains(&t)) && !peeled.contains(&t) {
            pockets[t.index()] = Pocket::Core;
            written.push(t.0);
        }
    }
    for (t, pocket) in new_pockets {
        pockets[t.index()] = pocket;
        written.push(t.0);
    }
    roots
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tris(raw: &[[u32; 3]]) -> Vec<[VertexId; 3]> {
        raw.iter().map(|t| t.map(VertexId)).collect()
    }

    #[test]
    fn triangles_touching_at_a_vertex_are_not_adjacent() {
        // Two triangles meet only at vertex 2 (a pinch point).
        let t = tris(&[[0, 1, 2], [2, 3, 4]]);
        let adj = build_adjacency(&t, 5).unwrap();
        assert!(adj.iter().flatten().all(|n| n.is_none()));
        let (islands, count) = find_islands(&adj);
        assert_eq!(count, 2);
        assert_eq!(islands, vec![IslandId(0), IslandId(1)]);
    }

    #[test]
    fn fan_around_a_vertex_is_one_ring() {
        // Four triangles around centre vertex 0 (square 1-2-3-4).
        let t = tris(&[[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 1]]);
        let adj = build_adjacency(&t, 5).unwrap();
        for (i, n) in adj.iter().enumerate() {
            assert_eq!(n[0], TriangleId(((i + 3) % 4) as u32));
            assert_eq!(n[1], TriangleId::NONE);
            assert_eq!(n[2], TriangleId(((i + 1) % 4) as u32));
        }
        assert_eq!(find_islands(&adj).1, 1);
    }

    #[test]
    fn pockets_peel_trees_and_keep_cycles() {
        // A fan of four around vertex 0 (a cycle), with a strip of two hanging off triangle 0's
        // outer edge 1-2: the strip is a pocket, the fan the core.
        let t = tris(&[[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 1], [2, 1, 5], [5, 1, 6]]);
        let adj = build_adjacency(&t, 7).unwrap();
        let pockets = find_pockets(&adj);
        assert_eq!(&pockets[..4], &[Pocket::Core; 4]);
        assert_eq!(pockets[4], Pocket::Towards(TriangleId(0)));
        assert_eq!(pockets[5], Pocket::Towards(TriangleId(4)));
        // Lone triangles and pairs are roots of their own trees.
        let adj = build_adjacency(&tris(&[[0, 1, 2], [3, 4, 5], [4, 3, 6]]), 7).unwrap();
        let pockets = find_pockets(&adj);
        assert_eq!(pockets[0], Pocket::Root);
        assert_eq!((pockets[1], pockets[2]), (Pocket::Towards(TriangleId(2)), Pocket::Root));
    }

    #[test]
    fn same_direction_edge_is_refused() {
        let t = tris(&[[0, 1, 2], [0, 1, 3]]);
        assert_eq!(
            build_adjacency(&t, 4),
            Err(TopologyError::NonManifoldEdge {
                first: TriangleId(0),
                second: TriangleId(1),
                from: VertexId(0),
                to: VertexId(1),
            })
        );
    }

    #[test]
    fn out_of_range_vertex_is_refused() {
        let t = tris(&[[0, 1, 9]]);
        assert!(matches!(
            build_adjacency(&t, 3),
            Err(TopologyError::VertexOutOfRange { vertex: VertexId(9), .. })
        ));
    }

    /// The peel written plainly, with branches (the form [`find_pockets`] had before it was
    /// made branch-free): the same queue, the same first neighbour not peeled.
    fn plain_peel(neighbours: &[[TriangleId; 3]]) -> Vec<Pocket> {
        let n = neighbours.len();
        let mut degree: Vec<u8> =
            neighbours.iter().map(|links| links.iter().map(|u| u8::from(u.index() < n)).sum()).collect();
        let mut pockets = vec![Pocket::Core; n];
        let mut queue: Vec<usize> = (0..n).filter(|&t| degree[t] <= 1).collect();
        let mut head = 0;
        while let Some(&t) = queue.get(head) {
            head += 1;
            degree[t] = u8::MAX;
            let next = neighbours[t].into_iter().find(|u| u.index() < n && degree[u.index()] != u8::MAX);
            pockets[t] = match next {
                Some(u) => {
                    degree[u.index()] = degree[u.index()].saturating_sub(1);
                    if degree[u.index()] == 1 {
                        queue.push(u.index());
                    }
                    Pocket::Towards(u)
                }
                None => Pocket::Root,
            };
        }
        pockets
    }

    /// The 2-core of the adjacency, by removing triangles with fewer than two neighbours left
    /// until none is left to remove (quadratic, plain).
    fn two_core(neighbours: &[[TriangleId; 3]]) -> Vec<bool> {
        let mut alive = vec![true; neighbours.len()];
        loop {
            let dying: Vec<usize> = (0..neighbours.len())
                .filter(|&t| {
                    alive[t] && neighbours[t].iter().filter(|u| !u.is_none() && alive[u.index()]).count() < 2
                })
                .collect();
            if dying.is_empty() {
                return alive;
            }
            for t in dying {
                alive[t] = false;
            }
        }
    }

    #[test]
    fn pockets_are_the_plain_peel_and_the_core_is_the_two_core() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(190);
        for round in 0..400 {
            // A third of the halves left out: corridors, loops, dead ends and whole islands
            // that are trees.
            let (vertices, triangles) = crate::test_meshes::lattice_mesh(&mut rng, 2 + round % 12, 3);
            let neighbours = build_adjacency(&triangles, vertices.len()).unwrap();
            let pockets = find_pockets(&neighbours);
            assert_eq!(pockets, plain_peel(&neighbours), "round {round}");
            let core = two_core(&neighbours);
            for (t, pocket) in pockets.iter().enumerate() {
                assert_eq!(*pocket == Pocket::Core, core[t], "round {round}, triangle {t}");
                if let Pocket::Towards(u) = pocket {
                    assert!(neighbours[t].contains(u), "round {round}: {t} points to {u:?}, not a neighbour");
                }
            }
            // Links that break every rule (a file still being checked): the same answer, no
            // panic.
            let n = neighbours.len() as u32;
            let garbage: Vec<[TriangleId; 3]> = (0..n)
                .map(|_| {
                    [(); 3].map(|_| match rng.random_range(0..4) {
                        0 => TriangleId::NONE,
                        _ => TriangleId(rng.random_range(0..n + 3)),
                    })
                })
                .collect();
            assert_eq!(find_pockets(&garbage), plain_peel(&garbage), "round {round}, garbage links");
        }
    }

    #[test]
    fn a_strip_of_three_peels_towards_its_middle() {
        // The ends peel towards the middle, which is the root.
        let tris = [[0, 1, 2], [1, 3, 2], [2, 3, 4]].map(|t| t.map(VertexId));
        let pockets = find_pockets(&build_adjacency(&tris, 5).unwrap());
        assert_eq!(pockets, [Pocket::Towards(TriangleId(1)), Pocket::Root, Pocket::Towards(TriangleId(1))]);
    }
}
