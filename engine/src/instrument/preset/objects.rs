//! The objects an instrument is made of, as a preset lists them.
//!
//! Objects are listed by kind and name: `[KIND.NAME]`, e.g. `[felt-hammers.hammers]`.
//! Values that change across the keyboard are given at anchor keys
//! (`[[KIND.NAME.anchor]]`); an anchor gives any of its set's fields, and a
//! field an anchor does not give is interpolated between the nearest anchors
//! that do (see [`super::anchored`]).

use serde::{Deserialize, Serialize};

use super::PresetError;
use super::anchored::{Anchored, value_at};
use super::celesta_spec::CelestaSpec;
use super::check::Checker;
use super::clock_spec::ClockSpec;
use super::music_box_spec::MusicBoxSpec;
use crate::resonators::SoundboardParams;
use crate::wdf::{FeltLaw, UNUSED_RELAXATION_S};

/// Most modes a bar may list.
pub const MAX_BAR_MODES: usize = 3;

/// Felt hysteresis (s/m) where no anchor gives one: a lossless felt, as every
/// hammer was before the felt had hysteresis.
pub const LOSSLESS_FELT: f64 = 0.0;

/// Felt relaxing fraction where no anchor gives one: a felt that does not
/// relax, as every hammer was before the felt relaxed.
pub const UNRELAXING_FELT: f64 = 0.0;

/// One object of an instrument, as its kind's table lists it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Object<'a> {
    /// One to three stiff strings per key on a shared bridge.
    StiffStrings(&'a StringSet),
    /// One uniform free-free bar per key.
    FreeFreeBars(&'a BarSet),
    /// One uniform bar per key clamped at one end (a clock's gong rod, a
    /// music box's tine).
    ClampedFreeBars(&'a BarSet),
    /// One felt hammer (or mallet) per key.
    FeltHammers(&'a HammerSet),
    /// Dampers that press on the strings of released keys.
    Dampers(&'a DamperSet),
    /// A grand piano action that throws the hammers and lifts the dampers.
    GrandAction(&'a ActionSpec),
    /// A body of resonant modes that radiates the bridge's motion.
    Soundboard(&'a SoundboardSpec),
    /// A chiming clock whose trains lift the hammers.
    Clock(&'a ClockSpec),
    /// A music box: a comb of tines (what its pins pluck), its cylinder,
    /// mechanism and case.
    MusicBox(&'a MusicBoxSpec),
    /// A celesta's action, dampers and resonator boxes.
    Celesta(&'a CelestaSpec),
}

impl Object<'_> {
    /// The kind's name: the table a preset lists such objects under.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::StiffStrings(_) => "stiff-strings",
            Self::FreeFreeBars(_) => "free-free-bars",
            Self::ClampedFreeBars(_) => "clamped-free-bars",
            Self::FeltHammers(_) => "felt-hammers",
            Self::Dampers(_) => "dampers",
            Self::GrandAction(_) => "grand-action",
            Self::Soundboard(_) => "soundboard",
            Self::Clock(_) => "clock",
            Self::MusicBox(_) => "music-box",
            Self::Celesta(_) => "celesta",
        }
    }

    /// Checks the object's values with `c`, the checker of its path (its name).
    pub(super) fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        match self {
            Self::StiffStrings(set) => set.validate(c),
            Self::FreeFreeBars(set) | Self::ClampedFreeBars(set) => set.validate(c),
            Self::FeltHammers(set) => set.validate(c),
            Self::Dampers(set) => set.validate(c),
            Self::GrandAction(spec) => spec.validate(c),
            Self::Soundboard(spec) => spec.validate(c),
            Self::Clock(spec) => spec.validate(c),
            Self::MusicBox(spec) => spec.validate(c),
            Self::Celesta(spec) => spec.validate(c),
        }
    }
}

/// How a bar is held, which sets its modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarEnds {
    /// Free at both ends, resting on its nodes (marimba, celesta):
    /// partials 1 : 2.7565 : 5.4039.
    FreeFree,
    /// Clamped at one end (a gong rod, a music-box tine): partials
    /// 1 : 6.267 : 17.55. Positions along it are measured from the clamp.
    ClampedFree,
}

/// Stiff strings: one in the low bass, pairs, then triples, tuned in unison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StringSet {
    /// Lowest MIDI key with two strings; keys below have one.
    pub pairs_from_key: u8,
    /// Lowest MIDI key with three strings (at least `pairs_from_key`).
    pub triples_from_key: u8,
    /// Spread of a note's string tunings, cents: three strings sit at −d, 0, +d,
    /// two at ±d/2.
    pub detune_cents: f64,
    /// Values at anchor keys, in ascending key order.
    pub anchor: Vec<StringAnchor>,
}

/// One string's physical values at an anchor key. A field the anchor does not
/// give (`None`; omitted in the preset) is interpolated between the nearest
/// anchors that give it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StringAnchor {
    /// MIDI key.
    pub key: u8,
    /// Speaking length, m.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length_m: Option<f64>,
    /// Mass of the speaking length, kg.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub string_mass_kg: Option<f64>,
    /// Frequency-independent loss `b1`, 1/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss_b1: Option<f64>,
    /// Frequency-dependent loss `b2`, m²/s (`σ = b1 + b2·k²`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss_b2: Option<f64>,
    /// Inharmonicity `B` of the string's stiffness (partials at `n·f0·√(1 + B·n²)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inharmonicity: Option<f64>,
    /// Resistive impedance of the bridge under this key's strings, kg/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bridge_impedance_kg_s: Option<f64>,
}

impl Anchored for StringAnchor {
    fn key(&self) -> u8 {
        self.key
    }
}

impl StringSet {
    /// Number of strings of `key`: 1, 2 or 3, from the split points.
    pub fn strings_per_key(&self, key: u8) -> usize {
        if key >= self.triples_from_key {
            3
        } else if key >= self.pairs_from_key {
            2
        } else {
            1
        }
    }

    /// The value of an anchor field at `key` (see [`value_at`]).
    pub fn at(&self, key: u8, field: fn(&StringAnchor) -> Option<f64>) -> Option<f64> {
        value_at(&self.anchor, key, field)
    }

    fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        c.range(
            "detune_cents",
            self.detune_cents,
            0.0,
            50.0,
            "0 to 50 cents",
        )?;
        c.ordered(
            ("pairs_from_key", f64::from(self.pairs_from_key)),
            ("triples_from_key", f64::from(self.triples_from_key)),
            "at least pairs_from_key",
        )?;
        c.each_anchor(&self.anchor, |c, a| {
            c.range("length_m", a.length_m, 0.01, 3.0, "0.01 to 3 m")?;
            c.range(
                "string_mass_kg",
                a.string_mass_kg,
                1e-5,
                1.0,
                "0.01 g to 1 kg",
            )?;
            c.range("loss_b1", a.loss_b1, 1e-3, 100.0, "0.001 to 100 1/s")?;
            c.range("loss_b2", a.loss_b2, 0.0, 0.1, "0 to 0.1 m²/s")?;
            c.range("inharmonicity", a.inharmonicity, 0.0, 0.1, "0 to 0.1")?;
            c.range(
                "bridge_impedance_kg_s",
                a.bridge_impedance_kg_s,
                1.0,
                1e6,
                "1 to 1e6 kg/s",
            )
        })
    }
}

/// Uniform bars with free ends, one per key, tuned to the keyboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarSet {
    /// Mass of each bar, kg.
    pub mass_kg: f64,
    /// 60 dB decay time of each bending mode, s (one to three modes).
    pub t60_s: Vec<f64>,
    /// Where the sound is picked up, as a fraction of the bar's length.
    pub pickup_position: f64,
}

