//! The grid searches a game starts from, on the Moving AI maps, through well-kept crates:
//!
//! - **A\***: the `pathfinding` crate's `astar` on the 8-connected grid of free cells, the
//!   octile distance as heuristic, a diagonal step only between two free cells (no corner
//!   cutting: the Moving AI rule, whose optimum is the scenario files' cost column).
//! - **Jump point search**: the `grid_pathfinding` crate (`PathingGrid`, 8-connected, its
//!   default improved pruning and connected components). Its diagonal steps may pass one
//!   blocked corner (the original JPS rule), so some of its paths are shorter than the
//!   no-corner-cutting optimum (counted and reported).
//!
//! A query's cells are those whose top-left corners are the scenario's points (the same
//! coordinates trinav, Detour and Polyanya get); a path from cell centre to cell centre has the
//! same length as the one between those corners, so the lengths compare with the any-angle
//! optimum like the others.

use grid_pathfinding::PathingGrid;
use grid_util::ValueGrid;
use grid_util::point::Point as Cell;
use pathfinding::prelude::astar;
use trinav::Point;
use trinav_bake::import::grid::Grid;

/// Fixed-point costs for `astar` (which needs an integer-like cost): a straight step and a
/// diagonal one (√2, to 1e-12 relative). The path length is computed exactly from its steps.
const STRAIGHT: u64 = 1 << 40;
const DIAGONAL: u64 = 1_554_944_255_988;

/// Both grid searches over one map.
pub struct GridSearches<'a> {
    grid: &'a Grid,
    jps: PathingGrid,
}

/// The octile length of a move of `dx`, `dy` cells.
fn octile(dx: i64, dy: i64) -> f64 {
    let (a, b) = (dx.abs().max(dy.abs()), dx.abs().min(dy.abs()));
    (a - b) as f64 + b as f64 * std::f64::consts::SQRT_2
}

/// The cell whose top-left corner is `p` (scenario points are whole numbers on grid maps).
fn cell(p: Point) -> (i64, i64) {
    (p.x as i64, p.y as i64)
}

impl<'a> GridSearches<'a> {
    /// Prepares both searches (the JPS grid, its jump points and components).
    pub fn new(grid: &'a Grid) -> Self {
        let mut jps = PathingGrid::new(grid.width as usize, grid.height as usize, false);
        for y in 0..grid.height as i64 {
            for x in 0..grid.width as i64 {
                if grid.is_blocked(x, y) {
                    jps.set(x as i32, y as i32, true);
                }
            }
        }
        jps.generate_components();
        Self { grid, jps }
    }

    /// The length of `pathfinding`'s A* path from the cell at `from` to the cell at `to`.
    pub fn astar(&self, from: Point, to: Point) -> Option<f64> {
        let (start, goal) = (cell(from), cell(to));
        let free = |x: i64, y: i64| !self.grid.is_blocked(x, y);
        let heuristic = |&(x, y): &(i64, i64)| {
            let (dx, dy) = ((x - goal.0).unsigned_abs(), (y - goal.1).unsigned_abs());
            let (a, b) = (dx.max(dy), dx.min(dy));
            (a - b) * STRAIGHT + b * DIAGONAL
        };
        let successors = |&(x, y): &(i64, i64)| {
            let mut next = Vec::with_capacity(8);
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let diagonal = dx != 0 && dy != 0;
                // A diagonal step needs both cells it passes between free.
                if free(x + dx, y + dy) && (!diagonal || (free(x + dx, y) && free(x, y + dy))) {
                    next.push(((x + dx, y + dy), if diagonal { DIAGONAL } else { STRAIGHT }));
                }
            }
            next
        };
        let (path, _) = astar(&start, successors, heuristic, |&c| c == goal)?;
        Some(path.windows(2).map(|w| octile(w[1].0 - w[0].0, w[1].1 - w[0].1)).sum())
    }

    /// The length of `grid_pathfinding`'s jump point search path between the same cells (its
    /// waypoints are the jump points; the path runs straight or diagonally between them).
    pub fn jps(&self, from: Point, to: Point) -> Option<f64> {
        let ((sx, sy), (gx, gy)) = (cell(from), cell(to));
        let start = Cell::new(sx as i32, sy as i32);
        let goal = Cell::new(gx as i32, gy as i32);
        if start == goal {
            return Some(0.0);
        }
        let waypoints = self.jps.get_waypoints_single_goal(start, goal, false)?;
        Some(waypoints.windows(2).map(|w| octile((w[1].x - w[0].x) as i64, (w[1].y - w[0].y) as i64)).sum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonal_cost_is_the_square_root_of_two() {
        let ratio = DIAGONAL as f64 / STRAIGHT as f64;
        assert!((ratio - std::f64::consts::SQRT_2).abs() < 1e-12);
    }
}
