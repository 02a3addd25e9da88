//! The per-round-trip loss of a string, lumped into one low-order filter.

/// `H(z) = g·(1 + c)/(1 + c·z⁻¹)`: a one-pole lowpass whose magnitude is matched at
/// two frequencies to the attenuation a travelling wave suffers in one round trip.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossFilter {
    gain: f64,
    coefficient: f64,
    /// `g·(1 + c)`, the input's weight.
    input_gain: f64,
    previous_output: f64,
}

impl LossFilter {
    /// Matches `|H| = g1` at `omega1` and `|H| = g2` at `omega2` (rad/sample,
    /// `0 < omega1 < omega2 < π`, `0 < g2 ≤ g1 < 1`). When the two cannot both be met
    /// by a passive one-pole, the high-frequency loss is reduced to the nearest
    /// attainable value; the gain at `omega1` is always met.
    pub fn matched(g1: f64, omega1: f64, g2: f64, omega2: f64) -> Self {
        // |H|² = g²(1 + c)²/(1 + 2c·cos ω + c²); the ratio of the two squared
        // magnitudes gives (1 − r)c² + 2(cos ω1 − r·cos ω2)c + (1 − r) = 0.
        let r = (g2 / g1).powi(2).min(1.0);
        let coefficient = if r >= 1.0 - 1e-15 {
            0.0
        } else {
            let half_b = omega1.cos() - r * omega2.cos();
            let disc = half_b * half_b - (1.0 - r) * (1.0 - r);
            // The roots multiply to 1: take the one inside the unit circle.
            let root = (-half_b + disc.max(0.0).sqrt()) / (1.0 - r);
            root.clamp(-0.95, 0.0)
        };
        let gain = g1 * (1.0 + 2.0 * coefficient * omega1.cos() + coefficient * coefficient).sqrt()
            / (1.0 + coefficient);
        let gain = gain.min(1.0 - 1e-12);
        Self {
            gain,
            coefficient,
            input_gain: gain * (1.0 + coefficient),
            previous_output: 0.0,
        }
    }

    /// The pole coefficient `c`.
    pub fn coefficient(&self) -> f64 {
        self.coefficient
    }

    /// The input's weight `g·(1 + c)`.
    pub fn input_gain(&self) -> f64 {
        self.input_gain
    }

    /// Magnitude response at `omega` (rad/sample).
    pub fn magnitude(&self, omega: f64) -> f64 {
        let c = self.coefficient;
        self.gain * (1.0 + c) / (1.0 + 2.0 * c * omega.cos() + c * c).sqrt()
    }

    /// Phase delay at `omega` (rad/sample), in samples.
    pub fn phase_delay(&self, omega: f64) -> f64 {
        let c = self.coefficient;
        -(c * omega.sin()).atan2(1.0 + c * omega.cos()) / omega
    }

    /// Filters one sample.
    #[inline]
    pub fn process(&mut self, input: f64) -> f64 {
        let output = self.input_gain * input - self.coefficient * self.previous_output;
        self.previous_output = output;
        output
    }

    /// Clears the filter's memory.
    pub fn reset(&mut self) {
        self.previous_output = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn matches_both_design_points_and_stays_passive() {
        let (w1, w2) = (2.0 * PI * 262.0 / 48_000.0, 2.0 * PI * 2096.0 / 48_000.0);
        let (g1, g2) = (0.995_77, 0.994_11);
        let f = LossFilter::matched(g1, w1, g2, w2);
        assert!((f.magnitude(w1) - g1).abs() < 1e-12);
        assert!((f.magnitude(w2) - g2).abs() < 1e-9);
        for k in 0..=100 {
            assert!(f.magnitude(PI * k as f64 / 100.0) < 1.0);
        }
    }

    /// Phase delay formula agrees with a measured sinusoid.
    #[test]
    fn phase_delay_matches_measurement() {
        let w = 2.0 * PI * 440.0 / 48_000.0;
        let mut f = LossFilter::matched(0.99, w, 0.9, 4.0 * w);
        let d = f.phase_delay(w);
        let m = f.magnitude(w);
        let mut err: f64 = 0.0;
        for n in 0..40_000 {
            let y = f.process((w * n as f64).sin());
            if n > 20_000 {
                err = err.max((y - m * (w * (n as f64 - d)).sin()).abs());
            }
        }
        assert!(err < 1e-9, "{err}");
    }
}
