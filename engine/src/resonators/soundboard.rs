//! The soundboard as many modes of a plate, seen from the bridge: each mode a
//! mass, spring and damper, driven by the forces the strings put on the bridge
//! where its shape crosses the bridge, and moving the bridge in return.

use std::f64::consts::PI;

use nalgebra::Complex;

use crate::wdf::fused::{self, MulAdd, Separate};

/// Points along the bridge at which the modes' shapes are known, from the bass
/// end (node 0) to the treble end; a key between two nodes feels and drives
/// both, in proportion to how near it sits (see [`Bridge`](super::Bridge)).
pub const BRIDGE_NODES: usize = 16;

const _: () = assert!(
    BRIDGE_NODES.is_multiple_of(4),
    "the modes sum the nodes four at a time"
);

/// The most samples the strings on a bridge are advanced at a time: each key
/// runs through a chunk of up to this many before the next (its state stays
/// in the cache), as far ahead as the waves reaching the bridge are known
/// (see [`Unison::lookahead`](super::Unison::lookahead)), and the bridge
/// decides what rests on a grid of this many samples.
pub const BRIDGE_BLOCK: usize = 16;

/// The most modes a soundboard may have.
pub const MAX_BOARD_MODES: usize = 512;

/// How the soundboard is built.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoundboardParams {
    /// Number of modes, 0 to [`MAX_BOARD_MODES`].
    pub modes: usize,
    /// Frequency of the lowest mode, Hz.
    pub lowest_mode_hz: f64,
    /// Frequency of the highest mode, Hz. The modes lie evenly between the two
    /// (with jitter), as a plate's do: its modal density is constant.
    pub highest_mode_hz: f64,
    /// 60 dB decay time of the lowest mode, s; every mode has the same quality
    /// factor, so a mode at `f` rings for `T60·f_lowest/f`.
    pub lowest_mode_t60_s: f64,
    /// Modal mass of every mode, kg, for shapes of unit mean square along the
    /// bridge: with `n` modes per hertz the board's mean admittance at the
    /// bridge is about `n/(4·M)` (s/kg).
    pub modal_mass_kg: f64,
    /// Level of the sound the modes radiate, relative to the bridge force.
    pub body_gain: f64,
    /// Which of the boards: the seed of the modes' spacing jitter and shapes
    /// (every seed gives another board of the same kind).
    pub seed: u64,
}

impl SoundboardParams {
    /// Modes per hertz between the lowest and the highest: the board's
    /// modal density (0 with fewer than two modes).
    pub fn modes_per_hz(&self) -> f64 {
        let span = self.highest_mode_hz - self.lowest_mode_hz;
        if self.modes > 1 && span > 0.0 && span.is_finite() {
            (self.modes - 1) as f64 / span
        } else {
            0.0
        }
    }
}

/// A deterministic value in [−1, 1] for mode `i` and slot `k` (a small integer hash),
/// so that every build of the same soundboard is identical.
pub(crate) fn shape_hash(seed: u64, i: usize, k: u64) -> f64 {
    let mut x = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03)
        ^ seed.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 29;
    (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
}

/// The mode shapes' envelope along the bridge, `x` from 0 (bass end) to 1
/// (treble end): both ends of a grand's bridge lie near the rim, where the
/// board is held and moves little.
fn envelope(x: f64) -> f64 {
    (PI * (0.12 + 0.76 * x)).sin()
}

/// One mode's velocity answer to its generalised force: `H(s) = s/(M·(s² +
/// ω₀/Q·s + ω₀²))`, by the bilinear transform prewarped at `ω₀`, in transposed
/// direct form II: `y = g·f + s1`, `s1 ← −a1·y + s2`, `s2 ← −g·f − a2·y`. The
/// transform keeps the mode passive, so the bridge joined to it is stable.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ModeFilter {
    /// The instantaneous admittance `g`, s/kg.
    g: f64,
    a1: f64,
    a2: f64,
}

impl ModeFilter {
    fn new(frequency_hz: f64, quality: f64, mass_kg: f64, sample_rate: f64) -> Self {
        let w0 = 2.0 * PI * frequency_hz;
        let k = w0 / (w0 / (2.0 * sample_rate)).tan();
        let a0 = k * k + w0 * k / quality + w0 * w0;
        Self {
            g: k / (mass_kg * a0),
            a1: 2.0 * (w0 * w0 - k * k) / a0,
            a2: (k * k - w0 * k / quality + w0 * w0) / a0,
        }
    }
}

