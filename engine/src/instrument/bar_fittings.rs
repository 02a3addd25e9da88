//! What a keyboard instrument mounts on a struck bar besides the bar
//! itself: a Helmholtz resonator box under it and a felt damper on it (a
//! celesta's).
//!
//! In the mobility analogy (velocity ↔ voltage, force ↔ current, mass ↔
//! capacitor, spring ↔ inductor, dashpot `c` ↔ resistor `1/c`):
//!
//! - The box's air is driven by the bar's first mode: the bar pumps the air
//!   over the box's mouth with the mode's velocity, the enclosed air is a
//!   spring (stiffness `ρc²S²/V` seen at the strike point, `S` the bar's
//!   effective piston area, `V` the box's volume) and the air in the neck a
//!   mass pushed through it (`ρ·L·S²/S_n`), losing energy by radiation and
//!   friction (a dashpot). The spring and the neck carry one force, so they
//!   are in series; their velocities add up to the mode's, so the branch is
//!   in parallel with the mode's mass, spring and loss. The box is tuned
//!   (its neck mass chosen) to the bar's fundamental, and the neck's velocity
//!   is what its mouth radiates.
//! - The damper, pressed on the bar, adds to every mode's loss (its resistor)
//!   a dashpot that fades the mode by 60 dB in the damper's time, on top of
//!   its own decay (the felt's friction taken mode by mode, without the
//!   coupling a pad at one point would add between them). Pressing and
//!   lifting are two sets of coefficient patches of the loss leaves, built
//!   with the bar, so moving a damper allocates nothing.

use crate::wdf::Connection;
use crate::wdf::description::{capacitor, inductor, parallel, resistor, series};

/// Leaf name of the box's enclosed air (its spring).
const CAVITY: &str = "box-cavity";
/// Leaf name of the box's neck air (its mass).
pub(crate) const NECK: &str = "box-neck";
/// Leaf name of the box's radiation and wall loss.
const MOUTH_LOSS: &str = "box-loss";
/// A Helmholtz resonator box tuned to its bar's fundamental.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HelmholtzBox {
    /// Stiffness of the enclosed air over the stiffness of the bar's first
    /// mode, both seen at the strike point.
    pub coupling: f64,
    /// Quality factor of the box's resonance.
    pub q: f64,
    /// The output per m/s of the neck's air (referred to the strike point)
    /// relative to the bar's pickup.
    pub mouth_gain: f64,
}

impl HelmholtzBox {
    /// The box's air as a branch that shares the velocity of a mode of
    /// `mode_mass_kg` at `omega_rad_s` (pre-warped, rad/s), tuned to it.
    pub(crate) fn branch(&self, mode_mass_kg: f64, omega_rad_s: f64) -> Connection {
        let neck_mass = self.coupling * mode_mass_kg;
        let stiffness = neck_mass * omega_rad_s * omega_rad_s;
        let damping = omega_rad_s * neck_mass / self.q;
        series([
            inductor(CAVITY, 1.0 / stiffness),
            parallel([
                capacitor(NECK, neck_mass),
                resistor(MOUTH_LOSS, 1.0 / damping),
            ]),
        ])
    }
}

/// What is mounted on a bar besides its supports.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BarFittings {
    /// The resonator box under it, if any.
    pub resonator: Option<HelmholtzBox>,
    /// 60 dB decay time its modes add under its damper, s; `None`: no
    /// damper.
    pub damper_t60_s: Option<f64>,
}

/// The dashpot (kg/s) that fades a mode of `mode_mass_kg` at the strike
/// point by 60 dB in `t60_s` (its loss, or what a damper adds to it).
pub(crate) fn t60_dashpot_kg_s(mode_mass_kg: f64, t60_s: f64) -> f64 {
    2.0 * mode_mass_kg * 1000f64.ln() / t60_s
}
