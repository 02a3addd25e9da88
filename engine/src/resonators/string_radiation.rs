//! What a microphone hears of the strings themselves, beside the board: the
//! sound a piano's strings radiate straight into the air.
//!
//! A string is a thin cylinder of radius `a` moving across its axis with
//! velocity `v`: a line dipole. Its pressure at distance `r` (in the plane
//! of its motion) is, for `ka ≪ 1`,
//!
//! ```text
//! p = ρ0·c0·v·(π/2)·(ka)²·|H1(kr)|          (k = ω/c0)
//! ```
//!
//! with `H1` the Hankel function of the first kind and order 1, whose modulus
//! is taken as `|H1(x)|² ≈ 4/(π²x²) + 2/(πx)` (its near- and far-field
//! limits; within 1.1 dB of the exact modulus, worst at `x ≈ 1`).
//!
//! The board, driven at the bridge by a force `F`, radiates (above its
//! lowest modes, where it acts as a large plate, and below its coincidence)
//! the pressure of a baffled source of volume velocity `F/(jω·m'')`:
//! `|p| = ρ0·|F|/(2π·r·m'')`, for its surface density `m''`. Orchard's output
//! is in newtons of bridge force, so the strings are heard as the bridge
//! force that would give the board their pressure at the microphone.
//!
//! The strings' velocity comes from the waves they bring to the bridge: a
//! key's strings push on it with `2·Z·v_in` each, and a standing wave's
//! velocity along the string has the rms `√2·v_in`. For a steel string
//! `a²/Z = 1/(π·ρ_steel·c)`, with `c = 2·L·f0` its wave speed, so a key's
//! weight depends on its wave speed alone (wound bass strings are thicker
//! than steel of their mass, so their direct sound is somewhat
//! underestimated):
//!
//! ```text
//! heard (N) = [π·r_board·m''·c0 / (√2·ρ_steel·c)] · (ω/c0)²·|H1(ωr/c0)| · push
//! ```
//!
//! That is the law of an infinitely long string moving as one. A piano
//! string is a standing wave of finite length, heard from over one of its
//! ends: its fundamental comes out 9 to 20 dB under the law (taken into
//! each key's weight, [`super::string_field::standing_wave_share`]) and
//! its partials fall by `1/√(1 + (kr/2)²)` more, one segment's worth of
//! the string above `kr = 2` ([`super::string_field::segment_share`]).
//!
//! The frequency response is a differentiator times `√(1 + ω/ω_t)` with
//! `ω_t = 2·c0/(π·r)`, times that fall: a half-order shelf, made of
//! first-order sections alternating a zero and a pole half an octave apart
//! (a rise of 6 dB an octave over every other half octave), and one
//! first-order low-pass at `kr = 2`, fitted in gain over the audio band.

use std::f64::consts::PI;

use super::half_order::{HalfOrderSlope, SlopeState, audio_band};
use super::soundboard::BRIDGE_BLOCK;
use super::string_field::{heard_law, segment_corner};
use crate::air::SPEED_OF_SOUND_M_S;

/// Density of piano wire (steel), kg/m³.
pub const STEEL_DENSITY_KG_M3: f64 = 7850.0;

/// A key's weight: newtons of equivalent bridge force per newton of its
/// strings' push, before the radiation filter (whose unit is 1/m², see
/// [`RadiationFilter`]), for strings of wave speed `wave_speed_m_s` (m/s) on
/// a board of surface density `board_kg_m2` (kg/m²) heard from `board_m`
/// (m).
pub fn key_weight(wave_speed_m_s: f64, board_kg_m2: f64, board_m: f64) -> f64 {
    PI * board_m * board_kg_m2 * SPEED_OF_SOUND_M_S
        / (2f64.sqrt() * STEEL_DENSITY_KG_M3 * wave_speed_m_s.max(1.0))
}

