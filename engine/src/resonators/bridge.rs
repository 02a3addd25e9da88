//! One bridge under every string, on one soundboard: the wave-digital junction
//! that couples all the strings of an instrument.

use nalgebra::{Complex, DMatrix};

use super::board_hearing::{BoardHearing, BoardPaths};
use super::soundboard::{BRIDGE_BLOCK, BRIDGE_NODES, Soundboard};
use super::string_radiation::StringRadiation;
#[cfg(target_arch = "x86_64")]
use crate::wdf::fused::Fused;
use crate::wdf::fused::{self, MulAdd, Separate};

/// Where a key's strings stand on the bridge, and how they meet it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Mount {
    /// The node on the bass side of the key; the key lies `toward` of the way
    /// to the next node.
    node: usize,
    toward: f64,
    /// `1/(1 + r·S)`: the share of the strings' own push that reaches the
    /// board through the key's local bridge resistance `r` (s/kg), with `S`
    /// (kg/s) the sum of the key's string impedances.
    share: f64,
    /// The shares of the strings' push that reach the node on the bass side
    /// and the next: `(1 − toward)·share` and `toward·share`.
    to_nodes: [f64; 2],
}

/// The bridge: every key's strings joined to one soundboard.
///
/// Each key's strings stand on the bridge at a point between two of the
/// board's [`BRIDGE_NODES`] nodes. Under them the bridge has a local
/// resistance `r` (s/kg, the key's bridge admittance: the bridge's own give,
/// and the board above the modes' band) in series with the board, so the
/// strings' end moves at `v = r·F + u`, with `F` (N) the key's strings' force on
/// the bridge and `u` (m/s) the board's velocity there, interpolated between
/// the two nodes. The key's force reaches those nodes in the same proportions.
///
/// A string of impedance `Z` whose wave `a` (m/s) arrives at the bridge pushes
/// with `Z·(2a − v)`, so a key pushes with `F = A − S·v`, `A = Σ 2·Z·a`. The
/// board answers the node forces `F_n` with node velocities `V = Y0·F_n + H`
/// (its instantaneous admittance and its history, see [`Soundboard`]). This
/// sample's junction has one solution: with `c = 1/(1 + r·S)` per key,
/// `F = c·(A − S·u)`, the node forces are `P − D·V` with `P = Σ c·A·w` and
/// `D = Σ c·S·w·wᵀ` (`w` the key's two node weights), and
/// `V = (I + Y0·D)⁻¹·(Y0·P + H)`. `D` and the inverse are fixed when the
/// bridge is built: a silent key still loads the bridge with its strings'
/// impedance (its waves are at rest, `A = 0`), so only the keys that sound
/// need to be visited. Cost per sample: a few operations per sounding key,
/// two products by a `BRIDGE_NODES²` matrix and one by a band for the
/// junction, and the board's modes.
///
/// The in-phase motion of a unison moves the bridge and drains into the board
/// and the local resistance (the prompt sound); its antisymmetric motion
/// pushes nothing and rings on (the aftersound). Through the board every key
/// drives every other: an undamped string answers the bridge's motion at its
/// partials (sympathetic resonance).
///
/// The radiated sound is the node forces, panned by where each node is, and
/// what the board's modes radiate; or, heard from microphones
/// ([`Bridge::hear_board`]), the board's acceleration along the bridge as
/// each microphone hears it. If the microphones hear them, the strings' own
/// sound joins it ([`StringRadiation`]).
///
/// Allocates: the mounts and the board, in [`Bridge::new`]; nothing after
/// (but [`Bridge::tuning_ratio`], which is for building).
#[derive(Debug, Clone)]
pub struct Bridge {
    mounts: Vec<Mount>,
    /// Each key's local resistance, s/kg, and the sum of its string
    /// impedances, kg/s.
    local_admittances: Vec<f64>,
    string_impedances: Vec<f64>,
    board: Soundboard,
    /// `Y0`, s/kg.
    instant: [[f64; BRIDGE_NODES]; BRIDGE_NODES],
    /// `D`, kg/s.
    load: [[f64; BRIDGE_NODES]; BRIDGE_NODES],
    /// `D`'s three diagonals (below, on and above; each key loads two
    /// neighbouring nodes, so there is nothing else), kg/s: row `i` holds
    /// `D[i][i−1]`, `D[i][i]`, `D[i][i+1]` (0 beyond the ends).
    load_bands: [[f64; 3]; BRIDGE_NODES],
    /// `(I + Y0·D)⁻¹`.
    solve: [[f64; BRIDGE_NODES]; BRIDGE_NODES],
    /// Each node's gains to the left and right outputs.
    pans: [[f64; 2]; BRIDGE_NODES],
    /// `P` at each sample of the block, N.
    pushes: [[f64; BRIDGE_NODES]; BRIDGE_BLOCK],
    /// `V` at each sample of the block, m/s.
    velocities: [[f64; BRIDGE_NODES]; BRIDGE_BLOCK],
    /// Whether the board has modes (without, no key drives another).
    coupled: bool,
    /// Whether to solve with FMA and AVX2.
    fused: bool,
    /// Consecutive samples with every node force and the board's sound below
    /// the silence threshold.
    quiet_samples: u32,
    /// Samples of quiet after which the bridge is put to rest.
    sleep_after: u32,
    /// Node force (N) below which the bridge counts as silent.
    silence_threshold_n: f64,
    asleep: bool,
    /// The strings' own sound at the microphones, if they hear it.
    strings_heard: Option<Box<StringRadiation>>,
    /// The board heard by its acceleration, if microphones hear it.
    board_heard: Option<Box<BoardHearing>>,
}

