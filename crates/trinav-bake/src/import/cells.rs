//! Cell tracing: the rings around a set of grid cells, walked straight on the cells.
//!
//! Each ring is walked along the cell sides, with the traced cells on the left (a straight
//! stretch along a row found and marked 64 cells at a time, the cells and the walked sides
//! being rows of bits), and keeps only the corners where it turns, so its points are
//! integers and none lies on the straight line between its neighbours. At a double corner
//! (two traced cells meeting only at a point) the walk turns left, hugging the cell it came
//! along; a ring that comes back to such a point is split there into simple rings, which then
//! share that vertex. Rings are grouped by 4-connected component, each one outer ring
//! (counter-clockwise) with its holes.
//!
//! The walk starts at the first untraced boundary side in cell order (row by row, then the
//! sides top, right, bottom, left), and components are numbered by their first cell, so the
//! rings and their order are those of [`region_from_edges`](super::trace::region_from_edges)
//! on the same cells' boundary sides (a test checks this); but nothing is built per side.

use trinav::Point;

use crate::import::trace::{TraceError, polygons_from_rings, split_at_repeats_at};
use crate::merge::MergedRegion;

/// Step of each walking direction: +x, +y, -x, -y (direction `k + 1` is a left turn from `k`).
const STEP: [(isize, isize); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
/// For a side leaving a lattice point in direction `k`, the offsets (from the point) of the cell
/// on its left and the cell on its right.
const SIDE_CELLS: [[(isize, isize); 2]; 4] =
    [[(0, 0), (0, -1)], [(-1, 0), (0, 0)], [(-1, -1), (-1, 0)], [(0, -1), (-1, -1)]];

/// The way on from a lattice point, by the four cells around it (bit 0 the cell at offset
/// (-1, -1), bit 1 (0, -1), bit 2 (-1, 0), bit 3 (0, 0); a set bit a traced cell) and the
/// direction the walk arrived in: the furthest left boundary side leaving it (a left turn,
/// straight on, a right turn), 4 when none does (the ring is open there).
const TURNS: [[u8; 4]; 16] = {
    let mut turns = [[4u8; 4]; 16];
    let mut cells = 0;
    while cells < 16 {
        let mut k = 0;
        while k < 4 {
            let ways = [(k + 1) % 4, k, (k + 3) % 4];
            let mut i = 0;
            while i < 3 {
                let [(lx, ly), (rx, ry)] = SIDE_CELLS[ways[i]];
                let left = cells >> ((lx + 1) + 2 * (ly + 1)) & 1 == 1;
                let right = cells >> ((rx + 1) + 2 * (ry + 1)) & 1 == 1;
                if left && !right {
                    turns[cells][k] = ways[i] as u8;
                    break;
                }
                i += 1;
            }
            k += 1;
        }
        cells += 1;
    }
    turns
};

/// Whether the four cells around a lattice point (as [`TURNS`] takes them) make it a double
/// corner: traced cells diagonally opposite, touching only there.
const fn is_double_corner(cells: usize) -> bool {
    cells == 0b1001 || cells == 0b0110
}

/// The cells to trace as rows of bits, padded with one untraced cell on every side so that no
/// look-up needs a bounds check.
pub(crate) struct CellMask {
    /// Cells per row of the map.
    width: usize,
    /// Rows of the map.
    height: usize,
    /// Words per padded row.
    words: usize,
    /// Bit `x + 1` of padded row `y + 1` (rows of `words` words) is cell (`x`, `y`), with `x`
    /// and `y` from -1 to the map's size.
    bits: Vec<u64>,
}

impl CellMask {
    /// The mask of the cells of a `width` by `height` map (`cells` row by row) that equal
    /// `value`.
    pub(crate) fn new(width: usize, height: usize, cells: &[bool], value: bool) -> CellMask {
        CellMask::from_rows(width, height, cells.chunks_exact(width).take(height), value)
    }

    /// [`CellMask::new`] from the map's rows (each `width` cells; at most `height` read).
    pub(crate) fn from_rows<'a>(
        width: usize,
        height: usize,
        rows: impl Iterator<Item = &'a [bool]>,
        value: bool,
    ) -> CellMask {
        let words = (width + 2).div_ceil(64);
        let mut bits = vec![0u64; words * (height + 2)];
        for (y, cells) in rows.take(height).enumerate() {
            let row = &mut bits[(y + 1) * words..(y + 2) * words];
            // 64 cells to a word, then shifted one column right for the padding.
            let mut carry = 0;
            for (word, chunk) in row.iter_mut().zip(cells.chunks(64)) {
                let packed = pack(chunk, value);
                *word = packed << 1 | carry;
                carry = packed >> 63;
            }
            if let Some(last) = row.get_mut(width.div_ceil(64)) {
                *last |= carry;
            }
        }
        CellMask { width, height, words, bits }
    }

    /// Padded row `r` (map row `r - 1`).
    #[inline]
    fn row(&self, r: usize) -> &[u64] {
        &self.bits[r * self.words..(r + 1) * self.words]
    }

    /// Whether the cell at lattice point `(x, y)` plus `offset` is traced (`x`, `y` from 0 to
    /// the map's size, offsets -1 or 0).
    #[inline]
    fn at(&self, x: usize, y: usize, (dx, dy): (isize, isize)) -> bool {
        let (i, r) = ((x as isize + 1 + dx) as usize, (y as isize + 1 + dy) as usize);
        self.bits[r * self.words + i / 64] >> (i % 64) & 1 == 1
    }

    /// The four cells around lattice point `(x, y)` as the bits [`TURNS`] is indexed by.
    #[inline]
    fn cells_around(&self, x: usize, y: usize) -> usize {
        // Cell (x', y') is padded bit x' + 1 of padded row y' + 1: the cells left and right of
        // the point are padded columns x and x + 1, those above and below rows y and y + 1.
        let pair = |r: usize| {
            let row = self.row(r);
            let left = row[x / 64] >> (x % 64) & 1;
            let right = row[(x + 1) / 64] >> ((x + 1) % 64) & 1;
            (left | right << 1) as usize
        };
        pair(y) | pair(y + 1) << 2
    }

    /// Whether a boundary side leaves lattice point `(x, y)` in direction `k`: traced cell on its
    /// left, untraced on its right.
    #[inline]
    fn leaves(&self, x: usize, y: usize, k: usize) -> bool {
        let [left, right] = SIDE_CELLS[k];
        self.at(x, y, left) && !self.at(x, y, right)
    }

    /// Whether lattice point `(x, y)` is a double corner.
    #[inline]
    fn double_corner(&self, x: usize, y: usize) -> bool {
        is_double_corner(self.cells_around(x, y))
    }

    /// Word `j` of map row `y` (bits of its padded row) and, bit for bit, the cells above,
    /// below, to the left and to the right of its cells: `[row, above, below, left, right]`.
    /// Always inlined: left to the compiler, AR0304SR's trace took 16% more instructions and
    /// 38% more time.
    #[inline(always)]
    fn around(&self, y: usize, j: usize) -> [u64; 5] {
        let r = y + 1;
        let (above, row, below) = (self.row(r - 1)[j], self.row(r)[j], self.row(r + 1)[j]);
        let before = if j > 0 { self.row(r)[j - 1] >> 63 } else { 0 };
        let after = if j + 1 < self.words { self.row(r)[j + 1] << 63 } else { 0 };
        [row, above, below, row << 1 | before, row >> 1 | after]
    }

    /// The traced cells of word `j` of map row `y` (as bits of its padded row) with a boundary
    /// side that the rings walked from the rows above may have left unwalked: those with a top
    /// or a bottom side. A traced cell below a traced cell has none of its left and right
    /// sides left: at the top end of such a side, the ring through it goes on along the same
    /// side of the cell above or along the bottom side of the cell diagonally above (the only
    /// other boundary side there), which the scan passed in the row above, walking the ring.
    /// So the sides along the walls of long corridors are not looked at again row by row.
    #[inline(always)]
    fn cells_to_look_at(&self, y: usize, j: usize) -> u64 {
        let [row, above, below, ..] = self.around(y, j);
        row & !(above & below)
    }

    /// The traced cells of word `j` of map row `y` (as bits of its padded row) with a boundary
    /// side (traced cell on its left, untraced on its right) that `sides` has not marked: the
    /// cells whose sides [`trace`](Self::trace) must look at, 64 at a time.
    #[inline]
    fn unwalked_cells(&self, sides: &Sides, y: usize, j: usize) -> u64 {
        let [row, above, below, left, right] = self.around(y, j);
        // Padded bit b is cell x = 64 j + b - 1; each side's flag index is linear in x.
        let first = (64 * j) as isize - 1;
        let (w, horizontal) = ((self.width) as isize, sides.horizontal as isize);
        let top = !above & !sides.flags_from((y as isize) * w + first);
        let bottom = !below & !sides.flags_from((y as isize + 1) * w + first);
        let vertical = horizontal + (y as isize) * (w + 1) + first;
        let on_left = !left & !sides.flags_from(vertical);
        let on_right = !right & !sides.flags_from(vertical + 1);
        row & (top | bottom | on_left | on_right)
    }

    /// The first padded column at or after `from` in padded row `r` whose bit is `set`, or the
    /// row's width in bits.
    fn next_bit(&self, r: usize, from: usize, set: bool) -> usize {
        let row = self.row(r);
        let flip = if set { 0 } else { u64::MAX };
        let mut j = from / 64;
        if j >= row.len() {
            return row.len() * 64;
        }
        let mut word = (row[j] ^ flip) & (u64::MAX << (from % 64));
        loop {
            if word != 0 {
                return j * 64 + word.trailing_zeros() as usize;
            }
            j += 1;
            if j == row.len() {
                return row.len() * 64;
            }
            word = row[j] ^ flip;
        }
    }

    /// Traces the mask into a region: one polygon per 4-connected component of traced cells,
    /// in the order of their first cells.
    pub(crate) fn trace(&self) -> Result<MergedRegion, TraceError> {
        let (w, h) = (self.width, self.height);
        let labels = RunLabels::new(self);
        let mut sides = Sides::new(w, h);
        // Sized for a small map's rings at once (grid tiles trace thousands of small maps).
        let mut rings: Vec<(u32, Vec<Point>)> = Vec::with_capacity(8);
        let mut corners: Vec<u32> = Vec::with_capacity(64);
        let mut pinches: Vec<usize> = Vec::new();
        let point = |v: u32| Point::new((v as usize % (w + 1)) as f64, (v as usize / (w + 1)) as f64);
        for y in 0..h {
            for j in 0..self.words {
                // Most words hold no boundary side at all (inside or outside the traced
                // cells), or only sides walked from the rows above: passed over before the
                // walked sides are read.
                if self.cells_to_look_at(y, j) == 0 {
                    continue;
                }
                // Cells of this word with a boundary side no ring has walked yet, from padded
                // bit `from` on; asked again after each cell, as its walks mark sides.
                let mut from = 0;
                while from < 64 {
                    let cells = self.unwalked_cells(&sides, y, j) & u64::MAX << from;
                    if cells == 0 {
                        break;
                    }
                    from = cells.trailing_zeros() + 1;
                    let x = j * 64 + from as usize - 2;
                    // The cell's sides, as (start point, direction): top, right, bottom, left.
                    let starts = [((x, y), 0), ((x + 1, y), 1), ((x + 1, y + 1), 2), ((x, y + 1), 3)];
                    for (start, k) in starts {
                        if sides.traced(start, k) || !self.leaves(start.0, start.1, k) {
                            continue;
                        }
                        self.walk(start, k, &mut sides, &mut corners, &mut pinches)?;
                        let component = labels.of(x, y);
                        if !pinches.is_empty() {
                            for simple in split_at_repeats_at(&corners, &pinches) {
                                rings.push((component, simple.into_iter().map(point).collect()));
                            }
                        } else {
                            rings.push((component, corners.iter().map(|&v| point(v)).collect()));
                        }
                    }
                }
            }
        }
        polygons_from_rings(rings, labels.count as usize)
    }

    /// Walks the ring that leaves lattice point `start` in direction `k`, marking its sides
    /// traced and listing its corners (lattice points `y * (width + 1) + x`, from the start
    /// on) and, in `pinches`, the positions among them of the double corners it turned at
    /// (the only points a ring can pass twice), none when it passed none.
    fn walk(
        &self,
        start: (usize, usize),
        start_k: usize,
        sides: &mut Sides,
        corners: &mut Vec<u32>,
        pinches: &mut Vec<usize>,
    ) -> Result<(), TraceError> {
        let vertex = |(x, y): (usize, usize)| (y * (self.width + 1) + x) as u32;
        let open = |(x, y): (usize, usize)| TraceError::Open(Point::new(x as f64, y as f64));
        corners.clear();
        corners.push(vertex(start));
        pinches.clear();
        let (mut at, mut k) = (start, start_k);
        loop {
            at = self.walk_straight(at, k, sides);
            let cells = self.cells_around(at.0, at.1);
            let next = match TURNS[cells][k] {
                4 => return Err(open(at)),
                next => next as usize,
            };
            if (at, next) == (start, start_k) {
                if next == k {
                    // The start point lies on a straight stretch (so it is no double corner).
                    corners.remove(0);
                    pinches.iter_mut().for_each(|i| *i -= 1);
                } else if !pinches.is_empty() && self.double_corner(start.0, start.1) {
                    pinches.insert(0, 0);
                }
                return Ok(());
            }
            if sides.traced(at, next) {
                return Err(open(at));
            }
            if next != k {
                corners.push(vertex(at));
                if next == (k + 1) % 4 && is_double_corner(cells) {
                    pinches.push(corners.len() - 1);
                }
            }
            k = next;
        }
    }

    /// Walks the side leaving lattice point `at` in direction `k` (a boundary side), then on
    /// straight while the side ahead is a boundary side (where it is, the walk cannot turn
    /// left: that side's traced cell is the left turn's untraced one) not walked before (the
    /// ring's first side was walked first, so the walk stops there too). Marks the sides
    /// walked and returns the point reached, where [`walk`](Self::walk) chooses the way on as
    /// at any point.
    ///
    /// Along a row the stretch is found 64 cells at a time: the first (or, walking towards
    /// -x, the last) cell where the row's cells stop being traced on the left of the way and
    /// untraced on its right.
    fn walk_straight(&self, at: (usize, usize), k: usize, sides: &mut Sides) -> (usize, usize) {
        let (x, y) = at;
        let w = self.width;
        match k {
            0 => {
                // Side (x', y) -> (x' + 1, y): cell (x', y) traced, (x', y - 1) not; cell x'
                // is padded bit x' + 1 of padded row y + 1.
                let mut end = self.first_stop(y + 1, y, x + 2) - 1;
                let row = y * w;
                if let Some(walked) = sides.first_set(row + x + 1, row + end) {
                    end = walked - row;
                }
                sides.set_range(row + x, row + end);
                (end, y)
            }
            2 => {
                // Side (x', y) -> (x' - 1, y): cell (x' - 1, y - 1) traced, (x' - 1, y) not;
                // cell x' - 1 is padded bit x' of padded row y.
                let mut end = self.last_stop(y, y + 1, x - 1);
                let row = y * w;
                if let Some(walked) = sides.last_set(row + end, row + x - 1) {
                    end = walked + 1 - row;
                }
                sides.set_range(row + end, row + x);
                (end, y)
            }
            _ => self.walk_column(at, k, sides),
        }
    }

    /// [`walk_straight`](Self::walk_straight) along a column (`k` 1 or 3), side by side (the
    /// flags of a column's sides are not contiguous), stepping the two cells' bits and the
    /// side's flag a row at a time.
    #[inline]
    fn walk_column(&self, (x, mut y): (usize, usize), k: usize, sides: &mut Sides) -> (usize, usize) {
        // The side leaving (x, y) downwards has cell (x - 1, y) on its left and (x, y) on its
        // right, the one leaving upwards (x, y - 1) and (x - 1, y - 1): cell x' is padded
        // column x' + 1, cell row y' padded row y' + 1.
        let (traced, untraced, mut r) = if k == 1 { (x, x + 1, y + 1) } else { (x + 1, x, y) };
        let step = STEP[k].1;
        let flag_step = step * (self.width as isize + 1);
        let mut flag = sides.index((x, y), k);
        let bit = |r: usize, column: usize| self.bits[r * self.words + column / 64] >> (column % 64) & 1;
        loop {
            sides.traced[flag / 64] |= 1 << (flag % 64);
            (y, r, flag) = (
                y.wrapping_add_signed(step),
                r.wrapping_add_signed(step),
                flag.wrapping_add_signed(flag_step),
            );
            // Off the map, the padding row stops the walk before its flag is read.
            if bit(r, traced) == 0 || bit(r, untraced) == 1 || sides.traced[flag / 64] >> (flag % 64) & 1 == 1
            {
                return (x, y);
            }
        }
    }

    /// The first padded column `i >= from` where padded row `traced` has no bit or padded row
    /// `untraced` has one. The padding column after the map's last stops every search.
    #[inline]
    fn first_stop(&self, traced: usize, untraced: usize, from: usize) -> usize {
        let (a, b) = (self.row(traced), self.row(untraced));
        let mut j = from / 64;
        let mut word = (!a[j] | b[j]) & (u64::MAX << (from % 64));
        while word == 0 {
            j += 1;
            word = !a[j] | b[j];
        }
        j * 64 + word.trailing_zeros() as usize
    }

    /// The last padded column `i <= from` where padded row `traced` has no bit or padded row
    /// `untraced` has one. The padding column before the map's first stops every search.
    #[inline]
    fn last_stop(&self, traced: usize, untraced: usize, from: usize) -> usize {
        let (a, b) = (self.row(traced), self.row(untraced));
        let mut j = from / 64;
        let mut word = (!a[j] | b[j]) & (u64::MAX >> (63 - from % 64));
        while word == 0 {
            j -= 1;
            word = !a[j] | b[j];
        }
        j * 64 + 63 - word.leading_zeros() as usize
    }
}

