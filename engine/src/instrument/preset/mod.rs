//! Presets: an instrument described as data.
//!
//! A preset lists the instrument's objects (strings or bars, hammers, dampers,
//! action, soundboard: [`objects`]), each under `[KIND.NAME]`, and the
//! interactions among them (`[[strike]]`: which hammers strike which
//! resonator, where; dampers, action and body name what they act on:
//! [`topology`]). The engine builds its wave-digital trees from the resolved
//! [`Topology`].
//!
//! Values that change across the keyboard (the strings', the hammers', the
//! strike position) are given at anchor keys, `[[KIND.NAME.anchor]]` with
//! `key = K`. Every field of an anchor is optional, and inherited where it is
//! not given, as properties are in ArtiSynth (Lloyd & Stavness, "ArtiSynth
//! Description and Design Overview", 2014, Section 3.5): at a key, a field is
//! *explicit* if an anchor at that key gives it, and otherwise interpolated
//! geometrically between the nearest anchors that give it ([`value_at`]).
//! Each field must be given by at least one anchor (the felt's hysteresis and
//! relaxation alone fall back to [`LOSSLESS_FELT`] and [`UNRELAXING_FELT`]).
//!
//! Every value has a property path (`tuning:a4_hz`,
//! `hammers/anchor/60:felt_stiffness`, `strings/key/61:loss_b1`; the grammar
//! is in `paths.rs`) to read ([`Preset::get`], [`Preset::is_explicit`]), edit
//! ([`Preset::set`], [`Preset::apply`] with a [`PropertyEdit`]) and describe
//! ([`Preset::property_info`]); [`Preset::components`] lists the components
//! as the tree an editor shows, with every key of the keyboard under each set
//! with anchors. The ranges editors offer are those [`Preset::validate`]
//! checks: one set of checks serves both.

mod anchored;
mod celesta_spec;
mod check;
mod clock_spec;
mod fields;
mod music_box_spec;
mod objects;
mod paths;
mod properties;
mod room_spec;
mod topology;
mod tuning_check;

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

pub use crate::room::RoomSpec;
pub use anchored::{Anchored, value_at};
pub use celesta_spec::CelestaSpec;
pub use clock_spec::ClockSpec;
pub use music_box_spec::{MAX_PINS, MusicBoxSpec, PinSpec};
pub use objects::{
    ActionSpec, BarEnds, BarSet, DamperSet, HammerAnchor, HammerSet, LOSSLESS_FELT, MAX_BAR_MODES,
    Object, SoundboardSpec, StringAnchor, StringSet, UNRELAXING_FELT,
};
pub use paths::PropertyEdit;
pub use properties::{ComponentInfo, PropertyInfo, ValueKind};
pub use topology::{Resonators, StrikeAnchor, StrikeSpec, Topology};

use super::StretchedTuning;
use crate::instrument::VelocityCurve;
use check::Checker;

/// The largest preset file read, bytes (the grand's is about 20 kB).
pub const MAX_PRESET_BYTES: u64 = 16 << 20;

/// The instrument every front end plays when no other is chosen, embedded at build time.
pub const DEFAULT_PRESET_TOML: &str = include_str!("../../../../presets/grand-piano.toml");

/// An instrument: its objects and how they interact, and how it is tuned, played
/// and heard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// Display name.
    pub name: String,
    /// One line on what it is.
    pub description: String,
    /// The instrument family that plays it (`grand-piano`, `mallet-bar`: see
    /// [`crate::families`]); a preset that names none is played by the first
    /// family that fits its objects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// Reference pitch and stretch.
    pub tuning: StretchedTuning,
    /// Which MIDI keys exist.
    pub keyboard: Keyboard,
    /// How MIDI velocity becomes hammer speed.
    pub velocity: VelocityCurve,
    /// From bridge force to audio.
    pub output: OutputSpec,
    /// The room it is heard in; none: heard dry. Setting a `room:` property
    /// of a preset without one gives it the [`RoomSpec::default`] room first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<RoomSpec>,
    /// Stiff strings, by name.
    #[serde(
        rename = "stiff-strings",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub stiff_strings: BTreeMap<String, StringSet>,
    /// Free-free bars, by name.
    #[serde(
        rename = "free-free-bars",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub free_free_bars: BTreeMap<String, BarSet>,
    /// Bars clamped at one end, by name.
    #[serde(
        rename = "clamped-free-bars",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub clamped_free_bars: BTreeMap<String, BarSet>,
    /// Felt hammers and mallets, by name.
    #[serde(
        rename = "felt-hammers",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub felt_hammers: BTreeMap<String, HammerSet>,
    /// Dampers, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub dampers: BTreeMap<String, DamperSet>,
    /// Grand actions, by name.
    #[serde(
        rename = "grand-action",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub grand_action: BTreeMap<String, ActionSpec>,
    /// Soundboards, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub soundboard: BTreeMap<String, SoundboardSpec>,
    /// Clocks whose trains drive the hammers, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub clock: BTreeMap<String, ClockSpec>,
    /// Music boxes (comb, cylinder, mechanism and case), by name.
    #[serde(
        rename = "music-box",
        default,
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub music_box: BTreeMap<String, MusicBoxSpec>,
    /// Celestas' actions, dampers and resonator boxes, by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub celesta: BTreeMap<String, CelestaSpec>,
    /// Which hammers strike which resonator, where.
    #[serde(rename = "strike")]
    pub strikes: Vec<StrikeSpec>,
}