/// The strings' radiation law as a filter at one sample rate: a first
/// difference times the half-order shelf and the segments' roll-off, times
/// a gain fitted so that its response follows [`heard_law`] over 50 Hz to
/// 0.3 of the rate (within 0.75 dB: see the tests).
#[derive(Debug, Clone, PartialEq)]
pub struct RadiationFilter {
    slope: HalfOrderSlope,
}

impl RadiationFilter {
    /// The filter for a listener `distance_m` (m) from the strings, at
    /// `sample_rate` (Hz): of the slopes whose first zero lies between a
    /// quarter of the corner `ω_t` and twice it, the one whose worst error
    /// over the band is least, each at its best gain.
    pub fn new(distance_m: f64, sample_rate: f64) -> Self {
        let corner = 2.0 * SPEED_OF_SOUND_M_S / (PI * distance_m);
        let band = audio_band(sample_rate);
        (0..=24)
            .map(|i| {
                let first_zero = corner * 0.25 * 8f64.powf(f64::from(i) / 24.0);
                let mut slope = HalfOrderSlope::flat()
                    .rising(first_zero, f64::INFINITY, sample_rate)
                    .rolling_off(segment_corner(distance_m), sample_rate);
                let error = slope.fit_gain(&band, sample_rate, |f| {
                    heard_law(f, distance_m) / difference(f, sample_rate)
                });
                (Self { slope }, error)
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(filter, _)| filter)
            .expect("candidates")
    }

    /// Its gain at `frequency_hz` (Hz) at `sample_rate` (Hz), 1/m².
    pub fn response(&self, frequency_hz: f64, sample_rate: f64) -> f64 {
        let omega = 2.0 * PI * frequency_hz / sample_rate;
        self.slope.response(omega) * difference(frequency_hz, sample_rate)
    }
}

/// The gain of the first difference times `sample_rate` (Hz) at
/// `frequency_hz` (Hz): a differentiator's, `2·fs·sin(ω/2)`.
fn difference(frequency_hz: f64, sample_rate: f64) -> f64 {
    2.0 * sample_rate * (PI * frequency_hz / sample_rate).sin()
}

/// Fixed-point units per newton of the sums in flight: 2⁻³² N a unit (at
/// the grand's output gain about −250 dBFS), up to 2³¹ N.
const FIXED_PER_NEWTON: f64 = 4_294_967_296.0;

/// `newtons` in fixed point, toward zero (saturating; not a number is 0).
#[inline(always)]
fn to_fixed(newtons: f64) -> i64 {
    (newtons * FIXED_PER_NEWTON) as i64
}

/// Newtons of a fixed-point sum.
#[inline(always)]
fn from_fixed(units: i64) -> f64 {
    units as f64 / FIXED_PER_NEWTON
}

/// One channel's filter state: the input's last sample and the slope's.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct FilterState {
    last_input: f64,
    slope: SlopeState,
}

/// Every key's strings as two microphones hear them directly: the keys'
/// pushes on the bridge, weighted, each reaching each microphone after its
/// own time of flight, summed, and filtered by the radiation law sample by
/// sample.
///
/// Allocates: the weights, delays and the sums in flight, in
/// [`StringRadiation::new`]; nothing after.
#[derive(Debug, Clone)]
pub struct StringRadiation {
    /// Per key: left and right weights, N per N of push.
    weights: Vec<[f64; 2]>,
    /// Per key: left and right delays, samples.
    delays: Vec<[usize; 2]>,
    /// The weighted pushes on their way to the microphones, left and right:
    /// slot `(start + i) & mask` is heard at sample `i` of the block.
    /// In fixed point ([`to_fixed`]), so that their sums do not depend on
    /// the order the keys' pushes arrive in, which depends on how the audio
    /// is divided into blocks (floating-point sums do).
    in_flight: Vec<[i64; 2]>,
    /// Where the block begins in `in_flight`, and how long it is.
    start: usize,
    block: usize,
    filter: RadiationFilter,
    sample_rate: f64,
    state: [FilterState; 2],
}