/// One key as the bridge needs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyOnBridge {
    /// Where along the bridge, 0 (bass end) to 1 (treble end).
    pub position: f64,
    /// Local resistance under the key, s/kg (0: rigid).
    pub admittance_s_per_kg: f64,
    /// Sum of the key's string impedances, kg/s.
    pub string_impedance_kg_s: f64,
}

impl Bridge {
    /// Joins `keys` (in order; key `i` is addressed by `i` after) to `board`.
    /// `pans[n]` are node `n`'s output gains; `silence_threshold_n` is the node
    /// force below which the bridge counts as silent, and `sample_rate` (Hz)
    /// sets how long it must stay so (50 ms) before it is put to rest.
    ///
    /// Allocates: the mounts.
    pub fn new(
        keys: &[KeyOnBridge],
        board: Soundboard,
        pans: [[f64; 2]; BRIDGE_NODES],
        silence_threshold_n: f64,
        sample_rate: f64,
    ) -> Self {
        let last = (BRIDGE_NODES - 1) as f64;
        let mounts: Vec<Mount> = keys
            .iter()
            .map(|k| {
                let x = if k.position.is_finite() {
                    k.position.clamp(0.0, 1.0) * last
                } else {
                    0.0
                };
                let node = (x.floor() as usize).min(BRIDGE_NODES - 2);
                let r = k.admittance_s_per_kg.max(0.0);
                let toward = x - node as f64;
                let share = 1.0 / (1.0 + r * k.string_impedance_kg_s.max(0.0));
                Mount {
                    node,
                    toward,
                    share,
                    to_nodes: [(1.0 - toward) * share, toward * share],
                }
            })
            .collect();
        let instant = board.instant_admittance();
        let mut load = [[0.0; BRIDGE_NODES]; BRIDGE_NODES];
        for (m, k) in mounts.iter().zip(keys) {
            let cs = m.share * k.string_impedance_kg_s.max(0.0);
            let w = [(m.node, 1.0 - m.toward), (m.node + 1, m.toward)];
            for &(i, wi) in &w {
                for &(j, wj) in &w {
                    load[i][j] += cs * wi * wj;
                }
            }
        }
        let coupled = board.mode_count() > 0;
        let solve = junction_inverse(&instant, &load);
        let load_bands = std::array::from_fn(|i| {
            let at = |j: Option<usize>| j.and_then(|j| load[i].get(j)).copied().unwrap_or(0.0);
            [at(i.checked_sub(1)), load[i][i], at(Some(i + 1))]
        });
        Self {
            mounts,
            local_admittances: keys
                .iter()
                .map(|k| k.admittance_s_per_kg.max(0.0))
                .collect(),
            string_impedances: keys
                .iter()
                .map(|k| k.string_impedance_kg_s.max(0.0))
                .collect(),
            board,
            instant,
            load,
            load_bands,
            solve,
            pans,
            pushes: [[0.0; BRIDGE_NODES]; BRIDGE_BLOCK],
            velocities: [[0.0; BRIDGE_NODES]; BRIDGE_BLOCK],
            coupled,
            fused: fused::available(),
            quiet_samples: 0,
            sleep_after: (0.05 * sample_rate) as u32,
            silence_threshold_n,
            asleep: true,
            strings_heard: None,
            board_heard: None,
        }
    }