/// The keys that have a voice.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keyboard {
    /// Lowest MIDI key (21 is A0 on an 88-key piano).
    pub lowest_key: u8,
    /// Highest MIDI key (108 is C8).
    pub highest_key: u8,
}

/// From the resonators' force to the output.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Output sample value per newton of bridge force (for bars: per m/s of the
    /// pickup point's velocity).
    pub gain_per_newton: f64,
    /// Stereo spread of the keyboard, 0 (mono) to 1 (lowest key hard left).
    pub stereo_width: f64,
    /// Where the instrument is heard from (for a piano: how its strings'
    /// own sound joins the board's), by its index in [`MICROPHONES`]: 0
    /// (the default) the bridge, the board's sound alone.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub microphone: u32,
}

fn is_zero_u32(x: &u32) -> bool {
    *x == 0
}

/// The microphone positions `output:microphone` chooses from, by index.
pub const MICROPHONES: [&str; 3] = ["bridge", "player", "close"];

/// Why a preset was rejected.
#[derive(Debug, Clone, PartialEq)]
pub enum PresetError {
    /// The text is not valid TOML for a preset (with the parser's location and
    /// the table it was reading).
    Syntax(String),
    /// A value is outside its range; names the property path.
    OutOfRange {
        /// Property path, e.g. `hammers/anchor/60:felt_exponent`.
        path: String,
        /// The offending value.
        value: f64,
        /// The allowed range, in words.
        range: &'static str,
    },
    /// Anchors are missing, out of order or not MIDI keys.
    Anchors(String),
    /// The objects do not fit together.
    Topology(String),
    /// The tuning's scale and keyboard mapping do not fit together, or put
    /// a key out of reach.
    Tuning(String),
    /// The preset file could not be read, or failed to load (names the file).
    File {
        /// The file.
        path: String,
        /// Why.
        reason: Box<PresetError>,
    },
    /// The file could not be read.
    Io(String),
    /// No built-in preset has this name and no file has this path.
    Unknown(String),
    /// No property has this path.
    UnknownPath(String),
    /// No instrument family plays the preset: the one it names is unknown or
    /// does not play its objects, or it names none and none fits (see
    /// [`crate::families::family_of`]).
    Family(String),
    /// The property cannot inherit its value (names the path and why).
    CannotInherit {
        /// The property path.
        path: String,
        /// Why, in words.
        reason: &'static str,
    },
}

