//! A lookahead peak limiter: holds a stereo signal at or below a ceiling
//! without clipping it, and leaves it bit for bit as it is (only delayed)
//! wherever it stays below.
//!
//! How it works, per frame n (both channels share one gain, so the stereo
//! image stays put):
//!
//! 1. The gain the frame needs, g(n) = min(1, ceiling / max(|left|, |right|)).
//! 2. The smallest of the last L of them, m(n) = min(g(n−L+1) … g(n)), where L
//!    is the lookahead in frames.
//! 3. Their mean over the last L frames, a(n) = (m(n−L+1) + … + m(n)) / L:
//!    every term is at most g(n−L+1) (each window of step 2 holds frame
//!    n−L+1), so a(n) ≤ g(n−L+1); and the mean turns each step of m into a
//!    ramp L frames long, so the gain never jumps.
//! 4. Release: the gain follows a(n) down at once and back up slowly, with a
//!    one-pole smoother of time constant [`RELEASE_S`]; rising from below,
//!    it stays at most a(n).
//! 5. The output is the input delayed by L − 1 frames times that gain: the
//!    frame n−L+1 times a gain at most g(n−L+1), so at most the ceiling.
//!
//! Below the ceiling every g, m and a is exactly 1 and the output is the
//! input delayed. All the memory is allocated when the limiter is made;
//! [`Limiter::process`] allocates nothing.

use std::collections::VecDeque;

/// Lookahead, s: the gain ramps down over this time before a peak.
pub const LOOKAHEAD_S: f64 = 0.002;
/// Release time constant, s: how slowly the gain comes back after a peak.
pub const RELEASE_S: f64 = 0.15;

/// A stereo lookahead peak limiter (see the module's description).
#[derive(Debug, Clone)]
pub struct Limiter {
    /// The ceiling, full scale 1.
    ceiling: f32,
    /// Lookahead L, frames (at least 1).
    lookahead: usize,
    /// The last L − 1 input frames, oldest first, as a ring from `delay_at`.
    delay: Vec<[f32; 2]>,
    delay_at: usize,
    /// Frames seen so far (the index n of the next one).
    frame: u64,
    /// Candidates for the minimum of the last L needed gains: (frame, gain),
    /// frames increasing, gains increasing (a monotonic queue).
    minima: VecDeque<(u64, f64)>,
    /// The last L minima, as a ring from `mean_at`, their sum, and how many
    /// of them are below 1.
    window: Vec<f64>,
    mean_at: usize,
    window_sum: f64,
    below_one: usize,
    /// The gain applied last.
    gain: f64,
    /// Per-frame factor of the release smoother.
    release: f64,
    /// The smallest gain applied so far.
    deepest: f64,
}

impl Limiter {
    /// A limiter holding `ceiling` (full scale 1, more than 0) at `sample_rate` Hz.
    pub fn new(ceiling: f32, sample_rate: f64) -> Self {
        let lookahead = ((LOOKAHEAD_S * sample_rate).round() as usize).max(1);
        Self {
            ceiling,
            lookahead,
            delay: vec![[0.0; 2]; lookahead - 1],
            delay_at: 0,
            frame: 0,
            minima: VecDeque::with_capacity(lookahead),
            window: vec![1.0; lookahead],
            mean_at: 0,
            window_sum: lookahead as f64,
            below_one: 0,
            gain: 1.0,
            release: (-1.0 / (RELEASE_S * sample_rate)).exp(),
            deepest: 1.0,
        }
    }

    /// Frames by which the output trails the input.
    pub fn latency(&self) -> usize {
        self.lookahead - 1
    }

    /// The largest gain reduction so far, dB (0 if it never acted).
    pub fn deepest_reduction_db(&self) -> f64 {
        20.0 * (1.0 / self.deepest).log10()
    }

