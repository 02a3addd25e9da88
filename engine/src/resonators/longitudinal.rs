//! The string's longitudinal vibration: how the transverse motion stretches
//! the string and pulls on the bridge along it. It is the knock of a
//! piano's attack and the bass's phantom partials.
//!
//! # The physics
//!
//! A string of Young's modulus `E`, core cross-section `A`, linear density
//! `μ`, tension `T0` and length `L`, displaced across by `y(x, t)` and along
//! by `ξ(x, t)`, is strained by `ε = ξ_x + y_x²/2` to second order, and its
//! longitudinal motion obeys (Bank & Sujbert, "Generation of longitudinal
//! vibrations in piano strings: from physics to sound synthesis", JASA 117,
//! 2005, with their one-way coupling: the longitudinal motion does not act
//! back on the transverse)
//!
//! ```text
//! μ·ξ_tt = E·A·ξ_xx + (E·A/2)·∂x(y_x²)          (E·A ≫ T0)
//! ```
//!
//! Longitudinal waves travel at `c_L = √(E·A/μ)` (5.1 km/s for plain steel;
//! slower on a wound string, whose windings add mass but no stiffness), and
//! with both ends held the string's longitudinal modes are `ξ_k ∝ sin(kπx/L)`
//! at `f_Lk = k·c_L/(2L)`, 15 to 25 times the transverse fundamental
//! (Conklin, "Design and tone in the mechanoacoustic piano, Part III",
//! JASA 1996). With `x` from the agraffe to the bridge, expand `y_x²/2` in
//! cosines: `y_x²/2 = G_0/(2L) + Σ_k (G_k/L)·cos(kπx/L)`, with
//! `G_k = ∫ y_x²·cos(kπx/L) dx`. The strain's `cos(kπx/L)` component `e_k`
//! then obeys `ë_k + 2σ·ė_k + ω_k²·e_k = −ω_k²·G_k/L` (`ω_k = 2π·f_Lk`), and
//! the pull of the string on the bridge is
//!
//! ```text
//! N(L) − T0 = E·A·(ξ_x + y_x²/2)|_L = (E·A/L)·[G_0/2 + Σ_k (−1)^k·(G_k − R_k{G_k})]
//! ```
//!
//! where `R_k` is mode `k`'s resonance with unit gain at rest (`e_k =
//! −R_k{G_k}/L`). Far below its resonance a mode follows at once and adds
//! nothing: the string's tension rises uniformly by `E·A·ΔL/L`, `ΔL = G_0/2`
//! the stretch (the tension modulation of Kirchhoff and Carrier); near it,
//! the mode rings. Modes above the band are taken as following at once.
//! Since `y_x²` is the product of the transverse waves, its spectrum holds
//! the sums and differences of the partials' frequencies: the phantom
//! partials at `f_m ± f_n`; and its rise at the blow, within the hammer's
//! contact, is the broadband knock. Its level goes as the square of the
//! blow.
//!
//! # From the waveguide
//!
//! A waveguide holds the velocity waves `v⁺` (towards the agraffe) and `v⁻`
//! (back) at every point, and the slope is `y_x = ±(v⁺ − v⁻)/c`: the
//! string's loop, read in pairs mirrored about the agraffe, gives `y_x²` at
//! every point (see [`StiffString::mirrored_pair`]). `G_k` is its integral
//! by the trapezoid rule over points every `stride` samples of travel, so
//! that sums of partials up to about [`BAND_HZ`] are integrated exactly (a
//! product `cos(jπx/L)` is integrated exactly by `Q` points for `j < 2Q`).
//!
//! The pull along the string reaches the board across it through the
//! bridge: by the downbearing angle, and by the moment it puts on the bridge
//! about its foot. `coupling` is the share that does, a property of how the
//! strings stand on the bridge.
//!
//! # Approximations, stated
//!
//! - The coupling is one way, as Bank & Sujbert's: the pull pushes the
//!   board (and through it every string on the bridge), but neither changes
//!   the strings' tension nor moves the strings' own bridge under them
//!   through its local give (a loop that, with no energy flowing back, could
//!   feed itself on a bridge that gives way enough).
//! - The strings of a unison stretch alike in the attack (they are struck
//!   together and drift apart by a fraction of a cent): the stretch of the
//!   first struck string stands for every struck string.
//! - The stretch is integrated every [`STEP`] samples and drawn straight
//!   between, and the pull reaches the bridge [`DELAY`] samples after the
//!   strings' state it comes from (0.42 ms at 48 kHz; a longitudinal wave
//!   itself takes `L/c_L`, 0.1 to 0.8 ms, to cross the string), so that the
//!   pushes of a whole block are known before its samples are solved,
//!   however the block is divided.
//! - The loop's lumped filters stand for the string's dispersion, not for a
//!   stretch of it: the line's half, from the agraffe to the bridge, is
//!   mapped onto the whole length. The modes are followed only while the
//!   pull can still
//!   matter: from a blow until a bound on it, `E·A/L` times twice the
//!   string's energy over its tension (`∫(v⁺² + v⁻²)dx/c²`, which only a
//!   blow raises), has fallen 20 dB below its peak (the transverse motion
//!   10 dB down): the knock of the attack whole, and the phantom partials of
//!   the sound's first stage, at a cost the whole keyboard can bear.
//!
//! [`StiffString::mirrored_pair`]: super::StiffString::mirrored_pair

