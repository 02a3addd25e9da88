//! The tuning of the keyboard: a temperament or a Scala scale, stretched to
//! follow the strings' inharmonicity the way a tuner does.
//!
//! A stiff string's partials lie at `f_n = n·f0·sqrt(1 + B·n²)`, so its second
//! partial is sharper than twice its first. A tuner sets each octave beatless:
//! in the treble the upper note's first partial on the lower note's second
//! (2:1); in the bass, whose upper partials are the strong ones, the upper note's
//! second on the lower note's fourth (4:2), a wider octave. As a tuner does, the
//! temperament octave A3–A4 is set first (its 2:1 widening shared evenly among
//! its semitones), and every other key is tuned by octaves outwards from it,
//! each octave widened by the stretch property times its beatless widening: 0
//! gives plain equal temperament, 1 beatless octaves everywhere.
//!
//! The chosen temperament ([`Temperament`], laid from `temperament_key`) or
//! Scala scale ([`Scale`] and [`KeyMap`]) moves each key from equal
//! temperament by its own cents, and the stretch applies on top: a key's
//! target is its stretched equal-tempered target moved by those cents. A4
//! stays at `a4_hz` under every temperament, whatever its key; a scale is
//! pitched by its keyboard mapping's reference (A4 at 440 Hz by default),
//! transposed by `a4_hz / 440`. A scale replaces the temperament.

mod by_name;
pub mod files;
mod keymap;
mod scale;
mod temperament;

pub use keymap::KeyMap;
pub use scale::Scale;
pub use temperament::{Temperament, parse_pitch_class, pitch_class_name};

use serde::{Deserialize, Serialize};

use crate::props::declared_default;

/// MIDI key of A4.
const A4: u8 = 69;

/// The tuning of the keyboard: the reference pitch, the temperament or scale,
/// and how far octaves follow the strings' inharmonicity (a preset's
/// `[tuning]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StretchedTuning {
    /// Frequency of A4's first partial, Hz.
    pub a4_hz: f64,
    /// 0: equal temperament; 1 (the default): every octave beatless on partials 2:1.
    #[serde(default = "full_stretch")]
    pub stretch: f64,
    /// The temperament, by its index in [`Temperament::ALL`] (0, the default:
    /// equal); in a preset by name, `temperament = "werckmeister-iii"`.
    #[serde(
        default,
        with = "by_name::temperament",
        skip_serializing_if = "is_zero"
    )]
    pub temperament: u32,
    /// The pitch class the temperament is laid from, 0 (C, the default) to 11
    /// (B); in a preset by name, `temperament_key = "E♭"`.
    #[serde(
        default,
        with = "by_name::pitch_class",
        skip_serializing_if = "is_zero"
    )]
    pub temperament_key: u32,
    /// A Scala scale, which replaces the temperament; in a preset, the text
    /// of its `.scl` file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<Scale>,
    /// How the scale lies on the keys; `None`: Scala's standard linear
    /// mapping ([`KeyMap::default`]). In a preset, the text of its `.kbm`
    /// file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keymap: Option<KeyMap>,
}

fn is_zero(x: &u32) -> bool {
    *x == 0
}

fn full_stretch() -> f64 {
    declared_default(StretchedTuning::FIELDS, "stretch")
}

impl Default for StretchedTuning {
    fn default() -> Self {
        Self {
            a4_hz: 440.0,
            stretch: 1.0,
            temperament: 0,
            temperament_key: 0,
            scale: None,
            keymap: None,
        }
    }
}

/// The widening of the octave above a note whose strings have inharmonicity
/// `b`, in cents: its second partial over twice its first.
pub fn octave_widening_cents(b: f64) -> f64 {
    octave_widening_on_partials_cents(b, b, 1)
}

