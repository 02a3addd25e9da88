//! Stiff strings (`[stiff-strings.NAME]`): one to three per key on a shared
//! bridge, their values given at anchor keys. The piano families' strings.

use serde::{Deserialize, Serialize};

use super::anchored::{Anchored, value_at};
use super::check::Checker;
use super::error::PresetError;
use crate::instrument::StretchedTuning;
use crate::random::{SplitMix64, standard_normal};
use crate::resonators::{LongitudinalParams, MAX_UNISON_STRINGS, SecondPlane, StringDeviation};
use crate::{anchor_fields, fields};

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
    /// How far a tuner leaves each string from its place in the spread:
    /// the standard deviation of its tuning error, cents.
    #[serde(default)]
    pub unison_spread_cents: f64,
    /// The standard deviation of a string's inharmonicity over its
    /// unison's, relative (wire diameters differ by a fraction of a per
    /// cent, and `B` goes as the diameter squared at a given pitch).
    #[serde(default)]
    pub unison_spread_inharmonicity: f64,
    /// The standard deviation of a string's losses over its unison's,
    /// relative (how it sits on the bridge pin and in the felt).
    #[serde(default)]
    pub unison_spread_loss: f64,
    /// The standard deviation of each string's share of the hammer's blow
    /// over an even share, relative (strings not quite level under the
    /// hammer, a felt not quite mated to them).
    #[serde(default)]
    pub unison_spread_contact: f64,
    /// Which strings were made and tuned: each seed gives every unison
    /// other deviations, reproducibly.
    #[serde(default)]
    pub unison_seed: u32,
    /// Tilt of the bridge's motion from the board's normal, rad: it couples
    /// the strings' motion across the board (which the hammer drives) to
    /// their motion along it ([`SecondPlane`]); 0 leaves them in one plane.
    #[serde(default)]
    pub bridge_tilt_rad: f64,
    /// Young's modulus of the strings' core wire, Pa: with the tension and
    /// inharmonicity it gives the core's cross-section and the speed of the
    /// strings' longitudinal waves ([`LongitudinalParams`]).
    #[serde(default = "steel_modulus")]
    pub youngs_modulus_pa: f64,
    /// The share of a string's pull along its length at the bridge that
    /// pushes the board across it (the downbearing and the bridge's rocking
    /// about its foot); 0 leaves the longitudinal vibration out.
    #[serde(default)]
    pub longitudinal_coupling: f64,
    /// 60 dB decay time of the strings' longitudinal modes, s.
    #[serde(default = "longitudinal_t60")]
    pub longitudinal_t60_s: f64,
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

/// Steel's Young's modulus, Pa.
fn steel_modulus() -> f64 {
    2.0e11
}

/// The longitudinal modes' decay time when a preset gives none, s.
fn longitudinal_t60() -> f64 {
    0.5
}

impl StringSet {
    /// The strings' longitudinal vibration, if they pull on the board with it
    /// (a coupling above 0).
    pub fn longitudinal(&self) -> Option<LongitudinalParams> {
        (self.longitudinal_coupling > 0.0).then_some(LongitudinalParams {
            youngs_modulus_pa: self.youngs_modulus_pa,
            coupling: self.longitudinal_coupling,
            t60_s: self.longitudinal_t60_s,
        })
    }

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

    /// Tunes every unison's strings alike and makes them alike: no spread
    /// (`detune_cents`) and no deviations (the second plane stays).
    pub fn tune_alike(&mut self) {
        self.detune_cents = 0.0;
        self.unison_spread_cents = 0.0;
        self.unison_spread_inharmonicity = 0.0;
        self.unison_spread_loss = 0.0;
        self.unison_spread_contact = 0.0;
    }

    /// How each string of `key`'s unison departs from the nominal one, and
    /// the strings' second plane if the bridge couples one: drawn from the
    /// declared spreads with `unison_seed` and the key (the same every
    /// time), each at most 2.5 standard deviations off, the tuning errors of
    /// the key's strings summing to nothing.
    pub fn unison_deviations(
        &self,
        key: u8,
    ) -> ([StringDeviation; MAX_UNISON_STRINGS], Option<SecondPlane>) {
        let mut random = SplitMix64::new(u64::from(self.unison_seed) << 8 | u64::from(key));
        let mut normal = || standard_normal(&mut random).clamp(-2.5, 2.5);
        let mut deviations: [StringDeviation; MAX_UNISON_STRINGS] =
            std::array::from_fn(|_| StringDeviation {
                cents: self.unison_spread_cents * normal(),
                inharmonicity_factor: 1.0 + self.unison_spread_inharmonicity * normal(),
                loss_factor: 1.0 + self.unison_spread_loss * normal(),
                contact_factor: 1.0,
            });
        // The tuner brings the unison as a whole to its pitch: the errors of
        // the strings it has sum to nothing (a single string is in tune).
        let strings = &mut deviations[..self.strings_per_key(key)];
        let mean = strings.iter().map(|d| d.cents).sum::<f64>() / strings.len() as f64;
        for deviation in strings {
            deviation.cents -= mean;
        }
        let plane = (self.bridge_tilt_rad > 0.0).then(|| SecondPlane {
            tilt_rad: self.bridge_tilt_rad,
            cents: self.unison_spread_cents * normal(),
        });
        // Drawn last, so that the other deviations are what they were
        // before the hammer's contact could differ.
        if self.unison_spread_contact > 0.0 {
            for deviation in &mut deviations {
                deviation.contact_factor = 1.0 + self.unison_spread_contact * normal();
            }
        }
        (deviations, plane)
    }

