//! Many voices of one small circuit, evaluated side by side.

use super::description::TreeDescription;
use super::fused::{Fused, MulAdd, Separate};
use super::root::{ExactPair, PairSolver, Root};
use super::tableau::{Kernel, WaveTableau};
use super::topology::TreeError;

/// `voices` copies of one small macro-adaptor, each with its own state, driven by
/// one source and read at one reactive leaf.
///
/// States are stored structure-of-arrays (`port × voice`), so every step of the
/// Wave Tableau kernel is a loop over voices that the compiler vectorises, and the
/// voices' root solves are independent and overlap in the processor. Each voice
/// computes exactly what a [`WaveTableau`] computes for it alone.
///
/// Allocates: in [`PolyTableau::new`] only.
#[derive(Debug, Clone)]
pub struct PolyTableau {
    kernel: Kernel,
    root: Root,
    voices: usize,
    /// Every voice's outgoing waves when built, per kernel port.
    initial: Vec<f64>,
    /// Whether this processor runs the AVX2 build of the loop.
    vector: bool,
    /// Outgoing waves at the kernel's ports, `port × voice`.
    waves: Vec<f64>,
    next: Vec<f64>,
    to_root: Vec<f64>,
}

impl PolyTableau {
    /// `voices` copies of `description` at `sample_rate`, driven at the source
    /// called `source` and read across the reactive leaf called `probe`. The root
    /// must be memoryless (a linear root or a diode), since each voice shares it.
    pub fn new(
        description: &TreeDescription,
        sample_rate: f64,
        source: &str,
        probe: &str,
        voices: usize,
    ) -> Result<Self, TreeError> {
        let mut single = WaveTableau::new(description, sample_rate)?;
        let (source_id, probe_id) = (single.source(source)?, single.leaf(probe)?);
        let kernel = single.kernel(source_id, probe_id).ok_or(TreeError::WrongKind {
            name: probe.to_string(),
            operation: "being read by the polyphonic kernel (it must be a capacitor or inductor)",
        })?;
        let root = single.root().clone();
        if matches!(root.kind, super::root::RootKind::Felt(_)) {
            return Err(TreeError::WrongKind {
                name: description.root.name.clone(),
                operation: "sharing among voices (a felt root has its own state)",
            });
        }
        let n = kernel.order.len();
        let voices = voices.max(1);
        let mut initial = vec![0.0; n];
        single.current_waves(&kernel.order, &mut initial);
        let waves: Vec<f64> = initial
            .iter()
            .flat_map(|&w| std::iter::repeat_n(w, voices))
            .collect();
        Ok(Self {
            vector: super::fused::available(),
            initial,
            kernel,
            root,
            voices,
            waves,
            next: vec![0.0; n * voices],
            to_root: vec![0.0; voices],
        })
    }

    /// Number of voices.
    pub fn voices(&self) -> usize {
        self.voices
    }

    /// Runs `input.len() / voices` frames. Both slices are frame-major: sample `n`
    /// of voice `k` is at `n·voices + k`. `output` receives the probe's voltage.
    pub fn process(&mut self, input: &[f64], output: &mut [f64]) {
        #[cfg(target_arch = "x86_64")]
        if self.vector {
            // SAFETY: `vector` is set only when AVX2 and FMA were detected.
            unsafe { self.process_avx2(input, output) };
            return;
        }
        self.process_lanes::<Separate>(input, output);
    }

