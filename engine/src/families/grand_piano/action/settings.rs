//! The action's settings: regulation (blow distance, let-off, check), the
//! velocity curve, restitution, key return, repetition and damper travel.

use crate::families::grand_piano::objects::ActionSpec;
use crate::instrument::VelocityCurve;

use super::ActionEvent;

/// The action's settings (all properties, under `action:`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ActionSettings {
    /// Hammer blow distance, m (44–49 mm on grands).
    pub blow_distance: f64,
    /// Let-off: distance from the string where the jack releases, m (1–3 mm).
    pub let_off: f64,
    /// How far below the string the check catches a falling hammer, m.
    pub check_drop: f64,
    /// From key velocity to hammer speed at the string.
    pub velocity: VelocityCurve,
    /// Fraction of the strike speed the hammer rebounds with.
    pub restitution: f64,
    /// Time for a released key to rise fully, s.
    pub key_return_s: f64,
    /// Fraction of the key's dip it must rise before the repetition resets.
    pub repetition_rise: f64,
    /// Time a damper takes to travel fully, s.
    pub damper_travel_s: f64,
    /// Simulate the jack's whole stroke (1) or throw from let-off (0).
    pub realistic_travel: bool,
    /// How far a key's front goes down from rest to the keybed, m.
    pub key_dip: f64,
}

impl ActionSettings {
    /// The settings a preset's action `spec` describes, with the player's
    /// `velocity` curve, the hammers' let-off distance `let_off_m` (m) and
    /// dampers that travel in `damper_travel_s` (s).
    pub fn of(
        spec: &ActionSpec,
        velocity: VelocityCurve,
        let_off_m: f64,
        damper_travel_s: f64,
    ) -> Self {
        Self {
            blow_distance: spec.blow_distance_m,
            let_off: let_off_m,
            check_drop: spec.check_drop_m,
            velocity,
            restitution: spec.restitution,
            key_return_s: spec.key_return_s,
            repetition_rise: spec.repetition_rise,
            damper_travel_s,
            realistic_travel: spec.realistic_travel,
            key_dip: spec.key_dip_m,
        }
    }
}

impl Default for ActionSettings {
    fn default() -> Self {
        Self {
            blow_distance: 0.047,
            let_off: 0.002,
            check_drop: 0.015,
            velocity: VelocityCurve::default(),
            restitution: 0.5,
            key_return_s: 0.04,
            repetition_rise: 0.3,
            damper_travel_s: 0.006,
            realistic_travel: false,
            key_dip: 0.010,
        }
    }
}

impl ActionSettings {
    /// The speed of a key's front (m/s) when its hammer moves at
    /// `hammer_speed_m_s`: the hammer's speed over the action's ratio, the
    /// blow distance over the key's dip.
    pub fn key_speed(&self, hammer_speed_m_s: f64) -> f64 {
        hammer_speed_m_s * self.key_dip / self.blow_distance
    }

    /// The let-off of `note`'s hammer, flying at `hammer_speed_m_s` as the
    /// jack lets go and meeting the string at `speed_m_s` (m/s); its key's
    /// front goes on down at [`ActionSettings::key_speed`].
    pub fn let_off(&self, note: u8, speed_m_s: f64, hammer_speed_m_s: f64) -> ActionEvent {
        ActionEvent::LetOff {
            note,
            speed: speed_m_s,
            key_speed: self.key_speed(hammer_speed_m_s),
        }
    }

    /// Hammer speed at the string for MIDI velocity `velocity`, m/s.
    pub fn strike_speed(&self, velocity: u8) -> f64 {
        self.velocity
            .speed(f64::from(velocity.clamp(1, 127)) / 127.0)
    }
}
