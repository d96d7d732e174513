//! [`EditableMesh`]: a navigation mesh whose obstacles (and, for grids, cells) change at
//! runtime.
//!
//! The mesh is a function of its base and of its obstacles, whatever the order of the changes
//! that led there:
//!
//! - Each obstacle's *footprint* is the set of base triangles its blocked region meets
//!   (closed sets: touching counts).
//! - Obstacles whose footprints share a base triangle belong to one *component*. A component
//!   replaces the base triangles of its footprint by the triangulation of their union minus
//!   its obstacles' blocked regions ([`crate::cut`]).
//! - A base edge on the border of a footprint is touched by none of the component's obstacles
//!   (the triangle across it would be in the footprint), so the component's triangles keep it
//!   whole and meet the rest of the mesh edge to edge.
//!
//! So the shape of the mesh is a function of the base and the set of obstacles; where its
//! triangles sit in the arrays depends on the order of the changes (a patch fills the slots it
//! frees), and the same sequence of changes gives the same arrays.
//!
//! A change (an obstacle added, moved or removed; cells set) recomputes the components it
//! affects: those of the obstacles it removes or moves, and those whose footprints the new
//! footprints meet. It becomes one [`MeshPatch`]: their old triangles and the base triangles
//! newly covered out, the base triangles no longer covered and the new components' triangles
//! in. The rest of the mesh is not looked at. Cells set recompute the tiles around them, but
//! only the triangles a tile did not have before are born and only those it lost die: the
//! others keep their base ids and slots, so the patch is as small as the change of the shape.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use trinav::build::{MeshPatch, PatchOutcome};
use trinav::{Aabb, BakeSettings, LayerId, NavMesh, Point, TriangleId};
use trinav_bake::PolygonInput;
use trinav_bake::import::grid::Grid;
use trinav_bake::triangulate::TriangleSoup;

use crate::EditError;
use crate::base::{Base, Owner};
use crate::cut::{cut, cut_layered};
use crate::obstacle::{Obstacle, ObstacleId, translated};
use crate::snapshots::Snapshots;
use crate::tiles::{DEFAULT_TILE_CELLS, Tiles};

/// Base ids from this on name triangles a change creates, before they get their ids.
const BORN: u32 = 1 << 30;

/// Obstacles whose footprints share base triangles, and the triangles that replace those.
#[derive(Clone, Debug)]
struct Component {
    /// Its obstacles, ascending.
    obstacles: Vec<ObstacleId>,
    /// The base triangles it covers, ascending.
    footprint: Vec<u32>,
    /// Its triangles in the mesh.
    slots: Vec<TriangleId>,
}

/// What the last change did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChangeReport {
    /// Triangles taken out of the mesh.
    pub removed: usize,
    /// Triangles put in.
    pub added: usize,
    /// Obstacles whose triangles were computed again (the changed ones and those sharing
    /// base triangles with them).
    pub obstacles: usize,
    /// Whether the whole mesh had to be copied (a reader held the spare mesh).
    pub copied: bool,
}

/// A navigation mesh that changes at runtime: obstacles added, moved and removed, grid cells
/// set, each change re-triangulating only the region it touches. Readers query snapshots
/// ([`EditableMesh::snapshot`]), which never change.
///
/// ```
/// use trinav::{BakeSettings, Point};
/// use trinav_bake::{bake, Level, PolygonInput};
/// use trinav_dynamic::EditableMesh;
///
/// let level = Level { walkable: vec![PolygonInput::rect(0.0, 0.0, 20.0, 10.0)], ..Level::default() };
/// let mut editable = EditableMesh::new(bake(&level, &BakeSettings::default())?.mesh);
/// let before = editable.snapshot();
///
/// // A wall across the room, but for a door at the top.
/// let wall = editable.add_obstacle(&PolygonInput::rect(9.0, 0.0, 11.0, 8.0))?;
/// let after = editable.snapshot();
/// assert_eq!(after.area(), 200.0 - 16.0);
/// assert!(after.locate(Point::new(10.0, 4.0)).is_none());
/// assert_eq!(before.area(), 200.0); // a snapshot taken before does not change
///
/// editable.move_obstacle(wall, [0.0, 2.0])?; // the door moves to the bottom
/// assert!(editable.snapshot().locate(Point::new(10.0, 1.0)).is_some());
/// editable.remove_obstacle(wall)?;
/// assert_eq!(editable.snapshot().area(), 200.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct EditableMesh {
    settings: BakeSettings,
    snapshots: Snapshots,
    base: Base,
    /// What each triangle of the current mesh is.
    owners: Vec<Owner>,
    obstacles: BTreeMap<ObstacleId, Obstacle>,
    /// The component of each obstacle.
    component_of: BTreeMap<ObstacleId, u32>,
    components: Vec<Option<Component>>,
    next_obstacle: u32,
    tiles: Option<Tiles>,
    last: ChangeReport,
}

