//! Deterministic synthetic levels, for benchmarks and tests.
//!
//! [`scattered_obstacles`] fills a square room with a mix of obstacles: rectangles, concave
//! L and U shapes, convex polygons of 3 to 12 corners ("octagon-ish"), pairs of rectangles that
//! touch along an edge and pairs that overlap in a cross. Obstacles are placed uniformly at
//! random, so some of them overlap; about one in twenty straddles the room's outline. The room
//! grows with the request so that obstacle density stays roughly constant.
//!
//! All axis-aligned coordinates are multiples of 1/4 and the convex polygons' corners multiples
//! of 1/64, so every input point lies exactly on the boolean engine's fixed-point grid (see
//! [`crate::merge`]).
//!
//! ```
//! use trinav_bake::generate::{obstacle_vertex_count, scattered_obstacles};
//! let level = scattered_obstacles(500, 7);
//! assert_eq!(obstacle_vertex_count(&level), 500);
//! assert_eq!(level, scattered_obstacles(500, 7));
//! ```

use std::f64::consts::TAU;

use crate::level::{Level, PolygonInput};

/// Average number of corners per obstacle, used to size the room.
const MEAN_OBSTACLE_VERTICES: f64 = 6.6;
/// Side of the square of room area per obstacle, in world units.
const SPACING: f64 = 5.0;
/// Most corners of a convex obstacle (the last obstacle takes whatever count is left, up to
/// this).
const MAX_CONVEX_VERTICES: usize = 12;

/// A level with one square walkable room and obstacles with `obstacle_vertices` corners in
/// total (exactly; a request of 1 or 2 gives one triangle, 0 gives no obstacle), the same for
/// the same `seed`.
///
/// The room is `[0, side]²` with `side ≈ 5 · sqrt(obstacle_vertices / 6.6)`, i.e. about one
/// obstacle per 5 × 5 square. Obstacles are 1 to 5 units across. The level's `agent_radius` is
/// `None`: choose the radius in the bake settings.
pub fn scattered_obstacles(obstacle_vertices: usize, seed: u64) -> Level {
    let mut rng = SplitMix64::new(seed);
    let estimated_obstacles = (obstacle_vertices as f64 / MEAN_OBSTACLE_VERTICES).max(1.0);
    let side = (estimated_obstacles.sqrt() * SPACING).ceil().max(10.0);

    let mut obstacles = Vec::new();
    let mut remaining = obstacle_vertices;
    while remaining > 0 {
        let center = place(&mut rng, side);
        let shape = if remaining <= MAX_CONVEX_VERTICES {
            // The last obstacle uses up the count exactly.
            vec![convex(&mut rng, remaining.max(3))]
        } else {
            match rng.below(20) {
                0..=4 => vec![rect(&mut rng)],
                5..=8 => vec![turned(l_shape(&mut rng), &mut rng)],
                9..=11 => vec![turned(u_shape(&mut rng), &mut rng)],
                12..=15 => {
                    let corners = 5 + rng.below(6) as usize;
                    vec![convex(&mut rng, corners)]
                }
                16..=17 => touching_pair(&mut rng),
                _ => crossing_pair(&mut rng),
            }
        };
        for ring in shape {
            remaining = remaining.saturating_sub(ring.len());
            let outer = ring.into_iter().map(|[x, y]| [x + center[0], y + center[1]]).collect();
            obstacles.push(PolygonInput::new(outer));
        }
    }

    Level {
        walkable: vec![PolygonInput::rect(0.0, 0.0, side, side)],
        obstacles,
        agent_radius: None,
        links: Vec::new(),
    }
}

/// Total number of corners of the level's obstacles (outer rings and holes).
pub fn obstacle_vertex_count(level: &Level) -> usize {
    level.obstacles.iter().map(|p| p.outer.len() + p.holes.iter().map(Vec::len).sum::<usize>()).sum()
}

/// An obstacle centre: uniform in the room, except that one time in twenty it lies on the
/// outline, so the obstacle crosses it.
fn place(rng: &mut SplitMix64, side: f64) -> [f64; 2] {
    let mut p = [rng.quarters(0.0, side), rng.quarters(0.0, side)];
    if rng.below(20) == 0 {
        let axis = rng.below(2) as usize;
        p[axis] = if rng.below(2) == 0 { 0.0 } else { side };
    }
    p
}

