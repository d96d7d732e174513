//! Quantiles of measured values, as every trinav tool reports them.

/// The value at quantile `q` (0 to 1) of `sorted` (ascending), by nearest rank: the element at
/// index `round((n - 1) q)`. 0 for an empty slice.
///
/// ```
/// use trinav_tools::stats::quantile;
/// let sorted = [1.0, 2.0, 3.0, 4.0, 100.0];
/// assert_eq!(quantile(&sorted, 0.5), 3.0);
/// assert_eq!(quantile(&sorted, 0.99), 100.0);
/// assert_eq!(quantile(&[], 0.5), 0.0);
/// ```
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() { 0.0 } else { sorted[((sorted.len() - 1) as f64 * q).round() as usize] }
}

/// The median of `values` (in any order), by [`quantile`]; 0 for none.
///
/// ```
/// assert_eq!(trinav_tools::stats::median(&[5.0, 1.0, 3.0]), 3.0);
/// ```
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    quantile(&sorted, 0.5)
}

/// The arithmetic mean of `values`, `None` for none.
///
/// ```
/// assert_eq!(trinav_tools::stats::mean(&[1.0, 2.0]), Some(1.5));
/// assert_eq!(trinav_tools::stats::mean(&[]), None);
/// ```
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}