impl BarSet {
    fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        c.range("mass_kg", self.mass_kg, 1e-4, 100.0, "0.1 g to 100 kg")?;
        c.require(
            (1..=MAX_BAR_MODES).contains(&self.t60_s.len()),
            "t60_s",
            self.t60_s.len() as f64,
            "one to three decay times",
        )?;
        for &t60 in &self.t60_s {
            c.range("t60_s", t60, 1e-3, 100.0, "1 ms to 100 s")?;
        }
        c.range(
            "pickup_position",
            self.pickup_position,
            0.001,
            0.999,
            "strictly between 0 and 1",
        )
    }
}

/// Felt hammers (or mallets): a mass with a felt head, one per key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HammerSet {
    /// Distance between felt and target when the hammer is released into its
    /// free flight (the action's let-off distance), m.
    pub start_gap_m: f64,
    /// Values at anchor keys, in ascending key order.
    pub anchor: Vec<HammerAnchor>,
}

/// A hammer's physical values at an anchor key. A field the anchor does not
/// give (`None`; omitted in the preset) is interpolated between the nearest
/// anchors that give it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HammerAnchor {
    /// MIDI key.
    pub key: u8,
    /// Hammer mass per string it strikes, kg (as in Chaigne & Askenfelt's
    /// single-string model: a trichord's hammer weighs three times this).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass_kg: Option<f64>,
    /// Felt stiffness `K` of `F = K·x^p` per string struck, N/m^p.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub felt_stiffness: Option<f64>,
    /// Felt exponent `p`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub felt_exponent: Option<f64>,
    /// Hunt–Crossley hysteresis `β` of the felt, s/m (`F = K·x^p·(1 + β·ẋ)`);
    /// where no anchor gives it, [`LOSSLESS_FELT`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub felt_hysteresis_s_per_m: Option<f64>,
    /// Stulov's relaxing fraction `ε` of the felt: the part of its stiffness
    /// a slow compression relaxes; where no anchor gives it, [`UNRELAXING_FELT`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub felt_relaxing_fraction: Option<f64>,
    /// Stulov's relaxation time `τ` of the felt, s; where no anchor gives it,
    /// [`UNUSED_RELAXATION_S`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub felt_relaxation_s: Option<f64>,
}

