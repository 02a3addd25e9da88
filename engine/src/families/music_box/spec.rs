//! A music box as a preset lists it (`[music-box.NAME]`): its comb of steel
//! tines (what the pins strike: the `[[strike]]`'s target), the pinned
//! cylinder, the spring, gear train and fly that turn it, and the case the
//! comb is bolted to. What the music-box family builds its tines, its
//! mechanics and its case from.

use serde::{Deserialize, Serialize};

use super::comb::TineDesign;
use crate::fields;
use crate::instrument::{
    Checker, Fields, HammerSet, ObjectKind, ObjectSpec, Preset, PresetError, StrikeRange, Topology,
    check_case,
};

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

    fn check(&self, c: &Checker) -> Result<(), PresetError> {
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
        c.range(
            "tine_thickness_m",
            self.tine_thickness_m,
            1e-4,
            2e-3,
            "0.1 to 2 mm",
        )?;
        c.range("tine_width_m", self.tine_width_m, 2e-4, 5e-3, "0.2 to 5 mm")?;
        c.range(
            "longest_tine_m",
            self.longest_tine_m,
            3e-3,
            0.1,
            "3 mm to 10 cm",
        )?;
        c.range(
            "tine_loss_factor",
            self.tine_loss_factor,
            1e-5,
            0.1,
            "1e-5 to 0.1",
        )?;
        c.range(
            "pickup_position",
            self.pickup_position,
            0.05,
            1.0,
            "0.05 to 1 of the tine",
        )?;
        c.range("lift_m", self.lift_m, 2e-5, 2e-3, "0.02 to 2 mm")?;
        c.range(
            "cylinder_radius_m",
            self.cylinder_radius_m,
            2e-3,
            0.1,
            "2 mm to 10 cm",
        )?;
        c.range(
            "cylinder_inertia_kg_m2",
            self.cylinder_inertia_kg_m2,
            1e-8,
            1e-2,
            "1e-8 to 1e-2 kg·m²",
        )?;
        c.range("wound", self.wound, 0.0, 1.0, "0 to 1")?;
        c.range(
            "spring_torque_n_m",
            self.spring_torque_n_m,
            1e-3,
            10.0,
            "1e-3 to 10 N·m",
        )?;
        c.range("spring_turns", self.spring_turns, 0.5, 50.0, "0.5 to 50")?;
        c.range("spring_droop", self.spring_droop, 0.0, 0.9, "0 to 0.9")?;
        c.range("spring_knee", self.spring_knee, 0.005, 0.5, "0.005 to 0.5")?;
        c.range(
            "cylinder_turns_per_spring_turn",
            self.cylinder_turns_per_spring_turn,
            0.05,
            20.0,
            "0.05 to 20",
        )?;
        c.range(
            "friction_torque_n_m",
            self.friction_torque_n_m,
            0.0,
            1.0,
            "0 to 1 N·m",
        )?;
        c.range(
            "fly_drag_n_m_s2",
            self.fly_drag_n_m_s2,
            1e-12,
            1e-3,
            "1e-12 to 1e-3 N·m·s²",
        )?;
        c.range("fly_ratio", self.fly_ratio, 1.0, 10000.0, "1 to 10 000")?;
        check_case(
            c,
            (self.case_lowest_mode_hz, self.case_highest_mode_hz),
            self.case_modes,
            self.case_t60_s,
            self.case_modal_mass_kg,
        )?;
        c.range(
            "damped_below_key",
            f64::from(self.damped_below_key),
            0.0,
            127.0,
            "a MIDI key, 0 to 127",
        )?;
        c.range(
            "damper_stiffness_n_per_m",
            self.damper_stiffness_n_per_m,
            1.0,
            1e7,
            "1 to 1e7 N/m",
        )?;
        c.range(
            "damper_press_m",
            self.damper_press_m,
            1e-6,
            1e-3,
            "1e-6 to 1e-3 m",
        )?;
        c.range(
            "damper_hysteresis_s_per_m",
            self.damper_hysteresis_s_per_m,
            0.0,
            100.0,
            "0 to 100 s/m",
        )?;
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
    tine_thickness_m: Real, "m", "Thickness of every tine: thicker tines are longer for the same pitch";
    tine_width_m: Real, "m", "Width of every tine";
    longest_tine_m: Real, "m", "Longest tine the comb has room for: lower tines carry a lead weight";
    tine_loss_factor: Real, "", "Loss factor of a tine in its clamp: more rings shorter";
    pickup_position: Real, "", "Where the tines are heard, as a fraction of their length from the clamp";
    lift_m: Real, "m", "How far a pin bends a tine's tip before it slips off: more plays louder";
    cylinder_radius_m: Real, "m", "Radius of the cylinder at the pins' tips";
    cylinder_inertia_kg_m2: Real, "kg·m²", "Moment of inertia of the cylinder and its train";
    running: Switch, "", "1: the cylinder turns; 0: the stop lever holds it";
    wound: Real, "", "How far the mainspring is wound: 0 run down, 1 fully";
    spring_torque_n_m: Real, "N·m", "Torque of the mainspring, fully wound: more plays faster, as the square root";
    spring_turns: Real, "", "Turns of the spring barrel from fully wound to run down";
    spring_droop: Real, "", "How much the spring's torque falls over its flat part";
    spring_knee: Real, "", "The last fraction of the spring's turns over which its torque falls away";
    cylinder_turns_per_spring_turn: Real, "", "Turns of the cylinder per turn of the spring barrel";
    friction_torque_n_m: Real, "N·m", "Friction of the train at the cylinder";
    fly_drag_n_m_s2: Real, "N·m·s²", "Air drag of the fly (τ = c·ω²): more plays slower";
    fly_ratio: Real, "", "Turns of the fly per turn of the cylinder";
    case_lowest_mode_hz: Real, "Hz", "Frequency of the case's lowest mode";
    case_modes: Count, "", "Number of the case's modes";
    case_highest_mode_hz: Real, "Hz", "Frequency of the case's highest mode";
    case_t60_s: Real, "s", "Time the case's modes take to fade by 60 dB";
    case_modal_mass_kg: Real, "kg", "Mass of each case mode at the comb: less makes the case louder";
    damped_below_key: Key, "", "Tines below this key have a damper";
    damper_press_m: Real, "m", "How far the pin presses a damper's pad onto its tine: more stills a ringing tine sooner";
    damper_stiffness_n_per_m: Real, "N/m", "Stiffness of a damper's pad";
    damper_hysteresis_s_per_m: Real, "s/m", "Loss of a damper's pad";
});

