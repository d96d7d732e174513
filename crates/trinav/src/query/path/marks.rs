//! Sets of indices that empty in constant time, for per-query search state.

/// A set of indices (triangles, vertices) emptied in O(1) by a generation counter: an index is
/// in the set when its mark equals the current generation. Every query starts with
/// [`GenerationSet::clear`]; the marks array is filled with zeros only when the counter wraps
/// (every 2^32 queries), so a query costs nothing for the parts of the mesh it never touches.
#[derive(Clone, Debug, Default)]
pub(crate) struct GenerationSet {
    generation: u32,
    marks: Vec<u32>,
}

impl GenerationSet {
    /// Empties the set and makes room for indices below `len` (allocating only to grow).
    pub(crate) fn clear(&mut self, len: usize) {
        if self.marks.len() < len {
            self.marks.resize(len, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.marks.fill(0);
            self.generation = 1;
        }
    }

    /// Adds `index`.
    #[inline]
    pub(crate) fn insert(&mut self, index: usize) {
        self.marks[index] = self.generation;
    }

    /// Whether `index` is in the set.
    #[inline]
    pub(crate) fn contains(&self, index: usize) -> bool {
        self.marks[index] == self.generation
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clearing_empties_the_set_also_when_the_counter_wraps() {
        let mut set = GenerationSet::default();
        set.clear(4);
        set.insert(2);
        assert!(set.contains(2) && !set.contains(1));
        set.clear(4);
        assert!(!set.contains(2));
        set.insert(3);
        set.generation = u32::MAX;
        set.marks[1] = u32::MAX;
        set.clear(6);
        assert_eq!(set.generation, 1);
        assert!((0..6).all(|i| !set.contains(i)), "stale marks are gone after the wrap");
    }
}
