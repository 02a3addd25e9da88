//! The felt of a hammer as the nonlinear, reactive root of a wave-digital tree.

use super::FeltLaw;
use super::compression::CompressionState;

/// Iterations allowed to the solve of one sample. From the closed-form or
/// last-sample seed Newton's method converges monotonically and quadratically in a
/// handful of steps; the bound only keeps the cost of a sample finite.
const MAX_NEWTON_STEPS: usize = 60;

/// Relative step at which the solve has converged.
const TOLERANCE: f64 = 1e-14;

/// The felt between a hammer and what it strikes, as the root of a series tree.
///
/// The felt is a nonlinear, lossy spring ([`FeltLaw`]), in the mobility analogy a
/// nonlinear inductor: its across quantity is the compression rate `v = ẋ` (m/s)
/// and its through quantity the contact force `i = F` (N). Below it, the hammer
/// mass and the struck object hang in series: the same force acts on both, and the
/// compression rate is the hammer's velocity less the object's.
///
/// The compression is integrated by the trapezoidal rule, consistent with the
/// bilinear transform of the reactive leaves. With `h = T/2`, port resistance `R`
/// and incident wave `a`, the port gives `ẋ = a − R·F` and the trapezoid
/// `x = s − h·R·F` with `s = x[n−1] + h·(ẋ[n−1] + a)`. The felt's memory of
/// earlier compression follows `M[n] = m·M[n−1] + (1 − m)·x[n]^p` with
/// `m = e^(−T/τ)` (exact for `x^p` held over the sample), so the relaxing part of
/// the law is `K·(1 − ε·(1 − m))·x^p − K·ε·m·M[n−1]`: a power law with a known
/// offset. Substituting all of it into the law leaves one scalar equation
///
/// `ψ(x) = x − s + h·R·(K'·x^p − D)·(w + (β/h)·x) = 0`, `w = 1 + β·(a − s/h)`,
///
/// `K' = K·(1 − ε·(1 − m))`, `D = K·ε·m·M[n−1]`, on the interval where the force
/// is not negative. There `ψ` is increasing and convex for `p ≥ 1`, so Newton's
/// method from an upper bound converges monotonically; it is seeded with the
/// least of the closed-form bounds and the last sample's compression, and
/// safeguarded by bisection on a bracket so any exponent stays bounded.
/// Allocates nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FeltRoot {
    port_resistance: f64,
    /// The felt's compression, its rate, force and memory.
    state: CompressionState,
}

impl FeltRoot {
    /// A felt root at a port of resistance `port_resistance` (s/kg), sampled at
    /// `sample_rate` (Hz), starting with compression `compression` (m, negative for
    /// a gap) closing at `compression_rate` (m/s).
    pub fn new(
        law: FeltLaw,
        port_resistance: f64,
        sample_rate: f64,
        compression: f64,
        compression_rate: f64,
    ) -> Self {
        Self {
            port_resistance,
            state: CompressionState::new(law, sample_rate, compression, compression_rate),
        }
    }

    /// Places the felt at `compression` (m, negative for a gap), closing at
    /// `compression_rate` (m/s), rested (no memory of earlier compression): the
    /// start of a strike.
    pub fn set_state(&mut self, compression: f64, compression_rate: f64) {
        self.state.set_state(compression, compression_rate);
    }

    /// Carries on from `old`'s compression, compression rate and memory with
    /// this felt's law (the force is recomputed with it when the laws differ).
    pub fn continue_from(&mut self, old: &FeltRoot) {
        self.state.continue_from(&old.state);
    }

    /// Follows a change of the port resistance of the tree below (s/kg).
    pub fn set_port_resistance(&mut self, port_resistance: f64) {
        self.port_resistance = port_resistance;
    }

    /// The compression law.
    pub fn law(&self) -> FeltLaw {
        self.state.law()
    }

    /// Compression (m): positive while the felt is squeezed, negative for a gap.
    pub fn compression(&self) -> f64 {
        self.state.compression()
    }

    /// Compression rate (m/s), positive while hammer and string approach.
    pub fn compression_rate(&self) -> f64 {
        self.state.compression_rate()
    }

    /// Contact force of the last sample (N), zero when not in contact.
    pub fn force(&self) -> f64 {
        self.state.force()
    }

    /// The felt's memory `M` of earlier compression after the last sample, m^p.
    pub fn memory(&self) -> f64 {
        self.state.memory()
    }

