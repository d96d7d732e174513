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

/// The area type of a triangle (ground, water, road, ...). All triangles are area 0 for now;
/// traversal costs per area come with a later format version.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AreaId(pub u8);

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
}