/// A change of the base: tiles whose triangles were computed again, as the triangles that
/// go and come (those a tile has before and after stay, with their ids and slots).
struct BaseChange {
    /// The tiles.
    tiles: Vec<u32>,
    /// Base ids of their triangles that go.
    dead: Vec<u32>,
    /// Their triangles that come, per tile.
    triangles: Vec<Vec<[Point; 3]>>,
}

/// Everything a change decided before it touched anything.
struct Plan {
    patch: MeshPatch,
    /// What each added triangle will be: a base triangle (maybe born) or group `g`'s.
    added_owners: Vec<Owner>,
    /// The components replaced.
    affected: Vec<u32>,
    /// The new groups: obstacles (ascending) and footprint (ascending, born ids provisional).
    groups: Vec<(Vec<ObstacleId>, Vec<u32>)>,
    /// Base triangles (maybe born) covered after the change, with their corners and group.
    covered: Vec<(u32, [Point; 3], usize)>,
    /// Base triangles covered before and not after (and not dead).
    uncovered: Vec<u32>,
    /// Obstacles with their footprints after the change (the added ones and those whose
    /// footprint was computed again).
    footprints: Vec<(ObstacleId, Vec<u32>)>,
    /// Obstacles whose triangles were computed again.
    obstacle_count: usize,
}

impl EditableMesh {
    /// An editable mesh over `mesh` (loaded or baked), without obstacles: its triangles are
    /// the base that obstacles cut into. Obstacles are inflated by the mesh's agent radius.
    pub fn new(mesh: NavMesh) -> EditableMesh {
        let n = mesh.triangle_count();
        let base = Base::of_mesh(&mesh);
        EditableMesh {
            settings: *mesh.settings(),
            snapshots: Snapshots::new(mesh),
            base,
            owners: (0..n as u32).map(Owner::Base).collect(),
            obstacles: BTreeMap::new(),
            component_of: BTreeMap::new(),
            components: Vec::new(),
            next_obstacle: 0,
            tiles: None,
            last: ChangeReport::default(),
        }
    }

    /// An editable mesh of a grid's free cells (agent radius 0, the grid rules of a bake),
    /// whose cells can change ([`EditableMesh::set_cells`]), in tiles of 16 × 16 cells.
    pub fn from_grid(grid: Grid, settings: &BakeSettings) -> Result<EditableMesh, EditError> {
        EditableMesh::from_grid_with_tiles(grid, settings, DEFAULT_TILE_CELLS)
    }

    /// [`EditableMesh::from_grid`] with tiles of `tile_cells` × `tile_cells` cells (1 to 4096):
    /// smaller tiles make cell changes cheaper and the mesh larger.
    pub fn from_grid_with_tiles(
        grid: Grid,
        settings: &BakeSettings,
        tile_cells: u32,
    ) -> Result<EditableMesh, EditError> {
        settings.check()?;
        if settings.agent_radius > 0.0 {
            return Err(EditError::GridRadius { agent_radius: settings.agent_radius });
        }
        if !(1..=4096).contains(&tile_cells) {
            return Err(EditError::TileSize(tile_cells));
        }
        check_grid(&grid)?;
        let mut tiles = Tiles::new(grid, tile_cells);
        let mut base = Base::default();
        let mut soup = Vec::new();
        let mut ids = Vec::new();
        for tile in 0..tiles.count() {
            for triangle in tiles.triangulate(tile, settings.triangulation)? {
                let b = base.allocate();
                tiles.bases[tile as usize].push(b);
                ids.push(b);
                soup.push(triangle);
            }
        }
        let welded = trinav_bake::weld::weld(&TriangleSoup::from_corners(&soup))
            .map_err(|e| EditError::Internal(format!("tiles: {e}")))?;
        if welded.triangles.len() != soup.len() {
            return Err(EditError::Internal(
                "tiles: triangles of neighbouring tiles do not meet edge to edge".into(),
            ));
        }
        let mesh = trinav_bake::derive::derive(welded, settings)
            .map_err(|e| EditError::Internal(format!("tiles: {e}")))?;
        let mut owners = Vec::with_capacity(ids.len());
        for (slot, &b) in ids.iter().enumerate() {
            base.slot[b as usize] = TriangleId::from_index(slot);
            owners.push(Owner::Base(b));
        }
        Ok(EditableMesh {
            settings: *settings,
            snapshots: Snapshots::new(mesh),
            base,
            owners,
            obstacles: BTreeMap::new(),
            component_of: BTreeMap::new(),
            components: Vec::new(),
            next_obstacle: 0,
            tiles: Some(tiles),
            last: ChangeReport::default(),
        })
    }

