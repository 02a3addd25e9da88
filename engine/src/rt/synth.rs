//! The synthesiser every front end plays: the audio-rate voices, coupled to the
//! mechanical worker through lock-free queues, in one of two modes from one
//! code path.
//!
//! - **Lock-step** ([`Synth::new`]): the worker is stepped inline at each of its
//!   control samples, so renders are bit-identical from run to run and across
//!   block sizes (the offline renderer, tests).
//! - **Realtime** ([`Synth::realtime`]): the worker runs on its own thread. The
//!   audio thread sends it the player's commands and, after each block, how far
//!   it has rendered; the worker answers with operations stamped `latency`
//!   samples after the control step that made them, which the audio thread
//!   applies at their stamps. An operation that arrives after its stamp is
//!   applied at once and counted as late.
//!
//! Both modes send the same messages through the same queues and apply the same
//! operations at the same stamps, so a worker that keeps up gives the lock-step
//! output exactly.

use rtrb::{Consumer, Producer};

use super::error::SynthError;
use super::family::Family;
use super::ops::{Operation, Stamped, ToWorker};
use super::oversampling::{Decimator, factor_for};
use super::sample_rate::check_sample_rate;
use super::triple_buffer::{Publisher, triple_buffer};
use super::view::{MIDI_KEYS, MeterView, Views};
use super::voices::{CHUNK, Voices};
use super::worker::CONTROL_RATE_HZ;
use crate::instrument::Preset;
use crate::room::LiveRoom;

mod build;
mod handover;
mod inspect;
mod link;
mod loader;
mod parts;
mod playing;
mod render;

use handover::Handover;
use link::Link;
pub use link::RealtimeOptions;
pub use loader::InstrumentLoader;
use loader::Prepared;
use parts::Parts;

/// Release velocity of a note-off that carries none (MIDI's 64 of 127).
pub const DEFAULT_RELEASE_VELOCITY: f32 = 0.5;

/// Control periods between two measurements of the resonators' energy (the
/// editor's view rate, about 60 per second).
const ENERGY_REPORTS_EVERY_STEPS: u64 = 50;
/// What has gone wrong, counted (read with [`Synth::counters`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// Operations applied after their stamp (the worker fell behind).
    pub late_operations: u64,
    /// Commands dropped because the queue to the worker was full.
    pub dropped_commands: u64,
    /// Voices that went non-finite and were muted and reset.
    pub non_finite_resets: u64,
    /// Hammer contacts taken from a key still holding one (pool exhausted).
    pub stolen_contacts: u64,
}

/// The instrument, playable from any thread that owns it.
///
/// Lifecycle: [`Synth::new`] and [`Synth::realtime`] allocate everything; after
/// that, playing, [`Synth::process`] and [`Synth::reset`] never allocate, lock
/// or panic, and may run on the audio thread. In lock-step mode that includes
/// the worker's steps, which run inside `process`.
pub struct Synth {
    voices: Box<dyn Voices>,
    /// The room the output is heard in, at the host's rate (none: dry), and
    /// the one it replaced, ringing out.
    room: LiveRoom,
    preset: Preset,
    /// Its family's name: a live install needs the same family.
    family: &'static str,
    /// The host's sample rate, Hz.
    sample_rate: f64,
    /// Brings the internal rate down to the host's, when the instrument runs
    /// faster than the host (below [`super::MIN_INTERNAL_RATE_HZ`]).
    decimator: Option<Box<Decimator>>,
    /// Internal samples rendered since preparation.
    now: u64,
    /// Reset epoch: operations of older epochs are dropped.
    epoch: u32,
    to_worker: Producer<Stamped<ToWorker>>,
    from_worker: Consumer<Stamped<Operation>>,
    link: Link,
    late_operations: u64,
    dropped_commands: u64,
    /// Internal samples between a command and its earliest operation.
    latency: u64,
    /// Instruments to switch to, from the loader.
    instruments: Consumer<Box<Prepared>>,
    /// Replaced instruments, back to the loader.
    replaced: Producer<Box<Prepared>>,
    /// The crossfade from the instrument a live install replaced.
    handover: Handover,
    /// The loader's end, until taken.
    loader: Option<InstrumentLoader>,
    /// Samples between two measurements of the resonators' energy.
    energy_interval: u64,
    /// The sample of the next measurement.
    next_energy_report: u64,
    /// The resonators' energy per MIDI key at the last measurement, J.
    resonator_energy: [f32; MIDI_KEYS],
    /// Where the meters go after every block.
    meters: Publisher<MeterView>,
    /// The editor's ends of the views, until taken.
    views: Option<Views>,
}

