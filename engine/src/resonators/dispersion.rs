//! Stiffness dispersion: a cascade of identical first-order allpasses whose phase
//! delay falls with frequency, so that a string loop's partials spread out as a
//! stiff string's do, `f_n = n·f0·√(1 + B·n²)`.

use super::AllpassDelay;
use super::fractional_delay::Frequency;

/// The most allpass sections a string loop carries.
pub const MAX_DISPERSION_SECTIONS: usize = 8;

/// Frequency (Hz) of partial `n` of a stiff string with inharmonicity `b` whose
/// first partial is at `first_partial_hz`: `n·f0·√(1 + B·n²)` with
/// `f0 = f1/√(1 + B)`.
pub fn stiff_partial_hz(first_partial_hz: f64, b: f64, n: u32) -> f64 {
    let n = f64::from(n);
    first_partial_hz / (1.0 + b).sqrt() * n * (1.0 + b * n * n).sqrt()
}

/// A designed dispersion filter: `sections` first-order allpasses
/// `(a + z⁻¹)/(1 + a·z⁻¹)`, all with the coefficient `a` (in (−1, 0]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DispersionDesign {
    /// Number of sections, 0 to [`MAX_DISPERSION_SECTIONS`].
    pub sections: usize,
    /// The common allpass coefficient `a`.
    pub coefficient: f64,
}

/// The partials a design is fitted to: at most eight, all below 0.45 of the rate.
fn fitted_partials(first_partial_hz: f64, b: f64, sample_rate: f64) -> u32 {
    (1..=8u32)
        .take_while(|&n| stiff_partial_hz(first_partial_hz, b, n) < 0.45 * sample_rate)
        .last()
        .unwrap_or(1)
}

/// A partial a design is fitted to, as the fit sees it.
#[derive(Debug, Clone, Copy)]
struct FittedPartial {
    frequency: Frequency,
    /// The loop delay the partial needs, samples.
    target: f64,
    /// The delay of the loop's other filters at it, samples.
    other: f64,
}

impl Default for FittedPartial {
    fn default() -> Self {
        Self {
            frequency: Frequency::new(0.0),
            target: 0.0,
            other: 0.0,
        }
    }
}

impl DispersionDesign {
    /// No dispersion: a flexible string.
    pub const NONE: Self = Self {
        sections: 0,
        coefficient: 0.0,
    };

    /// Phase delay of the whole cascade at `omega` (rad/sample), in samples.
    pub fn phase_delay(&self, omega: f64) -> f64 {
        if self.sections == 0 {
            0.0
        } else {
            self.sections as f64 * AllpassDelay::phase_delay_of(self.coefficient, omega)
        }
    }

