//! The handover after a live install: for a few milliseconds the replaced
//! voices play on beside the new ones, which have taken over their state, and
//! the output crossfades from the old to the new. The state transfer alone is
//! continuous in the waves but not in what the new values do to them at once
//! (a string's impedance scales its bridge force with its tuning, a body gain
//! scales the body's ringing, new allpass coefficients meet old filter memory);
//! the crossfade spreads those steps over the handover.

use super::Prepared;
use crate::rt::Operation;
use crate::rt::voices::CHUNK;

/// Length of the crossfade, s.
pub(super) const HANDOVER_S: f64 = 0.005;

/// The replaced instrument while the output crossfades from it, and the
/// memory its voices render into.
///
/// Allocates: its two chunk buffers, in [`Handover::new`]; nothing after.
pub(super) struct Handover {
    /// The replaced instrument, playing on until the crossfade ends.
    old: Option<Box<Prepared>>,
    /// Frames of the crossfade rendered so far.
    done: usize,
    /// Frames the crossfade lasts.
    length: usize,
    /// The old voices' left and right output for one chunk.
    scratch: Box<[[f32; CHUNK]; 2]>,
}

impl Handover {
    /// No handover in progress; crossfades last [`HANDOVER_S`] at
    /// `sample_rate` (Hz).
    pub fn new(sample_rate: f64) -> Self {
        Self {
            old: None,
            done: 0,
            length: (HANDOVER_S * sample_rate).round().max(1.0) as usize,
            scratch: Box::new([[0.0; CHUNK]; 2]),
        }
    }

    /// Whether the output is crossfading from a replaced instrument.
    pub fn is_active(&self) -> bool {
        self.old.is_some()
    }

    /// Starts crossfading from `old`, whose voices the new ones have just
    /// taken over. Returns the instrument of a handover still in progress
    /// (there is none when installs wait for the last handover to end).
    pub fn begin(&mut self, old: Box<Prepared>) -> Option<Box<Prepared>> {
        self.done = 0;
        self.old.replace(old)
    }

    /// Carries out an operation of the worker on the old voices too, so they
    /// play what the new ones play until the handover ends.
    pub fn apply(&mut self, operation: Operation) {
        if let Some(old) = self.old.as_mut() {
            old.voices.apply(operation);
        }
    }

    /// Crossfades `left` and `right` (the new voices' output for the next
    /// frames, at most [`CHUNK`]) from the old voices' output for the same
    /// frames, along a raised cosine; frames after the crossfade's end stay
    /// the new voices'. Returns the old instrument once the crossfade has
    /// ended, for the loader to free.
    pub fn crossfade(&mut self, left: &mut [f32], right: &mut [f32]) -> Option<Box<Prepared>> {
        let old = self.old.as_mut()?;
        let frames = (left.len().min(right.len()))
            .min(CHUNK)
            .min(self.length - self.done);
        let [old_left, old_right] = &mut *self.scratch;
        // Rebounds are the new voices' to report.
        old.voices.render(
            &mut old_left[..frames],
            &mut old_right[..frames],
            &mut |_, _, _| {},
        );
        let fade = self.length as f64;
        for i in 0..frames {
            let k = (self.done + i) as f64;
            let new_weight = 0.5 - 0.5 * (std::f64::consts::PI * k / fade).cos();
            let mix = |new: f32, old: f32| {
                (new_weight * f64::from(new) + (1.0 - new_weight) * f64::from(old)) as f32
            };
            left[i] = mix(left[i], old_left[i]);
            right[i] = mix(right[i], old_right[i]);
        }
        self.done += frames;
        if self.done >= self.length {
            self.old.take()
        } else {
            None
        }
    }

    /// Ends the handover at once (everything is being silenced); returns the
    /// old instrument, for the loader to free.
    pub fn cancel(&mut self) -> Option<Box<Prepared>> {
        self.old.take()
    }
}
