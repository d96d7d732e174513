//! Off-mesh links: jumps, drops, ladders, teleporters. A link joins two points of the walkable
//! area with a cost of its own (not the distance walked); paths of both modes take a link when
//! it makes them cheaper (see [`Path::links`](crate::Path::links)).
//!
//! Links are stored in the baked file (format version 3) and can be added and removed at
//! runtime with [`NavMesh::add_link`] and [`NavMesh::remove_link`] (no re-bake). Every change
//! re-derives the small index the searches read: the directed links (a bidirectional link is
//! two), the triangles holding each start and the directed island graph ("no path" follows
//! links, one-way ones included): linear in the number of links (plus a sort), not in the
//! mesh. The table of the hops between links the searches' bound reads (a link's cost plus the
//! straight way from its end to each other link's start, on one island, up to 512 directed
//! links), quadratic, is built by the first query after a change. The pockets the searches
//! must be allowed to enter because a link ends there are counted per triangle, up and down
//! the link's own way out.
//!
//! A link whose end is no longer on the walkable area after [`NavMesh::apply_patch`] (an
//! obstacle dropped on it) is kept but unusable until the area under it is walkable again.

use crate::clearance::ClearanceScratch;
use crate::geometry::Point;
use crate::ids::TriangleId;
use crate::layers::LayerId;
use crate::mesh::NavMesh;
use crate::query::path::PocketPass;
use crate::topology::Pocket;

/// A link's id: stable while the link lives, never reused by the same mesh. A mesh saved and
/// loaded again numbers its links from 0 in the order of their ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkId(pub u32);

impl std::fmt::Display for LinkId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// An off-mesh link: from `from` to `to` (and back when `bidirectional`) for `cost`.
///
/// ```
/// use trinav::{OffMeshLink, Point};
/// let drop = OffMeshLink::new(Point::new(0.0, 0.0), Point::new(3.0, 4.0));
/// assert_eq!(drop.cost, 5.0); // the straight distance by default
/// let teleporter = drop.with_cost(0.0).with_bidirectional(true);
/// assert!(teleporter.bidirectional);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OffMeshLink {
    /// Where the link is taken.
    pub from: Point,
    /// Where it arrives.
    pub to: Point,
    /// What taking it costs, in the units of path lengths (finite, `>= 0`; may be 0).
    pub cost: f64,
    /// Whether it can also be taken from `to` to `from` (for the same cost).
    pub bidirectional: bool,
    /// The layer of `from` (layer 0 on a mesh without layers).
    pub from_layer: LayerId,
    /// The layer of `to`.
    pub to_layer: LayerId,
}

impl OffMeshLink {
    /// A one-way link costing the straight distance between its ends.
    pub fn new(from: Point, to: Point) -> Self {
        Self {
            from,
            to,
            cost: from.distance(to),
            bidirectional: false,
            from_layer: LayerId(0),
            to_layer: LayerId(0),
        }
    }

    /// This link with its ends on layers `from` and `to` (see [`crate::LayerId`]).
    pub fn with_layers(mut self, from: LayerId, to: LayerId) -> Self {
        (self.from_layer, self.to_layer) = (from, to);
        self
    }

    /// This link with cost `cost`.
    pub fn with_cost(mut self, cost: f64) -> Self {
        self.cost = cost;
        self
    }

    /// This link, taken both ways or one way.
    pub fn with_bidirectional(mut self, bidirectional: bool) -> Self {
        self.bidirectional = bidirectional;
        self
    }
}

/// Which end of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkEnd {
    /// The `from` point.
    From,
    /// The `to` point.
    To,
}

impl std::fmt::Display for LinkEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LinkEnd::From => "from",
            LinkEnd::To => "to",
        })
    }
}

/// Why a link was not added or removed (the mesh is unchanged).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LinkError {
    /// An end is NaN, infinite, or beyond the coordinate limits.
    #[error("link {end} point ({}, {}) is not finite, or has a coordinate beyond ±2^40 or non-zero below 2^-142", .point.x, .point.y)]
    NonFinite {
        /// Which end.
        end: LinkEnd,
        /// The point.
        point: Point,
    },
    /// An end is not on the walkable area.
    #[error("link {end} point ({}, {}) is not on the walkable area", .point.x, .point.y)]
    OffMesh {
        /// Which end.
        end: LinkEnd,
        /// The point.
        point: Point,
    },
    /// The cost is NaN, infinite or negative.
    #[error("link cost {0} must be finite and >= 0")]
    BadCost(f64),
    /// No live link has this id.
    #[error("no link with id {0}")]
    UnknownLink(LinkId),
    /// An end names a layer the mesh does not have.
    #[error("link {end} layer {layer} does not exist")]
    NoSuchLayer {
        /// Which end.
        end: LinkEnd,
        /// The layer.
        layer: LayerId,
    },
    /// The mesh holds as many links as its search numbering allows.
    #[error("a mesh holds at most {MAX_LINKS} links")]
    TooMany,
}

