//! A comb's tines: uniform steel cantilevers (clamped-free bars), the bass
//! ones with a lead weight under the tip.
//!
//! A uniform cantilever of length `L`, thickness `h` rings at
//! `ω_n = β_n²·c/L²`, `c = √(EI/ρA) = h·√(E/12ρ)`, where `β_n` (β·L, no
//! unit) are the roots of the frequency equation of a clamped-free beam
//! with a tip mass `M` (μ = M over the tine's mass):
//!
//! `1 + cos β·cosh β + μ·β·(cos β·sinh β − sin β·cosh β) = 0`.
//!
//! With μ = 0 they are 1.8751, 4.6941, 7.8548 (partials 1 : 6.267 : 17.55);
//! a tip mass lowers the first most, so a weighted tine's partials spread
//! further. The tip mass sets no bending moment, so each mode's shape is
//! `φ(ξ) = cosh βξ − cos βξ − σ·(sinh βξ − sin βξ)` with
//! `σ = (cosh β + cos β)/(sinh β + sin β)` (ξ = x/L); its generalised mass
//! is `m·∫φ² dξ + M·φ(1)²`.
//!
//! A tine is as long as its pitch needs, up to the longest the comb has room
//! for; a lower tine is that long and carries the lead its pitch needs
//! (μ solved from the same equation at the wanted `β₁`).

use super::spec::MusicBoxSpec;
use crate::instrument::PointMode;

/// Spring steel: Young's modulus, Pa.
pub const STEEL_E_PA: f64 = 200e9;
/// Spring steel: density, kg/m³.
pub const STEEL_DENSITY_KG_M3: f64 = 7850.0;

/// Modes kept per tine.
pub const TINE_MODES: usize = 3;

/// Smallest size of a mode's shape where the pin meets the tine, over its
/// size at the tip, that the pin excites: below it the point is a node.
const NODE_SHAPE: f64 = 1e-3;

/// Most lead a tine may carry, as a multiple of its own mass.
pub const MAX_TIP_MASS_RATIO: f64 = 50.0;

/// The frequency equation of a clamped-free beam with tip mass ratio `mu`,
/// at `beta` (β·L).
pub fn frequency_equation(beta: f64, mu: f64) -> f64 {
    let (s, c, sh, ch) = (beta.sin(), beta.cos(), beta.sinh(), beta.cosh());
    1.0 + c * ch + mu * beta * (c * sh - s * ch)
}

/// The first `count` roots β·L of [`frequency_equation`] for tip mass ratio
/// `mu` (≥ 0), rising.
pub fn mode_betas(mu: f64, count: usize) -> Vec<f64> {
    const STEP: f64 = 1e-2;
    let mut roots = Vec::with_capacity(count);
    let mut a = STEP;
    let mut fa = frequency_equation(a, mu);
    while roots.len() < count {
        let b = a + STEP;
        let fb = frequency_equation(b, mu);
        if fa.signum() != fb.signum() {
            let (mut lo, mut hi, mut flo) = (a, b, fa);
            for _ in 0..80 {
                let mid = 0.5 * (lo + hi);
                let fm = frequency_equation(mid, mu);
                if fm.signum() == flo.signum() {
                    (lo, flo) = (mid, fm);
                } else {
                    hi = mid;
                }
            }
            roots.push(0.5 * (lo + hi));
        }
        (a, fa) = (b, fb);
    }
    roots
}

/// The tip mass ratio μ that puts the first root of the frequency equation
/// at `beta1` (below 1.8751, the unweighted tine's).
pub fn tip_mass_ratio_for(beta1: f64) -> f64 {
    let (s, c, sh, ch) = (beta1.sin(), beta1.cos(), beta1.sinh(), beta1.cosh());
    -(1.0 + c * ch) / (beta1 * (c * sh - s * ch))
}

/// Shape of the mode at `beta` at `xi` (fraction of the length from the
/// clamp), unnormalised.
pub fn mode_shape(beta: f64, xi: f64) -> f64 {
    let sigma = (beta.cosh() + beta.cos()) / (beta.sinh() + beta.sin());
    let b = beta * xi;
    b.cosh() - b.cos() - sigma * (b.sinh() - b.sin())
}