impl std::fmt::Debug for Synth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Synth")
            .field("preset", &self.preset.name)
            .field("sample_rate", &self.sample_rate)
            .field("now", &self.now)
            .field("realtime", &matches!(self.link, Link::Realtime { .. }))
            .finish_non_exhaustive()
    }
}

impl Synth {
    /// `preset`, played by `family`, at `sample_rate` (Hz) in lock-step
    /// mode, its operations `latency` samples (at `sample_rate`) after the
    /// control step that makes them (as a realtime synthesiser with that
    /// latency would apply them). (`Synth::new` and `Synth::lock_step`, with
    /// the registry in `crate::families`, find the family of a preset.)
    ///
    /// Any rate in [`super::SAMPLE_RATES_HZ`] is accepted; below
    /// [`super::MIN_INTERNAL_RATE_HZ`] the instrument runs at a whole multiple
    /// of it and its output is decimated (see [`Synth::latency`]).
    ///
    /// Allocates: every voice, the worker and the queues.
    pub fn lock_step_with(
        family: &'static dyn Family,
        preset: &Preset,
        sample_rate: f64,
        latency: u64,
    ) -> Result<Self, SynthError> {
        let rates = Rates::for_host(sample_rate)?;
        let (parts, host) = Parts::new(
            family,
            preset,
            rates.internal(),
            rates.host,
            latency * rates.factor,
        )?;
        let period = (rates.internal() / CONTROL_RATE_HZ).round().max(1.0) as u64;
        Ok(Self::assemble(
            parts,
            rates,
            Link::LockStep { host, period },
        ))
    }

    /// `preset`, played by `family`, at `sample_rate` (Hz) in realtime
    /// mode: the worker runs on a thread of its own until the synthesiser is
    /// dropped. (`Synth::realtime`, with the registry in `crate::families`,
    /// finds the family of a preset.)
    ///
    /// Allocates: every voice, the worker, the queues and the thread.
    pub fn realtime_with(
        family: &'static dyn Family,
        preset: &Preset,
        sample_rate: f64,
        options: RealtimeOptions,
    ) -> Result<Self, SynthError> {
        let rates = Rates::for_host(sample_rate)?;
        let internal = RealtimeOptions {
            latency: options.latency * rates.factor,
            stall: options
                .stall
                .map(|(after, pause)| (after * rates.factor, pause)),
        };
        let (parts, host) = Parts::new(
            family,
            preset,
            rates.internal(),
            rates.host,
            internal.latency,
        )?;
        Ok(Self::assemble(
            parts,
            rates,
            Link::realtime(host, internal)?,
        ))
    }

    fn assemble(parts: Parts, rates: Rates, link: Link) -> Self {
        let (meters, meters_view) = triple_buffer(MeterView::default());
        Self {
            voices: parts.voices,
            room: LiveRoom::new(parts.room),
            preset: parts.preset,
            family: parts.family,
            sample_rate: rates.host,
            decimator: (rates.factor > 1)
                .then(|| Box::new(Decimator::new(rates.factor as usize, CHUNK))),
            now: 0,
            epoch: 0,
            to_worker: parts.to_worker,
            from_worker: parts.from_worker,
            link,
            late_operations: 0,
            dropped_commands: 0,
            latency: parts.loader.latency,
            energy_interval: ENERGY_REPORTS_EVERY_STEPS
                * (parts.loader.sample_rate / CONTROL_RATE_HZ)
                    .round()
                    .max(1.0) as u64,
            next_energy_report: 0,
            resonator_energy: [0.0; MIDI_KEYS],
            instruments: parts.instruments,
            replaced: parts.replaced,
            handover: Handover::new(parts.loader.sample_rate),
            loader: Some(parts.loader),
            meters,
            views: Some(Views {
                mechanics: parts.mechanics,
                meters: meters_view,
            }),
        }
    }

