//! The kinds of root at run time: what each [`Element`] becomes when it is a
//! tree's root, and the law it reflects waves by.

use super::diode::DiodeModel;
use crate::wdf::{Element, FeltRoot};

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

impl RootKind {
    /// The runtime form of `element` as the root of a tree whose port resistance
    /// is `port_resistance` (Ω), at `sample_rate` (Hz). A diode pair is
    /// tabulated here (allocates: call when building a tree).
    pub(super) fn new(element: &Element, port_resistance: f64, sample_rate: f64) -> Self {
        match *element {
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
        }
    }
}
