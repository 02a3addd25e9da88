//! `orchard._native.Synth`: the instrument played block by block, as a host
//! plays the plugin: events apply at the start of the next block, and
//! property edits carry on what is sounding.

use std::sync::Mutex;

use orchard_cli::overrides;
use orchard_engine::instrument::Preset;
use orchard_engine::midi::event_of_bytes;
use orchard_engine::rt::{InstrumentLoader, Synth as EngineSynth, SynthError, SynthEvent};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict};

use crate::audio::Interleaved;
use crate::instrument::{Instrument, property};
use crate::{checked_rate, refused, seven_bit};

/// The longest block one `process` call renders, s: a larger one is surely a
/// mistake (frames for seconds), and its buffer would be gigabytes.
const MAX_BLOCK_S: f64 = 600.0;

/// Frames rendered at a time inside one `process` call.
const CHUNK_FRAMES: usize = 512;

/// What one synthesiser holds: the engine's, its loader for live edits, and
/// the preset as edited so far.
struct Playing {
    synth: EngineSynth,
    loader: InstrumentLoader,
    preset: Preset,
    /// Whether `preset` has edits the synthesiser has not been given yet.
    edited: bool,
}

impl Playing {
    /// Renders `frames` frames, giving the synthesiser the latest edits
    /// first. Edits coalesce: `preset` holds them all, and it is loaded
    /// whole. While an instrument loaded before is still on its way in (it
    /// waits for the crossfade of the one before it to end), the latest
    /// edits wait too and are loaded at the next chunk that can take them,
    /// in this call or a later one; the audio never stops for them.
    fn process(&mut self, frames: usize) -> Result<Interleaved, String> {
        let mut out = Interleaved::with_capacity(frames);
        let (mut left, mut right) = (vec![0.0f32; CHUNK_FRAMES], vec![0.0f32; CHUNK_FRAMES]);
        self.load_edits()?;
        let mut done = 0;
        while done < frames {
            let n = (frames - done).min(CHUNK_FRAMES);
            self.synth.process(&mut left[..n], &mut right[..n]);
            out.extend(&left[..n], &right[..n]);
            done += n;
            self.load_edits()?;
        }
        self.loader.collect();
        Ok(out)
    }

    /// Gives the synthesiser the preset as edited, if it has edits it has
    /// not been given and it can take them now (see [`Playing::process`]).
    fn load_edits(&mut self) -> Result<(), String> {
        if !self.edited {
            return Ok(());
        }
        match self.loader.load_live(&self.preset) {
            Ok(()) => {
                self.edited = false;
                Ok(())
            }
            Err(SynthError::SwitchPending) => Ok(()),
            Err(error) => {
                // An edit `set_property` accepted that does not build stays
                // out, and the next edits are tried again.
                self.edited = false;
                Err(error.to_string())
            }
        }
    }
}

/// An instrument played block by block.
#[pyclass(frozen, subclass, module = "orchard._native")]
pub struct Synth {
    playing: Mutex<Playing>,
    sample_rate: u32,
}

impl Synth {
    /// Runs `work` on what the synthesiser holds, without the GIL: a thread
    /// that waits here for another's `process` to finish holds up no other
    /// Python thread.
    fn with_playing<R: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut Playing) -> R + Send,
    ) -> R {
        py.detach(|| {
            // A panic cannot leave `Playing` half changed in a way that
            // matters more than stopping: go on with it.
            let mut playing = self
                .playing
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            work(&mut playing)
        })
    }

    /// Applies `event` at the start of the next block.
    fn apply(&self, py: Python<'_>, event: SynthEvent) {
        self.with_playing(py, |playing| playing.synth.apply(event));
    }
}

#[pymethods]
impl Synth {
    /// The instrument at `sample_rate` (Hz), at rest.
    #[new]
    #[pyo3(signature = (instrument, sample_rate=48_000))]
    fn new(py: Python<'_>, instrument: &Instrument, sample_rate: u32) -> PyResult<Self> {
        let rate = checked_rate(sample_rate)?;
        let preset = instrument.preset.clone();
        let mut synth = py
            .detach(|| EngineSynth::new(&preset, rate).map_err(|e| e.to_string()))
            .map_err(refused)?;
        let loader = synth
            .take_loader()
            .ok_or_else(|| refused("the synthesiser has no loader"))?;
        Ok(Self {
            playing: Mutex::new(Playing {
                synth,
                loader,
                preset,
                edited: false,
            }),
            sample_rate,
        })
    }

