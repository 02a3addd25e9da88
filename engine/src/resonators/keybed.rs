//! The key's knock: a grand's key landing on the keybed, heard through the
//! keybed and the case.
//!
//! # The physics
//!
//! After let-off the jack has left the hammer and the key's front goes on
//! down by the aftertouch (about 1 mm) at the speed it had, the hammer's
//! speed over the action's ratio (the blow distance over the key's dip,
//! about 4.7 on a grand), and lands on the front-rail punching, a felt
//! washer on the keybed. The finger holds it there: the key stops. Its
//! momentum `m·v` (`m` the key's mass as its front sees it) goes into the
//! keybed in about half a period of that mass on the punching's felt,
//! `T = π·√(m/k)` (1.7 ms for 30 g on 10⁵ N/m), taken as a half-sine pulse
//! of peak `π·m·v/(2T)`: a linear felt, damped so that the key does not
//! bounce. Its level goes as the blow's speed, and it comes later after a
//! soft blow than a loud one (the aftertouch at the key's own speed):
//! 1.2 ms after let-off at 0.85 m/s, velocity 100; 7 ms at 0.15 m/s.
//! Askenfelt ("Observations on the transient components of the piano
//! tone", 1993) heard this knock as the low, broadband thump at the start of
//! a piano tone, with the finger's own noise on the key: a transient no
//! string makes, since it is not periodic with any string.
//!
//! The keybed is a thick plate (about 35 mm of laminated wood, 25 kg/m²)
//! joined to the case. Driven by a force `F`, a plate below its
//! coincidence radiates its net volume acceleration, which is `F/m''`
//! whatever the frequency (Newton's law; Cremer, Heckl & Petersson,
//! *Structure-Borne Sound*, 2005): heard at a distance `r`, `|p| =
//! ρ0·|F|/(2π·r·m'')`, the large-plate law by which the board too is heard
//! above its modes (`listening.rs`). Expressed, as everything the
//! microphones hear, in newtons of bridge force heard from the board's
//! reference distance `board_m` (a pressure `p` is `2π·board_m·m''_b·p/ρ0`),
//! the knock is `F·(board_m/r)·(m''_b/m''_k)`: at the close pair (a metre
//! from the keybed, the board heard as from 0.7 m, 4.7 kg/m² against 25)
//! 0.13 N per newton on the keybed, at the pianist's seat (0.6 m from it)
//! 0.31.
//!
//! The keybed is finite and rings: [`CASE_MODES`] modes from
//! [`LOWEST_MODE_HZ`] (its first plate mode) to [`HIGHEST_MODE_HZ`], spaced
//! evenly in log frequency (each stands for a band of the plate's modes,
//! about one every 100 Hz) with seeded jitter, all at [`QUALITY`] (a loss
//! factor of 0.08, wood and the glued joints of the case). Each mode's
//! acceleration follows the force as a mass does above its resonance,
//! rises by `Q` at it and falls 12 dB an octave below: a plate below its
//! first mode is held by its stiffness and barely radiates, so the knock
//! has little below 250 Hz. Each mode carries a share of the plate's net
//! volume, falling as `1/f` (a plate's mode `(p, q)` moves a net volume
//! as `1/(p·q)`, its share of the sum as `1/(p·q)²`, and a band of modes
//! at `f` holds `∝ f` of them: the lowest modes move most of the air).
//! Each key lands at its own place along the keybed and each microphone
//! hears each mode with its own weight about that share (seeded sines
//! along the keybed times seeded radiation weights), the weights of one
//! key at one microphone summing to one: above the modes the sum is the
//! large plate's `F/m''` (the plate's modes are complete), so a knock's
//! first instant is its force and the modes' ringing follows.
//!
//! # Approximations, stated
//!
//! - One way: the knock is heard, but the keybed's motion moves neither the
//!   board nor the strings (the case is far heavier than the board, and the
//!   rim holds the board's edge still).
//! - The punching is a linear felt and the pulse a half-sine; a real felt
//!   stiffens as it is compressed, so a loud landing is a little shorter
//!   and brighter than this.
//! - Below coincidence, `c0²/(2π)·√(m''/D)` = 490 Hz for the keybed, a
//!   plate radiates its net volume; above it the bending waves are faster
//!   than sound and radiate better than this law says, so the knock's
//!   highest part (the pulse has little above 900 Hz) is heard a little
//!   low.
//! - The keybed is heard as a baffled plate from its top face; its
//!   underside radiates in antiphase, which cancels some of its lowest
//!   modes' sound. The sound's time of flight from the keybed is left out
//!   (under 3 ms at a metre).
//! - The path through the case into the board is left out: the case and
//!   rim (hundreds of kilograms) move under a key's knock about 1 % as much
//!   as the keybed's own radiation is heard, by the ratio of the board's
//!   mass to theirs.
//! - The finger's own impact on the key (a struck touch's "touch noise")
//!   and the hammer's fall onto its rest are not modelled here.