    /// The current mesh, to query on any thread. It never changes: a change publishes a new
    /// one, and readers holding this one keep their answers.
    pub fn snapshot(&self) -> Arc<NavMesh> {
        Arc::clone(self.snapshots.current())
    }

    /// The current mesh, borrowed.
    pub fn mesh(&self) -> &NavMesh {
        self.snapshots.current()
    }

    /// The bake settings (the agent radius obstacles are inflated by).
    pub fn settings(&self) -> &BakeSettings {
        &self.settings
    }

    /// The obstacles, by id, as given.
    pub fn obstacles(&self) -> impl Iterator<Item = (ObstacleId, &PolygonInput)> {
        self.obstacles.iter().map(|(&id, o)| (id, &o.polygon))
    }

    /// The obstacle `id`, as given.
    pub fn obstacle(&self, id: ObstacleId) -> Option<&PolygonInput> {
        self.obstacles.get(&id).map(|o| &o.polygon)
    }

    /// The grid's cells, for a mesh made by [`EditableMesh::from_grid`].
    pub fn grid(&self) -> Option<&Grid> {
        self.tiles.as_ref().map(|t| &t.grid)
    }

    /// What the last change did.
    pub fn last_change(&self) -> ChangeReport {
        self.last
    }

    /// How many changes had to copy the whole mesh because a reader still held the mesh
    /// published two changes before.
    pub fn copies(&self) -> u64 {
        self.snapshots.copies
    }

    /// Frees the second mesh kept for publishing changes without copying: the next change
    /// copies the current mesh instead (for a world that has stopped changing).
    pub fn release_spare(&mut self) {
        self.snapshots.drop_spare();
    }

    /// Adds an obstacle: a polygon with holes (the level format's rules: rings open or closed,
    /// either winding, simple, coordinates within ±2^28), inflated by the agent radius as a bake
    /// inflates obstacles. An invalid polygon is an [`EditError::Invalid`] and changes nothing.
    /// On a mesh of several layers an obstacle must name its layer
    /// ([`EditableMesh::add_obstacle_on`]): this is an [`EditError::LayerNeeded`].
    pub fn add_obstacle(&mut self, polygon: &PolygonInput) -> Result<ObstacleId, EditError> {
        let layers = self.mesh().layer_count();
        if layers > 1 {
            return Err(EditError::LayerNeeded { layers });
        }
        self.add_obstacle_on(LayerId(0), polygon)
    }

    /// Adds an obstacle on `layer`: it blocks that layer's walkable area only (a cart parked on
    /// a bridge leaves the road below free), and closes the part of a portal it covers (the
    /// rest of the portal still joins the layers). Moving or replacing it keeps its layer.
    /// A layer the mesh does not have is an [`EditError::NoSuchLayer`]. On a mesh baked with an
    /// agent radius whose layers are joined by portals, an obstacle whose inflation reaches
    /// another layer is an [`EditError::ReachesAnotherLayer`].
    pub fn add_obstacle_on(
        &mut self,
        layer: LayerId,
        polygon: &PolygonInput,
    ) -> Result<ObstacleId, EditError> {
        if layer.index() >= self.mesh().layer_count() {
            return Err(EditError::NoSuchLayer(layer));
        }
        let id = ObstacleId(self.next_obstacle);
        let obstacle = Obstacle { layer, ..Obstacle::new(polygon, id, &self.settings)? };
        self.check_reach(&obstacle)?;
        self.change(&[], vec![(id, obstacle)], None)?;
        self.next_obstacle += 1;
        Ok(id)
    }

    /// The layer obstacle `id` stands on.
    pub fn obstacle_layer(&self, id: ObstacleId) -> Option<LayerId> {
        self.obstacles.get(&id).map(|o| o.layer)
    }

    /// Moves obstacle `id` by `offset` (x, y).
    pub fn move_obstacle(&mut self, id: ObstacleId, offset: [f64; 2]) -> Result<(), EditError> {
        let old = self.obstacles.get(&id).ok_or(EditError::UnknownObstacle(id))?;
        let moved = translated(&old.polygon, offset);
        self.replace_obstacle(id, &moved)
    }