/// The widening (cents) of an octave tuned beatless on partials `2m : m`: the
/// upper note's partial `m` on the lower note's partial `2m`, with the lower and
/// upper notes' strings of inharmonicity `b_low` and `b_up`. First partials lie
/// at `f0·sqrt(1 + B)`, partial `n` at `n·f0·sqrt(1 + B·n²)`.
pub fn octave_widening_on_partials_cents(b_low: f64, b_up: f64, m: u32) -> f64 {
    let n = f64::from(m);
    let stretch = |b: f64, n: f64| 600.0 * ((1.0 + b * n * n) / (1.0 + b)).log2();
    stretch(b_low, 2.0 * n) - stretch(b_up, n)
}

impl StretchedTuning {
    /// The chosen temperament (equal for an index past the last).
    pub fn temperament(&self) -> Temperament {
        Temperament::from_index(self.temperament).unwrap_or(Temperament::Equal)
    }

    /// The frequency (Hz) the scale gives `key` before the stretch; `None`
    /// without a scale or for a key the mapping leaves unmapped.
    fn scale_hz(&self, key: u8) -> Option<f64> {
        let scale = self.scale.as_ref()?;
        let standard;
        let keymap = match &self.keymap {
            Some(keymap) => keymap,
            None => {
                standard = KeyMap::default();
                &standard
            }
        };
        keymap.frequency_hz(scale, key, self.a4_hz / 440.0)
    }

    /// Sets the text property at `path` (`tuning:scale` or `tuning:keymap`)
    /// to `text`, a `.scl` or `.kbm` file's, or takes it away if `text` is
    /// empty; `None` for another path, `Some(Err)` for a text that does not
    /// parse (one line naming the line).
    pub fn set_text(&mut self, path: &str, text: &str) -> Option<Result<(), String>> {
        let empty = text.trim().is_empty();
        let parsed = match path {
            "tuning:scale" if empty => {
                self.scale = None;
                return Some(Ok(()));
            }
            "tuning:keymap" if empty => {
                self.keymap = None;
                return Some(Ok(()));
            }
            "tuning:scale" => Scale::parse(text, "scale").map(|s| self.scale = Some(s)),
            "tuning:keymap" => KeyMap::parse(text, "keymap").map(|k| self.keymap = Some(k)),
            _ => return None,
        };
        Some(parsed)
    }

    /// Whether `key` sounds: every key does but those a scale's keyboard
    /// mapping leaves unmapped (`x`, or outside its first and last keys),
    /// which are silent.
    pub fn plays(&self, key: u8) -> bool {
        self.scale.is_none() || self.scale_hz(key).is_some()
    }

    /// How far `key`'s unstretched pitch lies from equal temperament with A4
    /// at `a4_hz`, cents: the temperament's or the scale's departure (0 for
    /// an unmapped key).
    pub fn offset_cents(&self, key: u8) -> f64 {
        if self.scale.is_some() {
            let equal = self.a4_hz * 2f64.powf((f64::from(key) - f64::from(A4)) / 12.0);
            return self
                .scale_hz(key)
                .map_or(0.0, |hz| 1200.0 * (hz / equal).log2());
        }
        let tonic = (self.temperament_key % 12) as u8;
        self.temperament().key_offset_cents(key, tonic)
    }

    /// First-partial target frequencies (Hz) of keys `lowest..=highest`, given
    /// the inharmonicity `inharmonicity(key)` of each key's strings.
    ///
    /// Allocates: the returned list.
    pub fn targets(&self, lowest: u8, highest: u8, inharmonicity: impl Fn(u8) -> f64) -> Vec<f64> {
        (lowest..=highest)
            .map(|key| self.target(key, &inharmonicity))
            .collect()
    }