/// Bit `i` set where `cells[i] == value` (at most 64 cells), eight cells at a time: the eight
/// bytes (each 0 or 1) read as one word, and a multiplication that gathers bit 0 of byte `i`
/// into bit `56 + i` (the partial products land on distinct bits, so nothing carries). A whole
/// word of cells is packed as a fixed eight such steps, which the compiler unrolls (the loop
/// over a slice took three times the instructions).
#[inline]
fn pack(cells: &[bool], value: bool) -> u64 {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let flip = if value { 0 } else { 0x0101_0101_0101_0101 };
    let gather =
        |eight: &[bool; 8]| (u64::from_le_bytes(eight.map(u8::from)) ^ flip).wrapping_mul(GATHER) >> 56;
    if let Ok(full) = <&[bool; 64]>::try_from(cells) {
        let eights: &[[bool; 8]; 8] = full.as_chunks::<8>().0.try_into().expect("64 cells are 8 eights");
        return (0..8).fold(0, |packed, i| packed | gather(&eights[i]) << (8 * i));
    }
    let (eights, rest) = cells.as_chunks::<8>();
    let mut packed = 0u64;
    for (i, eight) in eights.iter().enumerate() {
        packed |= gather(eight) << (8 * i);
    }
    for (i, &c) in rest.iter().enumerate() {
        packed |= u64::from(c == value) << (8 * eights.len() + i);
    }
    packed
}