    /// Gives obstacle `id` another shape (turned, scaled, anywhere).
    pub fn replace_obstacle(&mut self, id: ObstacleId, polygon: &PolygonInput) -> Result<(), EditError> {
        let layer = self.obstacles.get(&id).ok_or(EditError::UnknownObstacle(id))?.layer;
        let obstacle = Obstacle { layer, ..Obstacle::new(polygon, id, &self.settings)? };
        self.check_reach(&obstacle)?;
        self.change(&[id], vec![(id, obstacle)], None)
    }

    /// Refuses an obstacle whose inflation reaches another layer's ground (now or under
    /// another obstacle) on a mesh baked with a radius whose layers are joined by portals
    /// ([`EditError::ReachesAnotherLayer`]): a bake inflates obstacles across portals, which a
    /// cut of the obstacle's own layer cannot do. Bounds decide (conservative).
    fn check_reach(&self, obstacle: &Obstacle) -> Result<(), EditError> {
        let mesh = self.mesh();
        if self.settings.agent_radius == 0.0 || mesh.portal_edge_count() == 0 || obstacle.bounds.is_empty() {
            return Ok(());
        }
        let reached = self.base.overlapping(mesh, &self.owners, obstacle.bounds);
        let other_layer = (reached.into_iter())
            .filter(|&b| self.base.layer(b) != obstacle.layer)
            .find(|&b| Aabb::from_points(self.base.points(mesh, b)).meets(&obstacle.bounds));
        match other_layer.map(|b| self.base.layer(b)) {
            Some(other) => Err(EditError::ReachesAnotherLayer {
                layer: obstacle.layer,
                other,
                agent_radius: self.settings.agent_radius,
            }),
            None => Ok(()),
        }
    }

    /// Removes obstacle `id`.
    pub fn remove_obstacle(&mut self, id: ObstacleId) -> Result<(), EditError> {
        if !self.obstacles.contains_key(&id) {
            return Err(EditError::UnknownObstacle(id));
        }
        self.change(&[id], Vec::new(), None)
    }

    /// Overwrites the cells from (`x`, `y`) (column, row) with `patch`, free and blocked cells
    /// alike, for a mesh made by [`EditableMesh::from_grid`]. The tiles within one cell of the
    /// patch are computed again; only the triangles they gained or lost change in the mesh.
    pub fn set_cells(&mut self, x: u32, y: u32, patch: &Grid) -> Result<(), EditError> {
        let tiles = self.tiles.as_mut().ok_or(EditError::NotAGrid)?;
        check_grid(patch)?;
        let (width, height) = (tiles.grid.width, tiles.grid.height);
        let fits = u64::from(x) + u64::from(patch.width) <= u64::from(width)
            && u64::from(y) + u64::from(patch.height) <= u64::from(height);
        if !fits {
            return Err(EditError::PatchOutsideGrid {
                x,
                y,
                width: patch.width,
                height: patch.height,
                grid_width: width,
                grid_height: height,
            });
        }
        // Keep the cells overwritten, to put them back if the change fails.
        let old = Grid {
            width: patch.width,
            height: patch.height,
            blocked: (0..patch.height)
                .flat_map(|py| (0..patch.width).map(move |px| (px, py)))
                .map(|(px, py)| tiles.grid.is_blocked(i64::from(x + px), i64::from(y + py)))
                .collect(),
        };
        tiles.write(x, y, patch);
        let result = (|| {
            let tiles = self.tiles.as_ref().expect("a grid");
            let changed = tiles.depending_on(x, y, x + patch.width, y + patch.height);
            let mesh: &NavMesh = self.snapshots.current();
            let (mut dead, mut triangles) = (Vec::new(), Vec::with_capacity(changed.len()));
            for &tile in &changed {
                let new = tiles.triangulate(tile, self.settings.triangulation)?;
                let old = tiles.bases[tile as usize].iter().map(|&b| (b, self.base.points(mesh, b)));
                triangles.push(changed_triangles(old, new, &mut dead));
            }
            self.change(&[], Vec::new(), Some(BaseChange { tiles: changed, dead, triangles }))
        })();
        if result.is_err() {
            self.tiles.as_mut().expect("a grid").write(x, y, &old);
        }
        result
    }

