//! The polyphonic synthesiser: every key's voice, the action that plays them,
//! and the soundboard they drive.

use std::f64::consts::FRAC_PI_4;
use std::fmt;

use super::{SynthEvent, TimedEvent};
use crate::instrument::{
    BarError, ContactTrace, KeyVoice, MalletBar, Preset, PresetError, Resonators, StrikeReport,
    StruckString, Topology, VoiceError,
};
use crate::mech::Model;
use crate::mech::action::{Action, ActionCommand, ActionEvent};
use crate::resonators::{Soundboard, SoundboardParams};

/// Frames rendered per pass over the keys; sets the size of the mixing buses.
const CHUNK: usize = 256;

/// Output level below which a voice counts as silent: −120 dBFS.
const SILENCE_LEVEL: f64 = 1e-6;

/// Control rate of the action, Hz: it advances on a fixed grid of samples, so
/// its events land on the same samples whatever the audio block size.
const CONTROL_RATE_HZ: f64 = 3_000.0;

/// Why a synthesiser could not be prepared.
#[derive(Debug, Clone, PartialEq)]
pub enum SynthError {
    /// The sample rate is not a finite number between 8 kHz and 768 kHz.
    SampleRate(f64),
    /// The preset's objects do not fit together.
    Preset(PresetError),
    /// A key's string cannot be built at this sample rate.
    Key {
        /// MIDI key.
        key: u8,
        /// Why.
        reason: VoiceError,
    },
    /// A key's bar cannot be built at this sample rate.
    Bar(BarError),
}