    /// Hears the board from microphones instead of by its bridge force: the
    /// left and right outputs become what each microphone hears of the
    /// board's acceleration along the bridge, strip by strip along `paths`,
    /// at `sample_rate` (Hz) ([`BoardHearing`]). Without modes the board does
    /// not move and is not heard.
    pub fn hear_board(&mut self, paths: &BoardPaths, sample_rate: f64) {
        self.pans = [[0.0; 2]; BRIDGE_NODES];
        self.board_heard = Some(Box::new(BoardHearing::new(paths, sample_rate)));
    }

    /// Adds the strings' own sound, as `radiation` hears it (its weights
    /// by key in this bridge's order), to what the bridge radiates.
    pub fn hear_strings(&mut self, radiation: StringRadiation) {
        self.strings_heard = Some(Box::new(radiation));
    }

    /// The ratio by which key `key`'s strings must be designed so that,
    /// struck together on this bridge, they sound at `frequency_hz` (Hz) as
    /// on a bridge that did not move, at `sample_rate` (Hz): the tuner's
    /// correction for the bridge's give.
    ///
    /// The strings, in phase, meet the bridge's admittance `Y` under them
    /// (the local resistance and the loaded board, `(I + Y_b·D)⁻¹·Y_b` between
    /// the nodes) and their velocity waves come back as `−(1 − S·Y)/(1 + S·Y)`
    /// instead of `−1`. The phase `δ` of that ratio moves every round trip's
    /// phase, and the string sounds at `f·(1 + δ/2π)`; designing it for
    /// `f/(1 + δ/2π)` puts it back.
    ///
    /// Allocates: a few small matrices (call it off the audio thread).
    pub fn tuning_ratio(&self, key: usize, frequency_hz: f64, sample_rate: f64) -> f64 {
        let (Some(mount), Some(string_impedance)) = (
            self.mounts.get(key),
            self.string_impedances.get(key).copied(),
        ) else {
            return 1.0;
        };
        if !(self.coupled && frequency_hz.is_finite() && frequency_hz > 0.0) {
            return 1.0;
        }
        let n = BRIDGE_NODES;
        let board = self.board.admittance(frequency_hz, sample_rate);
        let y = DMatrix::from_fn(n, n, |i, j| board[i][j]);
        // The board as the other keys' strings load it: this key's own
        // strings are the ones the reflection below accounts for.
        let w = [
            (mount.node, 1.0 - mount.toward),
            (mount.node + 1, mount.toward),
        ];
        let mut others = self.load;
        let own = mount.share * string_impedance;
        for &(i, wi) in &w {
            for &(j, wj) in &w {
                others[i][j] -= own * wi * wj;
            }
        }
        let d = DMatrix::from_fn(n, n, |i, j| Complex::new(others[i][j], 0.0));
        let Some(inverse) = (DMatrix::identity(n, n) + &y * d).try_inverse() else {
            return 1.0;
        };
        let loaded = inverse * y;
        let mut under = Complex::new(self.local_admittances[key], 0.0);
        for &(i, wi) in &w {
            for &(j, wj) in &w {
                under += loaded[(i, j)] * (wi * wj);
            }
        }
        let sy = under * string_impedance;
        let phase = ((1.0 - sy) / (1.0 + sy)).arg();
        let ratio = 1.0 / (1.0 + phase / (2.0 * std::f64::consts::PI));
        if ratio.is_finite() { ratio } else { 1.0 }
    }

    /// Whether the board has modes: keys then drive one another, and an
    /// undamped string must keep running to answer.
    pub fn is_coupled(&self) -> bool {
        self.coupled
    }

