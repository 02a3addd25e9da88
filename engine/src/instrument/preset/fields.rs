//! The numeric fields of every part of a preset, by name, with their units and
//! what they do to the sound: what property paths reach and editors show.

use super::anchored::Anchored;
use super::celesta_spec::CelestaSpec;
use super::clock_spec::ClockSpec;
use super::music_box_spec::MusicBoxSpec;
use super::objects::{
    ActionSpec, BarSet, DamperSet, HammerAnchor, HammerSet, LOSSLESS_FELT, SoundboardSpec,
    StringAnchor, StringSet, UNRELAXING_FELT,
};
use super::properties::ValueKind;
use super::room_spec::RoomSpec;
use super::topology::{StrikeAnchor, StrikeSpec};
use super::{Keyboard, OutputSpec};
use crate::instrument::StretchedTuning;
use crate::instrument::VelocityCurve;
use crate::wdf::UNUSED_RELAXATION_S;

/// What a field is, for a musician: its name, SI unit (`""` for a ratio or a
/// count) and one line on what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct About {
    /// The name after the `:` of a path.
    pub name: &'static str,
    /// SI unit.
    pub unit: &'static str,
    /// One line for a musician or sound designer.
    pub description: &'static str,
}

/// A numeric field, whatever its type.
pub(super) enum Field<'a> {
    Real(&'a mut f64),
    Key(&'a mut u8),
    Count(&'a mut u32),
    Switch(&'a mut bool),
}

impl Field<'_> {
    pub fn get(&self) -> f64 {
        match self {
            Self::Real(x) => **x,
            Self::Key(x) => f64::from(**x),
            Self::Count(x) => f64::from(**x),
            Self::Switch(x) => f64::from(u8::from(**x)),
        }
    }

    /// What kind of number it holds.
    pub fn kind(&self) -> ValueKind {
        match self {
            Self::Real(_) => ValueKind::Real,
            Self::Key(_) => ValueKind::MidiKey,
            Self::Count(_) => ValueKind::Count,
            Self::Switch(_) => ValueKind::Switch,
        }
    }

    /// Stores `value`, which must suit the field's type: a whole MIDI key, a
    /// whole count, 0 or 1 for a switch.
    pub fn set(&mut self, value: f64) -> Result<(), &'static str> {
        let whole = value.fract() == 0.0;
        match self {
            Self::Real(x) => **x = value,
            Self::Key(x) if whole && (0.0..=127.0).contains(&value) => **x = value as u8,
            Self::Key(_) => return Err("a MIDI key, 0 to 127"),
            Self::Count(x) if whole && (0.0..=f64::from(u32::MAX)).contains(&value) => {
                **x = value as u32;
            }
            Self::Count(_) => return Err("a whole number"),
            Self::Switch(x) if value == 0.0 || value == 1.0 => **x = value == 1.0,
            Self::Switch(_) => return Err("0 or 1"),
        }
        Ok(())
    }
}

/// The numeric fields of a part of a preset, by name.
pub(super) trait Fields {
    /// Every numeric field, in the order the preset lists them.
    fn about(&self) -> &'static [About];
    /// One field.
    fn field(&mut self, name: &str) -> Option<Field<'_>>;
}

macro_rules! fields {
    ($ty:ty { $($field:ident: $kind:ident, $unit:literal, $description:literal;)* }) => {
        impl Fields for $ty {
            fn about(&self) -> &'static [About] {
                &[$(About {
                    name: stringify!($field),
                    unit: $unit,
                    description: $description,
                }),*]
            }

            #[allow(clippy::match_single_binding)] // a part without fields
            fn field(&mut self, name: &str) -> Option<Field<'_>> {
                match name {
                    $(stringify!($field) => Some(Field::$kind(&mut self.$field)),)*
                    _ => None,
                }
            }
        }
    };
}

/// The optional fields of one anchor (all real numbers), by name.
pub(super) trait AnchorFields: Anchored + Sized {
    /// Every field, in the order presets list them.
    const ABOUT: &'static [About];