    /// Applies a change: `removed` obstacles go, `added` ones come (an id in both is moved),
    /// `base` tiles are computed again. Plans it all, applies the one patch to a mesh that is
    /// not published, then updates the bookkeeping: on error nothing has changed.
    fn change(
        &mut self,
        removed: &[ObstacleId],
        added: Vec<(ObstacleId, Obstacle)>,
        base: Option<BaseChange>,
    ) -> Result<(), EditError> {
        let plan = self.plan(removed, &added, base.as_ref())?;
        let copies = self.snapshots.copies;
        let outcome = (self.snapshots.apply(std::slice::from_ref(&plan.patch)))
            .map_err(|e| EditError::Internal(format!("patch refused: {e}")))?
            .pop()
            .expect("one outcome per patch");
        self.last = ChangeReport {
            removed: plan.patch.remove.len(),
            added: plan.patch.add.len(),
            obstacles: plan.obstacle_count,
            copied: self.snapshots.copies > copies,
        };
        self.commit(plan, removed, added, base, &outcome);
        Ok(())
    }

    /// Decides a change (see [`EditableMesh::change`]) without changing anything.
    fn plan(
        &self,
        removed: &[ObstacleId],
        added: &[(ObstacleId, Obstacle)],
        base: Option<&BaseChange>,
    ) -> Result<Plan, EditError> {
        let mesh: &NavMesh = self.snapshots.current();
        // A base change: the tiles' old triangles die, their new ones are born.
        let mut dead: HashSet<u32> = HashSet::new();
        let mut born: Vec<[Point; 3]> = Vec::new();
        if let Some(change) = base {
            dead.extend(change.dead.iter().copied());
            born.extend(change.triangles.iter().flatten().copied());
        }
        let born_boxes: Vec<Aabb> = born.iter().map(|t| Aabb::from_points(*t)).collect();
        let corners = |b: u32| if b >= BORN { born[(b - BORN) as usize] } else { self.base.points(mesh, b) };
        let footprint = |o: &Obstacle| -> Vec<u32> {
            if o.bounds.is_empty() {
                return Vec::new();
            }
            let mut ids = self.base.overlapping(mesh, &self.owners, o.bounds);
            ids.retain(|b| !dead.contains(b));
            ids.extend(
                (0..born.len() as u32).filter(|&k| born_boxes[k as usize].meets(&o.bounds)).map(|k| BORN + k),
            );
            if self.base.layers.is_empty() {
                ids.retain(|&b| o.meets(&corners(b)));
                return ids;
            }
            // A layered mesh: the obstacle's layer, and across the portal edges it meets the
            // other layer's triangle, whose side of the portal is split where this one's is.
            ids.retain(|&b| self.base.layer(b) == o.layer && o.meets(&corners(b)));
            let mut across = Vec::new();
            for &b in &ids {
                let c = corners(b);
                for k in 0..3u8 {
                    if let Some(&other) = self.base.across.get(&(b, k))
                        && o.meets_segment(c[k as usize], c[(k as usize + 1) % 3])
                    {
                        across.push(other);
                    }
                }
            }
            ids.extend(across);
            ids.sort_unstable();
            ids.dedup();
            ids
        };

        // New footprints: the added obstacles', and after a base change those of the obstacles
        // that met a dead triangle or may meet a born one.
        let removed_set: BTreeSet<ObstacleId> = removed.iter().copied().collect();
        let added_ids: BTreeSet<ObstacleId> = added.iter().map(|(id, _)| *id).collect();
        let mut footprints: BTreeMap<ObstacleId, Vec<u32>> =
            added.iter().map(|(id, o)| (*id, footprint(o))).collect();
        if base.is_some() {
            for (id, o) in &self.obstacles {
                if removed_set.contains(id) || added_ids.contains(id) {
                    continue;
                }
                let touched = o.footprint.iter().any(|b| dead.contains(b))
                    || born_boxes.iter().any(|b| b.meets(&o.bounds));
                if touched {
                    footprints.insert(*id, footprint(o));
                }
            }
        }
        // The components the change reaches.
        let mut affected: BTreeSet<u32> = BTreeSet::new();
        for id in removed.iter().chain(footprints.keys()) {
            if let Some(&c) = self.component_of.get(id) {
                affected.insert(c);
            }
        }
        for &b in footprints.values().flatten() {
            if let Some(Some(c)) = self.base.owner.get(b as usize).filter(|_| b < BORN) {
                affected.insert(*c);
            }
        }
        // Their obstacles, and the added ones, grouped by shared base triangles.
        let mut members: BTreeSet<ObstacleId> = added_ids.clone();
        for &c in &affected {
            let component = self.components[c as usize].as_ref().expect("a live component");
            members.extend(component.obstacles.iter().filter(|o| !removed_set.contains(o)));
        }
        let footprint_of = |o: &ObstacleId| {
            footprints.get(o).map(Vec::as_slice).unwrap_or_else(|| &self.obstacles[o].footprint)
        };
        let members: Vec<ObstacleId> = members.into_iter().collect();
        let mut parent: Vec<usize> = (0..members.len()).collect();
        let mut first_with: HashMap<u32, usize> = HashMap::new();
        for (i, o) in members.iter().enumerate() {
            for &b in footprint_of(o) {
                match first_with.get(&b) {
                    Some(&j) => union(&mut parent, i, j),
                    None => {
                        first_with.insert(b, i);
                    }
                }
            }
        }
        let mut group_of_root: HashMap<usize, usize> = HashMap::new();
        let mut groups: Vec<(Vec<ObstacleId>, Vec<u32>)> = Vec::new();
        for (i, &o) in members.iter().enumerate() {
            let root = find(&mut parent, i);
            let g = *group_of_root.entry(root).or_insert_with(|| {
                groups.push((Vec::new(), Vec::new()));
                groups.len() - 1
            });
            groups[g].0.push(o);
            groups[g].1.extend_from_slice(footprint_of(&o));
        }
        for (_, footprint) in &mut groups {
            footprint.sort_unstable();
            footprint.dedup();
        }

        // Each group's triangles.
        let blocked_of = |o: &ObstacleId| {
            let obstacle =
                (added.iter().find(|(id, _)| id == o).map(|(_, x)| x)).unwrap_or_else(|| &self.obstacles[o]);
            &obstacle.blocked
        };
        let layer_of = |o: &ObstacleId| {
            (added.iter().find(|(id, _)| id == o).map(|(_, x)| x)).unwrap_or_else(|| &self.obstacles[o]).layer
        };
        let mut group_triangles = Vec::with_capacity(groups.len());
        // On a layered mesh, the layer of each group triangle.
        let mut group_layers: Vec<Vec<LayerId>> = Vec::new();
        for (obstacles, footprint) in &groups {
            if footprint.is_empty() {
                group_triangles.push(Vec::new());
                group_layers.push(Vec::new());
                continue;
            }
            if self.base.layers.is_empty() {
                let triangles: Vec<[Point; 3]> = footprint.iter().map(|&b| corners(b)).collect();
                let blocked: Vec<_> = obstacles.iter().flat_map(|o| blocked_of(o).iter()).collect();
                group_triangles.push(cut(&triangles, &blocked, self.settings.triangulation)?);
                continue;
            }
            let triangles: Vec<([Point; 3], LayerId)> =
                footprint.iter().map(|&b| (corners(b), self.base.layer(b))).collect();
            let blocked: Vec<_> = (obstacles.iter())
                .flat_map(|o| blocked_of(o).iter().map(move |p| (p, layer_of(o))))
                .collect();
            // The portal edges inside the footprint (each once, from its lower base triangle).
            let mut portals = Vec::new();
            for &b in footprint {
                for k in 0..3u8 {
                    if let Some(&other) = self.base.across.get(&(b, k))
                        && other > b
                        && footprint.binary_search(&other).is_ok()
                    {
                        let c = corners(b);
                        let sides = [self.base.layer(b), self.base.layer(other)];
                        portals.push((c[k as usize], c[(k as usize + 1) % 3], sides));
                    }
                }
            }
            let pieces = cut_layered(&triangles, &blocked, &portals, self.settings.triangulation)?;
            group_layers.push(pieces.iter().map(|&(_, l)| l).collect());
            group_triangles.push(pieces.into_iter().map(|(t, _)| t).collect());
        }

        // The patch.
        let covered_old: BTreeSet<u32> = (affected.iter())
            .flat_map(|&c| self.components[c as usize].as_ref().expect("live").footprint.iter().copied())
            .collect();
        let covered_new: BTreeMap<u32, usize> =
            groups.iter().enumerate().flat_map(|(g, (_, f))| f.iter().map(move |&b| (b, g))).collect();
        let mut remove: Vec<TriangleId> = Vec::new();
        for &c in &affected {
            remove.extend_from_slice(&self.components[c as usize].as_ref().expect("live").slots);
        }
        let in_mesh = |b: u32| b < BORN && !self.base.slot[b as usize].is_none();
        remove.extend(covered_new.keys().filter(|&&b| in_mesh(b)).map(|&b| self.base.slot[b as usize]));
        let mut dead_sorted: Vec<u32> = dead.iter().copied().collect();
        dead_sorted.sort_unstable();
        remove.extend(dead_sorted.iter().filter(|&&b| in_mesh(b)).map(|&b| self.base.slot[b as usize]));

        let mut add = Vec::new();
        let mut added_owners = Vec::new();
        let layered = !self.base.layers.is_empty();
        let mut layers = Vec::new();
        let uncovered: Vec<u32> =
            covered_old.iter().copied().filter(|b| !covered_new.contains_key(b)).collect();
        for &b in uncovered.iter().filter(|b| !dead.contains(b)) {
            add.push(self.base.points(mesh, b));
            added_owners.push(Owner::Base(b));
            if layered {
                layers.push(self.base.layer(b));
            }
        }
        for (k, triangle) in born.iter().enumerate() {
            let b = BORN + k as u32;
            if !covered_new.contains_key(&b) {
                add.push(*triangle);
                added_owners.push(Owner::Base(b));
            }
        }
        for (g, triangles) in group_triangles.into_iter().enumerate() {
            added_owners.extend(std::iter::repeat_n(Owner::Component(g as u32), triangles.len()));
            add.extend(triangles);
        }
        layers.extend(group_layers.into_iter().flatten());
        // The portal edges between base triangles that come back or are cut again.
        let mut portals = Vec::new();
        if layered {
            let mut back: Vec<u32> = uncovered.iter().copied().filter(|b| !dead.contains(b)).collect();
            back.extend(covered_new.keys().copied());
            back.sort_unstable();
            for &b in &back {
                for k in 0..3u8 {
                    if let Some(&other) = self.base.across.get(&(b, k))
                        && other > b
                        && back.binary_search(&other).is_ok()
                    {
                        let c = corners(b);
                        portals.push([c[k as usize], c[(k as usize + 1) % 3]]);
                    }
                }
            }
        }
        let covered = covered_new.iter().map(|(&b, &g)| (b, corners(b), g)).collect();
        let obstacle_count = members.len();
        Ok(Plan {
            patch: MeshPatch { remove, add, areas: Vec::new(), layers, portals, keep_border: base.is_none() },
            added_owners,
            affected: affected.into_iter().collect(),
            groups,
            covered,
            uncovered,
            footprints: footprints.into_iter().collect(),
            obstacle_count,
        })
    }

