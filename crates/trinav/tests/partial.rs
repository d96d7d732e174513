//! Partial paths (`PathOptions::partial`) and node budgets (`PathOptions::node_budget`) in both
//! modes, on the committed fixture meshes: the end of a partial path is checked against the
//! nearest point of the start's island found by brute force, its optimal length against a
//! visibility graph.

mod common;

use common::*;
use trinav::{NavMesh, PartialReason, Path, PathError, PathMode, PathOptions, PathScratch, Point};

const MODES: [PathMode; 2] = [PathMode::Fast, PathMode::Optimal];

/// Checks a partial path towards `goal` that gave up for `reason`: it is valid, ends at the
/// point of the start's island nearest the goal, and in optimal mode is as short as the
/// visibility graph's path to that point.
fn check_nearest_end(
    mesh: &NavMesh,
    graph: &VisibilityGraph,
    from: Point,
    goal: Point,
    mode: PathMode,
    path: &Path,
) {
    let end = path.end().unwrap();
    check_path(mesh, from, end, path);
    // An agent that walks there can ask for its next path from there.
    assert!(mesh.locate(end).is_some(), "the end {end:?} is off the mesh");
    let island = mesh.island(mesh.locate(from).unwrap());
    let nearest = brute_nearest_distance(mesh, goal, |t| mesh.island(t) == island);
    assert_close(
        end.distance(goal),
        nearest,
        &format!("{from:?} -> {goal:?}: distance from the end to the goal"),
    );
    if mode == PathMode::Optimal {
        let shortest = graph.shortest(mesh, from, end).expect("the end is on the start's island");
        assert_close(path.length, shortest, &format!("{from:?} -> {end:?}: optimal length"));
    }
}

#[test]
fn unreachable_or_off_mesh_goals_give_the_path_to_the_nearest_point_of_the_start_island() {
    for name in ["courtyard_cdt", "courtyard_ear", "town_cdt"] {
        let mesh = fixture(name);
        let graph = VisibilityGraph::new(&mesh);
        let mut rng = rng(21);
        let (mut unreachable, mut off_mesh, mut reached) = (0, 0, 0);
        for _ in 0..60 {
            let from = random_point_on_mesh(&mut rng, &mesh);
            let goal = random_point(&mut rng, &mesh, 0.2);
            for mode in MODES {
                let options = PathOptions::default().with_mode(mode);
                let mut scratch = PathScratch::new();
                let plain = mesh.find_path_with(from, goal, &options, &mut scratch);
                let partial =
                    mesh.find_path_with(from, goal, &options.with_partial(true), &mut scratch).unwrap();
                match plain {
                    Ok(path) => {
                        assert_eq!(partial, path, "a reachable goal: the same path, not partial");
                        assert_eq!(partial.partial, None);
                        reached += 1;
                    }
                    Err(PathError::Unreachable) => {
                        assert_eq!(partial.partial, Some(PartialReason::Unreachable));
                        check_nearest_end(&mesh, &graph, from, goal, mode, &partial);
                        unreachable += 1;
                    }
                    Err(PathError::OffMesh { .. }) => {
                        assert_eq!(partial.partial, Some(PartialReason::GoalOffMesh));
                        check_nearest_end(&mesh, &graph, from, goal, mode, &partial);
                        off_mesh += 1;
                    }
                    Err(e) => panic!("{name}: {e}"),
                }
            }
        }
        assert!(off_mesh > 10 && reached > 10, "{name}: {off_mesh} off the mesh, {reached} reached");
        if name.starts_with("courtyard") {
            assert!(unreachable > 5, "{name}: {unreachable} on another island");
        }
    }
}

