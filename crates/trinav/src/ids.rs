//! Small `u32` index newtypes for mesh elements.
//!
//! Every id indexes a flat array of the [`NavMesh`](crate::NavMesh); a sentinel `NONE`
//! (`u32::MAX`) stands for "no element" where one is optional (a boundary edge has no
//! neighbouring triangle).

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub u32);

        impl $name {
            /// The sentinel meaning "none".
            pub const NONE: Self = Self(u32::MAX);

            /// The id as an index into the mesh's arrays.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// Whether this id is the `NONE` sentinel.
            #[inline]
            pub fn is_none(self) -> bool {
                self == Self::NONE
            }

            /// The id of the element at `index`.
            ///
            /// # Panics
            /// If `index` does not fit in a `u32` (meshes are limited to `u32::MAX - 1`
            /// elements of each kind; the baker checks this before building ids).
            #[inline]
            pub fn from_index(index: usize) -> Self {
                Self(u32::try_from(index).expect("mesh element index exceeds u32"))
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}", self.0)
            }
        }
    };
}

id_type!(
    /// A vertex of the mesh.
    VertexId
);
id_type!(
    /// A triangle of the mesh.
    TriangleId
);
id_type!(
    /// A connected component of the mesh (triangles joined through shared edges).
    IslandId
);

/// The area type of a triangle (ground, road, mud, water, ...): `0` (untagged ground) to
/// [`AreaId::MAX`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AreaId(pub u8);

impl AreaId {
    /// The largest area type, 63 (as in Detour): 64 types in all.
    pub const MAX: AreaId = AreaId(63);
    /// The number of area types.
    pub const COUNT: usize = 64;

    /// The type as an index into per-type tables.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Edge `k` (0..3) of triangle `t`, as the triangle on its left sees it, in one number: `3 t + k`
/// (edge `k` runs from corner `k` to corner `k + 1`). What both path searches record: the edge
/// a path crosses, named by the triangle it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HalfEdge(u32);

impl HalfEdge {
    /// The sentinel meaning "none" (for a path: it starts here).
    pub(crate) const NONE: Self = Self(u32::MAX);
    /// Not a half-edge: marks a search node that arrives by an off-mesh link.
    pub(crate) const LINK: Self = Self(u32::MAX - 1);
    /// Most triangles a mesh may have so that every half-edge id fits below [`HalfEdge::NONE`].
    pub(crate) const MAX_TRIANGLES: usize = (u32::MAX / 3) as usize;

    /// Edge `k` of triangle `t`.
    #[inline]
    pub(crate) fn new(t: TriangleId, k: usize) -> Self {
        debug_assert!(k < 3 && t.index() < Self::MAX_TRIANGLES);
        Self(t.0 * 3 + k as u32)
    }

    /// The half-edge as an index (`3 t + k`).
    #[inline]
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }

    /// The triangle on the edge's left.
    #[inline]
    pub(crate) fn triangle(self) -> TriangleId {
        TriangleId(self.0 / 3)
    }

    /// The edge's index (0..3) in its triangle.
    #[inline]
    pub(crate) fn edge(self) -> usize {
        (self.0 % 3) as usize
    }

    /// Whether this is the `NONE` sentinel.
    #[inline]
    pub(crate) fn is_none(self) -> bool {
        self == Self::NONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_four_bytes_and_none_is_max() {
        assert_eq!(std::mem::size_of::<VertexId>(), 4);
        assert_eq!(std::mem::size_of::<TriangleId>(), 4);
        assert_eq!(std::mem::size_of::<[TriangleId; 3]>(), 12);
        assert!(TriangleId::NONE.is_none());
        assert!(!TriangleId(0).is_none());
        assert_eq!(VertexId::from_index(7).index(), 7);
    }

    #[test]
    fn half_edges_name_triangle_and_edge() {
        let h = HalfEdge::new(TriangleId(5), 2);
        assert_eq!((h.triangle(), h.edge()), (TriangleId(5), 2));
        let last = HalfEdge::new(TriangleId::from_index(HalfEdge::MAX_TRIANGLES - 1), 2);
        assert_ne!(last, HalfEdge::NONE);
        assert_eq!(std::mem::size_of::<HalfEdge>(), 4);
    }
}