/// Modes per vector: four `f64`, one AVX register.
const QUAD: usize = 4;

/// Four modes side by side, lane `l` for mode `l` of the four, so that every
/// step is an element-wise operation over the lanes (independent sums, which
/// the processor can overlap, and one vector instruction with AVX2). Padding
/// lanes have no mass (`g = 0`) and stay at rest.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ModeQuad {
    g: [f64; QUAD],
    a1: [f64; QUAD],
    a2: [f64; QUAD],
    s1: [f64; QUAD],
    s2: [f64; QUAD],
    /// The modes' shapes at each bridge node, in single precision: the
    /// board's shapes are known to far less, the table then stays in the
    /// nearest cache beside the strings, and everything else (the
    /// instantaneous admittance, the history) is computed from these same
    /// values, so the junction stays exact.
    shapes: [[f32; QUAD]; BRIDGE_NODES],
    /// The modes' weights to the left and right outputs.
    radiation: [[f64; QUAD]; 2],
}

impl ModeQuad {
    const REST: Self = Self {
        g: [0.0; QUAD],
        a1: [0.0; QUAD],
        a2: [0.0; QUAD],
        s1: [0.0; QUAD],
        s2: [0.0; QUAD],
        shapes: [[0.0; QUAD]; BRIDGE_NODES],
        radiation: [[0.0; QUAD]; 2],
    };
}

/// The soundboard's modes as the bridge sees them.
///
/// Each mode `m` moves at `ẏ_m` under the generalised force `Σ_s φ_m(s)·F_s`
/// of the forces `F_s` (N) at the bridge nodes, and moves node `s` at
/// `Σ_m φ_m(s)·ẏ_m` (m/s). The velocity of every node is split into the part
/// the forces of this sample cause, `Y0·F` ([`Soundboard::instant_admittance`],
/// s/kg), and the part the past causes ([`Soundboard::history`]), so that the
/// bridge can solve its junction without delay. Each mode also radiates to the
/// two output channels with its own weights.
///
/// Cost per sample: about `2·BRIDGE_NODES + 8` multiply-adds per mode, four
/// modes per vector instruction on processors with AVX2 and FMA (results then
/// differ from separate multiplies and adds by rounding only).
///
/// Allocates: the mode table, in [`Soundboard::new`].
#[derive(Debug, Clone)]
pub struct Soundboard {
    quads: Vec<ModeQuad>,
    count: usize,
    /// The nodes' velocity from the past, m/s: `Σ_m φ_m(s)·s1_m`.
    history: [f64; BRIDGE_NODES],
    /// Scale of the radiation: body gain times the board's mean impedance, kg/s.
    radiation_gain: f64,
    /// Whether to run the modes with FMA and AVX2.
    fused: bool,
}

/// Half the bridge nodes.
const HALF_NODES: usize = BRIDGE_NODES / 2;

/// `Σ_m φ_m(s)·s1_m` for the nodes `s` from `FIRST` on, half of them.
#[inline(always)]
fn history_of<M: MulAdd, const FIRST: usize>(quads: &[ModeQuad]) -> [f64; HALF_NODES] {
    let mut sums = [[0.0; QUAD]; HALF_NODES];
    for q in quads {
        for (n, sum) in sums.iter_mut().enumerate() {
            let shape = &q.shapes[FIRST + n];
            for l in 0..QUAD {
                sum[l] = M::mul_add(f64::from(shape[l]), q.s1[l], sum[l]);
            }
        }
    }
    sums.map(|lanes| (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]))
}