impl fmt::Display for SynthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SampleRate(rate) => {
                write!(f, "sample rate {rate} Hz is outside 8000 to 768000 Hz")
            }
            Self::Preset(e) => e.fmt(f),
            Self::Key { key, reason } => write!(f, "key {key}: {reason}"),
            Self::Bar(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SynthError {}

/// Every key's voice, mixed to stereo (through the soundboard, if the instrument
/// has one), and the action that plays them (if it has one; otherwise a note-on
/// throws the hammer or mallet itself).
///
/// The action runs at [`CONTROL_RATE_HZ`] on a fixed grid of samples counted
/// from construction or [`Synth::reset`]: before rendering a grid sample, the
/// action advances to it, and the let-offs and damper moves it produced since
/// the previous grid sample apply there. Commands carry the sample they arrive
/// at, so output does not depend on how audio is divided into blocks.
///
/// Lifecycle: [`Synth::new`] allocates every voice for the sample rate; after that
/// [`Synth::note_on`], [`Synth::note_off`], the pedals, [`Synth::process`] and
/// [`Synth::reset`] never allocate, lock or panic, and may run on the audio thread.
#[derive(Debug, Clone)]
pub struct Synth {
    preset: Preset,
    sample_rate: f64,
    lowest_key: u8,
    keys: Vec<KeyVoice>,
    /// Left and right gains per key (equal-power pan times output gain).
    key_gains: Vec<[f64; 2]>,
    soundboard: Option<Soundboard>,
    /// Mixing buses for one chunk: bass-side and treble-side signal.
    bus: Box<[[f64; 2]; CHUNK]>,
    /// The action and its event buffer, for instruments that have one.
    action: Option<(Action, Vec<(f64, ActionEvent)>)>,
    /// Samples rendered since construction or the last reset.
    now: u64,
    /// Samples per control period of the action.
    control_period: u64,
}

impl Synth {
    /// Builds every key of `preset` at `sample_rate` (Hz).
    ///
    /// Allocates: all voices and per-key tables.
    pub fn new(preset: &Preset, sample_rate: f64) -> Result<Self, SynthError> {
        if !(sample_rate.is_finite() && (8_000.0..=768_000.0).contains(&sample_rate)) {
            return Err(SynthError::SampleRate(sample_rate));
        }
        let topology = preset.topology().map_err(SynthError::Preset)?;
        let (lowest, highest) = (preset.keyboard.lowest_key, preset.keyboard.highest_key);
        let gain = preset.output.gain_per_newton;
        let mut keys = Vec::with_capacity(usize::from(highest - lowest) + 1);
        let mut key_gains = Vec::with_capacity(keys.capacity());
        for key in lowest..=highest {
            keys.push(build_voice(
                preset,
                &topology,
                key,
                sample_rate,
                SILENCE_LEVEL / gain,
            )?);
            // Bass to the left, treble to the right, as the player hears it.
            let span = f64::from(highest - lowest).max(1.0);
            let position = (f64::from(key - lowest) / span) * 2.0 - 1.0;
            let angle = FRAC_PI_4 * (1.0 + preset.output.stereo_width * position);
            key_gains.push([gain * angle.cos(), gain * angle.sin()]);
        }
        let soundboard = topology.soundboard.map(|board| {
            Soundboard::new(
                &SoundboardParams {
                    modes: board.modes as usize,
                    lowest_mode_hz: board.lowest_mode_hz,
                    highest_mode_hz: board.highest_mode_hz,
                    lowest_mode_t60_s: board.lowest_mode_t60_s,
                    body_gain: board.body_gain,
                },
                sample_rate,
            )
        });
        let action = topology.action.map(|spec| {
            let damper_travel_s = topology.dampers.map_or(0.006, |d| d.travel_s);
            let settings = spec.settings(
                preset.velocity,
                topology.hammers.start_gap_m,
                damper_travel_s,
            );
            (Action::new(settings), Vec::with_capacity(ACTION_EVENTS))
        });
        Ok(Self {
            preset: preset.clone(),
            sample_rate,
            lowest_key: lowest,
            keys,
            key_gains,
            soundboard,
            bus: Box::new([[0.0; 2]; CHUNK]),
            action,
            now: 0,
            control_period: (sample_rate / CONTROL_RATE_HZ).round().max(1.0) as u64,
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

    /// The present time of the action's clock, s.
    fn time_s(&self) -> f64 {
        self.now as f64 / self.sample_rate
    }

    /// Sends `command` to the action at the present sample.
    fn command(&mut self, command: ActionCommand) {
        let t = self.time_s();
        if let Some((action, _)) = self.action.as_mut() {
            action.command(t, command);
        }
    }

    /// Strikes `key` with normalised `velocity` (MIDI velocity / 127, 0 to 1): the
    /// action throws its hammer, or without an action the hammer is thrown from
    /// its start gap at once. Keys the instrument lacks are ignored; velocity 0 is
    /// a note-off, as in MIDI.
    pub fn note_on(&mut self, key: u8, velocity: f32) {
        // NaN and non-positive velocities release the key, as velocity 0 does in MIDI.
        if velocity.is_nan() || velocity <= 0.0 {
            self.note_off(key);
            return;
        }
        if self.action.is_some() {
            let velocity = (velocity.min(1.0) * 127.0).round().max(1.0) as u8;
            self.command(ActionCommand::KeyDown {
                note: key,
                velocity,
            });
        } else if let Some(i) = self.index(key) {
            let speed = self.preset.hammer_speed(velocity);
            self.keys[i].strike(speed);
        }
    }

    /// Releases `key`: its damper falls (unless a pedal holds it up).
    pub fn note_off(&mut self, key: u8) {
        self.command(ActionCommand::KeyUp { note: key });
    }

    /// Sustain pedal depth, 0 (up) to 1 (down); in between the dampers of
    /// released keys touch their strings partly (half-pedalling).
    pub fn set_sustain(&mut self, depth: f32) {
        if depth.is_finite() {
            self.command(ActionCommand::Sustain(f64::from(depth.clamp(0.0, 1.0))));
        }
    }

    /// Sostenuto pedal: pressed, it holds up the dampers of the keys down at
    /// that moment until it is released.
    pub fn set_sostenuto(&mut self, down: bool) {
        self.command(ActionCommand::Sostenuto(down));
    }

    /// Una corda pedal depth, 0 to 1: from half way down the hammers shift to
    /// strike one string fewer of each pair or triple.
    pub fn set_una_corda(&mut self, depth: f32) {
        if depth.is_finite() {
            self.command(ActionCommand::UnaCorda(f64::from(depth.clamp(0.0, 1.0))));
        }
    }

    /// Sets how hard `key`'s damper presses, 0 (lifted) to 1 (down), directly,
    /// bypassing the action (until the action next moves that damper); clamped
    /// to [0, 1].
    pub fn set_damper_amount(&mut self, key: u8, amount: f64) {
        if let Some(i) = self.index(key) {
            self.keys[i].set_damper_amount(amount);
        }
    }

    /// Releases every key and pedal (MIDI "all notes off"): the dampers fall.
    pub fn all_notes_off(&mut self) {
        for key in self.lowest_key..=self.lowest_key + (self.keys.len() - 1) as u8 {
            self.note_off(key);
        }
        self.set_sustain(0.0);
        self.set_sostenuto(false);
    }

    /// What the last strike of `key` did, if the key has strings.
    pub fn strike_report(&self, key: u8) -> Option<&StrikeReport> {
        self.index(key).and_then(|i| self.keys[i].report())
    }

    /// The contact force and felt compression of `key`'s last strike, sample by
    /// sample from its first touch (`None` for keys without strings).
    pub fn contact_trace(&self, key: u8) -> Option<&ContactTrace> {
        self.index(key).and_then(|i| self.keys[i].contact_trace())
    }

    /// The strings `key`'s current (or last) strike hit, bit `i` for string `i`
    /// (`None` for keys without strings).
    pub fn struck_strings(&self, key: u8) -> Option<u8> {
        self.index(key).and_then(|i| self.keys[i].struck_strings())
    }

    /// How many times a voice went non-finite and was silenced, over all keys.
    pub fn non_finite_resets(&self) -> u64 {
        self.keys
            .iter()
            .map(|k| u64::from(k.non_finite_resets()))
            .sum()
    }

    /// Whether any voice is sounding, any hammer in flight, the action moving a
    /// damper, or the soundboard ringing.
    pub fn is_active(&self) -> bool {
        self.keys.iter().any(KeyVoice::is_active)
            || self.soundboard.as_ref().is_some_and(|b| !b.is_asleep())
    }

    /// Renders `left.len()` samples (the shorter of the two slices) into `left` and
    /// `right`, overwriting them.
    pub fn process(&mut self, left: &mut [f32], right: &mut [f32]) {
        let frames = left.len().min(right.len());
        let mut done = 0;
        while done < frames {
            let into_period = self.now % self.control_period;
            if into_period == 0 {
                self.run_action();
            }
            let to_grid = (self.control_period - into_period) as usize;
            let n = (frames - done).min(to_grid).min(CHUNK);
            self.render(&mut left[done..done + n], &mut right[done..done + n]);
            done += n;
            self.now += n as u64;
        }
    }

    /// Advances the action to the present sample and applies what it did.
    fn run_action(&mut self) {
        let t1 = self.time_s();
        let t0 = self.now.saturating_sub(self.control_period) as f64 / self.sample_rate;
        let Some((action, events)) = self.action.as_mut() else {
            return;
        };
        action.advance(t0, t1);
        action.drain_events(events);
        let una_corda = action.una_corda() >= 0.5;
        for &(_, event) in events.iter() {
            match event {
                ActionEvent::LetOff { note, speed } => {
                    if let Some(i) = note
                        .checked_sub(self.lowest_key)
                        .map(usize::from)
                        .filter(|&i| i < self.keys.len())
                    {
                        let voice = &mut self.keys[i];
                        voice.shift_hammer(una_corda);
                        voice.strike(speed);
                    }
                }
                ActionEvent::Damper { note, amount } => {
                    if let Some(i) = note
                        .checked_sub(self.lowest_key)
                        .map(usize::from)
                        .filter(|&i| i < self.keys.len())
                    {
                        self.keys[i].set_damper_amount(amount);
                    }
                }
            }
        }
        events.clear();
    }

    /// Renders one stretch of at most [`CHUNK`] frames with no control event in it.
    fn render(&mut self, left: &mut [f32], right: &mut [f32]) {
        let bus = &mut self.bus[..left.len()];
        bus.fill([0.0; 2]);
        for (voice, &gains) in self.keys.iter_mut().zip(&self.key_gains) {
            if voice.is_active() {
                voice.mix_into(bus, gains);
            }
        }
        for ((l, r), &[bl, br]) in left.iter_mut().zip(right.iter_mut()).zip(bus.iter()) {
            let [ol, or] = match self.soundboard.as_mut() {
                Some(board) => board.process(bl, br),
                None => [bl, br],
            };
            *l = ol as f32;
            *r = or as f32;
        }
    }

    /// Applies one event now.
    pub fn apply(&mut self, event: SynthEvent) {
        match event {
            SynthEvent::NoteOn { key, velocity } => self.note_on(key, velocity),
            SynthEvent::NoteOff { key } => self.note_off(key),
            SynthEvent::Sustain(depth) => self.set_sustain(depth),
            SynthEvent::Sostenuto(down) => self.set_sostenuto(down),
            SynthEvent::UnaCorda(depth) => self.set_una_corda(depth),
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

    /// Silences everything at once: voices at rest, hammers home, action and
    /// pedals at rest, the clock back to zero.
    pub fn reset(&mut self) {
        for key in &mut self.keys {
            key.reset();
        }
        if let Some(board) = self.soundboard.as_mut() {
            board.reset();
        }
        if let Some((action, events)) = self.action.as_mut() {
            action.reset();
            events.clear();
        }
        self.now = 0;
    }
}

/// Events the action may produce in one control period: a let-off and a damper
/// move for every key, twice over.
const ACTION_EVENTS: usize = 4 * crate::mech::action::KEYS;

/// Damper decay time of strings that have no damper, s: never engaged, but the
/// strings need a finite value.
const NO_DAMPER_T60_S: f64 = 1e9;

/// Builds `key`'s voice as the topology says.
fn build_voice(
    preset: &Preset,
    topology: &Topology<'_>,
    key: u8,
    sample_rate: f64,
    silence_threshold: f64,
) -> Result<KeyVoice, SynthError> {
    let missing = || SynthError::Preset(PresetError::Topology(format!("key {key} has no values")));
    match topology.resonators {
        Resonators::Strings(_) => {
            let params = preset.key_params(key).ok_or_else(missing)?;
            let (t60, travel) = topology
                .dampers
                .map_or((NO_DAMPER_T60_S, 0.006), |d| (d.t60_s, d.travel_s));
            let voice = StruckString::new(
                params,
                sample_rate,
                topology.hammers.start_gap_m,
                t60,
                travel,
                silence_threshold,
            )
            .map_err(|reason| SynthError::Key { key, reason })?;
            Ok(KeyVoice::Strings(voice))
        }
        Resonators::Bars(_) => {
            let params = preset.bar_params(key).ok_or_else(missing)?;
            let voice =
                MalletBar::new(&params, sample_rate, silence_threshold).map_err(SynthError::Bar)?;
            Ok(KeyVoice::Bar(voice))
        }
    }
}
