//! Off-mesh links: jumps, drops, ladders, teleporters. A link joins two points of the walkable
//! area with a cost of its own (not the distance walked); paths of both modes take a link when
//! it makes them cheaper (see [`Path::links`](crate::Path::links)).
//!
//! Links are stored in the baked file (format version 3) and can be added and removed at
//! runtime with [`NavMesh::add_link`] and [`NavMesh::remove_link`] (no re-bake). Every change
//! re-derives the small index the searches read: the directed links (a bidirectional link is
//! two), the triangles holding each start, the directed island graph ("no path" follows links,
//! one-way ones included) and the pockets the searches must be allowed to enter because a link
//! ends there. Its cost is linear in the number of links (plus a sort), not in the mesh.
//!
//! A link whose end is no longer on the walkable area after [`NavMesh::apply_patch`] (an
//! obstacle dropped on it) is kept but unusable until the area under it is walkable again.

use crate::geometry::Point;
use crate::ids::TriangleId;
use crate::mesh::NavMesh;
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
}

impl OffMeshLink {
    /// A one-way link costing the straight distance between its ends.
    pub fn new(from: Point, to: Point) -> Self {
        Self { from, to, cost: from.distance(to), bidirectional: false }
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
    /// The mesh holds as many links as its search numbering allows.
    #[error("a mesh holds at most {MAX_LINKS} links")]
    TooMany,
}

/// The most links one mesh holds (the optimal search numbers both ends of every direction
/// after the vertices).
pub const MAX_LINKS: usize = 1 << 22;

/// A live link and the triangles its ends lie in (located when added or after a patch).
#[derive(Clone, Debug)]
struct Slot {
    link: OffMeshLink,
    from_triangles: Vec<TriangleId>,
    to_triangles: Vec<TriangleId>,
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
}

/// The links of a mesh and the index the searches read (see the module documentation).
#[derive(Clone, Debug, Default)]
pub(crate) struct Links {
    /// By id: the link, or `None` once removed.
    slots: Vec<Option<Slot>>,
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
    /// Pocket triangles on the way out from a link end (sorted): the searches may enter them.
    pocket_pass: Vec<u32>,
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

    /// Whether a pocket triangle is on the way out from a link end.
    #[inline]
    pub(crate) fn opens_pocket(&self, t: TriangleId) -> bool {
        self.pocket_pass.binary_search(&t.0).is_ok()
    }
}

impl NavMesh {
    /// Adds an off-mesh link (no re-bake): both ends must lie on the walkable area, the cost
    /// must be finite and `>= 0`. Takes microseconds (linear in the number of links).
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
            || self.links.slots.len() >= u32::MAX as usize
            || vertices + 4 * (self.links.live + 1) >= (u32::MAX - 2) as usize
        {
            return Err(LinkError::TooMany);
        }
        let id = LinkId(self.links.slots.len() as u32);
        self.links.slots.push(Some(slot));
        self.links.live += 1;
        self.rebuild_links();
        Ok(id)
    }

    /// Removes a link, returning it.
    pub fn remove_link(&mut self, id: LinkId) -> Result<OffMeshLink, LinkError> {
        let slot = self.links.slots.get_mut(id.0 as usize).and_then(Option::take);
        let Some(slot) = slot else { return Err(LinkError::UnknownLink(id)) };
        self.links.live -= 1;
        self.rebuild_links();
        Ok(slot.link)
    }

    /// The link with this id, if it lives.
    pub fn link(&self, id: LinkId) -> Option<&OffMeshLink> {
        self.links.slots.get(id.0 as usize)?.as_ref().map(|slot| &slot.link)
    }

    /// Every live link, by increasing id.
    pub fn links(&self) -> impl Iterator<Item = (LinkId, &OffMeshLink)> + '_ {
        (self.links.slots.iter().enumerate())
            .filter_map(|(i, slot)| slot.as_ref().map(|slot| (LinkId(i as u32), &slot.link)))
    }

    /// The number of live links.
    pub fn link_count(&self) -> usize {
        self.links.live
    }

    /// Whether a live link is usable now: both its ends lie on the walkable area (see
    /// [`NavMesh::apply_patch`](crate::NavMesh::apply_patch)).
    pub fn link_is_usable(&self, id: LinkId) -> bool {
        let slot = self.links.slots.get(id.0 as usize).and_then(Option::as_ref);
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
        let from_triangles: Vec<TriangleId> = self.locate_all(link.from).collect();
        if from_triangles.is_empty() {
            return Err(LinkError::OffMesh { end: LinkEnd::From, point: link.from });
        }
        let to_triangles: Vec<TriangleId> = self.locate_all(link.to).collect();
        if to_triangles.is_empty() {
            return Err(LinkError::OffMesh { end: LinkEnd::To, point: link.to });
        }
        Ok(Slot { link, from_triangles, to_triangles })
    }

    /// Locates every link's ends again (after the triangles changed) and rebuilds the index.
    pub(crate) fn relocate_links(&mut self) {
        if self.links.live == 0 {
            return;
        }
        let mut slots = std::mem::take(&mut self.links.slots);
        for slot in slots.iter_mut().flatten() {
            slot.from_triangles = self.locate_all(slot.link.from).collect();
            slot.to_triangles = self.locate_all(slot.link.to).collect();
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
        links.pocket_pass.clear();
        for (i, slot) in links.slots.iter().enumerate() {
            let Some(slot) = slot else { continue };
            if slot.from_triangles.is_empty() || slot.to_triangles.is_empty() {
                continue; // unusable until both ends are walkable again
            }
            let link = &slot.link;
            let mut ways = vec![(link.from, &slot.from_triangles, link.to, &slot.to_triangles)];
            if link.bidirectional {
                ways.push((link.to, &slot.to_triangles, link.from, &slot.from_triangles));
            }
            for (from, from_triangles, to, to_triangles) in ways {
                let d = links.directed.len() as u32;
                let at = links.triangles.len() as u32;
                links.triangles.extend_from_slice(to_triangles);
                let to_range = (at, links.triangles.len() as u32);
                links.directed.push(Directed {
                    from,
                    to,
                    cost: link.cost,
                    link: LinkId(i as u32),
                    to_triangles: to_range,
                });
                for &t in from_triangles.iter() {
                    links.starts.push((t.0, d));
                    links.by_island.push((self.island(t).0, d));
                }
                for &t in from_triangles.iter().chain(to_triangles.iter()) {
                    let mut t = t;
                    while let Pocket::Towards(next) = self.pocket(t) {
                        links.pocket_pass.push(t.0);
                        t = next;
                    }
                    if self.pocket(t) == Pocket::Root {
                        links.pocket_pass.push(t.0);
                    }
                }
            }
        }
        links.starts.sort_unstable();
        links.by_island.sort_unstable();
        links.by_island.dedup();
        links.pocket_pass.sort_unstable();
        links.pocket_pass.dedup();
        self.links = links;
    }

    /// The least any path through a link costs to `to`: over the directed links, the cost plus
    /// the straight way from the end (what follows the last link taken is walked). Infinite
    /// without links.
    pub(crate) fn link_bound(&self, to: Point) -> f64 {
        self.links.directed.iter().map(|d| d.cost + d.to.distance(to)).fold(f64::INFINITY, f64::min)
    }

    /// Whether the mesh has a usable link (searches take their link-aware way only then).
    #[inline]
    pub(crate) fn has_links(&self) -> bool {
        self.links.any()
    }
}
