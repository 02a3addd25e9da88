//! Checks of the tuning's scale: a keyboard mapping that fits its scale,
//! every key within hearing.

use super::error::PresetError;
use super::keyboard::Keyboard;
use crate::instrument::StretchedTuning;

/// The lowest and highest first-partial frequencies a scale may give a key
/// of the keyboard, Hz.
const SCALE_RANGE_HZ: (f64, f64) = (10.0, 20_000.0);

/// Checks the scale with its keyboard mapping of `t`: every key of
/// `keyboard` that plays within hearing, its first partial at
/// `fundamental_hz(key)` (Hz). (The temperament's indices are declared
/// with their ranges.)
pub(super) fn check_scale(
    t: &StretchedTuning,
    keyboard: Keyboard,
    fundamental_hz: impl Fn(u8) -> f64,
) -> Result<(), PresetError> {
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
    for key in keyboard.lowest_key..=keyboard.highest_key {
        if !t.plays(key) {
            continue;
        }
        let hz = fundamental_hz(key);
        if !(hz.is_finite() && (SCALE_RANGE_HZ.0..=SCALE_RANGE_HZ.1).contains(&hz)) {
            return Err(PresetError::Tuning(format!(
                "the scale puts key {key} at {hz:.1} Hz, outside 10 Hz to 20 kHz"
            )));
        }
    }
    Ok(())
}
