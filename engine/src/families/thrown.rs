//! The simplest mechanics: no action at all. A note-on throws the key's
//! striker (a mallet, or a hammer with no action behind it) at once, at the
//! speed the velocity curve gives; there is nothing to catch, repeat or damp.

use crate::instrument::VelocityCurve;
use crate::mech::{Model, ModelState, StepAdjustment};
use crate::props::{PropertyAccess, PropertyError};
use crate::rt::{Mechanics, Operation, SynthEvent};

/// Strikers thrown straight from the player's velocity.
#[derive(Debug, Clone, Copy)]
pub struct ThrownStrikers {
    /// Velocity to striker speed.
    velocity: VelocityCurve,
}

impl ThrownStrikers {
    /// Strikers thrown at the speeds `velocity` gives.
    pub fn new(velocity: VelocityCurve) -> Self {
        Self { velocity }
    }
}

impl Model for ThrownStrikers {
    fn initialize(&mut self, _t: f64) {}

    fn advance(&mut self, _t0: f64, _t1: f64) -> Option<StepAdjustment> {
        None
    }

    fn save_state(&self) -> ModelState {
        ModelState::default()
    }

    fn may_reject_steps(&self) -> bool {
        false
    }

    fn restore_state(&mut self, _state: &ModelState) {}
}

impl PropertyAccess for ThrownStrikers {
    fn property(&self, _path: &str) -> Option<f64> {
        None
    }

    fn set_property(&mut self, path: &str, _value: f64) -> Result<(), PropertyError> {
        Err(PropertyError::UnknownPath(path.to_string()))
    }
}

impl Mechanics for ThrownStrikers {
    fn perform(&mut self, _t_s: f64, event: SynthEvent, now: &mut dyn FnMut(Operation)) {
        if let SynthEvent::NoteOn { key, velocity } = event
            && velocity > 0.0
        {
            now(Operation::Strike {
                key,
                speed_m_s: self.velocity.speed(f64::from(velocity)),
                shifted: false,
            });
        }
    }

    fn drain_operations(&mut self, _out: &mut dyn FnMut(Operation)) {}

    fn reset(&mut self) {}

    fn continue_motion_from(&mut self, _previous: &dyn Mechanics) {}
}