/// The music box's own object kind, as its presets list it.
pub const KINDS: &[ObjectKind] = &[ObjectKind::of::<MusicBoxSpec>("music-box")];

/// The nearest a music box's pin may meet its tine to the clamp, as a
/// fraction of the tine's length.
///
/// A pin bends its tine by the lift where it meets it, and the tip swings by
/// that bend times the length's ratio to the pin's distance from the clamp,
/// cubed and more: met nearer the clamp than half its length, a tine would
/// be bent far past what steel bears (and swing at tens of metres per
/// second).
pub const MIN_PIN_POSITION: f64 = 0.5;

impl ObjectSpec for MusicBoxSpec {
    fn kind(&self) -> &'static str {
        "music-box"
    }

    fn fields(&mut self) -> &mut dyn Fields {
        self
    }

    fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        self.check(c)
    }

    /// Its comb is what the pins strike, near the tips.
    fn struck(&self) -> Option<StrikeRange> {
        Some(StrikeRange {
            min: MIN_PIN_POSITION,
            max: 0.99,
            text: "0.5 to 0.99 of a tine: pins pluck near the tip",
        })
    }

    fn check_in(
        &self,
        name: &str,
        preset: &Preset,
        topology: &Topology<'_>,
        root: &Checker,
    ) -> Result<(), PresetError> {
        let lead_m = topology.hammers.start_gap_m;
        check_comb(preset, self, lead_m, &root.child(name))?;
        check_pins(
            self,
            topology.hammers,
            &root.child(&topology.strike.hammers),
        )
    }
}

/// A music box's dampers press less than half the pins' lead `lead_m`
/// (m), and every tine of its comb is on the keyboard (a tine off it
/// would have no voice) and can be cut for its key's pitch (a
/// key far below the longest tine's pitch would need more lead than
/// [`super::comb::MAX_TIP_MASS_RATIO`] times the
/// tine's mass): checked as `NAME:keys`.
fn check_comb(
    preset: &Preset,
    spec: &MusicBoxSpec,
    lead_m: f64,
    c: &Checker,
) -> Result<(), PresetError> {
    if spec.keys.iter().any(|&key| key < spec.damped_below_key) {
        c.require(
            2.0 * spec.damper_press_m < lead_m,
            "damper_press_m",
            spec.damper_press_m,
            "under half the pins' start_gap_m: the pin lifts a damper's wire over the first \
             half of its lead, before it reaches the tip",
        )?;
    }
    for &key in &spec.keys {
        c.require(
            (preset.keyboard.lowest_key..=preset.keyboard.highest_key).contains(&key),
            "keys",
            f64::from(key),
            "keys of the keyboard, keyboard:lowest_key to keyboard:highest_key",
        )?;
        c.require(
            TineDesign::new(spec, key, preset.fundamental_hz(key)).is_ok(),
            "keys",
            f64::from(key),
            "keys a tine can be cut for: with the tine at longest_tine_m, at most 50 times its mass in lead",
        )?;
    }
    Ok(())
}

/// The least Hunt–Crossley loss of a music box's pin on its tine, s/m.
///
/// A pin is no lossless spring: it is an oiled steel wire standing proud of
/// the cylinder, and it bends as it pushes, so a pin that comes to a tine
/// still ringing stills it within a few cycles (the built-in box's 2 s/m:
/// a blow at 0.3 m/s keeps about 60 % of its speed). Below about 1 s/m that
/// chatter of the tine on the steadily driven pin gains energy in the
/// contact's discrete solution until the tine's motion overflows, so a
/// box's pins take 1 s/m or more (up to the felts' 2 s/m).
pub const MIN_PIN_HYSTERESIS_S_PER_M: f64 = 1.0;

/// A music box's pins have at least [`MIN_PIN_HYSTERESIS_S_PER_M`] of loss:
/// at every anchor (`PINS/anchor/KEY:felt_hysteresis_s_per_m`, the range
/// an editor offers) and at every tine of `spec`'s comb, where an anchor
/// that does not give it would leave the lossless default.
fn check_pins(spec: &MusicBoxSpec, pins: &HammerSet, c: &Checker) -> Result<(), PresetError> {
    let least = MIN_PIN_HYSTERESIS_S_PER_M;
    let range = "1 to 2 s/m for a music box's pins: a lossless pin catching a ringing tine \
                 gains energy";
    c.each_anchor(&pins.anchor, |c, a| {
        c.range(
            "felt_hysteresis_s_per_m",
            a.felt_hysteresis_s_per_m,
            least,
            2.0,
            range,
        )
    })?;
    for &key in &spec.keys {
        let loss = pins.felt(key).map_or(0.0, |law| law.hysteresis_s_per_m);
        c.child(&format!("{}/key/{key}", c.component())).require(
            loss >= least,
            "felt_hysteresis_s_per_m",
            loss,
            range,
        )?;
    }
    Ok(())
}