    /// Designs the cascade for a string of inharmonicity `b` whose first partial is
    /// at `first_partial_hz`, at `sample_rate` (Hz).
    ///
    /// The loop's phase delay at partial `n` must be `n·fs/f_n` samples. The
    /// fundamental is tuned exactly elsewhere (whole samples and a fractional
    /// allpass); here the coefficient is fitted so that the *differences* between
    /// the loop delay at partials 2…8 (those below 0.45·fs) and at the first partial
    /// match the stiff string's, in the least-squares sense of relative frequency
    /// error. `other_delay(omega)` is the phase delay (samples) of the loop's other
    /// filters, whose frequency dependence the fit accounts for. The fewest
    /// sections (up to `max_sections`) whose worst partial lies within 0.3 cent are
    /// chosen; the design never takes more than `delay_budget` samples of delay at
    /// the fundamental.
    ///
    /// Allocates: nothing. Costs a few thousand `atan2` calls.
    pub fn design(
        b: f64,
        first_partial_hz: f64,
        sample_rate: f64,
        max_sections: usize,
        delay_budget: f64,
        other_delay: impl Fn(f64) -> f64,
    ) -> Self {
        let max_sections = max_sections.min(MAX_DISPERSION_SECTIONS);
        if !(b.is_finite() && b > 0.0) || max_sections == 0 {
            return Self::NONE;
        }
        let partials = fitted_partials(first_partial_hz, b, sample_rate);
        if partials < 2 {
            return Self::NONE;
        }
        // What does not depend on the design, at each fitted partial (index
        // n − 1): its frequency, the loop delay it needs, and the other
        // filters' delay.
        let mut at = [FittedPartial::default(); 8];
        for (n, partial) in (1..=partials).zip(at.iter_mut()) {
            let hz = stiff_partial_hz(first_partial_hz, b, n);
            let frequency = Frequency::new(2.0 * std::f64::consts::PI * hz / sample_rate);
            *partial = FittedPartial {
                frequency,
                target: f64::from(n) * sample_rate / hz,
                other: other_delay(frequency.omega),
            };
        }
        let at = &at[..partials as usize];
        let first = at[0];
        // One section's phase delay at each fitted partial, for coefficient `a`.
        let section_delays = |a: f64| {
            let mut delays = [0.0; 8];
            for (delay, p) in delays.iter_mut().zip(at) {
                *delay = AllpassDelay::phase_delay_at(a, &p.frequency);
            }
            delays
        };
        // Relative frequency error at each fitted partial, for `m` sections
        // whose single-section delays are `delays`.
        let errors_of = |m: usize, delays: [f64; 8]| {
            let sections = m as f64;
            let base = sections * delays[0] + first.other;
            at.iter().enumerate().skip(1).map(move |(n, p)| {
                let delay = sections * delays[n];
                let model = first.target - (base - delay - p.other);
                model / p.target - 1.0
            })
        };
        let cost_of = |m: usize, delays: [f64; 8]| errors_of(m, delays).map(|e| e * e).sum::<f64>();
        let errors = |m: usize, a: f64| errors_of(m, section_delays(a));
        // The coefficient as a function of t ≥ 0: a = −(1 − e^(−t)), which spreads
        // the search evenly over the region near −1 where low strings need it.
        let coefficient_of = |t: f64| -(1.0 - (-t).exp());
        // The coarse scan's grid of t, shared by every number of sections.
        const STEPS: u32 = 96;
        const T_MAX: f64 = 9.0;
        let grid_t = |i: u32| T_MAX * f64::from(i) / f64::from(STEPS);
        let mut grid = [[0.0; 8]; STEPS as usize + 1];
        for (i, delays) in (0..=STEPS).zip(grid.iter_mut()) {
            *delays = section_delays(coefficient_of(grid_t(i)));
        }
        let mut best = Self::NONE;
        let mut best_worst = f64::INFINITY;
        for m in 1..=max_sections {
            // The cost of `m` sections with these single-section delays, or
            // infinity if their delay at the fundamental exceeds the budget.
            let cost_within_budget = |delays: [f64; 8]| {
                if m as f64 * delays[0] <= delay_budget {
                    cost_of(m, delays)
                } else {
                    f64::INFINITY
                }
            };
            let cost_at = |t: f64| cost_within_budget(section_delays(coefficient_of(t)));
            // Coarse scan, then golden-section refinement around the best point.
            let (mut best_t, mut best_cost) = (0.0, f64::INFINITY);
            for (i, delays) in (0..=STEPS).zip(grid) {
                let c = cost_within_budget(delays);
                if c.is_infinite() {
                    break;
                }
                if c < best_cost {
                    (best_t, best_cost) = (grid_t(i), c);
                }
            }
            if !best_cost.is_finite() {
                break;
            }
            let h = T_MAX / f64::from(STEPS);
            let (mut lo, mut hi) = ((best_t - h).max(0.0), best_t + h);
            let ratio = 0.5 * (5f64.sqrt() - 1.0);
            for _ in 0..40 {
                let x1 = hi - ratio * (hi - lo);
                let x2 = lo + ratio * (hi - lo);
                if cost_at(x1) <= cost_at(x2) {
                    hi = x2;
                } else {
                    lo = x1;
                }
            }
            let t = 0.5 * (lo + hi);
            let t = if cost_at(t) <= best_cost { t } else { best_t };
            let a = coefficient_of(t);
            let worst = errors(m, a).fold(0.0f64, |w, e| w.max(e.abs()));
            if worst < best_worst {
                best_worst = worst;
                best = Self {
                    sections: m,
                    coefficient: a,
                };
            }
            // 0.3 cent as a frequency ratio.
            if best_worst < 0.3 / 1731.2 {
                break;
            }
        }
        best
    }
}

/// The running cascade, each section in one-multiplier form,
/// `y = a·(x − y₋₁) + x₋₁`: one multiply-add and one subtraction a section.
/// Section `k`'s last output is section `k + 1`'s last input, so the cascade
/// keeps `sections + 1` past values: its last input, then each section's last
/// output.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DispersionCascade {
    sections: usize,
    coefficient: f64,
    past: [f64; MAX_DISPERSION_SECTIONS + 1],
}

