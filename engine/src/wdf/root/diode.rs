//! Diode roots: a single diode (`i = Is·(exp(v/Vt) − 1)`) or an antiparallel
//! pair (`i = 2·Is·sinh(v/Vt)`) at a port of resistance `R`, solved per sample
//! from the closed-form Wright omega seed, polished by Newton's method, and for
//! the pair tabulated when the tree is built.

use std::sync::Arc;

use super::newton::newton_in_bracket;
use super::omega::omega_fast;
use super::pair_solver::{ExactPair, PairSolver};
use crate::wdf::fused::{MulAdd, Separate};
use crate::wdf::pair_table::PairTable;
use crate::wdf::{diode_lanes, fused, omega_table};

/// A diode (or antiparallel pair) at a port of resistance `R`, with the constants
/// its per-sample solve needs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DiodeModel {
    saturation_amps: f64,
    thermal_volts: f64,
    inverse_thermal: f64,
    /// `R·Is`, V.
    r_is: f64,
    /// `ln(R·Is/Vt)`.
    log_ratio: f64,
    /// The tabulated Wright omega function that seeds every solve.
    omega: &'static [[f64; 4]],
    /// Whether this processor runs the vector lanes (AVX2 and FMA).
    vector: bool,
    /// The pair's solution tabulated when the tree was built (off the audio
    /// thread), and whether its `κ` is this model's: a change of port
    /// resistance at run time falls back to the Newton solve rather than
    /// rebuild (or free) a table on the audio thread, and returning to the
    /// original resistance uses the table again.
    pair_table: Option<Arc<PairTable>>,
    table_matches: bool,
}

/// `exp(d) − 1` for |d| ≤ 1e-3, to within 1e-16 relative (Taylor to the fifth
/// order).
#[inline]
fn exp_m1_small(d: f64) -> f64 {
    d * (1.0 + d * (0.5 + d * (1.0 / 6.0 + d * (1.0 / 24.0 + d * (1.0 / 120.0)))))
}

impl DiodeModel {
    pub(crate) fn new(saturation_amps: f64, thermal_volts: f64, port_resistance: f64) -> Self {
        let r_is = port_resistance * saturation_amps;
        Self {
            omega: omega_table::table(),
            vector: fused::available(),
            saturation_amps,
            thermal_volts,
            inverse_thermal: 1.0 / thermal_volts,
            r_is,
            log_ratio: (r_is / thermal_volts).ln(),
            pair_table: None,
            table_matches: false,
        }
    }

    /// The same model with its pair solution tabulated (see [`PairTable`]).
    /// Allocates and runs thousands of exact solves: call when building a tree.
    pub(super) fn with_pair_table(mut self) -> Self {
        let exact = |a: f64| self.solve_pair_newton(a);
        self.pair_table = PairTable::build(self.kappa(), self.thermal_volts, exact).map(Arc::new);
        self.match_table();
        self
    }

    /// `κ = 2·R·Is/Vt` at this port.
    fn kappa(&self) -> f64 {
        2.0 * self.r_is * self.inverse_thermal
    }

    /// Uses the table only if it was built for this model's `κ`.
    fn match_table(&mut self) {
        let kappa = self.kappa();
        self.table_matches = self.pair_table.as_ref().is_some_and(|t| t.kappa() == kappa);
    }

    /// The same diodes at another port resistance, keeping (but no longer using)
    /// any table: allocation-free, for the audio thread.
    pub(super) fn at_port_resistance(&self, port_resistance: f64) -> Self {
        let mut model = Self::new(self.saturation_amps, self.thermal_volts, port_resistance);
        model.pair_table = self.pair_table.clone();
        model.match_table();
        model
    }

    /// The closed-form single-diode solution for incident wave `a` through the
    /// Wright omega function (tabulated to 1e-8, or computed to 1e-7 outside the
    /// table), and `exp(v/Vt) − 1` there.
    #[inline]
    fn closed_form(&self, a: f64) -> (f64, f64) {
        let x = self.log_ratio + (a + self.r_is) * self.inverse_thermal;
        let omega = omega_table::interpolate(self.omega, x).unwrap_or_else(|| omega_fast(x));
        let v = a + self.r_is - self.thermal_volts * omega;
        (v, (v * self.inverse_thermal).exp_m1())
    }