/// One bit per cell side of a grid: whether a ring has walked it.
struct Sides {
    width: usize,
    /// Horizontal sides (from lattice point (x, y) to (x + 1, y)) first, then vertical ones
    /// (from (x, y) to (x, y + 1)).
    traced: Vec<u64>,
    horizontal: usize,
}

impl Sides {
    fn new(width: usize, height: usize) -> Sides {
        let horizontal = width * (height + 1);
        Sides { width, traced: vec![0; (horizontal + (width + 1) * height).div_ceil(64)], horizontal }
    }

    /// The flag of the side leaving lattice point `(x, y)` in direction `k`.
    #[inline]
    fn index(&self, (x, y): (usize, usize), k: usize) -> usize {
        match k {
            0 => y * self.width + x,
            2 => y * self.width + x - 1,
            1 => self.horizontal + y * (self.width + 1) + x,
            _ => self.horizontal + (y - 1) * (self.width + 1) + x,
        }
    }

    #[inline]
    fn traced(&self, at: (usize, usize), k: usize) -> bool {
        let i = self.index(at, k);
        self.traced[i / 64] >> (i % 64) & 1 == 1
    }

    /// The flags of sides `start` to `start + 63` as bits (flags before 0 or after the last
    /// side read as unwalked).
    #[inline]
    fn flags_from(&self, start: isize) -> u64 {
        if start < 0 {
            return self.flags_from(0) << start.unsigned_abs().min(63);
        }
        let (word, shift) = (start as usize / 64, start as usize % 64);
        let low = self.traced.get(word).map_or(0, |&w| w >> shift);
        let high = if shift == 0 { 0 } else { self.traced.get(word + 1).map_or(0, |&w| w << (64 - shift)) };
        low | high
    }

