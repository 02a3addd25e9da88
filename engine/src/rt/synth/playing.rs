//! Playing the synthesiser: the player's commands (keys, pedals, property
//! edits) sent to the worker, and what the instrument can tell about itself.

use super::Synth;
use super::link::Link;
use crate::instrument::{ContactTrace, StrikeReport};
use crate::rt::ops::{Operation, ToWorker};
use crate::rt::{DEFAULT_RELEASE_VELOCITY, PASSBAND_EDGE, SynthEvent, Voices};

impl Synth {
    /// Strikes `key` with normalised `velocity` (MIDI velocity / 127, 0 to 1).
    /// Velocity 0 (or NaN) is a note-off, as in MIDI.
    pub fn note_on(&mut self, key: u8, velocity: f32) {
        self.apply(SynthEvent::NoteOn { key, velocity });
    }

    /// Releases `key`: its damper falls (unless a pedal holds it up).
    pub fn note_off(&mut self, key: u8) {
        self.apply(SynthEvent::NoteOff {
            key,
            velocity: DEFAULT_RELEASE_VELOCITY,
        });
    }

    /// Sustain pedal depth, 0 (up) to 1 (down); in between the dampers of
    /// released keys touch their strings partly (half-pedalling).
    pub fn set_sustain(&mut self, depth: f32) {
        self.apply(SynthEvent::Sustain(depth));
    }

    /// Sostenuto pedal: pressed, it holds up the dampers of the keys down at
    /// that moment until it is released.
    pub fn set_sostenuto(&mut self, down: bool) {
        self.apply(SynthEvent::Sostenuto(down));
    }

    /// Una corda pedal depth, 0 to 1: from half way down the hammers shift to
    /// strike one string fewer of each pair or triple.
    pub fn set_una_corda(&mut self, depth: f32) {
        self.apply(SynthEvent::UnaCorda(depth));
    }

    /// Releases every key and pedal (MIDI "all notes off"): the dampers fall.
    pub fn all_notes_off(&mut self) {
        self.apply(SynthEvent::AllNotesOff);
    }

    /// The performance is over: mechanisms that run by themselves stop (a
    /// clock is held), and what sounds rings out.
    pub fn wind_down(&mut self) {
        self.send(ToWorker::WindDown);
    }

    /// Sets a mechanical property by path (e.g. `action:curve`, see
    /// [`crate::families::grand_piano::action::Action`]); the worker refuses non-finite and
    /// out-of-range values and unknown paths (and counts them).
    pub fn set_property(&mut self, path: &'static str, value: f64) {
        self.send(ToWorker::SetProperty { path, value });
    }

    /// Property edits the worker has refused so far (lock-step mode only; in
    /// realtime mode the worker's count stays on its thread).
    pub fn rejected_edits(&self) -> Option<u64> {
        match &self.link {
            Link::LockStep { host, .. } => Some(host.worker.rejected_edits()),
            Link::Realtime { .. } => None,
        }
    }

    /// The value in effect of a mechanical property, from the worker's property
    /// tree (lock-step mode only: in realtime mode the tree lives on the
    /// worker's thread).
    pub fn property(&self, path: &str) -> Option<f64> {
        match &self.link {
            Link::LockStep { host, .. } => host.worker.properties().get(path).ok(),
            Link::Realtime { .. } => None,
        }
    }

    /// Sets how hard `key`'s damper presses, 0 (lifted) to 1 (down), directly,
    /// bypassing the action until it next moves that damper.
    pub fn set_damper_amount(&mut self, key: u8, amount: f64) {
        self.apply_operation(Operation::Damper { key, amount });
    }

    /// What the last strike of `key` did, if the key has strings.
    pub fn strike_report(&self, key: u8) -> Option<&StrikeReport> {
        self.voices.strike_report(key)
    }

    /// The contact force and felt compression of `key`'s last strike, sample by
    /// sample from its first touch (`None` for keys without strings).
    pub fn contact_trace(&self, key: u8) -> Option<&ContactTrace> {
        self.voices.contact_trace(key)
    }

    /// Energy of the waves on `key`'s resonator (a piano key's strings) now,
    /// J (0 while it is at rest, and for families that do not measure it).
    pub fn resonator_energy_j(&self, key: u8) -> f64 {
        self.voices.resonator_energy_j(key)
    }

    /// The family's voices, to ask what only its family knows (downcast
    /// with [`Voices::as_any`]).
    pub fn voices(&self) -> &dyn Voices {
        self.voices.as_ref()
    }

    /// Whether any voice is sounding, the soundboard ringing or the room
    /// reverberating.
    pub fn is_active(&self) -> bool {
        self.voices.is_active() || self.room.is_ringing()
    }

    /// Applies one event now (the worker reads a note-on of velocity 0 or NaN
    /// as a note-off, as MIDI does).
    ///
    /// A key whose pitch lies above the host rate's pass band
    /// ([`crate::rt::PASSBAND_EDGE`] of the rate) is not struck: the rate
    /// cannot carry its sound; nor is a key the tuning's scale leaves
    /// unmapped ([`crate::instrument::StretchedTuning::plays`]).
    pub fn apply(&mut self, event: SynthEvent) {
        match event {
            SynthEvent::AllSoundOff => self.reset(),
            SynthEvent::NoteOn { key, .. }
                if !self.can_carry(key) || !self.preset.tuning.plays(key) => {}
            other => self.send(ToWorker::Perform(other)),
        }
    }

    /// Whether the host's rate carries `key`'s pitch.
    fn can_carry(&self, key: u8) -> bool {
        self.voices
            .pitch_hz(key)
            .is_none_or(|hz| hz <= PASSBAND_EDGE * self.sample_rate)
    }

    /// Silences everything at once: voices at rest, and the action and pedals
    /// at rest from the next control step. Operations already on their way are
    /// dropped.
    pub fn reset(&mut self) {
        if let Some(old) = self.handover.cancel() {
            self.retire(old);
        }
        self.voices.reset();
        self.room.reset();
        if let Some(decimator) = self.decimator.as_mut() {
            decimator.reset();
        }
        self.epoch = self.epoch.wrapping_add(1);
        self.send(ToWorker::Reset);
        while self.from_worker.pop().is_ok() {}
    }
}