    /// Brings the bookkeeping in line with an applied plan.
    fn commit(
        &mut self,
        plan: Plan,
        removed: &[ObstacleId],
        added: Vec<(ObstacleId, Obstacle)>,
        base: Option<BaseChange>,
        outcome: &PatchOutcome,
    ) {
        // The mesh's slots: removed ones empty, moved ones follow their triangle.
        for &slot in &plan.patch.remove {
            if let Owner::Base(b) = self.owners[slot.index()] {
                self.base.slot[b as usize] = TriangleId::NONE;
            }
            self.owners[slot.index()] = Owner::None;
        }
        for &(from, to) in &outcome.moved {
            let owner = self.owners[from.index()];
            self.owners[to.index()] = owner;
            match owner {
                Owner::Base(b) => self.base.slot[b as usize] = to,
                Owner::Component(c) => {
                    let slots = &mut self.components[c as usize].as_mut().expect("live").slots;
                    let i = slots.iter().position(|&s| s == from).expect("a component's triangle");
                    slots[i] = to;
                }
                Owner::None => unreachable!("a moved triangle is kept"),
            }
        }
        self.owners.resize(self.snapshots.current().triangle_count(), Owner::None);

        // Components replaced, base triangles uncovered, dead and born.
        for &c in &plan.affected {
            self.components[c as usize] = None;
        }
        for &b in &plan.uncovered {
            self.base.uncover(b);
        }
        let mut born_ids = Vec::new();
        if let (Some(change), Some(tiles)) = (base, self.tiles.as_mut()) {
            let dead: HashSet<u32> = change.dead.iter().copied().collect();
            for &tile in &change.tiles {
                tiles.bases[tile as usize].retain(|b| !dead.contains(b));
            }
            for &b in &change.dead {
                self.base.release(b);
            }
            for (&tile, triangles) in change.tiles.iter().zip(&change.triangles) {
                for _ in triangles {
                    let b = self.base.allocate();
                    tiles.bases[tile as usize].push(b);
                    born_ids.push(b);
                }
            }
        }
        let real = |b: u32| if b >= BORN { born_ids[(b - BORN) as usize] } else { b };

        // The obstacles.
        for id in removed {
            self.obstacles.remove(id);
            self.component_of.remove(id);
        }
        for (id, obstacle) in added {
            self.obstacles.insert(id, obstacle);
        }
        for (id, footprint) in plan.footprints {
            if let Some(o) = self.obstacles.get_mut(&id) {
                o.footprint = footprint.into_iter().map(real).collect();
                o.footprint.sort_unstable();
            }
        }

        // The new components, lowest free ids first.
        let mut ids = Vec::with_capacity(plan.groups.len());
        for (obstacles, footprint) in plan.groups {
            let id = match self.components.iter().position(Option::is_none) {
                Some(free) => free,
                None => {
                    self.components.push(None);
                    self.components.len() - 1
                }
            };
            let mut footprint: Vec<u32> = footprint.into_iter().map(real).collect();
            footprint.sort_unstable();
            for &o in &obstacles {
                self.component_of.insert(o, id as u32);
            }
            self.components[id] = Some(Component { obstacles, footprint, slots: Vec::new() });
            ids.push(id as u32);
        }
        for (b, corners, g) in plan.covered {
            self.base.cover(real(b), corners, ids[g]);
        }
        for (&slot, owner) in outcome.added.iter().zip(plan.added_owners) {
            let owner = match owner {
                Owner::Base(b) => {
                    self.base.slot[real(b) as usize] = slot;
                    Owner::Base(real(b))
                }
                Owner::Component(g) => {
                    let c = ids[g as usize];
                    self.components[c as usize].as_mut().expect("live").slots.push(slot);
                    Owner::Component(c)
                }
                Owner::None => unreachable!("every added triangle has an owner"),
            };
            self.owners[slot.index()] = owner;
        }
    }
}