    /// The first flag set among `lo..hi`, if any.
    fn first_set(&self, lo: usize, hi: usize) -> Option<usize> {
        let mut i = lo;
        while i < hi {
            let word = self.traced[i / 64] >> (i % 64);
            if word != 0 {
                let found = i + word.trailing_zeros() as usize;
                return (found < hi).then_some(found);
            }
            i = (i / 64 + 1) * 64;
        }
        None
    }

    /// The last flag set among `lo..hi`, if any.
    fn last_set(&self, lo: usize, hi: usize) -> Option<usize> {
        let mut end = hi;
        while end > lo {
            let last = end - 1;
            let word = self.traced[last / 64] << (63 - last % 64);
            if word != 0 {
                let found = last - word.leading_zeros() as usize;
                return (found >= lo).then_some(found);
            }
            end = last / 64 * 64;
        }
        None
    }

    /// Sets the flags `lo..hi`.
    fn set_range(&mut self, lo: usize, hi: usize) {
        let mut i = lo;
        while i < hi {
            let bits = (64 - i % 64).min(hi - i);
            let ones = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            self.traced[i / 64] |= ones << (i % 64);
            i += bits;
        }
    }
}

/// The 4-connected components of the traced cells, labelled through runs (maximal horizontal
/// stretches of traced cells) joined with a union-find, numbered by their first cell in row
/// order.
struct RunLabels {
    /// The runs, as (first x, end x, label).
    runs: Vec<(u32, u32, u32)>,
    /// Runs of each row: `runs[rows[y].0..rows[y].1]`. A row whose cells repeat the row
    /// above's shares its runs, each joined only to itself.
    rows: Vec<(u32, u32)>,
    /// Number of components.
    count: u32,
}

