//! The family seam, proved from outside the engine: a toy family defined only
//! here — a plucked string with a plectrum for mechanics — registers with the
//! engine and plays through `Synth` as the built-in families do, with no
//! change to the realtime layer.

use std::any::Any;
use std::f64::consts::TAU;

use orchard_engine::analysis::peak_frequency;
use orchard_engine::families;
use orchard_engine::instrument::{Preset, Rebound};
use orchard_engine::mech::{Model, ModelState, StepAdjustment};
use orchard_engine::props::{PropertyAccess, PropertyError};
use orchard_engine::rt::{
    CHUNK, Family, MIDI_KEYS, Mechanics, Operation, Synth, SynthError, SynthEvent, Voices,
};

const FS: f64 = 48_000.0;

/// Time from a key going down to the plectrum plucking its string, s.
const PLUCK_DELAY_S: f64 = 0.010;

/// Decay of the toy string, s to fall 60 dB.
const T60_S: f64 = 1.0;

/// Each key's string: one damped mode at the key's pitch.
struct ToyStrings {
    lowest_key: u8,
    /// Per key: (2 r cos ω, r², y[n−1], y[n−2]).
    modes: Vec<[f64; 4]>,
    /// Per key: the pluck waiting to enter the next sample.
    pending: Vec<f64>,
}

impl Voices for ToyStrings {
    fn apply(&mut self, operation: Operation) {
        if let Operation::Strike { key, speed_m_s, .. } = operation
            && let Some(slot) = key
                .checked_sub(self.lowest_key)
                .and_then(|i| self.pending.get_mut(usize::from(i)))
        {
            *slot += 0.1 * speed_m_s;
        }
    }

    fn render(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        _on_rebound: &mut dyn FnMut(u8, usize, Rebound),
    ) {
        let frames = left.len().min(right.len()).min(CHUNK);
        for n in 0..frames {
            let mut sum = 0.0;
            for (mode, pending) in self.modes.iter_mut().zip(&mut self.pending) {
                let [a1, a2, y1, y2] = *mode;
                let y = a1 * y1 - a2 * y2 + *pending;
                *pending = 0.0;
                *mode = [a1, a2, y, y1];
                sum += y;
            }
            left[n] = sum as f32;
            right[n] = sum as f32;
        }
    }

    fn reset(&mut self) {
        for mode in &mut self.modes {
            mode[2] = 0.0;
            mode[3] = 0.0;
        }
        self.pending.fill(0.0);
    }

    fn continue_from(&mut self, _old: &dyn Voices) -> bool {
        false
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn is_active(&self) -> bool {
        self.modes.iter().any(|m| m[2].abs() > 1e-7)
    }

    fn sounding_keys(&self) -> u32 {
        self.modes.iter().filter(|m| m[2].abs() > 1e-7).count() as u32
    }

    fn non_finite_resets(&self) -> u64 {
        0
    }
}

/// A plectrum per key: it plucks `PLUCK_DELAY_S` after the key goes down.
struct Plectrum {
    /// Per MIDI key: when to pluck (s) and how hard (m/s), if due.
    due: [Option<(f64, f64)>; MIDI_KEYS],
    /// Per MIDI key: plucked in the last step, how hard.
    plucked: [Option<f64>; MIDI_KEYS],
}

impl Model for Plectrum {
    fn initialize(&mut self, _t: f64) {}

