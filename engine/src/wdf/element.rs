//! One-port elements: what a leaf or the root of a tree can be.

use serde::{Deserialize, Serialize};

use super::felt_law::FeltLaw;

/// A one-port element, in electrical terms (mechanical circuits use the mobility
/// analogy described in the module docs). Values are SI: ohms, farads, henries,
/// volts, amperes.
///
/// Linear elements with a finite port resistance (resistor, capacitor, inductor,
/// resistive sources) can be leaves. The others — ideal sources, open, short,
/// switch and the nonlinearities — cannot be adapted and may only be the root, and
/// a tree holds exactly one root.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Element {
    /// `v = R·i`.
    Resistor {
        /// Resistance, Ω (> 0).
        ohms: f64,
    },
    /// `i = C·dv/dt`, discretised by the bilinear transform: `b[n] = a[n−1]`.
    Capacitor {
        /// Capacitance, F (> 0).
        farads: f64,
    },
    /// `v = L·di/dt`, discretised by the bilinear transform: `b[n] = −a[n−1]`.
    Inductor {
        /// Inductance, H (> 0).
        henries: f64,
    },
    /// An EMF in series with a resistance: `v = E + R·i`.
    ResistiveVoltageSource {
        /// EMF, V (may change every sample).
        volts: f64,
        /// Internal resistance, Ω (> 0).
        ohms: f64,
    },
    /// A current source in parallel with a resistance: `i = v/R − I` (it pushes
    /// `I` out of its positive terminal).
    ResistiveCurrentSource {
        /// Source current, A.
        amps: f64,
        /// Internal resistance, Ω (> 0).
        ohms: f64,
    },
    /// `v = E` (root only).
    IdealVoltageSource {
        /// Voltage, V.
        volts: f64,
    },
    /// Pushes `I` out of its positive terminal: `i = −I` (root only).
    IdealCurrentSource {
        /// Current, A.
        amps: f64,
    },
    /// `i = 0` (root only).
    Open,
    /// `v = 0` (root only).
    Short,
    /// A short when closed, open otherwise (root only).
    Switch {
        /// Whether the switch conducts.
        closed: bool,
    },
    /// Shockley diode, anode at the positive terminal: `i = Is·(exp(v/Vt) − 1)`
    /// (root only).
    Diode {
        /// Saturation current, A.
        saturation_amps: f64,
        /// Thermal voltage times ideality, V.
        thermal_volts: f64,
    },
    /// Two Shockley diodes in antiparallel: `i = 2·Is·sinh(v/Vt)` (root only).
    DiodePair {
        /// Saturation current of each diode, A.
        saturation_amps: f64,
        /// Thermal voltage times ideality, V.
        thermal_volts: f64,
    },
    /// Hammer felt: a nonlinear, lossy spring in the mobility analogy,
    /// `F = K·x^p·(1 + β·ẋ)` (root only; see [`super::FeltRoot`]).
    Felt {
        /// The compression law.
        law: FeltLaw,
    },
}

/// A straight line `α·v + β·i = γ` in the port's (voltage, current) plane: the DC
/// characteristic of a linear element or subtree.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Line {
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
}