    /// Limits `left` and `right` in place: each becomes the input of
    /// [`Limiter::latency`] frames earlier (silence at first), at or below
    /// the ceiling.
    pub fn process(&mut self, left: &mut [f32], right: &mut [f32]) {
        for (l, r) in left.iter_mut().zip(right.iter_mut()) {
            let gain = self.next_gain(l.abs().max(r.abs()));
            let [delayed_l, delayed_r] = self.delayed([*l, *r]);
            *l = self.bounded(delayed_l, gain);
            *r = self.bounded(delayed_r, gain);
        }
    }

    /// `sample` times `gain`, at most the ceiling. The bound holds in exact
    /// arithmetic; the clamp only takes off what rounding may add (a few
    /// parts in 10¹⁶). A sample that is not finite (its gain is 0) is silence.
    fn bounded(&self, sample: f32, gain: f64) -> f32 {
        let out = (f64::from(sample) * gain) as f32;
        if out.is_nan() {
            0.0
        } else {
            out.clamp(-self.ceiling, self.ceiling)
        }
    }

    /// Pushes `frame` into the delay line; returns the frame L − 1 earlier.
    fn delayed(&mut self, frame: [f32; 2]) -> [f32; 2] {
        if self.delay.is_empty() {
            return frame;
        }
        let out = std::mem::replace(&mut self.delay[self.delay_at], frame);
        self.delay_at = (self.delay_at + 1) % self.delay.len();
        out
    }