impl Soundboard {
    /// Builds the soundboard at `sample_rate` (Hz). Parameters out of range are
    /// clamped: at most [`MAX_BOARD_MODES`] modes, all below 0.45·fs, decay
    /// times 1 ms to 30 s, modal mass 0.01 to 10⁴ kg.
    pub fn new(params: &SoundboardParams, sample_rate: f64) -> Self {
        let count = params.modes.min(MAX_BOARD_MODES);
        let finite_or = |v: f64, d: f64| if v.is_finite() { v } else { d };
        let nyquist_guard = 0.45 * sample_rate;
        let lowest = finite_or(params.lowest_mode_hz, 50.0).clamp(10.0, nyquist_guard);
        let highest = finite_or(params.highest_mode_hz, 2000.0).clamp(lowest, nyquist_guard);
        let t60 = finite_or(params.lowest_mode_t60_s, 0.5).clamp(1e-3, 30.0);
        let mass = finite_or(params.modal_mass_kg, 20.0).clamp(0.01, 1e4);
        // Every mode's Q: T60 = 2·Q·ln(1000)/ω₀.
        let quality = (t60 * 2.0 * PI * lowest / (2.0 * 1000f64.ln())).max(0.5);
        let spacing = if count > 1 {
            (highest - lowest) / (count - 1) as f64
        } else {
            0.0
        };
        let seed = params.seed;
        let mut quads = vec![ModeQuad::REST; count.div_ceil(QUAD)];
        for i in 0..count {
            let jitter = if i == 0 {
                0.0
            } else {
                0.35 * shape_hash(seed, i, 1)
            };
            let f = (lowest + spacing * (i as f64 + jitter)).clamp(lowest, highest);
            let (quad, lane) = (&mut quads[i / QUAD], i % QUAD);
            let filter = ModeFilter::new(f, quality, mass, sample_rate);
            (quad.g[lane], quad.a1[lane], quad.a2[lane]) = (filter.g, filter.a1, filter.a2);
            // Bending waves shorten as √f: the lowest modes span the bridge
            // in one to three half waves, the highest in about a dozen; each
            // mode's wave crosses the bridge at its own angle and phase.
            let half_waves = 1.0 + (f / lowest).sqrt() * (1.0 + shape_hash(seed, i, 2).abs());
            let phase = PI * shape_hash(seed, i, 3);
            for (s, node) in quad.shapes.iter_mut().enumerate() {
                let x = s as f64 / (BRIDGE_NODES - 1) as f64;
                node[lane] =
                    (2f64.sqrt() * (PI * half_waves * x + phase).sin() * envelope(x)) as f32;
            }
            quad.radiation[0][lane] = shape_hash(seed, i, 4);
            quad.radiation[1][lane] = shape_hash(seed, i, 5);
        }
        // The board's mean impedance at the bridge, 4·M/n with n modes per
        // hertz: radiation in the units of the bridge force.
        let mean_impedance = if count > 1 { 4.0 * mass * spacing } else { 0.0 };
        let radiation_gain = finite_or(params.body_gain, 0.0).clamp(0.0, 10.0) * mean_impedance
            / (count.max(1) as f64).sqrt();
        Self {
            quads,
            count,
            history: [0.0; BRIDGE_NODES],
            radiation_gain,
            fused: fused::available(),
        }
    }

    /// Number of modes.
    pub fn mode_count(&self) -> usize {
        self.count
    }

    /// The nodes' velocities (m/s) per newton at each node this sample:
    /// `Y0[s][t] = Σ_m g_m·φ_m(s)·φ_m(t)`, s/kg. Symmetric and positive
    /// semi-definite.
    pub fn instant_admittance(&self) -> [[f64; BRIDGE_NODES]; BRIDGE_NODES] {
        let mut y0 = [[0.0; BRIDGE_NODES]; BRIDGE_NODES];
        for quad in &self.quads {
            for lane in 0..QUAD {
                for (row, a) in y0.iter_mut().zip(&quad.shapes) {
                    for (y, b) in row.iter_mut().zip(&quad.shapes) {
                        *y += quad.g[lane] * f64::from(a[lane]) * f64::from(b[lane]);
                    }
                }
            }
        }
        y0
    }

    /// The board's admittance between the bridge nodes at `frequency_hz`
    /// (s/kg; `[s][t]`: the velocity at node `s` per newton at node `t`), as
    /// its discrete modes answer a steady sinusoid at `sample_rate` (Hz).
    pub fn admittance(
        &self,
        frequency_hz: f64,
        sample_rate: f64,
    ) -> [[Complex<f64>; BRIDGE_NODES]; BRIDGE_NODES] {
        let z1 = Complex::from_polar(1.0, -2.0 * PI * frequency_hz / sample_rate);
        let z2 = z1 * z1;
        let mut y = [[Complex::new(0.0, 0.0); BRIDGE_NODES]; BRIDGE_NODES];
        for quad in &self.quads {
            for l in 0..QUAD {
                let h = quad.g[l] * (1.0 - z2) / (1.0 + quad.a1[l] * z1 + quad.a2[l] * z2);
                for (row, a) in y.iter_mut().zip(&quad.shapes) {
                    for (y, b) in row.iter_mut().zip(&quad.shapes) {
                        *y += h * (f64::from(a[l]) * f64::from(b[l]));
                    }
                }
            }
        }
        y
    }

