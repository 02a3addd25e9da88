//! A contact's compression as it is carried from sample to sample: what the
//! felt root of a tree and a contact at a multiport root both keep.

use super::FeltLaw;

/// How far a contact ([`FeltLaw`]) is squeezed and how fast, the force it
/// pushed with and its memory of earlier compression, at the last sample.
///
/// The compression is integrated by the trapezoidal rule over half sample
/// periods `h = T/2`; the memory follows `M[n] = m·M[n−1] + (1 − m)·x[n]^p`
/// with `m = e^(−T/τ)` (exact for `x^p` held over the sample). How a sample's
/// compression is solved is its owner's ([`super::FeltRoot`],
/// [`super::multiport::Contact`]). Allocates nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CompressionState {
    law: FeltLaw,
    /// Half the sample period `h`, s.
    half_period: f64,
    /// Fraction of the memory kept over one sample, `m = e^(−T/τ)`.
    memory_kept: f64,
    /// Memory `M` of earlier compression, m^p.
    memory: f64,
    /// Compression `x`, m: positive while squeezed, negative for the gap
    /// between the bodies.
    compression: f64,
    /// Compression rate `ẋ`, m/s: positive while the bodies approach.
    compression_rate: f64,
    /// Force of the last sample, N.
    force: f64,
}

impl CompressionState {
    /// A contact with `law` sampled at `sample_rate` (Hz), at `compression`
    /// (m, negative for a gap) closing at `compression_rate` (m/s), rested.
    pub fn new(law: FeltLaw, sample_rate: f64, compression: f64, compression_rate: f64) -> Self {
        Self {
            law,
            half_period: 0.5 / sample_rate,
            memory_kept: law.memory_kept_per_sample(sample_rate),
            memory: 0.0,
            compression,
            compression_rate,
            force: law.force(compression, compression_rate),
        }
    }

    /// Places the bodies at `compression` (m, negative for a gap), closing
    /// at `compression_rate` (m/s), rested (no memory of earlier
    /// compression): the start of a strike.
    pub fn set_state(&mut self, compression: f64, compression_rate: f64) {
        self.memory = 0.0;
        self.compression = compression;
        self.compression_rate = compression_rate;
        self.force = self.law.force(compression, compression_rate);
    }

    /// Carries on from `old`'s compression, compression rate and memory with
    /// this law (the force is recomputed with it when the laws differ).
    pub fn continue_from(&mut self, old: &CompressionState) {
        (self.compression, self.compression_rate, self.memory) =
            (old.compression, old.compression_rate, old.memory);
        self.force = if self.law == old.law {
            old.force
        } else {
            self.law
                .force_with_memory(old.compression, old.compression_rate, old.memory)
        };
    }

    /// Takes one sample's solution: compression `x` (m), `x_p` =
    /// `max(x, 0)^p`, the compression rate (m/s) and the force (N); the
    /// memory takes in `x_p`.
    #[inline]
    pub fn advance(&mut self, x: f64, x_p: f64, compression_rate: f64, force: f64) {
        let kept = self.memory_kept;
        self.memory = kept * self.memory + (1.0 - kept) * x_p;
        self.compression = x;
        self.compression_rate = compression_rate;
        self.force = force;
    }

    /// Moves the bodies to `compression` (m) closing at `compression_rate`
    /// (m/s), keeping the memory and the last force: a test's start of a
    /// sample from a chosen state.
    #[cfg(test)]
    pub(super) fn place(&mut self, compression: f64, compression_rate: f64) {
        self.compression = compression;
        self.compression_rate = compression_rate;
    }

    /// The law's stiffness and offset over the coming sample, given the
    /// memory: `K' = K·(1 − ε·(1 − m))` (N/m^p) and `D = K·ε·m·M[n−1]` (N),
    /// so that the relaxing part of the law is `K'·x^p − D`.
    #[inline]
    pub fn relaxed(&self) -> (f64, f64) {
        let (k, eps, kept) = (
            self.law.stiffness,
            self.law.relaxing_fraction,
            self.memory_kept,
        );
        (k * (1.0 - eps * (1.0 - kept)), k * eps * kept * self.memory)
    }

    /// The compression law.
    pub fn law(&self) -> FeltLaw {
        self.law
    }

    /// Half the sample period, s.
    pub fn half_period(&self) -> f64 {
        self.half_period
    }

    /// Compression (m): positive while squeezed, negative for a gap.
    pub fn compression(&self) -> f64 {
        self.compression
    }

    /// Compression rate (m/s), positive while the bodies approach.
    pub fn compression_rate(&self) -> f64 {
        self.compression_rate
    }

    /// Force of the last sample (N), zero when not in contact.
    pub fn force(&self) -> f64 {
        self.force
    }

    /// The memory `M` of earlier compression after the last sample, m^p.
    pub fn memory(&self) -> f64 {
        self.memory
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FS: f64 = 48_000.0;

    /// A contact carrying on from one of the same law keeps its solved force
    /// to the bit; from another law it takes the compression, rate and
    /// memory and pushes as its own law says there.
    #[test]
    fn continuing_keeps_the_force_of_the_same_law_only() {
        let law = FeltLaw::elastic(4.5e9, 2.5).with_relaxation(0.3, 1e-4);
        let mut old = CompressionState::new(law, FS, 0.0, 0.0);
        // A solved force a little off the law's, as a solve's rounding leaves it.
        old.advance(0.5e-3, 0.5e-3f64.powf(2.5), 1.0, 1234.5);
        let mut same = CompressionState::new(law, FS, -1e-3, 0.0);
        same.continue_from(&old);
        assert_eq!(same, old);
        let stiffer = FeltLaw::elastic(9e9, 2.5).with_relaxation(0.3, 1e-4);
        let mut other = CompressionState::new(stiffer, FS, -1e-3, 0.0);
        other.continue_from(&old);
        assert_eq!(
            (
                other.compression(),
                other.compression_rate(),
                other.memory()
            ),
            (old.compression(), old.compression_rate(), old.memory())
        );
        assert_eq!(
            other.force(),
            stiffer.force_with_memory(0.5e-3, 1.0, old.memory())
        );
    }

    /// The memory lags `x^p` by `m = e^(−T/τ)` a sample, and the relaxed law
    /// it leaves is `K'·x^p − D` with `K' = K·(1 − ε·(1 − m))`, `D = K·ε·m·M`:
    /// held at `x`, the relaxed force there is the law's with that memory.
    #[test]
    fn the_relaxed_law_is_the_law_with_its_memory() {
        let law = FeltLaw::elastic(4.5e9, 2.5).with_relaxation(0.3, 1e-4);
        let mut state = CompressionState::new(law, FS, 0.0, 0.0);
        let x: f64 = 0.4e-3;
        let x_p = x.powf(2.5);
        for _ in 0..7 {
            state.advance(x, x_p, 0.0, 0.0);
        }
        let kept = law.memory_kept_per_sample(FS);
        let memory = state.memory();
        let (stiffness, offset) = state.relaxed();
        let next_memory = kept * memory + (1.0 - kept) * x_p;
        let relaxed = stiffness * x_p - offset;
        let by_law = law.force_with_memory(x, 0.0, next_memory);
        assert!(
            (relaxed - by_law).abs() < 1e-12 * by_law,
            "{relaxed} {by_law}"
        );
        assert!(memory > 0.5 * x_p && memory < x_p, "{memory} of {x_p}");
    }
}
