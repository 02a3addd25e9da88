//! Synthesisers of presets: the family that plays a preset, found in the
//! registry, given to the synthesiser (which knows families only through
//! [`Family`](crate::rt::Family)) and to its loader.

use super::registry::family_of;
use crate::instrument::Preset;
use crate::rt::{InstrumentLoader, RealtimeOptions, Synth, SynthError};

impl Synth {
    /// `preset` at `sample_rate` (Hz) in lock-step mode, with no latency,
    /// played by its family (see [`Synth::lock_step_with`]).
    ///
    /// Allocates: every voice, the worker and the queues.
    pub fn new(preset: &Preset, sample_rate: f64) -> Result<Self, SynthError> {
        Self::lock_step(preset, sample_rate, 0)
    }

    /// `preset` at `sample_rate` (Hz) in lock-step mode with `latency`
    /// samples, played by its family (see [`Synth::lock_step_with`]).
    ///
    /// Allocates: every voice, the worker and the queues.
    pub fn lock_step(preset: &Preset, sample_rate: f64, latency: u64) -> Result<Self, SynthError> {
        Self::lock_step_with(family_of(preset)?, preset, sample_rate, latency)
    }

    /// `preset` at `sample_rate` (Hz) in realtime mode, played by its family
    /// (see [`Synth::realtime_with`]).
    ///
    /// Allocates: every voice, the worker, the queues and the thread.
    pub fn realtime(
        preset: &Preset,
        sample_rate: f64,
        options: RealtimeOptions,
    ) -> Result<Self, SynthError> {
        Self::realtime_with(family_of(preset)?, preset, sample_rate, options)
    }
}

impl InstrumentLoader {
    /// Builds `preset` with its family and queues it to replace the
    /// instrument at the next block (see [`InstrumentLoader::load_with`]).
    ///
    /// Allocates: the new instrument (call it off the audio thread).
    pub fn load(&mut self, preset: &Preset) -> Result<(), SynthError> {
        self.load_with(family_of(preset)?, preset)
    }

    /// Builds `preset`, an edit of the running instrument, with its family
    /// and queues it to take over with everything sounding carrying on (see
    /// [`InstrumentLoader::load_live_with`]).
    ///
    /// Allocates: the new instrument (call it off the audio thread).
    pub fn load_live(&mut self, preset: &Preset) -> Result<(), SynthError> {
        self.load_live_with(family_of(preset)?, preset)
    }
}