    /// The first-partial target frequency (Hz) of `key`, given the
    /// inharmonicity `inharmonicity(k)` of every key's strings.
    pub fn target(&self, key: u8, inharmonicity: impl Fn(u8) -> f64) -> f64 {
        // The widening of the octave above `k` on partials 2m : m, in cents.
        let widening = |k: u8, m: u32| {
            let b = |k: u8| inharmonicity(k).max(0.0);
            self.stretch * octave_widening_on_partials_cents(b(k), b(k + 12), m)
        };
        let octave = |k: u8, m: u32| 2.0 * 2f64.powf(widening(k, m) / 1200.0);
        let mut octaves = 1.0;
        let mut k = key;
        // Upwards from the temperament octave, octaves beatless 2:1 (in the
        // treble the upper note's first partial is what is heard).
        while k > A4 {
            k -= 12;
            octaves *= octave(k, 1);
        }
        // Downwards, beatless 4:2, as tuners set bass octaves on the lower
        // note's stronger upper partials.
        while k < TEMPERAMENT_LOW {
            octaves /= octave(k, BASS_OCTAVE_PARTIAL);
            k += 12;
        }
        // Within the temperament octave the widening of A3–A4 is shared evenly
        // among its semitones.
        let spread = -widening(A4 - 12, 1) * f64::from(A4 - k) / 12.0;
        // The temperament's or scale's own cents (exactly 0 in equal temperament).
        let semitones = f64::from(k) - f64::from(A4) + (spread + self.offset_cents(key)) / 100.0;
        self.a4_hz * 2f64.powf(semitones / 12.0) * octaves
    }
}

/// The lowest key of the temperament octave above A3 (A♯3): keys from here to
/// A4 are set directly from A4.
const TEMPERAMENT_LOW: u8 = A4 - 11;

/// Octaves below the temperament octave are beatless on partials 2m : m with
/// this m (4:2 octaves).
const BASS_OCTAVE_PARTIAL: u32 = 2;

/// The name of MIDI key `key`, middle C (60) being C4: `A0` (21), `A♯4` (70).
pub fn note_name(key: u8) -> String {
    const NAMES: [&str; 12] = [
        "C", "C♯", "D", "D♯", "E", "F", "F♯", "G", "G♯", "A", "A♯", "B",
    ];
    format!(
        "{}{}",
        NAMES[usize::from(key % 12)],
        i32::from(key / 12) - 1
    )
}

/// The MIDI key named `name`, middle C (60) being C4: a letter `A`–`G` (either
/// case), any number of sharps (`#`, `♯`) or flats (`b`, `♭`), and an octave
/// from -1 to 9: `C4` (60), `Db4` and `C#4` (61), `A0` (21), `B♭-1` (10).
/// `None` for anything else or a key outside 0–127.
pub fn parse_note_name(name: &str) -> Option<u8> {
    // The octave starts at the first digit or minus sign after the letter.
    let octave_at = name
        .char_indices()
        .skip(1)
        .find(|&(_, c)| c == '-' || c.is_ascii_digit())
        .map_or(name.len(), |(i, _)| i);
    let (pitch, octave) = name.split_at(octave_at);
    let octave: i32 = octave.parse().ok()?;
    let key = 12 * (octave + 1) + temperament::semitones_from_c(pitch)?;
    u8::try_from(key).ok().filter(|&k| k <= 127)
}

