//! Running the instrument faster than the host asks: below
//! [`MIN_INTERNAL_RATE_HZ`] the synthesiser renders at a whole multiple of the
//! host's rate and brings its output down through a linear-phase low-pass.
//!
//! The physics needs the rate: a treble hammer touches its strings for a few
//! tenths of a millisecond, and the felt's force over that touch is what gives
//! the note its brightness. At 8 kHz the contact would last two samples and the
//! top strings would be shorter than their own delay lines. Run at 44.1 kHz or
//! more, every key is built and struck as at any studio rate, and the
//! decimating filter then removes everything the host's rate cannot carry:
//! whatever lies above half the host's rate is attenuated by at least
//! [`STOPBAND_DB`], so it never folds back as an alias, and everything below
//! [`PASSBAND_EDGE`] of the host's rate passes unchanged.

use std::f64::consts::PI;

/// The lowest rate the instrument itself runs at, Hz.
pub const MIN_INTERNAL_RATE_HZ: f64 = 44_100.0;

/// Where the pass band ends, as a fraction of the host's rate: every key whose
/// fundamental lies below it is heard.
pub const PASSBAND_EDGE: f64 = 0.45;

/// The stop band starts at half the host's rate (its Nyquist frequency).
const STOPBAND_EDGE: f64 = 0.5;

/// Least attenuation in the stop band, dB.
pub const STOPBAND_DB: f64 = 100.0;

/// How many internal samples the synthesiser renders for each of the host's
/// samples at `host_rate` (Hz): 1 from [`MIN_INTERNAL_RATE_HZ`] up.
pub fn factor_for(host_rate: f64) -> usize {
    if host_rate >= MIN_INTERNAL_RATE_HZ {
        1
    } else {
        (MIN_INTERNAL_RATE_HZ / host_rate).ceil() as usize
    }
}

/// A stereo decimator by a whole factor: a Kaiser-windowed sinc low-pass with
/// its pass band to [`PASSBAND_EDGE`] and its stop band from half the host's
/// rate, evaluated only at the samples it keeps.
///
/// Its delay is a whole number of host samples, [`Decimator::delay_frames`].
/// Allocates: its taps, history and scratch buffers, in [`Decimator::new`];
/// nothing after.
#[derive(Debug, Clone)]
pub struct Decimator {
    factor: usize,
    /// The filter's impulse response, symmetric, `2·factor·delay + 1` taps.
    taps: Box<[f64]>,
    /// Each channel's last `taps.len()` input samples, stored twice in a row
    /// so that a contiguous window always ends at `write + taps.len()`.
    history: [Box<[f64]>; 2],
    /// Where the next input sample goes in the history, `0..taps.len()`.
    write: usize,
    /// Input samples since the last one kept, `0..factor`.
    phase: usize,
    /// The internal-rate blocks the synthesiser renders into.
    scratch: [Box<[f32]>; 2],
    /// Host samples of delay.
    delay: usize,
}

impl Decimator {
    /// A decimator by `factor` (at least 2) for blocks of up to `max_frames`
    /// host samples.
    pub fn new(factor: usize, max_frames: usize) -> Self {
        let factor = factor.max(2);
        let k = factor as f64;
        // Kaiser's estimates for the window's shape and length.
        let beta = 0.1102 * (STOPBAND_DB - 8.7);
        let transition = (STOPBAND_EDGE - PASSBAND_EDGE) / k;
        let length = (STOPBAND_DB - 7.95) / (2.285 * 2.0 * PI * transition) + 1.0;
        let delay = (length / (2.0 * k)).ceil() as usize;
        let half = (factor * delay) as f64;
        let cutoff = 0.5 * (PASSBAND_EDGE + STOPBAND_EDGE) / k;
        let count = 2 * factor * delay + 1;
        let window_norm = bessel_i0(beta);
        let mut taps: Vec<f64> = (0..count)
            .map(|i| {
                let t = i as f64 - half;
                let sinc = if t == 0.0 {
                    2.0 * cutoff
                } else {
                    (2.0 * PI * cutoff * t).sin() / (PI * t)
                };
                let r = t / half;
                sinc * bessel_i0(beta * (1.0 - r * r).max(0.0).sqrt()) / window_norm
            })
            .collect();
        let gain: f64 = taps.iter().sum();
        taps.iter_mut().for_each(|t| *t /= gain);
        let history = || vec![0.0; 2 * count].into_boxed_slice();
        let scratch = || vec![0.0f32; factor * max_frames].into_boxed_slice();
        Self {
            factor,
            taps: taps.into_boxed_slice(),
            history: [history(), history()],
            write: 0,
            phase: 0,
            scratch: [scratch(), scratch()],
            delay,
        }
    }

    /// Internal samples per host sample.
    pub fn factor(&self) -> usize {
        self.factor
    }

    /// Host samples from an input to its output.
    pub fn delay_frames(&self) -> usize {
        self.delay
    }

    /// The scratch blocks for `frames` host samples (`frames·factor` internal
    /// samples each), for the synthesiser to render into before
    /// [`Decimator::decimate_scratch`].
    pub fn scratch(&mut self, frames: usize) -> (&mut [f32], &mut [f32]) {
        let n = frames * self.factor;
        let [left, right] = &mut self.scratch;
        (&mut left[..n], &mut right[..n])
    }

