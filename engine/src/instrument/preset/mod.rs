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
//! checks: both read the fields' declarations ([`crate::props::Declaration`])
//! and the ranges the instrument's rules declare ([`Bound`]).

mod anchor_list;
mod anchored;
mod bars;
mod bound;
mod bound_check;
pub mod case;
mod check;
mod definition;
mod error;
mod fields;
mod hammers;
mod keyboard;
mod object;
mod objects;
mod output;
mod paths;
mod properties;
mod room_spec;
mod serialize;
mod shared_kinds;
mod strike;
mod strings;
mod topology;
mod tuning_check;
mod unisons_alike;

pub use crate::room::RoomSpec;
pub use anchor_list::AnchorList;
pub use anchored::{Anchored, value_at};
pub use bars::{BarEnds, BarSet, MAX_BAR_MODES, NODE_SHAPE};
pub use bound::Bound;
pub use check::Checker;
pub use definition::Preset;
pub use error::PresetError;
pub use fields::{AnchorFields, Field, Fields};
pub use hammers::{HammerAnchor, HammerSet, LOSSLESS_FELT, UNRELAXING_FELT};
pub use keyboard::Keyboard;
pub use object::{
    Instrument, Link, ObjectData, ObjectKind, ObjectSpec, Read, StrikePart, Topology,
};
pub use objects::{NamedObject, Objects};
pub use output::{MICROPHONES, OutputSpec};
pub use paths::PropertyEdit;
pub use properties::ComponentInfo;
pub use shared_kinds::SHARED_KINDS;
pub use strike::{StrikeAnchor, StrikeSpec};
pub use strings::{StringAnchor, StringSet, fundamental_hz};

/// The largest preset file read, bytes (the grand's is about 20 kB).
pub const MAX_PRESET_BYTES: u64 = 16 << 20;

/// The instrument every front end plays when no other is chosen, embedded at build time.
pub const DEFAULT_PRESET_TOML: &str = include_str!("../../../../presets/grand-piano.toml");

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
