//! A first-order allpass used as a fractional delay.

use std::f64::consts::PI;

/// `H(z) = (c + z⁻¹)/(1 + c·z⁻¹)`: unit gain at every frequency, with a phase delay
/// set to a chosen fraction of a sample at one design frequency.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AllpassDelay {
    coefficient: f64,
    previous_input: f64,
    previous_output: f64,
}

impl AllpassDelay {
    /// An allpass whose phase delay at `omega` (rad/sample, in (0, π)) is exactly
    /// `delay` samples. `delay` should lie in [0.5, 1.5], where the filter is stable
    /// and its phase nearly linear; values outside are clamped to that range.
    pub fn with_phase_delay(delay: f64, omega: f64) -> Self {
        let delay = delay.clamp(0.5, 1.5);
        // Phase delay falls monotonically as the coefficient rises; bisect on it.
        // Thiran's closed form (1 − d)/(1 + d) is exact only as omega → 0.
        let (mut lo, mut hi) = (-0.999_f64, 0.999_f64);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if Self::phase_delay_of(mid, omega) > delay {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Self {
            coefficient: 0.5 * (lo + hi),
            previous_input: 0.0,
            previous_output: 0.0,
        }
    }

    /// Phase delay in samples of coefficient `c` at `omega` (rad/sample).
    pub fn phase_delay_of(c: f64, omega: f64) -> f64 {
        Self::phase_delay_at(c, &Frequency::new(omega))
    }

    /// [`AllpassDelay::phase_delay_of`] at a frequency whose sine and cosine
    /// are known (filter designs evaluate many coefficients at a few
    /// frequencies).
    pub(crate) fn phase_delay_at(c: f64, frequency: &Frequency) -> f64 {
        let Frequency { omega, sin, cos } = *frequency;
        let numerator = (-sin).atan2(c + cos);
        let denominator = (-c * sin).atan2(1.0 + c * cos);
        let mut phase = numerator - denominator;
        if phase > 0.0 {
            phase -= 2.0 * PI;
        }
        -phase / omega
    }

    /// The allpass coefficient `c`.
    pub fn coefficient(&self) -> f64 {
        self.coefficient
    }

    /// This filter's phase delay at `omega` (rad/sample), in samples.
    pub fn phase_delay(&self, omega: f64) -> f64 {
        Self::phase_delay_of(self.coefficient, omega)
    }

    /// The energy held in the filter, in squared wave samples: with the equivalent
    /// single state `s = x[n−1] − c·y[n−1]`, `s²/(1 − c²)` (lossless storage).
    pub fn stored_energy(&self) -> f64 {
        let c = self.coefficient;
        let s = self.previous_input - c * self.previous_output;
        s * s / (1.0 - c * c)
    }

    /// Filters one sample.
    #[inline]
    pub fn process(&mut self, input: f64) -> f64 {
        let output = self.coefficient * (input - self.previous_output) + self.previous_input;
        self.previous_input = input;
        self.previous_output = output;
        output
    }

    /// Clears the filter's memory.
    pub fn reset(&mut self) {
        self.previous_input = 0.0;
        self.previous_output = 0.0;
    }
}

/// An angular frequency (rad/sample) with its sine and cosine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Frequency {
    /// rad/sample.
    pub omega: f64,
    pub sin: f64,
    pub cos: f64,
}

impl Frequency {
    /// `omega` in rad/sample.
    pub(crate) fn new(omega: f64) -> Self {
        let (sin, cos) = omega.sin_cos();
        Self { omega, sin, cos }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The designed phase delay is met at the design frequency, measured by running
    /// a sinusoid through the filter.
    #[test]
    fn meets_phase_delay_at_design_frequency() {
        let omega = 2.0 * PI * 1000.0 / 48_000.0;
        for &target in &[0.5, 0.8, 1.0, 1.37, 1.5] {
            let mut ap = AllpassDelay::with_phase_delay(target, omega);
            assert!((ap.phase_delay(omega) - target).abs() < 1e-9);
            // Steady state: y[n] = sin(omega·(n − d)).
            let mut err: f64 = 0.0;
            for n in 0..20_000 {
                let y = ap.process((omega * n as f64).sin());
                if n > 10_000 {
                    err = err.max((y - (omega * (n as f64 - target)).sin()).abs());
                }
            }
            assert!(err < 1e-9, "delay {target}: error {err}");
        }
    }
}