    pub(super) fn check(&self, c: &Checker) -> Result<(), PresetError> {
        c.declared(self)?;
        c.each_anchor(&self.anchor, |c, a| c.declared_anchor(a))
    }
}

fields!(StringSet {
    pairs_from_key: Key, "", "Lowest key with two strings; the keys below have one";
    triples_from_key: Key, "", at_least pairs_from_key, "Lowest key with three strings";
    detune_cents: Real, "cents", [0.0, 50.0, "0 to 50 cents"],
        "Spread of the tunings of a note's strings: more gives a livelier, beating unison";
    unison_spread_cents: Real = 0.0, "cents", [0.0, 5.0, "0 to 5 cents"],
        "How far a tuner leaves each string of a unison off its place (standard deviation): the partials beat at uneven rates";
    unison_spread_inharmonicity: Real = 0.0, "", [0.0, 0.2, "0 to 0.2"],
        "How much the strings of a unison differ in stiffness (relative standard deviation): their upper partials drift apart unevenly";
    unison_spread_loss: Real = 0.0, "", [0.0, 0.2, "0 to 0.2"],
        "How much the strings of a unison differ in damping (relative standard deviation)";
    unison_spread_contact: Real = 0.0, "", [0.0, 0.2, "0 to 0.2"],
        "How unevenly the hammer meets the strings of a unison (relative standard deviation of each one's share of the blow): more of the sound passes into the slowly dying aftersound";
    unison_seed: Count = 0.0, "", "Which strings: each seed makes and tunes every unison's strings differently";
    bridge_tilt_rad: Real = 0.0, "rad", [0.0, 0.785, "0 to 0.785 rad (45°)"],
        "Tilt of the bridge's motion from the board's normal: couples the strings' motion along the board, which rings on after the rest (the aftersound); 0 keeps one plane";
    youngs_modulus_pa: Real = 2.0e11, "Pa", [1.0e10, 5.0e11, "1e10 to 5e11 Pa"],
        "Young's modulus of the strings' core wire (steel 2e11): sets how fast the strings' longitudinal waves travel, and so where their modes ring";
    longitudinal_coupling: Real = 0.0, "", [0.0, 1.0, "0 to 1"],
        "Share of a string's pull along its length that pushes the board (downbearing and the bridge's rocking): the knock of the attack and the bass's phantom partials; 0 leaves them out";
    longitudinal_t60_s: Real = 0.5, "s", [0.01, 10.0, "0.01 to 10 s"],
        "Decay time of the strings' longitudinal modes: longer makes the knock ring";
});
anchor_fields!(StringAnchor {
    length_m, "m", [0.01, 3.0, "0.01 to 3 m"], "Speaking length of the string";
    string_mass_kg, "kg", [1e-5, 1.0, "0.01 g to 1 kg"],
        "Mass of the speaking length: a heavier string has more tension at the same pitch";
    loss_b1, "1/s", [1e-3, 100.0, "0.001 to 100 1/s"], "Damping of every partial alike: more makes the note die away sooner";
    loss_b2, "m²/s", [0.0, 0.1, "0 to 0.1 m²/s"],
        "Damping that grows with frequency: more makes the upper partials die sooner, a darker tone";
    inharmonicity, "", [0.0, 0.1, "0 to 0.1"],
        "Stiffness of the string: partials sharpen as n·f0·√(1 + B·n²), a metallic edge";
    bridge_impedance_kg_s, "kg/s", [1.0, 1e6, "1 to 1e6 kg/s"],
        "Resistance of the bridge under the key's strings: lower couples them more to the bridge, shorter sustain";
});

/// Target frequency of `key`'s first partial, Hz, as `tuning` places it:
/// octaves stretched to follow the inharmonicity of `strings` if strings
/// are struck (bars are stiff beams with no such partials: plain equal
/// temperament then).
pub fn fundamental_hz(tuning: &StretchedTuning, strings: Option<&StringSet>, key: u8) -> f64 {
    match strings {
        Some(strings) => tuning.target(key, |k| strings.at(k, |a| a.inharmonicity).unwrap_or(0.0)),
        None => tuning.target(key, |_| 0.0),
    }
}