/// Paths and names an error quotes come from the user (an edit's path, a
/// preset's name): each is quoted whole up to a length
/// ([`crate::input::name`]), so that an error stays one short line.
impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::input::{name as excerpt, number};
        match self {
            Self::Syntax(message) => write!(f, "preset is not valid: {message}"),
            Self::OutOfRange { path, value, range } => {
                let (path, value) = (excerpt(path), number(*value));
                write!(f, "{path} = {value} is outside its range ({range})")
            }
            Self::Anchors(message) => write!(f, "preset anchors: {message}"),
            Self::Topology(message) => write!(f, "preset objects: {message}"),
            Self::Tuning(message) => write!(f, "tuning: {message}"),
            Self::Family(message) => write!(f, "family: {message}"),
            Self::File { path, reason } => write!(f, "{path}: {reason}"),
            Self::Io(message) => write!(f, "cannot read preset: {message}"),
            Self::UnknownPath(path) => {
                write!(f, "the preset has no property `{}`", excerpt(path))
            }
            Self::CannotInherit { path, reason } => {
                write!(f, "{} cannot inherit: {reason}", excerpt(path))
            }
            Self::Unknown(name) => {
                let names: Vec<_> = crate::families::builtin_presets()
                    .iter()
                    .map(|(n, _)| *n)
                    .collect();
                write!(
                    f,
                    "no preset `{}`: neither a file nor a built-in preset ({})",
                    excerpt(name),
                    names.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for PresetError {}

impl Preset {
    /// The grand piano embedded in every build.
    pub fn default_grand() -> Self {
        Self::from_toml(DEFAULT_PRESET_TOML).expect("the embedded preset is tested to be valid")
    }

    /// A built-in preset of a registered family by name (see
    /// [`crate::families::builtin_presets`]).
    pub fn builtin(name: &str) -> Option<Result<Self, PresetError>> {
        crate::families::builtin_presets()
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| Self::from_toml(text))
    }

    /// A built-in preset by name, or else the preset file at that path; errors
    /// name the file.
    pub fn load(name_or_path: &str) -> Result<Self, PresetError> {
        if let Some(preset) = Self::builtin(name_or_path) {
            return preset;
        }
        let path = Path::new(name_or_path);
        if !path.is_file() {
            return Err(PresetError::Unknown(name_or_path.to_string()));
        }
        let in_file = |reason| PresetError::File {
            path: name_or_path.to_string(),
            reason: Box::new(reason),
        };
        let text = crate::input::read_capped_text(path, MAX_PRESET_BYTES)
            .map_err(|e| in_file(PresetError::Io(e)))?;
        Self::from_toml(&text).map_err(in_file)
    }

    /// Parses and validates a preset.
    pub fn from_toml(text: &str) -> Result<Self, PresetError> {
        let preset: Preset = toml::from_str(text)
            .map_err(|e| PresetError::Syntax(crate::input::toml_error(text, &e)))?;
        preset.validate()?;
        Ok(preset)
    }

    /// Checks every value against its physical range and resolves the topology.
    pub fn validate(&self) -> Result<(), PresetError> {
        self.check(&Checker::checking())
    }

    /// Runs every check of the preset with `root`, the checker at its root:
    /// failing at the first bad value, or recording every range (see
    /// [`Checker`]).
    fn check(&self, root: &Checker) -> Result<(), PresetError> {
        let tuning = root.child("tuning");
        tuning.range("a4_hz", self.tuning.a4_hz, 300.0, 600.0, "300 to 600 Hz")?;
        tuning.range("stretch", self.tuning.stretch, 0.0, 1.0, "0 to 1")?;
        self.check_temperament(&tuning)?;
        check_velocity(&self.velocity, &root.child("velocity"))?;
        let output = root.child("output");
        output.range(
            "gain_per_newton",
            self.output.gain_per_newton,
            1e-6,
            10.0,
            "1e-6 to 10 per N",
        )?;
        output.range("stereo_width", self.output.stereo_width, 0.0, 1.0, "0 to 1")?;
        output.range(
            "microphone",
            f64::from(self.output.microphone),
            0.0,
            (MICROPHONES.len() - 1) as f64,
            "0 (bridge), 1 (player) or 2 (close)",
        )?;
        // Without a room the default's ranges are recorded (and pass), for
        // the editor to offer.
        self.room
            .unwrap_or_default()
            .validate(&root.child("room"))?;
        let keyboard = root.child("keyboard");
        let lowest_key = f64::from(self.keyboard.lowest_key);
        let highest_key = f64::from(self.keyboard.highest_key);
        keyboard.range(
            "highest_key",
            highest_key,
            0.0,
            127.0,
            "a MIDI key, 0 to 127",
        )?;
        keyboard.ordered(
            ("lowest_key", lowest_key),
            ("highest_key", highest_key),
            "at least lowest_key",
        )?;
        for (name, object) in self.objects()? {
            object.validate(&root.child(name))?;
        }
        let topology = topology::resolve(self.objects()?, &self.strikes, root)?;
        if let Resonators::Bars(bars, ends) = topology.resonators {
            check_bar_strikes(self, bars, ends, topology.strike, root)?;
        }
        if let Resonators::Comb(spec) = topology.resonators {
            let lead_m = topology.hammers.start_gap_m;
            check_comb(self, spec, lead_m, &root.child(&topology.strike.target))?;
            check_pins(
                spec,
                topology.hammers,
                &root.child(&topology.strike.hammers),
            )?;
        }
        let keys = (self.keyboard.lowest_key, self.keyboard.highest_key);
        for (name, clock) in &self.clock {
            clock.check_rods(&root.child(name), keys)?;
        }
        check_family(self, topology.strike)?;
        if topology.action.is_some() {
            let (lo, hi) = ActionSpec::NOTES;
            let keys = "21 (A0) to 108 (C8): the keys a grand-action has";
            keyboard.range("lowest_key", lowest_key, f64::from(lo), 127.0, keys)?;
            keyboard.range("highest_key", highest_key, 0.0, f64::from(hi), keys)?;
            // The hammers' start gap is the action's let-off distance.
            root.child(&topology.strike.hammers).range(
                "start_gap_m",
                topology.hammers.start_gap_m,
                5e-4,
                0.01,
                "0.5 to 10 mm: it is the let-off of the action that drives them",
            )?;
        } else if topology.dampers.is_some() {
            return Err(PresetError::Topology(
                "dampers need a grand-action to lift them".into(),
            ));
        }
        Ok(())
    }

    /// The range of every property path, as [`Preset::validate`] checks it:
    /// its checks run in recording mode. Anchor fields are recorded under
    /// `NAME/key/*` (see [`check::every_key`]). A preset that fails validation
    /// yields the ranges of the checks before the failure.
    fn checked_ranges(&self) -> check::Ranges {
        let recorder = Checker::recording();
        // Recording never fails on a value; a structural error only ends the
        // recording early.
        let _ = self.check(&recorder);
        recorder.ranges()
    }

    /// Every object by name; names must be unique across kinds.
    pub fn objects(&self) -> Result<BTreeMap<&str, Object<'_>>, PresetError> {
        let mut objects = BTreeMap::new();
        for (name, object) in self.objects_in_order() {
            if let Some(other) = objects.insert(name.as_str(), object) {
                return Err(PresetError::Topology(format!(
                    "two objects are named `{name}`: a {} and a {}",
                    other.kind(),
                    object.kind()
                )));
            }
        }
        Ok(objects)
    }

    /// Every object with its name, in display order: strings, hammers, bars,
    /// dampers, actions, soundboards; by name within a kind.
    pub(super) fn objects_in_order(&self) -> impl Iterator<Item = (&String, Object<'_>)> {
        let strings = self.stiff_strings.iter();
        let hammers = self.felt_hammers.iter();
        let bars = self.free_free_bars.iter();
        (strings.map(|(n, o)| (n, Object::StiffStrings(o))))
            .chain(hammers.map(|(n, o)| (n, Object::FeltHammers(o))))
            .chain(bars.map(|(n, o)| (n, Object::FreeFreeBars(o))))
            .chain(
                self.clamped_free_bars
                    .iter()
                    .map(|(n, o)| (n, Object::ClampedFreeBars(o))),
            )
            .chain(self.dampers.iter().map(|(n, o)| (n, Object::Dampers(o))))
            .chain(
                self.grand_action
                    .iter()
                    .map(|(n, o)| (n, Object::GrandAction(o))),
            )
            .chain(
                self.soundboard
                    .iter()
                    .map(|(n, o)| (n, Object::Soundboard(o))),
            )
            .chain(self.clock.iter().map(|(n, o)| (n, Object::Clock(o))))
            .chain(self.music_box.iter().map(|(n, o)| (n, Object::MusicBox(o))))
            .chain(self.celesta.iter().map(|(n, o)| (n, Object::Celesta(o))))
    }

    /// The objects resolved through their interactions.
    pub fn topology(&self) -> Result<Topology<'_>, PresetError> {
        topology::resolve(self.objects()?, &self.strikes, &Checker::checking())
    }

    /// Hammer speed (m/s) for a normalised velocity in [0, 1] (MIDI velocity / 127).
    pub fn hammer_speed(&self, velocity: f32) -> f64 {
        self.velocity.speed(f64::from(velocity))
    }
}

