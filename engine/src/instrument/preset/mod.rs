//! Presets: an instrument described as data.
//!
//! A preset is a small core (name, family, keyboard, tuning, velocity,
//! output, room) and the instrument's objects, each under `[KIND.NAME]`, with
//! the interaction among them (`[[strike]]`: which hammers strike which
//! resonator, where; the other objects name what they act on: [`topology`]).
//! The preset knows no object kind by name: each kind is an [`ObjectKind`]
//! whose objects are [`ObjectSpec`]s, declared by the families that play
//! them (the shared ones, strings, hammers and bars, here), and read through
//! the family registry (`crate::families`), which also decides which family
//! plays a preset. The engine builds its wave-digital trees from the
//! resolved [`Topology`].
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
//! with anchors. The ranges editors offer are those [`Preset::check_values`]
//! checks: one set of checks serves both.

mod anchored;
mod bars;
mod case;
mod check;
mod fields;
mod hammers;
mod object;
mod objects;
mod paths;
mod properties;
mod room_spec;
mod serialize;
mod strings;
mod topology;
mod tuning_check;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use crate::room::RoomSpec;
pub use anchored::{Anchored, value_at};
pub use bars::{BarEnds, BarSet, MAX_BAR_MODES, NODE_SHAPE};
pub use case::check_case;
pub use check::Checker;
pub use fields::{About, AnchorFields, Field, Fields};
pub use hammers::{HammerAnchor, HammerSet, LOSSLESS_FELT, UNRELAXING_FELT};
pub use object::{Link, ObjectData, ObjectKind, ObjectSpec, StrikePart, StrikeRange};
pub use objects::Objects;
pub use paths::{AnchorList, PropertyEdit};
pub use properties::{ComponentInfo, PropertyInfo, ValueKind};
pub use strings::{StringAnchor, StringSet};
pub use topology::{StrikeAnchor, StrikeSpec, Topology};

use super::StretchedTuning;
use crate::instrument::VelocityCurve;

/// The largest preset file read, bytes (the grand's is about 20 kB).
pub const MAX_PRESET_BYTES: u64 = 16 << 20;

/// The instrument every front end plays when no other is chosen, embedded at build time.
pub const DEFAULT_PRESET_TOML: &str = include_str!("../../../../presets/grand-piano.toml");

/// The object kinds every family may use: strings, felt hammers and bars.
/// A family's own kinds come with it ([`crate::rt::Family::object_kinds`]).
pub const SHARED_KINDS: &[ObjectKind] = &[
    ObjectKind::of::<StringSet>("stiff-strings"),
    ObjectKind::of::<HammerSet>("felt-hammers"),
    bars::FREE_FREE_BARS,
    bars::CLAMPED_FREE_BARS,
];

/// An instrument: its objects and how they interact, and how it is tuned, played
/// and heard. It is read and written as serde data (a preset file's TOML, an
/// editor's JSON); reading needs the object kinds of the registered families,
/// so it is implemented with the registry (`crate::families`).
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// Display name.
    pub name: String,
    /// One line on what it is.
    pub description: String,
    /// The instrument family that plays it (`grand-piano`, `mallet-bar`: see
    /// `crate::families`); a preset that names none is played by the first
    /// family that fits its objects.
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
    pub room: Option<RoomSpec>,
    /// Its objects by name, each of a kind a family declares (strings, bars,
    /// hammers, a grand's action, a clock's movement).
    pub objects: Objects,
    /// Which hammers strike which resonator, where.
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
    Unknown {
        /// The name or path asked for.
        name: String,
        /// The built-in presets' names.
        builtin: Vec<&'static str>,
    },
    /// No property has this path.
    UnknownPath(String),
    /// No instrument family plays the preset: the one it names is unknown or
    /// does not play its objects, or it names none and none fits (see
    /// `crate::families::family_of`).
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
            Self::Unknown { name, builtin } => write!(
                f,
                "no preset `{}`: neither a file nor a built-in preset ({})",
                excerpt(name),
                builtin.join(", ")
            ),
        }
    }
}

impl std::error::Error for PresetError {}

impl Preset {
    /// Checks every value against its physical range, resolves the topology
    /// and checks each object against the others: everything but which
    /// family plays it, which the registry checks (`Preset::validate`, with
    /// the families).
    pub fn check_values(&self) -> Result<(), PresetError> {
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
        keyboard.range(
            "highest_key",
            f64::from(self.keyboard.highest_key),
            0.0,
            127.0,
            "a MIDI key, 0 to 127",
        )?;
        keyboard.ordered(
            ("lowest_key", f64::from(self.keyboard.lowest_key)),
            ("highest_key", f64::from(self.keyboard.highest_key)),
            "at least lowest_key",
        )?;
        for (name, object) in self.objects.iter() {
            object.validate(&root.child(name))?;
        }
        let topology = topology::resolve(&self.objects, &self.strikes, root)?;
        for (name, object) in self.objects.iter() {
            object.check_in(name, self, &topology, root)?;
        }
        Ok(())
    }

    /// The range of every property path, as [`Preset::check_values`] checks
    /// it: its checks run in recording mode. Anchor fields are recorded under
    /// `NAME/key/*` (see [`check::every_key`]). A preset that fails validation
    /// yields the ranges of the checks before the failure.
    fn checked_ranges(&self) -> check::Ranges {
        let recorder = Checker::recording();
        // Recording never fails on a value; a structural error only ends the
        // recording early.
        let _ = self.check(&recorder);
        recorder.ranges()
    }

    /// The objects resolved through their interactions.
    pub fn topology(&self) -> Result<Topology<'_>, PresetError> {
        topology::resolve(&self.objects, &self.strikes, &Checker::checking())
    }

    /// Hammer speed (m/s) for a normalised velocity in [0, 1] (MIDI velocity / 127).
    pub fn hammer_speed(&self, velocity: f32) -> f64 {
        self.velocity.speed(f64::from(velocity))
    }
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