    /// The nodes' velocities this sample before the forces of this sample
    /// act, m/s.
    #[inline]
    pub fn history(&self) -> &[f64; BRIDGE_NODES] {
        &self.history
    }

    /// Moves the modes on by one sample under the node forces `forces` (N),
    /// and returns what they radiate to the left and right outputs (in newtons
    /// of bridge force, scaled by the body gain).
    #[inline]
    pub fn step(&mut self, forces: &[f64; BRIDGE_NODES]) -> [f64; 2] {
        #[cfg(target_arch = "x86_64")]
        if self.fused {
            // SAFETY: `fused` is set only when FMA and AVX2 were detected.
            return unsafe { self.step_fused(forces) };
        }
        self.step_with::<Separate>(forces)
    }

    /// [`Soundboard::step`] with FMA and AVX2, written out in vector
    /// operations (four modes to a register) so that every partial sum stays
    /// in a register: the same operations as `step_with::<Fused>`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn step_fused(&mut self, forces: &[f64; BRIDGE_NODES]) -> [f64; 2] {
        use std::arch::x86_64::{
            __m256d, _mm_loadu_ps, _mm256_add_pd, _mm256_cvtps_pd, _mm256_fmadd_pd,
            _mm256_fnmadd_pd, _mm256_fnmsub_pd, _mm256_loadu_pd, _mm256_mul_pd, _mm256_set1_pd,
            _mm256_setzero_pd, _mm256_storeu_pd,
        };
        // SAFETY: each array holds four f64.
        let load = |lanes: &[f64; QUAD]| unsafe { _mm256_loadu_pd(lanes.as_ptr()) };
        // SAFETY: each array holds four f32.
        let load_shape =
            |lanes: &[f32; QUAD]| unsafe { _mm256_cvtps_pd(_mm_loadu_ps(lanes.as_ptr())) };
        let sum = |v: __m256d| {
            let mut lanes = [0.0; QUAD];
            // SAFETY: `lanes` holds four f64.
            unsafe { _mm256_storeu_pd(lanes.as_mut_ptr(), v) };
            (lanes[0] + lanes[1]) + (lanes[2] + lanes[3])
        };
        let (mut left, mut right) = (_mm256_setzero_pd(), _mm256_setzero_pd());
        for q in &mut self.quads {
            let mut partial = [_mm256_setzero_pd(); 4];
            for (nodes, forces) in q.shapes.chunks_exact(4).zip(forces.chunks_exact(4)) {
                for ((p, shape), &force) in partial.iter_mut().zip(nodes).zip(forces) {
                    *p = _mm256_fmadd_pd(load_shape(shape), _mm256_set1_pd(force), *p);
                }
            }
            let f = _mm256_add_pd(
                _mm256_add_pd(partial[0], partial[1]),
                _mm256_add_pd(partial[2], partial[3]),
            );
            let g = load(&q.g);
            let y = _mm256_fmadd_pd(g, f, load(&q.s1));
            let s1 = _mm256_fnmadd_pd(load(&q.a1), y, load(&q.s2));
            let s2 = _mm256_fnmsub_pd(g, f, _mm256_mul_pd(load(&q.a2), y));
            // SAFETY: each holds four f64.
            unsafe {
                _mm256_storeu_pd(q.s1.as_mut_ptr(), s1);
                _mm256_storeu_pd(q.s2.as_mut_ptr(), s2);
            }
            left = _mm256_fmadd_pd(load(&q.radiation[0]), y, left);
            right = _mm256_fmadd_pd(load(&q.radiation[1]), y, right);
        }
        for (half, history) in self.history.chunks_exact_mut(HALF_NODES).enumerate() {
            let mut sums = [_mm256_setzero_pd(); HALF_NODES];
            for q in &self.quads {
                let s1 = load(&q.s1);
                let shapes = &q.shapes[half * HALF_NODES..(half + 1) * HALF_NODES];
                for (acc, shape) in sums.iter_mut().zip(shapes) {
                    *acc = _mm256_fmadd_pd(load_shape(shape), s1, *acc);
                }
            }
            for (h, &v) in history.iter_mut().zip(&sums) {
                *h = sum(v);
            }
        }
        [
            self.radiation_gain * sum(left),
            self.radiation_gain * sum(right),
        ]
    }

    #[inline(always)]
    fn step_with<M: MulAdd>(&mut self, forces: &[f64; BRIDGE_NODES]) -> [f64; 2] {
        let mut out = [[0.0; QUAD]; 2];
        for q in &mut self.quads {
            // Four partial sums over the nodes, so that the multiply-adds do
            // not wait on one another.
            let mut partial = [[0.0; QUAD]; 4];
            for (nodes, forces) in q.shapes.chunks_exact(4).zip(forces.chunks_exact(4)) {
                for ((sum, shape), &force) in partial.iter_mut().zip(nodes).zip(forces) {
                    for l in 0..QUAD {
                        sum[l] = M::mul_add(f64::from(shape[l]), force, sum[l]);
                    }
                }
            }
            for l in 0..QUAD {
                let f = (partial[0][l] + partial[1][l]) + (partial[2][l] + partial[3][l]);
                let y = M::mul_add(q.g[l], f, q.s1[l]);
                q.s1[l] = M::mul_add(-q.a1[l], y, q.s2[l]);
                q.s2[l] = M::mul_add(-q.g[l], f, -q.a2[l] * y);
                out[0][l] = M::mul_add(q.radiation[0][l], y, out[0][l]);
                out[1][l] = M::mul_add(q.radiation[1][l], y, out[1][l]);
            }
        }
        // The history, `Σ_m φ_m(s)·s1_m`, half the nodes at a time: their
        // sums stay in registers through all the modes.
        let (low, high) = self.history.split_at_mut(HALF_NODES);
        low.copy_from_slice(&history_of::<M, 0>(&self.quads));
        high.copy_from_slice(&history_of::<M, HALF_NODES>(&self.quads));
        let [left, right] = out.map(|lanes| lanes.iter().sum::<f64>());
        [self.radiation_gain * left, self.radiation_gain * right]
    }

    /// Carries on the ringing of `old`, a board with other values: with as
    /// many modes each mode's state goes on through this board's filters (a
    /// mode whose frequency moved rings on at its new one); with another
    /// number (other modes) this board starts at rest.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &Soundboard) {
        if self.count != old.count {
            self.reset();
            return;
        }
        let mut same_shapes = true;
        for (q, old_q) in self.quads.iter_mut().zip(&old.quads) {
            (q.s1, q.s2) = (old_q.s1, old_q.s2);
            same_shapes &= q.shapes == old_q.shapes;
        }
        if same_shapes {
            // The same sums as the old board made: exactly its history.
            self.history = old.history;
            return;
        }
        let mut history = [0.0; BRIDGE_NODES];
        for q in &self.quads {
            for (h, shape) in history.iter_mut().zip(&q.shapes) {
                *h += shape
                    .iter()
                    .zip(&q.s1)
                    .map(|(&phi, s1)| f64::from(phi) * s1)
                    .sum::<f64>();
            }
        }
        self.history = history;
    }

    /// Brings the board to rest.
    pub fn reset(&mut self) {
        for q in &mut self.quads {
            q.s1 = [0.0; QUAD];
            q.s2 = [0.0; QUAD];
        }
        self.history = [0.0; BRIDGE_NODES];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(modes: usize) -> SoundboardParams {
        SoundboardParams {
            modes,
            lowest_mode_hz: 50.0,
            highest_mode_hz: 1500.0,
            lowest_mode_t60_s: 1.0,
            modal_mass_kg: 20.0,
            body_gain: 1.0,
            seed: 0,
        }
    }

    /// One mode driven at one node by an impulse rings at its frequency with
    /// its decay: the filter is the mass-spring-damper it claims to be. Its
    /// response to a unit force step settles to zero velocity (a spring holds
    /// it), and its resonance peak is `Q/(ω₀·M)`.
    #[test]
    fn a_mode_is_a_damped_mass_on_a_spring() {
        let fs = 48_000.0;
        let (f0, q, m) = (200.0, 20.0, 2.0);
        let filter = ModeFilter::new(f0, q, m, fs);
        let run = |input: &dyn Fn(usize) -> f64, n: usize| {
            let (mut s1, mut s2) = (0.0, 0.0);
            (0..n)
                .map(|i| {
                    let f = input(i);
                    let y = filter.g * f + s1;
                    let next = -filter.a1 * y + s2;
                    s2 = -filter.g * f - filter.a2 * y;
                    s1 = next;
                    y
                })
                .collect::<Vec<f64>>()
        };
        // Steady state under a sinusoidal force at resonance: |v/F| = Q/(ω₀·M).
        let w = 2.0 * PI * f0 / fs;
        let y = run(&|i| (w * i as f64).sin(), 48_000);
        let amplitude = y[40_000..].iter().fold(0.0f64, |a, v| a.max(v.abs()));
        let expected = q / (2.0 * PI * f0 * m);
        assert!(
            (amplitude / expected - 1.0).abs() < 0.01,
            "{amplitude} vs {expected}"
        );
        // The free ring decays 60 dB in 2·Q·ln(1000)/ω₀.
        let y = run(&|i| if i == 0 { 1.0 } else { 0.0 }, 48_000);
        let t60 = 2.0 * q * 1000f64.ln() / (2.0 * PI * f0);
        let n60 = (t60 * fs) as usize;
        let peak = |from: usize| {
            y[from..from + 480]
                .iter()
                .fold(0.0f64, |a, v| a.max(v.abs()))
        };
        let fall_db = 20.0 * (peak(1000) / peak(1000 + n60)).log10();
        assert!((fall_db - 60.0).abs() < 1.0, "fell {fall_db} dB in a T60");
        // A constant force: the spring stops the mass.
        let y = run(&|_| 1.0, 48_000);
        assert!(y[47_999].abs() < 1e-6 * y.iter().fold(0.0f64, |a, v| a.max(v.abs())));
    }

    /// The instantaneous admittance and the history predict the node
    /// velocities the modes then have, sample by sample.
    #[test]
    fn node_velocity_is_instant_part_plus_history() {
        let fs = 48_000.0;
        let mut b = Soundboard::new(&board(40), fs);
        let y0 = b.instant_admittance();
        for n in 0..2000 {
            let mut forces = [0.0; BRIDGE_NODES];
            forces[n % BRIDGE_NODES] = (n as f64 * 0.37).sin();
            forces[3] += 0.5;
            let predicted: Vec<f64> = (0..BRIDGE_NODES)
                .map(|s| {
                    b.history()[s] + (0..BRIDGE_NODES).map(|t| y0[s][t] * forces[t]).sum::<f64>()
                })
                .collect();
            // The node velocities from the modes' outputs, computed apart.
            let mut actual = [0.0; BRIDGE_NODES];
            for q in &b.quads {
                for l in 0..QUAD {
                    let f: f64 = (0..BRIDGE_NODES)
                        .map(|s| f64::from(q.shapes[s][l]) * forces[s])
                        .sum();
                    let y = q.g[l] * f + q.s1[l];
                    for (a, shape) in actual.iter_mut().zip(&q.shapes) {
                        *a += f64::from(shape[l]) * y;
                    }
                }
            }
            for s in 0..BRIDGE_NODES {
                assert!((predicted[s] - actual[s]).abs() <= 1e-9 * (1e-6 + actual[s].abs()));
            }
            b.step(&forces);
        }
    }

    /// The vector step (where the processor has AVX2 and FMA) and the plain
    /// one differ by rounding only: the same radiated sound and history to
    /// 1e-9 of their peaks over a second of forces at every node.
    #[test]
    fn the_vector_step_is_the_plain_one() {
        let fs = 48_000.0;
        let mut vector = Soundboard::new(&board(128), fs);
        if !vector.fused {
            return;
        }
        let mut plain = vector.clone();
        let (mut peak, mut worst) = (0.0f64, 0.0f64);
        for n in 0..48_000 {
            let forces: [f64; BRIDGE_NODES] =
                std::array::from_fn(|s| ((n * (s + 3)) as f64 * 0.013).sin() / (1 + s) as f64);
            let (a, b) = (vector.step(&forces), plain.step_with::<Separate>(&forces));
            let pairs = a
                .iter()
                .zip(&b)
                .chain(vector.history.iter().zip(&plain.history));
            for (x, y) in pairs {
                peak = peak.max(y.abs());
                worst = worst.max((x - y).abs());
            }
        }
        assert!(peak > 0.0 && worst <= 1e-9 * peak, "{worst} of {peak}");
    }
}