use std::f64::consts::PI;

use super::StiffString;
use super::soundboard::BRIDGE_BLOCK;

/// The most longitudinal modes that ring; those above follow at once.
pub const MAX_LONGITUDINAL_MODES: usize = 4;

/// The most points the stretch is integrated over.
const MAX_POINTS: usize = 24;

/// Sums of partials up to this frequency (Hz) are integrated exactly where
/// `MAX_POINTS` allows, and longitudinal modes up to it ring.
pub const BAND_HZ: f64 = 6_000.0;

/// The modes are followed until the pull's bound has fallen this far below
/// its peak since the blow (−20 dB: the transverse motion 10 dB down).
const CUTOFF: f64 = 0.1;

/// The stretch is integrated every this many samples, and drawn straight
/// between (the points of the integral are [`BAND_HZ`] apart in travel, so
/// it changes little from sample to sample).
pub const STEP: usize = 4;

/// Samples from the strings' state to the push it makes on the bridge: a
/// block of the bridge's pushes is known before its samples are solved,
/// whatever the block's division, and the stretch of the samples between
/// two integrals is known once the second is.
pub const DELAY: usize = BRIDGE_BLOCK + STEP;

/// What sets the longitudinal vibration of a note's strings, beyond the
/// strings' own length, mass, tension and inharmonicity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LongitudinalParams {
    /// Young's modulus of the strings' core wire, Pa (2.0e11 for steel).
    pub youngs_modulus_pa: f64,
    /// The share of the string's pull along its length at the bridge that
    /// pushes the board across it (0 to 1).
    pub coupling: f64,
    /// 60 dB decay time of the longitudinal modes, s.
    pub t60_s: f64,
}

/// A longitudinal mode's resonance `R_k`: a two-pole low-pass of unit gain
/// at rest, `y = b0·x + a1·y₁ − a2·y₂`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Resonance {
    b0: f64,
    a1: f64,
    a2: f64,
    y1: f64,
    y2: f64,
}

impl Resonance {
    fn new(frequency_hz: f64, t60_s: f64, sample_rate: f64) -> Self {
        let r = (-6.907_755_278_982_137 / (t60_s * sample_rate)).exp();
        let a1 = 2.0 * r * (2.0 * PI * frequency_hz / sample_rate).cos();
        let a2 = r * r;
        Self {
            b0: 1.0 - a1 + a2,
            a1,
            a2,
            y1: 0.0,
            y2: 0.0,
        }
    }

    #[inline(always)]
    fn process(&mut self, x: f64) -> f64 {
        let y = self.b0 * x + self.a1 * self.y1 - self.a2 * self.y2;
        self.y2 = self.y1;
        self.y1 = y;
        y
    }

    fn reset(&mut self) {
        self.y1 = 0.0;
        self.y2 = 0.0;
    }
}