#[test]
fn the_courtyard_from_outside_ends_at_the_keep_wall() {
    // courtyard.json: the keep's outer wall is x = 15 inflated by 0.5; from outside, the
    // courtyard point (25, 26) is nearest at (14.5, 26), in plain sight of (11, 25). (The
    // point (25, 25) would be as near the wall y = 14.5 below it: a tie, broken by triangle id.)
    for mesh in [fixture("courtyard_cdt"), fixture("courtyard_ear")] {
        for mode in MODES {
            let options = PathOptions::default().with_mode(mode).with_partial(true);
            let path =
                mesh.find_path_with(p(11., 25.), p(25., 26.), &options, &mut PathScratch::new()).unwrap();
            assert_eq!(path.partial, Some(PartialReason::Unreachable));
            assert_eq!(path.points, vec![p(11., 25.), p(14.5, 26.)], "{mode:?}");
        }
    }
}

#[test]
fn partial_paths_keep_the_errors_of_bad_starts_and_non_finite_goals() {
    let mesh = fixture("courtyard_cdt");
    for mode in MODES {
        let options = PathOptions::default().with_mode(mode).with_partial(true);
        let mut scratch = PathScratch::new();
        let run = |from, to, scratch: &mut PathScratch| mesh.find_path_with(from, to, &options, scratch);
        assert!(matches!(run(p(-5., 5.), p(2., 2.), &mut scratch), Err(PathError::OffMesh { .. })));
        assert!(matches!(run(p(2., 2.), p(f64::NAN, 2.), &mut scratch), Err(PathError::NonFinite { .. })));
        assert!(matches!(run(p(2., 2.), p(1e300, 2.), &mut scratch), Err(PathError::NonFinite { .. })));
        // Snapping and partial paths together: an off-mesh start snaps, the goal in the other
        // island gives a partial path.
        let snapped =
            mesh.find_path_with(p(-5., 5.), p(25., 25.), &options.with_snap(true), &mut scratch).unwrap();
        assert_eq!(snapped.partial, Some(PartialReason::Unreachable));
        assert_eq!(snapped.points[0], mesh.nearest_point(p(-5., 5.)).unwrap().0);
    }
}

/// Random connected pairs on a 1,000-obstacle-vertex level: with its own count of expanded nodes
/// as the budget, a query gives the unbudgeted answer; with less, it never expands more than
/// the budget and either still finds a path (fast mode may have met the goal already) or runs
/// out: an error, or with partial paths on, a valid path that ends no farther from the goal
/// than the start.
#[test]
fn node_budgets_bound_the_search_in_both_modes() {
    let mesh = fixture("generated_1k_cdt");
    let mut rng = rng(22);
    let mut scratch = PathScratch::new();
    let mut ran_out = [0; 2];
    for _ in 0..80 {
        let (from, to) = (random_point_on_mesh(&mut rng, &mesh), random_point_on_mesh(&mut rng, &mesh));
        for (m, mode) in MODES.into_iter().enumerate() {
            let options = PathOptions::default().with_mode(mode);
            let Ok(full) = mesh.find_path_with(from, to, &options, &mut scratch) else { continue };
            let needed = scratch.expanded_nodes();
            let again =
                mesh.find_path_with(from, to, &options.with_node_budget(needed), &mut scratch).unwrap();
            assert_eq!(again, full, "{mode:?}: a budget of exactly the nodes needed");
            assert_eq!(scratch.expanded_nodes(), needed, "{mode:?}: {from:?} -> {to:?}");
            for budget in [0, needed / 4, needed / 2, needed.saturating_sub(1)] {
                if needed == 0 {
                    break;
                }
                let options = options.with_node_budget(budget);
                let result = mesh.find_path_with(from, to, &options, &mut scratch);
                assert!(
                    scratch.expanded_nodes() <= budget,
                    "{mode:?}: {} > {budget}",
                    scratch.expanded_nodes()
                );
                let partial =
                    mesh.find_path_with(from, to, &options.with_partial(true), &mut scratch).unwrap();
                match result {
                    Ok(path) => {
                        assert_eq!(mode, PathMode::Fast, "optimal mode returns only proven paths");
                        assert_eq!(partial, path);
                        check_path(&mesh, from, to, &path);
                    }
                    Err(PathError::BudgetExhausted { budget: b }) => {
                        assert_eq!(b, budget);
                        ran_out[m] += 1;
                        assert_eq!(partial.partial, Some(PartialReason::BudgetExhausted));
                        let end = partial.end().unwrap();
                        check_path(&mesh, from, end, &partial);
                        assert!(
                            end.distance(to) <= from.distance(to),
                            "{mode:?}: the partial path leads away"
                        );
                    }
                    Err(e) => panic!("{mode:?}: {e}"),
                }
            }
        }
    }
    assert!(ran_out.iter().all(|&n| n > 20), "budgets that ran out: {ran_out:?}");
}

