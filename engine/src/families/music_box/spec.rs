//! A music box as a preset lists it (`[music-box.NAME]`): its comb of steel
//! tines (what the pins strike: the `[[strike]]`'s target), the pinned
//! cylinder, the spring, gear train and fly that turn it, and the case the
//! comb is bolted to. What the music-box family builds its tines, its
//! mechanics and its case from.

use serde::{Deserialize, Serialize};

use crate::fields;
use crate::instrument::{Checker, PresetError, case};

/// One pin on the cylinder.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinSpec {
    /// The tine it plucks (a MIDI key of the comb).
    pub key: u8,
    /// Where round the cylinder it sits, degrees from the start of the tune
    /// (0 to 360): the tine sounds when this angle passes the comb.
    pub angle_deg: f64,
}

/// A cylinder music box: comb, cylinder, mechanism and case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MusicBoxSpec {
    /// The comb's tines, as MIDI keys (each within the keyboard, rising).
    pub keys: Vec<u8>,
    /// Thickness of every tine (in the direction it bends), m.
    pub tine_thickness_m: f64,
    /// Width of every tine, m.
    pub tine_width_m: f64,
    /// Longest tine the comb has room for, m: tines that would need to be
    /// longer carry a lead weight under the tip instead.
    pub longest_tine_m: f64,
    /// Loss factor `η` of a tine in its clamp (a mode at `f` decays 60 dB in
    /// `2.2/(η·f)` s).
    pub tine_loss_factor: f64,
    /// Where the tines are heard, fraction of their length from the clamp.
    pub pickup_position: f64,
    /// How far a pin bends a tine's tip before the tip slips off it, m.
    pub lift_m: f64,
    /// Radius of the cylinder at the pins' tips, m.
    pub cylinder_radius_m: f64,
    /// Moment of inertia of the cylinder and its train, seen at the
    /// cylinder, kg·m².
    pub cylinder_inertia_kg_m2: f64,
    /// Whether the cylinder turns (false: the stop lever holds it).
    pub running: bool,
    /// How far the spring is wound, 0 (run down) to 1 (`spring_turns`).
    pub wound: f64,
    /// Torque of the mainspring at its barrel, fully wound, N·m.
    pub spring_torque_n_m: f64,
    /// Turns of the spring barrel from fully wound to run down.
    pub spring_turns: f64,
    /// How much the spring's torque falls over its flat part, from fully
    /// wound to nearly run down (fraction of the full torque).
    pub spring_droop: f64,
    /// The last fraction of the spring's turns over which its torque falls
    /// away (its coils lie against the barrel's arbor).
    pub spring_knee: f64,
    /// Turns of the cylinder per turn of the spring barrel (the gear train).
    pub cylinder_turns_per_spring_turn: f64,
    /// Friction of the train seen at the cylinder, a constant torque, N·m.
    pub friction_torque_n_m: f64,
    /// Air drag of the fly, `τ = c·ω²` at the fly, N·m·s².
    pub fly_drag_n_m_s2: f64,
    /// Turns of the fly per turn of the cylinder.
    pub fly_ratio: f64,
    /// Frequency of the case's lowest mode, Hz.
    pub case_lowest_mode_hz: f64,
    /// Number of the case's modes, spread evenly in log frequency.
    pub case_modes: u32,
    /// Frequency of the case's highest mode, Hz.
    pub case_highest_mode_hz: f64,
    /// 60 dB decay time of the case's modes, s.
    pub case_t60_s: f64,
    /// Mass of each case mode where the comb is bolted on, kg.
    pub case_modal_mass_kg: f64,
    /// Tines below this key have a damper (a pad on a wire that the pin
    /// presses onto the tine's tip just before it plucks). The pin lifts
    /// the wire from the moment its pluck begins, the pins' `start_gap_m`
    /// before the tip, until the pad is pressed `damper_press_m` onto the
    /// tip; the damper drops away when the pin reaches the tip.
    pub damped_below_key: u8,
    /// How far the pin presses the damper's pad onto a tip at rest, m
    /// (under half the pins' `start_gap_m`).
    pub damper_press_m: f64,
    /// Stiffness of the damper's pad on the tine, N/m.
    pub damper_stiffness_n_per_m: f64,
    /// Hunt–Crossley loss of the damper's pad, s/m.
    pub damper_hysteresis_s_per_m: f64,
    /// The tune: the pins on the cylinder.
    #[serde(default, rename = "pin")]
    pub pins: Vec<PinSpec>,
}

/// Most tines a comb may have.
pub const MAX_TINES: usize = 128;

/// Most pins a cylinder may carry.
pub const MAX_PINS: usize = 4096;

impl MusicBoxSpec {
    /// Whether the comb has a tine for `key`.
    pub fn has_tine(&self, key: u8) -> bool {
        self.keys.binary_search(&key).is_ok()
    }