    /// Whether the bridge is at rest (silent for 50 ms, put to rest).
    pub fn is_asleep(&self) -> bool {
        self.asleep
    }

    /// Starts a block of `samples` samples (at most [`BRIDGE_BLOCK`]): no
    /// key has pushed yet.
    #[inline]
    pub fn begin_block(&mut self, samples: usize) {
        self.pushes[..samples].fill([0.0; BRIDGE_NODES]);
        if let Some(heard) = self.strings_heard.as_mut() {
            heard.begin_block(samples);
        }
    }

    /// Key `key` pushes with `A = Σ 2·Z·a` (N, with the strings'
    /// longitudinal pull) at sample `sample` of the block; the microphones
    /// hear its strings' own sound follow `heard_push_n` (N, the transverse
    /// push alone).
    #[inline]
    pub fn push(&mut self, key: usize, sample: usize, strings_push_n: f64, heard_push_n: f64) {
        let m = &self.mounts[key];
        let nodes = &mut self.pushes[sample];
        nodes[m.node] += m.to_nodes[0] * strings_push_n;
        nodes[m.node + 1] += m.to_nodes[1] * strings_push_n;
        if let Some(heard) = self.strings_heard.as_mut() {
            heard.push(key, sample, heard_push_n);
        }
    }

    /// Key `key` pushes with `strings_push_n[i]` (N) at sample `i` of the
    /// block, from the first, and is heard by `heard_pushes_n[i]`:
    /// [`Bridge::push`] for each.
    #[inline]
    pub fn push_block(&mut self, key: usize, strings_push_n: &[f64], heard_pushes_n: &[f64]) {
        let m = &self.mounts[key];
        for (nodes, &push) in self.pushes.iter_mut().zip(strings_push_n) {
            nodes[m.node] += m.to_nodes[0] * push;
            nodes[m.node + 1] += m.to_nodes[1] * push;
        }
        if let Some(heard) = self.strings_heard.as_mut() {
            heard.push_block(key, heard_pushes_n);
        }
    }

    /// Solves the junction at sample `sample` of the block once every
    /// sounding key has pushed, moves the board on, and returns the radiated
    /// sound, left and right (N of bridge force). Samples are solved in order.
    #[inline]
    pub fn solve(&mut self, sample: usize) -> [f64; 2] {
        #[cfg(target_arch = "x86_64")]
        if self.fused {
            // SAFETY: `fused` is set only when FMA and AVX2 were detected.
            return unsafe { self.solve_fused(sample) };
        }
        self.solve_with::<Separate>(sample)
    }

