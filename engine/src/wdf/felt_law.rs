//! The compression law of hammer felt: a hardening spring that relaxes
//! (Stulov's hereditary felt), with optional Hunt–Crossley hysteresis.
//!
//! # Why a relaxing felt
//!
//! Wool felt is a microstructured material whose stiffness depends on how fast
//! it is loaded: compressed quickly it is stiffer than compressed slowly, and it
//! returns less force while it relaxes than while it is squeezed (Stulov 1995,
//! 2004; Giordano & Millis 2001). Stulov's hereditary law writes this with one
//! relaxation time `τ` and a relaxing fraction `ε`:
//!
//! `F(t) = K·[x^p(t) − ε·M(t)]`, `M(t) = (1/τ)·∫ x^p(ξ)·e^{−(t−ξ)/τ} dξ`,
//!
//! where the memory `M` (m^p) is `x^p` seen through a first-order lag of time
//! constant `τ`. A blow much shorter than `τ` meets the whole stiffness `K`; one
//! much longer meets `(1 − ε)·K`. A piano hammer's contact (1–4 ms) lies between,
//! and this is what makes soft notes dark: a slow blow lasts longer and lets the
//! felt relax further, so the soft strike meets a softer felt and its force
//! pulse is smoother, beyond what the power law alone gives. With a similar
//! energy loss (restitution 0.79 and 0.86 against a rigid anvil at 3 m/s), a
//! finite-difference model of Chaigne & Askenfelt's C4 string brightens ×1.62
//! from 0.61 to 5.57 m/s with a relaxing felt (`ε` = 0.3, `τ` = 0.2 ms) and ×1.46
//! with a Hunt–Crossley felt (`β` = 0.08 s/m), each touching for 2.0 ms at 3 m/s
//! (`docs/calculations/c4_felt_brightness.py`).
//!
//! Hunt & Crossley's (1975) factor `(1 + β·ẋ)` is kept as a second, optional
//! loss: it dissipates `β·K·x^p·ẋ²` at every instant and adds no state. With
//! `ε = 0` and `β = 0` the law is the lossless power law of Chaigne & Askenfelt
//! (1994).
//!
//! The felt only pushes: the force is `max(0, K·(x^p − ε·M)·(1 + β·ẋ))`. When
//! the felt relaxes faster than it recovers, string and hammer part before the
//! felt has regained its shape, and the energy still held in it is lost to the
//! felt.

/// Relaxation time of a felt that does not relax (its relaxing fraction is
/// zero, so the time is never used), s.
pub const UNUSED_RELAXATION_S: f64 = 1e-4;

/// The compression law of hammer felt,
/// `F = max(0, K·(x^p − ε·M)·(1 + β·ẋ))` for compression `x > 0` (m) closing
/// at `ẋ` (m/s), where `M` (m^p) is the memory of earlier compression (see the
/// module), and no force otherwise.
///
/// With `ε = 0` and `β = 0` it is the lossless power law of Chaigne & Askenfelt
/// (1994).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FeltLaw {
    /// Stiffness `K` in N/m^p: the felt's stiffness against a blow much shorter
    /// than its relaxation time.
    pub stiffness: f64,
    /// Exponent `p` (dimensionless, 2.2–3.5 for played-in piano hammers).
    pub exponent: f64,
    /// Hunt–Crossley hysteresis `β`, s/m: the relative increase of the force per
    /// m/s of compression rate. Zero is no such loss.
    #[serde(default)]
    pub hysteresis_s_per_m: f64,
    /// Stulov's relaxing fraction `ε` (0 to below 1): the part of the stiffness
    /// the felt loses under a slow, sustained compression. Zero is a felt that
    /// does not relax.
    #[serde(default)]
    pub relaxing_fraction: f64,
    /// Stulov's relaxation time `τ`, s.
    #[serde(default = "unused_relaxation")]
    pub relaxation_s: f64,
}

fn unused_relaxation() -> f64 {
    UNUSED_RELAXATION_S
}

impl FeltLaw {
    /// A lossless felt `F = K·x^p` with stiffness `K` (N/m^p) and exponent `p`.
    pub const fn elastic(stiffness: f64, exponent: f64) -> Self {
        Self {
            stiffness,
            exponent,
            hysteresis_s_per_m: 0.0,
            relaxing_fraction: 0.0,
            relaxation_s: UNUSED_RELAXATION_S,
        }
    }

    /// The same felt relaxing by the fraction `ε` with relaxation time `τ` (s).
    pub const fn with_relaxation(self, relaxing_fraction: f64, relaxation_s: f64) -> Self {
        Self {
            relaxing_fraction,
            relaxation_s,
            ..self
        }
    }

    /// The same felt with hysteresis `β` (s/m).
    pub const fn with_hysteresis(self, hysteresis_s_per_m: f64) -> Self {
        Self {
            hysteresis_s_per_m,
            ..self
        }
    }

    /// The elastic part of the force (N) at compression `x` (m): `K·x^p`, or zero
    /// when the felt is not compressed.
    #[inline]
    pub fn elastic_force(&self, compression: f64) -> f64 {
        if compression > 0.0 {
            self.stiffness * compression.powf(self.exponent)
        } else {
            0.0
        }
    }

    /// The force (N) of a felt at rest until now (no memory of earlier
    /// compression) at compression `x` (m) closing at `rate` (m/s).
    #[inline]
    pub fn force(&self, compression: f64, rate: f64) -> f64 {
        self.force_with_memory(compression, rate, 0.0)
    }

