//! Roots: the one element of a tree that need not be adaptable. It receives the
//! wave the whole tree sends up through the adapted top port and reflects one back.

use super::{Element, FeltRoot};

/// Newton steps allowed to an implicit root per sample. From the closed-form seed
/// the solve converges in a handful; the bound only keeps a sample's cost finite.
const MAX_NEWTON_STEPS: usize = 50;

/// Relative step size at which Newton's method has converged (a few ulps).
const NEWTON_TOLERANCE: f64 = 1e-15;

/// The Wright omega function `ω(x)`, the solution of `ω + ln ω = x`, to a few ulps:
/// a piecewise seed refined by the third-order iteration of Fritsch, Shafer and
/// Crowley (two steps suffice from these seeds). Seeds the exact diode solves.
pub fn wright_omega(x: f64) -> f64 {
    if x < -700.0 {
        return 0.0;
    }
    let mut w = if x < -2.0 {
        let e = x.exp();
        e - e * e
    } else if x < 1.0 {
        // Parabola through ω(−2) ≈ 0.1200, ω(0) ≈ 0.5671 and ω(1) = 1.
        0.567_143 + x * (0.363_1 + 0.069_8 * x)
    } else {
        let l = x.ln();
        x - l + l / x
    };
    for _ in 0..3 {
        let z = x - w - w.ln();
        if z.abs() <= 1e-15 * x.abs().max(1.0) {
            break;
        }
        let q = 2.0 * (1.0 + w) * (1.0 + w + (2.0 / 3.0) * z);
        w *= 1.0 + z / (1.0 + w) * (q - z) / (q - 2.0 * z);
    }
    w
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
    Diode {
        saturation_amps: f64,
        thermal_volts: f64,
    },
    /// `i = 2·Is·sinh(v/Vt)`.
    DiodePair {
        saturation_amps: f64,
        thermal_volts: f64,
    },
    /// The hammer felt, with its own state.
    Felt(FeltRoot),
}

/// A root with the port resistance of the tree below it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Root {
    pub kind: RootKind,
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
            } => RootKind::Diode {
                saturation_amps,
                thermal_volts,
            },
            Element::DiodePair {
                saturation_amps,
                thermal_volts,
            } => RootKind::DiodePair {
                saturation_amps,
                thermal_volts,
            },
            Element::Felt { law } => {
                RootKind::Felt(FeltRoot::new(law, port_resistance, sample_rate, 0.0, 0.0))
            }
            // Reactive elements are rejected as roots when the tree is built.
            Element::Capacitor { .. } | Element::Inductor { .. } => RootKind::Reflect { sign: 1.0 },
        };
        Self {
            kind,
            port_resistance,
            incident: 0.0,
            reflected: 0.0,
        }
    }

    /// Follows a change of the tree's port resistance.
    pub fn set_port_resistance(&mut self, r: f64) {
        self.port_resistance = r;
        if let RootKind::Felt(felt) = &mut self.kind {
            felt.set_port_resistance(r);
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
            RootKind::Diode {
                saturation_amps,
                thermal_volts,
            } => 2.0 * solve_diode(a, r, *saturation_amps, *thermal_volts) - a,
            RootKind::DiodePair {
                saturation_amps,
                thermal_volts,
            } => 2.0 * solve_diode_pair(a, r, *saturation_amps, *thermal_volts) - a,
            RootKind::Felt(felt) => felt.reflect(a),
        };
        self.incident = a;
        self.reflected = b;
        b
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

/// Voltage across a diode at a port of resistance `r` with incident wave `a`:
/// the root of `v + r·Is·(exp(v/Vt) − 1) = a`, exact to a few ulps.
///
/// Seeded by the closed form through the Wright omega function, then polished by
/// Newton's method kept inside the bracket between 0 and `a`, where the root lies.
#[inline]
pub fn solve_diode(a: f64, r: f64, saturation_amps: f64, thermal_volts: f64) -> f64 {
    let r_is = r * saturation_amps;
    let seed = a + r_is
        - thermal_volts * wright_omega((r_is / thermal_volts).ln() + (a + r_is) / thermal_volts);
    let (lo, hi) = if a >= 0.0 { (0.0, a) } else { (a, 0.0) };
    newton_in_bracket(seed, lo, hi, |v| {
        let e = (v / thermal_volts).exp();
        (v + r_is * (e - 1.0) - a, 1.0 + r_is * e / thermal_volts)
    })
}

/// Voltage across an antiparallel diode pair at a port of resistance `r` with
/// incident wave `a`: the root of `v + 2·r·Is·sinh(v/Vt) = a`, exact to a few ulps.
///
/// The single-diode solution for `|a|` bounds it from above in magnitude (the pair
/// conducts more), so Newton's method descends monotonically from that seed.
#[inline]
pub fn solve_diode_pair(a: f64, r: f64, saturation_amps: f64, thermal_volts: f64) -> f64 {
    let magnitude = a.abs();
    let seed = solve_diode_seed(magnitude, r, saturation_amps, thermal_volts);
    let two_r_is = 2.0 * r * saturation_amps;
    let v = newton_in_bracket(seed, 0.0, magnitude, |v| {
        let e = (v / thermal_volts).exp();
        let inverse = 1.0 / e;
        (
            v + two_r_is * 0.5 * (e - inverse) - magnitude,
            1.0 + two_r_is * 0.5 * (e + inverse) / thermal_volts,
        )
    });
    v.copysign(a)
}

/// The closed-form (Wright omega) single-diode solution, without polishing.
#[inline]
fn solve_diode_seed(a: f64, r: f64, saturation_amps: f64, thermal_volts: f64) -> f64 {
    let r_is = r * saturation_amps;
    (a + r_is
        - thermal_volts * wright_omega((r_is / thermal_volts).ln() + (a + r_is) / thermal_volts))
    .clamp(0.0, a.max(0.0))
}

/// Newton's method on a monotone function, clamped to `[lo, hi]`, from `seed`.
/// `f` returns the residual and its derivative.
#[inline]
fn newton_in_bracket(seed: f64, lo: f64, hi: f64, f: impl Fn(f64) -> (f64, f64)) -> f64 {
    let mut v = if seed.is_finite() {
        seed.clamp(lo, hi)
    } else {
        0.5 * (lo + hi)
    };
    for _ in 0..MAX_NEWTON_STEPS {
        let (g, slope) = f(v);
        let next = (v - g / slope).clamp(lo, hi);
        let step = (next - v).abs();
        v = next;
        if step <= NEWTON_TOLERANCE * v.abs() || step == 0.0 {
            break;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn diode_solutions_satisfy_their_equations_to_1e_12() {
        let (is, vt) = (2.52e-9, 0.025_85);
        for &r in &[1.0, 4_700.0, 1e6] {
            for &a in &[-5.0, -0.3, -1e-6, 0.0, 1e-6, 0.2, 0.7, 3.0, 40.0] {
                let v = solve_diode(a, r, is, vt);
                let lhs = v + r * is * ((v / vt).exp() - 1.0);
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