    pub(super) fn check(&self, c: &Checker) -> Result<(), PresetError> {
        c.declared(self)?;
        c.require(
            !self.keys.is_empty() && self.keys.len() <= MAX_TINES,
            "keys",
            self.keys.len() as f64,
            "one to 128 tines",
        )?;
        for pair in self.keys.windows(2) {
            c.require(
                pair[0] < pair[1],
                "keys",
                f64::from(pair[1]),
                "keys rising strictly",
            )?;
        }
        for &key in &self.keys {
            c.require(key <= 127, "keys", f64::from(key), "MIDI keys, 0 to 127")?;
        }
        c.require(
            self.pins.len() <= MAX_PINS,
            "pin",
            self.pins.len() as f64,
            "at most 4096 pins",
        )?;
        for pin in &self.pins {
            c.require(
                self.has_tine(pin.key),
                "pin",
                f64::from(pin.key),
                "a key of the comb",
            )?;
            c.require(
                (0.0..=360.0).contains(&pin.angle_deg),
                "pin",
                pin.angle_deg,
                "angles of 0 to 360°",
            )?;
        }
        Ok(())
    }
}

fields!(MusicBoxSpec {
    tine_thickness_m: Real, "m", [1e-4, 2e-3, "0.1 to 2 mm"], "Thickness of every tine: thicker tines are longer for the same pitch";
    tine_width_m: Real, "m", [2e-4, 5e-3, "0.2 to 5 mm"], "Width of every tine";
    longest_tine_m: Real, "m", [3e-3, 0.1, "3 mm to 10 cm"], "Longest tine the comb has room for: lower tines carry a lead weight";
    tine_loss_factor: Real, "", [1e-5, 0.1, "1e-5 to 0.1"], "Loss factor of a tine in its clamp: more rings shorter";
    pickup_position: Real, "", [0.05, 1.0, "0.05 to 1 of the tine"], "Where the tines are heard, as a fraction of their length from the clamp";
    lift_m: Real, "m", [2e-5, 2e-3, "0.02 to 2 mm"], "How far a pin bends a tine's tip before it slips off: more plays louder";
    cylinder_radius_m: Real, "m", [2e-3, 0.1, "2 mm to 10 cm"], "Radius of the cylinder at the pins' tips";
    cylinder_inertia_kg_m2: Real, "kg·m²", [1e-8, 1e-2, "1e-8 to 1e-2 kg·m²"], "Moment of inertia of the cylinder and its train";
    running: Switch, "", "1: the cylinder turns; 0: the stop lever holds it", live;
    wound: Real, "", [0.0, 1.0, "0 to 1"], "How far the mainspring is wound: 0 run down, 1 fully", live;
    spring_torque_n_m: Real, "N·m", [1e-3, 10.0, "1e-3 to 10 N·m"], "Torque of the mainspring, fully wound: more plays faster, as the square root";
    spring_turns: Real, "", [0.5, 50.0, "0.5 to 50"], "Turns of the spring barrel from fully wound to run down";
    spring_droop: Real, "", [0.0, 0.9, "0 to 0.9"], "How much the spring's torque falls over its flat part";
    spring_knee: Real, "", [0.005, 0.5, "0.005 to 0.5"], "The last fraction of the spring's turns over which its torque falls away";
    cylinder_turns_per_spring_turn: Real, "", [0.05, 20.0, "0.05 to 20"], "Turns of the cylinder per turn of the spring barrel";
    friction_torque_n_m: Real, "N·m", [0.0, 1.0, "0 to 1 N·m"], "Friction of the train at the cylinder";
    fly_drag_n_m_s2: Real, "N·m·s²", [1e-12, 1e-3, "1e-12 to 1e-3 N·m·s²"], "Air drag of the fly (τ = c·ω²): more plays slower";
    fly_ratio: Real, "", [1.0, 10000.0, "1 to 10 000"], "Turns of the fly per turn of the cylinder";
    case_lowest_mode_hz: Real, "Hz", [= case::LOWEST_MODE_HZ], "Frequency of the case's lowest mode";
    case_modes: Count, "", [= case::MODES], "Number of the case's modes";
    case_highest_mode_hz: Real, "Hz", [= case::HIGHEST_MODE_HZ], at_least case_lowest_mode_hz, "Frequency of the case's highest mode";
    case_t60_s: Real, "s", [= case::T60_S], "Time the case's modes take to fade by 60 dB";
    case_modal_mass_kg: Real, "kg", [= case::MODAL_MASS_KG], "Mass of each case mode at the comb: less makes the case louder";
    damped_below_key: Key, "", [0.0, 127.0, "a MIDI key, 0 to 127"], "Tines below this key have a damper";
    damper_press_m: Real, "m", [1e-6, 1e-3, "1e-6 to 1e-3 m"], "How far the pin presses a damper's pad onto its tine: more stills a ringing tine sooner";
    damper_stiffness_n_per_m: Real, "N/m", [1.0, 1e7, "1 to 1e7 N/m"], "Stiffness of a damper's pad";
    damper_hysteresis_s_per_m: Real, "s/m", [0.0, 100.0, "0 to 100 s/m"], "Loss of a damper's pad";
});
