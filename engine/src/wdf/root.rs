//! Roots: the one element of a tree that need not be adaptable. It receives the
//! wave the whole tree sends up through the adapted top port and reflects one back.

use std::sync::Arc;

use super::fused::{MulAdd, Separate};
use super::pair_table::{PairTable, PairView};
use super::{Element, FeltRoot, diode_lanes, fused, omega_table};

/// Newton steps allowed to an implicit root per sample. From the closed-form seed
/// the solve converges in a handful; the bound only keeps a sample's cost finite.
const MAX_NEWTON_STEPS: usize = 50;

/// Relative step size at which Newton's method has converged (a few ulps).
const NEWTON_TOLERANCE: f64 = 1e-15;

/// The Wright omega function `ω(x)`, the solution of `ω + ln ω = x`, to a few ulps:
/// a piecewise seed refined by the third-order iteration of Fritsch, Shafer and
/// Crowley (two steps suffice from these seeds).
pub fn wright_omega(x: f64) -> f64 {
    let mut w = omega_seed(x);
    for _ in 0..3 {
        if w == 0.0 {
            break;
        }
        let z = x - w - w.ln();
        if z.abs() <= 1e-15 * x.abs().max(1.0) {
            break;
        }
        w = fritsch_step(w, z);
    }
    w
}

/// One third-order step of Fritsch, Shafer and Crowley from `w` with residual
/// `z = x − w − ln w`.
#[inline]
fn fritsch_step(w: f64, z: f64) -> f64 {
    let q = 2.0 * (1.0 + w) * (1.0 + w + (2.0 / 3.0) * z);
    w * (1.0 + z * (q - z) / ((1.0 + w) * (q - 2.0 * z)))
}

/// `ω(x)` to about 1e-7 relative: the piecewise seed and one Fritsch step.
#[inline]
fn omega_fast(x: f64) -> f64 {
    let w = omega_seed(x);
    if w == 0.0 {
        return 0.0;
    }
    fritsch_step(w, x - w - w.ln())
}

/// A piecewise first guess of `ω(x)`, within a few per cent.
#[inline]
fn omega_seed(x: f64) -> f64 {
    if x < -700.0 {
        return 0.0;
    }
    if x < -2.0 {
        let e = x.exp();
        e - e * e
    } else if x < 1.0 {
        // Parabola through ω(−2) ≈ 0.1200, ω(0) ≈ 0.5671 and ω(1) = 1.
        0.567_143 + x * (0.363_1 + 0.069_8 * x)
    } else {
        let l = x.ln();
        x - l + l / x
    }
}

/// The runtime form of a root element.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RootKind {
    /// `b = sign·a`: open (+1), short (−1), switch.
    Reflect { sign: f64 },
    /// `b = 2E − a`.
    IdealVoltage { volts: f64 },
    /// `b = a + 2·R·I`.
    IdealCurrent { amps: f64 },
    /// Resistive source or resistor with port resistance mismatch:
    /// `v = E + Re·i` against port resistance `R`.
    Resistive { ohms: f64, volts: f64 },
    /// `i = Is·(exp(v/Vt) − 1)`.
    Diode(DiodeModel),
    /// `i = 2·Is·sinh(v/Vt)`.
    DiodePair(DiodeModel),
    /// The hammer felt, with its own state.
    Felt(FeltRoot),
}

/// A root with the port resistance of the tree below it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Root {
    pub kind: RootKind,
    /// Whether the root is a switch (as opposed to a fixed open or short).
    is_switch: bool,
    pub port_resistance: f64,
    /// Waves of the last sample at the root port, root side.
    pub incident: f64,
    pub reflected: f64,
}

