//! The three-port series adaptor with one adapted port.

/// A series junction of three ports (the same current through all, voltages summing
/// to zero) whose third port is adapted: `R3 = R1 + R2`, so the wave it reflects at
/// port 3 does not depend on the wave incident there. Port 3 faces the root.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeriesAdaptor3 {
    /// `R1 / R3`: the share of the total wave returned to port 1.
    gamma1: f64,
    /// `R2 / R3`.
    gamma2: f64,
    adapted_resistance: f64,
}

impl SeriesAdaptor3 {
    /// Joins ports of resistances `r1` and `r2` (both > 0).
    pub fn new(r1: f64, r2: f64) -> Self {
        let r3 = r1 + r2;
        Self {
            gamma1: r1 / r3,
            gamma2: r2 / r3,
            adapted_resistance: r3,
        }
    }

    /// The port resistance of the adapted port, `R1 + R2`.
    pub fn adapted_resistance(&self) -> f64 {
        self.adapted_resistance
    }

    /// Forward scan: the wave sent up to the root from the waves `a1`, `a2` arriving
    /// at the two child ports.
    #[inline]
    pub fn reflect_up(&self, a1: f64, a2: f64) -> f64 {
        -(a1 + a2)
    }

    /// Backward scan: the waves sent down to ports 1 and 2, given all three incident
    /// waves (`a3` is what the root returned).
    #[inline]
    pub fn scatter_down(&self, a1: f64, a2: f64, a3: f64) -> (f64, f64) {
        let total = a1 + a2 + a3;
        (a1 - self.gamma1 * total, a2 - self.gamma2 * total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kirchhoff's laws hold at the junction: the same current through every port
    /// and port voltages that sum to zero, for any incident waves.
    #[test]
    fn satisfies_series_kirchhoff_laws() {
        let (r1, r2) = (3.0, 0.5);
        let adaptor = SeriesAdaptor3::new(r1, r2);
        let r3 = adaptor.adapted_resistance();
        for &(a1, a2, a3) in &[(1.0, 0.0, 0.0), (0.3, -2.0, 0.7), (-1.0, 4.0, 2.5)] {
            let b3 = adaptor.reflect_up(a1, a2);
            let (b1, b2) = adaptor.scatter_down(a1, a2, a3);
            let v = |a: f64, b: f64| 0.5 * (a + b);
            let i = |a: f64, b: f64, r: f64| (a - b) / (2.0 * r);
            let sum_v = v(a1, b1) + v(a2, b2) + v(a3, b3);
            assert!(sum_v.abs() < 1e-12);
            let (i1, i2, i3) = (i(a1, b1, r1), i(a2, b2, r2), i(a3, b3, r3));
            assert!((i1 - i2).abs() < 1e-12 && (i2 - i3).abs() < 1e-12);
        }
    }
}