    /// An anchor at `key` that gives no field.
    fn empty(key: u8) -> Self;

    /// The field called `name`: `Some(value)` if the anchor gives it, `Some(None)`
    /// if not, `None` if there is no such field.
    fn slot(&self, name: &str) -> Option<Option<f64>>;

    /// The field called `name`, to give or take away.
    fn slot_mut(&mut self, name: &str) -> Option<&mut Option<f64>>;

    /// The value of field `name` where no anchor gives it, if it has one; the
    /// other fields must be given by at least one anchor.
    fn ungiven(name: &str) -> Option<f64>;

    /// Whether the anchors have a field called `name`.
    fn has_field(name: &str) -> bool {
        Self::ABOUT.iter().any(|field| field.name == name)
    }

    /// Whether the anchor gives field `name`.
    fn gives(&self, name: &str) -> bool {
        self.slot(name).flatten().is_some()
    }

    /// Whether the anchor gives no field at all.
    fn gives_nothing(&self) -> bool {
        Self::ABOUT.iter().all(|field| !self.gives(field.name))
    }
}

macro_rules! anchor_fields {
    ($ty:ident { $($field:ident $(= $ungiven:expr)?, $unit:literal, $description:literal;)* }) => {
        impl AnchorFields for $ty {
            const ABOUT: &'static [About] = &[$(About {
                name: stringify!($field),
                unit: $unit,
                description: $description,
            }),*];

            fn empty(key: u8) -> Self {
                Self { key, $($field: None),* }
            }

            fn slot(&self, name: &str) -> Option<Option<f64>> {
                match name {
                    $(stringify!($field) => Some(self.$field),)*
                    _ => None,
                }
            }

            fn slot_mut(&mut self, name: &str) -> Option<&mut Option<f64>> {
                match name {
                    $(stringify!($field) => Some(&mut self.$field),)*
                    _ => None,
                }
            }

            fn ungiven(name: &str) -> Option<f64> {
                match name {
                    $(stringify!($field) => {
                        let fallback: &[f64] = &[$($ungiven)?];
                        fallback.first().copied()
                    })*
                    _ => None,
                }
            }
        }
    };
}

