//! The soundboard as a handful of resonant body modes radiating the bridge's
//! force to two microphones.

use std::f64::consts::PI;

/// How the soundboard is built.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoundboardParams {
    /// Number of body modes, 0 to 64.
    pub modes: usize,
    /// Frequency of the lowest mode, Hz.
    pub lowest_mode_hz: f64,
    /// Frequency of the highest mode, Hz.
    pub highest_mode_hz: f64,
    /// 60 dB decay time of the lowest mode, s; higher modes decay faster, as
    /// `T60·√(f_lowest/f)`.
    pub lowest_mode_t60_s: f64,
    /// Level of the modes' sum relative to the direct bridge signal.
    pub body_gain: f64,
    /// Which of the boards: the seed of the modes' spacing jitter and shapes
    /// (every seed gives another board of the same kind).
    pub seed: u64,
}

/// One two-pole resonator `y = b0·x + a1·y1 − a2·y2`, unity gain at its peak.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Mode {
    b0: f64,
    a1: f64,
    a2: f64,
    y1: f64,
    y2: f64,
    /// How strongly the left and right drive buses (the bass and treble ends of the
    /// bridge) excite the mode: its shape at the two drive points.
    drive: [f64; 2],
    /// How strongly the mode reaches the left and right microphones.
    radiation: [f64; 2],
}

/// A deterministic value in [−1, 1] for mode `i` and slot `k` (a small integer hash),
/// so that every build of the same soundboard is identical.
fn shape(seed: u64, i: usize, k: u64) -> f64 {
    let mut x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03)
        ^ seed.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 29;
    (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
}

/// The body: the stereo bridge signal passes straight through and also drives a
/// set of resonant modes (their spacing jitter and shapes from a seeded hash,
/// so every seed gives another board of the same kind), each with its own shape at the two drive points and its
/// own gains to the two outputs, so the body's ring differs between channels.
///
/// Input and output are in the same units (the caller's bridge-force buses, scaled
/// to audio). Cost per sample: about six multiply-adds per mode, shared by all
/// strings.
///
/// Allocates: the mode table, in [`Soundboard::new`].
#[derive(Debug, Clone)]
pub struct Soundboard {
    modes: Vec<Mode>,
    body_gain: f64,
    /// Consecutive samples of silent input and output below [`SLEEP_LEVEL`].
    quiet_samples: u32,
    /// Samples of quiet after which the body is put to rest.
    sleep_after: u32,
    asleep: bool,
}

/// Output level below which a body with no input counts as silent: −140 dBFS.
const SLEEP_LEVEL: f64 = 1e-7;

impl Soundboard {
    /// Builds the soundboard at `sample_rate` (Hz). Parameters out of range are
    /// clamped: at most 64 modes, all below 0.45·fs, decay times 1 ms to 30 s.
    pub fn new(params: &SoundboardParams, sample_rate: f64) -> Self {
        let count = params.modes.min(64);
        let finite_or = |v: f64, d: f64| if v.is_finite() { v } else { d };
        let nyquist_guard = 0.45 * sample_rate;
        let lowest = finite_or(params.lowest_mode_hz, 100.0).clamp(10.0, nyquist_guard);
        let highest = finite_or(params.highest_mode_hz, 2000.0).clamp(lowest, nyquist_guard);
        let t60 = finite_or(params.lowest_mode_t60_s, 0.3).clamp(1e-3, 30.0);
        let mut modes = Vec::with_capacity(count);
        for i in 0..count {
            let position = if count > 1 {
                (i as f64 + 0.35 * shape(params.seed, i, 1)) / (count - 1) as f64
            } else {
                0.0
            };
            let f = (lowest * (highest / lowest).powf(position.clamp(0.0, 1.0))).min(nyquist_guard);
            let theta = 2.0 * PI * f / sample_rate;
            let mode_t60 = t60 * (lowest / f).sqrt();
            let r = 10f64.powf(-3.0 / (mode_t60 * sample_rate));
            let peak = (1.0 - r) * (1.0 - 2.0 * r * (2.0 * theta).cos() + r * r).sqrt();
            modes.push(Mode {
                b0: peak,
                a1: 2.0 * r * theta.cos(),
                a2: r * r,
                y1: 0.0,
                y2: 0.0,
                drive: [shape(params.seed, i, 2), shape(params.seed, i, 3)],
                radiation: [shape(params.seed, i, 4), shape(params.seed, i, 5)],
            });
        }
        let body_gain =
            finite_or(params.body_gain, 0.0).clamp(0.0, 10.0) / (count.max(1) as f64).sqrt();
        Self {
            modes,
            body_gain,
            quiet_samples: 0,
            sleep_after: (0.05 * sample_rate) as u32,
            asleep: true,
        }
    }

    /// Whether the body is at rest (it has been silent with no input for 50 ms and
    /// has been zeroed). Decided per sample, so independent of block sizes.
    pub fn is_asleep(&self) -> bool {
        self.asleep
    }

