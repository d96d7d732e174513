//! Grid terrain: Moving AI letters `S`, `W`, `T` and bitmap colours made walkable ground of area
//! types. The oracles read the map text (or the pixels), never the bake: the area of each type
//! is its cell count, each triangle lies in cells of its own type, the walkable ground is the
//! same as a plain map's, and paths across a strip of one type have known optimal costs.

use trinav::{
    AreaCosts, AreaId, BakeSettings, NavMesh, PathError, PathMode, PathOptions, PathScratch, Point,
};
use trinav::{TriangleId, Triangulation};
use trinav_bake::generate::SplitMix64;
use trinav_bake::import::grid::Grid;
use trinav_bake::import::terrain::{GridTerrain, TerrainError, TerrainGrid};
use trinav_bake::import::{
    ImportError, ImportOptions, InputFormat, Source, TerrainOption, bake_source, import,
};

const METHODS: [Triangulation; 2] = [Triangulation::EarClipping, Triangulation::ConstrainedDelaunay];

fn map_text(rows: &[String]) -> String {
    format!("type octile\nheight {}\nwidth {}\nmap\n{}\n", rows.len(), rows[0].len(), rows.join("\n"))
}

/// The type a cell's letter has under `letters` (`None`: blocked), read from the text.
fn letter_type(letter: u8, letters: &[(char, u8)]) -> Option<AreaId> {
    match letter {
        b'.' | b'G' => Some(AreaId(0)),
        b'S' | b'W' | b'T' => letters.iter().find(|(l, _)| *l as u8 == letter).map(|&(_, a)| AreaId(a)),
        _ => None,
    }
}

fn terrain(letters: &[(char, u8)]) -> GridTerrain {
    letters.iter().fold(GridTerrain::default(), |t, &(l, a)| t.with_letter(l, AreaId(a)).unwrap())
}

fn bake_map(rows: &[String], letters: &[(char, u8)], settings: &BakeSettings) -> NavMesh {
    let grid = TerrainGrid::parse_map(&map_text(rows), "test.map", &terrain(letters)).unwrap();
    bake_source(&Source::Terrain(grid), settings).unwrap().mesh
}

/// The same map with every typed letter written as plain ground (`.`) and the others as
/// they are: the same walkable cells, no types.
fn plain(rows: &[String], letters: &[(char, u8)]) -> Vec<String> {
    let typed = |c: char| letters.iter().any(|&(l, _)| l == c);
    rows.iter().map(|r| r.chars().map(|c| if typed(c) { '.' } else { c }).collect()).collect()
}

fn bake_plain(rows: &[String], settings: &BakeSettings) -> NavMesh {
    let grid = Grid::parse_map(&map_text(rows), "plain.map").unwrap();
    bake_source(&Source::Grid(grid), settings).unwrap().mesh
}

fn random_map(rng: &mut SplitMix64) -> Vec<String> {
    let (width, height) = (3 + rng.next_u64() % 18, 3 + rng.next_u64() % 10);
    // Runs of a letter make larger pieces, with double corners and enclosed pockets too.
    const LETTERS: &[u8] = b"...........GSSSWWWWTT@@O";
    let mut rows: Vec<Vec<u8>> = Vec::new();
    for y in 0..height as usize {
        let mut row = Vec::new();
        for x in 0..width as usize {
            let letter = match rng.next_u64() % 3 {
                0 if x > 0 => row[x - 1],
                1 if y > 0 => rows[y - 1][x],
                _ => LETTERS[(rng.next_u64() % LETTERS.len() as u64) as usize],
            };
            row.push(letter);
        }
        rows.push(row);
    }
    rows.into_iter().map(|r| String::from_utf8(r).unwrap()).collect()
}

/// Random letter types: each of S, W, T typed or not, two letters sometimes sharing a type.
fn random_letters(rng: &mut SplitMix64) -> Vec<(char, u8)> {
    let mut letters = Vec::new();
    for letter in ['S', 'W', 'T'] {
        if !rng.next_u64().is_multiple_of(4) {
            letters.push((letter, 1 + (rng.next_u64() % 3) as u8 * 20));
        }
    }
    letters
}