    /// [`Bridge::solve`] compiled with FMA and AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn solve_fused(&mut self, sample: usize) -> [f64; 2] {
        self.solve_with::<Fused>(sample)
    }

    #[inline(always)]
    fn solve_with<M: MulAdd>(&mut self, sample: usize) -> [f64; 2] {
        let push = self.pushes[sample];
        let velocity = &mut self.velocities[sample];
        let mut forces = push;
        if self.coupled {
            let history = self.board.history();
            let mut rhs = *history;
            for (r, row) in rhs.iter_mut().zip(&self.instant) {
                *r += dot::<M>(row, &push);
            }
            for (v, row) in velocity.iter_mut().zip(&self.solve) {
                *v = dot::<M>(row, &rhs);
            }
            for (i, (f, bands)) in forces.iter_mut().zip(&self.load_bands).enumerate() {
                let below = if i > 0 { velocity[i - 1] } else { 0.0 };
                let above = velocity.get(i + 1).copied().unwrap_or(0.0);
                *f -= M::mul_add(
                    bands[0],
                    below,
                    M::mul_add(bands[2], above, bands[1] * velocity[i]),
                );
            }
        }
        let mut body = if self.coupled {
            self.board.step(&forces)
        } else {
            [0.0; 2]
        };
        if let Some(heard) = self.board_heard.as_mut() {
            body = heard.hear(velocity);
        }
        let mut out = body;
        let mut loud =
            body[0].abs() >= self.silence_threshold_n || body[1].abs() >= self.silence_threshold_n;
        for (f, pan) in forces.iter().zip(&self.pans) {
            out[0] += pan[0] * f;
            out[1] += pan[1] * f;
            loud |= f.abs() >= self.silence_threshold_n;
        }
        if let Some(heard) = self.strings_heard.as_mut() {
            let [left, right] = heard.hear(sample);
            out[0] += left;
            out[1] += right;
        }
        self.asleep = false;
        self.quiet_samples = if loud {
            0
        } else {
            self.quiet_samples.saturating_add(1)
        };
        out
    }

    /// Puts the bridge to rest if it has been silent for 50 ms and every
    /// sounding key is quiet (`all_keys_quiet`); returns whether it did. Asked
    /// at fixed samples, so that what sounds does not depend on how the audio
    /// is divided into blocks.
    pub fn rest_if_quiet(&mut self, all_keys_quiet: bool) -> bool {
        if !self.asleep && all_keys_quiet && self.quiet_samples > self.sleep_after {
            self.reset();
            true
        } else {
            false
        }
    }

    /// The board's velocity under key `key` at samples `from..` of the block,
    /// m/s, into `out` (one per sample), once [`Bridge::solve`] has solved
    /// them.
    #[inline]
    pub fn board_velocities(&self, key: usize, from: usize, out: &mut [f64]) {
        let m = self.mounts[key];
        let (near, far) = (1.0 - m.toward, m.toward);
        for (v, nodes) in out.iter_mut().zip(&self.velocities[from..]) {
            *v = near * nodes[m.node] + far * nodes[m.node + 1];
        }
    }

    /// Carries on the ringing of `old` (a bridge of an edited instrument):
    /// the board's modes, and whether it is at rest.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &Bridge) {
        self.board.continue_from(&old.board);
        self.quiet_samples = old.quiet_samples;
        self.asleep = old.asleep;
        if let (Some(heard), Some(old_heard)) =
            (self.strings_heard.as_mut(), old.strings_heard.as_ref())
        {
            heard.continue_from(old_heard);
        }
        if let Some(heard) = self.board_heard.as_mut() {
            // The same paths carry on exactly; others (another microphone)
            // start afresh.
            match old.board_heard.as_ref() {
                Some(old_heard) => heard.continue_from(old_heard),
                None => heard.reset_unprimed(),
            }
        }
    }

    /// Brings the board to rest.
    pub fn reset(&mut self) {
        self.board.reset();
        if let Some(heard) = self.strings_heard.as_mut() {
            heard.reset();
        }
        if let Some(heard) = self.board_heard.as_mut() {
            heard.reset();
        }
        self.velocities = [[0.0; BRIDGE_NODES]; BRIDGE_BLOCK];
        self.quiet_samples = 0;
        self.asleep = true;
    }
}

/// `a·b`, in four partial sums (so that the multiply-adds overlap).
#[inline(always)]
fn dot<M: MulAdd>(a: &[f64; BRIDGE_NODES], b: &[f64; BRIDGE_NODES]) -> f64 {
    let mut sums = [0.0; 4];
    for (x, y) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        for i in 0..4 {
            sums[i] = M::mul_add(x[i], y[i], sums[i]);
        }
    }
    (sums[0] + sums[1]) + (sums[2] + sums[3])
}

/// `(I + Y0·D)⁻¹`. `Y0` and `D` are symmetric positive semi-definite, so
/// `Y0·D`'s eigenvalues are real and at least 0 and the matrix is invertible.
fn junction_inverse(
    instant: &[[f64; BRIDGE_NODES]; BRIDGE_NODES],
    load: &[[f64; BRIDGE_NODES]; BRIDGE_NODES],
) -> [[f64; BRIDGE_NODES]; BRIDGE_NODES] {
    let n = BRIDGE_NODES;
    let y0 = DMatrix::from_fn(n, n, |i, j| instant[i][j]);
    let d = DMatrix::from_fn(n, n, |i, j| load[i][j]);
    let m = DMatrix::identity(n, n) + y0 * d;
    let inverse = m.try_inverse().unwrap_or_else(|| DMatrix::identity(n, n));
    let mut out = [[0.0; BRIDGE_NODES]; BRIDGE_NODES];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = inverse[(i, j)];
        }
    }
    out
}
