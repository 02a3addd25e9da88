//! A chiming clock's movement, case and trains as a preset lists them
//! (`[clock.NAME]`): what the chiming-clock family builds its mechanics and
//! its ticking body from.

use serde::{Deserialize, Serialize};

use crate::fields;
use crate::instrument::{Bound, Instrument, Link, ObjectKind, ObjectSpec, case};
use crate::props::DeclaredRange;

/// A chiming bracket clock: its going train (the `bracket-movement`
/// mechanism, with these values), the brass plate and wooden case its ticks
/// ring in, and the chime and strike trains that lift the hammers it
/// `drives` onto the rods.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    /// The hammers its chime and strike trains lift.
    pub drives: String,
    /// The time the hands show when the clock starts, hours after midnight
    /// (0 to 24).
    pub time_h: f64,
    /// Whether the balance swings (false: held still, the clock stopped).
    pub running: bool,
    /// How far the mainspring is wound, 0 (run down) to 1 (eight turns).
    pub wound: f64,
    /// Moment of inertia of the balance, kg·m².
    pub balance_inertia_kg_m2: f64,
    /// Stiffness of the hairspring, N·m/rad.
    pub hairspring_n_m_per_rad: f64,
    /// Stiffness `K` of the steel-on-steel contact of a tooth on a pallet,
    /// `F = K·x^1.5` (Hertz), N/m^1.5.
    pub pallet_stiffness: f64,
    /// Width of the movement's brass back plate, m.
    pub plate_width_m: f64,
    /// Height of the plate, m.
    pub plate_height_m: f64,
    /// Thickness of the plate, m.
    pub plate_thickness_m: f64,
    /// Loss factor `η` of the mounted plate (a mode at `f` decays 60 dB in
    /// `2.2/(η·f)` s).
    pub plate_loss_factor: f64,
    /// Frequency of the wooden case's lowest mode, Hz.
    pub case_lowest_mode_hz: f64,
    /// Number of the case's modes, spread evenly in log frequency.
    pub case_modes: u32,
    /// Frequency of the case's highest mode, Hz.
    pub case_highest_mode_hz: f64,
    /// 60 dB decay time of the case's modes, s.
    pub case_t60_s: f64,
    /// Mass of each case mode where the movement is screwed in, kg.
    pub case_modal_mass_kg: f64,
    /// Torque of the chime train's spring at its pin barrel, N·m.
    pub chime_torque_n_m: f64,
    /// Torque of the strike train's spring at its pin wheel, N·m.
    pub strike_torque_n_m: f64,
    /// Drag of each train's fly, `τ = c·ω²` at the fly, N·m·s².
    pub fly_drag_n_m_s2: f64,
    /// How many turns the fly makes per turn of its barrel.
    pub fly_ratio: f64,
    /// Moment of inertia of a pin barrel and its train, seen at the barrel, kg·m².
    pub barrel_inertia_kg_m2: f64,
    /// Angle a pin lifts a hammer through, rad.
    pub hammer_lift_rad: f64,
    /// Stiffness of a hammer's spring, N·m/rad.
    pub hammer_spring_n_m_per_rad: f64,
    /// Moment of inertia of a hammer about its arbor, kg·m².
    pub hammer_inertia_kg_m2: f64,
    /// Distance from a hammer's arbor to its head, m.
    pub hammer_arm_m: f64,
    /// The rods of the four quarter bells, highest first (Westminster's
    /// bells 1 to 4: G♯4, F♯4, E4, B3 in E major).
    pub bell_1_key: u8,
    /// Bell 2.
    pub bell_2_key: u8,
    /// Bell 3.
    pub bell_3_key: u8,
    /// Bell 4, the lowest quarter bell.
    pub bell_4_key: u8,
    /// The rod that counts the hours.
    pub hour_key: u8,
}

impl ClockSpec {
    /// The quarter bells' keys, bell 1 first.
    pub fn bell_keys(&self) -> [u8; 4] {
        [
            self.bell_1_key,
            self.bell_2_key,
            self.bell_3_key,
            self.bell_4_key,
        ]
    }

