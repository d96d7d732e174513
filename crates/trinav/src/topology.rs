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
/// Runs in `O(T log d)` for `T` triangles and vertex degree `d`, with no hashing: outgoing edges
/// are bucketed by their start vertex and sorted by their end vertex.
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
    // Bucket every directed edge by its start vertex (CSR layout).
    let mut start = vec![0u32; vertex_count + 1];
    for tri in triangles {
        for v in tri {
            start[v.index() + 1] += 1;
        }
    }
    for i in 0..vertex_count {
        start[i + 1] += start[i];
    }
    // (end vertex, triangle, edge) per outgoing edge.
    let mut edges = vec![(0u32, 0u32, 0u8); triangles.len() * 3];
    let mut fill = start.clone();
    for (t, tri) in triangles.iter().enumerate() {
        for i in 0..3 {
            let slot = &mut fill[tri[i].index()];
            edges[*slot as usize] = (tri[(i + 1) % 3].0, t as u32, i as u8);
            *slot += 1;
        }
    }
    for v in 0..vertex_count {
        let range = start[v] as usize..start[v + 1] as usize;
        edges[range].sort_unstable();
    }
    let bucket = |v: VertexId| &edges[start[v.index()] as usize..start[v.index() + 1] as usize];
    for v in 0..vertex_count {
        let out = bucket(VertexId::from_index(v));
        if let Some(w) = out.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(TopologyError::NonManifoldEdge {
                first: TriangleId(w[0].1),
                second: TriangleId(w[1].1),
                from: VertexId::from_index(v),
                to: VertexId(w[0].0),
            });
        }
    }
    let mut neighbours = vec![[TriangleId::NONE; 3]; triangles.len()];
    for (t, tri) in triangles.iter().enumerate() {
        for i in 0..3 {
            let (from, to) = (tri[i], tri[(i + 1) % 3]);
            let back = bucket(to);
            if let Ok(k) = back.binary_search_by_key(&from.0, |e| e.0) {
                neighbours[t][i] = TriangleId(back[k].1);
            }
        }
    }
    Ok(neighbours)
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
    let linked = |t: usize| neighbours[t].iter().filter(|u| !u.is_none() && u.index() < n);
    let mut degree: Vec<u8> = (0..n).map(|t| linked(t).count() as u8).collect();
    let mut peeled = vec![false; n];
    let mut pockets = vec![Pocket::Core; n];
    // First in, first out: trees peel from their leaves inwards, level by level.
    let mut queue: std::collections::VecDeque<usize> = (0..n).filter(|&t| degree[t] <= 1).collect();
    while let Some(t) = queue.pop_front() {
        peeled[t] = true;
        pockets[t] = match linked(t).find(|u| !peeled[u.index()]) {
            Some(u) => {
                let k = u.index();
                degree[k] -= 1;
                if degree[k] == 1 {
                    queue.push_back(k);
                }
                Pocket::Towards(*u)
            }
            None => Pocket::Root,
        };
    }
    pockets
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

    #[test]
    fn a_strip_of_three_peels_towards_its_middle() {
        // The ends peel towards the middle, which is the root.
        let tris = [[0, 1, 2], [1, 3, 2], [2, 3, 4]].map(|t| t.map(VertexId));
        let pockets = find_pockets(&build_adjacency(&tris, 5).unwrap());
        assert_eq!(pockets, [Pocket::Towards(TriangleId(1)), Pocket::Root, Pocket::Towards(TriangleId(1))]);
    }
}