    /// Steps 1 to 4 for a frame whose louder channel is `peak`: the gain for
    /// the frame L − 1 earlier.
    fn next_gain(&mut self, peak: f32) -> f64 {
        let ceiling = f64::from(self.ceiling);
        let peak = f64::from(peak);
        // NaN (a broken input) is silenced as if infinitely loud, and so is
        // infinity (its gain ceiling/∞ is 0).
        let needed = if peak > ceiling {
            ceiling / peak
        } else if peak.is_nan() {
            0.0
        } else {
            1.0
        };
        let n = self.frame;
        self.frame += 1;
        let window = self.lookahead as u64;
        while self.minima.front().is_some_and(|&(at, _)| at + window <= n) {
            self.minima.pop_front();
        }
        while self.minima.back().is_some_and(|&(_, g)| g >= needed) {
            self.minima.pop_back();
        }
        self.minima.push_back((n, needed));
        let minimum = self.minima.front().map_or(1.0, |&(_, g)| g);

        let oldest = std::mem::replace(&mut self.window[self.mean_at], minimum);
        self.mean_at = (self.mean_at + 1) % self.window.len();
        self.window_sum += minimum - oldest;
        self.below_one = self.below_one + usize::from(minimum < 1.0) - usize::from(oldest < 1.0);
        // Away from peaks the window holds only ones: start again from its
        // exact sum, so rounding never accumulates.
        if self.below_one == 0 {
            self.window_sum = window as f64;
        }
        let mean = (self.window_sum / window as f64).min(1.0);

        self.gain = if mean < self.gain {
            mean
        } else {
            mean - (mean - self.gain) * self.release
        };
        self.deepest = self.deepest.min(self.gain);
        self.gain
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use orchard_engine::random::SplitMix64;

    const FS: f64 = 48_000.0;
    /// −1 dBFS.
    const CEILING: f32 = 0.891_250_9;

    /// `frames` of noise-like sound at `level` (peaks near it), both channels.
    fn noise(frames: usize, level: f32, seed: u64) -> (Vec<f32>, Vec<f32>) {
        let mut rng = SplitMix64::new(seed);
        let mut next = || (rng.below(2_000_001) as f32 / 1_000_000.0 - 1.0) * level;
        (0..frames).map(|_| (next(), next())).unzip()
    }

    /// Runs `limiter` over the channels in blocks of `block` frames.
    fn run(limiter: &mut Limiter, left: &mut [f32], right: &mut [f32], block: usize) {
        for (l, r) in left.chunks_mut(block).zip(right.chunks_mut(block)) {
            limiter.process(l, r);
        }
    }

    /// Peaks up to 40 dB over the ceiling, single spikes and a loud stretch,
    /// are held at or below it; NaN and infinite samples become silence.
    #[test]
    fn holds_the_ceiling() {
        let (mut left, mut right) = noise(48_000, 0.5, 1);
        for (i, at) in [1_000, 1_001, 7_000, 20_000, 20_050, 40_000]
            .iter()
            .enumerate()
        {
            left[*at] = 14.0 * (1.0 + i as f32);
            right[*at + 3] = -9.0;
        }
        for sweep in &mut left[30_000..31_000] {
            *sweep *= 30.0;
        }
        (left[35_000], right[36_000]) = (f32::NAN, f32::NEG_INFINITY);
        let mut limiter = Limiter::new(CEILING, FS);
        run(&mut limiter, &mut left, &mut right, 333);
        assert!(left.iter().chain(&right).all(|x| x.is_finite()));
        let peak = left
            .iter()
            .chain(&right)
            .fold(0.0f32, |m, x| m.max(x.abs()));
        assert!(peak <= CEILING, "peak {peak} over the ceiling {CEILING}");
        assert!(limiter.deepest_reduction_db() > 30.0);
    }

    /// Below the ceiling the output is the input delayed by the latency, bit
    /// for bit, in any block size.
    #[test]
    fn is_transparent_below_the_ceiling() {
        let (left, right) = noise(10_000, 0.85, 2);
        for block in [1, 64, 1000] {
            let mut limiter = Limiter::new(CEILING, FS);
            let latency = limiter.latency();
            assert_eq!(latency, 95);
            let (mut l, mut r) = (left.clone(), right.clone());
            run(&mut limiter, &mut l, &mut r, block);
            assert!(l[..latency].iter().all(|&x| x == 0.0));
            assert_eq!(l[latency..], left[..left.len() - latency]);
            assert_eq!(r[latency..], right[..right.len() - latency]);
            assert_eq!(limiter.deepest_reduction_db(), 0.0);
        }
    }

    /// After a peak the gain comes back: a second later the sound below the
    /// ceiling passes as it is again.
    #[test]
    fn recovers_after_a_peak() {
        let (mut left, mut right) = noise(96_000, 0.5, 3);
        left[1_000] = 4.0;
        let original = left.clone();
        let mut limiter = Limiter::new(CEILING, FS);
        run(&mut limiter, &mut left, &mut right, 512);
        let latency = limiter.latency();
        // Around the peak the gain is down by its 13 dB...
        let at_peak = left[1_000 + latency] / original[1_000];
        assert!((at_peak - CEILING / 4.0).abs() < 1e-6, "{at_peak}");
        // ... and 10 release time constants later back within 0.01 dB.
        for i in 1_000 + (10.0 * RELEASE_S * FS) as usize..90_000 {
            let gain = left[i + latency] / original[i];
            assert!(original[i].abs() < 1e-3 || (gain - 1.0).abs() < 1.2e-3);
        }
    }

    /// The gain ramps down before a peak over the lookahead instead of
    /// jumping: from frame to frame it moves by at most 1/L of the way.
    #[test]
    fn ramps_the_gain_down_before_a_peak() {
        let frames = 2_000;
        let mut left = vec![0.5f32; frames];
        let mut right = vec![0.5f32; frames];
        left[1_000] = 8.0;
        let mut limiter = Limiter::new(CEILING, FS);
        let latency = limiter.latency();
        run(&mut limiter, &mut left, &mut right, 64);
        let gains: Vec<f32> = right[latency..].iter().map(|x| x / 0.5).collect();
        let largest_step = gains
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0f32, f32::max);
        let full_drop = 1.0 - CEILING / 8.0;
        assert!(largest_step <= full_drop / (latency + 1) as f32 + 1e-6);
        assert!(gains[1_000] <= CEILING / 8.0 + 1e-6);
        assert!(gains[1_000 - latency - 1] == 1.0, "ramp too early");
    }
}