/// A tile's triangles `new` against its `old` ones (base id, corners): pushes onto `dead` the
/// ids of the old ones not among the new, and returns the new ones not among the old, in
/// order. A triangle is the same whichever corner it starts at.
fn changed_triangles(
    old: impl Iterator<Item = (u32, [Point; 3])>,
    new: Vec<[Point; 3]>,
    dead: &mut Vec<u32>,
) -> Vec<[Point; 3]> {
    // A tile has a few dozen triangles: sorted keys and binary searches, no hashing.
    let old: Vec<(u32, [u64; 6])> = old.map(|(b, t)| (b, triangle_key(&t))).collect();
    let new: Vec<([u64; 6], [Point; 3])> = new.into_iter().map(|t| (triangle_key(&t), t)).collect();
    let sorted = |mut keys: Vec<[u64; 6]>| {
        keys.sort_unstable();
        keys
    };
    let new_keys = sorted(new.iter().map(|&(k, _)| k).collect());
    let old_keys = sorted(old.iter().map(|&(_, k)| k).collect());
    dead.extend(old.iter().filter(|(_, k)| new_keys.binary_search(k).is_err()).map(|&(b, _)| b));
    new.into_iter().filter(|(k, _)| old_keys.binary_search(k).is_err()).map(|(_, t)| t).collect()
}