impl DispersionCascade {
    /// A cascade at rest running `design`.
    pub fn new(design: DispersionDesign) -> Self {
        Self {
            sections: design.sections.min(MAX_DISPERSION_SECTIONS),
            coefficient: design.coefficient,
            past: [0.0; MAX_DISPERSION_SECTIONS + 1],
        }
    }

    /// Filters one sample.
    #[inline]
    pub fn process(&mut self, input: f64) -> f64 {
        let a = self.coefficient;
        let mut x = input;
        for k in 0..self.sections {
            let y = a * (x - self.past[k + 1]) + self.past[k];
            self.past[k] = x;
            x = y;
        }
        self.past[self.sections] = x;
        x
    }

    /// The energy held in the sections, in squared wave samples: a section
    /// whose last input and output were `x₋₁` and `y₋₁` holds `s²/(1 − a²)`
    /// with `s = x₋₁ − a·y₋₁`, the storage function for which, sample by
    /// sample, stored energy grows by exactly `x² − y²` (the allpass is
    /// lossless).
    pub fn stored_energy(&self) -> f64 {
        let past = &self.past[..=self.sections];
        section_energy(self.coefficient, past.windows(2).map(|w| (w[0], w[1])))
    }

    /// Clears the filter's memory.
    pub fn reset(&mut self) {
        self.past = [0.0; MAX_DISPERSION_SECTIONS + 1];
    }
}

/// The energy stored in a cascade of sections of coefficient `a`, given each
/// section's last input and output (see [`DispersionCascade::stored_energy`]).
pub(crate) fn section_energy(a: f64, pasts: impl Iterator<Item = (f64, f64)>) -> f64 {
    let sum: f64 = pasts
        .map(|(input, output)| {
            let s = input - a * output;
            s * s
        })
        .sum();
    sum / (1.0 - a * a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// The running cascade has the phase delay the design reports, measured with a
    /// sinusoid.
    /// Energy in equals energy out plus energy stored, sample by sample.
    #[test]
    fn stored_energy_balances() {
        let mut c = DispersionCascade::new(DispersionDesign {
            sections: 8,
            coefficient: -0.93,
        });
        let (mut e_in, mut e_out) = (0.0, 0.0);
        for n in 0..500 {
            let x = if n < 50 { (n as f64 * 0.37).sin() } else { 0.0 };
            let y = c.process(x);
            e_in += x * x;
            e_out += y * y;
            let balance = e_in - e_out - c.stored_energy();
            assert!(balance.abs() < 1e-9 * e_in.max(1.0), "{n}: {balance}");
        }
    }

    #[test]
    fn cascade_delays_as_designed() {
        let design = DispersionDesign {
            sections: 5,
            coefficient: -0.4,
        };
        let mut c = DispersionCascade::new(design);
        let w = 2.0 * PI * 3000.0 / 48_000.0;
        let d = design.phase_delay(w);
        let mut err: f64 = 0.0;
        for n in 0..20_000 {
            let y = c.process((w * n as f64).sin());
            if n > 10_000 {
                err = err.max((y - (w * (n as f64 - d)).sin()).abs());
            }
        }
        assert!(err < 1e-9, "{err}");
    }

    /// For C4's B the designed loop puts partials 2…8 within half a cent of the
    /// stiff string's (first partial exact by construction; eight sections reach
    /// 0.39 cent at partial 8 at 48 kHz); for B = 0 nothing is built.
    #[test]
    fn design_fits_the_stiff_partials() {
        let fs = 48_000.0;
        let (f1, b) = (261.63, 3.77e-4);
        let d = DispersionDesign::design(b, f1, fs, 8, 100.0, |_| 0.0);
        assert!(d.sections >= 1 && d.coefficient < 0.0, "{d:?}");
        let w = |n| 2.0 * PI * stiff_partial_hz(f1, b, n) / fs;
        let rest = fs / f1 - d.phase_delay(w(1));
        for n in 2..=8 {
            let loop_delay = rest + d.phase_delay(w(n));
            let target = f64::from(n) * fs / stiff_partial_hz(f1, b, n);
            let cents = 1200.0 * (target / loop_delay).log2();
            assert!(cents.abs() < 0.5, "partial {n}: {cents} cents");
        }
        assert_eq!(
            DispersionDesign::design(0.0, f1, fs, 8, 100.0, |_| 0.0),
            DispersionDesign::NONE
        );
    }
}