crate::fields!(StretchedTuning {
    a4_hz: Real, "Hz", [300.0, 600.0, "300 to 600 Hz"], "Concert pitch: the frequency of A4's first partial";
    stretch: Real = 1.0, "", [0.0, 1.0, "0 to 1"],
        "How far octaves stretch to follow the strings' inharmonicity: 0 equal temperament, 1 beatless octaves";
    temperament: Count, "", [0.0, (Temperament::ALL.len() - 1) as f64, "0 (equal) to 5 (Pythagorean)"],
        "Temperament: 0 equal, 1 Werckmeister III, 2 Vallotti, 3 Kirnberger III, 4 1/4-comma meantone, 5 Pythagorean";
    temperament_key: Count, "", [0.0, 11.0, "0 (C) to 11 (B)"], "The key the temperament is laid from: 0 C, 1 C♯, 2 D … 11 B";
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn note_names_are_read_with_sharps_or_flats() {
        for (name, key) in [
            ("C4", 60),
            ("c4", 60),
            ("Db4", 61),
            ("C#4", 61),
            ("C♯4", 61),
            ("D♭4", 61),
            ("A0", 21),
            ("Bb0", 22),
            ("C8", 108),
            ("C-1", 0),
            ("G9", 127),
        ] {
            assert_eq!(parse_note_name(name), Some(key), "{name}");
        }
        for key in 0..=127 {
            assert_eq!(parse_note_name(&note_name(key)), Some(key));
        }
        for bad in ["", "H4", "C", "Cx4", "ff", "Piano", "G#9", "Cb-1", "C4.5"] {
            assert_eq!(parse_note_name(bad), None, "{bad}");
        }
    }

    /// B(C4) = 3.77e-4, doubling every 8 semitones above (Young 1952); below,
    /// falling to about 1.2e-4 near E2 and rising again in the wound bass to
    /// about 4e-4 at A0.
    fn reference_b(key: u8) -> f64 {
        let k = f64::from(key);
        if key >= 60 {
            3.77e-4 * 2f64.powf((k - 60.0) / 8.0)
        } else if key >= 40 {
            1.2e-4 * (3.77e-4f64 / 1.2e-4).powf((k - 40.0) / 20.0)
        } else {
            1.2e-4 * (4e-4f64 / 1.2e-4).powf((40.0 - k) / 19.0)
        }
    }

    fn cents(a: f64, b: f64) -> f64 {
        1200.0 * (a / b).log2()
    }

    #[test]
    fn without_stretch_it_is_equal_temperament() {
        let tuning = StretchedTuning {
            a4_hz: 442.0,
            stretch: 0.0,
            ..StretchedTuning::default()
        };
        let targets = tuning.targets(21, 108, reference_b);
        for (i, f) in targets.iter().enumerate() {
            let et = 442.0 * 2f64.powf((21.0 + i as f64 - 69.0) / 12.0);
            assert!(cents(*f, et).abs() < 1e-9, "key {}", 21 + i);
        }
    }

    /// With full stretch every octave is beatless: from the temperament octave
    /// up, the upper note's first partial lands on the lower note's second;
    /// below it, the upper note's second on the lower note's fourth (partials at
    /// n·f0·sqrt(1 + B·n²)).
    #[test]
    fn full_stretch_makes_octaves_beatless() {
        let targets = StretchedTuning::default().targets(21, 108, reference_b);
        assert_eq!(targets[69 - 21], 440.0);
        // Partial n of a key from its first partial F.
        let partial = |key: u8, n: f64| {
            let b = reference_b(key);
            targets[usize::from(key - 21)] * n * ((1.0 + b * n * n) / (1.0 + b)).sqrt()
        };
        for low in 21u8..=96 {
            let m = if low < TEMPERAMENT_LOW { 2.0 } else { 1.0 };
            let mismatch = cents(partial(low + 12, m), partial(low, 2.0 * m));
            assert!(
                mismatch.abs() < 1e-9,
                "octave above {low}: {mismatch} cents"
            );
        }
    }

    /// Over the keyboard the stretch adds up to what tuners measure on grands:
    /// 35–60 cents from A0 to C8 (`docs/reference-measurements.md`), rising
    /// with pitch.
    #[test]
    fn total_stretch_matches_real_grands() {
        let stretched = StretchedTuning::default().targets(21, 108, reference_b);
        let plain = StretchedTuning {
            stretch: 0.0,
            ..StretchedTuning::default()
        }
        .targets(21, 108, reference_b);
        let deviation: Vec<f64> = stretched
            .iter()
            .zip(&plain)
            .map(|(s, p)| cents(*s, *p))
            .collect();
        // It rises key by key: where B grows with pitch (the plain-steel tenor)
        // chains of beatless octaves can dip by a hair between neighbours, far
        // below what anyone hears (0.1 cent; pitch differences of a few cents
        // are the threshold).
        let worst_dip = deviation
            .windows(2)
            .map(|w| w[0] - w[1])
            .fold(0.0, f64::max);
        assert!(worst_dip < 0.1, "dips by {worst_dip} cents");
        let total = deviation[deviation.len() - 1] - deviation[0];
        assert!((35.0..=60.0).contains(&total), "stretch {total} cents");
    }
}
