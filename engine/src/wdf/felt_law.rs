//! The compression law of hammer felt: a hardening spring with Hunt–Crossley
//! hysteresis.
//!
//! # Why Hunt–Crossley
//!
//! Real felt returns less force while it relaxes than while it is compressed
//! (Hall & Askenfelt 1988; Stulov 1995). Two dissipative extensions of the power law
//! `F = K·x^p` are common in piano models:
//!
//! * Stulov's relaxation model, `F = K·[x^p + α·d(x^p)/dt]` (or its hereditary
//!   form with a relaxation integral), whose damping term `K·α·p·x^(p−1)·ẋ` needs an
//!   extra state for the hereditary form;
//! * Hunt & Crossley (1975), `F = K·x^p·(1 + β·ẋ)`.
//!
//! Orchard uses Hunt–Crossley. Its dissipation `β·K·x^p·ẋ²` is non-negative at
//! every instant, so the felt is passive by construction (it can never return more
//! energy than it stored); the damping vanishes with the compression, so the force
//! starts from zero at first touch (no force step, hence no click, unlike a
//! Kelvin–Voigt dashpot); it needs no state beyond the compression; and its
//! parameter is measurable: against a rigid anvil the coefficient of restitution is
//! `e ≈ 1 − (2/3)·β·v` for any exponent `p` (to first order in `β·v`), which is how
//! hammer makers' drop tests translate into `β`. Stulov's simplified form differs
//! only in the power of `x` that weights the damping; with one relaxation time it
//! behaves the same within the 1–6 m/s range of hammer speeds.
//!
//! The felt only pushes: the force is `max(0, K·x^p·(1 + β·ẋ))`. When the felt
//! relaxes faster than `1/β` the string and hammer part before the felt has
//! recovered, and the energy still held in the compression is lost to the felt.

/// The compression law of hammer felt, `F = max(0, K·x^p·(1 + β·ẋ))` for
/// compression `x > 0` (m) closing at `ẋ` (m/s), and no force otherwise.
///
/// With `β = 0` it is the lossless power law of Chaigne & Askenfelt (1994).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FeltLaw {
    /// Stiffness `K` in N/m^p.
    pub stiffness: f64,
    /// Exponent `p` (dimensionless, 2.2–3.5 for played-in piano hammers).
    pub exponent: f64,
    /// Hunt–Crossley hysteresis `β`, s/m: the relative increase of the force per
    /// m/s of compression rate. Zero is a lossless felt.
    #[serde(default)]
    pub hysteresis_s_per_m: f64,
}

impl FeltLaw {
    /// A lossless felt `F = K·x^p` with stiffness `K` (N/m^p) and exponent `p`.
    pub const fn elastic(stiffness: f64, exponent: f64) -> Self {
        Self {
            stiffness,
            exponent,
            hysteresis_s_per_m: 0.0,
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

    /// The force (N) at compression `x` (m) closing at `rate` (m/s).
    #[inline]
    pub fn force(&self, compression: f64, rate: f64) -> f64 {
        let factor = 1.0 + self.hysteresis_s_per_m * rate;
        if factor > 0.0 {
            self.elastic_force(compression) * factor
        } else {
            0.0
        }
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
    }
}