    /// The force (N) at compression `x` (m) closing at `rate` (m/s), with the
    /// memory `M` (m^p) of earlier compression.
    #[inline]
    pub fn force_with_memory(&self, compression: f64, rate: f64, memory: f64) -> f64 {
        let factor = 1.0 + self.hysteresis_s_per_m * rate;
        let relaxed =
            self.elastic_force(compression) - self.stiffness * self.relaxing_fraction * memory;
        if factor > 0.0 && relaxed > 0.0 {
            relaxed * factor
        } else {
            0.0
        }
    }

    /// How much of the memory `M` is left after one sample at `sample_rate`
    /// (Hz): `e^(−1/(fs·τ))`.
    pub fn memory_kept_per_sample(&self, sample_rate: f64) -> f64 {
        (-1.0 / (sample_rate * self.relaxation_s)).exp()
    }

    /// Energy (J) held by the elastic part at compression `x` (m):
    /// `K·x^(p+1)/(p+1)`, zero when not compressed.
    pub fn potential_energy(&self, compression: f64) -> f64 {
        if compression > 0.0 {
            self.elastic_force(compression) * compression / (self.exponent + 1.0)
        } else {
            0.0
        }
    }

    /// What is wrong with the law's values, if anything: stiffness and exponent
    /// must be positive and finite, the hysteresis finite and not negative.
    pub fn check(&self) -> Result<(), &'static str> {
        let positive = |v: f64| v.is_finite() && v > 0.0;
        if !positive(self.stiffness) {
            return Err("felt stiffness must be positive and finite");
        }
        if !positive(self.exponent) {
            return Err("felt exponent must be positive and finite");
        }
        if !(self.hysteresis_s_per_m.is_finite() && self.hysteresis_s_per_m >= 0.0) {
            return Err("felt hysteresis must be finite and not negative");
        }
        if !(0.0..1.0).contains(&self.relaxing_fraction) {
            return Err("felt relaxing fraction must be at least 0 and below 1");
        }
        if !positive(self.relaxation_s) {
            return Err("felt relaxation time must be positive and finite");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const C4: FeltLaw = FeltLaw::elastic(4.5e9, 2.5);

    #[test]
    fn force_is_the_power_law_scaled_by_the_rate() {
        let law = C4.with_hysteresis(0.1);
        let x: f64 = 0.8e-3;
        let elastic = 4.5e9 * x.powf(2.5);
        assert_eq!(law.elastic_force(x), elastic);
        assert!((law.force(x, 2.0) - 1.2 * elastic).abs() < 1e-12 * elastic);
        assert!((law.force(x, -2.0) - 0.8 * elastic).abs() < 1e-12 * elastic);
        // Relaxing faster than 1/β: the felt lets go rather than pull.
        assert_eq!(law.force(x, -11.0), 0.0);
        assert_eq!(law.force(-1e-3, 3.0), 0.0);
        assert_eq!(C4.force(x, -100.0), elastic);
    }

    #[test]
    fn potential_energy_is_the_integral_of_the_elastic_force() {
        let x = 1e-3;
        let n = 10_000;
        let dx = x / n as f64;
        let integral: f64 = (0..n)
            .map(|k| C4.elastic_force((k as f64 + 0.5) * dx) * dx)
            .sum();
        let energy = C4.potential_energy(x);
        assert!(
            (integral / energy - 1.0).abs() < 1e-6,
            "{integral} {energy}"
        );
    }

    #[test]
    fn bad_values_are_named() {
        assert!(C4.check().is_ok());
        assert!(FeltLaw::elastic(f64::NAN, 2.5).check().is_err());
        assert!(FeltLaw::elastic(1e9, 0.0).check().is_err());
        assert!(C4.with_hysteresis(-0.1).check().is_err());
        assert!(C4.with_hysteresis(f64::INFINITY).check().is_err());
        assert!(C4.with_relaxation(0.3, 1e-4).check().is_ok());
        assert!(C4.with_relaxation(1.0, 1e-4).check().is_err());
        assert!(C4.with_relaxation(-0.1, 1e-4).check().is_err());
        assert!(C4.with_relaxation(f64::NAN, 1e-4).check().is_err());
        assert!(C4.with_relaxation(0.3, 0.0).check().is_err());
    }

    /// The memory of earlier compression takes `ε·K·M` off the force, down to
    /// zero but never below: the felt only pushes.
    #[test]
    fn memory_relaxes_the_force() {
        let law = C4.with_relaxation(0.3, 1e-4);
        let x: f64 = 0.8e-3;
        let elastic = 4.5e9 * x.powf(2.5);
        assert_eq!(law.force(x, 1.0), elastic);
        let memory = 0.5 * x.powf(2.5);
        let relaxed = law.force_with_memory(x, 1.0, memory);
        assert!(
            (relaxed - 0.85 * elastic).abs() < 1e-12 * elastic,
            "{relaxed}"
        );
        assert_eq!(law.force_with_memory(0.5 * x, 1.0, 10.0 * memory), 0.0);
        // One sample at 48 kHz keeps e^(−1/4.8) of the memory.
        let kept = law.memory_kept_per_sample(48_000.0);
        assert!((kept - (-1.0f64 / 4.8).exp()).abs() < 1e-15);
    }
}