    /// Reflects the wave `incident` arriving from the tree and advances the felt by
    /// one sample. Returns the wave sent back into the tree.
    #[inline]
    pub fn reflect(&mut self, incident: f64) -> f64 {
        // Port: v = ẋ, i = F, so a = ẋ + R·F and b = ẋ − R·F = a − 2·R·F.
        let r = self.port_resistance;
        let h = self.state.half_period();
        let predicted = self.state.compression() + h * (self.state.compression_rate() + incident);
        let beta = self.state.law().hysteresis_s_per_m;
        // The Hunt–Crossley factor 1 + β·ẋ is w + q·x once ẋ is written through x.
        let w = 1.0 + beta * (incident - predicted / h);
        let q = beta / h;
        let (x, force, x_p) = self.solve(predicted, h * r, w, q);
        self.state.advance(x, x_p, incident - r * force, force);
        incident - 2.0 * r * force
    }

    /// Solves `x − s + c·(K'·x^p − D)·(w + q·x) = 0` on the interval where the
    /// force `(K'·x^p − D)·(w + q·x)` is not negative (see the type); returns the
    /// compression, the force and `max(x, 0)^p`.
    #[inline]
    fn solve(&self, s: f64, c: f64, w: f64, q: f64) -> (f64, f64, f64) {
        let exponent = self.state.law().exponent;
        let (stiffness, offset) = self.state.relaxed();
        let apart = |x: f64| {
            let x_p = if x > 0.0 { x.powf(exponent) } else { 0.0 };
            (x, 0.0, x_p)
        };
        if s <= 0.0 || w + q * s <= 0.0 {
            // Apart, or relaxing too fast for the felt to follow: no force, x = s.
            return apart(s);
        }
        let ck = c * stiffness;
        let cd = c * offset;
        if !(ck.is_finite() && cd.is_finite() && s.is_finite()) {
            // Beyond what floating point can carry: report it rather than invent a
            // force (the owner of the tree contains non-finite state).
            return (f64::NAN, f64::NAN, f64::NAN);
        }
        // Where the relaxed felt stops pushing: K'·x^p = D.
        let released = if offset > 0.0 {
            (offset / stiffness).powf(1.0 / exponent)
        } else {
            0.0
        };
        if s <= released {
            // The felt has relaxed more than it is squeezed: no force, x = s.
            return apart(s);
        }
        let psi = |x: f64| {
            let xp = x.powf(exponent);
            (x - s + (ck * xp - cd) * (w + q * x), xp)
        };
        // Bracket: ψ < 0 where the force vanishes (x = 0 or where the relaxed
        // felt lets go, or x = −w/q when w < 0), ψ > 0 at x = s.
        let mut lo = if w < 0.0 { -w / q } else { 0.0 }.max(released);
        let mut hi = s;
        // Closed-form upper bounds: each term of the force alone is at most s.
        if w > 0.0 {
            hi = hi.min(((s / w + cd) / ck).powf(1.0 / exponent));
            if q > 0.0 && offset == 0.0 {
                hi = hi.min((s / (ck * q)).powf(1.0 / (exponent + 1.0)));
            }
        }
        // The last sample's compression is usually closer still.
        let last = self.state.compression();
        if last > lo && last < hi {
            if psi(last).0 > 0.0 {
                hi = last;
            } else {
                lo = last;
            }
        }
        let mut x = hi;
        for _ in 0..MAX_NEWTON_STEPS {
            let (g, xp) = psi(x);
            if g == 0.0 {
                break;
            }
            if g.is_nan() {
                return (f64::NAN, f64::NAN, f64::NAN);
            }
            if g > 0.0 {
                hi = x;
            } else {
                lo = x;
            }
            let slope = 1.0 + ck * (exponent * w * xp / x + (exponent + 1.0) * q * xp) - cd * q;
            let step = g / slope;
            let newton = x - step;
            if step.abs() <= TOLERANCE * x {
                x = newton;
                break;
            }
            x = if newton > lo && newton < hi {
                newton
            } else {
                0.5 * (lo + hi)
            };
            if hi - lo <= TOLERANCE * hi {
                break;
            }
        }
        let x_p = x.powf(exponent);
        let force = ((stiffness * x_p - offset) * (w + q * x)).max(0.0);
        (x, force, x_p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FS: f64 = 48_000.0;
    const C4: FeltLaw = FeltLaw::elastic(4.5e9, 2.5);

    /// Apart, the felt carries no force and reflects like an open circuit.
    #[test]
    fn open_circuit_while_apart() {
        let mut felt = FeltRoot::new(C4.with_hysteresis(0.2), 2e-3, FS, -1e-3, 3.0);
        let b = felt.reflect(3.0);
        assert_eq!(b, 3.0);
        assert_eq!(felt.force(), 0.0);
        assert!(felt.compression() < -1e-3 + 3.0 / FS + 1e-12);
    }

    /// In contact, the solved compression satisfies the trapezoidal update, the
    /// port relations and the felt law (with the memory the sample leaves) to
    /// 1e-12 relative, compressing and relaxing, with and without hysteresis and
    /// relaxation; the relaxing felt is first squeezed for 10 samples so that it
    /// remembers.
    #[test]
    fn implicit_solution_is_exact() {
        let laws = [0.0, 0.05, 0.3, 2.0].into_iter().flat_map(|beta| {
            let law = C4.with_hysteresis(beta);
            [
                law,
                law.with_relaxation(0.3, 1e-4),
                law.with_relaxation(0.9, 2e-5),
            ]
        });
        for law in laws {
            for (x0, v0, a) in [
                (0.5e-3, 2.0, 2.5),
                (0.8e-3, -1.0, -1.2),
                (1e-6, 3.0, 3.0),
                (1.5e-3, 0.1, 0.3),
            ] {
                let beta = law.hysteresis_s_per_m;
                let mut felt = FeltRoot::new(law, 2e-3, FS, 0.0, 0.0);
                if law.relaxing_fraction > 0.0 {
                    for _ in 0..10 {
                        felt.reflect(x0 * FS / 10.0);
                    }
                }
                let memory_before = felt.memory();
                felt.state.place(x0, v0);
                let b = felt.reflect(a);
                let (x1, v1, f) = (felt.compression(), felt.compression_rate(), felt.force());
                let trapezoid = x0 + 0.5 / FS * (v0 + v1);
                let tag = format!(
                    "{law:?}, memory {memory_before}, x0 {x0}, v0 {v0}, a {a}: x {x1}, F {f}"
                );
                assert!(((x1 - trapezoid) / x1).abs() < 1e-12, "{tag}");
                // Port relations: v = (a+b)/2 = ẋ, i = (a−b)/(2R) = F.
                assert!(
                    (0.5 * (a + b) - v1).abs() < 1e-12 * v1.abs().max(1.0),
                    "{tag}"
                );
                assert!(
                    ((a - b) / (2.0 * 2e-3) - f).abs() <= 1e-12 * f.max(1.0),
                    "{tag}"
                );
                let law_force = law.force_with_memory(x1, v1, felt.memory());
                assert!(
                    (f - law_force).abs() <= 1e-12 * f.max(1e-9),
                    "{tag}: {law_force}"
                );
                // Compressed, the felt pushes unless it relaxes faster than 1/β
                // or than its memory lets it recover.
                let remembered = law.relaxing_fraction * felt.memory();
                assert!(
                    f > 0.0 || 1.0 + beta * v1 <= 0.0 || x1.powf(law.exponent) <= remembered,
                    "{tag}"
                );
            }
        }
    }

    /// A stiffness and port resistance whose product overflows give a non-finite
    /// compression and force, for the tree's owner to contain, not a made-up force.
    #[test]
    fn overflow_is_reported_as_non_finite() {
        let law = FeltLaw::elastic(1e300, 2.5);
        let mut felt = FeltRoot::new(law, 1e295, FS, 1e-6, 3.0);
        felt.reflect(3.0);
        assert!(felt.compression().is_nan() && felt.force().is_nan());
        let mut felt = FeltRoot::new(C4, 2e-3, FS, 1e-6, 3.0);
        felt.reflect(f64::NAN);
        assert!(!felt.force().is_finite());
    }

    /// The memory follows `x^p` through a lag of time constant `τ`: held at a
    /// fixed compression, the relaxing felt's force falls from `K·x^p` towards
    /// `(1 − ε)·K·x^p`, 1 − 1/e of the way after `τ`. Released, it forgets.
    #[test]
    fn held_felt_relaxes_with_its_time_constant() {
        let (fraction, tau) = (0.3, 1e-4);
        let law = C4.with_relaxation(fraction, tau);
        let x: f64 = 0.6e-3;
        let full = law.elastic_force(x);
        // Behind a port of almost no resistance (a velocity source), incident 0
        // holds the compression where it is.
        let mut felt = FeltRoot::new(law, 1e-9, FS, x, 0.0);
        let samples = (tau * FS).round() as usize;
        for _ in 0..samples {
            felt.reflect(0.0);
        }
        assert!(
            (felt.compression() - x).abs() < 1e-6 * x,
            "{}",
            felt.compression()
        );
        let lost = 1.0 - felt.force() / full;
        let expected = fraction * (1.0 - (-(samples as f64) / (tau * FS)).exp());
        assert!(
            (lost - expected).abs() < 0.01 * expected,
            "{lost} {expected}"
        );
        for _ in 0..20 * samples {
            felt.reflect(0.0);
        }
        assert!((felt.force() / full - (1.0 - fraction)).abs() < 1e-6);
        felt.set_state(-1e-3, 0.0);
        assert_eq!(felt.memory(), 0.0);
    }

    /// A relaxing felt squeezed and released by an irregular wave, then left
    /// to come apart and forget, has taken in work: the loop of a relaxing felt
    /// dissipates, it never gives back more than it was given.
    #[test]
    fn relaxing_felt_dissipates_over_a_cycle() {
        let law = C4.with_relaxation(0.3, 1e-4);
        let mut felt = FeltRoot::new(law, 2e-3, FS, 0.0, 0.0);
        let (mut work, mut largest_stored, mut most_remembered) = (0.0f64, 0.0f64, 0.0f64);
        let (mut x_prev, mut f_prev) = (0.0, 0.0);
        for n in 0..2_000 {
            let t = n as f64 / FS;
            // A swing into contact and out, then apart.
            let a = if n < 1_000 {
                1.5 * (t * 2.0 * std::f64::consts::PI * 96.0).sin() + 0.3 * (t * 7_919.0).sin()
            } else {
                -1.0
            };
            felt.reflect(a);
            let (x, f) = (felt.compression(), felt.force());
            work += 0.5 * (f + f_prev) * (x - x_prev);
            (x_prev, f_prev) = (x, f);
            largest_stored = largest_stored.max(law.potential_energy(x));
            most_remembered = most_remembered.max(felt.memory());
        }
        assert!(largest_stored > 1e-4, "compressed: {largest_stored} J");
        assert_eq!(felt.force(), 0.0);
        assert!(felt.memory() < 1e-12 * most_remembered, "{}", felt.memory());
        assert!(
            work > 0.05 * largest_stored,
            "{work} J of {largest_stored} J"
        );
    }

    /// A felt relaxing faster than `1/β` lets go: no force, and the compression
    /// follows the incident wave as if open.
    #[test]
    fn fast_relaxation_lets_go() {
        let law = C4.with_hysteresis(0.5);
        let mut felt = FeltRoot::new(law, 2e-3, FS, 0.2e-3, -3.0);
        let b = felt.reflect(-3.0);
        assert_eq!(felt.force(), 0.0);
        assert_eq!(b, -3.0);
    }

    /// Energy ledger of a felt driven by an irregular incident wave through many
    /// compressions: the work done on it, `Σ ½(F[n]+F[n−1])·Δx`, less what it holds
    /// as elastic energy, is what it has dissipated. It never goes negative (beyond
    /// the trapezoid's rounding, 1e-6 of the largest stored energy): the felt never
    /// returns more than it stored. Without hysteresis it stays
    /// within 1e-4 of the largest stored energy of zero; with it, it grows.
    #[test]
    fn felt_never_returns_more_energy_than_it_stored() {
        for beta in [0.0, 0.1, 1.0] {
            let law = C4.with_hysteresis(beta);
            let mut felt = FeltRoot::new(law, 2e-3, FS, 0.0, 0.0);
            let mut seed = 0x2545_f491_4f6c_dd1du64;
            let (mut work, mut lowest, mut largest_stored) = (0.0f64, 0.0f64, 0.0f64);
            let (mut x_prev, mut f_prev) = (0.0, 0.0);
            for n in 0..20_000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let noise = (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
                // A slow swing through contact plus jitter, m/s.
                let a = 2.0 * (n as f64 * 2.0 * std::f64::consts::PI / 480.0).sin() + noise;
                felt.reflect(a);
                let (x, f) = (felt.compression(), felt.force());
                work += 0.5 * (f + f_prev) * (x - x_prev);
                (x_prev, f_prev) = (x, f);
                let stored = law.potential_energy(x);
                largest_stored = largest_stored.max(stored);
                lowest = lowest.min(work - stored);
            }
            let dissipated = work - law.potential_energy(x_prev);
            assert!(
                largest_stored > 1e-3,
                "the felt was compressed: {largest_stored} J"
            );
            assert!(
                lowest > -1e-6 * largest_stored,
                "β {beta}: energy created, {lowest} J of {largest_stored} J"
            );
            if beta == 0.0 {
                assert!(dissipated.abs() < 1e-4 * largest_stored, "{dissipated} J");
            } else {
                assert!(
                    dissipated > 0.05 * largest_stored,
                    "β {beta}: {dissipated} J"
                );
            }
        }
    }
}