#[test]
fn paths_without_a_search_expand_nothing_and_ignore_the_budget() {
    let mesh = fixture("courtyard_cdt");
    for mode in MODES {
        let options = PathOptions::default().with_mode(mode).with_node_budget(0);
        let mut scratch = PathScratch::new();
        // In sight of each other: the straight segment.
        let straight = mesh.find_path_with(p(2., 2.), p(2., 12.), &options, &mut scratch).unwrap();
        assert_eq!((straight.points.len(), scratch.expanded_nodes()), (2, 0));
        // On different islands: no search at all.
        assert_eq!(
            mesh.find_path_with(p(2., 2.), p(25., 25.), &options, &mut scratch),
            Err(PathError::Unreachable)
        );
        assert_eq!(scratch.expanded_nodes(), 0);
    }
}

/// A goal off the mesh with a budget too small to reach its nearest point: the partial path
/// says the budget ran out and ends no farther from that nearest point than the start (found
/// by fuzzing: `fuzz/regressions/query/partial_budget_heads_for_the_nearest_point`).
#[test]
fn budgets_and_off_mesh_goals_compose() {
    let mesh = fixture("room_pillars_cdt");
    let b = mesh.bounds();
    let (from, goal) = (p(b.min.x + 1.0, b.min.y + 1.0), p(b.max.x + 5.0, b.max.y + 5.0));
    assert!(mesh.locate(from).is_some() && mesh.locate(goal).is_none());
    for mode in MODES {
        let options = PathOptions::default().with_mode(mode).with_partial(true);
        let mut scratch = PathScratch::new();
        let unbounded = mesh.find_path_with(from, goal, &options, &mut scratch).unwrap();
        assert_eq!(unbounded.partial, Some(PartialReason::GoalOffMesh));
        let needed = scratch.expanded_nodes();
        assert!(needed > 2, "{mode:?}: a search of {needed} nodes");
        let bounded =
            mesh.find_path_with(from, goal, &options.with_node_budget(needed / 2), &mut scratch).unwrap();
        assert_eq!(bounded.partial, Some(PartialReason::BudgetExhausted), "{mode:?}");
        let end = bounded.end().unwrap();
        check_path(&mesh, from, end, &bounded);
        // It heads for the goal's nearest point (where the unbounded path ends), not the goal.
        let target = unbounded.end().unwrap();
        assert!(
            end.distance(target) <= from.distance(target),
            "{mode:?}: {end:?} leads away from {target:?}"
        );
    }
}

/// A query that runs out of budget in the middle of a chain of single successors left that
/// successor in the scratch, and the next query on the same scratch searched from it too
/// (found by `node_budgets_bound_the_search_in_both_modes`: 1,444 nodes instead of 1,442).
#[test]
fn a_query_after_one_that_ran_out_answers_as_on_a_fresh_scratch() {
    let mesh = fixture("generated_1k_cdt");
    let mut rng = rng(23);
    let options = PathOptions::default().with_mode(PathMode::Optimal);
    let mut used = PathScratch::new();
    for _ in 0..40 {
        let (from, to) = (random_point_on_mesh(&mut rng, &mesh), random_point_on_mesh(&mut rng, &mesh));
        for budget in [1, 2, 3, 5, 8, 13] {
            let _ = mesh.find_path_with(from, to, &options.with_node_budget(budget), &mut used);
            let (a, b) = (random_point_on_mesh(&mut rng, &mesh), random_point_on_mesh(&mut rng, &mesh));
            let after = mesh.find_path_with(a, b, &options, &mut used);
            let after_nodes = used.expanded_nodes();
            let mut fresh = PathScratch::new();
            assert_eq!(after, mesh.find_path_with(a, b, &options, &mut fresh));
            assert_eq!(after_nodes, fresh.expanded_nodes(), "{a:?} -> {b:?} after a budget of {budget}");
        }
    }
}