    /// Filters the first `left.len()·factor` scratch samples of each channel
    /// and writes every `factor`-th into `left` and `right`.
    pub fn decimate_scratch(&mut self, left: &mut [f32], right: &mut [f32]) {
        let frames = left.len().min(right.len());
        let n = frames * self.factor;
        let len = self.taps.len();
        let mut out = 0;
        for i in 0..n {
            let input = [self.scratch[0][i], self.scratch[1][i]];
            for (history, x) in self.history.iter_mut().zip(input) {
                history[self.write] = f64::from(x);
                history[self.write + len] = f64::from(x);
            }
            self.write = (self.write + 1) % len;
            if self.phase == 0 {
                // The window, oldest first, ends at the sample just written.
                let window = self.write..self.write + len;
                let [l, r] = [0, 1].map(|c| {
                    let past = &self.history[c][window.clone()];
                    // Symmetric taps: oldest-first order needs no reversal.
                    past.iter()
                        .zip(self.taps.iter())
                        .map(|(x, h)| x * h)
                        .sum::<f64>() as f32
                });
                left[out] = l;
                right[out] = r;
                out += 1;
            }
            self.phase = (self.phase + 1) % self.factor;
        }
    }

    /// Forgets every input: the filter at rest.
    pub fn reset(&mut self) {
        self.history.iter_mut().for_each(|h| h.fill(0.0));
        self.write = 0;
        self.phase = 0;
    }
}

/// The modified Bessel function of the first kind and order zero, by its
/// power series (converges for every argument the Kaiser window needs).
fn bessel_i0(x: f64) -> f64 {
    let quarter_x2 = 0.25 * x * x;
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..200 {
        term *= quarter_x2 / (k as f64 * k as f64);
        sum += term;
        if term < 1e-17 * sum {
            break;
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The amplitude of a sine of `hz` at `internal` Hz through a decimator by
    /// `factor`, after the filter has settled, from the output's power.
    fn gain_at(factor: usize, internal: f64, hz: f64) -> f64 {
        let mut d = Decimator::new(factor, 256);
        let (mut power, mut count) = (0.0f64, 0usize);
        let mut t = 0usize;
        let mut out = ([0.0f32; 256], [0.0f32; 256]);
        for block in 0..40 {
            let (l, r) = d.scratch(256);
            for (a, b) in l.iter_mut().zip(r.iter_mut()) {
                *a = (2.0 * PI * hz * t as f64 / internal).sin() as f32;
                *b = *a;
                t += 1;
            }
            d.decimate_scratch(&mut out.0, &mut out.1);
            if block >= 20 {
                power += out.0.iter().map(|&x| f64::from(x).powi(2)).sum::<f64>();
                count += out.0.len();
            }
        }
        // A sine's amplitude from its mean power.
        (2.0 * power / count as f64).sqrt()
    }

    #[test]
    fn the_factor_lifts_the_rate_to_at_least_the_minimum() {
        assert_eq!(factor_for(48_000.0), 1);
        assert_eq!(factor_for(44_100.0), 1);
        assert_eq!(factor_for(22_050.0), 2);
        assert_eq!(factor_for(8_000.0), 6);
        assert_eq!(factor_for(1_234.567_8), 36);
        for rate in [1_000.0, 1_234.567_8, 8_000.0, 11_025.0, 16_000.0, 32_000.0] {
            assert!(rate * factor_for(rate) as f64 >= MIN_INTERNAL_RATE_HZ);
        }
    }

    #[test]
    fn the_pass_band_is_flat_and_the_stop_band_deep() {
        for factor in [2, 3, 6] {
            let host = 8_000.0;
            let internal = host * factor as f64;
            for fraction in [0.01, 0.2, 0.4, PASSBAND_EDGE] {
                let g = gain_at(factor, internal, fraction * host);
                assert!((g - 1.0).abs() < 1e-3, "×{factor} at {fraction}·fs: {g}");
            }
            for fraction in [0.5, 0.55, 0.8, 1.3, 0.5 * factor as f64 - 0.01] {
                let g = gain_at(factor, internal, fraction * host);
                assert!(
                    20.0 * g.log10() < -STOPBAND_DB + 3.0,
                    "×{factor} at {fraction}·fs: {g}"
                );
            }
        }
    }

    #[test]
    fn an_impulse_comes_out_whole_host_samples_later() {
        let mut d = Decimator::new(3, 256);
        let mut out = (vec![0.0f32; 256], vec![0.0f32; 256]);
        let (l, _) = d.scratch(256);
        l[0] = 1.0;
        d.decimate_scratch(&mut out.0, &mut out.1);
        let peak_at = (0..256)
            .max_by(|&a, &b| out.0[a].abs().total_cmp(&out.0[b].abs()))
            .unwrap();
        assert_eq!(peak_at, d.delay_frames());
        // A linear phase: the response is symmetric about its peak.
        let p = peak_at;
        for j in 1..p {
            assert!((out.0[p - j] - out.0[p + j]).abs() < 1e-7);
        }
        assert!(out.1.iter().all(|&x| x == 0.0));
    }

    #[test]
    fn a_reset_filter_forgets_its_input() {
        let mut d = Decimator::new(4, 32);
        let mut out = ([0.0f32; 32], [0.0f32; 32]);
        d.scratch(32).0.fill(1.0);
        d.decimate_scratch(&mut out.0, &mut out.1);
        d.reset();
        d.scratch(32).0.fill(0.0);
        d.decimate_scratch(&mut out.0, &mut out.1);
        assert!(out.0.iter().all(|&x| x == 0.0));
    }
}