impl RunLabels {
    fn new(mask: &CellMask) -> RunLabels {
        let (w, h) = (mask.width, mask.height);
        // Two runs a row before growing.
        let mut runs: Vec<(u32, u32, u32)> = Vec::with_capacity(2 * h);
        let mut rows: Vec<(u32, u32)> = Vec::with_capacity(h);
        let mut parent: Vec<u32> = Vec::with_capacity(2 * h);
        fn root(parent: &mut [u32], mut r: u32) -> u32 {
            while parent[r as usize] != r {
                let up = parent[parent[r as usize] as usize];
                parent[r as usize] = up;
                r = up;
            }
            r
        }
        for y in 0..h {
            if let Some(&above) = rows.last()
                && mask.row(y + 1) == mask.row(y)
            {
                rows.push(above);
                continue;
            }
            let previous = rows.last().map_or(0..0, |&(start, end)| start as usize..end as usize);
            let start = runs.len() as u32;
            let mut above = previous.start;
            let mut x = 0;
            loop {
                // Padded columns: cell x is column x + 1.
                let first = mask.next_bit(y + 1, x + 1, true) - 1;
                if first >= w {
                    break;
                }
                x = mask.next_bit(y + 1, first + 1, false) - 1;
                let id = runs.len() as u32;
                parent.push(id);
                // Join the runs of the row above that overlap this one.
                while above < previous.end && (runs[above].1 as usize) <= first {
                    above += 1;
                }
                let mut k = above;
                while k < previous.end && (runs[k].0 as usize) < x {
                    let (a, b) = (root(&mut parent, k as u32), root(&mut parent, id));
                    // The lower id stays the root: the component's first run.
                    parent[a.max(b) as usize] = a.min(b);
                    k += 1;
                }
                runs.push((first as u32, x as u32, id));
            }
            rows.push((start, runs.len() as u32));
        }
        // Number the components by their first run, which is their root.
        let mut count = 0;
        let mut number = vec![u32::MAX; runs.len()];
        for (r, run) in runs.iter_mut().enumerate() {
            let top = root(&mut parent, r as u32) as usize;
            if number[top] == u32::MAX {
                number[top] = count;
                count += 1;
            }
            run.2 = number[top];
        }
        RunLabels { runs, rows, count }
    }

