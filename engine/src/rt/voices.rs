//! The seam between an instrument family's audio-rate side and the
//! synthesiser: every key's voice and the body they drive, playing the
//! operations the mechanical worker sends.

use std::any::Any;

use super::ops::Operation;
use crate::instrument::{ContactTrace, Rebound, StrikeReport};

/// Frames a family renders per call at most; sets the size of the mixing buses.
pub const CHUNK: usize = 256;

/// An instrument family's audio-rate side: every key's voice and the body
/// they drive.
///
/// Built off the audio thread; after that [`Voices::apply`],
/// [`Voices::render`], [`Voices::reset`] and [`Voices::continue_from`] run on
/// the audio thread and never allocate, lock or panic.
pub trait Voices: Send {
    /// Carries out one operation of the mechanical worker now.
    fn apply(&mut self, operation: Operation);

    /// Renders `left.len()` frames (at most [`CHUNK`]) into `left` and
    /// `right`, overwriting them. `on_rebound(key, frame, how)` hears of every
    /// striker that lets go after a strike: at which frame of this call, and
    /// how.
    fn render(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        on_rebound: &mut dyn FnMut(u8, usize, Rebound),
    );

    /// Everything at rest.
    fn reset(&mut self);

    /// Carries on everything sounding in `old`, the same family's voices of
    /// the same shape with other values, from the next sample with these
    /// values. Returns false, changing nothing, if the shapes differ (or
    /// `old` is another family's).
    fn continue_from(&mut self, old: &dyn Voices) -> bool;

    /// The voices as their own type, for [`Voices::continue_from`] and
    /// inspection.
    fn as_any(&self) -> &dyn Any;

    /// Whether any voice is sounding or the body ringing.
    fn is_active(&self) -> bool;

    /// The frequency of `key`'s lowest partial, Hz, for keys that sound a
    /// pitch (`None` for keys the family does not play or pitches it does not
    /// name). A synthesiser whose host rate cannot carry that pitch leaves
    /// the key silent.
    fn pitch_hz(&self, _key: u8) -> Option<f64> {
        None
    }

    /// How many keys are sounding or have a striker in flight.
    fn sounding_keys(&self) -> u32;

    /// How many times a voice went non-finite and was silenced.
    fn non_finite_resets(&self) -> u64;

    /// Contacts taken from a key still holding one, so far (families that
    /// share strikers among keys).
    fn stolen_contacts(&self) -> u64 {
        0
    }

    /// Energy of the waves on each sounding key's resonator, J, into
    /// `out(key, joules)` (keys at rest may be left out).
    fn resonator_energies(&self, _out: &mut dyn FnMut(u8, f64)) {}

    /// Energy of the waves on `key`'s resonator now, J (0 at rest).
    fn resonator_energy_j(&self, _key: u8) -> f64 {
        0.0
    }

    /// What the last strike of `key` did, if its family reports strikes.
    fn strike_report(&self, _key: u8) -> Option<&StrikeReport> {
        None
    }

    /// The contact force and felt compression of `key`'s last strike.
    fn contact_trace(&self, _key: u8) -> Option<&ContactTrace> {
        None
    }
}
