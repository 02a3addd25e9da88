//! A mechanism that stops for good: at rest from some time to the end of the
//! trace (Gelsey's escapement with an extra-large tooth, Fig. 28, jams).

use super::trace::Trace;

/// Fraction of the trace's peak kinetic energy below which the mechanism
/// counts as at rest (dimensionless): a millionth of the energy is a
/// thousandth of the speed. The dips that mark cycles lie far above it (the
/// analysis counts minima up to `P_range_fraction` = 0.05 of the range), and
/// a running clock passes below it only for an instant at a turning point.
pub(super) const REST_FRACTION: f64 = 1e-6;

/// Fewest samples a final rest must span, whatever the pauses before it.
const MIN_REST_SAMPLES: usize = 10;

/// The first sample of the mechanism's final rest, if it has one: from that
/// sample to the end of the trace the kinetic energy stays at or below
/// [`REST_FRACTION`] of its peak, for longer than the longest interval
/// between two of `minima` (sample indices of the low kinetic-energy minima,
/// in time order) before the rest, and for at least [`MIN_REST_SAMPLES`]
/// samples. A rest longer than any pause the mechanism took while it ran is
/// taken as a stop: a state whose speeds are zero and whose positions do not
/// change is an equilibrium, which an autonomous mechanism never leaves.
pub(super) fn final_rest(trace: &Trace, minima: &[usize]) -> Option<usize> {
    let energy = trace.kinetic_energy_j();
    let peak = energy.iter().fold(0.0f64, |m, &e| m.max(e));
    if peak <= 0.0 {
        return None;
    }
    let threshold = REST_FRACTION * peak;
    let from = energy
        .iter()
        .rposition(|&e| e > threshold)
        .map_or(0, |i| i + 1);
    let samples = energy.len() - from;
    if samples < MIN_REST_SAMPLES {
        return None;
    }
    let t = trace.times_s();
    let longest_pause_s = minima
        .iter()
        .take_while(|&&i| i < from)
        .zip(minima.iter().skip(1).take_while(|&&i| i < from))
        .map(|(&a, &b)| t[b] - t[a])
        .fold(0.0f64, f64::max);
    (t[t.len() - 1] - t[from] > longest_pause_s).then_some(from)
}

#[cfg(test)]
mod tests {
    use super::final_rest;
    use crate::mech::long_term::{Trace, Unit, Variable};

    fn trace(energy: &[f64]) -> Trace {
        let mut t = Trace::new(vec![Variable::new("x", Unit::Metre)]);
        for (i, &e) in energy.iter().enumerate() {
            t.push(i as f64, &[0.0], e).unwrap();
        }
        t
    }

    #[test]
    fn a_long_final_rest_is_a_stop_and_a_short_one_is_not() {
        let mut e = vec![1.0, 0.1, 1.0, 0.1, 1.0, 0.3];
        e.extend([0.0; 12]);
        assert_eq!(final_rest(&trace(&e), &[1, 3]), Some(6));
        // A pause while running (28 s between minima) longer than the rest.
        let mut running = vec![1.0; 40];
        running.extend([0.0; 12]);
        assert_eq!(final_rest(&trace(&running), &[2, 30]), None);
        let mut short = vec![1.0, 0.1, 1.0];
        short.extend([0.0; 5]);
        assert_eq!(final_rest(&trace(&short), &[1]), None);
        assert_eq!(final_rest(&trace(&[0.0; 20]), &[]), None);
    }
}
