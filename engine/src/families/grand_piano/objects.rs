//! The objects only a grand piano has, as its presets list them: dampers
//! (`[dampers.NAME]`), the action (`[grand-action.NAME]`) and the soundboard
//! (`[soundboard.NAME]`).

use serde::{Deserialize, Serialize};

use crate::fields;
use crate::instrument::{Bound, Checker, Instrument, Link, ObjectKind, ObjectSpec, PresetError};
use crate::props::{DeclaredRange, declared_default};
use crate::resonators::SoundboardParams;

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
    declared_default(DamperSet::FIELDS, "highest_damped_key") as u8
}

impl DamperSet {
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
    /// How far a key's front goes down from rest to the keybed, m: with the
    /// blow distance, the action's ratio (the hammer's travel over the
    /// key's).
    #[serde(default = "default_key_dip")]
    pub key_dip_m: f64,
    /// How far the key's front goes on after let-off before it lands on the
    /// front-rail punching, m.
    #[serde(default = "default_aftertouch")]
    pub aftertouch_m: f64,
    /// The key's mass as its front sees it when it lands, kg.
    #[serde(default = "default_key_mass")]
    pub key_mass_kg: f64,
    /// Stiffness of the front-rail punching's felt, N/m.
    #[serde(default = "default_punching_stiffness")]
    pub punching_stiffness_n_m: f64,
    /// The keybed's surface density, kg/m²: how much a knock on it moves it.
    #[serde(default = "default_keybed_density")]
    pub keybed_density_kg_m2: f64,
    /// The level of a key's knock on the keybed over what the physics gives
    /// (1), the player's "key noise" (0 mutes it; see `resonators::Keybed`).
    #[serde(default = "default_knock_level")]
    pub knock_level: f64,
}

fn default_key_dip() -> f64 {
    declared_default(ActionSpec::FIELDS, "key_dip_m")
}

fn default_aftertouch() -> f64 {
    declared_default(ActionSpec::FIELDS, "aftertouch_m")
}

fn default_key_mass() -> f64 {
    declared_default(ActionSpec::FIELDS, "key_mass_kg")
}

fn default_punching_stiffness() -> f64 {
    declared_default(ActionSpec::FIELDS, "punching_stiffness_n_m")
}

fn default_keybed_density() -> f64 {
    declared_default(ActionSpec::FIELDS, "keybed_density_kg_m2")
}

fn default_knock_level() -> f64 {
    declared_default(ActionSpec::FIELDS, "knock_level")
}

impl ActionSpec {
    /// The keys a grand action has: MIDI 21 (A0) to 108 (C8).
    pub const NOTES: (u8, u8) = (21, 108);
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
    declared_default(SoundboardSpec::FIELDS, "modal_mass_kg")
}

/// A grand's spruce board, 9 mm at 430 kg/m³ (3.9 kg/m²), with its ribs
/// (about a fifth more).
fn default_surface_density() -> f64 {
    declared_default(SoundboardSpec::FIELDS, "surface_density_kg_m2")
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
}