    /// The rods its hammers strike, by name: the four quarter bells' and
    /// the hour's.
    pub fn rod_keys(&self) -> [(&'static str, u8); 5] {
        [
            ("bell_1_key", self.bell_1_key),
            ("bell_2_key", self.bell_2_key),
            ("bell_3_key", self.bell_3_key),
            ("bell_4_key", self.bell_4_key),
            ("hour_key", self.hour_key),
        ]
    }
}

fields!(ClockSpec {
    time_h: Real, "h", [0.0, 24.0, "0 to 24 h"], "The time the hands show when the clock starts, hours after midnight", live;
    running: Switch, "", "1: the balance swings and the clock goes; 0: stopped, the balance held", live;
    wound: Real, "", [0.0, 1.0, "0 to 1"], "How far the mainspring is wound: 0 run down, 1 eight turns", live;
    balance_inertia_kg_m2: Real, "kg·m²", [1e-10, 1e-6, "1e-10 to 1e-6 kg·m²"], "Moment of inertia of the balance: more beats slower, as the square root", live;
    hairspring_n_m_per_rad: Real, "N·m/rad", [1e-8, 1e-3, "1e-8 to 1e-3 N·m/rad"], "Stiffness of the hairspring: stiffer beats faster, as the square root", live;
    pallet_stiffness: Real, "N/m^1.5", [1e7, 1e11, "1e7 to 1e11 N/m^1.5"], "Hertzian stiffness of a tooth striking a pallet: harder steel ticks brighter";
    plate_width_m: Real, "m", [0.03, 0.5, "3 to 50 cm"], "Width of the movement's brass back plate";
    plate_height_m: Real, "m", [0.03, 0.5, "3 to 50 cm"], "Height of the movement's brass back plate";
    plate_thickness_m: Real, "m", [5e-4, 0.01, "0.5 to 10 mm"], "Thickness of the plate: thicker rings higher";
    plate_loss_factor: Real, "", [1e-4, 0.2, "1e-4 to 0.2"], "Loss factor of the mounted plate: more makes the ticks drier";
    case_lowest_mode_hz: Real, "Hz", [= case::LOWEST_MODE_HZ], "Frequency of the wooden case's lowest mode";
    case_modes: Count, "", [= case::MODES], "Number of the wooden case's modes";
    case_highest_mode_hz: Real, "Hz", [= case::HIGHEST_MODE_HZ], at_least case_lowest_mode_hz, "Frequency of the wooden case's highest mode";
    case_t60_s: Real, "s", [= case::T60_S], "Time the case's modes take to fade by 60 dB";
    case_modal_mass_kg: Real, "kg", [= case::MODAL_MASS_KG], "Mass of each case mode at the movement: less makes the case louder";
    chime_torque_n_m: Real, "N·m", [1e-3, 10.0, "1e-3 to 10 N·m"], "Torque of the chime train's spring at its pin barrel: more plays the quarters faster";
    strike_torque_n_m: Real, "N·m", [1e-3, 10.0, "1e-3 to 10 N·m"], "Torque of the strike train's spring at its pin wheel: more counts the hours faster";
    fly_drag_n_m_s2: Real, "N·m·s²", [1e-9, 1e-3, "1e-9 to 1e-3 N·m·s²"], "Air drag of each train's fly (τ = c·ω²): more plays the trains slower";
    fly_ratio: Real, "", [10.0, 10000.0, "10 to 10 000"], "Turns of the fly per turn of its barrel";
    barrel_inertia_kg_m2: Real, "kg·m²", [1e-6, 1.0, "1e-6 to 1 kg·m²"], "Moment of inertia of a pin barrel and its train";
    hammer_lift_rad: Real, "rad", [0.02, 1.0, "0.02 to 1 rad"], "Angle a pin lifts a hammer through: more strikes harder";
    hammer_spring_n_m_per_rad: Real, "N·m/rad", [1e-3, 10.0, "1e-3 to 10 N·m/rad"], "Stiffness of a hammer's spring: stiffer strikes harder";
    hammer_inertia_kg_m2: Real, "kg·m²", [1e-7, 1e-2, "1e-7 to 1e-2 kg·m²"], "Moment of inertia of a hammer about its arbor";
    hammer_arm_m: Real, "m", [0.01, 0.3, "1 to 30 cm"], "Distance from a hammer's arbor to its head";
    bell_1_key: Key, "", [0.0, 127.0, "a MIDI key, 0 to 127"], "Rod of the first (highest) quarter bell";
    bell_2_key: Key, "", [0.0, 127.0, "a MIDI key, 0 to 127"], "Rod of the second quarter bell";
    bell_3_key: Key, "", [0.0, 127.0, "a MIDI key, 0 to 127"], "Rod of the third quarter bell";
    bell_4_key: Key, "", [0.0, 127.0, "a MIDI key, 0 to 127"], "Rod of the fourth (lowest) quarter bell";
    hour_key: Key, "", [0.0, 127.0, "a MIDI key, 0 to 127"], "Rod that counts the hours";
});

/// The clock's own object kind, as its presets list it.
pub const KINDS: &[ObjectKind] = &[ObjectKind::of::<ClockSpec>("clock")];

impl ObjectSpec for ClockSpec {
    fn kind(&self) -> &'static str {
        "clock"
    }

    fn link(&self) -> Option<Link<'_>> {
        Some(Link::to_hammers("drives", &self.drives))
    }

    /// Every rod it strikes must be one the instrument has: a key of its
    /// keyboard, each of which has a rod. A key outside would strike
    /// nothing, or another rod.
    fn bounds_in(&self, name: &str, instrument: &Instrument<'_>) -> Vec<Bound> {
        let keyboard = instrument.keyboard;
        let on_the_keyboard = DeclaredRange {
            min: f64::from(keyboard.lowest_key),
            max: f64::from(keyboard.highest_key),
            text: "a key that has a rod: keyboard:lowest_key to keyboard:highest_key",
        };
        self.rod_keys()
            .into_iter()
            .map(|(field, _)| Bound::new(name, field, on_the_keyboard))
            .collect()
    }
}
