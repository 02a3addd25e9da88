//! Kinetic-energy minima: the candidate boundaries of behaviour patterns.

/// Sample indices of the local minima of `energy_j` that lie in the bottom
/// `fraction` of its range (`E ≤ E_min + fraction × (E_max − E_min)`), in
/// time order. A flat run of equal samples between a fall and a rise counts
/// once, at its middle sample. The first and last samples are never minima
/// (what happens beyond them is unknown). A constant energy has no minima.
///
/// Two neighbouring low minima between which the energy rises less than
/// `prominence × (E_max − E_min)` above the higher of them are one minimum,
/// the lower: numerical noise on a slowly turning part makes such wiggles.
///
/// Allocates: the returned list.
pub(super) fn low_minima(energy_j: &[f64], fraction: f64, prominence: f64) -> Vec<usize> {
    let (lo, hi) = energy_j
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &e| {
            (lo.min(e), hi.max(e))
        });
    let mut minima = Vec::new();
    if hi <= lo {
        return minima;
    }
    let threshold = lo + fraction * (hi - lo);
    let mut i = 1;
    while i + 1 < energy_j.len() {
        if energy_j[i] < energy_j[i - 1] {
            let mut end = i;
            while end + 1 < energy_j.len() && energy_j[end + 1] == energy_j[i] {
                end += 1;
            }
            let rises_after = end + 1 < energy_j.len() && energy_j[end + 1] > energy_j[i];
            if rises_after && energy_j[i] <= threshold {
                let here = (i + end) / 2;
                match minima.last_mut() {
                    Some(last) if !separated(energy_j, *last, here, prominence * (hi - lo)) => {
                        if energy_j[here] < energy_j[*last] {
                            *last = here;
                        }
                    }
                    _ => minima.push(here),
                }
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
    minima
}

/// Whether the energy between minima `a < b` rises more than `rise_j` above
/// the higher of the two.
fn separated(energy_j: &[f64], a: usize, b: usize, rise_j: f64) -> bool {
    let peak = energy_j[a..=b]
        .iter()
        .fold(f64::NEG_INFINITY, |m, &e| m.max(e));
    peak - energy_j[a].max(energy_j[b]) > rise_j
}

#[cfg(test)]
mod tests {
    use super::low_minima;

    #[test]
    fn finds_low_minima_and_plateau_middles_only() {
        // Minima at 2 (0.0), a plateau 6..=8 (0.1) and 11 (0.9, too high).
        let e = [
            1.0, 0.5, 0.0, 0.5, 1.0, 0.6, 0.1, 0.1, 0.1, 0.7, 1.0, 0.9, 1.0,
        ];
        assert_eq!(low_minima(&e, 0.25, 0.0), vec![2, 7]);
        assert_eq!(low_minima(&e, 1.0, 0.0), vec![2, 7, 11]);
    }

    #[test]
    fn noise_wiggles_merge_into_the_lowest_minimum() {
        // A dip with a wiggle (0.02, 0.03, 0.01), then a real rise to 1.
        let e = [1.0, 0.5, 0.02, 0.03, 0.01, 0.5, 1.0, 0.4, 0.0, 0.6, 1.0];
        assert_eq!(low_minima(&e, 0.25, 0.0), vec![2, 4, 8]);
        assert_eq!(low_minima(&e, 0.25, 0.05), vec![4, 8]);
        // A rise of 0.01 above the higher minimum is kept apart at 0.005.
        assert_eq!(low_minima(&e, 0.25, 0.005), vec![2, 4, 8]);
    }

    #[test]
    fn ends_and_constant_energy_are_not_minima() {
        assert!(low_minima(&[0.0, 1.0, 2.0, 1.0, 0.0], 1.0, 0.0).is_empty());
        assert!(low_minima(&[3.0; 10], 1.0, 0.0).is_empty());
        assert!(low_minima(&[], 1.0, 0.0).is_empty());
    }
}
