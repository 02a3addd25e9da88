//! The lumped loop filters of a unison's strings, run side by side.
//!
//! Lane `i` of every array belongs to string `i` of the note, so each filter
//! stage is one element-wise operation over [`LANES`] values per sample for all
//! the strings together: one 256-bit vector instruction when compiled with AVX2
//! (see [`Unison`](super::Unison)), two 128-bit ones otherwise. Lanes without a
//! string are fed zero and stay at zero.

use super::dispersion::MAX_DISPERSION_SECTIONS;
use super::{AllpassDelay, DispersionDesign, LossFilter};
use crate::wdf::fused::MulAdd;

/// Strings per vector: four `f64`, one AVX register.
pub(crate) const LANES: usize = 4;

/// One value per string of a note; lanes without a string are zero.
pub(crate) type Lanes = [f64; LANES];

/// Coefficient of a padding dispersion section: `(1 + z⁻¹)/(1 + z⁻¹) = 1`. With
/// its state at rest it passes its input exactly and stays at rest (`y = x`,
/// `s ← x − y = 0`, with or without fused multiply-add), so a string with fewer
/// sections than its neighbours keeps exactly its own dispersion.
const IDENTITY_SECTION: f64 = 1.0;

/// The filters one string's wave passes before the bridge, as designed: its
/// dispersion cascade, fractional-delay allpass and loss filter (all at rest).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LoopFilters {
    pub dispersion: DispersionDesign,
    pub tuning: AllpassDelay,
    pub loss: LossFilter,
}

/// Dispersion allpasses, fractional-delay allpass and one-pole loss filter of up
/// to [`LANES`] strings, in that order, with the same recurrences as
/// [`DispersionCascade`](super::DispersionCascade), [`AllpassDelay`] and
/// [`LossFilter`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LoopFilterLanes {
    /// Dispersion sections run: the most any string has.
    sections: usize,
    /// Each string's own number of dispersion sections.
    lane_sections: [usize; LANES],
    /// Allpass coefficient of each section, per string.
    dispersion: [Lanes; MAX_DISPERSION_SECTIONS],
    /// Transposed-direct-form state of each section, per string.
    dispersion_state: [Lanes; MAX_DISPERSION_SECTIONS],
    /// Fractional-delay allpass coefficient.
    tuning: Lanes,
    tuning_input: Lanes,
    tuning_output: Lanes,
    /// Loss filter: input weight `g·(1 + c)` and pole coefficient `c`.
    loss_input_gain: Lanes,
    loss: Lanes,
    loss_output: Lanes,
}

impl LoopFilterLanes {
    /// The filters of `strings` (at most [`LANES`]; more are ignored), at rest.
    pub(crate) fn new(strings: &[LoopFilters]) -> Self {
        let mut lanes = Self {
            sections: 0,
            lane_sections: [0; LANES],
            dispersion: [[IDENTITY_SECTION; LANES]; MAX_DISPERSION_SECTIONS],
            dispersion_state: [[0.0; LANES]; MAX_DISPERSION_SECTIONS],
            tuning: [0.0; LANES],
            tuning_input: [0.0; LANES],
            tuning_output: [0.0; LANES],
            loss_input_gain: [0.0; LANES],
            loss: [0.0; LANES],
            loss_output: [0.0; LANES],
        };
        for (i, f) in strings.iter().take(LANES).enumerate() {
            let sections = f.dispersion.sections.min(MAX_DISPERSION_SECTIONS);
            lanes.lane_sections[i] = sections;
            lanes.sections = lanes.sections.max(sections);
            for a in &mut lanes.dispersion[..sections] {
                a[i] = f.dispersion.coefficient;
            }
            lanes.tuning[i] = f.tuning.coefficient();
            lanes.loss_input_gain[i] = f.loss.input_gain();
            lanes.loss[i] = f.loss.coefficient();
        }
        lanes
    }