fields!(DamperSet {
    t60_s: Real, "s", [0.01, 10.0, "0.01 to 10 s"], "Time a damped string takes to fade by 60 dB";
    travel_s: Real, "s", [1e-4, 0.1, "0.1 ms to 100 ms"], "How quickly a damper lands on the strings after its key rises", live;
    highest_damped_key: Key = 127.0, "", [0.0, 127.0, "a MIDI key, 0 to 127"], "Highest key with a damper: the strings above ring freely";
});
fields!(ActionSpec {
    blow_distance_m: Real, "m", [0.01, 0.1, "10 to 100 mm"], "Hammer travel from rest to the string", live;
    check_drop_m: Real, "m", [2e-3, 0.04, "2 to 40 mm"], "How far below the string the check catches a falling hammer", live;
    restitution: Real, "", [0.0, 0.95, "0 to 0.95"], "Fraction of its strike speed a hammer rebounds with", live;
    key_return_s: Real, "s", [5e-3, 0.5, "5 to 500 ms"], "Time a released key takes to rise fully", live;
    repetition_rise: Real, "", [0.0, 1.0, "0 to 1"], "How far a key must rise (fraction of its dip) before it repeats", live;
    realistic_travel: Switch, "",
        "1: simulate the jack's whole stroke (tens of ms late); 0: throw the hammer from let-off at once", live;
    key_dip_m: Real = 0.010, "m", [4e-3, 0.015, "4 to 15 mm"], "How far a key's front goes down, rest to keybed";
    aftertouch_m: Real = 1e-3, "m", [0.0, 3e-3, "0 to 3 mm"],
        "How far a key's front goes on after let-off before it lands on the keybed";
    key_mass_kg: Real = 0.03, "kg", [5e-3, 0.2, "5 to 200 g"], "A key's mass as its front sees it when it lands";
    punching_stiffness_n_m: Real = 1e5, "N/m", [1e3, 1e7, "10^3 to 10^7 N/m"],
        "Stiffness of the felt punching a key lands on";
    keybed_density_kg_m2: Real = 25.0, "kg/m²", [5.0, 60.0, "5 to 60 kg/m²"],
        "Surface density of the keybed the keys land on";
    knock_level: Real = 1.0, "", [0.0, 10.0, "0 to 10"],
        "Level of the keys' knock on the keybed over the physics' own (1); 0 mutes it";
});
fields!(SoundboardSpec {
    modes: Count, "", [0.0, 512.0, "0 to 512"], "Number of resonant body modes";
    lowest_mode_hz: Real, "Hz", [10.0, 5_000.0, "10 Hz to 5 kHz"], "Frequency of the lowest body mode";
    highest_mode_hz: Real, "Hz", [10.0, 15_000.0, "10 Hz to 15 kHz"], at_least lowest_mode_hz, "Frequency of the highest body mode";
    lowest_mode_t60_s: Real, "s", [1e-3, 10.0, "1 ms to 10 s"],
        "60 dB decay time of the lowest body mode (higher ones decay faster)";
    modal_mass_kg: Real = 20.0, "kg", [0.1, 1_000.0, "0.1 to 1000 kg"],
        "Mass of each body mode at the bridge: less lets the strings move the board more, shorter and more coupled";
    body_gain: Real, "", [0.0, 10.0, "0 to 10"], "Level of the body's ring against the direct bridge sound";
    seed: Count = 0.0, "", "Which board: each seed places and shapes the modes differently";
    surface_density_kg_m2: Real = 4.7, "kg/m²", [0.5, 50.0, "0.5 to 50 kg/m²"],
        "Mass of a square metre of the board with its ribs: sets how loud the board is against the strings' own sound";
});

/// The grand's own object kinds, as its presets list them.
pub const KINDS: &[ObjectKind] = &[
    ObjectKind::of::<DamperSet>("dampers"),
    ObjectKind::of::<ActionSpec>("grand-action"),
    ObjectKind::of::<SoundboardSpec>("soundboard"),
];

impl ObjectSpec for DamperSet {
    fn kind(&self) -> &'static str {
        "dampers"
    }

    fn link(&self) -> Option<Link<'_>> {
        Some(Link::to_target("on", &self.on))
    }

    /// Dampers press on strings, and need an action to lift them.
    fn check_in(
        &self,
        name: &str,
        instrument: &Instrument<'_>,
        _c: &Checker,
    ) -> Result<(), PresetError> {
        if instrument.topology.strings().is_none() {
            return Err(PresetError::Topology(format!(
                "[dampers.{name}] can only press on stiff-strings"
            )));
        }
        if instrument.topology.joined::<ActionSpec>().is_none() {
            return Err(PresetError::Topology(
                "dampers need a grand-action to lift them".into(),
            ));
        }
        Ok(())
    }
}

impl ObjectSpec for ActionSpec {
    fn kind(&self) -> &'static str {
        "grand-action"
    }

    fn link(&self) -> Option<Link<'_>> {
        Some(Link::to_hammers("drives", &self.drives))
    }

    /// An action has the keys of a grand ([`ActionSpec::NOTES`]), and the
    /// hammers' start gap is its let-off distance.
    fn bounds_in(&self, _name: &str, instrument: &Instrument<'_>) -> Vec<Bound> {
        let (lo, hi) = Self::NOTES;
        let keys = "21 (A0) to 108 (C8): the keys a grand-action has";
        let let_off = DeclaredRange {
            min: 5e-4,
            max: 0.01,
            text: "0.5 to 10 mm: it is the let-off of the action that drives them",
        };
        vec![
            Bound::new("keyboard", "lowest_key", range(f64::from(lo), 127.0, keys)),
            Bound::new("keyboard", "highest_key", range(0.0, f64::from(hi), keys)),
            Bound::new(&instrument.topology.strike.hammers, "start_gap_m", let_off),
        ]
    }
}

impl ObjectSpec for SoundboardSpec {
    fn kind(&self) -> &'static str {
        "soundboard"
    }

    fn link(&self) -> Option<Link<'_>> {
        Some(Link::to_target("driven_by", &self.driven_by))
    }

    fn reseed(&mut self, seed: u32) {
        self.seed = seed;
    }
}

/// `min` to `max`, described as `text`.
fn range(min: f64, max: f64, text: &'static str) -> DeclaredRange {
    DeclaredRange { min, max, text }
}