    /// [`PolyTableau::process`] compiled for AVX2, four voices per register.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn process_avx2(&mut self, input: &[f64], output: &mut [f64]) {
        self.process_lanes::<Fused>(input, output);
    }

    /// Small kernels with a linear or tabulated root run voices in groups whose
    /// waves stay in registers for the whole block; anything else goes frame by
    /// frame.
    #[inline(always)]
    fn process_lanes<M: MulAdd>(&mut self, input: &[f64], output: &mut [f64]) {
        let inline_root = self.root.affine().is_some() || self.root.tabulated_pair().is_some();
        match (inline_root, self.kernel.order.len()) {
            (true, 2) => self.process_groups::<2, M>(input, output),
            (true, 3) => self.process_groups::<3, M>(input, output),
            (true, 4) => self.process_groups::<4, M>(input, output),
            (true, 5) => self.process_groups::<5, M>(input, output),
            (true, 6) => self.process_groups::<6, M>(input, output),
            _ => self.process_frames::<M>(input, output),
        }
    }

    /// Voices in groups of eight, then four, then one, with the root's
    /// reflection inlined.
    #[inline(always)]
    fn process_groups<const N: usize, M: MulAdd>(&mut self, input: &[f64], output: &mut [f64]) {
        let group = Group {
            kernel: &self.kernel,
            voices: self.voices,
            input,
        };
        let waves = &mut self.waves;
        if let Some(affine) = self.root.affine() {
            group.run_all::<N, M>(waves, output, affine);
        } else if let Some(pair) = self.root.tabulated_pair() {
            group.run_all::<N, M>(waves, output, pair);
        }
    }

    /// One frame at a time, each step a loop over all voices.
    #[inline(always)]
    fn process_frames<M: MulAdd>(&mut self, input: &[f64], output: &mut [f64]) {
        let (v, n) = (self.voices, self.kernel.order.len());
        let source = n - 1;
        let scale = self.kernel.source_scale;
        let affine = self.root.affine();
        for (x, y) in input.chunks_exact(v).zip(output.chunks_exact_mut(v)) {
            for (wave, &x) in self.waves[source * v..(source + 1) * v].iter_mut().zip(x) {
                *wave = scale * x;
            }
            // Root: its row over the ports that carry waves (its own column is zero).
            self.to_root.fill(0.0);
            for i in 1..n {
                let m = self.kernel.to_root[i];
                for (a, &w) in self.to_root.iter_mut().zip(&self.waves[i * v..(i + 1) * v]) {
                    *a = M::mul_add(m, w, *a);
                }
            }
            let (root_waves, _) = self.waves.split_at_mut(v);
            match (affine, self.root.tabulated_pair()) {
                (Some((rho, offset)), _) => {
                    for (b, &a) in root_waves.iter_mut().zip(&self.to_root) {
                        *b = M::mul_add(rho, a, offset);
                    }
                }
                // A tabulated pair, inline: the voices' lookups are independent
                // and overlap in the pipeline.
                (None, Some(pair)) => {
                    for (b, &a) in root_waves.iter_mut().zip(&self.to_root) {
                        *b = pair.reflect::<M>(a);
                    }
                }
                (None, None) => self.root.reflect_lanes(&self.to_root, root_waves),
            }
            // Next outgoing waves at every other port.
            for j in 1..n {
                let row = &self.kernel.transition[j * n..(j + 1) * n];
                let next = &mut self.next[j * v..(j + 1) * v];
                next.fill(0.0);
                for (i, &m) in row.iter().enumerate() {
                    if m != 0.0 {
                        for (out, &w) in next.iter_mut().zip(&self.waves[i * v..(i + 1) * v]) {
                            *out = M::mul_add(m, w, *out);
                        }
                    }
                }
            }
            let sign = self.kernel.probe_sign;
            for ((y, &now), &then) in y
                .iter_mut()
                .zip(&self.waves[v..2 * v])
                .zip(&self.next[v..2 * v])
            {
                *y = 0.5 * (now + sign * then);
            }
            self.waves[v..].copy_from_slice(&self.next[v..]);
        }
    }

    /// Brings every voice back to the state it was built in.
    pub fn reset(&mut self) {
        for (port, &w) in self.initial.iter().enumerate() {
            self.waves[port * self.voices..(port + 1) * self.voices].fill(w);
        }
        self.next.fill(0.0);
    }
}

/// A block's input for a [`PolyTableau`]'s voices, run in groups.
struct Group<'a> {
    kernel: &'a Kernel,
    voices: usize,
    input: &'a [f64],
}