/// `∫₀¹ f(ξ) dξ` by Simpson's rule.
fn integral(f: impl Fn(f64) -> f64) -> f64 {
    const N: usize = 400;
    let h = 1.0 / N as f64;
    let mut sum = f(0.0) + f(1.0);
    for i in 1..N {
        sum += if i % 2 == 1 { 4.0 } else { 2.0 } * f(i as f64 * h);
    }
    sum * h / 3.0
}

/// One tine as the comb's maker cut it.
#[derive(Debug, Clone, PartialEq)]
pub struct TineDesign {
    /// MIDI key.
    pub key: u8,
    /// Length from the clamp, m.
    pub length_m: f64,
    /// Mass of the steel, kg.
    pub mass_kg: f64,
    /// Lead under the tip, kg.
    pub tip_mass_kg: f64,
    /// β·L of its modes.
    pub betas: Vec<f64>,
    /// Frequencies of its modes, Hz.
    pub frequencies_hz: Vec<f64>,
}

impl TineDesign {
    /// The tine of `spec`'s comb that sounds `fundamental_hz` for `key`;
    /// `Err` names why it cannot be cut.
    pub fn new(spec: &MusicBoxSpec, key: u8, fundamental_hz: f64) -> Result<Self, String> {
        let h = spec.tine_thickness_m;
        let c = h * (STEEL_E_PA / (12.0 * STEEL_DENSITY_KG_M3)).sqrt();
        let omega = std::f64::consts::TAU * fundamental_hz;
        let beta_uniform = mode_betas(0.0, 1)[0];
        let uniform_length = (beta_uniform * beta_uniform * c / omega).sqrt();
        let (length_m, mu) = if uniform_length <= spec.longest_tine_m {
            (uniform_length, 0.0)
        } else {
            let length = spec.longest_tine_m;
            let beta1 = (omega * length * length / c).sqrt();
            (length, tip_mass_ratio_for(beta1))
        };
        if !(0.0..=MAX_TIP_MASS_RATIO).contains(&mu) {
            return Err(format!(
                "key {key}: a tine {:.1} mm long would need {mu:.0} times its mass in lead \
                 (at most {MAX_TIP_MASS_RATIO})",
                1e3 * length_m
            ));
        }
        let betas = mode_betas(mu, TINE_MODES);
        let frequencies_hz = betas
            .iter()
            .map(|b| b * b * c / (length_m * length_m) / std::f64::consts::TAU)
            .collect();
        let mass_kg = STEEL_DENSITY_KG_M3 * h * spec.tine_width_m * length_m;
        Ok(Self {
            key,
            length_m,
            mass_kg,
            tip_mass_kg: mu * mass_kg,
            betas,
            frequencies_hz,
        })
    }

    /// The tip mass over the tine's mass, μ.
    pub fn tip_mass_ratio(&self) -> f64 {
        self.tip_mass_kg / self.mass_kg
    }

    /// Generalised mass of mode `n` (shape unnormalised as
    /// [`mode_shape`]), kg.
    fn generalised_mass(&self, n: usize) -> f64 {
        let b = self.betas[n];
        self.mass_kg * integral(|xi| mode_shape(b, xi).powi(2))
            + self.tip_mass_kg * mode_shape(b, 1.0).powi(2)
    }

