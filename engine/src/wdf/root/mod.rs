//! Roots: the one element of a tree that need not be adaptable. It receives the
//! wave the whole tree sends up through the adapted top port and reflects one back.
//!
//! [`Root`] (here) is the root at its port, remembering the last sample's waves;
//! the rest is one concept per file:
//!
//! - [`kind`]: the kinds of root at run time ([`RootKind`]), built from an element.
//! - [`diode`]: a diode or antiparallel diode pair at a port and its per-sample solve.
//! - [`pair_solver`]: a diode pair's tabulated solve, set up for a block of samples.
//! - [`omega`]: the Wright omega function that seeds the diode solves.
//! - [`newton`]: Newton's method safeguarded by bisection, the solves' fallback.

mod diode;
mod kind;
mod newton;
mod omega;
mod pair_solver;

pub(crate) use diode::DiodeModel;
pub use diode::{solve_diode, solve_diode_pair};
pub(crate) use kind::RootKind;
pub(crate) use newton::newton_in_bracket;
pub use omega::wright_omega;
pub(crate) use pair_solver::{ExactPair, PairSolver};

use super::Element;

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
    /// `element` as the root of a tree whose port resistance is
    /// `port_resistance` (Ω), at `sample_rate` (Hz), with no waves yet.
    pub fn new(element: &Element, port_resistance: f64, sample_rate: f64) -> Self {
        Self {
            kind: RootKind::new(element, port_resistance, sample_rate),
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
    pub(crate) fn tabulated_pair(&self) -> Option<PairSolver<'_, DiodeModel>> {
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
        (self.incident, self.reflected) = super::rematch::rematched(
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

#[cfg(test)]
mod tests {
    use super::*;

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
