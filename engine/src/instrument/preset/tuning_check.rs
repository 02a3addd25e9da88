//! Checks of the tuning's temperament and scale: indices within their lists,
//! a keyboard mapping that fits its scale, every key within hearing.

use super::check::Checker;
use super::{Preset, PresetError};
use crate::instrument::Temperament;

/// The lowest and highest first-partial frequencies a scale may give a key
/// of the keyboard, Hz.
const SCALE_RANGE_HZ: (f64, f64) = (10.0, 20_000.0);

impl Preset {
    /// Checks `tuning:temperament`, `tuning:temperament_key` and the scale
    /// with its keyboard mapping, with `tuning`, the tuning's checker.
    pub(super) fn check_temperament(&self, tuning: &Checker) -> Result<(), PresetError> {
        let last = (Temperament::ALL.len() - 1) as f64;
        let t = &self.tuning;
        tuning.range(
            "temperament",
            f64::from(t.temperament),
            0.0,
            last,
            "0 (equal) to 5 (Pythagorean)",
        )?;
        tuning.range(
            "temperament_key",
            f64::from(t.temperament_key),
            0.0,
            11.0,
            "0 (C) to 11 (B)",
        )?;
        let Some(scale) = &t.scale else {
            return match t.keymap {
                Some(_) => Err(PresetError::Tuning(
                    "a keyboard mapping needs a scale".into(),
                )),
                None => Ok(()),
            };
        };
        if let Some(keymap) = &t.keymap {
            keymap.check(scale, "keymap").map_err(PresetError::Tuning)?;
        }
        for key in self.keyboard.lowest_key..=self.keyboard.highest_key {
            if !t.plays(key) {
                continue;
            }
            let hz = self.fundamental_hz(key);
            if !(hz.is_finite() && (SCALE_RANGE_HZ.0..=SCALE_RANGE_HZ.1).contains(&hz)) {
                return Err(PresetError::Tuning(format!(
                    "the scale puts key {key} at {hz:.1} Hz, outside 10 Hz to 20 kHz"
                )));
            }
        }
        Ok(())
    }
}