impl Anchored for HammerAnchor {
    fn key(&self) -> u8 {
        self.key
    }
}

impl HammerSet {
    /// The value of an anchor field at `key` (see [`value_at`]).
    pub fn at(&self, key: u8, field: fn(&HammerAnchor) -> Option<f64>) -> Option<f64> {
        value_at(&self.anchor, key, field)
    }

    /// The felt of `key`'s hammer; `None` only if the anchors miss a field
    /// (which validation refuses).
    pub fn felt(&self, key: u8) -> Option<FeltLaw> {
        Some(FeltLaw {
            stiffness: self.at(key, |a| a.felt_stiffness)?,
            exponent: self.at(key, |a| a.felt_exponent)?,
            hysteresis_s_per_m: self
                .at(key, |a| a.felt_hysteresis_s_per_m)
                .unwrap_or(LOSSLESS_FELT),
            relaxing_fraction: self
                .at(key, |a| a.felt_relaxing_fraction)
                .unwrap_or(UNRELAXING_FELT),
            relaxation_s: self
                .at(key, |a| a.felt_relaxation_s)
                .unwrap_or(UNUSED_RELAXATION_S),
        })
    }

    fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        c.range(
            "start_gap_m",
            self.start_gap_m,
            1e-5,
            0.05,
            "0.01 mm to 50 mm",
        )?;
        c.each_anchor(&self.anchor, |c, a| {
            c.range("mass_kg", a.mass_kg, 1e-4, 0.1, "0.1 g to 100 g")?;
            c.range(
                "felt_stiffness",
                a.felt_stiffness,
                1e3,
                1e16,
                "1e3 to 1e16 N/m^p",
            )?;
            c.range("felt_exponent", a.felt_exponent, 1.0, 5.0, "1 to 5")?;
            c.range(
                "felt_hysteresis_s_per_m",
                a.felt_hysteresis_s_per_m,
                0.0,
                2.0,
                "0 to 2 s/m",
            )?;
            c.range(
                "felt_relaxing_fraction",
                a.felt_relaxing_fraction,
                0.0,
                0.95,
                "0 to 0.95",
            )?;
            c.range(
                "felt_relaxation_s",
                a.felt_relaxation_s,
                1e-6,
                0.1,
                "1 µs to 100 ms",
            )
        })
    }
}

/// Dampers: felt pads that press on a resonator's strings while their key is up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamperSet {
    /// The object they damp.
    pub on: String,
    /// 60 dB decay time of a string with its damper down, s.
    pub t60_s: f64,
    /// Time constant of a damper's landing, s.
    pub travel_s: f64,
    /// The highest key with a damper; the strings above ring freely (a
    /// grand's top twenty or so keys have none). 127, the default, damps
    /// every key.
    #[serde(default = "every_key_damped")]
    pub highest_damped_key: u8,
}

fn every_key_damped() -> u8 {
    127
}

impl DamperSet {
    fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        c.range("t60_s", self.t60_s, 0.01, 10.0, "0.01 to 10 s")?;
        c.range("travel_s", self.travel_s, 1e-4, 0.1, "0.1 ms to 100 ms")?;
        c.range(
            "highest_damped_key",
            f64::from(self.highest_damped_key),
            0.0,
            127.0,
            "a MIDI key, 0 to 127",
        )
    }

    /// Whether `key` has a damper.
    pub fn damps(&self, key: u8) -> bool {
        key <= self.highest_damped_key
    }
}