    fn advance(&mut self, _t0: f64, t1: f64) -> Option<StepAdjustment> {
        for (due, plucked) in self.due.iter_mut().zip(&mut self.plucked) {
            if let Some((at, speed)) = *due
                && at <= t1
            {
                *plucked = Some(speed);
                *due = None;
            }
        }
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

impl PropertyAccess for Plectrum {
    fn property(&self, _path: &str) -> Option<f64> {
        None
    }

    fn set_property(&mut self, path: &str, _value: f64) -> Result<(), PropertyError> {
        Err(PropertyError::UnknownPath(path.into()))
    }
}

impl Mechanics for Plectrum {
    fn perform(&mut self, t_s: f64, event: SynthEvent, _now: &mut dyn FnMut(Operation)) {
        if let SynthEvent::NoteOn { key, velocity } = event
            && velocity > 0.0
            && let Some(due) = self.due.get_mut(usize::from(key))
        {
            *due = Some((t_s + PLUCK_DELAY_S, 1.0 + f64::from(velocity)));
        }
    }

    fn drain_operations(&mut self, out: &mut dyn FnMut(Operation)) {
        for (key, plucked) in self.plucked.iter_mut().enumerate() {
            if let Some(speed_m_s) = plucked.take() {
                out(Operation::Strike {
                    key: key as u8,
                    speed_m_s,
                    shifted: false,
                });
            }
        }
    }

    fn reset(&mut self) {
        self.due = [None; MIDI_KEYS];
        self.plucked = [None; MIDI_KEYS];
    }

    fn continue_motion_from(&mut self, _previous: &dyn Mechanics) {}
}

/// The toy family.
struct ToyPluck;

impl Family for ToyPluck {
    fn name(&self) -> &'static str {
        "toy-pluck"
    }

    fn presets(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    fn fits(&self, _preset: &Preset) -> bool {
        false
    }

    fn voices(&self, preset: &Preset, sample_rate: f64) -> Result<Box<dyn Voices>, SynthError> {
        let keys = preset.keyboard.lowest_key..=preset.keyboard.highest_key;
        let r = 1000f64.powf(-1.0 / (T60_S * sample_rate));
        let modes = keys
            .clone()
            .map(|key| {
                let omega = TAU * preset.tuning.target(key, |_| 0.0) / sample_rate;
                [2.0 * r * omega.cos(), r * r, 0.0, 0.0]
            })
            .collect::<Vec<_>>();
        Ok(Box::new(ToyStrings {
            lowest_key: *keys.start(),
            pending: vec![0.0; modes.len()],
            modes,
        }))
    }

    fn mechanics(&self, _preset: &Preset) -> Box<dyn Mechanics> {
        Box::new(Plectrum {
            due: [None; MIDI_KEYS],
            plucked: [None; MIDI_KEYS],
        })
    }
}

/// A preset the toy family plays: the mallet bars' keyboard and tuning.
fn toy_preset() -> Preset {
    families::register(&ToyPluck);
    let mut preset = Preset::load("mallet-bar").unwrap();
    preset.family = Some("toy-pluck".into());
    preset
}

#[test]
fn a_family_defined_outside_the_engine_plays_through_synth() {
    let mut synth = Synth::new(&toy_preset(), FS).unwrap();
    let frames = (0.5 * FS) as usize;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    synth.note_on(69, 0.8);
    for (l, r) in left.chunks_mut(64).zip(right.chunks_mut(64)) {
        synth.process(l, r);
    }
    // Its mechanics decide when it sounds: nothing before the plectrum
    // plucks, 10 ms after the key (within a control period of 1/3 ms).
    let onset = left.iter().position(|x| x.abs() > 1e-6).unwrap();
    let onset_s = onset as f64 / FS;
    assert!(
        (PLUCK_DELAY_S..PLUCK_DELAY_S + 0.001).contains(&onset_s),
        "plucked at {onset_s} s"
    );
    // Its voices decide what sounds: A4 from the preset's tuning.
    let pitch = peak_frequency(&left[onset..], FS, 200.0, 1000.0).unwrap();
    assert!((pitch - 440.0).abs() < 1.0, "sounds at {pitch} Hz");
    assert_eq!(left, right);
}

#[test]
fn a_preset_naming_an_unknown_family_is_refused_with_the_known_ones() {
    let mut preset = Preset::load("mallet-bar").unwrap();
    preset.family = Some("harpsichord".into());
    let error = Synth::new(&preset, FS).unwrap_err().to_string();
    assert!(
        error.contains("harpsichord")
            && error.contains("grand-piano")
            && error.contains("mallet-bar"),
        "{error}"
    );
}