/// The longitudinal vibration of a note's strings and its pull on the
/// bridge (see the module's page for the physics and the approximations).
///
/// Allocates nothing: its tables are arrays.
#[derive(Debug, Clone, PartialEq)]
pub struct Longitudinal {
    /// The pushes on the bridge (N) of the next [`DELAY`] samples, by
    /// sample modulo [`DELAY`].
    pending: [f64; DELAY],
    /// The slot of the sample the strings are at.
    position: usize,
    /// Samples since the stretch was last integrated.
    phase: usize,
    /// Samples noted as no push since the modes were last followed (at
    /// most [`DELAY`]: then every pending push is none).
    silent_for: usize,
    /// The stretch's components `G_k` (m) when last integrated.
    last: [f64; MAX_LONGITUDINAL_MODES + 1],
    /// Whether the modes are followed (from a blow until they fade).
    live: bool,
    /// Samples of travel between integration points.
    stride: usize,
    /// Integration points.
    points: usize,
    /// Ringing modes.
    modes: usize,
    /// `w_m·cos(kπx_m/L)/(c·fs)` for point `m` and mode `k` (mode 0 halved):
    /// `G_k` (m) from the squared sums of mirrored waves ((m/s)²).
    weights: [[f64; MAX_LONGITUDINAL_MODES + 1]; MAX_POINTS],
    resonances: [Resonance; MAX_LONGITUDINAL_MODES],
    /// `−coupling·E·A/L`, N/m: the push on the board per metre of stretch
    /// (a rising tension presses the bridge into the board, against the
    /// hammer's blow).
    push_per_m: f64,
    /// Longitudinal modes' frequencies, Hz (for tests and reports).
    frequencies_hz: [f64; MAX_LONGITUDINAL_MODES],
    /// Largest `|push_per_m|·G_0` since the blow, N.
    peak_bound_n: f64,
}

impl Longitudinal {
    /// The longitudinal vibration of strings like `string` (length `length_m`,
    /// m; linear density `linear_density_kg_m`, kg/m; tension `tension_n`,
    /// N; inharmonicity `inharmonicity`), at `sample_rate` (Hz). The core's
    /// cross-section follows from the inharmonicity: `B = π³·E·d⁴/(64·T·L²)`
    /// gives `A = π·d²/4 = 2L·√(B·T/(π·E))`. `None` when nothing would
    /// reach the board (no coupling, or a string without stiffness) or a
    /// value is out of range.
    pub fn new(
        params: &LongitudinalParams,
        string: &StiffString,
        length_m: f64,
        linear_density_kg_m: f64,
        tension_n: f64,
        inharmonicity: f64,
        sample_rate: f64,
    ) -> Option<Self> {
        let positive = |v: f64| v.is_finite() && v > 0.0;
        if !(positive(params.coupling)
            && params.coupling <= 1.0
            && positive(params.youngs_modulus_pa)
            && positive(params.t60_s)
            && positive(length_m)
            && positive(linear_density_kg_m)
            && positive(tension_n)
            && positive(inharmonicity)
            && positive(sample_rate))
        {
            return None;
        }
        let area_m2 =
            2.0 * length_m * (inharmonicity * tension_n / (PI * params.youngs_modulus_pa)).sqrt();
        let stiffness_n = params.youngs_modulus_pa * area_m2;
        let longitudinal_speed = (stiffness_n / linear_density_kg_m).sqrt();
        let wave_speed = 2.0 * length_m * string.first_partial_hz();
        let reach = string.mirrored_reach();
        // The line's half, agraffe to bridge, stands for the whole length:
        // the lumped filters' delay is the string's dispersion, not a place.
        let half = (reach + 1) as f64;
        let stride = ((sample_rate / BAND_HZ).floor() as usize)
            .max(reach.div_ceil(MAX_POINTS - 1))
            .max(1);
        let points = (reach / stride + 1).min(MAX_POINTS);
        let mut weights = [[0.0; MAX_LONGITUDINAL_MODES + 1]; MAX_POINTS];
        let last = (points - 1) * stride;
        for (m, row) in weights.iter_mut().enumerate().take(points) {
            let at = (m * stride) as f64;
            // The trapezoid rule, the last point also standing for the few
            // samples of travel to the bridge beyond it.
            let width = match m {
                0 if points == 1 => half,
                0 => 0.5 * stride as f64,
                _ if m + 1 == points => 0.5 * stride as f64 + (half - last as f64).max(0.0),
                _ => stride as f64,
            };
            // `dx = L/half` per sample of the line, `y_x² = (v⁺ − v⁻)²/c²`.
            let scale = width * length_m / (half * wave_speed * wave_speed);
            for (k, w) in row.iter_mut().enumerate() {
                let shape = (k as f64 * PI * at / half).cos();
                *w = if k == 0 { 0.5 } else { 1.0 } * scale * shape;
            }
        }
        let mut frequencies_hz = [0.0; MAX_LONGITUDINAL_MODES];
        let mut resonances = [Resonance::default(); MAX_LONGITUDINAL_MODES];
        let mut modes = 0;
        for k in 1..=MAX_LONGITUDINAL_MODES {
            let f = k as f64 * longitudinal_speed / (2.0 * length_m);
            // A mode rings if it is in the band and the points resolve its shape.
            if f >= BAND_HZ.min(0.45 * sample_rate) || 2 * k > points {
                break;
            }
            frequencies_hz[k - 1] = f;
            resonances[k - 1] = Resonance::new(f, params.t60_s, sample_rate);
            modes = k;
        }
        Some(Self {
            pending: [0.0; DELAY],
            position: 0,
            phase: 0,
            silent_for: DELAY,
            last: [0.0; MAX_LONGITUDINAL_MODES + 1],
            live: false,
            stride,
            points,
            modes,
            weights,
            resonances,
            push_per_m: -params.coupling * stiffness_n / length_m,
            frequencies_hz,
            peak_bound_n: 0.0,
        })
    }

