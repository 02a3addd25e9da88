//! Physical values of one key, interpolated from a preset's anchors.

use crate::instrument::Preset;
use crate::resonators::{
    LongitudinalParams, MAX_UNISON_STRINGS, SecondPlane, StringDeviation, StringParams,
    UnisonParams,
};
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
    /// How each string departs from the nominal one.
    pub deviations: [StringDeviation; MAX_UNISON_STRINGS],
    /// The strings' motion along the board, if the bridge couples it.
    pub second_plane: Option<SecondPlane>,
    /// The strings' longitudinal vibration, if it pulls on the board.
    pub longitudinal: Option<LongitudinalParams>,
    /// Resistive bridge impedance under the strings, kg/s.
    pub bridge_impedance_kg_s: f64,
    /// Hammer mass, kg.
    pub hammer_mass_kg: f64,
    /// The hammer's felt.
    pub felt: FeltLaw,
    /// The strings' loops are designed for their tuning times this ratio
    /// (see [`UnisonParams::bridge_tuning`]); 1 unless a board moves the
    /// bridge.
    pub bridge_tuning: f64,
}

impl Preset {
    /// The physical values of `key`'s strings and hammer: each field as the
    /// anchor at `key` gives it, or interpolated between the nearest anchors
    /// that give it; `None` unless the instrument's hammers strike
    /// strings.
    pub fn key_params(&self, key: u8) -> Option<KeyParams> {
        let topology = self.topology().ok()?;
        let strings = topology.strings()?;
        let (deviations, second_plane) = strings.unison_deviations(key);
        Some(KeyParams {
            key,
            string: StringParams {
                length_m: strings.at(key, |a| a.length_m)?,
                mass_kg: strings.at(key, |a| a.string_mass_kg)?,
                fundamental_hz: self.fundamental_hz(key),
                strike_position: topology.strike.position(key)?,
                loss_b1: strings.at(key, |a| a.loss_b1)?,
                loss_b2: strings.at(key, |a| a.loss_b2)?,
            },
            inharmonicity: strings.at(key, |a| a.inharmonicity)?,
            strings: strings.strings_per_key(key),
            detune_cents: strings.detune_cents,
            deviations,
            second_plane,
            longitudinal: strings.longitudinal(),
            bridge_impedance_kg_s: strings.at(key, |a| a.bridge_impedance_kg_s)?,
            hammer_mass_kg: topology.hammers.at(key, |a| a.mass_kg)?,
            felt: topology.hammers.felt(key)?,
            bridge_tuning: 1.0,
        })
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
            deviations: self.deviations,
            second_plane: self.second_plane,
            longitudinal: self.longitudinal,
            bridge_impedance_kg_s: self.bridge_impedance_kg_s,
            damper_t60_s,
            damper_travel_s,
            bridge_tuning: self.bridge_tuning,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_reproduced_and_interpolated_between() {
        let p = Preset::default_grand();
        let c4 = p.key_params(60).unwrap();
        assert_eq!(c4.string.length_m, 0.62);
        // At an anchor, to the last bit (see `value_at`).
        assert!(
            (c4.felt.exponent - 3.0).abs() < 1e-12,
            "{}",
            c4.felt.exponent
        );
        assert!((p.fundamental_hz(69) - 440.0).abs() < 1e-12);
        // Halfway between C4 and C7 in keys, the length is the geometric mean.
        let g = p.key_params(78).unwrap();
        assert!((g.string.length_m - (0.62f64 * 0.09).sqrt()).abs() < 1e-12);
        // The stretched tuning spans 35-60 cents from A0 to C8 beyond equal
        // temperament, as on real grands (`docs/reference-measurements.md`).
        let et = |key: u8| 440.0 * 2f64.powf((f64::from(key) - 69.0) / 12.0);
        let cents = |key: u8| 1200.0 * (p.fundamental_hz(key) / et(key)).log2();
        let total = cents(108) - cents(21);
        assert!((35.0..=60.0).contains(&total), "stretch {total} cents");
        // Every key has a physically sensible tension: 300 N to 2 kN.
        for key in 21..=108 {
            let t = p.key_params(key).unwrap().string.tension();
            assert!((300.0..2000.0).contains(&t), "key {key}: {t} N");
        }
    }
}