fields!(StretchedTuning {
    a4_hz: Real, "Hz", "Concert pitch: the frequency of A4's first partial";
    stretch: Real, "",
        "How far octaves stretch to follow the strings' inharmonicity: 0 equal temperament, 1 beatless octaves";
    temperament: Count, "",
        "Temperament: 0 equal, 1 Werckmeister III, 2 Vallotti, 3 Kirnberger III, 4 1/4-comma meantone, 5 Pythagorean";
    temperament_key: Count, "", "The key the temperament is laid from: 0 C, 1 C♯, 2 D … 11 B";
});
fields!(Keyboard {
    lowest_key: Key, "", "Lowest MIDI key that plays";
    highest_key: Key, "", "Highest MIDI key that plays";
});
fields!(VelocityCurve {
    softest_speed_m_s: Real, "m/s", "Hammer speed at the softest touch (MIDI velocity 1)";
    hardest_speed_m_s: Real, "m/s", "Hammer speed at the hardest touch (MIDI velocity 127)";
    curve: Real, "",
        "Touch curve: 1 spreads the speeds evenly over the velocities, above 1 softens the middle velocities, below 1 hardens them";
});
fields!(OutputSpec {
    gain_per_newton: Real, "1/N",
        "Output level per newton of bridge force (for bars: per m/s at the pickup)";
    stereo_width: Real, "",
        "How widely the keyboard spreads across the stereo field: 0 mono, 1 lowest key hard left";
    microphone: Count, "",
        "Where a piano is heard from: 0 the bridge (the board alone), 1 the pianist's seat, 2 close over the strings (both add the strings' own sound)";
});
fields!(RoomSpec {
    mix: Real, "", "How much of the room is heard: 0 dry (the room off), 1 the room alone";
    t60_s: Real, "s", "Time the room's reverb takes to fade by 60 dB";
    width_m: Real, "m", "Width of the room, left to right as the listener faces the instrument";
    depth_m: Real, "m", "Depth of the room, from the instrument's wall to the back wall";
    height_m: Real, "m", "Height of the room";
    absorption: Real, "", "Energy the walls absorb at each reflection: more makes the early reflections weaker";
});
fields!(StringSet {
    pairs_from_key: Key, "", "Lowest key with two strings; the keys below have one";
    triples_from_key: Key, "", "Lowest key with three strings";
    detune_cents: Real, "cents",
        "Spread of the tunings of a note's strings: more gives a livelier, beating unison";
});
anchor_fields!(StringAnchor {
    length_m, "m", "Speaking length of the string";
    string_mass_kg, "kg",
        "Mass of the speaking length: a heavier string has more tension at the same pitch";
    loss_b1, "1/s", "Damping of every partial alike: more makes the note die away sooner";
    loss_b2, "m²/s",
        "Damping that grows with frequency: more makes the upper partials die sooner, a darker tone";
    inharmonicity, "",
        "Stiffness of the string: partials sharpen as n·f0·√(1 + B·n²), a metallic edge";
    bridge_impedance_kg_s, "kg/s",
        "Resistance of the bridge under the key's strings: lower couples them more to the bridge, shorter sustain";
});
fields!(BarSet {
    mass_kg: Real, "kg", "Mass of each bar";
    pickup_position: Real, "", "Where the sound is picked up, as a fraction of the bar's length";
});
fields!(HammerSet {
    start_gap_m: Real, "m",
        "Gap between felt and target when the hammer starts its free flight (the action's let-off)";
});
anchor_fields!(HammerAnchor {
    mass_kg, "kg", "Hammer mass per string struck: a heavier hammer stays longer and sounds rounder";
    felt_stiffness, "N/m^p", "Felt stiffness K of F = K·x^p, per string struck: harder felt sounds brighter";
    felt_exponent, "",
        "Felt exponent p of F = K·x^p: higher makes the felt harden as it compresses, brighter when loud";
    felt_hysteresis_s_per_m = LOSSLESS_FELT, "s/m",
        "Felt hysteresis β of F = K·x^p·(1 + β·ẋ): how much of the blow the felt absorbs (0 lossless)";
    felt_relaxing_fraction = UNRELAXING_FELT, "",
        "Part of the felt's stiffness a slow blow relaxes away: more makes soft notes darker than loud ones";
    felt_relaxation_s = UNUSED_RELAXATION_S, "s",
        "Time the felt takes to relax: blows much shorter meet the whole stiffness";
});
fields!(DamperSet {
    t60_s: Real, "s", "Time a damped string takes to fade by 60 dB";
    travel_s: Real, "s", "How quickly a damper lands on the strings after its key rises";
    highest_damped_key: Key, "", "Highest key with a damper: the strings above ring freely";
});
fields!(ActionSpec {
    blow_distance_m: Real, "m", "Hammer travel from rest to the string";
    check_drop_m: Real, "m", "How far below the string the check catches a falling hammer";
    restitution: Real, "", "Fraction of its strike speed a hammer rebounds with";
    key_return_s: Real, "s", "Time a released key takes to rise fully";
    repetition_rise: Real, "", "How far a key must rise (fraction of its dip) before it repeats";
    realistic_travel: Switch, "",
        "1: simulate the jack's whole stroke (tens of ms late); 0: throw the hammer from let-off at once";
});
fields!(SoundboardSpec {
    modes: Count, "", "Number of resonant body modes";
    lowest_mode_hz: Real, "Hz", "Frequency of the lowest body mode";
    highest_mode_hz: Real, "Hz", "Frequency of the highest body mode";
    lowest_mode_t60_s: Real, "s",
        "60 dB decay time of the lowest body mode (higher ones decay faster)";
    modal_mass_kg: Real, "kg",
        "Mass of each body mode at the bridge: less lets the strings move the board more, shorter and more coupled";
    body_gain: Real, "", "Level of the body's ring against the direct bridge sound";
    seed: Count, "", "Which board: each seed places and shapes the modes differently";
    surface_density_kg_m2: Real, "kg/m²",
        "Mass of a square metre of the board with its ribs: sets how loud the board is against the strings' own sound";
});
fields!(ClockSpec {
    time_h: Real, "h", "The time the hands show when the clock starts, hours after midnight";
    running: Switch, "", "1: the balance swings and the clock goes; 0: stopped, the balance held";
    wound: Real, "", "How far the mainspring is wound: 0 run down, 1 eight turns";
    balance_inertia_kg_m2: Real, "kg·m²", "Moment of inertia of the balance: more beats slower, as the square root";
    hairspring_n_m_per_rad: Real, "N·m/rad", "Stiffness of the hairspring: stiffer beats faster, as the square root";
    pallet_stiffness: Real, "N/m^1.5", "Hertzian stiffness of a tooth striking a pallet: harder steel ticks brighter";
    plate_width_m: Real, "m", "Width of the movement's brass back plate";
    plate_height_m: Real, "m", "Height of the movement's brass back plate";
    plate_thickness_m: Real, "m", "Thickness of the plate: thicker rings higher";
    plate_loss_factor: Real, "", "Loss factor of the mounted plate: more makes the ticks drier";
    case_lowest_mode_hz: Real, "Hz", "Frequency of the wooden case's lowest mode";
    case_modes: Count, "", "Number of the wooden case's modes";
    case_highest_mode_hz: Real, "Hz", "Frequency of the wooden case's highest mode";
    case_t60_s: Real, "s", "Time the case's modes take to fade by 60 dB";
    case_modal_mass_kg: Real, "kg", "Mass of each case mode at the movement: less makes the case louder";
    chime_torque_n_m: Real, "N·m", "Torque of the chime train's spring at its pin barrel: more plays the quarters faster";
    strike_torque_n_m: Real, "N·m", "Torque of the strike train's spring at its pin wheel: more counts the hours faster";
    fly_drag_n_m_s2: Real, "N·m·s²", "Air drag of each train's fly (τ = c·ω²): more plays the trains slower";
    fly_ratio: Real, "", "Turns of the fly per turn of its barrel";
    barrel_inertia_kg_m2: Real, "kg·m²", "Moment of inertia of a pin barrel and its train";
    hammer_lift_rad: Real, "rad", "Angle a pin lifts a hammer through: more strikes harder";
    hammer_spring_n_m_per_rad: Real, "N·m/rad", "Stiffness of a hammer's spring: stiffer strikes harder";
    hammer_inertia_kg_m2: Real, "kg·m²", "Moment of inertia of a hammer about its arbor";
    hammer_arm_m: Real, "m", "Distance from a hammer's arbor to its head";
    bell_1_key: Key, "", "Rod of the first (highest) quarter bell";
    bell_2_key: Key, "", "Rod of the second quarter bell";
    bell_3_key: Key, "", "Rod of the third quarter bell";
    bell_4_key: Key, "", "Rod of the fourth (lowest) quarter bell";
    hour_key: Key, "", "Rod that counts the hours";
});
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
fields!(CelestaSpec {
    partial_ratio_2: Real, "", "Second partial of a tuned bar over its fundamental (uniform bar: 2.7565)";
    partial_ratio_3: Real, "", "Third partial of a tuned bar over its fundamental (uniform bar: 5.4039)";
    blow_distance_m: Real, "m", "Hammer travel from rest to the bar: longer strikes later after the key";
    damper_t60_s: Real, "s", "Time a damped bar takes to fade by 60 dB: shorter stops notes sooner";
    box_coupling: Real, "", "Stiffness of a box's air over its bar's (0: no boxes): more couples them harder";
    box_q: Real, "", "Quality factor of a box's air resonance: more rings the box longer and louder";
    mouth_gain: Real, "", "Level of the boxes' mouths against the bars' own sound";
});
fields!(StrikeSpec {});
anchor_fields!(StrikeAnchor {
    position, "",
        "Strike point, as a fraction of the string's length from the agraffe (of a bar's from one end)";
});
