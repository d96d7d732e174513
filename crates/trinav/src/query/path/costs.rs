//! Per-agent area costs and exclusions: what a path query makes of each area type.

use crate::ids::AreaId;

/// What an agent makes of each area type: a cost per type (a positive multiplier of distance,
/// default 1) and the types it may not enter at all (walls to it). Built once per agent kind
/// and put into its [`PathOptions`](crate::PathOptions) ([`with_area_costs`](crate::PathOptions::with_area_costs));
/// it holds no heap memory, so queries with it allocate nothing.
///
/// A path's cost is the sum over its pieces of length times the cost of the area the piece
/// crosses; a piece running along the edge between two types costs the cheaper.
///
/// ```
/// use trinav::{AreaCosts, AreaId};
/// let road = AreaId(1);
/// let water = AreaId(3);
/// let tank = AreaCosts::default().with_cost(road, 0.5)?.with_excluded(water);
/// assert_eq!(tank.cost(road), 0.5);
/// assert_eq!(tank.cost(AreaId(0)), 1.0);
/// assert!(tank.is_excluded(water));
/// assert!(!tank.is_uniform());
/// assert!(AreaCosts::default().with_cost(road, 0.0).is_err());
/// # Ok::<(), trinav::AreaCostError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AreaCosts {
    costs: [f64; AreaId::COUNT],
    /// Bit `a`: type `a` is excluded.
    excluded: u64,
    /// The smallest cost of a type that is not excluded (the heuristics' scale).
    min_cost: f64,
    /// Whether any cost differs from 1.
    weighted: bool,
}

impl Default for AreaCosts {
    /// Every type costs 1 and none is excluded: plain shortest paths.
    fn default() -> Self {
        Self { costs: [1.0; AreaId::COUNT], excluded: 0, min_cost: 1.0, weighted: false }
    }
}

/// A cost that is not a positive finite number, or an area type beyond [`AreaId::MAX`].
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum AreaCostError {
    /// The cost is zero, negative, NaN or infinite.
    #[error("area {area}: cost {cost} must be a finite number above 0")]
    BadCost {
        /// The type.
        area: u8,
        /// The cost asked for.
        cost: f64,
    },
    /// The type is beyond [`AreaId::MAX`].
    #[error("area type {0} is beyond the largest, 63")]
    BadArea(u8),
}

impl AreaCosts {
    /// These costs with type `area` costing `cost` per unit of distance (finite, above 0).
    pub fn with_cost(mut self, area: AreaId, cost: f64) -> Result<Self, AreaCostError> {
        if area > AreaId::MAX {
            return Err(AreaCostError::BadArea(area.0));
        }
        if !(cost.is_finite() && cost > 0.0) {
            return Err(AreaCostError::BadCost { area: area.0, cost });
        }
        self.costs[area.index()] = cost;
        self.update();
        Ok(self)
    }

    /// These costs with type `area` excluded: its triangles are walls to the agent (a type
    /// beyond [`AreaId::MAX`] is on no mesh, and changes nothing).
    pub fn with_excluded(mut self, area: AreaId) -> Self {
        if area <= AreaId::MAX {
            self.excluded |= 1 << area.0;
            self.update();
        }
        self
    }

    fn update(&mut self) {
        let allowed = (0..AreaId::COUNT).filter(|&a| self.excluded & (1 << a) == 0);
        self.min_cost = allowed.map(|a| self.costs[a]).fold(f64::INFINITY, f64::min);
        if !self.min_cost.is_finite() {
            self.min_cost = 1.0;
        }
        self.weighted =
            self.costs.iter().enumerate().any(|(a, &c)| c != 1.0 && self.excluded & (1 << a) == 0);
    }

    /// The one cost every type of `present` (bit `a`: type `a`) that may be entered costs, if
    /// they all cost the same (1 if none may be entered): then the cheapest path over ground
    /// of those types is the shortest, at that cost per unit of its length.
    pub(crate) fn common_cost(&self, present: u64) -> Option<f64> {
        let mut types = present & !self.excluded;
        if types == 0 {
            return Some(1.0);
        }
        let cost = self.costs[types.trailing_zeros() as usize];
        while types != 0 {
            if self.costs[types.trailing_zeros() as usize] != cost {
                return None;
            }
            types &= types - 1;
        }
        Some(cost)
    }

    /// Whether some type of `present` (bit `a`: type `a`) is excluded.
    pub(crate) fn excludes_any_of(&self, present: u64) -> bool {
        self.excluded & present != 0
    }

    /// The smallest cost of a type of `present` (bit `a`: type `a`) that may be entered (the
    /// smallest of any type if none may): a tighter estimate's factor than [`Self::min_cost`]
    /// on a mesh whose types are `present`.
    pub(crate) fn min_cost_of(&self, present: u64) -> f64 {
        let mut types = present & !self.excluded;
        let mut least = f64::INFINITY;
        while types != 0 {
            least = least.min(self.costs[types.trailing_zeros() as usize]);
            types &= types - 1;
        }
        if least.is_finite() { least } else { self.min_cost }
    }

    /// These costs with every type at 1, the same types excluded.
    pub(crate) fn unit(&self) -> Self {
        // The smallest cost of a type that may be entered is 1 (also when none may: see update).
        Self { excluded: self.excluded, ..Self::default() }
    }

    /// The cost of type `area` per unit of distance.
    #[inline]
    pub fn cost(&self, area: AreaId) -> f64 {
        self.costs[area.index() & (AreaId::COUNT - 1)]
    }

    /// Whether type `area` is excluded.
    #[inline]
    pub fn is_excluded(&self, area: AreaId) -> bool {
        area <= AreaId::MAX && self.excluded & (1 << area.0) != 0
    }

    /// Whether these are the defaults' effect: every type that may be entered costs 1 and none
    /// is excluded (plain shortest paths, the searches' fastest route).
    pub fn is_uniform(&self) -> bool {
        !self.weighted && self.excluded == 0
    }

    /// Whether some type that may be entered costs other than 1.
    pub fn is_weighted(&self) -> bool {
        self.weighted
    }

    /// Whether some type is excluded.
    pub fn has_exclusions(&self) -> bool {
        self.excluded != 0
    }

    /// The smallest cost of a type that may be entered.
    pub fn min_cost(&self) -> f64 {
        self.min_cost
    }
}
