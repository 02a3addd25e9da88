//! The simplest mechanics: no action at all. A note-on throws the key's
//! striker (a mallet, or a hammer with no action behind it) at once, at the
//! speed the velocity curve gives; there is nothing to catch, repeat or damp.

use crate::instrument::VelocityCurve;
use crate::mech::{ForwardModel, NoProperties};
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

/// Nothing to run: every strike leaves at the note-on.
impl ForwardModel for ThrownStrikers {
    fn step(&mut self, _t0: f64, _t1: f64) {}
}

/// Nothing to read or set: the velocity curve is fixed when the strikers
/// are built.
impl NoProperties for ThrownStrikers {}

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