    /// Voltage across a single diode: the root of `v + R·Is·(exp(v/Vt) − 1) = a`,
    /// exact to a few ulps.
    #[inline]
    pub fn solve_single(&self, a: f64) -> f64 {
        let (v0, m0) = self.closed_form(a);
        let step = |v: f64, m: f64, _inverse: f64| {
            (v + self.r_is * m - a) / (1.0 + self.r_is * self.inverse_thermal * (1.0 + m))
        };
        self.polish(v0, m0, step, a)
            .unwrap_or_else(|| self.robust(a, false))
    }

    /// Voltage across an antiparallel pair: the root of `v + 2·R·Is·sinh(v/Vt) = a`,
    /// exact to a few ulps (from the table where the tree has one, to 1e-13
    /// relative). Without a table: the single-diode solution for `|a|` differs from it by
    /// less than `R·Is` (the reverse diode's share) and seeds two Newton steps.
    #[inline(always)]
    pub fn solve_pair(&self, a: f64) -> f64 {
        self.solve_pair_with::<Separate>(a)
    }

    /// [`DiodeModel::solve_pair`] with multiply-adds of kind `M`.
    #[inline(always)]
    pub fn solve_pair_with<M: MulAdd>(&self, a: f64) -> f64 {
        match self.pair_solver() {
            Some(solver) => solver.solve::<M>(a),
            None => self.solve_pair_newton(a),
        }
    }

    /// The tabulated solve, if the table matches the port.
    #[inline(always)]
    pub fn pair_solver(&self) -> Option<PairSolver<'_, Self>> {
        let table = self.pair_table.as_ref().filter(|_| self.table_matches)?;
        Some(PairSolver {
            table: table.view(),
            exact: self,
        })
    }

    /// [`DiodeModel::solve_pair`] without the table: the closed-form seed and
    /// Newton's polish.
    #[inline(never)]
    fn solve_pair_newton(&self, a: f64) -> f64 {
        let magnitude = a.abs();
        let (v0, m0) = self.closed_form(magnitude);
        let step = |v: f64, m: f64, inverse: f64| {
            // With e = exp(v/Vt) = 1 + m: e − 1/e = m·(1 + 1/e), accurate near 0.
            (v + self.r_is * m * (1.0 + inverse) - magnitude)
                / (1.0 + self.r_is * self.inverse_thermal * (1.0 + m + inverse))
        };
        self.polish(v0, m0, step, magnitude)
            .unwrap_or_else(|| self.robust(magnitude, true))
            .copysign(a)
    }

    /// Solves many independent pairs: `v[k]` for incident wave `a[k]`. Four at a
    /// time in vector registers where the processor allows (lanes the vector path
    /// flags are redone by [`DiodeModel::solve_pair`]), one at a time otherwise.
    pub fn solve_pair_lanes(&self, a: &[f64], v: &mut [f64]) {
        #[cfg(target_arch = "x86_64")]
        if self.vector {
            let constants = diode_lanes::PairConstants {
                r_is: self.r_is,
                inverse_thermal: self.inverse_thermal,
                thermal: self.thermal_volts,
                log_ratio: self.log_ratio,
            };
            // SAFETY: `vector` is only set when AVX2 and FMA were detected.
            unsafe {
                diode_lanes::solve_pairs(&constants, self.omega, a, v, |a| self.solve_pair(a));
            }
            return;
        }
        for (v, &a) in v.iter_mut().zip(a) {
            *v = self.solve_pair(a);
        }
    }

    /// Two Newton steps from a seed within about 1e-6 V, carrying
    /// `m = exp(v/Vt) − 1` (and its reciprocal) along by Taylor series instead of
    /// calling `exp` or dividing again
    /// (and without the cancellation of `exp − 1` for small `v`). Newton's error
    /// after a step of size `s` is at most `s²/(2·Vt)` (the curvature of either
    /// diode law), so two steps from such a seed leave far less than an ulp.
    /// Returns `None` when the seed was not close enough for that to hold.
    #[inline]
    fn polish(&self, v0: f64, m0: f64, step: impl Fn(f64, f64, f64) -> f64, a: f64) -> Option<f64> {
        // `1/exp(v/Vt)` is carried along too (the pair needs it; for a single
        // diode the compiler drops it).
        let inverse0 = 1.0 / (1.0 + m0);
        let s1 = step(v0, m0, inverse0);
        let d1 = -s1 * self.inverse_thermal;
        if d1.is_nan() || d1.abs() > 1e-3 {
            return None;
        }
        let v1 = v0 - s1;
        let m1 = m0 + (1.0 + m0) * exp_m1_small(d1);
        let inverse1 = inverse0 * (1.0 + exp_m1_small(-d1));
        let v2 = v1 - step(v1, m1, inverse1);
        // The root lies between 0 and a.
        let (lo, hi) = if a >= 0.0 { (0.0, a) } else { (a, 0.0) };
        Some(v2.clamp(lo, hi))
    }

    /// Bracketed Newton for inputs the fast path does not cover, from the
    /// closed-form single-diode solution (an upper bound for the pair).
    fn robust(&self, a: f64, pair: bool) -> f64 {
        let (lo, hi) = if a >= 0.0 { (0.0, a) } else { (a, 0.0) };
        let (r_is, vt) = (self.r_is, self.thermal_volts);
        newton_in_bracket(self.closed_form(a).0, lo, hi, |v| {
            let e = (v / vt).exp();
            if pair {
                let inverse = 1.0 / e;
                (
                    v + r_is * (e - inverse) - a,
                    1.0 + r_is * (e + inverse) / vt,
                )
            } else {
                (v + r_is * (e - 1.0) - a, 1.0 + r_is * e / vt)
            }
        })
    }
}