    /// The frequencies of the modes that ring, Hz.
    pub fn mode_frequencies_hz(&self) -> &[f64] {
        &self.frequencies_hz[..self.modes]
    }

    /// The push on the bridge (N) at the `ahead`-th sample from the one the
    /// strings are at (`ahead < BRIDGE_BLOCK`).
    #[inline(always)]
    pub fn push_ahead(&self, ahead: usize) -> f64 {
        self.pending[wrap(self.position + ahead)]
    }

    /// Whether no push is pending and the modes are not followed: nothing
    /// to add to the bridge's pushes.
    #[inline(always)]
    pub fn is_silent(&self) -> bool {
        self.silent_for >= DELAY
    }

    /// Whether the modes are followed now.
    #[inline(always)]
    pub fn is_live(&self) -> bool {
        self.live
    }

    /// A hammer pushes on the strings: the modes are followed from now.
    #[inline(always)]
    pub fn struck(&mut self) {
        self.live = true;
        self.silent_for = 0;
    }

    /// How many samples the strings may move on before the stretch is next
    /// integrated (1 to `STEP`): the most [`Longitudinal::follow`] takes.
    #[inline(always)]
    pub fn until_integral(&self) -> usize {
        STEP - self.phase
    }

    /// The strings have moved on by `samples` samples (at most
    /// [`Longitudinal::until_integral`]) and are as `string` holds them
    /// (`strings` struck strings stretch like it; `hammer_on` while a hammer
    /// pushes): their pull on the bridge `DELAY` samples from each is
    /// noted.
    #[inline]
    pub fn follow(&mut self, samples: usize, string: &StiffString, strings: f64, hammer_on: bool) {
        debug_assert!(samples <= self.until_integral());
        if self.live {
            self.position = wrap(self.position + samples);
        } else {
            self.note_silence(samples);
        }
        self.phase += samples;
        if self.phase == STEP {
            self.phase = 0;
            if self.live {
                self.integrate(string, strings, hammer_on);
            }
        }
    }

