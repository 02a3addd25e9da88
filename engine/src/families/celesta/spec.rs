//! A celesta's action, dampers and resonator boxes as a preset lists them
//! (`[celesta.NAME]`): what the celesta family adds to felt hammers on
//! free-free bars.

use serde::{Deserialize, Serialize};

use crate::fields;
use crate::instrument::{
    BarEnds, BarSet, Checker, Instrument, Link, ObjectKind, ObjectSpec, PresetError,
};

/// A celesta: the simplified piano action that throws the hammers it
/// `drives`, the bars' tuned partials, the felt dampers and the pedal that
/// lifts them, and the wooden Helmholtz box under every bar.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CelestaSpec {
    /// The hammers its action throws.
    pub drives: String,
    /// Frequency of a tuned bar's second bending mode over its first (a
    /// uniform free-free bar's 2.7565 before tuning cuts).
    pub partial_ratio_2: f64,
    /// Frequency of the third bending mode over the first (uniform: 5.4039).
    pub partial_ratio_3: f64,
    /// Distance a hammer travels from rest to the bar, m: a hammer that
    /// reaches speed `v` evenly over it strikes `2·d/v` after the note-on.
    pub blow_distance_m: f64,
    /// The 60 dB decay time a bar's felt damper gives each of its modes, s
    /// (a damped mode fades a little faster still, by its own losses).
    pub damper_t60_s: f64,
    /// Stiffness of a box's enclosed air over the stiffness of its bar's
    /// first mode, both seen at the strike point (`ρc²S²/V` over `m₁ω₁²`); 0:
    /// no boxes.
    pub box_coupling: f64,
    /// Quality factor of a box's Helmholtz resonance (its radiation and wall
    /// losses).
    pub box_q: f64,
    /// The output per m/s of a box's neck air (referred to the strike point),
    /// relative to the output per m/s of its bar: a mouth radiates as a
    /// monopole, a bar much less well at its fundamental (a dipole whose
    /// sides short-circuit around its edges).
    pub mouth_gain: f64,
}

impl CelestaSpec {
    /// The tuned partial ratios of a bar's first three modes.
    pub fn partial_ratios(&self) -> [f64; 3] {
        [1.0, self.partial_ratio_2, self.partial_ratio_3]
    }
}

fields!(CelestaSpec {
    partial_ratio_2: Real, "", [1.5, 5.0, "1.5 to 5"], "Second partial of a tuned bar over its fundamental (uniform bar: 2.7565)";
    partial_ratio_3: Real, "", [3.0, 12.0, "3 to 12"], at_least partial_ratio_2, "Third partial of a tuned bar over its fundamental (uniform bar: 5.4039)";
    blow_distance_m: Real, "m", [1e-3, 0.1, "1 to 100 mm"], "Hammer travel from rest to the bar: longer strikes later after the key", live;
    damper_t60_s: Real, "s", [0.01, 5.0, "0.01 to 5 s"], "Time a damped bar takes to fade by 60 dB: shorter stops notes sooner";
    box_coupling: Real, "", [0.0, 0.05, "0 to 0.05"], "Stiffness of a box's air over its bar's (0: no boxes): more couples them harder";
    box_q: Real, "", [1.0, 1000.0, "1 to 1000"], "Quality factor of a box's air resonance: more rings the box longer and louder";
    mouth_gain: Real, "", [0.0, 100.0, "0 to 100"], "Level of the boxes' mouths against the bars' own sound";
});

/// The celesta's own object kind, as its presets list it.
pub const KINDS: &[ObjectKind] = &[ObjectKind::of::<CelestaSpec>("celesta")];

impl ObjectSpec for CelestaSpec {
    fn kind(&self) -> &'static str {
        "celesta"
    }

    fn link(&self) -> Option<Link<'_>> {
        Some(Link::to_hammers("drives", &self.drives))
    }

    /// A celesta's action plays bars free at both ends.
    fn check_in(
        &self,
        name: &str,
        instrument: &Instrument<'_>,
        _c: &Checker,
    ) -> Result<(), PresetError> {
        match instrument.topology.target_as::<BarSet>() {
            Some(bars) if bars.ends == BarEnds::FreeFree => Ok(()),
            _ => Err(PresetError::Topology(format!(
                "[celesta.{name}] plays free-free-bars only"
            ))),
        }
    }
}