    /// The component of traced cell (`x`, `y`).
    fn of(&self, x: usize, y: usize) -> u32 {
        let (start, end) = self.rows[y];
        let row = &self.runs[start as usize..end as usize];
        let at = row.partition_point(|run| (run.1 as usize) <= x);
        row[at].2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::trace::{BoundaryEdge, region_from_edges};

    /// The same region the general tracer gives: one boundary edge per cell side (cell on its
    /// left), components labelled by flood fill in cell order.
    fn traced_per_side(width: usize, height: usize, cells: &[bool]) -> Result<MergedRegion, TraceError> {
        let inside = |x: i64, y: i64| {
            x >= 0
                && y >= 0
                && (x as usize) < width
                && (y as usize) < height
                && cells[y as usize * width + x as usize]
        };
        let mut label = vec![u32::MAX; width * height];
        let mut count = 0;
        for seed in 0..width * height {
            if !cells[seed] || label[seed] != u32::MAX {
                continue;
            }
            let mut stack = vec![seed];
            label[seed] = count;
            while let Some(c) = stack.pop() {
                let (x, y) = ((c % width) as i64, (c / width) as i64);
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] {
                    let n = (ny * width as i64 + nx) as usize;
                    if inside(nx, ny) && label[n] == u32::MAX {
                        label[n] = count;
                        stack.push(n);
                    }
                }
            }
            count += 1;
        }
        let points: Vec<Point> =
            (0..=height).flat_map(|y| (0..=width).map(move |x| Point::new(x as f64, y as f64))).collect();
        let vertex = |x: i64, y: i64| (y * (width as i64 + 1) + x) as u32;
        let mut edges = Vec::new();
        for y in 0..height as i64 {
            for x in 0..width as i64 {
                if !inside(x, y) {
                    continue;
                }
                let component = label[y as usize * width + x as usize];
                let sides = [
                    ((x, y - 1), (x, y), (x + 1, y)),
                    ((x + 1, y), (x + 1, y), (x + 1, y + 1)),
                    ((x, y + 1), (x + 1, y + 1), (x, y + 1)),
                    ((x - 1, y), (x, y + 1), (x, y)),
                ];
                for ((nx, ny), (ax, ay), (bx, by)) in sides {
                    if !inside(nx, ny) {
                        edges.push(BoundaryEdge { from: vertex(ax, ay), to: vertex(bx, by), component });
                    }
                }
            }
        }
        region_from_edges(&points, &edges)
    }