/// Checks each walked piece of a path with links (the pieces between link steps) as
/// `check_path` checks a path without: on the mesh, length the sum of the walked segments.
fn check_linked_path(mesh: &NavMesh, from: Point, end: Point, path: &Path) {
    assert_eq!((path.points.first(), path.points.last()), (Some(&from), Some(&end)), "{path:?}");
    let mut start = 0;
    let mut walked = 0.0;
    let pieces = path.links.iter().map(|step| step.point).chain([path.points.len() - 1]);
    for (k, last) in pieces.enumerate() {
        let piece = Path { points: path.points[start..=last].to_vec(), ..Path::default() };
        let length: f64 = piece.points.windows(2).map(|w| w[0].distance(w[1])).sum();
        check_path(mesh, piece.points[0], path.points[last], &Path { length, ..piece });
        walked += length;
        if let Some(step) = path.links.get(k) {
            let link = mesh.link(step.link).expect("a link the mesh holds");
            assert_eq!((link.from, link.to), (path.points[last], path.points[last + 1]), "{path:?}");
        }
        start = last + 1;
    }
    assert_close(path.length, walked, "the walked length");
}

/// Courtyard with a one-way link from outside the keep into its courtyard (another island):
/// from outside, a partial path heads for the nearest point of both islands, taking the link
/// when the courtyard's is nearer; from the courtyard, for the nearest point of the courtyard
/// alone (the link leads one way). The end is checked against the brute-force nearest point of
/// the islands reached, the optimal cost against the optimal path to that end.
#[test]
fn partial_paths_follow_links_to_the_islands_they_reach() {
    use std::collections::HashSet;
    let mut mesh = fixture("courtyard_cdt");
    let (outside, courtyard) = (p(11., 25.), p(25., 25.));
    let island_of = |mesh: &NavMesh, q: Point| mesh.island(mesh.locate(q).unwrap());
    let (outer_island, inner_island) = (island_of(&mesh, outside), island_of(&mesh, courtyard));
    assert_ne!(outer_island, inner_island);
    mesh.add_link(trinav::OffMeshLink::new(outside, courtyard).with_cost(2.0)).unwrap();
    let mut rng = rng(23);
    let (mut through_link, mut checked) = (0, 0);
    for _ in 0..120 {
        let from = random_point_on_mesh(&mut rng, &mesh);
        let goal = random_point(&mut rng, &mesh, 0.2);
        let start_island = island_of(&mesh, from);
        let mut reached = HashSet::from([start_island]);
        if start_island == outer_island {
            reached.insert(inner_island);
        }
        for mode in MODES {
            let options = PathOptions::default().with_mode(mode);
            let mut scratch = PathScratch::new();
            if mesh.find_path_with(from, goal, &options, &mut scratch).is_ok() {
                continue;
            }
            let path = mesh.find_path_with(from, goal, &options.with_partial(true), &mut scratch).unwrap();
            assert!(path.partial.is_some(), "{from:?} -> {goal:?}");
            let end = path.end().unwrap();
            check_linked_path(&mesh, from, end, &path);
            let nearest = brute_nearest_distance(&mesh, goal, |t| reached.contains(&mesh.island(t)));
            assert_close(end.distance(goal), nearest, &format!("{from:?} -> {goal:?}: the end's distance"));
            let optimal = PathOptions::default().with_mode(PathMode::Optimal);
            let best = mesh.find_path_with(from, end, &optimal, &mut scratch).unwrap();
            if mode == PathMode::Optimal {
                assert_close(path.cost, best.cost, &format!("{from:?} -> {end:?}: cost"));
            } else {
                assert!(path.cost >= best.cost * (1.0 - 1e-9), "{from:?} -> {end:?}");
            }
            through_link += usize::from(!path.links.is_empty());
            checked += 1;
        }
    }
    assert!(checked > 40 && through_link > 5, "{checked} partial paths, {through_link} through the link");
}