/// A point inside triangle `t` (weights 0.5, 0.3, 0.2), away from the cell lines unless the
/// triangle lies along one.
fn sample(mesh: &NavMesh, t: TriangleId) -> Point {
    let [a, b, c] = mesh.triangle_points(t);
    Point::new(0.5 * a.x + 0.3 * b.x + 0.2 * c.x, 0.5 * a.y + 0.3 * b.y + 0.2 * c.y)
}

/// The type of the cell holding `p` (from the map text), `None` when `p` is within `margin` of
/// a cell line (undecided).
fn cell_type(rows: &[String], letters: &[(char, u8)], p: Point, margin: f64) -> Option<Option<AreaId>> {
    let near_line = |v: f64| (v - v.round()).abs() <= margin;
    if near_line(p.x) || near_line(p.y) {
        return None;
    }
    let (x, y) = (p.x.floor() as usize, p.y.floor() as usize);
    Some(letter_type(rows[y].as_bytes()[x], letters))
}

#[test]
fn each_type_covers_exactly_its_cells_and_each_triangle_lies_in_its_type() {
    let mut rng = SplitMix64::new(13);
    let mut typed_triangles = 0;
    for case in 0..60 {
        let rows = random_map(&mut rng);
        let letters = random_letters(&mut rng);
        let mut cells = [0usize; AreaId::COUNT];
        for row in &rows {
            for letter in row.bytes() {
                if let Some(area) = letter_type(letter, &letters) {
                    cells[area.index()] += 1;
                }
            }
        }
        if cells.iter().sum::<usize>() == 0 {
            continue;
        }
        let reference = bake_plain(&plain(&rows, &letters), &BakeSettings::default());
        for method in METHODS {
            let settings = BakeSettings::default().with_triangulation(method);
            let mesh = bake_map(&rows, &letters, &settings);
            let found: Vec<(AreaId, f64)> = mesh.area_types().iter().map(|s| (s.area, s.size)).collect();
            let expected: Vec<(AreaId, f64)> = (cells.iter().enumerate())
                .filter(|&(_, &n)| n > 0)
                .map(|(a, &n)| (AreaId(a as u8), n as f64))
                .collect();
            assert_eq!(found, expected, "case {case} {method:?}: area per type\n{}", rows.join("\n"));
            // The same ground as the plain map: area and connectivity.
            assert_eq!(mesh.area(), reference.area(), "case {case}");
            assert_eq!(mesh.island_count(), reference.island_count(), "case {case}: islands");
            for t in (0..mesh.triangle_count()).map(TriangleId::from_index) {
                let p = sample(&mesh, t);
                let Some(cell) = cell_type(&rows, &letters, p, 0.0) else { continue };
                assert_eq!(cell, Some(mesh.area_id(t)), "case {case} {method:?}: triangle {t:?} at {p:?}");
                typed_triangles += usize::from(mesh.area_id(t).0 != 0);
            }
        }
    }
    assert!(typed_triangles > 500, "the maps hold typed ground ({typed_triangles} triangles)");
}