    /// Strikes `key` at MIDI `velocity` (1 to 127; 0 is a release, as in MIDI).
    #[pyo3(signature = (key, velocity=100))]
    fn note_on(&self, py: Python<'_>, key: i64, velocity: i64) -> PyResult<()> {
        let key = seven_bit("key", key)?;
        let velocity = seven_bit("velocity", velocity)?;
        self.send(py, vec![0x90, key, velocity])
    }

    /// Releases `key` at MIDI release `velocity` (0 to 127).
    #[pyo3(signature = (key, velocity=64))]
    fn note_off(&self, py: Python<'_>, key: i64, velocity: i64) -> PyResult<()> {
        let key = seven_bit("key", key)?;
        let velocity = seven_bit("velocity", velocity)?;
        self.send(py, vec![0x80, key, velocity])
    }

    /// A MIDI control change: sustain (64, continuous), sostenuto (66), una
    /// corda (67), all sound off (120), all notes off (123); others do
    /// nothing.
    fn control_change(&self, py: Python<'_>, control: i64, value: i64) -> PyResult<()> {
        let control = seven_bit("control", control)?;
        let value = seven_bit("value", value)?;
        self.send(py, vec![0xb0, control, value])
    }

    /// One raw MIDI message (status byte first), as a MIDI cable carries it.
    fn send(&self, py: Python<'_>, message: Vec<u8>) -> PyResult<()> {
        if let Some(event) = event_of_bytes(&message).map_err(refused)? {
            self.apply(py, event);
        }
        Ok(())
    }

    /// Renders the next `frames` frames: interleaved stereo `float32`. The
    /// GIL is released meanwhile.
    fn process<'py>(&self, py: Python<'py>, frames: usize) -> PyResult<Bound<'py, PyByteArray>> {
        let most = (MAX_BLOCK_S * f64::from(self.sample_rate)) as usize;
        if frames > most {
            return Err(refused(format!(
                "process({frames}): at most {most} frames ({MAX_BLOCK_S} s) a call"
            )));
        }
        let out = self
            .with_playing(py, |playing| playing.process(frames))
            .map_err(refused)?;
        out.into_bytearray(py)
    }

    /// Changes a property of the instrument (e.g. `tuning:a4_hz`), checked as
    /// `--set` checks it; it sounds from the next block on, on the notes
    /// already sounding too.
    fn set_property(&self, py: Python<'_>, path: &str, value: f64) -> PyResult<()> {
        let setting = format!("{path}={value}");
        self.with_playing(py, |playing| -> Result<(), String> {
            overrides::apply(&mut playing.preset, None, &[setting])?;
            playing.edited = true;
            Ok(())
        })
        .map_err(refused)
    }

    /// The value of a property, with the edits made so far.
    fn get_property(&self, py: Python<'_>, path: &str) -> PyResult<f64> {
        self.with_playing(py, |playing| property(&playing.preset, path))
            .map_err(refused)
    }

    /// Silences everything at once (MIDI's all sound off).
    fn reset(&self, py: Python<'_>) {
        self.apply(py, SynthEvent::AllSoundOff);
    }

    /// The output sample rate, Hz.
    #[getter]
    fn sample_rate(&self) -> u32 {
        self.sample_rate
    }

    /// Frames rendered so far.
    #[getter]
    fn frames_rendered(&self, py: Python<'_>) -> u64 {
        self.with_playing(py, |playing| playing.synth.samples_rendered())
    }

    /// Frames by which the output lags the events: 0, but for rates below
    /// 44.1 kHz, where the instrument runs at a multiple of the rate and the
    /// decimating filter delays it (a whole-file render compensates by
    /// looking ahead; a block can not).
    #[getter]
    fn latency_frames(&self, py: Python<'_>) -> u64 {
        self.with_playing(py, |playing| playing.synth.output_delay())
    }

    /// Whether anything is still sounding.
    #[getter]
    fn is_active(&self, py: Python<'_>) -> bool {
        self.with_playing(py, |playing| playing.synth.is_active())
    }

    /// What the last strike of `key` did (struck strings only), as a dict:
    /// the hammer's speed, first touch, contact duration, contacts, force
    /// pulses, peak force and restitution (all zero or `None` before the
    /// first strike); `None` for a key without strings.
    fn strike_report<'py>(
        &self,
        py: Python<'py>,
        key: i64,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let key = seven_bit("key", key)?;
        let report = self.with_playing(py, |playing| playing.synth.strike_report(key).copied());
        report
            .map(|report| crate::note::strike_dict(py, &report))
            .transpose()
    }
}