    /// The loader that switches this synthesiser to other instruments (once;
    /// later calls return `None`).
    pub fn take_loader(&mut self) -> Option<InstrumentLoader> {
        self.loader.take()
    }

    /// The editor's read-only views of the mechanics and the meters (once; later
    /// calls return `None`). Reading them never blocks the audio thread or the
    /// worker.
    pub fn take_views(&mut self) -> Option<Views> {
        self.views.take()
    }

    /// The sample rate this synthesiser was built for, Hz.
    pub fn sample_rate(&self) -> f64 {
        self.sample_rate
    }

    /// The rate the instrument runs at inside, Hz: the host's, or a whole
    /// multiple of it below [`super::MIN_INTERNAL_RATE_HZ`]. Contact traces
    /// and strike reports are sampled at this rate.
    pub fn internal_sample_rate(&self) -> f64 {
        self.sample_rate * self.factor() as f64
    }

    /// The preset it plays.
    pub fn preset(&self) -> &Preset {
        &self.preset
    }

    /// Samples from a command to its earliest effect in the output: the
    /// realtime worker's latency, plus the decimating filter's delay when the
    /// instrument runs faster than the host (0 in lock-step mode at 44.1 kHz
    /// and up).
    pub fn latency(&self) -> u64 {
        self.latency / self.factor() + self.output_delay()
    }

    /// Internal samples per host sample: the decimator's factor, 1 without
    /// one.
    fn factor(&self) -> u64 {
        self.decimator.as_ref().map_or(1, |d| d.factor() as u64)
    }

    /// Samples by which the decimating filter delays the output (0 from
    /// [`super::MIN_INTERNAL_RATE_HZ`] up): the part of [`Synth::latency`]
    /// that an offline player can render ahead.
    pub fn output_delay(&self) -> u64 {
        self.decimator
            .as_ref()
            .map_or(0, |d| d.delay_frames() as u64)
    }

    /// Samples rendered so far, at the host's rate.
    pub fn samples_rendered(&self) -> u64 {
        self.now / self.factor()
    }

    /// What went wrong so far, counted.
    pub fn counters(&self) -> Counters {
        Counters {
            late_operations: self.late_operations,
            dropped_commands: self.dropped_commands,
            non_finite_resets: self.voices.non_finite_resets(),
            stolen_contacts: self.voices.stolen_contacts(),
        }
    }

    /// Sends a message stamped now to the worker; counts it if the queue is full.
    fn send(&mut self, item: ToWorker) {
        let message = Stamped {
            at: self.now,
            epoch: self.epoch,
            item,
        };
        if self.to_worker.push(message).is_err() {
            self.dropped_commands += 1;
        }
    }
}

/// The host's rate and the whole multiple of it the instrument runs at.
#[derive(Debug, Clone, Copy)]
struct Rates {
    /// Hz.
    host: f64,
    factor: u64,
}

impl Rates {
    /// The rates for a host at `host` Hz, if it is a rate Orchard plays at.
    fn for_host(host: f64) -> Result<Self, SynthError> {
        check_sample_rate(host)?;
        Ok(Self {
            host,
            factor: factor_for(host) as u64,
        })
    }

    /// The instrument's own rate, Hz.
    fn internal(self) -> f64 {
        self.host * self.factor as f64
    }
}

impl Drop for Synth {
    fn drop(&mut self) {
        self.link.stop();
    }
}