impl Element {
    /// A short word for messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Self::Resistor { .. } => "resistor",
            Self::Capacitor { .. } => "capacitor",
            Self::Inductor { .. } => "inductor",
            Self::ResistiveVoltageSource { .. } => "resistive voltage source",
            Self::ResistiveCurrentSource { .. } => "resistive current source",
            Self::IdealVoltageSource { .. } => "ideal voltage source",
            Self::IdealCurrentSource { .. } => "ideal current source",
            Self::Open => "open circuit",
            Self::Short => "short circuit",
            Self::Switch { .. } => "switch",
            Self::Diode { .. } => "diode",
            Self::DiodePair { .. } => "diode pair",
            Self::Felt { .. } => "felt",
        }
    }

    /// Whether the element is nonlinear.
    pub fn is_nonlinear(&self) -> bool {
        matches!(
            self,
            Self::Diode { .. } | Self::DiodePair { .. } | Self::Felt { .. }
        )
    }

    /// Whether the element can sit at a leaf: linear with a finite, positive port
    /// resistance.
    pub fn is_adaptable(&self) -> bool {
        matches!(
            self,
            Self::Resistor { .. }
                | Self::Capacitor { .. }
                | Self::Inductor { .. }
                | Self::ResistiveVoltageSource { .. }
                | Self::ResistiveCurrentSource { .. }
        )
    }

    /// Whether the element stores energy between samples (as a leaf).
    pub fn is_reactive(&self) -> bool {
        matches!(self, Self::Capacitor { .. } | Self::Inductor { .. })
    }

    /// Checks the element's values; returns what is wrong with them.
    pub(crate) fn check_values(&self) -> Result<(), String> {
        let positive = |value: f64, what: &str| {
            if value.is_finite() && value > 0.0 {
                Ok(())
            } else {
                Err(format!("{what} must be positive and finite, not {value}"))
            }
        };
        let finite = |value: f64, what: &str| {
            if value.is_finite() {
                Ok(())
            } else {
                Err(format!("{what} must be finite, not {value}"))
            }
        };
        match *self {
            Self::Resistor { ohms } => positive(ohms, "resistance"),
            Self::Capacitor { farads } => positive(farads, "capacitance"),
            Self::Inductor { henries } => positive(henries, "inductance"),
            Self::ResistiveVoltageSource { volts, ohms } => {
                finite(volts, "voltage")?;
                positive(ohms, "resistance")
            }
            Self::ResistiveCurrentSource { amps, ohms } => {
                finite(amps, "current")?;
                positive(ohms, "resistance")
            }
            Self::IdealVoltageSource { volts } => finite(volts, "voltage"),
            Self::IdealCurrentSource { amps } => finite(amps, "current"),
            Self::Open | Self::Short | Self::Switch { .. } => Ok(()),
            Self::Diode {
                saturation_amps,
                thermal_volts,
            }
            | Self::DiodePair {
                saturation_amps,
                thermal_volts,
            } => {
                positive(saturation_amps, "saturation current")?;
                positive(thermal_volts, "thermal voltage")
            }
            Self::Felt { law } => law.check().map_err(str::to_string),
        }
    }

    /// Port resistance of an adaptable element at `sample_rate` (Hz).
    pub(crate) fn port_resistance(&self, sample_rate: f64) -> Option<f64> {
        match *self {
            Self::Resistor { ohms }
            | Self::ResistiveVoltageSource { ohms, .. }
            | Self::ResistiveCurrentSource { ohms, .. } => Some(ohms),
            Self::Capacitor { farads } => Some(1.0 / (2.0 * sample_rate * farads)),
            Self::Inductor { henries } => Some(2.0 * sample_rate * henries),
            _ => None,
        }
    }

    /// The wave a constant (memoryless) leaf reflects: `E` for a voltage source,
    /// `R·I` for a current source, 0 for a resistor.
    pub(crate) fn constant_reflection(&self) -> Option<f64> {
        match *self {
            Self::Resistor { .. } => Some(0.0),
            Self::ResistiveVoltageSource { volts, .. } => Some(volts),
            Self::ResistiveCurrentSource { amps, ohms } => Some(amps * ohms),
            _ => None,
        }
    }

    /// The element's characteristic at DC, where capacitors are open and inductors
    /// short (`None` for nonlinear elements).
    pub(crate) fn dc_line(&self) -> Option<Line> {
        let line = |alpha, beta, gamma| Some(Line { alpha, beta, gamma });
        match *self {
            Self::Resistor { ohms } => line(1.0, -ohms, 0.0),
            Self::ResistiveVoltageSource { volts, ohms } => line(1.0, -ohms, volts),
            Self::ResistiveCurrentSource { amps, ohms } => line(1.0, -ohms, amps * ohms),
            Self::Capacitor { .. } | Self::Open | Self::Switch { closed: false } => {
                line(0.0, 1.0, 0.0)
            }
            Self::Inductor { .. }
            | Self::Short
            | Self::Switch { closed: true }
            | Self::Felt { .. } => line(1.0, 0.0, 0.0),
            Self::IdealVoltageSource { volts } => line(1.0, 0.0, volts),
            Self::IdealCurrentSource { amps } => line(0.0, 1.0, -amps),
            Self::Diode { .. } | Self::DiodePair { .. } => None,
        }
    }
}
