//! Presets: an instrument described as data.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The instrument every front end plays when no other is chosen, embedded at build time.
pub const DEFAULT_PRESET_TOML: &str = include_str!("../../../presets/grand-piano.toml");

/// A struck-string instrument: one to three strings and one hammer per key, with
/// physical values given at anchor keys and interpolated between them, and a
/// soundboard shared by all keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    /// Display name.
    pub name: String,
    /// One line on what it is.
    pub description: String,
    /// Reference pitch.
    pub tuning: Tuning,
    /// Which MIDI keys exist.
    pub keyboard: Keyboard,
    /// How MIDI velocity becomes hammer speed.
    pub velocity: VelocityMap,
    /// The hammer's flight.
    pub hammer: HammerSpec,
    /// The dampers.
    pub damper: DamperSpec,
    /// From bridge force to audio.
    pub output: OutputSpec,
    /// How many strings each note has and how they are tuned.
    pub unison: UnisonSpec,
    /// The body that radiates the bridge's motion.
    pub soundboard: SoundboardSpec,
    /// Physical values at anchor keys, in ascending key order.
    #[serde(rename = "anchor")]
    pub anchors: Vec<Anchor>,
}

/// Reference pitch and how far the octaves are stretched.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tuning {
    /// Frequency of A4's first partial (MIDI key 69), Hz.
    pub a4_hz: f64,
    /// 0: plain equal temperament; 1 (default): every octave beatless on the
    /// strings' partials 2:1, as a tuner stretches a piano (see
    /// [`super::StretchedTuning`]).
    #[serde(default = "full_stretch")]
    pub stretch: f64,
}

fn full_stretch() -> f64 {
    1.0
}

/// The keys that have a string.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keyboard {
    /// Lowest MIDI key (21 is A0 on an 88-key piano).
    pub lowest_key: u8,
    /// Highest MIDI key (108 is C8).
    pub highest_key: u8,
}

/// MIDI velocity to hammer speed: geometric between the two ends.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VelocityMap {
    /// Hammer speed at velocity 1, m/s.
    pub softest_speed_m_s: f64,
    /// Hammer speed at velocity 127, m/s.
    pub hardest_speed_m_s: f64,
}

/// The hammer's free flight.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HammerSpec {
    /// Distance between felt and string when the hammer is released into flight, m.
    pub start_gap_m: f64,
}

/// The dampers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamperSpec {
    /// 60 dB decay time of a string with its damper down, s.
    pub t60_s: f64,
    /// Time constant of the damper's landing, s.
    pub travel_s: f64,
}

/// From bridge force to the output.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Output sample value per newton of bridge force.
    pub gain_per_newton: f64,
    /// Stereo spread of the keyboard, 0 (mono) to 1 (lowest key hard left).
    pub stereo_width: f64,
}

/// The strings of each note: one in the low bass, pairs, then triples.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnisonSpec {
    /// Lowest MIDI key with two strings; keys below have one.
    pub pairs_from_key: u8,
    /// Lowest MIDI key with three strings (at least `pairs_from_key`).
    pub triples_from_key: u8,
    /// Spread of a note's string tunings, cents: three strings sit at −d, 0, +d,
    /// two at ±d/2.
    pub detune_cents: f64,
}

/// The soundboard: resonant body modes driven by the bridge.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoundboardSpec {
    /// Number of body modes.
    pub modes: u32,
    /// Frequency of the lowest mode, Hz.
    pub lowest_mode_hz: f64,
    /// Frequency of the highest mode, Hz.
    pub highest_mode_hz: f64,
    /// 60 dB decay time of the lowest mode, s (higher ones decay faster).
    pub lowest_mode_t60_s: f64,
    /// Level of the body's ring relative to the direct bridge sound.
    pub body_gain: f64,
}

/// Physical values of the string and hammer at one key.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Anchor {
    /// MIDI key.
    pub key: u8,
    /// Speaking length, m.
    pub length_m: f64,
    /// Mass of the speaking length, kg.
    pub string_mass_kg: f64,
    /// Strike point as a fraction of the length from the agraffe.
    pub strike_position: f64,
    /// Frequency-independent string loss, 1/s.
    pub loss_b1: f64,
    /// Frequency-dependent string loss, m²/s.
    pub loss_b2: f64,
    /// Inharmonicity `B` of the string's stiffness (partials at `n·f0·√(1 + B·n²)`).
    pub inharmonicity: f64,
    /// Resistive impedance of the bridge under this key's strings, kg/s.
    pub bridge_impedance_kg_s: f64,
    /// Hammer mass, kg.
    pub hammer_mass_kg: f64,
    /// Felt stiffness `K` of `F = K·x^p`, N/m^p.
    pub felt_stiffness: f64,
    /// Felt exponent `p`.
    pub felt_exponent: f64,
    /// Hunt–Crossley hysteresis `β` of the felt, s/m (`F = K·x^p·(1 + β·ẋ)`); zero,
    /// the default, is a lossless felt.
    #[serde(default)]
    pub felt_hysteresis_s_per_m: f64,
}

