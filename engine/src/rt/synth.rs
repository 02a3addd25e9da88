//! The polyphonic struck-string synthesiser.

use std::f64::consts::FRAC_PI_4;
use std::fmt;

use super::{SynthEvent, TimedEvent};
use crate::instrument::{ContactTrace, Preset, StrikeReport, StruckString, VoiceError};
use crate::resonators::{Soundboard, SoundboardParams};

/// Frames rendered per pass over the keys; sets the size of the mixing buses.
const CHUNK: usize = 256;

/// Output level below which a string counts as silent: −120 dBFS.
const SILENCE_LEVEL: f64 = 1e-6;

/// Why a synthesiser could not be prepared.
#[derive(Debug, Clone, PartialEq)]
pub enum SynthError {
    /// The sample rate is not a finite number between 8 kHz and 768 kHz.
    SampleRate(f64),
    /// A key's string cannot be built at this sample rate.
    Key {
        /// MIDI key.
        key: u8,
        /// Why.
        reason: VoiceError,
    },
}

impl fmt::Display for SynthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SampleRate(rate) => {
                write!(f, "sample rate {rate} Hz is outside 8000 to 768000 Hz")
            }
            Self::Key { key, reason } => write!(f, "key {key}: {reason}"),
        }
    }
}

impl std::error::Error for SynthError {}

/// One to three strings and a hammer per key, mixed to stereo through the
/// soundboard.
///
/// Lifecycle: [`Synth::new`] allocates every string for the sample rate; after that
/// [`Synth::note_on`], [`Synth::note_off`], [`Synth::process`] and [`Synth::reset`]
/// never allocate, lock or panic, and may run on the audio thread.
#[derive(Debug, Clone)]
pub struct Synth {
    preset: Preset,
    sample_rate: f64,
    lowest_key: u8,
    keys: Vec<StruckString>,
    /// Left and right gains per key (equal-power pan times output gain).
    key_gains: Vec<[f64; 2]>,
    soundboard: Soundboard,
    /// Mixing buses for one chunk: bass-side and treble-side bridge signal.
    bus: Box<[[f64; 2]; CHUNK]>,
}

impl Synth {
    /// Builds every key of `preset` at `sample_rate` (Hz).
    ///
    /// Allocates: all strings and per-key tables.
    pub fn new(preset: &Preset, sample_rate: f64) -> Result<Self, SynthError> {
        if !(sample_rate.is_finite() && (8_000.0..=768_000.0).contains(&sample_rate)) {
            return Err(SynthError::SampleRate(sample_rate));
        }
        let (lowest, highest) = (preset.keyboard.lowest_key, preset.keyboard.highest_key);
        let gain = preset.output.gain_per_newton;
        let threshold = SILENCE_LEVEL / gain;
        let mut keys = Vec::with_capacity(usize::from(highest - lowest) + 1);
        let mut key_gains = Vec::with_capacity(keys.capacity());
        for key in lowest..=highest {
            let voice = StruckString::new(
                preset.key_params(key),
                sample_rate,
                preset.hammer.start_gap_m,
                preset.damper.t60_s,
                preset.damper.travel_s,
                threshold,
            )
            .map_err(|reason| SynthError::Key { key, reason })?;
            keys.push(voice);
            // Bass to the left, treble to the right, as the player hears it.
            let span = f64::from(highest - lowest).max(1.0);
            let position = (f64::from(key - lowest) / span) * 2.0 - 1.0;
            let angle = FRAC_PI_4 * (1.0 + preset.output.stereo_width * position);
            key_gains.push([gain * angle.cos(), gain * angle.sin()]);
        }
        let board = &preset.soundboard;
        let soundboard = Soundboard::new(
            &SoundboardParams {
                modes: board.modes as usize,
                lowest_mode_hz: board.lowest_mode_hz,
                highest_mode_hz: board.highest_mode_hz,
                lowest_mode_t60_s: board.lowest_mode_t60_s,
                body_gain: board.body_gain,
            },
            sample_rate,
        );
        Ok(Self {
            preset: preset.clone(),
            sample_rate,
            lowest_key: lowest,
            keys,
            key_gains,
            soundboard,
            bus: Box::new([[0.0; 2]; CHUNK]),
        })
    }

    /// The sample rate this synthesiser was built for, Hz.
    pub fn sample_rate(&self) -> f64 {
        self.sample_rate
    }

    /// The preset it plays.
    pub fn preset(&self) -> &Preset {
        &self.preset
    }