use std::f64::consts::PI;

use super::soundboard::shape_hash;

/// The keybed's modes.
pub const CASE_MODES: usize = 32;
/// Their lowest frequency, Hz: the first mode of a keybed 1.5 m by 0.5 m of
/// 35 mm wood (`D = E·h³/12` with E = 10 GPa, 25 kg/m²) held at its edges,
/// `(π/2)·√(D/m'')·(1/a² + 1/b²)` = 267 Hz.
pub const LOWEST_MODE_HZ: f64 = 250.0;
/// Their highest frequency, Hz.
pub const HIGHEST_MODE_HZ: f64 = 5_000.0;
/// Every mode's quality factor (loss factor 0.08).
pub const QUALITY: f64 = 12.5;
/// The most landings in progress at once: a pulse lasts a few milliseconds,
/// so sixteen keys landing within one is more than hands do; more are
/// dropped.
const MAX_LANDINGS: usize = 16;
/// How often a ringing keybed checks whether it has fallen silent, samples.
pub const SILENCE_CHECK: usize = 64;

/// What sets a key's knock on the keybed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeybedParams {
    /// The key's mass as its front sees it, kg.
    pub key_mass_kg: f64,
    /// How far the key's front travels from let-off to the punching, m.
    pub aftertouch_m: f64,
    /// Stiffness of the front-rail punching's felt, N/m.
    pub punching_stiffness_n_m: f64,
    /// The keybed's surface density, kg/m².
    pub surface_density_kg_m2: f64,
    /// The knock's level over what the physics gives (0 mutes it).
    pub level: f64,
    /// Which keybed: the seed of its modes' jitter, shapes and weights.
    pub seed: u64,
}

/// How the microphones hear the keybed.
#[derive(Debug, Clone, PartialEq)]
pub struct KeybedHearing {
    /// Output units per newton of bridge force heard from `board_m`.
    pub output_per_newton: f64,
    /// The distance the board's force is heard from, m (the outputs' unit).
    pub board_m: f64,
    /// The board's surface density, kg/m².
    pub board_density_kg_m2: f64,
    /// From each key's landing place (bass first) to the left and right
    /// microphones, m.
    pub key_distances_m: Vec<[f64; 2]>,
}

impl KeybedHearing {
    /// Newtons of bridge force heard per newton on the keybed of surface
    /// density `keybed_density_kg_m2` (kg/m²) at `distance_m` (m): the
    /// large-plate law of each, `board_m·m''_b/(r·m''_k)`.
    pub fn transfer(&self, distance_m: f64, keybed_density_kg_m2: f64) -> f64 {
        self.board_m * self.board_density_kg_m2 / (distance_m * keybed_density_kg_m2)
    }
}

/// A deterministic value in [−1, 1] for mode `i` and slot `k`, the
/// soundboard's hash of a seed set apart for the keybed, so that every
/// build of the same keybed is identical and its modes are not the board's.
fn hash(seed: u64, i: usize, k: u64) -> f64 {
    shape_hash(seed ^ KEYBED_SALT, i, k)
}

/// What sets the keybed's seeds apart from the board's ("keybed" in ASCII).
const KEYBED_SALT: u64 = 0x6B65_7962_6564;

/// One key landing: its pulse, sample by sample.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Landing {
    /// The key, an index into the weights.
    key: usize,
    /// Samples before the key reaches the punching.
    wait: usize,
    /// Samples of the pulse already given.
    elapsed: usize,
    /// The pulse's length, samples.
    length: usize,
    /// Its peak force, N.
    peak_n: f64,
    /// Its phase step, rad a sample (`π` over its length in time).
    step_rad: f64,
}

/// A mode's acceleration per unit of force over mass, as a high-pass
/// resonance of unit gain above it (the bilinear transform of
/// `s²/(s² + s·ω/Q + ω²)`, its frequency prewarped).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct ModeFilter {
    b0: f64,
    a1: f64,
    a2: f64,
}