/// The most links one mesh holds (the optimal search numbers both ends of every direction
/// after the vertices).
pub const MAX_LINKS: usize = 1 << 22;

/// A query's memory for [`NavMesh::link_estimates`] (no allocation once grown).
#[derive(Clone, Debug, Default)]
pub(crate) struct LinkWork {
    /// Per directed link, its bound so far.
    pub(crate) bound: Vec<f64>,
    /// Per directed link, the link its bound takes next (`u32::MAX`: none).
    pub(crate) next: Vec<u32>,
    /// The bounds of the links not yet settled.
    key: Vec<f64>,
    /// The links worth counting: start, bound.
    pub(crate) estimates: Vec<(Point, f64)>,
}

/// The most directed links whose [`Links::hop`] table is kept (`MAX_HOP_TABLE²` f64, 2 MiB).
const MAX_HOP_TABLE: usize = 512;

/// What taking `link` costs at least when `then` is the next link taken (see [`Links::hop`]).
#[inline]
fn hop(link: &Directed, then: &Directed) -> f64 {
    match link.to_island == then.from_island {
        true => link.cost + link.to.distance(then.from),
        false => f64::INFINITY,
    }
}

/// A live link and the triangles its ends lie in (located when added or after a patch).
#[derive(Clone, Debug)]
struct Slot {
    link: OffMeshLink,
    from_triangles: Vec<TriangleId>,
    to_triangles: Vec<TriangleId>,
    /// The pocket triangles on the way out from its ends (see [`Links::pocket_count`]).
    pockets: Vec<u32>,
}

/// One direction of a link, as the searches read it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Directed {
    pub(crate) from: Point,
    pub(crate) to: Point,
    pub(crate) cost: f64,
    pub(crate) link: LinkId,
    /// The triangles the end `to` lies in: `triangles[to_triangles.0..to_triangles.1]`.
    to_triangles: (u32, u32),
    /// The triangles the start `from` lies in, likewise.
    from_triangles: (u32, u32),
    /// The islands of the start and of the end.
    pub(crate) from_island: u32,
    to_island: u32,
}

/// The links of a mesh and the index the searches read (see the module documentation).
#[derive(Clone, Debug, Default)]
pub(crate) struct Links {
    /// The live links by id.
    slots: std::collections::BTreeMap<u32, Slot>,
    /// The id the next link gets.
    next_id: u32,
    live: usize,
    /// Every usable direction of every live link.
    pub(crate) directed: Vec<Directed>,
    /// The triangle lists of [`Directed::to_triangles`].
    triangles: Vec<TriangleId>,
    /// (triangle, directed link) for every triangle holding a directed link's start, sorted.
    starts: Vec<(u32, u32)>,
    /// (island, directed link) for every island a directed link starts on, sorted: the edges
    /// of the directed island graph.
    by_island: Vec<(u32, u32)>,
    /// With at most [`MAX_HOP_TABLE`] directed links, [`Links::hop`] of every pair (row: the
    /// link taken next), else empty (computed when asked). Built by the first query after a
    /// change, so that adding and removing links stays cheap.
    hops: std::sync::OnceLock<Vec<f64>>,
    /// Per directed link, the clearance at its start and at its end (the distance to the
    /// nearest wall), built by the first query with an agent radius after a change: a disc
    /// takes a link only where it fits at both ends.
    end_clearances: std::sync::OnceLock<Vec<(f64, f64)>>,
    /// Per triangle (empty until a link is added), how many usable links have an end in a
    /// pocket that this triangle leads out of: the searches may enter it when above 0.
    pocket_count: Vec<u32>,
}

impl Links {
    /// Whether any direction of any link is usable.
    #[inline]
    pub(crate) fn any(&self) -> bool {
        !self.directed.is_empty()
    }

