//! The felt of a hammer as the nonlinear, reactive root of a wave-digital tree.

/// The static compression law of hammer felt, `F = K·x^p` for compression `x > 0`
/// and no force otherwise (the felt only pushes).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FeltLaw {
    /// Stiffness `K` in N/m^p.
    pub stiffness: f64,
    /// Exponent `p` (dimensionless, 2.2–3.5 for played-in piano hammers).
    pub exponent: f64,
}

impl FeltLaw {
    /// The force (N) at compression `x` (m).
    #[inline]
    pub fn force(&self, compression: f64) -> f64 {
        if compression > 0.0 {
            self.stiffness * compression.powf(self.exponent)
        } else {
            0.0
        }
    }
}

/// Iterations allowed to the Newton solve of one sample. Convergence from the
/// closed-form seed is monotone and quadratic; this bound is never reached in
/// practice but keeps the cost of a sample bounded.
const MAX_NEWTON_STEPS: usize = 60;

/// The felt between a hammer and what it strikes, as the root of a series tree.
///
/// The felt is a nonlinear spring, in the mobility analogy a nonlinear inductor:
/// its across quantity is the compression rate `v = ẋ` (m/s) and its through
/// quantity the contact force `i = F = law(x)` (N). Below it, the hammer mass and
/// the struck object hang in series: the same force acts on both, and the
/// compression rate is the hammer's velocity less the object's.
/// The compression is integrated by the trapezoidal rule, consistent with the
/// bilinear transform of the reactive leaves, and each sample's implicit equation
/// `x + c·law(x) = s` is solved exactly by Newton's method from an upper bound, which
/// converges monotonically because the left side is convex and increasing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FeltRoot {
    law: FeltLaw,
    port_resistance: f64,
    /// Half the sample period, s.
    half_period: f64,
    /// Compression `x` (m); negative values are the gap between felt and string.
    compression: f64,
    /// Compression rate `ẋ` (m/s); positive while closing.
    compression_rate: f64,
    /// Contact force of the last sample (N).
    force: f64,
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
            law,
            port_resistance,
            half_period: 0.5 / sample_rate,
            compression,
            compression_rate,
            force: law.force(compression),
        }
    }

    /// Places the felt at `compression` (m, negative for a gap), closing at
    /// `compression_rate` (m/s): the start of a strike.
    pub fn set_state(&mut self, compression: f64, compression_rate: f64) {
        self.compression = compression;
        self.compression_rate = compression_rate;
        self.force = self.law.force(compression);
    }

    /// Follows a change of the port resistance of the tree below (s/kg).
    pub fn set_port_resistance(&mut self, port_resistance: f64) {
        self.port_resistance = port_resistance;
    }

    /// The compression law.
    pub fn law(&self) -> FeltLaw {
        self.law
    }

    /// Compression (m): positive while the felt is squeezed, negative for a gap.
    pub fn compression(&self) -> f64 {
        self.compression
    }

    /// Compression rate (m/s), positive while hammer and string approach.
    pub fn compression_rate(&self) -> f64 {
        self.compression_rate
    }

    /// Contact force of the last sample (N), zero when not in contact.
    pub fn force(&self) -> f64 {
        self.force
    }

    /// Reflects the wave `incident` arriving from the tree and advances the felt by
    /// one sample. Returns the wave sent back into the tree.
    #[inline]
    pub fn reflect(&mut self, incident: f64) -> f64 {
        // Port: v = ẋ, i = F, so a = ẋ + R·F and b = ẋ − R·F = a − 2·R·F. The
        // trapezoidal rule x[n] = x[n−1] + T/2·(ẋ[n] + ẋ[n−1]) with ẋ[n] = a − R·F(x[n])
        // leaves x + (T·R/2)·F(x) = x[n−1] + T/2·(ẋ[n−1] + a) to solve.
        let r = self.port_resistance;
        let predicted = self.compression + self.half_period * (self.compression_rate + incident);
        let c = self.half_period * r;
        let x = self.solve(predicted, c);
        let force = self.law.force(x);
        self.compression = x;
        self.compression_rate = incident - r * force;
        self.force = force;
        incident - 2.0 * r * force
    }

    /// Solves `x + c·law(x) = s` for `x`.
    #[inline]
    fn solve(&self, s: f64, c: f64) -> f64 {
        if s <= 0.0 {
            // No compression: the law is zero and the equation is x = s.
            return s;
        }
        let FeltLaw {
            stiffness,
            exponent,
        } = self.law;
        let ck = c * stiffness;
        // Both `s` and `(s/ck)^(1/p)` bound the root from above (each term of the
        // left side is positive); the smaller one is the closed-form seed.
        let mut x = s.min((s / ck).powf(1.0 / exponent));
        for _ in 0..MAX_NEWTON_STEPS {
            let x_pm1 = x.powf(exponent - 1.0);
            let g = x + ck * x_pm1 * x - s;
            let slope = 1.0 + ck * exponent * x_pm1;
            let step = g / slope;
            x -= step;
            if step.abs() <= 1e-15 * x.abs() {
                break;
            }
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> FeltRoot {
        let law = FeltLaw {
            stiffness: 4.5e9,
            exponent: 2.5,
        };
        FeltRoot::new(law, 2e-3, 48_000.0, -1e-3, 3.0)
    }

    /// Apart, the felt carries no force and reflects like an open circuit.
    #[test]
    fn open_circuit_while_apart() {
        let mut felt = root();
        let b = felt.reflect(3.0);
        assert_eq!(b, 3.0);
        assert_eq!(felt.force(), 0.0);
        assert!(felt.compression() < -1e-3 + 3.0 / 48_000.0 + 1e-12);
    }

    /// In contact, the solved compression satisfies the trapezoidal update and the
    /// felt law to 1e-12 relative.
    #[test]
    fn implicit_solution_is_exact() {
        let mut felt = FeltRoot::new(
            FeltLaw {
                stiffness: 4.5e9,
                exponent: 2.5,
            },
            2e-3,
            48_000.0,
            0.5e-3,
            2.0,
        );
        let (x0, v0) = (felt.compression(), felt.compression_rate());
        let a = 2.5;
        let b = felt.reflect(a);
        let (x1, v1) = (felt.compression(), felt.compression_rate());
        let trapezoid = x0 + 0.5 / 48_000.0 * (v0 + v1);
        assert!(((x1 - trapezoid) / x1).abs() < 1e-12);
        // Port relations: v = (a+b)/2 = ẋ, i = (a−b)/(2R) = F.
        assert!(((0.5 * (a + b) - v1) / v1).abs() < 1e-12);
        let f = felt.force();
        assert!((((a - b) / (2.0 * 2e-3) - f) / f).abs() < 1e-12);
        assert!((f - 4.5e9 * x1.powf(2.5)).abs() / f < 1e-12);
    }
}
