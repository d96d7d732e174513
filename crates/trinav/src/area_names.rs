//! Names of area types (a level's `"area_names"`), kept with the mesh and in the baked file
//! (format version 5), so that tools and games can address a type as `road` instead of `1`.

use crate::ids::AreaId;

/// What is wrong with a name of an area type.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AreaNameProblem {
    /// The name is empty or only spaces.
    #[error("a name must not be empty")]
    Empty,
    /// The name reads as a number, which the command line takes as a type.
    #[error("a name must not be a number")]
    Numeric,
    /// The type is 0 or beyond [`AreaId::MAX`].
    #[error("area type {0} is outside 1..=63")]
    OutOfRange(u8),
    /// Another name names the same type.
    #[error("area type {area} is named \"{other}\" already")]
    Duplicate {
        /// The type.
        area: u8,
        /// The other name.
        other: String,
    },
    /// The same name is given twice.
    #[error("the name is given twice")]
    Repeated,
}

/// A refused name and what is wrong with it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("area name \"{name}\": {problem}")]
pub struct BadAreaName {
    /// The name.
    pub name: String,
    /// What is wrong with it.
    pub problem: AreaNameProblem,
}

/// The names of a mesh's area types: at most one per type in `1..=63` (type 0, untagged
/// ground, has none), each not empty and not a number, all different.
///
/// ```
/// use trinav::{AreaId, AreaNames};
/// let names = AreaNames::new([("road".to_string(), AreaId(1)), ("mud".to_string(), AreaId(2))])?;
/// assert_eq!(names.area("mud"), Some(AreaId(2)));
/// assert_eq!(names.name(AreaId(1)), Some("road"));
/// assert!(AreaNames::new([("7".to_string(), AreaId(3))]).is_err());
/// # Ok::<(), trinav::BadAreaName>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AreaNames {
    /// Sorted by name.
    names: Vec<(String, AreaId)>,
}

impl AreaNames {
    /// The names `pairs` give, checked by the rules above (the first name refused is named).
    pub fn new(pairs: impl IntoIterator<Item = (String, AreaId)>) -> Result<AreaNames, BadAreaName> {
        let mut names: Vec<(String, AreaId)> = pairs.into_iter().collect();
        names.sort();
        let mut named: [Option<usize>; AreaId::COUNT] = [None; AreaId::COUNT];
        for (i, (name, area)) in names.iter().enumerate() {
            let problem = if name.trim().is_empty() {
                Some(AreaNameProblem::Empty)
            } else if name.trim().parse::<f64>().is_ok() {
                Some(AreaNameProblem::Numeric)
            } else if area.0 == 0 || *area > AreaId::MAX {
                Some(AreaNameProblem::OutOfRange(area.0))
            } else if i > 0 && names[i - 1].0 == *name {
                Some(AreaNameProblem::Repeated)
            } else if let Some(other) = named[area.0 as usize] {
                Some(AreaNameProblem::Duplicate { area: area.0, other: names[other].0.clone() })
            } else {
                named[area.0 as usize] = Some(i);
                None
            };
            if let Some(problem) = problem {
                return Err(BadAreaName { name: name.clone(), problem });
            }
        }
        Ok(AreaNames { names })
    }

    /// The type named `name`.
    pub fn area(&self, name: &str) -> Option<AreaId> {
        let at = self.names.binary_search_by(|(n, _)| n.as_str().cmp(name)).ok()?;
        Some(self.names[at].1)
    }

    /// The name of type `area`.
    pub fn name(&self, area: AreaId) -> Option<&str> {
        self.names.iter().find(|(_, a)| *a == area).map(|(n, _)| n.as_str())
    }

    /// Every name with its type, by name.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, AreaId)> + '_ {
        self.names.iter().map(|(n, a)| (n.as_str(), *a))
    }

    /// How many types are named.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no type is named.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(pairs: &[(&str, u8)]) -> Result<AreaNames, BadAreaName> {
        AreaNames::new(pairs.iter().map(|&(n, a)| (n.to_string(), AreaId(a))))
    }

    #[test]
    fn names_are_found_both_ways_and_kept_in_name_order() {
        let names = named(&[("water", 3), ("road", 1), ("mud", 2)]).unwrap();
        assert_eq!(names.iter().map(|(n, _)| n).collect::<Vec<_>>(), ["mud", "road", "water"]);
        assert_eq!((names.area("road"), names.area("lava")), (Some(AreaId(1)), None));
        assert_eq!((names.name(AreaId(3)), names.name(AreaId(4))), (Some("water"), None));
        assert_eq!(names.len(), 3);
        assert!(named(&[]).unwrap().is_empty());
    }

    #[test]
    fn each_rule_refuses_by_name() {
        let problem = |pairs: &[(&str, u8)]| named(pairs).unwrap_err();
        assert_eq!(problem(&[(" ", 1)]).problem, AreaNameProblem::Empty);
        assert_eq!(problem(&[("2.5", 1)]).problem, AreaNameProblem::Numeric);
        assert_eq!(problem(&[("sky", 0)]).problem, AreaNameProblem::OutOfRange(0));
        assert_eq!(problem(&[("sky", 64)]).problem, AreaNameProblem::OutOfRange(64));
        assert_eq!(
            problem(&[("a", 5), ("a", 6)]),
            BadAreaName { name: "a".into(), problem: AreaNameProblem::Repeated }
        );
        assert_eq!(
            problem(&[("b", 5), ("a", 5)]),
            BadAreaName {
                name: "b".into(),
                problem: AreaNameProblem::Duplicate { area: 5, other: "a".into() }
            }
        );
    }
}