    /// Filters one sample of every string.
    #[inline(always)]
    pub(crate) fn process<M: MulAdd>(&mut self, input: Lanes) -> Lanes {
        let mut x = input;
        let sections = self.sections;
        for (a, s) in self.dispersion[..sections]
            .iter()
            .zip(&mut self.dispersion_state[..sections])
        {
            for i in 0..LANES {
                let y = M::mul_add(a[i], x[i], s[i]);
                s[i] = M::mul_add(-a[i], y, x[i]);
                x[i] = y;
            }
        }
        let mut out = [0.0; LANES];
        for i in 0..LANES {
            let t = M::mul_add(
                self.tuning[i],
                x[i] - self.tuning_output[i],
                self.tuning_input[i],
            );
            self.tuning_input[i] = x[i];
            self.tuning_output[i] = t;
            out[i] = M::mul_add(
                -self.loss[i],
                self.loss_output[i],
                self.loss_input_gain[i] * t,
            );
            self.loss_output[i] = out[i];
        }
        out
    }

    /// The energy held in string `lane`'s allpasses, in squared wave samples (the
    /// loss filter's single state is left out), as
    /// [`DispersionCascade::stored_energy`](super::DispersionCascade::stored_energy)
    /// and [`AllpassDelay::stored_energy`] count it.
    pub(crate) fn stored_energy(&self, lane: usize) -> f64 {
        let Some(&sections) = self.lane_sections.get(lane) else {
            return 0.0;
        };
        let dispersion = if sections == 0 {
            0.0
        } else {
            let a = self.dispersion[0][lane];
            let sum: f64 = self.dispersion_state[..sections]
                .iter()
                .map(|s| s[lane] * s[lane])
                .sum();
            sum / (1.0 - a * a)
        };
        let c = self.tuning[lane];
        let s = self.tuning_input[lane] - c * self.tuning_output[lane];
        dispersion + s * s / (1.0 - c * c)
    }

    /// Carries on the memory of `old` (the same strings' filters, perhaps
    /// designed anew) with these coefficients, so that a slowly varying wave
    /// passes on unchanged. The fractional-delay and loss filters remember
    /// signal values, copied as they are. A dispersion section's state holds
    /// `(1 − a)·x` for a slowly varying input `x`: it is rescaled by
    /// `(1 − a')/(1 − a)` for a new coefficient `a'`, and a section the old
    /// string lacked starts from `(1 − a')` times the wave that left the old
    /// cascade. Unchanged coefficients copy the memory exactly.
    pub(crate) fn continue_from(&mut self, old: &LoopFilterLanes) {
        self.tuning_input = old.tuning_input;
        self.tuning_output = old.tuning_output;
        self.loss_output = old.loss_output;
        for lane in 0..LANES {
            self.continue_dispersion_lane(old, lane);
        }
    }

    /// [`LoopFilterLanes::continue_from`] for string `lane`'s dispersion
    /// sections; padding sections stay exactly at rest.
    fn continue_dispersion_lane(&mut self, old: &LoopFilterLanes, lane: usize) {
        let (sections, old_sections) = (self.lane_sections[lane], old.lane_sections[lane]);
        let wave_out = old.tuning_input[lane];
        for k in 0..MAX_DISPERSION_SECTIONS {
            let a = self.dispersion[k][lane];
            self.dispersion_state[k][lane] = if k >= sections {
                0.0
            } else if k < old_sections {
                let old_a = old.dispersion[k][lane];
                let state = old.dispersion_state[k][lane];
                if a == old_a {
                    state
                } else {
                    state * (1.0 - a) / (1.0 - old_a)
                }
            } else {
                (1.0 - a) * wave_out
            };
        }
    }