impl ModeFilter {
    fn new(frequency_hz: f64, sample_rate: f64) -> Self {
        let w = 2.0 * PI * frequency_hz / sample_rate;
        let alpha = w.sin() / (2.0 * QUALITY);
        let a0 = 1.0 + alpha;
        Self {
            b0: (1.0 + w.cos()) / (2.0 * a0),
            a1: 2.0 * w.cos() / a0,
            a2: (1.0 - alpha) / a0,
        }
    }
}

/// The keybed and case of a grand, knocked by its keys (see the module's
/// page).
///
/// Allocates: the keys' weights, in [`Keybed::new`]; nothing after.
#[derive(Debug, Clone)]
pub struct Keybed {
    params: KeybedParams,
    sample_rate: f64,
    modes: [ModeFilter; CASE_MODES],
    /// Each key's weight of each mode at the left and right microphones,
    /// times its transfer and the output's units per newton.
    weights: Box<[[[f64; CASE_MODES]; 2]]>,
    /// Each side's modes' last two inputs and outputs, output units.
    x1: [[f64; CASE_MODES]; 2],
    x2: [[f64; CASE_MODES]; 2],
    y1: [[f64; CASE_MODES]; 2],
    y2: [[f64; CASE_MODES]; 2],
    landings: [Landing; MAX_LANDINGS],
    count: usize,
    /// Below this (output units) the keybed is silent.
    silence: f64,
    /// Whether the modes ring (else they are exactly at rest).
    ringing: bool,
    /// Samples since the last check for silence.
    since_check: usize,
}

impl Keybed {
    /// The keybed under the keys `hearing` places, at `sample_rate` (Hz);
    /// it falls silent below `silence` (output units). Values out of range
    /// are clamped: mass 1 g to 1 kg, aftertouch 0 to 5 mm, stiffness 10³ to
    /// 10⁸ N/m, density 1 to 100 kg/m², level 0 to 10, distances at least
    /// 0.1 m.
    pub fn new(
        params: &KeybedParams,
        hearing: &KeybedHearing,
        sample_rate: f64,
        silence: f64,
    ) -> Self {
        let clamp = |v: f64, lo: f64, hi: f64, default: f64| {
            if v.is_finite() {
                v.clamp(lo, hi)
            } else {
                default
            }
        };
        let params = KeybedParams {
            key_mass_kg: clamp(params.key_mass_kg, 1e-3, 1.0, 0.03),
            aftertouch_m: clamp(params.aftertouch_m, 0.0, 5e-3, 1e-3),
            punching_stiffness_n_m: clamp(params.punching_stiffness_n_m, 1e3, 1e8, 1e5),
            surface_density_kg_m2: clamp(params.surface_density_kg_m2, 1.0, 100.0, 25.0),
            level: clamp(params.level, 0.0, 10.0, 0.0),
            seed: params.seed,
        };
        let ratio = HIGHEST_MODE_HZ / LOWEST_MODE_HZ;
        let mut modes = [ModeFilter::default(); CASE_MODES];
        let mut frequencies = [0.0; CASE_MODES];
        let mut half_waves = [0.0; CASE_MODES];
        let mut phases = [0.0; CASE_MODES];
        let mut radiation = [[0.0; CASE_MODES]; 2];
        for m in 0..CASE_MODES {
            let place = (m as f64 + 0.4 * hash(params.seed, m, 1)) / (CASE_MODES - 1) as f64;
            let f = (LOWEST_MODE_HZ * ratio.powf(place.clamp(0.0, 1.0))).min(0.45 * sample_rate);
            modes[m] = ModeFilter::new(f, sample_rate);
            frequencies[m] = f;
            // Bending waves along the keybed: more half waves higher up.
            half_waves[m] =
                1.0 + (f / LOWEST_MODE_HZ).sqrt() * (1.0 + hash(params.seed, m, 4).abs());
            phases[m] = PI * hash(params.seed, m, 5);
            // Uniform on [−√3, √3]: unit mean square, as the shapes' √2·sin.
            radiation[0][m] = 3f64.sqrt() * hash(params.seed, m, 2);
            radiation[1][m] = 3f64.sqrt() * hash(params.seed, m, 3);
        }
        // Each mode's share of the plate's net volume, as its band's:
        // falling as 1/f (see the module's page), summing to one.
        let inverse_sum: f64 = frequencies.iter().map(|f| 1.0 / f).sum();
        let shares = frequencies.map(|f| 1.0 / (f * inverse_sum));
        let span = hearing.key_distances_m.len().saturating_sub(1).max(1) as f64;
        let weights = hearing
            .key_distances_m
            .iter()
            .enumerate()
            .map(|(k, distances)| {
                let x = k as f64 / span;
                std::array::from_fn(|side| {
                    let r = clamp(distances[side], 0.1, 1e3, 1.0);
                    let heard = params.level
                        * hearing.output_per_newton
                        * hearing.transfer(r, params.surface_density_kg_m2);
                    let spread: [f64; CASE_MODES] = std::array::from_fn(|m| {
                        2f64.sqrt()
                            * (PI * half_waves[m] * x + phases[m]).sin()
                            * radiation[side][m]
                    });
                    // Weights summing to one: the large plate above the modes.
                    let mean: f64 = spread.iter().zip(&shares).map(|(d, s)| d * s).sum();
                    std::array::from_fn(|m| heard * shares[m] * (1.0 + spread[m] - mean))
                })
            })
            .collect();
        Self {
            params,
            sample_rate,
            modes,
            weights,
            x1: [[0.0; CASE_MODES]; 2],
            x2: [[0.0; CASE_MODES]; 2],
            y1: [[0.0; CASE_MODES]; 2],
            y2: [[0.0; CASE_MODES]; 2],
            landings: [Landing::default(); MAX_LANDINGS],
            count: 0,
            silence: silence.max(0.0),
            ringing: false,
            since_check: 0,
        }
    }