    /// The tine's modes as a pin at `at` (fraction of the length) meets
    /// them, each weighted for a pickup at `pickup_at`, and each mode's
    /// clamp weight: the force it puts on the clamp per newton in its
    /// spring. A mode decays 60 dB in `2.2/(η·f)` s (`η` =
    /// `loss_factor`). Modes with a node where the pin meets the tine are
    /// left out: it neither excites nor feels them.
    pub fn point_modes(&self, at: f64, pickup_at: f64, loss_factor: f64) -> Vec<(PointMode, f64)> {
        (0..self.betas.len())
            .filter(|&n| {
                let b = self.betas[n];
                mode_shape(b, at).abs() >= NODE_SHAPE * mode_shape(b, 1.0).abs()
            })
            .map(|n| {
                let b = self.betas[n];
                let here = mode_shape(b, at);
                let mass = self.generalised_mass(n);
                // Clamp shear = Σ ω²·q·P, P = m·∫φ + M·φ(1); the spring of
                // the mode seen at `at` carries f = M_n·ω²·q/φ(at).
                let participation = self.mass_kg * integral(|xi| mode_shape(b, xi))
                    + self.tip_mass_kg * mode_shape(b, 1.0);
                let f = self.frequencies_hz[n];
                (
                    PointMode {
                        frequency_hz: f,
                        t60_s: 3.0 * 10f64.ln() / (std::f64::consts::PI * f * loss_factor),
                        mass_kg: mass / (here * here),
                        pickup: mode_shape(b, pickup_at) / here,
                    },
                    here * participation / mass,
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_lead_the_roots_are_the_cantilevers() {
        let betas = mode_betas(0.0, 3);
        for (b, expected) in betas
            .iter()
            .zip([1.875_104_069, 4.694_091_133, 7.854_757_438])
        {
            assert!((b - expected).abs() < 1e-8, "{b} for {expected}");
        }
    }

    #[test]
    fn the_tip_mass_ratio_found_puts_the_first_root_back() {
        for mu in [0.1, 0.5, 2.0, 10.0] {
            let beta1 = mode_betas(mu, 1)[0];
            assert!((tip_mass_ratio_for(beta1) / mu - 1.0).abs() < 1e-8);
        }
    }

    /// A heavy tip mass makes the first mode a mass on the cantilever's
    /// static spring `3EI/L³`: `β₁⁴ → 3/μ`.
    #[test]
    fn a_heavy_tip_is_a_mass_on_the_static_spring() {
        let mu = 40.0;
        let beta1 = mode_betas(mu, 1)[0];
        // Rayleigh's correction: the beam adds 33/140 of its mass.
        let expected = (3.0 / (mu + 33.0 / 140.0)).powf(0.25);
        assert!(
            (beta1 / expected - 1.0).abs() < 1e-3,
            "{beta1} vs {expected}"
        );
    }

    /// Each mode's shape meets the ends' conditions: clamped (`φ(0) = 0`,
    /// `φ'(0) = 0`), no moment at the tip (`φ''(1) = 0`), and the tip's
    /// shear accelerating the lead (`φ'''(1) = −μ·β⁴·φ(1)`); derivatives by
    /// finite differences.
    #[test]
    fn the_mode_shapes_meet_the_ends_conditions_with_the_lead() {
        let d = 1e-3;
        for mu in [0.0, 0.37, 0.73, 3.0] {
            for beta in mode_betas(mu, TINE_MODES) {
                let phi = |xi: f64| mode_shape(beta, xi);
                let scale = phi(1.0).abs();
                assert!(phi(0.0).abs() < 1e-12);
                assert!(((phi(d) - phi(-d)) / (2.0 * d)).abs() < 1e-5 * scale * beta.powi(3));
                let second = (phi(1.0 + d) - 2.0 * phi(1.0) + phi(1.0 - d)) / (d * d);
                assert!(
                    second.abs() < 1e-3 * scale * beta * beta,
                    "φ''(1) = {second}"
                );
                let third = (phi(1.0 + 2.0 * d) - 2.0 * phi(1.0 + d) + 2.0 * phi(1.0 - d)
                    - phi(1.0 - 2.0 * d))
                    / (2.0 * d * d * d);
                let shear = -mu * beta.powi(4) * phi(1.0);
                assert!(
                    (third - shear).abs() < 1e-3 * scale * beta.powi(3).max(1.0) * (1.0 + mu),
                    "μ {mu}, β {beta}: φ'''(1) = {third}, −μβ⁴φ(1) = {shear}"
                );
            }
        }
    }

    /// With the lead, the modes are orthogonal in the mass they carry, the
    /// tine's and the tip's: `m·∫φᵢφⱼ + M·φᵢ(1)φⱼ(1) = 0` for `i ≠ j`.
    #[test]
    fn the_modes_are_orthogonal_with_the_tip_mass() {
        for mu in [0.37, 0.73, 3.0] {
            let betas = mode_betas(mu, TINE_MODES);
            let inner = |i: usize, j: usize| {
                let (a, b) = (betas[i], betas[j]);
                integral(|xi| mode_shape(a, xi) * mode_shape(b, xi))
                    + mu * mode_shape(a, 1.0) * mode_shape(b, 1.0)
            };
            for i in 0..TINE_MODES {
                for j in 0..i {
                    let cross = inner(i, j) / (inner(i, i) * inner(j, j)).sqrt();
                    assert!(cross.abs() < 1e-6, "μ {mu}: modes {i} and {j}: {cross}");
                }
            }
        }
    }
}