/// A rectangle 1 to 4 units a side, centred near the origin.
fn rect(rng: &mut SplitMix64) -> Vec<[f64; 2]> {
    let (w, h) = (rng.quarters(1.0, 4.0), rng.quarters(1.0, 4.0));
    let (x0, y0) = (-snap(w / 2.0, 4.0), -snap(h / 2.0, 4.0));
    rect_ring(x0, y0, x0 + w, y0 + h)
}

fn rect_ring(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<[f64; 2]> {
    vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
}

/// An L: a `w × h` box minus its upper right corner; arms 0.75 to `w - 0.75` thick.
fn l_shape(rng: &mut SplitMix64) -> Vec<[f64; 2]> {
    let (w, h) = (rng.quarters(2.0, 5.0), rng.quarters(2.0, 5.0));
    let a = rng.quarters(0.75, h - 0.75);
    let b = rng.quarters(0.75, w - 0.75);
    vec![[0.0, 0.0], [w, 0.0], [w, a], [b, a], [b, h], [0.0, h]]
}

/// A U: a `w × h` box with a notch cut down from the top, leaving two arms and a base.
fn u_shape(rng: &mut SplitMix64) -> Vec<[f64; 2]> {
    let (w, h) = (rng.quarters(2.5, 5.0), rng.quarters(2.0, 5.0));
    let base = rng.quarters(0.5, h - 1.0);
    let arm = rng.quarters(0.5, w / 2.0 - 0.5);
    vec![[0.0, 0.0], [w, 0.0], [w, h], [w - arm, h], [w - arm, base], [arm, base], [arm, h], [0.0, h]]
}

/// `ring` turned by a random multiple of a quarter turn about its box centre (exact).
fn turned(ring: Vec<[f64; 2]>, rng: &mut SplitMix64) -> Vec<[f64; 2]> {
    let turns = rng.below(4);
    let (mx, my) = ring.iter().fold((0.0f64, 0.0f64), |(mx, my), p| (mx.max(p[0]), my.max(p[1])));
    let (cx, cy) = (snap(mx / 2.0, 4.0), snap(my / 2.0, 4.0));
    ring.into_iter()
        .map(|[x, y]| {
            let (x, y) = (x - cx, y - cy);
            match turns {
                0 => [x, y],
                1 => [-y, x],
                2 => [-x, -y],
                _ => [y, -x],
            }
        })
        .collect()
}

/// A convex polygon with `corners` corners on a circle of radius 0.75 to 2, the angles
/// jittered by up to a fifth of the step either way, corners snapped to multiples of 1/64.
fn convex(rng: &mut SplitMix64, corners: usize) -> Vec<[f64; 2]> {
    let radius = 0.75 + 1.25 * rng.unit();
    let start = rng.unit() * TAU;
    let step = TAU / corners as f64;
    (0..corners)
        .map(|i| {
            let angle = start + step * (i as f64 + 0.4 * (rng.unit() - 0.5));
            [snap(radius * angle.cos(), 64.0), snap(radius * angle.sin(), 64.0)]
        })
        .collect()
}

/// Two rectangles sharing part of a vertical edge (touching, not overlapping).
fn touching_pair(rng: &mut SplitMix64) -> Vec<Vec<[f64; 2]>> {
    let (w1, h1) = (rng.quarters(1.0, 3.0), rng.quarters(1.0, 4.0));
    let (w2, h2) = (rng.quarters(1.0, 3.0), rng.quarters(1.0, 4.0));
    let y2 = rng.quarters(0.25 - h2, h1 - 0.25);
    vec![rect_ring(-w1, 0.0, 0.0, h1), rect_ring(0.0, y2, w2, y2 + h2)]
}

/// Two bars crossing each other (overlapping).
fn crossing_pair(rng: &mut SplitMix64) -> Vec<Vec<[f64; 2]>> {
    let (long1, thick1) = (rng.quarters(2.0, 5.0), rng.quarters(0.5, 1.5));
    let (long2, thick2) = (rng.quarters(2.0, 5.0), rng.quarters(0.5, 1.5));
    let (x0, y0) = (-snap(long1 / 2.0, 4.0), -snap(thick1 / 2.0, 4.0));
    let (x1, y1) = (-snap(thick2 / 2.0, 4.0), -snap(long2 / 2.0, 4.0));
    vec![rect_ring(x0, y0, x0 + long1, y0 + thick1), rect_ring(x1, y1, x1 + thick2, y1 + long2)]
}

/// `v` rounded to a multiple of `1 / per_unit`.
fn snap(v: f64, per_unit: f64) -> f64 {
    (v * per_unit).round() / per_unit
}

/// The splitmix64 generator (Steele, Lea, Flood 2014): tiny, fast, deterministic, and good
/// enough for placing obstacles and drawing test and benchmark queries.
///
/// ```
/// use trinav_bake::generate::SplitMix64;
/// let mut rng = SplitMix64::new(7);
/// let u = rng.unit();
/// assert!((0.0..1.0).contains(&u));
/// assert_eq!(SplitMix64::new(7).unit(), u);
/// ```
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `0..n` (the modulo bias is negligible for small `n`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Uniform in the box `[min, min + size)`.
    pub fn point_in(&mut self, min: trinav::Point, (w, h): (f64, f64)) -> trinav::Point {
        trinav::Point::new(min.x + w * self.unit(), min.y + h * self.unit())
    }

    /// Uniform in `lo + k/4` for the `k >= 0` with `lo + k/4 <= hi` (`lo` itself if none).
    fn quarters(&mut self, lo: f64, hi: f64) -> f64 {
        let steps = ((hi - lo) * 4.0 + 1e-9).floor().max(0.0) as u64;
        lo + self.below(steps + 1) as f64 / 4.0
    }
}

#[cfg(test)]
mod tests {
    use trinav::{BakeSettings, Triangulation};

    use super::*;
    use crate::{bake, validate::validate};

    #[test]
    fn vertex_count_matches_the_request() {
        for n in [3, 10, 100, 1_000, 2_500, 10_000] {
            let count = obstacle_vertex_count(&scattered_obstacles(n, 1));
            assert!(count.abs_diff(n) * 20 <= n, "asked {n}, got {count}");
        }
        assert!(scattered_obstacles(0, 1).obstacles.is_empty());
    }

    #[test]
    fn same_seed_same_level_other_seed_other_level() {
        assert_eq!(scattered_obstacles(1_000, 42), scattered_obstacles(1_000, 42));
        assert_ne!(scattered_obstacles(1_000, 42), scattered_obstacles(1_000, 43));
    }

    #[test]
    fn density_stays_roughly_constant() {
        let side = |n| scattered_obstacles(n, 3).walkable[0].outer[2][0];
        let (small, large): (f64, f64) = (side(1_000), side(10_000));
        let ratio = (large * large) / (small * small);
        assert!((8.0..12.0).contains(&ratio), "area ratio {ratio}");
    }

    #[test]
    fn obstacles_are_valid_and_some_cross_the_outline() {
        let level = scattered_obstacles(1_000, 5);
        validate(&level).expect("every generated ring is simple");
        let side = level.walkable[0].outer[2][0];
        let crossing = level
            .obstacles
            .iter()
            .filter(|p| {
                let inside = |q: &[f64; 2]| q.iter().all(|c| (0.0..=side).contains(c));
                p.outer.iter().any(inside) && !p.outer.iter().all(inside)
            })
            .count();
        assert!(crossing > 0);
    }

    #[test]
    fn a_thousand_vertices_bake() {
        let level = scattered_obstacles(1_000, 1);
        for triangulation in [Triangulation::EarClipping, Triangulation::ConstrainedDelaunay] {
            for radius in [0.0, 0.5] {
                let settings =
                    BakeSettings::default().with_triangulation(triangulation).with_agent_radius(radius);
                let baked = bake(&level, &settings)
                    .unwrap_or_else(|e| panic!("{triangulation:?}, radius {radius}: {e}"));
                assert!(baked.mesh.triangle_count() > 500);
            }
        }
    }
}