impl Root {
    pub fn new(element: &Element, port_resistance: f64, sample_rate: f64) -> Self {
        let kind = match *element {
            Element::Open => RootKind::Reflect { sign: 1.0 },
            Element::Short => RootKind::Reflect { sign: -1.0 },
            Element::Switch { closed } => RootKind::Reflect {
                sign: if closed { -1.0 } else { 1.0 },
            },
            Element::IdealVoltageSource { volts } => RootKind::IdealVoltage { volts },
            Element::IdealCurrentSource { amps } => RootKind::IdealCurrent { amps },
            Element::Resistor { ohms } => RootKind::Resistive { ohms, volts: 0.0 },
            Element::ResistiveVoltageSource { volts, ohms } => RootKind::Resistive { ohms, volts },
            Element::ResistiveCurrentSource { amps, ohms } => RootKind::Resistive {
                ohms,
                volts: amps * ohms,
            },
            Element::Diode {
                saturation_amps,
                thermal_volts,
            } => RootKind::Diode(DiodeModel::new(
                saturation_amps,
                thermal_volts,
                port_resistance,
            )),
            Element::DiodePair {
                saturation_amps,
                thermal_volts,
            } => RootKind::DiodePair(
                DiodeModel::new(saturation_amps, thermal_volts, port_resistance).with_pair_table(),
            ),
            Element::Felt { law } => {
                RootKind::Felt(FeltRoot::new(law, port_resistance, sample_rate, 0.0, 0.0))
            }
            // Reactive elements are rejected as roots when the tree is built.
            Element::Capacitor { .. } | Element::Inductor { .. } => RootKind::Reflect { sign: 1.0 },
        };
        Self {
            kind,
            is_switch: matches!(element, Element::Switch { .. }),
            port_resistance,
            incident: 0.0,
            reflected: 0.0,
        }
    }

    /// Follows a change of the tree's port resistance.
    pub fn set_port_resistance(&mut self, r: f64) {
        self.port_resistance = r;
        match &mut self.kind {
            RootKind::Felt(felt) => felt.set_port_resistance(r),
            RootKind::Diode(model) | RootKind::DiodePair(model) => {
                *model = model.at_port_resistance(r);
            }
            _ => {}
        }
    }

    /// Reflects `a`, the wave arriving from the tree, and remembers both waves.
    #[inline]
    pub fn reflect(&mut self, a: f64) -> f64 {
        let r = self.port_resistance;
        let b = match &mut self.kind {
            RootKind::Reflect { sign } => *sign * a,
            RootKind::IdealVoltage { volts } => 2.0 * *volts - a,
            RootKind::IdealCurrent { amps } => a + 2.0 * r * *amps,
            RootKind::Resistive { ohms, volts } => {
                // v = E + Re·i and a = v + R·i give b = v − R·i.
                let i = (a - *volts) / (*ohms + r);
                a - 2.0 * r * i
            }
            RootKind::Diode(model) => 2.0 * model.solve_single(a) - a,
            RootKind::DiodePair(model) => 2.0 * model.solve_pair(a) - a,
            RootKind::Felt(felt) => felt.reflect(a),
        };
        self.incident = a;
        self.reflected = b;
        b
    }