impl StringRadiation {
    /// Heard with `weights` per key (left and right: [`key_weight`] times
    /// each microphone's fall with distance) after `delays` per key (left
    /// and right, samples) through `filter`, at `sample_rate` (Hz).
    pub fn new(
        weights: Vec<[f64; 2]>,
        delays: Vec<[usize; 2]>,
        filter: RadiationFilter,
        sample_rate: f64,
    ) -> Self {
        let longest = delays.iter().flatten().copied().max().unwrap_or(0);
        Self {
            weights,
            delays,
            in_flight: vec![[0; 2]; (BRIDGE_BLOCK + longest).next_power_of_two()],
            start: 0,
            block: 0,
            filter,
            sample_rate,
            state: [FilterState::default(); 2],
        }
    }

    /// Begins a block of `samples` samples, after the last.
    #[inline]
    pub fn begin_block(&mut self, samples: usize) {
        self.start = (self.start + self.block) & (self.in_flight.len() - 1);
        self.block = samples.min(BRIDGE_BLOCK);
    }

    /// Adds key `key`'s push (N) at sample `sample` of the block.
    #[inline]
    pub fn push(&mut self, key: usize, sample: usize, push_n: f64) {
        let (w, d) = (self.weights[key], self.delays[key]);
        let mask = self.in_flight.len() - 1;
        let at = self.start + sample;
        for c in 0..2 {
            let slot = &mut self.in_flight[(at + d[c]) & mask][c];
            *slot = slot.wrapping_add(to_fixed(w[c] * push_n));
        }
    }

    /// Adds key `key`'s pushes (N) from the block's first sample.
    #[inline]
    pub fn push_block(&mut self, key: usize, pushes_n: &[f64]) {
        let (w, d) = (self.weights[key], self.delays[key]);
        let mask = self.in_flight.len() - 1;
        for c in 0..2 {
            let from = self.start + d[c];
            for (i, push) in pushes_n.iter().enumerate() {
                let slot = &mut self.in_flight[(from + i) & mask][c];
                *slot = slot.wrapping_add(to_fixed(w[c] * push));
            }
        }
    }

    /// What the microphones hear at sample `sample` of the block, left and
    /// right, in newtons of equivalent bridge force. Samples in order.
    #[inline]
    pub fn hear(&mut self, sample: usize) -> [f64; 2] {
        let slot = (self.start + sample) & (self.in_flight.len() - 1);
        let input = std::mem::take(&mut self.in_flight[slot]).map(from_fixed);
        let (slope, fs) = (&self.filter.slope, self.sample_rate);
        std::array::from_fn(|c| {
            let state = &mut self.state[c];
            let x = (input[c] - state.last_input) * fs;
            state.last_input = input[c];
            slope.process(&mut state.slope, x)
        })
    }