/// Every key's mallet must strike its bar off a node of at least one of the
/// bar's modes (a strike at nodes only would excite nothing): checked at
/// each key's strike position, named `strike/key/KEY:position`.
/// A music box's dampers press less than half the pins' lead `lead_m`
/// (m), and every tine of its comb is on the keyboard (a tine off it
/// would have no voice) and can be cut for its key's pitch (a
/// key far below the longest tine's pitch would need more lead than
/// [`crate::families::music_box::comb::MAX_TIP_MASS_RATIO`] times the
/// tine's mass): checked as `NAME:keys`.
fn check_comb(
    preset: &Preset,
    spec: &MusicBoxSpec,
    lead_m: f64,
    c: &Checker,
) -> Result<(), PresetError> {
    use crate::families::music_box::comb::TineDesign;
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

fn check_bar_strikes(
    preset: &Preset,
    bars: &BarSet,
    ends: BarEnds,
    strike: &StrikeSpec,
    root: &Checker,
) -> Result<(), PresetError> {
    for key in preset.keyboard.lowest_key..=preset.keyboard.highest_key {
        if let Some(position) = strike.position(key) {
            root.child(&format!("strike/key/{key}")).require(
                crate::instrument::bar::strikes_a_mode(ends, position, bars.t60_s.len()),
                "position",
                position,
                "off a node of at least one mode of the bar",
            )?;
        }
    }
    Ok(())
}

/// A family must play the preset: the one it names, which must be known and
/// [play](crate::rt::Family::plays) its objects, or else the first that fits
/// them; and it must play every object the preset holds, so that none is
/// silently left out (a soundboard in a mallet preset): each object beside
/// the strike's hammers and target must be one of the family's
/// [companions](crate::rt::Family::companions).
fn check_family(preset: &Preset, strike: &StrikeSpec) -> Result<(), PresetError> {
    let family =
        crate::families::family_of(preset).map_err(|e| PresetError::Family(e.to_string()))?;
    if preset.family.is_some() && !family.plays(preset) {
        return Err(PresetError::Family(format!(
            "`{}` does not play these objects",
            family.name()
        )));
    }
    let companions = family.companions();
    for (name, object) in preset.objects_in_order() {
        let kind = object.kind();
        if *name == strike.hammers || *name == strike.target || companions.contains(&kind) {
            continue;
        }
        let plays = if companions.is_empty() {
            String::new()
        } else {
            format!(", {}", companions.join(", "))
        };
        return Err(PresetError::Family(format!(
            "[{kind}.{}]: the {} family plays no {kind} (it plays its hammers, their \
             target{plays}) and would sound as if it were absent; take it out or name a \
             family that plays it",
            crate::input::name(name),
            family.name()
        )));
    }
    Ok(())
}

/// The velocity curve's ranges: speeds 0.05 to 20 m/s, the softest at most
/// the hardest, and a curve exponent of 0.2 to 5.
fn check_velocity(velocity: &VelocityCurve, c: &Checker) -> Result<(), PresetError> {
    let speeds = "0.05 to 20 m/s";
    c.range(
        "softest_speed_m_s",
        velocity.softest_speed_m_s,
        0.05,
        20.0,
        speeds,
    )?;
    c.range(
        "hardest_speed_m_s",
        velocity.hardest_speed_m_s,
        0.05,
        20.0,
        speeds,
    )?;
    c.ordered(
        ("softest_speed_m_s", velocity.softest_speed_m_s),
        ("hardest_speed_m_s", velocity.hardest_speed_m_s),
        "at least softest_speed_m_s",
    )?;
    c.range("curve", velocity.curve, 0.2, 5.0, "0.2 to 5")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_presets_are_valid_and_resolve() {
        let p = Preset::default_grand();
        assert_eq!((p.keyboard.lowest_key, p.keyboard.highest_key), (21, 108));
        let t = p.topology().unwrap();
        assert!(matches!(t.resonators, Resonators::Strings(_)));
        assert!(t.action.is_some() && t.dampers.is_some() && t.soundboard.is_some());
        let bars = Preset::builtin("mallet-bar").unwrap().unwrap();
        let t = bars.topology().unwrap();
        assert!(matches!(t.resonators, Resonators::Bars(..)));
        assert!(t.action.is_none() && t.dampers.is_none() && t.soundboard.is_none());
        let celesta = Preset::builtin("celesta").unwrap().unwrap();
        let t = celesta.topology().unwrap();
        assert!(matches!(
            t.resonators,
            Resonators::Bars(_, BarEnds::FreeFree)
        ));
        assert!(t.celesta.is_some() && t.action.is_none() && t.clock.is_none());
        assert!(Preset::builtin("harpsichord").is_none());
    }

    /// A soundboard or a grand action added to a mallet preset (and a
    /// clock's movement added to a music box) would be built into nothing:
    /// the preset is refused, naming the object's table and the family.
    #[test]
    fn objects_another_family_plays_are_refused() {
        let grand = Preset::default_grand();
        let mut board = grand.soundboard["soundboard"].clone();
        board.driven_by = "bars".into();
        let mut action = grand.grand_action["action"].clone();
        action.drives = "mallets".into();
        let mallets = Preset::builtin("mallet-bar").unwrap().unwrap();
        let mut with_board = mallets.clone();
        with_board.soundboard.insert("board".into(), board);
        let mut with_action = mallets.clone();
        with_action.grand_action.insert("action".into(), action);
        let clock = Preset::builtin("chiming-clock").unwrap().unwrap();
        let mut with_clock = Preset::builtin("music-box").unwrap().unwrap();
        let mut movement = clock.clock["clock"].clone();
        movement.drives = "pins".into();
        // Its rods on the comb's keys, so that only the family refuses it.
        (movement.bell_1_key, movement.bell_2_key) = (79, 77);
        (movement.bell_3_key, movement.bell_4_key) = (76, 72);
        movement.hour_key = 60;
        with_clock.clock.insert("clock".into(), movement);
        for (preset, table, family) in [
            (&with_board, "[soundboard.board]", "the mallet-bar family"),
            (
                &with_action,
                "[grand-action.action]",
                "the mallet-bar family",
            ),
            (&with_clock, "[clock.clock]", "the music-box family"),
        ] {
            let message = preset.validate().unwrap_err().to_string();
            assert!(
                message.contains(table) && message.contains(family),
                "{message}"
            );
        }
        let mut unnamed = with_board.clone();
        unnamed.family = None;
        assert!(
            unnamed.validate().is_err(),
            "a mallet preset naming no family"
        );
    }

    /// A clock's hammer on a key that has no rod, or a comb's tine on a
    /// key off the keyboard, is refused by name (it used to validate and
    /// strike nothing); the range an editor offers is the rods'.
    #[test]
    fn rods_and_tines_off_the_keyboard_are_refused() {
        let clock = Preset::builtin("chiming-clock").unwrap().unwrap();
        let (lowest, highest) = (clock.keyboard.lowest_key, clock.keyboard.highest_key);
        for (path, key) in [
            ("clock:bell_1_key", 0),
            ("clock:bell_2_key", highest + 1),
            ("clock:bell_4_key", lowest - 1),
            ("clock:hour_key", 127),
        ] {
            let message = clock
                .clone()
                .set(path, f64::from(key))
                .unwrap_err()
                .to_string();
            assert_eq!(
                message,
                format!(
                    "{path} = {key} is outside its range (a key that has a rod: \
                     keyboard:lowest_key to keyboard:highest_key)"
                )
            );
        }
        assert!(
            clock
                .clone()
                .set("clock:bell_1_key", f64::from(lowest))
                .is_ok()
        );
        let range = clock.property_info("clock:bell_1_key").unwrap().range;
        assert_eq!(range, (f64::from(lowest), f64::from(highest)));
        let mut music_box = Preset::builtin("music-box").unwrap().unwrap();
        let highest = music_box.keyboard.highest_key;
        music_box
            .music_box
            .get_mut("box")
            .unwrap()
            .keys
            .push(highest + 1);
        let message = music_box.validate().unwrap_err().to_string();
        assert!(message.starts_with("box:keys = 90 is outside"), "{message}");
    }

    #[test]
    fn out_of_range_value_names_its_path() {
        let text = DEFAULT_PRESET_TOML.replace("felt_exponent = 3.0", "felt_exponent = 7.0");
        let err = Preset::from_toml(&text).unwrap_err().to_string();
        assert!(err.contains("hammers/anchor/60:felt_exponent"), "{err}");
        assert!(err.contains("1 to 5"), "{err}");
        let text = DEFAULT_PRESET_TOML.replace("position = 0.0625", "position = 0.7");
        let err = Preset::from_toml(&text).unwrap_err().to_string();
        assert!(err.contains("strike/anchor/96:position"), "{err}");
    }

    /// Presets written before the felt had hysteresis or relaxed load with a
    /// felt that neither has hysteresis nor relaxes; a negative or huge
    /// hysteresis, relaxing fraction or relaxation time is refused by name.
    #[test]
    fn felt_losses_default_to_none_and_are_range_checked() {
        let old: String = DEFAULT_PRESET_TOML
            .lines()
            .filter(|line| !line.starts_with("felt_relaxing_fraction"))
            .collect::<Vec<_>>()
            .join("\n");
        let felt = Preset::from_toml(&old)
            .unwrap()
            .key_params(60)
            .unwrap()
            .felt;
        assert_eq!(
            (felt.hysteresis_s_per_m, felt.relaxing_fraction),
            (0.0, 0.0)
        );
        let grand = Preset::default_grand().key_params(60).unwrap().felt;
        assert!(grand.relaxing_fraction > 0.0);
        let first = "felt_relaxation_s = 2.0e-4";
        for (field, bad) in [
            ("felt_hysteresis_s_per_m", "-0.1"),
            ("felt_hysteresis_s_per_m", "2.5"),
            ("felt_hysteresis_s_per_m", "nan"),
            ("felt_relaxing_fraction", "-0.1"),
            ("felt_relaxing_fraction", "1.0"),
            ("felt_relaxation_s", "0.0"),
            ("felt_relaxation_s", "inf"),
        ] {
            // The first anchor's line of the field, or a new line after its
            // relaxation time.
            let text = match DEFAULT_PRESET_TOML.lines().find(|l| l.starts_with(field)) {
                Some(line) => DEFAULT_PRESET_TOML.replacen(line, &format!("{field} = {bad}"), 1),
                None => {
                    DEFAULT_PRESET_TOML.replacen(first, &format!("{first}\n{field} = {bad}"), 1)
                }
            };
            let err = Preset::from_toml(&text).unwrap_err().to_string();
            assert!(
                err.contains(&format!("hammers/anchor/21:{field}")),
                "{field} = {bad}: {err}"
            );
        }
    }

    /// A missing field (of a table that is not an anchor: an anchor's fields
    /// are optional) and a wrong type are syntax errors that name the field
    /// and the line of the table it belongs to; an unknown field is refused.
    #[test]
    fn missing_wrong_and_unknown_fields_are_errors_that_locate_them() {
        let missing = DEFAULT_PRESET_TOML.replace("detune_cents = 0.7\n", "");
        let err = Preset::from_toml(&missing).unwrap_err().to_string();
        assert!(
            err.contains("detune_cents") && err.contains("line"),
            "{err}"
        );
        let wrong = DEFAULT_PRESET_TOML.replace("modes = 128", "modes = \"many\"");
        let err = Preset::from_toml(&wrong).unwrap_err().to_string();
        assert!(err.contains("modes") && err.contains("line"), "{err}");
        let unknown = DEFAULT_PRESET_TOML.replace("a4_hz = 440.0", "a4_hz = 440.0\npitch = 3");
        let err = Preset::from_toml(&unknown).unwrap_err().to_string();
        assert!(err.contains("pitch"), "{err}");
        let kind = DEFAULT_PRESET_TOML.replace("[soundboard.soundboard]", "[organ.soundboard]");
        let err = Preset::from_toml(&kind).unwrap_err().to_string();
        assert!(err.contains("organ"), "{err}");
        assert!(matches!(
            Preset::from_toml("name = "),
            Err(PresetError::Syntax(_))
        ));
    }

    /// Interactions must name objects of the right kinds, and every object must
    /// take part.
    #[test]
    fn topology_errors_name_the_objects() {
        let cases = [
            (
                "target = \"strings\"",
                "target = \"strngs\"",
                "no object has that name",
            ),
            (
                "target = \"strings\"",
                "target = \"hammers\"",
                "cannot be struck",
            ),
            ("on = \"strings\"", "on = \"hammers\"", "dampers:on"),
            (
                "driven_by = \"strings\"",
                "driven_by = \"action\"",
                "soundboard:driven_by",
            ),
        ];
        for (from, to, expected) in cases {
            let text = DEFAULT_PRESET_TOML.replacen(from, to, 1);
            let err = Preset::from_toml(&text).unwrap_err().to_string();
            assert!(err.contains(expected), "{to}: {err}");
        }
        let extra = format!(
            "{DEFAULT_PRESET_TOML}\n[felt-hammers.spare]\nstart_gap_m = 0.001\n\
             [[felt-hammers.spare.anchor]]\nkey = 60\nmass_kg = 0.01\nfelt_stiffness = 1e9\nfelt_exponent = 2.5\n"
        );
        let err = Preset::from_toml(&extra).unwrap_err().to_string();
        assert!(err.contains("[felt-hammers.spare]"), "{err}");
        let two = format!(
            "{DEFAULT_PRESET_TOML}\n[[strike]]\nhammers = \"hammers\"\ntarget = \"strings\"\n\
             [[strike.anchor]]\nkey = 60\nposition = 0.1\n"
        );
        let err = Preset::from_toml(&two).unwrap_err().to_string();
        assert!(err.contains("exactly one [[strike]]"), "{err}");
    }

    #[test]
    fn a_preset_file_error_names_the_file() {
        let dir = std::env::temp_dir().join(format!("orchard-preset-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("broken.toml");
        std::fs::write(
            &file,
            DEFAULT_PRESET_TOML.replace("felt_exponent = 3.0", "felt_exponent = 9.0"),
        )
        .unwrap();
        let err = Preset::load(file.to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(err.contains("broken.toml"), "{err}");
        assert!(err.contains("felt_exponent"), "{err}");
        let err = Preset::load("no-such-preset").unwrap_err().to_string();
        assert!(err.contains("grand-piano"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Every numeric value can be read and set by the path its errors name;
    /// a bad edit changes nothing and says why.
    #[test]
    fn values_are_read_and_set_by_property_path() {
        let mut p = Preset::default_grand();
        assert_eq!(p.get("tuning:a4_hz"), Some(440.0));
        assert_eq!(p.get("hammers/anchor/60:mass_kg"), Some(2.4e-3));
        assert_eq!(p.get("strike/anchor/96:position"), Some(0.0625));
        p.set("tuning:a4_hz", 442.0).unwrap();
        p.set("hammers/anchor/60:felt_stiffness", 5e9).unwrap();
        p.set("soundboard:modes", 20.0).unwrap();
        p.set("action:realistic_travel", 1.0).unwrap();
        assert_eq!(p.get("tuning:a4_hz"), Some(442.0));
        assert_eq!(p.key_params(60).unwrap().felt.stiffness, 5e9);
        assert_eq!(p.get("soundboard:modes"), Some(20.0));
        assert_eq!(p.get("action:realistic_travel"), Some(1.0));

        let before = p.clone();
        let err = p.set("tuning:a4_hz", f64::NAN).unwrap_err().to_string();
        assert!(err.contains("tuning:a4_hz"), "{err}");
        let err = p.set("hammers/anchor/60:felt_exponent", 9.0).unwrap_err();
        assert!(err.to_string().contains("1 to 5"), "{err}");
        let err = p.set("soundboard:modes", 2.5).unwrap_err().to_string();
        assert!(err.contains("whole number"), "{err}");
        for bad in [
            "tuning:pitch",
            "hammers/anchor/61:mass_kg",
            "organ:pipes",
            "a4_hz",
        ] {
            let err = p.set(bad, 1.0).unwrap_err().to_string();
            assert!(err.contains(bad), "{err}");
        }
        assert_eq!(p, before, "a refused edit changed the preset");

        // Every listed path reads back, for both instruments.
        for preset in [
            Preset::default_grand(),
            Preset::load("mallet-bar").unwrap(),
            Preset::load("celesta").unwrap(),
        ] {
            let paths = preset.paths();
            assert!(paths.len() > 15, "{paths:?}");
            for path in &paths {
                assert!(preset.get(path).is_some(), "{path}");
            }
        }
    }

    #[test]
    fn velocity_maps_to_hammer_speed_monotonically() {
        let p = Preset::default_grand();
        assert!((p.hammer_speed(1.0 / 127.0) - 0.4).abs() < 1e-12);
        assert!((p.hammer_speed(1.0) - 6.5).abs() < 1e-9);
        let mut last = 0.0;
        for v in 1..=127 {
            let s = p.hammer_speed(v as f32 / 127.0);
            assert!(s > last);
            last = s;
        }
        assert!(p.hammer_speed(f32::NAN).is_finite());
        // The middle velocity (64, halfway from 1 to 127) gives the geometric
        // middle of the speeds with the linear curve, and a curve above 1 keeps
        // mid velocities softer.
        let middle = p.hammer_speed(64.0 / 127.0);
        assert!((middle - (0.4f64 * 6.5).sqrt()).abs() < 1e-6, "{middle}");
        let mut soft = p.clone();
        soft.velocity.curve = 2.0;
        assert!(soft.hammer_speed(64.0 / 127.0) < 0.8 * middle);
    }
}