    /// The tabulated solve when this root is a diode pair with a table matching
    /// its port (a kernel then solves it inline).
    pub(crate) fn tabulated_pair(&self) -> Option<PairSolver<'_>> {
        match &self.kind {
            RootKind::DiodePair(model) => model.pair_solver(),
            _ => None,
        }
    }

    /// Opens or closes a switch root; returns false if the root is not a switch.
    pub fn set_switch(&mut self, closed: bool) -> bool {
        match (&mut self.kind, self.is_switch) {
            (RootKind::Reflect { sign }, true) => {
                *sign = if closed { -1.0 } else { 1.0 };
                true
            }
            _ => false,
        }
    }

    /// Sets an ideal source root's voltage (V) or current (A); returns false if the
    /// root is not an ideal source.
    pub fn set_source(&mut self, value: f64) -> bool {
        match &mut self.kind {
            RootKind::IdealVoltage { volts } => *volts = value,
            RootKind::IdealCurrent { amps } => *amps = value,
            _ => return false,
        }
        true
    }

    /// The root as an element with its present values (a switch as it is now set,
    /// an ideal source at its present value); `built` is what it was built from.
    pub fn present_element(&self, built: &Element) -> Element {
        match self.kind {
            RootKind::Reflect { sign } if self.is_switch => Element::Switch { closed: sign < 0.0 },
            RootKind::IdealVoltage { volts } => Element::IdealVoltageSource { volts },
            RootKind::IdealCurrent { amps } => Element::IdealCurrentSource { amps },
            _ => *built,
        }
    }

    /// For a linear, memoryless root, its reflection `b = ρ·a + c` as `(ρ, c)`.
    pub fn affine(&self) -> Option<(f64, f64)> {
        let r = self.port_resistance;
        match self.kind {
            RootKind::Reflect { sign } => Some((sign, 0.0)),
            RootKind::IdealVoltage { volts } => Some((-1.0, 2.0 * volts)),
            RootKind::IdealCurrent { amps } => Some((1.0, 2.0 * r * amps)),
            RootKind::Resistive { ohms, volts } => {
                Some(((ohms - r) / (ohms + r), 2.0 * r * volts / (ohms + r)))
            }
            _ => None,
        }
    }

    /// Records a sample's waves computed elsewhere (a kernel that folded the
    /// root's affine reflection into its matrices).
    pub fn record(&mut self, incident: f64, reflected: f64) {
        self.incident = incident;
        self.reflected = reflected;
    }

    /// Reflects a wave for each of many voices sharing this (memoryless) root.
    /// The last voice's waves are remembered.
    pub fn reflect_lanes(&mut self, incident: &[f64], reflected: &mut [f64]) {
        if let RootKind::DiodePair(model) = &self.kind {
            model.solve_pair_lanes(incident, reflected);
            for (b, &a) in reflected.iter_mut().zip(incident) {
                *b = 2.0 * *b - a;
            }
            if let (Some(&a), Some(&b)) = (incident.last(), reflected.last()) {
                self.record(a, b);
            }
        } else {
            for (b, &a) in reflected.iter_mut().zip(incident) {
                *b = self.reflect(a);
            }
        }
    }

    /// Takes over the last sample's waves of `old` (a root of the same kind, at
    /// the same voltage and current through this port's resistance) and the
    /// felt's state; this root's values (law, switch, sources) stay.
    pub fn continue_from(&mut self, old: &Root) {
        (self.incident, self.reflected) = super::bct::rematched(
            (old.incident, old.reflected),
            old.port_resistance,
            self.port_resistance,
        );
        if let (RootKind::Felt(felt), RootKind::Felt(old_felt)) = (&mut self.kind, &old.kind) {
            felt.continue_from(old_felt);
        }
    }

    /// Forgets the last sample and any internal state.
    pub fn reset(&mut self) {
        self.incident = 0.0;
        self.reflected = 0.0;
        if let RootKind::Felt(felt) = &mut self.kind {
            felt.set_state(0.0, 0.0);
        }
    }
}

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
    fn new(saturation_amps: f64, thermal_volts: f64, port_resistance: f64) -> Self {
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
    fn with_pair_table(mut self) -> Self {
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
    fn at_port_resistance(&self, port_resistance: f64) -> Self {
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
    pub fn pair_solver(&self) -> Option<PairSolver<'_>> {
        let table = self.pair_table.as_ref().filter(|_| self.table_matches)?;
        Some(PairSolver {
            table: table.view(),
            model: self,
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

/// A diode pair's tabulated solve, set up for a block of samples.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PairSolver<'a> {
    table: PairView<'a>,
    model: &'a DiodeModel,
}

impl PairSolver<'_> {
    /// Voltage across the pair for incident wave `a`: from the table, or by
    /// Newton's method above it.
    #[inline(always)]
    pub fn solve<M: MulAdd>(&self, a: f64) -> f64 {
        match self.table.voltage::<M>(a.abs()) {
            Some(v) => v.copysign(a),
            None => self.model.solve_pair_newton(a),
        }
    }

    /// The wave the pair reflects for incident wave `a`.
    #[inline(always)]
    pub fn reflect<M: MulAdd>(&self, a: f64) -> f64 {
        M::mul_add(2.0, self.solve::<M>(a), -a)
    }

    /// Reflects four incident waves in place: in vector registers when compiled
    /// with FMA and all four lie in the table, one by one otherwise.
    #[inline(always)]
    pub fn reflect4<M: MulAdd>(&self, waves: &mut [f64; 4]) {
        #[cfg(target_arch = "x86_64")]
        if M::FUSED {
            // SAFETY: `Fused` code runs only where FMA and AVX2 were detected.
            if let Some(v) = unsafe { self.table.voltage4(waves.map(f64::abs)) } {
                for (a, v) in waves.iter_mut().zip(v) {
                    *a = M::mul_add(2.0, v.copysign(*a), -*a);
                }
                return;
            }
        }
        for a in waves {
            *a = self.reflect::<M>(*a);
        }
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

/// Newton's method on an increasing function with a root in `[lo, hi]`, from
/// `seed`, safeguarded by bisection: each step narrows the bracket, and a Newton
/// step that leaves it (or overflows) is replaced by its midpoint. `f` returns the
/// residual and its derivative.
fn newton_in_bracket(seed: f64, mut lo: f64, mut hi: f64, f: impl Fn(f64) -> (f64, f64)) -> f64 {
    let mut v = if seed.is_finite() {
        seed.clamp(lo, hi)
    } else {
        0.5 * (lo + hi)
    };
    for _ in 0..MAX_NEWTON_STEPS * 4 {
        let (g, slope) = f(v);
        if g.is_nan() || g > 0.0 {
            hi = v;
        } else {
            lo = v;
        }
        let newton = v - g / slope;
        let next = if newton.is_finite() && newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        let step = (next - v).abs();
        v = next;
        if step <= NEWTON_TOLERANCE * v.abs()
            || step == 0.0
            || hi - lo <= NEWTON_TOLERANCE * hi.abs()
        {
            break;
        }
    }
    v
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

    #[test]
    fn wright_omega_solves_its_equation() {
        for &x in &[-30.0, -5.0, -2.0, -0.5, 0.0, 0.7, 1.0, 3.0, 50.0, 700.0] {
            let w = wright_omega(x);
            assert!(
                ((w + w.ln() - x) / x.abs().max(1.0)).abs() < 1e-14,
                "x = {x}: {w}"
            );
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

    /// A diode-pair root reflects from its table to within 1e-13 of the exact
    /// solve; after a run-time change of port resistance (which the table was
    /// not built for) it reflects exactly at the new port, without allocating,
    /// and back at the original port it uses the table again.
    #[test]
    fn tabulated_pair_root_follows_a_new_port_resistance() {
        let pair = Element::DiodePair {
            saturation_amps: 2.52e-9,
            thermal_volts: 0.025_85,
        };
        let mut root = Root::new(&pair, 211.6, 48_000.0);
        assert!(root.tabulated_pair().is_some());
        let waves = [-7.0, -0.61, -1e-4, 3e-9, 0.02, 0.45, 1.3, 90.0, 300.0];
        for &a in &waves {
            let exact = 2.0 * solve_diode_pair(a, 211.6, 2.52e-9, 0.025_85) - a;
            let b = root.reflect(a);
            assert!(
                (b - exact).abs() <= 1e-13 * a.abs(),
                "a = {a}: {b} vs {exact}"
            );
        }
        root.set_port_resistance(1_000.0);
        assert!(root.tabulated_pair().is_none());
        for &a in &waves {
            let exact = 2.0 * solve_diode_pair(a, 1_000.0, 2.52e-9, 0.025_85) - a;
            assert_eq!(root.reflect(a), exact, "a = {a}");
        }
        // Back at the port it was built for, the table is used again.
        root.set_port_resistance(211.6);
        assert!(root.tabulated_pair().is_some());
    }
}
