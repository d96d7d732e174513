//! The base: the triangles of the mesh without any obstacle (the mesh loaded or baked, or a
//! grid's tiles), each with a stable id, and where each one is now.
//!
//! A base triangle is either in the mesh (its slot is known, its corners are the mesh's), or
//! covered by a component, whose triangles replace it (its corners are kept here, in a small
//! R-tree for the footprint queries). The mesh's triangles are owned by a base triangle or by a
//! component ([`Owner`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use foldhash::HashMap;
use rstar::RTree;
use rstar::primitives::{GeomWithData, Rectangle};
use trinav::{Aabb, LayerId, NavMesh, Point, TriangleId};

/// What a triangle of the mesh is: a base triangle (by id) or a piece of a component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Owner {
    /// Base triangle `id`, as it is.
    Base(u32),
    /// A triangle of component `id`.
    Component(u32),
    /// Nothing (a slot being changed).
    None,
}

/// A covered base triangle's box in the R-tree.
type CoveredEntry = GeomWithData<Rectangle<[f64; 2]>, u32>;

/// The base triangles.
#[derive(Clone, Debug, Default)]
pub(crate) struct Base {
    /// Per base id: its slot in the mesh; `NONE` when covered or not in use.
    pub(crate) slot: Vec<TriangleId>,
    /// Per base id: the component covering it, if any.
    pub(crate) owner: Vec<Option<u32>>,
    /// Corners of the covered base triangles.
    covered: HashMap<u32, [Point; 3]>,
    /// Their boxes.
    covered_index: RTree<CoveredEntry>,
    /// Ids not in use (grid tiles give theirs back when computed again), reused lowest first.
    free: BinaryHeap<Reverse<u32>>,
    /// On a layered mesh: per base id, its layer (a grid's base has no layers: empty).
    pub(crate) layers: Vec<LayerId>,
    /// On a layered mesh: the base triangle across each portal edge (base id, edge).
    pub(crate) across: HashMap<(u32, u8), u32>,
}

fn entry(b: u32, tri: &[Point; 3]) -> CoveredEntry {
    let bounds = Aabb::from_points(*tri);
    GeomWithData::new(Rectangle::from_corners([bounds.min.x, bounds.min.y], [bounds.max.x, bounds.max.y]), b)
}

impl Base {
    /// The base of `mesh` as it is: base triangle `i` in slot `i` (on a layered mesh with its
    /// layer, and the portal edges between them).
    pub(crate) fn of_mesh(mesh: &NavMesh) -> Base {
        let triangles = mesh.triangle_count();
        let mut base = Base {
            slot: (0..triangles).map(TriangleId::from_index).collect(),
            owner: vec![None; triangles],
            ..Base::default()
        };
        if mesh.is_layered() {
            base.layers = (0..triangles).map(|t| mesh.triangle_layer(TriangleId::from_index(t))).collect();
            for t in 0..triangles {
                for (k, &n) in mesh.neighbours(TriangleId::from_index(t)).iter().enumerate() {
                    if !n.is_none() && base.layers[n.index()] != base.layers[t] {
                        base.across.insert((t as u32, k as u8), n.0);
                    }
                }
            }
        }
        base
    }

    /// The layer of base triangle `b` (layer 0 on a mesh without layers).
    pub(crate) fn layer(&self, b: u32) -> LayerId {
        self.layers.get(b as usize).copied().unwrap_or_default()
    }

    /// A new base id (not yet in the mesh nor covered).
    pub(crate) fn allocate(&mut self) -> u32 {
        if let Some(Reverse(b)) = self.free.pop() {
            return b;
        }
        self.slot.push(TriangleId::NONE);
        self.owner.push(None);
        (self.slot.len() - 1) as u32
    }

    /// Gives id `b` back (its triangle is neither in the mesh nor covered any more).
    pub(crate) fn release(&mut self, b: u32) {
        self.slot[b as usize] = TriangleId::NONE;
        self.owner[b as usize] = None;
        self.free.push(Reverse(b));
    }

    /// The corners of base triangle `b`.
    pub(crate) fn points(&self, mesh: &NavMesh, b: u32) -> [Point; 3] {
        match self.slot[b as usize] {
            slot if !slot.is_none() => mesh.triangle_points(slot),
            _ => self.covered[&b],
        }
    }

    /// Base triangle `b` leaves the mesh, covered by `component`.
    pub(crate) fn cover(&mut self, b: u32, corners: [Point; 3], component: u32) {
        self.slot[b as usize] = TriangleId::NONE;
        self.owner[b as usize] = Some(component);
        if self.covered.insert(b, corners).is_none() {
            self.covered_index.insert(entry(b, &corners));
        }
    }

    /// Base triangle `b`, covered, is not any more; returns its corners.
    pub(crate) fn uncover(&mut self, b: u32) -> [Point; 3] {
        let corners = self.covered.remove(&b).expect("a covered base triangle");
        self.covered_index.remove(&entry(b, &corners));
        self.owner[b as usize] = None;
        corners
    }

    /// Every base triangle whose box overlaps `area`: those in the mesh (found through its
    /// grid; `owners` says which mesh triangles are base triangles) and the covered ones.
    pub(crate) fn overlapping(&self, mesh: &NavMesh, owners: &[Owner], area: Aabb) -> Vec<u32> {
        let mut found: Vec<u32> = (mesh.triangles_overlapping(area))
            .filter_map(|t| match owners[t.index()] {
                Owner::Base(b) => Some(b),
                _ => None,
            })
            .collect();
        let query = rstar::AABB::from_corners([area.min.x, area.min.y], [area.max.x, area.max.y]);
        found.extend(self.covered_index.locate_in_envelope_intersecting(&query).map(|e| e.data));
        found.sort_unstable();
        found
    }
}