    /// Number of modes.
    pub fn mode_count(&self) -> usize {
        self.modes.len()
    }

    /// Passes one stereo sample of bridge signal through the body.
    #[inline]
    pub fn process(&mut self, left: f64, right: f64) -> [f64; 2] {
        let silent_input = left == 0.0 && right == 0.0;
        if self.asleep {
            if silent_input {
                return [0.0; 2];
            }
            self.asleep = false;
            self.quiet_samples = 0;
        }
        let (mut l, mut r) = (0.0, 0.0);
        for m in &mut self.modes {
            let x = m.drive[0] * left + m.drive[1] * right;
            let y = m.b0 * x + m.a1 * m.y1 - m.a2 * m.y2;
            m.y2 = m.y1;
            m.y1 = y;
            l += m.radiation[0] * y;
            r += m.radiation[1] * y;
        }
        let out = [left + self.body_gain * l, right + self.body_gain * r];
        if silent_input && out[0].abs() < SLEEP_LEVEL && out[1].abs() < SLEEP_LEVEL {
            self.quiet_samples += 1;
            if self.quiet_samples > self.sleep_after {
                self.reset();
            }
        } else {
            self.quiet_samples = 0;
        }
        out
    }

    /// Carries on the ringing of `old`, a body with other values: with as many
    /// modes, each mode's last two outputs go on through this body's
    /// resonators (a mode whose frequency moved rings on at its new one);
    /// with another number of modes (the modes themselves are then others)
    /// this body starts at rest.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &Soundboard) {
        if self.modes.len() != old.modes.len() {
            self.reset();
            return;
        }
        for (mode, old_mode) in self.modes.iter_mut().zip(&old.modes) {
            (mode.y1, mode.y2) = (old_mode.y1, old_mode.y2);
        }
        self.quiet_samples = old.quiet_samples;
        self.asleep = old.asleep;
    }

    /// Brings the body to rest.
    pub fn reset(&mut self) {
        for m in &mut self.modes {
            m.y1 = 0.0;
            m.y2 = 0.0;
        }
        self.quiet_samples = 0;
        self.asleep = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> SoundboardParams {
        SoundboardParams {
            modes: 12,
            lowest_mode_hz: 90.0,
            highest_mode_hz: 3000.0,
            lowest_mode_t60_s: 0.2,
            body_gain: 1.0,
            seed: 0,
        }
    }

    /// An impulse rings on after the direct sound, differently in the two channels,
    /// and dies away (the resonators are stable).
    /// A seed picks another board of the same kind: another response, the
    /// same for the same seed, the same size.
    #[test]
    fn seeds_give_other_boards_of_the_same_kind() {
        let respond = |seed| {
            let mut b = Soundboard::new(&SoundboardParams { seed, ..board() }, 48_000.0);
            let mut out = vec![b.process(1.0, 0.0)];
            out.extend((0..4_800).map(|_| b.process(0.0, 0.0)));
            out
        };
        let energy = |x: &[[f64; 2]]| x.iter().map(|[l, r]| l * l + r * r).sum::<f64>();
        let (a, again, other) = (respond(0), respond(0), respond(7));
        assert_eq!(a, again);
        assert_ne!(a, other);
        let ratio = energy(&other) / energy(&a);
        assert!((0.3..3.0).contains(&ratio), "energy ratio {ratio}");
    }

    #[test]
    fn impulse_rings_in_stereo_and_decays() {
        let fs = 48_000.0;
        let mut b = Soundboard::new(&board(), fs);
        let first = b.process(1.0, 0.0);
        assert!(first[0] > 0.5);
        let tail: Vec<[f64; 2]> = (0..(0.05 * fs) as usize)
            .map(|_| b.process(0.0, 0.0))
            .collect();
        let energy = |c: usize| tail.iter().map(|s| s[c] * s[c]).sum::<f64>();
        assert!(energy(0) > 1e-4 && energy(1) > 1e-4);
        assert!(
            (energy(0) / energy(1) - 1.0).abs() > 0.01,
            "channels identical"
        );
        assert!(!b.is_asleep());
        for _ in 0..(2.0 * fs) as usize {
            b.process(0.0, 0.0);
        }
        assert!(b.is_asleep());
        assert_eq!(b.process(0.0, 0.0), [0.0; 2]);
    }

    /// Absurd parameters are clamped into a stable, finite body.
    #[test]
    fn absurd_parameters_are_clamped() {
        let p = SoundboardParams {
            modes: 10_000,
            lowest_mode_hz: f64::NAN,
            highest_mode_hz: 1e9,
            lowest_mode_t60_s: 1e9,
            body_gain: f64::INFINITY,
            seed: u64::MAX,
        };
        let mut b = Soundboard::new(&p, 44_100.0);
        assert_eq!(b.mode_count(), 64);
        let mut y = b.process(1.0, 1.0);
        for _ in 0..10_000 {
            y = b.process(0.0, 0.0);
        }
        assert!(y[0].is_finite() && y[1].is_finite());
    }
}
