//! The velocity curve: from MIDI velocity to the hammer's speed at the string.

use serde::{Deserialize, Serialize};

use crate::props::declared_default;

/// From MIDI velocity to hammer speed at the string: geometric between the
/// softest and hardest speeds, along `(velocity/127)^curve`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VelocityCurve {
    /// Hammer speed at MIDI velocity 1, m/s.
    pub softest_speed_m_s: f64,
    /// Hammer speed at MIDI velocity 127, m/s.
    pub hardest_speed_m_s: f64,
    /// Curve exponent: 1 spreads speeds geometrically over the velocities;
    /// above 1 the soft end gets more of the range, below 1 the loud end.
    #[serde(default = "linear_curve")]
    pub curve: f64,
}

fn linear_curve() -> f64 {
    declared_default(VelocityCurve::FIELDS, "curve")
}

impl Default for VelocityCurve {
    fn default() -> Self {
        Self {
            softest_speed_m_s: 0.4,
            hardest_speed_m_s: 6.5,
            curve: 1.0,
        }
    }
}

impl VelocityCurve {
    /// Hammer speed (m/s) for a normalised velocity (MIDI velocity / 127); values
    /// outside [1/127, 1], and NaN, are clamped to the softest and hardest speeds.
    pub fn speed(&self, velocity: f64) -> f64 {
        let lowest = (1.0f64 / 127.0).powf(self.curve);
        let x = if velocity.is_nan() { 0.0 } else { velocity };
        let x = x.clamp(0.0, 1.0).powf(self.curve);
        let fraction = ((x - lowest) / (1.0 - lowest)).clamp(0.0, 1.0);
        self.softest_speed_m_s * (self.hardest_speed_m_s / self.softest_speed_m_s).powf(fraction)
    }
}

crate::fields!(VelocityCurve {
    softest_speed_m_s: Real, "m/s", [0.05, 20.0, "0.05 to 20 m/s"], "Hammer speed at the softest touch (MIDI velocity 1)", live;
    hardest_speed_m_s: Real, "m/s", [0.05, 20.0, "0.05 to 20 m/s"], at_least softest_speed_m_s, "Hammer speed at the hardest touch (MIDI velocity 127)", live;
    curve: Real = 1.0, "", [0.2, 5.0, "0.2 to 5"],
        "Touch curve: 1 spreads the speeds evenly over the velocities, above 1 softens the middle velocities, below 1 hardens them", live;
});