    /// Whether the knock is muted (level 0, or nothing hears it): then it
    /// never rings.
    pub fn is_muted(&self) -> bool {
        self.params.level == 0.0 || self.weights.iter().flatten().flatten().all(|&w| w == 0.0)
    }

    /// The pulse of a key's landing when its front leaves let-off at
    /// `speed_m_s` (m/s): (samples until it lands, samples it lasts, peak
    /// force N). None for a key that does not move.
    pub fn pulse(&self, speed_m_s: f64) -> Option<(usize, usize, f64)> {
        if !(speed_m_s.is_finite() && speed_m_s > 0.0) {
            return None;
        }
        let p = &self.params;
        let wait = (p.aftertouch_m / speed_m_s * self.sample_rate).round();
        let seconds = PI * (p.key_mass_kg / p.punching_stiffness_n_m).sqrt();
        let length = (seconds * self.sample_rate).round().max(1.0);
        let peak = PI * p.key_mass_kg * speed_m_s / (2.0 * seconds);
        Some((wait.min(1e6) as usize, length as usize, peak))
    }

    /// Key `key` (an index along the keybed, bass first) leaves let-off with
    /// its front moving down at `speed_m_s` (m/s): it lands on its punching
    /// after the aftertouch and knocks.
    pub fn land(&mut self, key: usize, speed_m_s: f64) {
        if self.is_muted() || key >= self.weights.len() || self.count >= MAX_LANDINGS {
            return;
        }
        let Some((wait, length, peak_n)) = self.pulse(speed_m_s) else {
            return;
        };
        self.landings[self.count] = Landing {
            key,
            wait,
            elapsed: 0,
            length,
            peak_n,
            step_rad: PI / length as f64,
        };
        self.count += 1;
        self.ringing = true;
    }

    /// Whether the keybed rings or a key is about to land.
    pub fn is_ringing(&self) -> bool {
        self.ringing
    }

    /// Each side's modal inputs of this sample from the landings in
    /// progress (output units), and each landing moved on by a sample
    /// (finished ones dropped).
    fn inputs(&mut self) -> [[f64; CASE_MODES]; 2] {
        let mut inputs = [[0.0; CASE_MODES]; 2];
        let mut i = 0;
        while i < self.count {
            let landing = &mut self.landings[i];
            if landing.wait > 0 {
                landing.wait -= 1;
                i += 1;
                continue;
            }
            // The half-sine sampled at the middle of each sample.
            let phase = (landing.elapsed as f64 + 0.5) * landing.step_rad;
            let force = landing.peak_n * phase.sin();
            for (side, weights) in inputs.iter_mut().zip(self.weights[landing.key].iter()) {
                for (x, &w) in side.iter_mut().zip(weights) {
                    *x += w * force;
                }
            }
            landing.elapsed += 1;
            if landing.elapsed >= landing.length {
                self.count -= 1;
                self.landings[i] = self.landings[self.count];
            } else {
                i += 1;
            }
        }
        inputs
    }