    /// A seeded xorshift generator: the tests' random cells and ranges.
    fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        }
    }

    #[test]
    fn rings_equal_the_per_side_tracer_on_random_grids() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
        // Widths around the 64-cell words, densities from sparse to nearly full: double
        // corners, enclosed pockets, rings touching themselves. In two cases of three, rows
        // repeat the row above (as a maze's corridors do), exactly or with a few cells
        // changed, where walls are passed over as walked from the rows above.
        for case in 0..300 {
            let (width, height) = (1 + (next() % 140) as usize, 1 + (next() % 70) as usize);
            let density = next() % 100;
            let mut cells: Vec<bool> = Vec::with_capacity(width * height);
            for y in 0..height {
                let repeat = y > 0 && case % 3 != 0 && !next().is_multiple_of(4);
                for x in 0..width {
                    let cell = if repeat { cells[(y - 1) * width + x] } else { next() % 100 < density };
                    let changed = repeat && case % 3 == 2 && next().is_multiple_of(32);
                    cells.push(cell != changed);
                }
            }
            let expected = traced_per_side(width, height, &cells);
            for value in [true, false] {
                let flipped: Vec<bool> = cells.iter().map(|&c| c == value).collect();
                let expected =
                    if value { expected.clone() } else { traced_per_side(width, height, &flipped) };
                let found = CellMask::new(width, height, &cells, value).trace();
                assert_eq!(
                    found, expected,
                    "case {case}: {width}x{height}, density {density}%, value {value}"
                );
            }
        }
    }

    /// Every Moving AI map of `../shared/bench-data` (when present; 512 x 512 maps with long
    /// straight walls, mazes, rooms, scattered obstacles): the free cells' rings and the
    /// blocked cells' equal the per-side tracer's.
    #[test]
    fn bench_data_maps_trace_as_the_per_side_tracer_does() {
        let data =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench-data/movingai");
        let Ok(entries) = std::fs::read_dir(&data) else {
            eprintln!("skipped: {} not found", data.display());
            return;
        };
        let mut maps: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension() == Some("map".as_ref()))
            .collect();
        maps.sort();
        for map in maps {
            let text = std::fs::read_to_string(&map).unwrap();
            let grid = crate::import::grid::Grid::parse_map(&text, &map.display().to_string()).unwrap();
            let (width, height) = (grid.width as usize, grid.height as usize);
            for free in [true, false] {
                let cells: Vec<bool> = grid.blocked.iter().map(|&b| b != free).collect();
                let found = CellMask::new(width, height, &grid.blocked, !free).trace();
                assert_eq!(found, traced_per_side(width, height, &cells), "{}: free {free}", map.display());
            }
        }
    }

    #[test]
    fn packing_and_side_ranges_equal_their_bit_by_bit_versions() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
        for _ in 0..2000 {
            // A whole word of cells (the unrolled way) a quarter of the time.
            let len = if next().is_multiple_of(4) { 64 } else { (next() % 65) as usize };
            let cells: Vec<bool> = (0..len).map(|_| next().is_multiple_of(3)).collect();
            for value in [true, false] {
                let plain = cells.iter().enumerate().fold(0u64, |w, (i, &c)| w | u64::from(c == value) << i);
                assert_eq!(pack(&cells, value), plain, "{cells:?} {value}");
            }
        }
        for _ in 0..2000 {
            let (width, height) = (1 + (next() % 9) as usize, 1 + (next() % 9) as usize);
            let mut sides = Sides::new(width, height);
            let count = sides.horizontal + (width + 1) * height;
            let mut plain = vec![false; count];
            for _ in 0..(next() % 6) {
                let lo = (next() as usize) % (count + 1);
                let hi = lo + (next() as usize) % (count + 1 - lo);
                sides.set_range(lo, hi);
                plain[lo..hi].iter_mut().for_each(|f| *f = true);
            }
            let flags: Vec<bool> = (0..count).map(|i| sides.traced[i / 64] >> (i % 64) & 1 == 1).collect();
            assert_eq!(flags, plain);
            let lo = (next() as usize) % (count + 1);
            let hi = lo + (next() as usize) % (count + 1 - lo);
            assert_eq!(sides.first_set(lo, hi), (lo..hi).find(|&i| plain[i]));
            assert_eq!(sides.last_set(lo, hi), (lo..hi).rev().find(|&i| plain[i]));
        }
    }

    #[test]
    fn a_double_corner_splits_a_ring_into_two_sharing_the_point() {
        // Two traced cells meeting at (1, 1), and a ring of cells around a pocket whose wall
        // touches itself there.
        let region = CellMask::new(2, 2, &[true, false, false, true], true).trace().unwrap();
        assert_eq!(region.polygons.len(), 2);
        let rows = ["#####", "#...#", "#.#.#", "#..##", "#####"];
        let cells: Vec<bool> = rows.concat().chars().map(|c| c == '#').collect();
        let region = CellMask::new(5, 5, &cells, false).trace().unwrap();
        assert_eq!(region.polygons.len(), 1);
        assert_eq!(region.area(), 7.0);
        let shared = Point::new(3.0, 3.0);
        let rings_through =
            region.polygons.iter().flat_map(|p| p.rings()).filter(|r| r.contains(&shared)).count();
        assert_eq!(rings_through, 2);
    }
}