#[test]
fn with_an_agent_radius_the_types_follow_the_cells_and_the_ground_is_the_plain_maps() {
    let mut rng = SplitMix64::new(31);
    let settings = BakeSettings::default().with_agent_radius(0.3);
    let mut checked = 0;
    for case in 0..12 {
        let rows = random_map(&mut rng);
        let letters = random_letters(&mut rng);
        let Ok(reference) = bake_source(
            &Source::Grid(Grid::parse_map(&map_text(&plain(&rows, &letters)), "p.map").unwrap()),
            &settings,
        ) else {
            continue; // nothing walkable once inflated
        };
        let mesh = bake_map(&rows, &letters, &settings);
        let relative = (mesh.area() - reference.mesh.area()).abs() / reference.mesh.area();
        assert!(relative < 1e-9, "case {case}: area {} vs {}", mesh.area(), reference.mesh.area());
        assert_eq!(mesh.island_count(), reference.mesh.island_count(), "case {case}: islands");
        for t in (0..mesh.triangle_count()).map(TriangleId::from_index) {
            // Where types meet by an inflated corner the boundary is rounded to the boolean
            // engine's grid (about 1e-8 here): points that near a cell line are undecided.
            let p = sample(&mesh, t);
            let Some(cell) = cell_type(&rows, &letters, p, 1e-6) else { continue };
            assert_eq!(cell, Some(mesh.area_id(t)), "case {case}: triangle {t:?} at {p:?}");
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked} triangles checked");
}

/// A corridor 12 cells wide and 5 high with a one-cell strip of water at x = 5 over rows 0-3
/// (row 4 is ground: the way round), or over every row.
fn strip(gap: bool) -> Vec<String> {
    let row = |water: bool| if water { ".....W......" } else { "............" }.to_string();
    (0..5).map(|y| row(y < 4 || !gap)).collect()
}

fn path_cost(
    mesh: &NavMesh,
    mode: PathMode,
    costs: AreaCosts,
    from: Point,
    to: Point,
) -> Result<f64, PathError> {
    let options = PathOptions::default().with_mode(mode).with_area_costs(costs);
    Ok(mesh.find_path_with(from, to, &options, &mut PathScratch::new())?.cost)
}

#[test]
fn crossing_the_water_or_going_round_costs_the_known_optimum() {
    let (from, to) = (Point::new(1.0, 0.5), Point::new(10.0, 0.5));
    // Round the strip: via its corners (5, 4) and (6, 4), along the water's edge (the cheaper
    // side's cost): all at cost 1.
    let round = 2.0 * (16.0f64 + 3.5 * 3.5).sqrt() + 1.0;
    let water = |c: f64| AreaCosts::default().with_cost(AreaId(3), c).unwrap();
    for gap in [true, false] {
        let mesh = bake_map(&strip(gap), &[('W', 3)], &BakeSettings::default());
        for cost in [0.5f64, 2.0, 3.0, 5.0] {
            // Across: 8 on the ground and 1 in the water at the least; the straight line does it.
            let across = 8.0 + cost;
            let best = if gap { across.min(round) } else { across };
            let optimal = path_cost(&mesh, PathMode::Optimal, water(cost), from, to).unwrap();
            let fast = path_cost(&mesh, PathMode::Fast, water(cost), from, to).unwrap();
            assert!(
                optimal >= best * (1.0 - 1e-9) && optimal <= best * 1.001,
                "gap {gap} cost {cost}: {optimal} vs {best}"
            );
            assert!(
                fast >= best * (1.0 - 1e-9) && fast <= best * 1.05,
                "gap {gap} cost {cost}: fast {fast} vs {best}"
            );
        }
        // Excluded water is a wall: round it exactly, or no way at all.
        let tank = AreaCosts::default().with_excluded(AreaId(3));
        for mode in [PathMode::Optimal, PathMode::Fast] {
            match path_cost(&mesh, mode, tank, from, to) {
                Ok(cost) if gap => assert!(
                    (cost - round).abs() < 1e-9 * round || mode == PathMode::Fast && cost < round * 1.05,
                    "{mode:?}: {cost} vs {round}"
                ),
                Err(PathError::Unreachable) if !gap => {}
                other => panic!("gap {gap} {mode:?}: {other:?}"),
            }
        }
    }
    // Without a type the water is blocked, as in the benchmarks: round it, or no way at all.
    let blocked = bake_plain(&strip(true), &BakeSettings::default());
    let length = path_cost(&blocked, PathMode::Optimal, AreaCosts::default(), from, to).unwrap();
    assert!((length - round).abs() < 1e-9 * round, "{length} vs {round}");
    let walled = bake_plain(&strip(false), &BakeSettings::default());
    assert_eq!(walled.island_count(), 2);
    assert_eq!(
        path_cost(&walled, PathMode::Fast, AreaCosts::default(), from, to),
        Err(PathError::Unreachable)
    );
}

#[test]
fn bitmap_colours_tag_their_pixels() {
    // White ground, black walls, a blue river (dark: blocked unless tagged), red mud, and a
    // green pixel that is bright but untagged (ground, type 0).
    let rows = ["WWBWWW", "WKBWRR", "WKBWRR", "WWBWGW"];
    let colour = |c: u8| match c {
        b'W' => [255, 255, 255],
        b'K' => [0, 0, 0],
        b'B' => [0, 0, 200],
        b'R' => [200, 0, 0],
        _ => [0, 255, 0],
    };
    let mut image = image::RgbImage::new(6, 4);
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.bytes().enumerate() {
            image.put_pixel(x as u32, y as u32, image::Rgb(colour(c)));
        }
    }
    let dir = std::env::temp_dir().join(format!("trinav-terrain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("river.png");
    image.save(&path).unwrap();
    let terrain = GridTerrain::default()
        .with_color([0, 0, 200], AreaId(3))
        .unwrap()
        .with_color([200, 0, 0], AreaId(2))
        .unwrap();
    let options = ImportOptions::default().with_terrain(terrain);
    let source = import(&path, None, &options).unwrap();
    let mesh = bake_source(&source, &BakeSettings::default()).unwrap().mesh;
    let found: Vec<(AreaId, f64)> = mesh.area_types().iter().map(|s| (s.area, s.size)).collect();
    assert_eq!(found, vec![(AreaId(0), 14.0), (AreaId(2), 4.0), (AreaId(3), 4.0)]);
    // Without the colours, the river is dark: blocked, and it cuts the picture in two.
    let plain =
        bake_source(&import(&path, None, &ImportOptions::default()).unwrap(), &BakeSettings::default())
            .unwrap()
            .mesh;
    assert_eq!((plain.area(), plain.island_count()), (14.0, 2));
    // Colours on a map, letters on a bitmap: refused, naming the file.
    let letters =
        ImportOptions::default().with_terrain(GridTerrain::default().with_letter('S', AreaId(1)).unwrap());
    match import(&path, None, &letters) {
        Err(
            e @ ImportError::TerrainNotApplicable {
                option: TerrainOption::Letters,
                format: InputFormat::Image,
                ..
            },
        ) => {
            assert!(e.to_string().contains("river.png"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn terrain_settings_are_checked() {
    let t = GridTerrain::default();
    assert_eq!(t.clone().with_letter('@', AreaId(2)), Err(TerrainError::Letter { letter: '@' }));
    assert_eq!(t.clone().with_letter('S', AreaId(0)), Err(TerrainError::AreaOutOfRange { area: 0 }));
    assert_eq!(t.clone().with_letter('S', AreaId(64)), Err(TerrainError::AreaOutOfRange { area: 64 }));
    let once = t.clone().with_letter('S', AreaId(2)).unwrap();
    assert_eq!(once.with_letter('S', AreaId(3)), Err(TerrainError::DuplicateLetter { letter: 'S' }));
    let once = t.with_color([1, 2, 3], AreaId(2)).unwrap();
    assert_eq!(once.with_color([1, 2, 3], AreaId(2)), Err(TerrainError::DuplicateColor { color: [1, 2, 3] }));
    // A map whose typed letters do not occur is a plain grid.
    let options = ImportOptions::default().with_terrain(terrain(&[('T', 4)]));
    let dir = std::env::temp_dir().join(format!("trinav-terrain-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("strip.map");
    std::fs::write(&path, map_text(&strip(true))).unwrap();
    assert!(matches!(import(&path, None, &options), Ok(Source::Grid(_))));
    let options = ImportOptions::default().with_terrain(terrain(&[('W', 4)]));
    assert!(matches!(import(&path, None, &options), Ok(Source::Terrain(_))));
    std::fs::remove_dir_all(&dir).unwrap();
}