/// Why a preset was rejected.
#[derive(Debug, Clone, PartialEq)]
pub enum PresetError {
    /// The text is not valid TOML for a preset (with the parser's location).
    Syntax(String),
    /// A value is outside its range; names the property path.
    OutOfRange {
        /// Property path, e.g. `anchor/60:felt_exponent`.
        path: String,
        /// The offending value.
        value: f64,
        /// The allowed range, in words.
        range: &'static str,
    },
    /// The anchors are missing, out of order or outside the keyboard.
    Anchors(String),
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax(message) => write!(f, "preset is not valid: {message}"),
            Self::OutOfRange { path, value, range } => {
                write!(f, "{path} = {value} is outside its range ({range})")
            }
            Self::Anchors(message) => write!(f, "preset anchors: {message}"),
        }
    }
}

impl std::error::Error for PresetError {}

impl Preset {
    /// The grand piano embedded in every build.
    pub fn default_grand() -> Self {
        Self::from_toml(DEFAULT_PRESET_TOML).expect("the embedded preset is tested to be valid")
    }

    /// Parses and validates a preset.
    pub fn from_toml(text: &str) -> Result<Self, PresetError> {
        let preset: Preset = toml::from_str(text)
            .map_err(|e| PresetError::Syntax(e.to_string().trim().replace('\n', " ")))?;
        preset.validate()?;
        Ok(preset)
    }

    /// Checks every value against its physical range.
    pub fn validate(&self) -> Result<(), PresetError> {
        let check = |path: &str, value: f64, lo: f64, hi: f64, range: &'static str| {
            if value.is_finite() && value >= lo && value <= hi {
                Ok(())
            } else {
                Err(PresetError::OutOfRange {
                    path: path.to_string(),
                    value,
                    range,
                })
            }
        };
        check(
            "tuning:a4_hz",
            self.tuning.a4_hz,
            300.0,
            600.0,
            "300 to 600 Hz",
        )?;
        check("tuning:stretch", self.tuning.stretch, 0.0, 1.0, "0 to 1")?;
        check(
            "velocity:softest_speed_m_s",
            self.velocity.softest_speed_m_s,
            0.05,
            20.0,
            "0.05 to 20 m/s",
        )?;
        check(
            "velocity:hardest_speed_m_s",
            self.velocity.hardest_speed_m_s,
            self.velocity.softest_speed_m_s,
            20.0,
            "softest speed to 20 m/s",
        )?;
        check(
            "hammer:start_gap_m",
            self.hammer.start_gap_m,
            1e-5,
            0.05,
            "0.01 mm to 50 mm",
        )?;
        check(
            "damper:t60_s",
            self.damper.t60_s,
            0.01,
            10.0,
            "0.01 to 10 s",
        )?;
        check(
            "damper:travel_s",
            self.damper.travel_s,
            1e-4,
            0.1,
            "0.1 ms to 100 ms",
        )?;
        check(
            "output:gain_per_newton",
            self.output.gain_per_newton,
            1e-6,
            1.0,
            "1e-6 to 1 per N",
        )?;
        check(
            "output:stereo_width",
            self.output.stereo_width,
            0.0,
            1.0,
            "0 to 1",
        )?;

        check(
            "unison:detune_cents",
            self.unison.detune_cents,
            0.0,
            50.0,
            "0 to 50 cents",
        )?;
        if self.unison.pairs_from_key > self.unison.triples_from_key {
            return Err(PresetError::OutOfRange {
                path: "unison:pairs_from_key".into(),
                value: f64::from(self.unison.pairs_from_key),
                range: "at most unison:triples_from_key",
            });
        }
        let board = &self.soundboard;
        check(
            "soundboard:modes",
            f64::from(board.modes),
            0.0,
            64.0,
            "0 to 64",
        )?;
        check(
            "soundboard:lowest_mode_hz",
            board.lowest_mode_hz,
            10.0,
            5_000.0,
            "10 Hz to 5 kHz",
        )?;
        check(
            "soundboard:highest_mode_hz",
            board.highest_mode_hz,
            board.lowest_mode_hz,
            15_000.0,
            "lowest mode to 15 kHz",
        )?;
        check(
            "soundboard:lowest_mode_t60_s",
            board.lowest_mode_t60_s,
            1e-3,
            10.0,
            "1 ms to 10 s",
        )?;
        check(
            "soundboard:body_gain",
            board.body_gain,
            0.0,
            10.0,
            "0 to 10",
        )?;

