//! Many voices of one small circuit, evaluated side by side.

use super::description::TreeDescription;
use super::root::Root;
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
            vector: super::diode_lanes::available(),
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
        self.process_lanes(input, output);
    }

    /// [`PolyTableau::process`] compiled for AVX2, four voices per register.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn process_avx2(&mut self, input: &[f64], output: &mut [f64]) {
        self.process_lanes(input, output);
    }

    #[inline(always)]
    fn process_lanes(&mut self, input: &[f64], output: &mut [f64]) {
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
                    *a += m * w;
                }
            }
            let (root_waves, _) = self.waves.split_at_mut(v);
            match affine {
                Some((rho, offset)) => {
                    for (b, &a) in root_waves.iter_mut().zip(&self.to_root) {
                        *b = rho * a + offset;
                    }
                }
                None => self.root.reflect_lanes(&self.to_root, root_waves),
            }
            // Next outgoing waves at every other port.
            for j in 1..n {
                let row = &self.kernel.transition[j * n..(j + 1) * n];
                let next = &mut self.next[j * v..(j + 1) * v];
                next.fill(0.0);
                for (i, &m) in row.iter().enumerate() {
                    if m != 0.0 {
                        for (out, &w) in next.iter_mut().zip(&self.waves[i * v..(i + 1) * v]) {
                            *out += m * w;
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
