//! A recorded run: sample times, named state variables and kinetic energy.

use std::fmt;

/// The unit a state variable is stored in, which also decides how reports and
/// plots show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unit {
    /// An angle, stored in radians and shown in degrees.
    Radian,
    /// A length, stored in metres and shown in millimetres.
    Metre,
    /// Any other quantity, stored and shown in the named unit (e.g. `"rad/s"`).
    Other(String),
}

impl Unit {
    /// Factor from the stored unit to the displayed one (180/π for angles,
    /// 1000 for lengths, 1 otherwise).
    pub fn display_scale(&self) -> f64 {
        match self {
            Self::Radian => 180.0 / std::f64::consts::PI,
            Self::Metre => 1000.0,
            Self::Other(_) => 1.0,
        }
    }

    /// The displayed unit's symbol: `°`, `mm` or the named unit.
    pub fn display_symbol(&self) -> &str {
        match self {
            Self::Radian => "°",
            Self::Metre => "mm",
            Self::Other(symbol) => symbol,
        }
    }

    /// `value` (in the stored unit) in the displayed unit with three
    /// significant digits, e.g. `12.0°`, `0.250 mm`, `3.10 rad/s`.
    pub fn format(&self, value: f64) -> String {
        let shown = significant(value * self.display_scale(), 3);
        match self {
            Self::Radian => format!("{shown}°"),
            _ => format!("{shown} {}", self.display_symbol()),
        }
    }
}

/// `value` with `digits` significant digits (at least one decimal for values
/// below 1000), without scientific notation.
pub(crate) fn significant(value: f64, digits: i32) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value:.1}");
    }
    let magnitude = value.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).clamp(0, 12) as usize;
    format!("{value:.decimals$}")
}

/// A named state variable of a mechanism, e.g. `escape wheel` in radians.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Name as reports and plots show it.
    pub name: String,
    /// Unit of the recorded values.
    pub unit: Unit,
}

impl Variable {
    /// A variable called `name`, recorded in `unit`.
    pub fn new(name: impl Into<String>, unit: Unit) -> Self {
        Self {
            name: name.into(),
            unit,
        }
    }
}

/// Why a sample could not be added to a [`Trace`].
#[derive(Debug, Clone, PartialEq)]
pub enum TraceError {
    /// The sample has a different number of values than the trace has variables.
    WrongCount {
        /// Number of variables in the trace.
        expected: usize,
        /// Number of values given.
        got: usize,
    },
    /// A time, value or energy that is NaN or infinite.
    NotFinite {
        /// What was not finite: `time`, `kinetic energy` or a variable's name.
        what: String,
        /// Time of the sample, s (may itself be the bad number).
        time_s: f64,
    },
    /// Sample times must increase strictly.
    TimeNotIncreasing {
        /// Time of the previous sample, s.
        previous_s: f64,
        /// Time of the rejected sample, s.
        time_s: f64,
    },
    /// Kinetic energy below zero.
    NegativeEnergy {
        /// Time of the sample, s.
        time_s: f64,
        /// The energy given, J.
        energy_j: f64,
    },
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::WrongCount { expected, got } => write!(
                f,
                "a sample has {got} values but the trace records {expected} variables"
            ),
            Self::NotFinite { what, time_s } => {
                write!(f, "{what} is not a finite number at t = {time_s} s")
            }
            Self::TimeNotIncreasing { previous_s, time_s } => write!(
                f,
                "sample time {time_s} s does not come after the previous sample at {previous_s} s"
            ),
            Self::NegativeEnergy { time_s, energy_j } => {
                write!(
                    f,
                    "kinetic energy {energy_j} J at t = {time_s} s is negative"
                )
            }
        }
    }
}

impl std::error::Error for TraceError {}

/// A mechanism's recorded behaviour: for each sample its time (s), the value
/// of every state variable (in the variable's [`Unit`]) and the mechanism's
/// kinetic energy (J).
///
/// Built sample by sample with [`Trace::push`], which checks each sample, so a
/// trace always has strictly increasing, finite times, finite values and
/// non-negative energies.
///
/// Allocates: only when growing past its capacity (see [`Trace::with_capacity`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    variables: Vec<Variable>,
    times_s: Vec<f64>,
    /// Sample-major: the values of sample `i` are `values[i * n..(i + 1) * n]`.
    values: Vec<f64>,
    kinetic_energy_j: Vec<f64>,
}

impl Trace {
    /// An empty trace of these variables.
    pub fn new(variables: Vec<Variable>) -> Self {
        Self::with_capacity(variables, 0)
    }

    /// An empty trace with room for `samples` samples before it reallocates.
    ///
    /// Allocates: room for `samples` samples.
    pub fn with_capacity(variables: Vec<Variable>, samples: usize) -> Self {
        let n = variables.len();
        Self {
            variables,
            times_s: Vec::with_capacity(samples),
            values: Vec::with_capacity(samples * n),
            kinetic_energy_j: Vec::with_capacity(samples),
        }
    }

    /// Appends a sample: its time (s), one value per variable in the order of
    /// [`Trace::variables`], and the kinetic energy (J). A rejected sample
    /// leaves the trace unchanged.
    ///
    /// Allocates: only when the trace grows past its capacity.
    pub fn push(
        &mut self,
        time_s: f64,
        values: &[f64],
        kinetic_energy_j: f64,
    ) -> Result<(), TraceError> {
        if values.len() != self.variables.len() {
            return Err(TraceError::WrongCount {
                expected: self.variables.len(),
                got: values.len(),
            });
        }
        let not_finite = |what: &str| TraceError::NotFinite {
            what: what.to_owned(),
            time_s,
        };
        if !time_s.is_finite() {
            return Err(not_finite("time"));
        }
        if let Some(&previous_s) = self.times_s.last()
            && time_s <= previous_s
        {
            return Err(TraceError::TimeNotIncreasing { previous_s, time_s });
        }
        if let Some(j) = values.iter().position(|v| !v.is_finite()) {
            return Err(not_finite(&self.variables[j].name));
        }
        if !kinetic_energy_j.is_finite() {
            return Err(not_finite("kinetic energy"));
        }
        if kinetic_energy_j < 0.0 {
            return Err(TraceError::NegativeEnergy {
                time_s,
                energy_j: kinetic_energy_j,
            });
        }
        self.times_s.push(time_s);
        self.values.extend_from_slice(values);
        self.kinetic_energy_j.push(kinetic_energy_j);
        Ok(())
    }

    /// The recorded state variables.
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.times_s.len()
    }

    /// Whether the trace has no samples.
    pub fn is_empty(&self) -> bool {
        self.times_s.is_empty()
    }

    /// Sample times, s, strictly increasing.
    pub fn times_s(&self) -> &[f64] {
        &self.times_s
    }

    /// Kinetic energy at each sample, J.
    pub fn kinetic_energy_j(&self) -> &[f64] {
        &self.kinetic_energy_j
    }

    /// The values of every variable at sample `i` (in the variables' units).
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn sample(&self, i: usize) -> &[f64] {
        let n = self.variables.len();
        &self.values[i * n..(i + 1) * n]
    }

    /// The values of variable `j` over time (in its unit); empty if there is
    /// no variable `j`.
    pub fn series(&self, j: usize) -> impl Iterator<Item = f64> + '_ {
        let n = self.variables.len();
        let start = if j < n { j } else { self.values.len() };
        self.values.iter().skip(start).step_by(n.max(1)).copied()
    }
}
