//! The seam between an instrument family's slow mechanics and the worker that
//! runs them: a model in the worker's root model (advanced by the mechanical
//! scheduler) that takes the player's commands and tells the audio thread what
//! to do. A grand action is one; a thrown mallet another.

use super::SynthEvent;
use super::ops::Operation;
use super::view::MechanismSnapshot;
use crate::instrument::Rebound;
use crate::mech::scheduler::Simulated;
use crate::props::PropertyTree;

/// The pedals as a family's mechanics hold them, for the editor and probes
/// (all zero for an instrument without pedals).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Pedals {
    /// Sustain pedal depth, 0 to 1.
    pub sustain: f64,
    /// Sostenuto pedal down.
    pub sostenuto: bool,
    /// Una corda pedal depth, 0 to 1.
    pub una_corda: f64,
}

/// An instrument family's mechanics, as the worker drives them at control
/// rate. Every method runs on the worker (the audio thread in lock-step
/// mode): none may allocate, lock or panic.
///
/// Times are seconds since the synthesiser was prepared; keys are MIDI keys.
pub trait Mechanics: Simulated {
    /// A player's command at `t_s` (never [`SynthEvent::AllSoundOff`]: that
    /// is [`Mechanics::reset`]). Operations it causes at once (a mallet thrown
    /// on the note-on) go to `now`, stamped at the command's sample; the rest
    /// come out of [`Mechanics::drain_operations`] after a step.
    fn perform(&mut self, t_s: f64, event: SynthEvent, now: &mut dyn FnMut(Operation));

    /// A striker let go of what it struck at `t_s` (`rebound`: its speed
    /// away, the contact's largest force and impulse): the snapshot the
    /// mechanics use to catch and repeat, or to feel a pluck's reaction.
    fn rebound(&mut self, _t_s: f64, _key: u8, _rebound: &Rebound) {}

    /// Hands over what the last step of the root model did, in time order.
    fn drain_operations(&mut self, out: &mut dyn FnMut(Operation));

    /// Everything at rest, queues emptied (allocates nothing).
    fn reset(&mut self);

    /// The performance is over (an offline render has played its score):
    /// what runs by itself stops, as a clock whose balance is held, and
    /// what it has set going finishes and rings out. Nothing by default.
    fn wind_down(&mut self) {}

    /// Takes over where `previous` (another instrument's mechanics) stopped,
    /// as far as it makes sense for this family: pedals and held keys, with
    /// every striker at rest.
    fn continue_from(&mut self, _previous: &dyn Mechanics) {}

    /// Carries on everything `previous` (this family, the same instrument
    /// with other values) is doing, strikers in flight included; nothing
    /// if `previous` is another family's.
    fn continue_motion_from(&mut self, previous: &dyn Mechanics);

    /// Declares its properties (their paths, units, ranges and present
    /// values) in `tree`, for edits and editors.
    fn declare_properties(&self, _tree: &mut PropertyTree) {}

    /// How far `key`'s striker has travelled towards what it strikes, 0 (at
    /// rest) to 1; `None` for a key it does not have.
    fn striker_travel(&self, _key: u8) -> Option<f64> {
        None
    }

    /// `key`'s damper, 0 lifted to 1 down; `None` for a key without one.
    fn damper(&self, _key: u8) -> Option<f64> {
        None
    }

    /// Whether `key` is held down; `None` for a key it does not have.
    fn key_down(&self, _key: u8) -> Option<bool> {
        None
    }

    /// The pedals.
    fn pedals(&self) -> Pedals {
        Pedals::default()
    }

    /// Writes the mechanism it runs (a clock's movement: its description,
    /// its subsystems' positions, the time its dial shows, its trains) to
    /// `snapshot` for the editor; false, leaving `snapshot` alone, for
    /// mechanics that run no such mechanism (the default). Allocates
    /// nothing.
    fn publish_mechanism(&self, _snapshot: &mut MechanismSnapshot) -> bool {
        false
    }
}
