//! The physical description of one string, from which stiff strings are
//! designed, and why a design can fail.

use std::fmt;

/// The physical description of one string.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StringParams {
    /// Speaking length from agraffe to bridge, m.
    pub length_m: f64,
    /// Mass of the speaking length, kg.
    pub mass_kg: f64,
    /// Fundamental the string is tuned to, Hz. The tension follows from it.
    pub fundamental_hz: f64,
    /// Where the hammer strikes, as a fraction of the length from the agraffe.
    pub strike_position: f64,
    /// Frequency-independent loss `b1`, 1/s.
    pub loss_b1: f64,
    /// Frequency-dependent loss `b2`, m²/s: a partial of wavenumber `k` decays at
    /// `σ = b1 + b2·k²` (Bensa et al. 2003, whose `ξ ≈ k²` for a flexible string).
    pub loss_b2: f64,
}

impl StringParams {
    /// Linear density `μ`, kg/m.
    pub fn linear_density(&self) -> f64 {
        self.mass_kg / self.length_m
    }

    /// Transverse wave speed `c = 2·L·f0`, m/s.
    pub fn wave_speed(&self) -> f64 {
        2.0 * self.length_m * self.fundamental_hz
    }

    /// Tension that tunes the string to its fundamental, `T = μ·c²`, N.
    pub fn tension(&self) -> f64 {
        self.linear_density() * self.wave_speed().powi(2)
    }

    /// Wave impedance `Z0 = √(T·μ) = μ·c`, kg/s.
    pub fn impedance(&self) -> f64 {
        self.linear_density() * self.wave_speed()
    }

    /// Decay rate (1/s) of a partial at angular frequency `omega` (rad/s).
    pub fn decay_rate(&self, omega: f64) -> f64 {
        let wavenumber = omega / self.wave_speed();
        self.loss_b1 + self.loss_b2 * wavenumber * wavenumber
    }
}

/// Why a string could not be built at a sample rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StringDesignError {
    /// The period is too few samples to hold the waveguide (needs at least 3.5).
    PeriodTooShort {
        /// The period in samples at the requested rate.
        period_samples: f64,
    },
    /// A parameter is not a positive finite number, or the strike is not on the string.
    InvalidParameter(&'static str),
}

impl fmt::Display for StringDesignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::PeriodTooShort { period_samples } => write!(
                f,
                "the string's period is {period_samples:.2} samples; at least 3.5 are needed"
            ),
            Self::InvalidParameter(name) => write!(f, "string parameter {name} is out of range"),
        }
    }
}

impl std::error::Error for StringDesignError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn middle_c() -> StringParams {
        StringParams {
            length_m: 0.62,
            mass_kg: 3.93e-3,
            fundamental_hz: 261.63,
            strike_position: 0.12,
            loss_b1: 1.1,
            loss_b2: 2.7e-4,
        }
    }

    /// Chaigne & Askenfelt's C4: the tension that tunes 0.62 m and 3.93 g to
    /// 261.6 Hz is their 670 N, to 1 %.
    #[test]
    fn derived_tension_matches_measured_string() {
        let t = middle_c().tension();
        assert!((t - 670.0).abs() / 670.0 < 0.01, "{t}");
    }
}