    /// Adds what the keybed radiates to `bus` (left, right; output units),
    /// one frame a sample. Every `SILENCE_CHECK` (64) samples of its own
    /// clock (so that how the calls cut the samples changes nothing), it
    /// falls silent if no key is landing and every mode is below the
    /// silence level.
    pub fn render(&mut self, bus: &mut [[f64; 2]]) {
        for frame in bus.iter_mut() {
            if !self.ringing {
                return;
            }
            let inputs = self.inputs();
            for (side, heard) in frame.iter_mut().enumerate() {
                let x = &inputs[side];
                let (x1, x2) = (&mut self.x1[side], &mut self.x2[side]);
                let (y1, y2) = (&mut self.y1[side], &mut self.y2[side]);
                // Mode by mode into an array (the loop vectorises), then
                // summed in order.
                let y: [f64; CASE_MODES] = std::array::from_fn(|m| {
                    let mode = &self.modes[m];
                    mode.b0 * (x[m] - 2.0 * x1[m] + x2[m]) + mode.a1 * y1[m] - mode.a2 * y2[m]
                });
                (*x2, *x1, *y2, *y1) = (*x1, *x, *y1, y);
                *heard += y.iter().sum::<f64>();
            }
            self.since_check += 1;
            if self.since_check >= SILENCE_CHECK {
                self.since_check = 0;
                if self.count == 0
                    && self.largest_state() * 4.0 * (CASE_MODES as f64) < self.silence
                {
                    self.reset();
                }
            }
        }
    }

    /// The largest of the modes' states, output units: each mode's output is
    /// bounded by a few times it.
    fn largest_state(&self) -> f64 {
        [&self.x1, &self.x2, &self.y1, &self.y2]
            .iter()
            .flat_map(|s| s.iter().flatten())
            .fold(0.0f64, |a, &v| a.max(v.abs()))
    }