impl Group<'_> {
    /// Every voice, in groups of eight, then four, then one, reflected by `root`.
    #[inline(always)]
    fn run_all<const N: usize, M: MulAdd>(
        &self,
        waves: &mut [f64],
        output: &mut [f64],
        root: impl LaneRoot,
    ) {
        let mut first = 0;
        while first + 16 <= self.voices {
            self.run::<N, 16, M>(first, waves, output, root);
            first += 16;
        }
        while first + 8 <= self.voices {
            self.run::<N, 8, M>(first, waves, output, root);
            first += 8;
        }
        while first + 4 <= self.voices {
            self.run::<N, 4, M>(first, waves, output, root);
            first += 4;
        }
        while first < self.voices {
            self.run::<N, 1, M>(first, waves, output, root);
            first += 1;
        }
    }

    /// Voices `first..first + L` through the whole block, their waves held in
    /// `[port][voice]` arrays the compiler keeps in registers.
    #[inline(always)]
    #[expect(
        clippy::needless_range_loop,
        reason = "ports and voices index several arrays in step"
    )]
    fn run<const N: usize, const L: usize, M: MulAdd>(
        &self,
        first: usize,
        waves: &mut [f64],
        output: &mut [f64],
        root: impl LaneRoot,
    ) {
        let (v, kernel, input) = (self.voices, self.kernel, self.input);
        let to_root: [f64; N] = std::array::from_fn(|i| kernel.to_root[i]);
        let transition: [[f64; N]; N] =
            std::array::from_fn(|j| std::array::from_fn(|i| kernel.transition[j * N + i]));
        let (scale, sign, source) = (kernel.source_scale, kernel.probe_sign, N - 1);
        let mut g: [[f64; L]; N] =
            std::array::from_fn(|i| std::array::from_fn(|k| waves[i * v + first + k]));
        for (x, y) in input.chunks_exact(v).zip(output.chunks_exact_mut(v)) {
            let (x, y) = (&x[first..first + L], &mut y[first..first + L]);
            for k in 0..L {
                g[source][k] = scale * x[k];
            }
            for k in 0..L {
                let mut a = M::mul_add(to_root[source], g[source][k], 0.0);
                for i in 1..source {
                    a = M::mul_add(to_root[i], g[i][k], a);
                }
                g[0][k] = a;
            }
            root.reflect::<M, L>(&mut g[0]);
            let mut next = g;
            for j in 1..source {
                for k in 0..L {
                    let mut sum = 0.0;
                    for i in 0..N {
                        sum = M::mul_add(transition[j][i], g[i][k], sum);
                    }
                    next[j][k] = sum;
                }
            }
            for k in 0..L {
                y[k] = 0.5 * M::mul_add(sign, next[1][k], g[1][k]);
            }
            g = next;
        }
        for (i, port) in g.iter().enumerate() {
            waves[i * v + first..i * v + first + L].copy_from_slice(port);
        }
    }
}

/// A memoryless root that reflects a group of voices' waves in place.
trait LaneRoot: Copy {
    fn reflect<M: MulAdd, const L: usize>(&self, waves: &mut [f64; L]);
}

/// A linear root, `b = ρ·a + c`.
impl LaneRoot for (f64, f64) {
    #[inline(always)]
    fn reflect<M: MulAdd, const L: usize>(&self, waves: &mut [f64; L]) {
        for a in waves {
            *a = M::mul_add(self.0, *a, self.1);
        }
    }
}

/// A tabulated diode pair, four voices per vector lookup.
impl<E: ExactPair> LaneRoot for PairSolver<'_, E> {
    #[inline(always)]
    fn reflect<M: MulAdd, const L: usize>(&self, waves: &mut [f64; L]) {
        let (quads, rest) = waves.as_chunks_mut::<4>();
        for quad in quads {
            self.reflect4::<M>(quad);
        }
        for a in rest {
            *a = PairSolver::reflect::<M>(self, *a);
        }
    }
}