    /// Integrates the stretch and notes the pull of the last [`STEP`]
    /// samples, the stretch drawn straight from the last integral to this
    /// one, moving the modes on.
    #[inline]
    fn integrate(&mut self, string: &StiffString, strings: f64, hammer_on: bool) {
        let mut g = [0.0; MAX_LONGITUDINAL_MODES + 1];
        // `Σ w_m·(v⁺² + v⁻²)` over the points, with mode 0's weights: the
        // string's energy, which only the hammer raises.
        let mut energy = 0.0;
        let weights = &self.weights;
        string.mirrored_pairs(self.stride, self.points, |m, out, back| {
            let s = out + back;
            let s2 = s * s;
            for (gk, w) in g.iter_mut().zip(&weights[m]) {
                *gk += w * s2;
            }
            energy += weights[m][0] * (out * out + back * back);
        });
        let scale = self.push_per_m * strings;
        let modes = self.modes;
        for i in 1..=STEP {
            let t = i as f64 / STEP as f64;
            let last = self.last;
            let at = |k: usize| last[k] + t * (g[k] - last[k]);
            let mut stretch = at(0);
            let mut sign = -1.0;
            for (k, resonance) in self.resonances[..modes].iter_mut().enumerate() {
                let gk = at(k + 1);
                stretch += sign * (gk - resonance.process(gk));
                sign = -sign;
            }
            // Sample `i` of the last `STEP`, whose slot is `STEP − i` behind.
            self.pending[wrap(self.position + DELAY + i - STEP - 1)] = scale * stretch;
        }
        self.last = g;
        // `|G_k| ≤ G_0 = 2·g[0] ≤ 4·energy` (`(a + b)² ≤ 2·(a² + b²)`): a
        // bound on every term's drive that falls as the string's energy
        // does, whatever the stretch does meanwhile.
        let bound = 4.0 * (scale * energy).abs();
        self.peak_bound_n = self.peak_bound_n.max(bound);
        if !hammer_on && bound < CUTOFF * self.peak_bound_n {
            let ringing = self.resonances[..modes]
                .iter()
                .map(|r| (scale * r.y1).abs().max((scale * r.y2).abs()))
                .fold(0.0, f64::max);
            if ringing < CUTOFF * self.peak_bound_n {
                self.rest();
            }
        }
    }

    /// The strings moved on by `samples` samples while the modes are not
    /// followed: nothing to note.
    #[inline]
    pub fn pass(&mut self, samples: usize) {
        debug_assert!(!self.live);
        self.note_silence(samples);
        self.phase = (self.phase + samples) % STEP;
    }

    /// Notes no push for the next `samples` samples (at most [`DELAY`]),
    /// moving on by as many.
    #[inline(always)]
    fn note_silence(&mut self, samples: usize) {
        if self.silent_for < DELAY {
            for k in 0..samples {
                self.pending[wrap(self.position + k)] = 0.0;
            }
            self.silent_for += samples;
        }
        self.position = wrap(self.position + samples % DELAY);
    }

    /// Stops following the modes, at rest (the pushes already noted stay).
    fn rest(&mut self) {
        self.live = false;
        self.peak_bound_n = 0.0;
        self.last = [0.0; MAX_LONGITUDINAL_MODES + 1];
        for r in &mut self.resonances {
            r.reset();
        }
    }

    /// Everything at rest.
    pub fn reset(&mut self) {
        self.rest();
        self.pending = [0.0; DELAY];
        self.position = 0;
        self.phase = 0;
        self.silent_for = DELAY;
    }

    /// Carries on `old`'s motion (the same note built with other values):
    /// its pending pushes, its modes' state and whether they are followed.
    pub fn continue_from(&mut self, old: &Longitudinal) {
        self.pending = old.pending;
        self.position = old.position;
        self.phase = old.phase;
        self.silent_for = old.silent_for;
        self.last = old.last;
        self.live = old.live;
        self.peak_bound_n = old.peak_bound_n;
        for (new, old) in self.resonances.iter_mut().zip(&old.resonances) {
            (new.y1, new.y2) = (old.y1, old.y2);
        }
    }
}

/// `i` (less than twice [`DELAY`]) as a slot of the pending pushes.
#[inline(always)]
fn wrap(i: usize) -> usize {
    if i >= DELAY { i - DELAY } else { i }
}