    /// Clears every filter's memory.
    pub(crate) fn reset(&mut self) {
        self.dispersion_state = [[0.0; LANES]; MAX_DISPERSION_SECTIONS];
        self.tuning_input = [0.0; LANES];
        self.tuning_output = [0.0; LANES];
        self.loss_output = [0.0; LANES];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resonators::DispersionCascade;
    use crate::wdf::fused::Separate;
    use std::f64::consts::PI;

    /// Three strings, the last with fewer dispersion sections than the others.
    fn three() -> [LoopFilters; 3] {
        let w = 2.0 * PI * 300.0 / 48_000.0;
        let string = |sections, coefficient, delay, g| LoopFilters {
            dispersion: DispersionDesign {
                sections,
                coefficient,
            },
            tuning: AllpassDelay::with_phase_delay(delay, w),
            loss: LossFilter::matched(g, w, g - 0.01, 5.0 * w),
        };
        [
            string(8, -0.57, 0.7, 0.995),
            string(8, -0.56, 1.1, 0.99),
            string(5, -0.3, 1.4, 0.98),
        ]
    }

    /// A different signal on each string's lane, none on the unused one.
    fn signal(n: usize) -> Lanes {
        std::array::from_fn(|i| {
            if i < 3 {
                ((n * (i + 3)) as f64 * 0.173).sin()
            } else {
                0.0
            }
        })
    }

    /// Each lane, without fused multiply-adds, is bit for bit the scalar filters
    /// in series, padding sections included; stored energies agree.
    #[test]
    fn lanes_equal_the_scalar_filters() {
        let strings = three();
        let mut lanes = LoopFilterLanes::new(&strings);
        let mut scalar = strings.map(|f| (DispersionCascade::new(f.dispersion), f.tuning, f.loss));
        for n in 0..2000 {
            let input = signal(n);
            let out = lanes.process::<Separate>(input);
            for (i, (d, t, l)) in scalar.iter_mut().enumerate() {
                let y = l.process(t.process(d.process(input[i])));
                assert_eq!(out[i], y, "sample {n}, string {i}");
                let e = d.stored_energy() + t.stored_energy();
                assert!((lanes.stored_energy(i) - e).abs() <= 1e-12 * e.max(1.0));
            }
            assert_eq!(out[3], 0.0);
        }
    }

    /// With fused multiply-adds (where the processor has them) the lanes differ
    /// from the scalar filters only by rounding.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn fused_lanes_differ_by_rounding_only() {
        use crate::wdf::fused::{self, Fused};
        if !fused::available() {
            return;
        }
        #[target_feature(enable = "avx2,fma")]
        fn run(lanes: &mut LoopFilterLanes, input: Lanes) -> Lanes {
            lanes.process::<Fused>(input)
        }
        let strings = three();
        let (mut fused_lanes, mut plain) = (
            LoopFilterLanes::new(&strings),
            LoopFilterLanes::new(&strings),
        );
        for n in 0..20_000 {
            let input = signal(n);
            // SAFETY: AVX2 and FMA were detected above.
            let a = unsafe { run(&mut fused_lanes, input) };
            let b = plain.process::<Separate>(input);
            for i in 0..LANES {
                assert!((a[i] - b[i]).abs() < 1e-12, "sample {n}, string {i}");
            }
        }
    }

    /// Filters continued with the same coefficients go on exactly; continued
    /// with other dispersion (coefficients and numbers of sections) and other
    /// fractional delays, a steady wave passes on unchanged from the first
    /// sample, and padding sections stay at rest.
    #[test]
    fn continued_filters_pass_a_steady_wave_on_unchanged() {
        let old_strings = three();
        let mut old = LoopFilterLanes::new(&old_strings);
        let steady = [0.3, -0.2, 0.7, 0.0];
        for _ in 0..5_000 {
            old.process::<Separate>(steady);
        }
        let mut same = LoopFilterLanes::new(&old_strings);
        same.continue_from(&old);
        assert_eq!(same, old);
        let w = 2.0 * PI * 300.0 / 48_000.0;
        let mut retuned = old_strings;
        for (f, (sections, a, delay)) in
            retuned
                .iter_mut()
                .zip([(6, -0.5, 1.3), (8, -0.6, 0.6), (7, -0.35, 1.0)])
        {
            f.dispersion = DispersionDesign {
                sections,
                coefficient: a,
            };
            f.tuning = AllpassDelay::with_phase_delay(delay, w);
        }
        let mut new = LoopFilterLanes::new(&retuned);
        new.continue_from(&old);
        let before = old.process::<Separate>(steady);
        for n in 0..100 {
            let after = new.process::<Separate>(steady);
            for i in 0..3 {
                assert!(
                    (after[i] - before[i]).abs() < 1e-12,
                    "sample {n}, string {i}"
                );
            }
        }
        for s in &new.dispersion_state[7..] {
            assert_eq!(s[2], 0.0);
        }
    }

    /// The unused lane and padding sections stay exactly at rest.
    #[test]
    fn padding_stays_at_rest() {
        let mut lanes = LoopFilterLanes::new(&three());
        for n in 0..500 {
            lanes.process::<Separate>(signal(n));
        }
        for s in &lanes.dispersion_state[5..] {
            assert_eq!(s[2], 0.0);
        }
        assert_eq!(lanes.stored_energy(3), 0.0);
    }
}