        let Keyboard {
            lowest_key,
            highest_key,
        } = self.keyboard;
        if lowest_key > highest_key || highest_key > 127 {
            return Err(PresetError::Anchors(format!(
                "keyboard {lowest_key}..={highest_key} is not a range of MIDI keys"
            )));
        }
        if self.anchors.is_empty() {
            return Err(PresetError::Anchors(
                "at least one [[anchor]] is needed".into(),
            ));
        }
        for pair in self.anchors.windows(2) {
            if pair[0].key >= pair[1].key {
                return Err(PresetError::Anchors(format!(
                    "keys must rise strictly: {} is followed by {}",
                    pair[0].key, pair[1].key
                )));
            }
        }
        for a in &self.anchors {
            let path = |field: &str| format!("anchor/{}:{field}", a.key);
            check(&path("length_m"), a.length_m, 0.01, 3.0, "0.01 to 3 m")?;
            check(
                &path("string_mass_kg"),
                a.string_mass_kg,
                1e-5,
                1.0,
                "0.01 g to 1 kg",
            )?;
            check(
                &path("strike_position"),
                a.strike_position,
                0.01,
                0.5,
                "0.01 to 0.5",
            )?;
            check(&path("loss_b1"), a.loss_b1, 1e-3, 100.0, "0.001 to 100 1/s")?;
            check(&path("loss_b2"), a.loss_b2, 0.0, 0.1, "0 to 0.1 m²/s")?;
            check(
                &path("inharmonicity"),
                a.inharmonicity,
                0.0,
                0.1,
                "0 to 0.1",
            )?;
            check(
                &path("bridge_impedance_kg_s"),
                a.bridge_impedance_kg_s,
                1.0,
                1e6,
                "1 to 1e6 kg/s",
            )?;
            check(
                &path("hammer_mass_kg"),
                a.hammer_mass_kg,
                1e-4,
                0.1,
                "0.1 g to 100 g",
            )?;
            check(
                &path("felt_stiffness"),
                a.felt_stiffness,
                1e3,
                1e16,
                "1e3 to 1e16 N/m^p",
            )?;
            check(&path("felt_exponent"), a.felt_exponent, 1.0, 5.0, "1 to 5")?;
            check(
                &path("felt_hysteresis_s_per_m"),
                a.felt_hysteresis_s_per_m,
                0.0,
                2.0,
                "0 to 2 s/m",
            )?;
        }
        Ok(())
    }

    /// Number of strings of `key`: 1, 2 or 3, from the unison split points.
    pub fn strings_per_key(&self, key: u8) -> usize {
        if key >= self.unison.triples_from_key {
            3
        } else if key >= self.unison.pairs_from_key {
            2
        } else {
            1
        }
    }

    /// Hammer speed (m/s) for a normalised velocity in [0, 1] (MIDI velocity / 127).
    pub fn hammer_speed(&self, velocity: f32) -> f64 {
        let v = f64::from(velocity);
        let v = if v.is_finite() { v } else { 0.0 };
        // MIDI velocity 1 maps to the softest speed, 127 to the hardest.
        let t = ((v * 127.0 - 1.0) / 126.0).clamp(0.0, 1.0);
        let VelocityMap {
            softest_speed_m_s: soft,
            hardest_speed_m_s: hard,
        } = self.velocity;
        soft * (hard / soft).powf(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_preset_is_valid() {
        let p = Preset::default_grand();
        assert_eq!((p.keyboard.lowest_key, p.keyboard.highest_key), (21, 108));
    }

    #[test]
    fn out_of_range_value_names_its_path() {
        let text = DEFAULT_PRESET_TOML.replace("felt_exponent = 2.5", "felt_exponent = 7.0");
        let err = Preset::from_toml(&text).unwrap_err().to_string();
        assert!(err.contains("anchor/60:felt_exponent"), "{err}");
        assert!(err.contains("1 to 5"), "{err}");
    }

    /// Presets written before the felt had hysteresis load with a lossless felt;
    /// a negative or huge hysteresis is refused by name.
    #[test]
    fn felt_hysteresis_defaults_to_zero_and_is_range_checked() {
        let old: String = DEFAULT_PRESET_TOML
            .lines()
            .filter(|line| !line.starts_with("felt_hysteresis_s_per_m"))
            .collect::<Vec<_>>()
            .join("\n");
        let p = Preset::from_toml(&old).unwrap();
        assert!(p.anchors.iter().all(|a| a.felt_hysteresis_s_per_m == 0.0));
        assert_eq!(p.key_params(60).felt.hysteresis_s_per_m, 0.0);
        let grand = Preset::default_grand();
        assert!(
            grand
                .anchors
                .iter()
                .all(|a| a.felt_hysteresis_s_per_m > 0.0)
        );
        for bad in ["-0.1", "2.5", "nan"] {
            let text = DEFAULT_PRESET_TOML.replacen(
                "felt_hysteresis_s_per_m = 0.08",
                &format!("felt_hysteresis_s_per_m = {bad}"),
                1,
            );
            let err = Preset::from_toml(&text).unwrap_err().to_string();
            assert!(err.contains("anchor/21:felt_hysteresis_s_per_m"), "{err}");
        }
    }

    #[test]
    fn unknown_field_and_broken_syntax_are_errors() {
        let text = DEFAULT_PRESET_TOML.replace("a4_hz = 440.0", "a4_hz = 440.0\npitch = 3");
        assert!(matches!(
            Preset::from_toml(&text),
            Err(PresetError::Syntax(_))
        ));
        assert!(matches!(
            Preset::from_toml("name = "),
            Err(PresetError::Syntax(_))
        ));
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
    }
}
