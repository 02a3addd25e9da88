//! The action's settings by name ([`Setting`]) and its motion by path (the
//! pedals under `pedals:`). The settings are declared once, by the preset
//! that sets them (its units, ranges and descriptions); the grand piano's
//! mechanics edit them live through the preset's paths.

use crate::props::{PropertyAccess, PropertyError};

use super::{Action, ActionSettings};

/// One of the action's numeric settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// Hammer travel from rest to the string, m.
    BlowDistance,
    /// Distance from the string where the jack lets go, m.
    LetOff,
    /// How far below the string the check catches the hammer, m.
    CheckDrop,
    /// Hammer speed at MIDI velocity 1, m/s.
    SoftestSpeed,
    /// Hammer speed at MIDI velocity 127, m/s.
    HardestSpeed,
    /// The velocity curve's exponent.
    Curve,
    /// Rebound speed over strike speed when the strings report none.
    Restitution,
    /// Time for a released key to rise, s.
    KeyReturn,
    /// Fraction of the dip a key must rise to repeat.
    RepetitionRise,
    /// Time a damper takes to travel fully, s.
    DamperTravel,
    /// 1: simulate the whole key stroke; 0: throw from let-off.
    RealisticTravel,
}

impl ActionSettings {
    /// The value of `setting`.
    pub fn get(&self, setting: Setting) -> f64 {
        match setting {
            Setting::BlowDistance => self.blow_distance,
            Setting::LetOff => self.let_off,
            Setting::CheckDrop => self.check_drop,
            Setting::SoftestSpeed => self.velocity.softest_speed_m_s,
            Setting::HardestSpeed => self.velocity.hardest_speed_m_s,
            Setting::Curve => self.velocity.curve,
            Setting::Restitution => self.restitution,
            Setting::KeyReturn => self.key_return_s,
            Setting::RepetitionRise => self.repetition_rise,
            Setting::DamperTravel => self.damper_travel_s,
            Setting::RealisticTravel => f64::from(u8::from(self.realistic_travel)),
        }
    }

    /// Sets `setting` to `value` (a switch is on from 0.5); the caller has
    /// checked it against the setting's declared range.
    pub fn set(&mut self, setting: Setting, value: f64) {
        match setting {
            Setting::BlowDistance => self.blow_distance = value,
            Setting::LetOff => self.let_off = value,
            Setting::CheckDrop => self.check_drop = value,
            Setting::SoftestSpeed => self.velocity.softest_speed_m_s = value,
            Setting::HardestSpeed => self.velocity.hardest_speed_m_s = value,
            Setting::Curve => self.velocity.curve = value,
            Setting::Restitution => self.restitution = value,
            Setting::KeyReturn => self.key_return_s = value,
            Setting::RepetitionRise => self.repetition_rise = value,
            Setting::DamperTravel => self.damper_travel_s = value,
            Setting::RealisticTravel => self.realistic_travel = value >= 0.5,
        }
    }
}

impl Action {
    /// Changes one setting from now on; the caller has checked `value`
    /// against the setting's declared range.
    pub fn set_setting(&mut self, setting: Setting, value: f64) {
        self.settings.set(setting, value);
    }
}

/// The action's motion by path: `pedals:sustain` and `pedals:una_corda`
/// (read-only: the player moves them).
impl PropertyAccess for Action {
    fn property(&self, path: &str) -> Option<f64> {
        match path {
            "pedals:sustain" => Some(self.pedals.sustain),
            "pedals:una_corda" => Some(self.pedals.una_corda),
            _ => None,
        }
    }

    fn set_property(&mut self, path: &str, _value: f64) -> Result<(), PropertyError> {
        Err(match self.property(path) {
            Some(_) => PropertyError::ReadOnly(path.to_string()),
            None => PropertyError::UnknownPath(path.to_string()),
        })
    }
}