/// A triangle's corners, bit for bit, starting at the lowest: the same for every rotation.
fn triangle_key(t: &[Point; 3]) -> [u64; 6] {
    let bits = t.map(|p| (p.x.to_bits(), p.y.to_bits()));
    let first = (0..3).min_by_key(|&i| bits[i]).expect("three corners");
    let [a, b, c] = [0, 1, 2].map(|i| bits[(first + i) % 3]);
    [a.0, a.1, b.0, b.1, c.0, c.1]
}

/// Union-find: the root of `i`.
fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Union-find: joins the sets of `i` and `j` (the lower root wins, so roots stay the first
/// members).
fn union(parent: &mut [usize], i: usize, j: usize) {
    let (a, b) = (find(parent, i), find(parent, j));
    if a != b {
        parent[a.max(b)] = a.min(b);
    }
}

/// A grid whose cell array matches its size.
fn check_grid(grid: &Grid) -> Result<(), EditError> {
    let cells = grid.width as usize * grid.height as usize;
    if grid.width == 0 || grid.height == 0 || grid.blocked.len() != cells {
        return Err(EditError::BadGrid { width: grid.width, height: grid.height, cells: grid.blocked.len() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_keeps_the_triangles_it_has_before_and_after() {
        let p = |x: f64, y: f64| Point::new(x, y);
        let (a, b, c, d) = (p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0));
        let e = p(2.0, 0.0);
        // Old: abc (id 7), acd (id 8), bec (id 9). New: abc (from c on), aec, edc.
        let old = [(7, [a, b, c]), (8, [a, c, d]), (9, [b, e, c])];
        let new = vec![[c, a, b], [a, e, c], [e, d, c]];
        let mut dead = vec![1];
        let born = changed_triangles(old.into_iter(), new, &mut dead);
        assert_eq!(dead, [1, 8, 9]);
        assert_eq!(born, [[a, e, c], [e, d, c]]);
        // A triangle turned the other way round is another triangle.
        let mut dead = Vec::new();
        assert_eq!(changed_triangles([(7, [a, b, c])].into_iter(), vec![[a, c, b]], &mut dead), [[a, c, b]]);
        assert_eq!(dead, [7]);
    }
}