    /// Carries on the ringing of `old`, a keybed of another instrument with
    /// as many keys: its modes' state and the landings in progress.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &Keybed) {
        if old.weights.len() != self.weights.len() || self.is_muted() {
            return;
        }
        (self.x1, self.x2, self.y1, self.y2) = (old.x1, old.x2, old.y1, old.y2);
        (self.landings, self.count, self.ringing) = (old.landings, old.count, old.ringing);
        self.since_check = old.since_check;
    }

    /// Everything at rest.
    pub fn reset(&mut self) {
        self.x1 = [[0.0; CASE_MODES]; 2];
        self.x2 = [[0.0; CASE_MODES]; 2];
        self.y1 = [[0.0; CASE_MODES]; 2];
        self.y2 = [[0.0; CASE_MODES]; 2];
        self.count = 0;
        self.ringing = false;
        self.since_check = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FS: f64 = 48_000.0;

    fn params(level: f64, stiffness: f64) -> KeybedParams {
        KeybedParams {
            key_mass_kg: 0.03,
            aftertouch_m: 1e-3,
            punching_stiffness_n_m: stiffness,
            surface_density_kg_m2: 25.0,
            level,
            seed: 0,
        }
    }

    /// 88 keys a metre from both microphones, heard as the board is from
    /// 0.7 m (4.7 kg/m²), one output unit a newton.
    fn hearing() -> KeybedHearing {
        KeybedHearing {
            output_per_newton: 1.0,
            board_m: 0.7,
            board_density_kg_m2: 4.7,
            key_distances_m: vec![[1.0, 1.0]; 88],
        }
    }

    fn keybed(level: f64) -> Keybed {
        Keybed::new(&params(level, 1e5), &hearing(), FS, 1e-9)
    }

    fn knock(keybed: &mut Keybed, key: usize, speed: f64, frames: usize) -> Vec<[f64; 2]> {
        let mut bus = vec![[0.0; 2]; frames];
        keybed.land(key, speed);
        for block in bus.chunks_mut(64) {
            keybed.render(block);
        }
        bus
    }

    /// The pulse carries the key's momentum, lasts half a period of the
    /// key's mass on the felt, and starts once the aftertouch is crossed.
    #[test]
    fn the_pulse_carries_the_keys_momentum() {
        let bed = keybed(1.0);
        let (wait, length, peak) = bed.pulse(0.5).unwrap();
        assert_eq!(wait, 96, "1 mm at 0.5 m/s is 2 ms");
        let period_half = PI * (0.03f64 / 1e5).sqrt();
        assert!((length as f64 / FS - period_half).abs() < 1.0 / FS);
        let impulse = 2.0 * peak * period_half / PI;
        assert!((impulse - 0.03 * 0.5).abs() < 1e-9, "{impulse}");
        assert!(bed.pulse(0.0).is_none() && bed.pulse(f64::NAN).is_none());
    }

    /// The knock starts when the key lands, grows as the blow's speed, and
    /// dies away to rest.
    #[test]
    fn the_knock_follows_the_blow_and_dies() {
        let mut bed = keybed(1.0);
        let slow = knock(&mut bed, 40, 0.2, 48_000);
        assert!(!bed.is_ringing(), "at rest after a second");
        let fast = knock(&mut bed, 40, 0.8, 48_000);
        let onset = |x: &[[f64; 2]]| x.iter().position(|f| f[0] != 0.0).unwrap();
        assert_eq!(onset(&slow), 240, "5 ms to cross 1 mm at 0.2 m/s");
        assert_eq!(onset(&fast), 60);
        let peak = |x: &[[f64; 2]]| x.iter().map(|f| f[0].abs()).fold(0.0, f64::max);
        let ratio = peak(&fast) / peak(&slow);
        assert!((ratio - 4.0).abs() < 0.01, "{ratio}");
        let tail = fast[24_000..]
            .iter()
            .map(|f| f[0].abs())
            .fold(0.0, f64::max);
        assert!(tail < 1e-6 * peak(&fast));
    }

    /// How the calls cut the samples changes nothing, the fall into
    /// silence included.
    #[test]
    fn block_size_changes_nothing() {
        let render = |block: usize| {
            let mut bed = keybed(1.0);
            bed.land(30, 0.4);
            let mut bus = vec![[0.0; 2]; 48_000];
            for chunk in bus.chunks_mut(block) {
                bed.render(chunk);
            }
            assert!(!bed.is_ringing());
            bus
        };
        let whole = render(48_000);
        assert!(whole.iter().any(|f| f[0] != 0.0));
        for block in [1, 37, 64, 1000] {
            assert!(render(block) == whole, "block {block}");
        }
    }

    /// Muted, nothing rings; each key knocks from its own place.
    #[test]
    fn a_muted_keybed_is_silent_and_keys_differ() {
        let mut muted = keybed(0.0);
        assert!(
            knock(&mut muted, 10, 1.0, 4_800)
                .iter()
                .all(|f| *f == [0.0; 2])
        );
        let mut bed = keybed(1.0);
        let low = knock(&mut bed, 0, 0.5, 4_800);
        bed.reset();
        let high = knock(&mut bed, 87, 0.5, 4_800);
        assert_ne!(low, high);
        assert!(
            low.iter().any(|f| f[0] != f[1]),
            "each microphone hears the modes its own way"
        );
    }

    /// At its first instant a knock is heard as a large plate radiates it,
    /// its force over the keybed's mass (`F·(board_m/r)·(m''_b/m''_k)`),
    /// before the modes ring: a landing of three samples on a stiff
    /// punching is heard at its first sample as its force within 3 % (by the
    /// next the highest modes' ringing has begun).
    #[test]
    fn a_knocks_first_instant_is_the_large_plates() {
        let mut bed = Keybed::new(&params(1.0, 1e8), &hearing(), FS, 1e-12);
        let (wait, length, peak) = bed.pulse(1.0).unwrap();
        assert_eq!(length, 3);
        let heard = knock(&mut bed, 44, 1.0, 4_800);
        let transfer = 0.7 * 4.7 / 25.0;
        let force = peak * (0.5 * PI / length as f64).sin();
        for &y in &heard[wait] {
            let error = y / (force * transfer) - 1.0;
            assert!(error.abs() < 0.03, "{y} for {force} N");
        }
        // Then the modes ring on, well after the pulse.
        let later = heard[wait + 480..wait + 960]
            .iter()
            .map(|f| f[0].abs())
            .fold(0.0, f64::max);
        assert!(later > 1e-3 * peak * transfer, "{later}");
    }
}