    /// Carries on `old`'s filters (a radiation of the same keys, heard
    /// through the same law) and the sound in flight, which arrives as it
    /// left the strings, whatever the new paths.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &StringRadiation) {
        if old.filter == self.filter {
            self.state = old.state;
        }
        let old_mask = old.in_flight.len() - 1;
        let next = old.start + old.block;
        for (k, slot) in self.in_flight.iter_mut().enumerate() {
            *slot = if k <= old_mask {
                old.in_flight[(next + k) & old_mask]
            } else {
                [0; 2]
            };
        }
        (self.start, self.block) = (0, 0);
    }

    /// Silence in the filters and nothing in flight.
    pub fn reset(&mut self) {
        self.state = [FilterState::default(); 2];
        self.in_flight.fill([0; 2]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digital filter follows the heard law within 0.75 dB from 50 Hz
    /// to 0.3 of the rate, at the player's and the close distances and at
    /// 44.1 and 96 kHz.
    #[test]
    fn the_filter_follows_the_radiation_law() {
        for distance in [0.15, 0.7] {
            for fs in [44_100.0, 96_000.0] {
                let filter = RadiationFilter::new(distance, fs);
                for i in 0..=100 {
                    let f = 50.0 * (0.3 * fs / 50.0f64).powf(f64::from(i) / 100.0);
                    let db = 20.0 * (filter.response(f, fs) / heard_law(f, distance)).log10();
                    assert!(db.abs() < 0.75, "{distance} m, {fs} Hz: {db} dB at {f} Hz");
                }
            }
        }
    }

    /// The filter as it runs: a sine through it comes out at the gain the
    /// response says.
    #[test]
    fn running_the_filter_gives_its_response() {
        let fs = 48_000.0;
        let filter = RadiationFilter::new(0.7, fs);
        for f in [200.0, 2_000.0, 10_000.0] {
            let mut heard =
                StringRadiation::new(vec![[1.0, 0.0]], vec![[0, 0]], filter.clone(), fs);
            let mut peak: f64 = 0.0;
            for n in 0..48_000 {
                let i = n % BRIDGE_BLOCK;
                if i == 0 {
                    heard.begin_block(BRIDGE_BLOCK);
                }
                heard.push(0, i, (2.0 * PI * f * n as f64 / fs).sin());
                let y = heard.hear(i)[0];
                if n > 24_000 {
                    peak = peak.max(y.abs());
                }
            }
            let expected = filter.response(f, fs);
            assert!(
                (peak / expected - 1.0).abs() < 0.01,
                "{f} Hz: {peak} against {expected}"
            );
        }
    }

    /// Each key is heard by each microphone after its own delay, whether
    /// it pushes sample by sample or a block at once, in blocks of any
    /// length up to the bridge's: the same sound as an undelayed key's,
    /// later.
    #[test]
    fn each_key_is_heard_after_its_own_delay() {
        let fs = 48_000.0;
        let filter = RadiationFilter::new(0.15, fs);
        let delays = vec![[0, 0], [37, 5], [300, 129]];
        let push = |n: usize| if (100..110).contains(&n) { 1.0 } else { 0.0 };
        for (block, whole) in [(BRIDGE_BLOCK, true), (BRIDGE_BLOCK, false), (7, true)] {
            let mut heard =
                StringRadiation::new(vec![[1.0, 1.0]; 3], delays.clone(), filter.clone(), fs);
            let mut out = [vec![], vec![]];
            let frames = 2_000;
            let mut n = 0;
            while n < frames {
                let samples = block.min(frames - n);
                heard.begin_block(samples);
                if whole {
                    let pushes: Vec<f64> = (n..n + samples).map(push).collect();
                    // Only the delayed keys push: key 0 is the reference.
                    heard.push_block(1, &pushes);
                    heard.push_block(2, &pushes);
                }
                for i in 0..samples {
                    if !whole {
                        heard.push(1, i, push(n + i));
                        heard.push(2, i, push(n + i));
                    }
                    let [l, r] = heard.hear(i);
                    out[0].push(l);
                    out[1].push(r);
                }
                n += samples;
            }
            let mut alone =
                StringRadiation::new(vec![[1.0, 1.0]], vec![[0, 0]], filter.clone(), fs);
            let mut reference = vec![];
            for n in 0..frames {
                let i = n % BRIDGE_BLOCK;
                if i == 0 {
                    alone.begin_block(BRIDGE_BLOCK);
                }
                alone.push(0, i, push(n));
                reference.push(alone.hear(i)[0]);
            }
            for c in 0..2 {
                for n in 0..frames {
                    let expected: f64 = [delays[1][c], delays[2][c]]
                        .iter()
                        .map(|&d| if n >= d { reference[n - d] } else { 0.0 })
                        .sum();
                    assert!(
                        (out[c][n] - expected).abs() <= 1e-12 * (1.0 + expected.abs()),
                        "block {block}, channel {c}, sample {n}: {} against {expected}",
                        out[c][n]
                    );
                }
            }
        }
    }
}
