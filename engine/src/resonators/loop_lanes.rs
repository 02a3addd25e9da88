//! The lumped loop filters of a unison's strings, run side by side.
//!
//! Lane `i` of every array belongs to string `i` of the note, so each filter
//! stage is one element-wise operation over [`LANES`] values per sample for all
//! the strings together: one 256-bit vector instruction when compiled with AVX2
//! (see [`Unison`](super::Unison)), two 128-bit ones otherwise. Lanes without a
//! string are fed zero and stay at zero.

use super::dispersion::{MAX_DISPERSION_SECTIONS, section_energy};
use super::{AllpassDelay, DispersionDesign, LossFilter};
use crate::wdf::fused::MulAdd;

/// Strings per vector: four `f64`, one AVX register.
pub(crate) const LANES: usize = 4;

/// One value per string of a note; lanes without a string are zero.
pub(crate) type Lanes = [f64; LANES];

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
/// [`LossFilter`]. Every string has as many dispersion sections (the strings
/// of a unison are designed so).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LoopFilterLanes {
    /// Dispersion sections, the same for every string.
    sections: usize,
    /// Allpass coefficient `a` of every section, per string (0 in lanes
    /// without one).
    dispersion: Lanes,
    /// Each section's last input, per string.
    dispersion_input: [Lanes; MAX_DISPERSION_SECTIONS],
    /// Each section's last output, per string.
    dispersion_output: [Lanes; MAX_DISPERSION_SECTIONS],
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
    /// The filters of `strings` (at most [`LANES`]; more are ignored), at
    /// rest. They run as many dispersion sections as the first string has.
    pub(crate) fn new(strings: &[LoopFilters]) -> Self {
        let sections = strings
            .first()
            .map_or(0, |f| f.dispersion.sections.min(MAX_DISPERSION_SECTIONS));
        debug_assert!(strings.iter().all(|f| f.dispersion.sections == sections));
        let mut lanes = Self {
            sections,
            dispersion: [0.0; LANES],
            dispersion_input: [[0.0; LANES]; MAX_DISPERSION_SECTIONS],
            dispersion_output: [[0.0; LANES]; MAX_DISPERSION_SECTIONS],
            tuning: [0.0; LANES],
            tuning_input: [0.0; LANES],
            tuning_output: [0.0; LANES],
            loss_input_gain: [0.0; LANES],
            loss: [0.0; LANES],
            loss_output: [0.0; LANES],
        };
        for (i, f) in strings.iter().take(LANES).enumerate() {
            lanes.dispersion[i] = f.dispersion.coefficient;
            lanes.tuning[i] = f.tuning.coefficient();
            lanes.loss_input_gain[i] = f.loss.input_gain();
            lanes.loss[i] = f.loss.coefficient();
        }
        lanes
    }

    /// Filters one sample of every string.
    #[cfg(test)]
    #[inline(always)]
    pub(crate) fn process<M: MulAdd>(&mut self, input: Lanes) -> Lanes {
        let mut block = [input];
        self.process_block::<M>(&mut block);
        block[0]
    }

    /// Filters a block of samples of every string in place, in order:
    /// exactly what as many calls of [`LoopFilterLanes::process`] give.
    #[inline(always)]
    pub(crate) fn process_block<M: MulAdd>(&mut self, block: &mut [Lanes]) {
        const _: () = assert!(MAX_DISPERSION_SECTIONS == 8, "one arm per count");
        if let [sample] = block {
            // One sample (a string on its own bridge): the stages in turn.
            *sample = self.run_sample::<M>(*sample);
            return;
        }
        // The number of sections as a constant, so that the sections' past
        // values stay in registers through the block.
        match self.sections {
            0 => self.run_block::<M, 0>(block),
            1 => self.run_block::<M, 1>(block),
            2 => self.run_block::<M, 2>(block),
            3 => self.run_block::<M, 3>(block),
            4 => self.run_block::<M, 4>(block),
            5 => self.run_block::<M, 5>(block),
            6 => self.run_block::<M, 6>(block),
            7 => self.run_block::<M, 7>(block),
            _ => self.run_block::<M, 8>(block),
        }
    }

    /// [`LoopFilterLanes::process_block`] for one sample: the same operations
    /// in the same order, stage after stage. It spells out the section and the
    /// last stage that [`LoopFilterLanes::run_block`] spells out too: shared
    /// as functions, the wavefront ran 7–10 % slower (its memories left the
    /// registers). `lanes_equal_the_scalar_filters` holds both, in blocks of
    /// one sample and of many, to the scalar filters bit for bit.
    #[inline(always)]
    fn run_sample<M: MulAdd>(&mut self, mut x: Lanes) -> Lanes {
        let a = self.dispersion;
        for (input, output) in self.dispersion_input[..self.sections]
            .iter_mut()
            .zip(&mut self.dispersion_output[..self.sections])
        {
            for i in 0..LANES {
                let y = M::mul_add(a[i], x[i] - output[i], input[i]);
                input[i] = x[i];
                output[i] = y;
            }
            x = *output;
        }
        for (i, &wave) in x.iter().enumerate() {
            let tuned = M::mul_add(
                self.tuning[i],
                wave - self.tuning_output[i],
                self.tuning_input[i],
            );
            self.tuning_input[i] = wave;
            self.tuning_output[i] = tuned;
            self.loss_output[i] = M::mul_add(
                -self.loss[i],
                self.loss_output[i],
                self.loss_input_gain[i] * tuned,
            );
        }
        self.loss_output
    }

    /// [`LoopFilterLanes::process_block`] through `S` dispersion sections.
    ///
    /// A section maps `x` to `y = a·(x − y₋₁) + x₋₁`: a subtraction and a
    /// multiply-add. The stages run as a wavefront: in each step section `k`
    /// filters sample `t − k` and the last stage (fractional delay and loss)
    /// sample `t − S`, each on what the stage before it gave in the step
    /// before. Every stage then has its own chain of dependent operations
    /// within a step, and the processor runs them side by side; each sample
    /// meets the same operations in the same order as one sample at a time.
    #[inline(always)]
    fn run_block<M: MulAdd, const S: usize>(&mut self, block: &mut [Lanes]) {
        let samples = block.len();
        let a = self.dispersion;
        let mut input: [Lanes; S] = std::array::from_fn(|k| self.dispersion_input[k]);
        let mut output: [Lanes; S] = std::array::from_fn(|k| self.dispersion_output[k]);
        let (mut tuning_input, mut tuning_output) = (self.tuning_input, self.tuning_output);
        let mut loss_output = self.loss_output;
        for t in 0..samples + S {
            if t >= S {
                let j = t - S;
                let x = if S == 0 { block[j] } else { output[S - 1] };
                let out = &mut block[j];
                for i in 0..LANES {
                    let tuned =
                        M::mul_add(self.tuning[i], x[i] - tuning_output[i], tuning_input[i]);
                    tuning_input[i] = x[i];
                    tuning_output[i] = tuned;
                    loss_output[i] = M::mul_add(
                        -self.loss[i],
                        loss_output[i],
                        self.loss_input_gain[i] * tuned,
                    );
                    out[i] = loss_output[i];
                }
            }
            // From the last section back, so that each reads what the one
            // before it gave in the last step.
            for k in (0..S).rev() {
                if k <= t && t - k < samples {
                    let x = if k == 0 { block[t] } else { output[k - 1] };
                    for i in 0..LANES {
                        let y = M::mul_add(a[i], x[i] - output[k][i], input[k][i]);
                        input[k][i] = x[i];
                        output[k][i] = y;
                    }
                }
            }
        }
        self.dispersion_input[..S].copy_from_slice(&input);
        self.dispersion_output[..S].copy_from_slice(&output);
        (self.tuning_input, self.tuning_output) = (tuning_input, tuning_output);
        self.loss_output = loss_output;
    }

    /// The energy held in string `lane`'s allpasses, in squared wave samples (the
    /// loss filter's single state is left out), as
    /// [`DispersionCascade::stored_energy`](super::DispersionCascade::stored_energy)
    /// and [`AllpassDelay::stored_energy`] count it.
    pub(crate) fn stored_energy(&self, lane: usize) -> f64 {
        if lane >= LANES {
            return 0.0;
        }
        let pasts = (0..self.sections).map(|k| {
            (
                self.dispersion_input[k][lane],
                self.dispersion_output[k][lane],
            )
        });
        let dispersion = section_energy(self.dispersion[lane], pasts);
        let c = self.tuning[lane];
        let s = self.tuning_input[lane] - c * self.tuning_output[lane];
        dispersion + s * s / (1.0 - c * c)
    }

    /// Carries on the memory of `old` (the same strings' filters, perhaps
    /// designed anew) with these coefficients, so that a slowly varying wave
    /// passes on unchanged: every filter remembers past signal values, copied
    /// as they are; a dispersion section the old strings lacked starts from
    /// the wave that left the old cascade, and one they had beyond these is
    /// dropped.
    pub(crate) fn continue_from(&mut self, old: &LoopFilterLanes) {
        self.tuning_input = old.tuning_input;
        self.tuning_output = old.tuning_output;
        self.loss_output = old.loss_output;
        // What left the old cascade last: the fractional delay's last input.
        let wave = old.tuning_input;
        for k in 0..MAX_DISPERSION_SECTIONS {
            (self.dispersion_input[k], self.dispersion_output[k]) = if k >= self.sections {
                ([0.0; LANES], [0.0; LANES])
            } else if k < old.sections {
                (old.dispersion_input[k], old.dispersion_output[k])
            } else {
                (wave, wave)
            };
        }
    }

    /// Clears every filter's memory.
    pub(crate) fn reset(&mut self) {
        self.dispersion_input = [[0.0; LANES]; MAX_DISPERSION_SECTIONS];
        self.dispersion_output = [[0.0; LANES]; MAX_DISPERSION_SECTIONS];
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

    /// Three strings of `sections` dispersion sections, each its own
    /// filters.
    fn three(sections: usize) -> [LoopFilters; 3] {
        let w = 2.0 * PI * 300.0 / 48_000.0;
        let string = |coefficient, delay, g| LoopFilters {
            dispersion: DispersionDesign {
                sections,
                coefficient,
            },
            tuning: AllpassDelay::with_phase_delay(delay, w),
            loss: LossFilter::matched(g, w, g - 0.01, 5.0 * w),
        };
        [
            string(-0.57, 0.7, 0.995),
            string(-0.56, 1.1, 0.99),
            string(-0.3, 1.4, 0.98),
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
    /// in series, whatever the blocks the samples come in; stored energies
    /// agree.
    #[test]
    fn lanes_equal_the_scalar_filters() {
        for sections in [0, 3, 8] {
            let strings = three(sections);
            let mut lanes = LoopFilterLanes::new(&strings);
            let mut scalar =
                strings.map(|f| (DispersionCascade::new(f.dispersion), f.tuning, f.loss));
            let mut n = 0;
            for block in [1usize, 16, 5, 2, 9, 16, 3].iter().cycle().take(300) {
                let mut samples: Vec<Lanes> = (n..n + block).map(signal).collect();
                lanes.process_block::<Separate>(&mut samples);
                for (offset, out) in samples.iter().enumerate() {
                    let input = signal(n + offset);
                    for (i, (d, t, l)) in scalar.iter_mut().enumerate() {
                        let y = l.process(t.process(d.process(input[i])));
                        assert_eq!(out[i], y, "{sections}: sample {}, string {i}", n + offset);
                    }
                    assert_eq!(out[3], 0.0);
                }
                for (i, (d, t, _)) in scalar.iter().enumerate() {
                    let e = d.stored_energy() + t.stored_energy();
                    assert!((lanes.stored_energy(i) - e).abs() <= 1e-12 * e.max(1.0));
                }
                n += block;
            }
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
        let strings = three(8);
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
    /// with other dispersion (coefficients, fewer or more sections) and other
    /// fractional delays, a steady wave passes on unchanged from the first
    /// sample.
    #[test]
    fn continued_filters_pass_a_steady_wave_on_unchanged() {
        let old_strings = three(5);
        let mut old = LoopFilterLanes::new(&old_strings);
        let steady = [0.3, -0.2, 0.7, 0.0];
        for _ in 0..5_000 {
            old.process::<Separate>(steady);
        }
        let mut same = LoopFilterLanes::new(&old_strings);
        same.continue_from(&old);
        assert_eq!(same, old);
        let w = 2.0 * PI * 300.0 / 48_000.0;
        for sections in [3, 8] {
            let mut retuned = three(sections);
            for (f, (a, delay)) in retuned
                .iter_mut()
                .zip([(-0.5, 1.3), (-0.6, 0.6), (-0.35, 1.0)])
            {
                f.dispersion.coefficient = a;
                f.tuning = AllpassDelay::with_phase_delay(delay, w);
            }
            let mut new = LoopFilterLanes::new(&retuned);
            new.continue_from(&old);
            let before = old.clone().process::<Separate>(steady);
            for n in 0..100 {
                let after = new.process::<Separate>(steady);
                for i in 0..3 {
                    assert!(
                        (after[i] - before[i]).abs() < 1e-12,
                        "{sections}: sample {n}, string {i}"
                    );
                }
            }
        }
    }

    /// The unused lane stays exactly at rest.
    #[test]
    fn the_unused_lane_stays_at_rest() {
        let mut lanes = LoopFilterLanes::new(&three(8));
        for n in 0..500 {
            lanes.process::<Separate>(signal(n));
        }
        assert_eq!(lanes.stored_energy(3), 0.0);
        assert!(lanes.dispersion_output.iter().all(|s| s[3] == 0.0));
    }
}
