//! Physical values of one key, interpolated from a preset's anchors.

use super::preset::Anchor;
use super::{Preset, StretchedTuning};
use crate::resonators::{StringParams, UnisonParams};
use crate::wdf::FeltLaw;

/// Everything needed to build one key's string and hammer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyParams {
    /// MIDI key.
    pub key: u8,
    /// One string of the note.
    pub string: StringParams,
    /// Inharmonicity `B` of its stiffness.
    pub inharmonicity: f64,
    /// Number of strings, 1 to 3.
    pub strings: usize,
    /// Spread of the strings' tunings, cents.
    pub detune_cents: f64,
    /// Resistive bridge impedance under the strings, kg/s.
    pub bridge_impedance_kg_s: f64,
    /// Hammer mass, kg.
    pub hammer_mass_kg: f64,
    /// The hammer's felt.
    pub felt: FeltLaw,
}

/// Geometric interpolation from `x` (at `t` = 0) to `y` (at 1), linear where
/// either is not positive.
fn interpolate(x: f64, y: f64, t: f64) -> f64 {
    if x > 0.0 && y > 0.0 {
        x * (y / x).powf(t)
    } else {
        x + (y - x) * t
    }
}

impl Preset {
    /// Target frequency of `key`'s first partial, Hz: A4 at the preset's
    /// reference, octaves stretched to follow the strings' inharmonicity by the
    /// preset's stretch.
    pub fn fundamental_hz(&self, key: u8) -> f64 {
        let tuning = StretchedTuning {
            a4_hz: self.tuning.a4_hz,
            stretch: self.tuning.stretch,
        };
        tuning.target(key, |k| {
            let (a, b, t) = self.anchors_around(k);
            interpolate(a.inharmonicity, b.inharmonicity, t)
        })
    }

    /// The anchors on either side of `key` and where `key` lies between them
    /// (0 at the first, 1 at the second); the nearest anchor twice outside them.
    fn anchors_around(&self, key: u8) -> (&Anchor, &Anchor, f64) {
        let anchors = &self.anchors;
        match anchors.iter().position(|a| a.key >= key) {
            None => (
                &anchors[anchors.len() - 1],
                &anchors[anchors.len() - 1],
                0.0,
            ),
            Some(0) => (&anchors[0], &anchors[0], 0.0),
            Some(i) => {
                let (a, b) = (&anchors[i - 1], &anchors[i]);
                (a, b, f64::from(key - a.key) / f64::from(b.key - a.key))
            }
        }
    }

    /// The physical values at `key`: geometric interpolation between the anchors
    /// around it, the nearest anchor's values outside them.
    pub fn key_params(&self, key: u8) -> KeyParams {
        let (a, b, t) = self.anchors_around(key);
        let geo = |x: f64, y: f64| interpolate(x, y, t);
        KeyParams {
            key,
            string: StringParams {
                length_m: geo(a.length_m, b.length_m),
                mass_kg: geo(a.string_mass_kg, b.string_mass_kg),
                fundamental_hz: self.fundamental_hz(key),
                strike_position: geo(a.strike_position, b.strike_position),
                loss_b1: geo(a.loss_b1, b.loss_b1),
                loss_b2: geo(a.loss_b2, b.loss_b2),
            },
            inharmonicity: geo(a.inharmonicity, b.inharmonicity),
            strings: self.strings_per_key(key),
            detune_cents: self.unison.detune_cents,
            bridge_impedance_kg_s: geo(a.bridge_impedance_kg_s, b.bridge_impedance_kg_s),
            hammer_mass_kg: geo(a.hammer_mass_kg, b.hammer_mass_kg),
            felt: FeltLaw {
                stiffness: geo(a.felt_stiffness, b.felt_stiffness),
                exponent: geo(a.felt_exponent, b.felt_exponent),
                hysteresis_s_per_m: geo(a.felt_hysteresis_s_per_m, b.felt_hysteresis_s_per_m),
            },
        }
    }
}

impl KeyParams {
    /// The note's strings with a damper of 60 dB decay time `damper_t60_s` (s) that
    /// lands with time constant `damper_travel_s` (s).
    pub fn unison(&self, damper_t60_s: f64, damper_travel_s: f64) -> UnisonParams {
        UnisonParams {
            string: self.string,
            inharmonicity: self.inharmonicity,
            strings: self.strings,
            detune_cents: self.detune_cents,
            bridge_impedance_kg_s: self.bridge_impedance_kg_s,
            damper_t60_s,
            damper_travel_s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_reproduced_and_interpolated_between() {
        let p = Preset::default_grand();
        let c4 = p.key_params(60);
        assert_eq!(c4.string.length_m, 0.62);
        assert_eq!(c4.felt.exponent, 2.5);
        assert!((p.fundamental_hz(69) - 440.0).abs() < 1e-12);
        // Halfway between C4 and C7 in keys, the length is the geometric mean.
        let g = p.key_params(78);
        assert!((g.string.length_m - (0.62f64 * 0.09).sqrt()).abs() < 1e-12);
        // Every key has a physically sensible tension: 300 N to 2 kN.
        for key in 21..=108 {
            let t = p.key_params(key).string.tension();
            assert!((300.0..2000.0).contains(&t), "key {key}: {t} N");
        }
    }
}