    /// The directed links starting in triangle `t`.
    #[inline]
    pub(crate) fn starting_in(&self, t: TriangleId) -> impl Iterator<Item = u32> + '_ {
        let from = self.starts.partition_point(|&(s, _)| s < t.0);
        self.starts[from..].iter().take_while(move |&&(s, _)| s == t.0).map(|&(_, d)| d)
    }

    /// The directed links starting on island `island`.
    pub(crate) fn leaving_island(&self, island: u32) -> impl Iterator<Item = u32> + '_ {
        let from = self.by_island.partition_point(|&(s, _)| s < island);
        self.by_island[from..].iter().take_while(move |&&(s, _)| s == island).map(|&(_, d)| d)
    }

    /// The triangles the end of directed link `d` lies in.
    #[inline]
    pub(crate) fn end_triangles(&self, d: u32) -> &[TriangleId] {
        let (a, b) = self.directed[d as usize].to_triangles;
        &self.triangles[a as usize..b as usize]
    }

    /// What taking directed link `d` costs at least when the next link taken is `next`: its
    /// cost and the straight way from its end to that link's start, on one island (else
    /// infinite).
    /// `table` is [`Links::hop_table`].
    #[inline]
    fn hop(&self, table: &[f64], d: usize, next: usize) -> f64 {
        match table.get(next * self.directed.len() + d) {
            Some(&hop) => hop,
            None => hop(&self.directed[d], &self.directed[next]),
        }
    }

    /// The table of [`Links::hop`] (empty beyond [`MAX_HOP_TABLE`] directed links), built on
    /// first use.
    fn hop_table(&self) -> &[f64] {
        self.hops.get_or_init(|| {
            let directed = &self.directed;
            match directed.len() <= MAX_HOP_TABLE {
                true => directed
                    .iter()
                    .flat_map(|then| directed.iter().map(move |link| hop(link, then)))
                    .collect(),
                false => Vec::new(),
            }
        })
    }

    /// The triangles the start of directed link `d` lies in.
    #[inline]
    pub(crate) fn start_triangles(&self, d: u32) -> &[TriangleId] {
        let (a, b) = self.directed[d as usize].from_triangles;
        &self.triangles[a as usize..b as usize]
    }

    /// Whether a pocket triangle is on the way out from a link end.
    #[inline]
    pub(crate) fn opens_pocket(&self, t: TriangleId) -> bool {
        self.pocket_count.get(t.index()).is_some_and(|&n| n > 0)
    }

    /// Counts (`add`) or uncounts a slot's pocket triangles.
    fn count_pockets(&mut self, pockets: &[u32], triangles: usize, add: bool) {
        if self.pocket_count.len() < triangles {
            self.pocket_count.resize(triangles, 0);
        }
        for &t in pockets {
            let n = &mut self.pocket_count[t as usize];
            *n = if add { *n + 1 } else { *n - 1 };
        }
    }
}

impl NavMesh {
    /// Adds an off-mesh link (no re-bake): both ends must lie on the walkable area, the cost
    /// must be finite and `>= 0`. Takes microseconds (linear in the number of links; the first
    /// query after a change builds the table of hops between links, quadratic: about 0.1 ms
    /// with 100 links).
    ///
    /// ```
    /// # use trinav::{NavMesh, OffMeshLink, Point};
    /// # fn demo(mesh: &mut NavMesh) -> Result<(), trinav::LinkError> {
    /// let id = mesh.add_link(OffMeshLink::new(Point::new(1.0, 1.0), Point::new(8.0, 1.0)).with_cost(2.0))?;
    /// mesh.remove_link(id)?;
    /// # Ok(()) }
    /// ```
    pub fn add_link(&mut self, link: OffMeshLink) -> Result<LinkId, LinkError> {
        let slot = self.located_link(link)?;
        let vertices = self.vertices().len();
        if self.links.live >= MAX_LINKS
            || self.links.next_id == u32::MAX
            || vertices + 4 * (self.links.live + 1) >= (u32::MAX - 2) as usize
        {
            return Err(LinkError::TooMany);
        }
        let id = LinkId(self.links.next_id);
        self.links.next_id += 1;
        self.links.count_pockets(&slot.pockets, self.triangle_count(), true);
        self.links.slots.insert(id.0, slot);
        self.links.live += 1;
        self.rebuild_links();
        Ok(id)
    }