/// A grand action: what throws which hammers, and its geometry and timing. The
/// velocity curve is the preset's `[velocity]`, and the let-off (where the jack
/// lets the hammer fly free) is the driven hammers' `start_gap_m`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionSpec {
    /// The hammers it throws.
    pub drives: String,
    /// Hammer blow distance, m (44–49 mm on grands).
    pub blow_distance_m: f64,
    /// How far below the string the check catches a falling hammer, m.
    pub check_drop_m: f64,
    /// Fraction of the strike speed the hammer rebounds with.
    pub restitution: f64,
    /// Time for a released key to rise fully, s.
    pub key_return_s: f64,
    /// Fraction of the key's dip it must rise before the repetition resets.
    pub repetition_rise: f64,
    /// Simulate the jack's whole stroke (true) or throw the hammer from let-off
    /// so sound follows a note-on within 5 ms (false).
    pub realistic_travel: bool,
}

impl ActionSpec {
    /// The keys a grand action has: MIDI 21 (A0) to 108 (C8).
    pub const NOTES: (u8, u8) = (21, 108);

    fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        c.range(
            "blow_distance_m",
            self.blow_distance_m,
            0.01,
            0.1,
            "10 to 100 mm",
        )?;
        c.range("check_drop_m", self.check_drop_m, 2e-3, 0.04, "2 to 40 mm")?;
        c.range("restitution", self.restitution, 0.0, 0.95, "0 to 0.95")?;
        c.range("key_return_s", self.key_return_s, 5e-3, 0.5, "5 to 500 ms")?;
        c.range("repetition_rise", self.repetition_rise, 0.0, 1.0, "0 to 1")
    }
}

/// The soundboard: resonant body modes driven by the bridge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoundboardSpec {
    /// The object whose bridge drives it.
    pub driven_by: String,
    /// Number of body modes.
    pub modes: u32,
    /// Frequency of the lowest mode, Hz.
    pub lowest_mode_hz: f64,
    /// Frequency of the highest mode, Hz.
    pub highest_mode_hz: f64,
    /// 60 dB decay time of the lowest mode, s (every mode has the same Q, so
    /// higher ones decay faster, as `1/f`).
    pub lowest_mode_t60_s: f64,
    /// Modal mass of each mode at the bridge, kg: with `n` modes per hertz the
    /// board's mean admittance under the bridge is about `n/(4·M)`.
    #[serde(default = "default_modal_mass")]
    pub modal_mass_kg: f64,
    /// Level of the body's ring relative to the direct bridge sound.
    pub body_gain: f64,
    /// Which board of this kind: the seed of its modes' jitter and shapes
    /// (0, the default, is the one every build has used so far).
    #[serde(default)]
    pub seed: u32,
    /// Mass of a square metre of the board with its ribs, kg/m²: how loud
    /// the board is for a force at the bridge, against the strings' own
    /// sound (see `output:microphone`).
    #[serde(default = "default_surface_density")]
    pub surface_density_kg_m2: f64,
}

fn default_modal_mass() -> f64 {
    20.0
}

/// A grand's spruce board, 9 mm at 430 kg/m³ (3.9 kg/m²), with its ribs
/// (about a fifth more).
fn default_surface_density() -> f64 {
    4.7
}

impl SoundboardSpec {
    /// The board as the resonators build it.
    pub fn params(&self) -> SoundboardParams {
        SoundboardParams {
            modes: self.modes as usize,
            lowest_mode_hz: self.lowest_mode_hz,
            highest_mode_hz: self.highest_mode_hz,
            lowest_mode_t60_s: self.lowest_mode_t60_s,
            modal_mass_kg: self.modal_mass_kg,
            body_gain: self.body_gain,
            seed: u64::from(self.seed),
        }
    }

    fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        c.range("modes", f64::from(self.modes), 0.0, 512.0, "0 to 512")?;
        c.range(
            "surface_density_kg_m2",
            self.surface_density_kg_m2,
            0.5,
            50.0,
            "0.5 to 50 kg/m²",
        )?;
        c.range(
            "modal_mass_kg",
            self.modal_mass_kg,
            0.1,
            1_000.0,
            "0.1 to 1000 kg",
        )?;
        c.range(
            "lowest_mode_hz",
            self.lowest_mode_hz,
            10.0,
            5_000.0,
            "10 Hz to 5 kHz",
        )?;
        c.range(
            "highest_mode_hz",
            self.highest_mode_hz,
            10.0,
            15_000.0,
            "10 Hz to 15 kHz",
        )?;
        c.ordered(
            ("lowest_mode_hz", self.lowest_mode_hz),
            ("highest_mode_hz", self.highest_mode_hz),
            "at least lowest_mode_hz",
        )?;
        c.range(
            "lowest_mode_t60_s",
            self.lowest_mode_t60_s,
            1e-3,
            10.0,
            "1 ms to 10 s",
        )?;
        c.range("body_gain", self.body_gain, 0.0, 10.0, "0 to 10")
    }
}