impl ExactPair for DiodeModel {
    #[inline(always)]
    fn solve_pair_exact(&self, a: f64) -> f64 {
        self.solve_pair_newton(a)
    }
}

/// Voltage across a diode at a port of resistance `r` (Ω) with incident wave `a`
/// (V), for saturation current `saturation_amps` and thermal voltage
/// `thermal_volts`: the root of `v + r·Is·(exp(v/Vt) − 1) = a`, exact to a few ulps.
pub fn solve_diode(a: f64, r: f64, saturation_amps: f64, thermal_volts: f64) -> f64 {
    DiodeModel::new(saturation_amps, thermal_volts, r).solve_single(a)
}

/// Voltage across an antiparallel diode pair at a port of resistance `r` with
/// incident wave `a`: the root of `v + 2·r·Is·sinh(v/Vt) = a`, exact to a few ulps.
pub fn solve_diode_pair(a: f64, r: f64, saturation_amps: f64, thermal_volts: f64) -> f64 {
    DiodeModel::new(saturation_amps, thermal_volts, r).solve_pair(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lane-wise solve (vector registers where available) agrees with the
    /// scalar one to a few ulps, including lanes it hands back to the scalar code.
    #[test]
    fn lanes_agree_with_scalar_solves() {
        for &(r, is) in &[(211.6, 2.52e-9), (1.0, 1e-12), (1e8, 1e-6)] {
            let model = DiodeModel::new(is, 0.025_85, r);
            let a: Vec<f64> = (-2000..2000)
                .map(|k| 1e-3 * k as f64 * (1.0 + (k as f64 * 0.37).sin().abs()))
                .chain([0.0, -0.0, 1e-12, 1e3, -1e5, 1e7])
                .collect();
            let mut lanes = vec![0.0; a.len()];
            model.solve_pair_lanes(&a, &mut lanes);
            for (&a, &v) in a.iter().zip(&lanes) {
                let scalar = model.solve_pair(a);
                assert!(
                    (v - scalar).abs() <= 4.0 * f64::EPSILON * scalar.abs() + 1e-300,
                    "r={r} a={a}: {v} vs {scalar}"
                );
            }
        }
    }

    /// Including port resistances and waves far outside audio circuits, where the
    /// fast path hands over to the safeguarded solve (a pair at 100 MΩ with a
    /// 1 kV wave once returned NaN).
    #[test]
    fn diode_solutions_satisfy_their_equations_to_1e_12() {
        for &(is, vt) in &[(2.52e-9, 0.025_85), (1e-6, 0.025)] {
            for &r in &[1e-3, 1.0, 4_700.0, 1e6, 1e8] {
                for &a in &[-5.0, -0.3, -1e-6, 0.0, 1e-6, 0.2, 0.7, 3.0, 40.0, 1e3, 1e7] {
                    let v = solve_diode(a, r, is, vt);
                    let lhs = v + r * is * (v / vt).exp_m1();
                    assert!(
                        (lhs - a).abs() <= 1e-12 * a.abs().max(1e-3),
                        "single r={r} a={a}: {lhs}"
                    );
                    let v = solve_diode_pair(a, r, is, vt);
                    let lhs = v + 2.0 * r * is * (v / vt).sinh();
                    assert!(
                        (lhs - a).abs() <= 1e-12 * a.abs().max(1e-3),
                        "pair r={r} a={a}: {lhs}"
                    );
                }
            }
        }
    }
}