    /// Removes a link, returning it.
    pub fn remove_link(&mut self, id: LinkId) -> Result<OffMeshLink, LinkError> {
        let slot = self.links.slots.remove(&id.0);
        let Some(slot) = slot else { return Err(LinkError::UnknownLink(id)) };
        self.links.count_pockets(&slot.pockets, self.triangle_count(), false);
        self.links.live -= 1;
        self.rebuild_links();
        Ok(slot.link)
    }

    /// The link with this id, if it lives.
    pub fn link(&self, id: LinkId) -> Option<&OffMeshLink> {
        self.links.slots.get(&id.0).map(|slot| &slot.link)
    }

    /// Every live link, by increasing id.
    pub fn links(&self) -> impl Iterator<Item = (LinkId, &OffMeshLink)> + '_ {
        self.links.slots.iter().map(|(&i, slot)| (LinkId(i), &slot.link))
    }

    /// The number of live links.
    pub fn link_count(&self) -> usize {
        self.links.live
    }

    /// Whether a live link is usable now: both its ends lie on the walkable area (see
    /// [`NavMesh::apply_patch`](crate::NavMesh::apply_patch)).
    pub fn link_is_usable(&self, id: LinkId) -> bool {
        let slot = self.links.slots.get(&id.0);
        slot.is_some_and(|slot| !slot.from_triangles.is_empty() && !slot.to_triangles.is_empty())
    }

    /// Checks `link` and locates its ends.
    fn located_link(&self, link: OffMeshLink) -> Result<Slot, LinkError> {
        for (end, point) in [(LinkEnd::From, link.from), (LinkEnd::To, link.to)] {
            if !point.in_range() {
                return Err(LinkError::NonFinite { end, point });
            }
        }
        if !(link.cost.is_finite() && link.cost >= 0.0) {
            return Err(LinkError::BadCost(link.cost));
        }
        for (end, layer) in [(LinkEnd::From, link.from_layer), (LinkEnd::To, link.to_layer)] {
            if layer.index() >= self.layer_count() {
                return Err(LinkError::NoSuchLayer { end, layer });
            }
        }
        let from_triangles = self.link_end_triangles(link.from, link.from_layer);
        if from_triangles.is_empty() {
            return Err(LinkError::OffMesh { end: LinkEnd::From, point: link.from });
        }
        let to_triangles = self.link_end_triangles(link.to, link.to_layer);
        if to_triangles.is_empty() {
            return Err(LinkError::OffMesh { end: LinkEnd::To, point: link.to });
        }
        let pockets = self.pockets_out_of(&from_triangles, &to_triangles);
        Ok(Slot { link, from_triangles, to_triangles, pockets })
    }

    /// The triangles holding `p` on `layer`, and those at the same place of the surface (on
    /// a portal: the other layer's triangles that share the point's vertex or side), as for a
    /// path's end: a link ending on a portal's end is left through both layers.
    fn link_end_triangles(&self, p: Point, layer: LayerId) -> Vec<TriangleId> {
        let mut list: Vec<TriangleId> = self.locate_all(p).collect();
        if self.is_layered() {
            self.keep_same_place(&mut list, p, layer);
        }
        // A point on no triangle of its layer is off it, whatever lies below.
        if !list.iter().any(|&t| self.triangle_layer(t) == layer) {
            list.clear();
        }
        list
    }

    /// The pocket triangles on the way out from `ends` to the core, without repeats.
    fn pockets_out_of(&self, from: &[TriangleId], to: &[TriangleId]) -> Vec<u32> {
        let mut pockets = Vec::new();
        for &t in from.iter().chain(to) {
            let mut t = t;
            while let Pocket::Towards(next) = self.pocket(t) {
                pockets.push(t.0);
                t = next;
            }
            if self.pocket(t) == Pocket::Root {
                pockets.push(t.0);
            }
        }
        pockets.sort_unstable();
        pockets.dedup();
        pockets
    }

    /// Locates every link's ends again (after the triangles changed) and rebuilds the index.
    pub(crate) fn relocate_links(&mut self) {
        if self.links.live == 0 {
            return;
        }
        let mut slots = std::mem::take(&mut self.links.slots);
        self.links.pocket_count.clear();
        for slot in slots.values_mut() {
            slot.from_triangles = self.link_end_triangles(slot.link.from, slot.link.from_layer);
            slot.to_triangles = self.link_end_triangles(slot.link.to, slot.link.to_layer);
            slot.pockets = if slot.from_triangles.is_empty() || slot.to_triangles.is_empty() {
                Vec::new() // unusable: opens nothing
            } else {
                self.pockets_out_of(&slot.from_triangles, &slot.to_triangles)
            };
            self.links.count_pockets(&slot.pockets, self.triangle_count(), true);
        }
        self.links.slots = slots;
        self.rebuild_links();
    }

    /// Rebuilds the index the searches read from the live links.
    fn rebuild_links(&mut self) {
        let mut links = std::mem::take(&mut self.links);
        links.directed.clear();
        links.triangles.clear();
        links.starts.clear();
        links.by_island.clear();
        for (&i, slot) in &links.slots {
            if slot.from_triangles.is_empty() || slot.to_triangles.is_empty() {
                continue; // unusable until both ends are walkable again
            }
            let link = &slot.link;
            let forward = (link.from, &slot.from_triangles, link.to, &slot.to_triangles);
            let backward = (link.to, &slot.to_triangles, link.from, &slot.from_triangles);
            let ways = if link.bidirectional { &[forward, backward][..] } else { &[forward][..] };
            for &(from, from_triangles, to, to_triangles) in ways {
                let d = links.directed.len() as u32;
                let at = links.triangles.len() as u32;
                links.triangles.extend_from_slice(to_triangles);
                let middle = links.triangles.len() as u32;
                links.triangles.extend_from_slice(from_triangles);
                links.directed.push(Directed {
                    from,
                    to,
                    cost: link.cost,
                    link: LinkId(i),
                    to_triangles: (at, middle),
                    from_triangles: (middle, links.triangles.len() as u32),
                    from_island: self.island(from_triangles[0]).0,
                    to_island: self.island(to_triangles[0]).0,
                });
                for &t in from_triangles.iter() {
                    links.starts.push((t.0, d));
                    links.by_island.push((self.island(t).0, d));
                }
            }
        }
        links.starts.sort_unstable();
        links.by_island.sort_unstable();
        links.by_island.dedup();
        links.hops = std::sync::OnceLock::new();
        links.end_clearances = std::sync::OnceLock::new();
        self.links = links;
    }

    /// The least any path through a link costs to `to`: over the directed links, the cost plus
    /// the straight way from the end (what follows the last link taken is walked). Infinite
    /// without links.
    pub(crate) fn link_bound(&self, to: Point) -> f64 {
        self.link_bound_walking(to, 1.0)
    }

    /// [`Self::link_bound`] for an agent that walks at `walk_cost` per unit of distance at
    /// least (the smallest area cost it may walk at).
    pub(crate) fn link_bound_walking(&self, to: Point, walk_cost: f64) -> f64 {
        (self.links.directed.iter())
            .map(|d| d.cost + walk_cost * d.to.distance(to))
            .fold(f64::INFINITY, f64::min)
    }

    /// The least any path from `from` to `to` that takes a link costs: over the directed links,
    /// the straight way to its start, its cost, and the straight way from its end. Infinite
    /// without links.
    pub(crate) fn first_link_bound(&self, from: Point, to: Point) -> f64 {
        (self.links.directed.iter())
            .map(|d| from.distance(d.from) + d.cost + d.to.distance(to))
            .fold(f64::INFINITY, f64::min)
    }

    /// The links worth counting in a bound on the cost to `to` (in triangles `goals`): per
    /// directed link, its start and a lower bound on the cost from there when it is taken,
    /// kept only when that is less than the straight way from its start (otherwise no bound
    /// through it beats walking straight). Written into `work.estimates`.
    ///
    /// The bound is the least cost over the links with every walk replaced by the straight
    /// segment (no walk is shorter) and kept on one island: a link's cost plus, from its
    /// end, the straight way to `to` or to a further link's start and that link's bound. A
    /// Dijkstra search backwards from `to` over the directed links (each settled link relaxes
    /// the ones left, quadratic in the number of links, no mesh); it stops once the least
    /// bound left reaches the largest straight way from a start, as no link left can then be
    /// worth counting. `work.bound` and `work.next` keep each counted link's bound and the
    /// link its bound takes next (`u32::MAX`: straight to `to`).
    ///
    /// A link the query cannot take has no bound: one with an end on excluded ground only
    /// (`pass`), or, for a disc of `radius` above 0, one where the disc does not fit at an end.
    pub(crate) fn link_estimates(
        &self,
        (to, goals): (Point, &[TriangleId]),
        (pass, radius): (&PocketPass, f64),
        work: &mut LinkWork,
    ) {
        let goal_island = goals.first().map_or(u32::MAX, |&g| self.island(g).0);
        let links = &self.links;
        let (directed, table) = (&links.directed, links.hop_table());
        let n = directed.len();
        let LinkWork { bound, next, key, estimates } = work;
        bound.clear();
        bound.extend(directed.iter().map(|d| match d.to_island == goal_island {
            true => d.cost + d.to.distance(to),
            false => f64::INFINITY,
        }));
        next.clear();
        next.resize(n, u32::MAX);
        // The bounds of the links not yet settled (infinite once settled).
        key.clear();
        key.extend_from_slice(bound);
        // A link the query cannot take is never settled, and its bound, below every way
        // through it, is never lowered; it is made infinite at the end.
        let filtered = pass.has_exclusions() || radius > 0.0;
        if filtered {
            for d in 0..n {
                let fits = radius == 0.0 || self.disc_fits_link_ends(d as u32, radius);
                if !(fits && self.link_allowed(d as u32, pass)) {
                    (bound[d], key[d]) = (f64::NEG_INFINITY, f64::INFINITY);
                }
            }
        }
        estimates.clear();
        let worth = directed.iter().map(|d| d.from.distance(to)).fold(0.0, f64::max);
        loop {
            let (s, k) = (key.iter().enumerate())
                .fold((0, f64::INFINITY), |best, (d, &k)| if k < best.1 { (d, k) } else { best });
            if k >= worth {
                break;
            }
            key[s] = f64::INFINITY;
            // A settled link's bound is at most k, so relaxing it changes nothing.
            for d in 0..n {
                let through = links.hop(table, d, s) + k;
                if through < bound[d] {
                    (bound[d], key[d], next[d]) = (through, through, s as u32);
                }
            }
        }
        if filtered {
            bound.iter_mut().filter(|b| **b == f64::NEG_INFINITY).for_each(|b| *b = f64::INFINITY);
        }
        for (d, &b) in directed.iter().zip(bound.iter()) {
            if b < d.from.distance(to) {
                estimates.push((d.from, b));
            }
        }
    }

    /// Whether a query whose exclusions are `pass`'s may take directed link `d`: its start and
    /// its end each lie in a triangle not excluded (a link end on excluded ground is usable
    /// only where it touches allowed ground).
    #[inline]
    pub(crate) fn link_allowed(&self, d: u32, pass: &PocketPass) -> bool {
        let allowed = |list: &[TriangleId]| list.iter().any(|&t| !pass.excludes(self, t));
        !pass.has_exclusions()
            || (allowed(self.links.start_triangles(d)) && allowed(self.links.end_triangles(d)))
    }

    /// Whether a disc of `radius` fits at both ends of directed link `d`: each has clearance
    /// `radius`, as a path's start and goal must (else the link is unusable for it).
    #[inline]
    pub(crate) fn disc_fits_link_ends(&self, d: u32, radius: f64) -> bool {
        let (from, to) = self.link_end_clearances()[d as usize];
        from >= radius && to >= radius
    }

    /// [`Links::end_clearances`], built on first use.
    fn link_end_clearances(&self) -> &[(f64, f64)] {
        self.links.end_clearances.get_or_init(|| {
            let mut scratch = ClearanceScratch::default();
            // From the ends' own triangles: where layers overlap, a position alone may name a
            // triangle of another layer.
            let mut clearance = |p, triangles: &[TriangleId]| {
                triangles.first().map_or(0.0, |&t| self.clearance_beside(p, t, |_| false, &mut scratch))
            };
            (0..self.links.directed.len() as u32)
                .map(|d| {
                    let link = &self.links.directed[d as usize];
                    (
                        clearance(link.from, self.links.start_triangles(d)),
                        clearance(link.to, self.links.end_triangles(d)),
                    )
                })
                .collect()
        })
    }

    /// A lower bound on the cost from `p` to the goal of a way that takes a link, over the
    /// `estimates` of [`NavMesh::link_estimates`] (the straight way to a link's start plus its
    /// estimate); infinite when none is worth it.
    #[inline]
    pub(crate) fn through_links(&self, p: Point, estimates: &[(Point, f64)]) -> f64 {
        estimates.iter().map(|&(start, k)| p.distance(start) + k).fold(f64::INFINITY, f64::min)
    }

    /// Whether the mesh has a usable link (searches take their link-aware way only then).
    #[inline]
    pub(crate) fn has_links(&self) -> bool {
        self.links.any()
    }
}