    fn index(&self, key: u8) -> Option<usize> {
        let index = usize::from(key.checked_sub(self.lowest_key)?);
        (index < self.keys.len()).then_some(index)
    }

    /// Strikes `key` with normalised `velocity` (MIDI velocity / 127, 0 to 1).
    /// Keys the instrument lacks are ignored; velocity 0 is a note-off, as in MIDI.
    pub fn note_on(&mut self, key: u8, velocity: f32) {
        // NaN and non-positive velocities release the key, as velocity 0 does in MIDI.
        if velocity.is_nan() || velocity <= 0.0 {
            self.note_off(key);
            return;
        }
        let speed = self.preset.hammer_speed(velocity);
        if let Some(i) = self.index(key) {
            self.keys[i].strike(speed);
        }
    }

    /// Releases `key`: its damper falls onto the string.
    pub fn note_off(&mut self, key: u8) {
        if let Some(i) = self.index(key) {
            self.keys[i].set_damper(true);
        }
    }

    /// Sets how hard `key`'s damper presses, 0 (lifted) to 1 (down), for
    /// half-pedalling; clamped to [0, 1].
    pub fn set_damper_amount(&mut self, key: u8, amount: f64) {
        if let Some(i) = self.index(key) {
            self.keys[i].set_damper_amount(amount);
        }
    }

    /// Lowers every damper (MIDI "all notes off").
    pub fn all_notes_off(&mut self) {
        for key in &mut self.keys {
            key.set_damper(true);
        }
    }

    /// What the last strike of `key` did, if the instrument has that key.
    pub fn strike_report(&self, key: u8) -> Option<&StrikeReport> {
        self.index(key).map(|i| self.keys[i].report())
    }

    /// The contact force and felt compression of `key`'s last strike, sample by
    /// sample from its first touch (`None` for keys the instrument lacks).
    pub fn contact_trace(&self, key: u8) -> Option<&ContactTrace> {
        self.index(key).map(|i| self.keys[i].contact_trace())
    }

    /// Whether any string is sounding, any hammer in flight, or the soundboard ringing.
    pub fn is_active(&self) -> bool {
        self.keys.iter().any(StruckString::is_active) || !self.soundboard.is_asleep()
    }

    /// Renders `left.len()` samples (the shorter of the two slices) into `left` and
    /// `right`, overwriting them.
    pub fn process(&mut self, left: &mut [f32], right: &mut [f32]) {
        let frames = left.len().min(right.len());
        for (left, right) in left[..frames]
            .chunks_mut(CHUNK)
            .zip(right[..frames].chunks_mut(CHUNK))
        {
            let bus = &mut self.bus[..left.len()];
            bus.fill([0.0; 2]);
            for (voice, &[gain_l, gain_r]) in self.keys.iter_mut().zip(&self.key_gains) {
                if !voice.is_active() {
                    continue;
                }
                for sample in bus.iter_mut() {
                    let force = voice.tick();
                    sample[0] += gain_l * force;
                    sample[1] += gain_r * force;
                }
            }
            for ((l, r), &[bl, br]) in left.iter_mut().zip(right.iter_mut()).zip(bus.iter()) {
                let [ol, or] = self.soundboard.process(bl, br);
                *l = ol as f32;
                *r = or as f32;
            }
        }
    }

    /// Applies one event now.
    pub fn apply(&mut self, event: SynthEvent) {
        match event {
            SynthEvent::NoteOn { key, velocity } => self.note_on(key, velocity),
            SynthEvent::NoteOff { key } => self.note_off(key),
            SynthEvent::AllNotesOff => self.all_notes_off(),
            SynthEvent::AllSoundOff => self.reset(),
        }
    }

    /// Renders a block with sample-accurate events: the audio up to each event's
    /// offset is rendered before the event applies. Events must come in
    /// non-decreasing offset order; offsets past the block apply at its end.
    pub fn process_events(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        events: impl IntoIterator<Item = TimedEvent>,
    ) {
        let frames = left.len().min(right.len());
        let mut done = 0;
        for TimedEvent { offset, event } in events {
            let at = offset.clamp(done, frames);
            if at > done {
                self.process(&mut left[done..at], &mut right[done..at]);
                done = at;
            }
            self.apply(event);
        }
        self.process(&mut left[done..frames], &mut right[done..frames]);
    }

    /// Silences everything at once: strings at rest, hammers home, dampers up.
    pub fn reset(&mut self) {
        for key in &mut self.keys {
            key.reset();
        }
        self.soundboard.reset();
    }
}
