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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use rtrb::{Consumer, Producer, RingBuffer};

use super::denormals::FlushDenormals;
use super::family::Family;
use super::ops::{Operation, Stamped, ToWorker};
use super::triple_buffer::{Publisher, Subscriber, triple_buffer};
use super::view::{MIDI_KEYS, MechanicsView, MeterView, Views};
use super::voices::{CHUNK, SynthError, Voices, check_sample_rate};
use super::worker::{CONTROL_RATE_HZ, Worker, WorkerHost};
use super::{SynthEvent, TimedEvent};
use crate::analysis::{peak, rms};
use crate::families::family_of;
use crate::instrument::{ContactTrace, Preset, StrikeReport};

mod handover;
mod inspect;

use handover::Handover;

/// Release velocity of a note-off that carries none (MIDI's 64 of 127).
pub const DEFAULT_RELEASE_VELOCITY: f32 = 0.5;

/// Messages the audio thread may have in flight to the worker.
const COMMAND_QUEUE: usize = 4096;
/// Operations the worker may have in flight to the audio thread.
const OPERATION_QUEUE: usize = 8192;
/// Control periods between two measurements of the strings' energy (the
/// editor's view rate, about 60 per second).
const ENERGY_REPORTS_EVERY_STEPS: u64 = 50;
/// Replaced instruments that may wait for the loader to free them.
const SWITCHES_IN_FLIGHT: usize = 8;
/// How long an idle worker thread sleeps before looking for messages again.
const WORKER_POLL: Duration = Duration::from_micros(250);

/// How the realtime worker is set up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RealtimeOptions {
    /// Samples between a control step and its operations: the time the worker
    /// has to answer. At least two audio blocks.
    pub latency: u64,
    /// For tests: the worker stalls once for this long when the audio has
    /// rendered past the given sample, as if the machine had paused it.
    pub stall: Option<(u64, Duration)>,
}

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

/// Where the worker runs.
enum Link {
    /// Inline, stepped at each control sample.
    LockStep {
        host: WorkerHost,
        /// Samples per control period.
        period: u64,
    },
    /// On its own thread.
    Realtime {
        stop: Arc<AtomicBool>,
        thread: Option<JoinHandle<()>>,
    },
}

/// A new instrument's audio side, prepared off the audio thread.
struct Prepared {
    voices: Box<dyn Voices>,
    preset: Preset,
    /// Its family's name: a live install needs the same family.
    family: &'static str,
    /// Whether it should carry on what the running instrument is playing, if
    /// the shapes agree ([`InstrumentLoader::load_live`]).
    live: bool,
}

/// Loads other instruments into a running synthesiser without the audio
/// thread allocating or freeing: [`InstrumentLoader::load`] and
/// [`InstrumentLoader::load_live`] build the voices and the worker here, the
/// audio thread swaps them in at the start of its next block, and the replaced
/// ones come back here to be freed ([`InstrumentLoader::collect`]).
pub struct InstrumentLoader {
    sample_rate: f64,
    latency: u64,
    instruments: Producer<Box<Prepared>>,
    workers: Producer<Box<Worker>>,
    replaced: Consumer<Box<Prepared>>,
    retired: Consumer<Box<Worker>>,
}

impl std::fmt::Debug for InstrumentLoader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InstrumentLoader")
            .field("sample_rate", &self.sample_rate)
            .finish_non_exhaustive()
    }
}

impl InstrumentLoader {
    /// Builds `preset` for the synthesiser and queues it; it starts sounding at
    /// the next block (everything playing stops; the pedals and held keys
    /// stay). Fails if the preset cannot be built, or if the last instrument
    /// loaded has not been installed yet.
    ///
    /// Allocates: the new instrument (call it off the audio thread).
    pub fn load(&mut self, preset: &Preset) -> Result<(), SynthError> {
        self.prepare(preset, false)
    }

    /// Builds `preset`, an edit of the running instrument (other tuning,
    /// losses, hammers, gains…), and queues it to take over at the next block
    /// with everything sounding carrying on: the audio thread moves every
    /// key's waves, dampers, hammers in flight and the soundboard's ringing
    /// into the new voices ([`Voices::continue_from`]), and the new worker
    /// carries on the keys, pedals and hammers of the old
    /// ([`Action::continue_motion_from`](crate::families::grand_piano::action::Action::continue_motion_from)).
    /// The edit sounds from that block on, on the notes already sounding too.
    ///
    /// When the shapes differ (another family, other keys, another number of
    /// strings on a key, other bar modes, a soundboard added or removed, a
    /// different number of shared hammers), it is a switch as
    /// [`InstrumentLoader::load`] makes. Fails as `load` does.
    ///
    /// Allocates: the new instrument (call it off the audio thread); the
    /// install allocates nothing.
    pub fn load_live(&mut self, preset: &Preset) -> Result<(), SynthError> {
        self.prepare(preset, true)
    }

    /// Builds `preset`'s voices and worker and queues them, to carry on the
    /// running instrument's sound if `live`.
    fn prepare(&mut self, preset: &Preset, live: bool) -> Result<(), SynthError> {
        self.collect();
        if self.instruments.is_full() || self.workers.is_full() {
            return Err(SynthError::SwitchPending);
        }
        let family = family_of(preset)?;
        let (voices, worker) = build(family, preset, self.sample_rate, self.latency)?;
        // The worker first: the audio thread announces the switch to the
        // worker only once it has taken the voices.
        if self.workers.push(worker).is_err() {
            return Err(SynthError::SwitchPending);
        }
        let prepared = Box::new(Prepared {
            voices,
            preset: preset.clone(),
            family: family.name(),
            live,
        });
        self.instruments
            .push(prepared)
            .map_err(|_| SynthError::SwitchPending)
    }

    /// Frees the instruments the synthesiser has replaced.
    pub fn collect(&mut self) {
        while self.replaced.pop().is_ok() {}
        while self.retired.pop().is_ok() {}
    }
}

/// The instrument, playable from any thread that owns it.
///
/// Lifecycle: [`Synth::new`] and [`Synth::realtime`] allocate everything; after
/// that, playing, [`Synth::process`] and [`Synth::reset`] never allocate, lock
/// or panic, and may run on the audio thread. In lock-step mode that includes
/// the worker's steps, which run inside `process`.
pub struct Synth {
    voices: Box<dyn Voices>,
    preset: Preset,
    /// Its family's name: a live install needs the same family.
    family: &'static str,
    sample_rate: f64,
    /// Samples rendered since preparation.
    now: u64,
    /// Reset epoch: operations of older epochs are dropped.
    epoch: u32,
    to_worker: Producer<Stamped<ToWorker>>,
    from_worker: Consumer<Stamped<Operation>>,
    link: Link,
    late_operations: u64,
    dropped_commands: u64,
    /// Samples between a command and its earliest operation.
    latency: u64,
    /// Instruments to switch to, from the loader.
    instruments: Consumer<Box<Prepared>>,
    /// Replaced instruments, back to the loader.
    replaced: Producer<Box<Prepared>>,
    /// The crossfade from the instrument a live install replaced.
    handover: Handover,
    /// The loader's end, until taken.
    loader: Option<InstrumentLoader>,
    /// Samples between two measurements of the strings' energy.
    energy_interval: u64,
    /// The sample of the next measurement.
    next_energy_report: u64,
    /// The strings' energy per MIDI key at the last measurement, J.
    string_energy: [f32; MIDI_KEYS],
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
    /// `preset` at `sample_rate` (Hz) in lock-step mode, with no latency.
    ///
    /// Allocates: every voice, the worker and the queues.
    pub fn new(preset: &Preset, sample_rate: f64) -> Result<Self, SynthError> {
        Self::lock_step(preset, sample_rate, 0)
    }

    /// `preset` at `sample_rate` (Hz) in lock-step mode, its operations
    /// `latency` samples after the control step that makes them (as a realtime
    /// synthesiser with that latency would apply them).
    ///
    /// Allocates: every voice, the worker and the queues.
    pub fn lock_step(preset: &Preset, sample_rate: f64, latency: u64) -> Result<Self, SynthError> {
        let (parts, host) = Parts::new(preset, sample_rate, latency)?;
        let period = (sample_rate / CONTROL_RATE_HZ).round().max(1.0) as u64;
        Ok(Self::assemble(parts, Link::LockStep { host, period }))
    }

    /// `preset` at `sample_rate` (Hz) in realtime mode: the worker runs on a
    /// thread of its own until the synthesiser is dropped.
    ///
    /// Allocates: every voice, the worker, the queues and the thread.
    pub fn realtime(
        preset: &Preset,
        sample_rate: f64,
        options: RealtimeOptions,
    ) -> Result<Self, SynthError> {
        let (parts, mut host) = Parts::new(preset, sample_rate, options.latency)?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let mut stall = options.stall;
        let thread = std::thread::Builder::new()
            .name("orchard-mechanics".into())
            .spawn(move || {
                while !stopped.load(Ordering::Acquire) {
                    host.drain(|message| {
                        if let (Some((after, pause)), ToWorker::Clock) = (stall, message.item)
                            && message.at > after
                        {
                            std::thread::sleep(pause);
                            stall = None;
                        }
                    });
                    std::thread::park_timeout(WORKER_POLL);
                }
            })
            .map_err(|e| SynthError::Worker(e.to_string()))?;
        Ok(Self::assemble(
            parts,
            Link::Realtime {
                stop,
                thread: Some(thread),
            },
        ))
    }

    fn assemble(parts: Parts, link: Link) -> Self {
        let (meters, meters_view) = triple_buffer(MeterView::default());
        Self {
            voices: parts.voices,
            preset: parts.preset,
            family: parts.family,
            sample_rate: parts.loader.sample_rate,
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
            string_energy: [0.0; MIDI_KEYS],
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

    /// The preset it plays.
    pub fn preset(&self) -> &Preset {
        &self.preset
    }

    /// Samples from a command to its earliest effect (0 in lock-step mode).
    pub fn latency(&self) -> u64 {
        self.latency
    }

    /// Samples rendered so far.
    pub fn samples_rendered(&self) -> u64 {
        self.now
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

    /// Energy of the waves on `key`'s strings now, J (0 while they are at
    /// rest, and for keys without strings).
    pub fn string_energy_j(&self, key: u8) -> f64 {
        self.voices.resonator_energy_j(key)
    }

    /// The strings `key`'s current (or last) strike hit, bit `i` for string `i`
    /// (`None` for keys without strings).
    pub fn struck_strings(&self, key: u8) -> Option<u8> {
        self.voices.struck_strings(key)
    }

    /// Whether any voice is sounding or the soundboard ringing.
    pub fn is_active(&self) -> bool {
        self.voices.is_active()
    }

    /// Applies one event now (the worker reads a note-on of velocity 0 or NaN
    /// as a note-off, as MIDI does).
    pub fn apply(&mut self, event: SynthEvent) {
        match event {
            SynthEvent::AllSoundOff => self.reset(),
            other => self.send(ToWorker::Perform(other)),
        }
    }

    /// Silences everything at once: voices at rest, and the action and pedals
    /// at rest from the next control step. Operations already on their way are
    /// dropped.
    pub fn reset(&mut self) {
        if let Some(old) = self.handover.cancel() {
            self.retire(old);
        }
        self.voices.reset();
        self.epoch = self.epoch.wrapping_add(1);
        self.send(ToWorker::Reset);
        while self.from_worker.pop().is_ok() {}
    }

    /// Renders `left.len()` samples (the shorter of the two slices) into `left`
    /// and `right`, overwriting them.
    pub fn process(&mut self, left: &mut [f32], right: &mut [f32]) {
        self.render(left, right);
        self.finish_block(left, right);
    }

    /// Renders without telling a realtime worker how far the audio has come.
    fn render(&mut self, left: &mut [f32], right: &mut [f32]) {
        let frames = left.len().min(right.len());
        self.install_prepared_instrument();
        let _denormals = FlushDenormals::new();
        let mut done = 0;
        while done < frames {
            self.step_lock_step_worker();
            self.apply_due_operations();
            self.measure_string_energies();
            let mut n = (frames - done).min(CHUNK);
            if let Link::LockStep { period, .. } = &self.link {
                n = n.min((period - self.now % period) as usize);
            }
            if let Ok(next) = self.from_worker.peek()
                && next.at > self.now
            {
                n = n.min((next.at - self.now) as usize);
            }
            let (now, epoch) = (self.now, self.epoch);
            let (to_worker, dropped) = (&mut self.to_worker, &mut self.dropped_commands);
            self.voices.render(
                &mut left[done..done + n],
                &mut right[done..done + n],
                &mut |key, frame, how| {
                    let rebound = Stamped {
                        at: now + frame as u64,
                        epoch,
                        item: ToWorker::Rebound {
                            key,
                            speed_m_s: how.speed_m_s,
                            peak_force_n: how.peak_force_n,
                        },
                    };
                    if to_worker.push(rebound).is_err() {
                        *dropped += 1;
                    }
                },
            );
            if let Some(old) = self
                .handover
                .crossfade(&mut left[done..done + n], &mut right[done..done + n])
            {
                self.retire(old);
            }
            done += n;
            self.now += n as u64;
        }
    }

    /// After a block: publishes the meters, and tells a realtime worker how
    /// far the audio has come.
    fn finish_block(&mut self, left: &[f32], right: &[f32]) {
        let frames = left.len().min(right.len());
        let level = |x: &[f32]| (peak(x) as f32, rms(x) as f32);
        let ((peak_l, rms_l), (peak_r, rms_r)) = (level(&left[..frames]), level(&right[..frames]));
        let counters = self.counters();
        let (samples, sounding_keys) = (self.now, self.voices.sounding_keys());
        let string_energy = &self.string_energy;
        self.meters.publish_with(|m| {
            m.samples = samples;
            m.peak = [peak_l, peak_r];
            m.rms = [rms_l, rms_r];
            m.sounding_keys = sounding_keys;
            m.late_operations = counters.late_operations;
            m.non_finite_resets = counters.non_finite_resets;
            m.string_energy_j = *string_energy;
        });
        self.clock_realtime_worker();
    }

    /// In realtime mode, after a block: every message before now has been sent,
    /// so the worker may step up to now. The worker finds it at its next poll
    /// (within `WORKER_POLL`); waking it would be a system call on the audio
    /// thread.
    fn clock_realtime_worker(&mut self) {
        if matches!(self.link, Link::Realtime { .. }) {
            self.send(ToWorker::Clock);
        }
    }

    /// In lock-step mode at a control sample: the worker handles every message
    /// so far and steps its grid up to this sample.
    fn step_lock_step_worker(&mut self) {
        let Link::LockStep { host, period } = &mut self.link else {
            return;
        };
        if !self.now.is_multiple_of(*period) {
            return;
        }
        let clock = Stamped {
            at: self.now + 1,
            epoch: self.epoch,
            item: ToWorker::Clock,
        };
        if self.to_worker.push(clock).is_err() {
            self.dropped_commands += 1;
        }
        host.drain(|_| {});
    }

    /// About 60 times a second: measures the energy on the strings of every
    /// sounding key, for the meters.
    fn measure_string_energies(&mut self) {
        // Nobody has taken the views: nobody reads the energies.
        if self.views.is_some() || self.now < self.next_energy_report {
            return;
        }
        self.next_energy_report = self.now + self.energy_interval;
        let energies = &mut self.string_energy;
        energies.fill(0.0);
        self.voices.resonator_energies(&mut |key, joules| {
            energies[usize::from(key)] = joules as f32;
        });
    }

    /// At the start of a block: installs an instrument the loader prepared. A
    /// live one of the running instrument's shape carries on everything
    /// sounding, the worker's operations on their way stay valid, and the
    /// output crossfades from the old voices for [`handover::HANDOVER_S`]
    /// (an instrument loaded meanwhile waits for the crossfade to end);
    /// otherwise everything playing stops and a new epoch begins. The old
    /// instrument goes back to the loader.
    fn install_prepared_instrument(&mut self) {
        if self.handover.is_active() {
            return;
        }
        let Ok(mut next) = self.instruments.pop() else {
            return;
        };
        let live = next.live
            && next.family == self.family
            && next.voices.continue_from(self.voices.as_ref());
        std::mem::swap(&mut self.voices, &mut next.voices);
        std::mem::swap(&mut self.preset, &mut next.preset);
        std::mem::swap(&mut self.family, &mut next.family);
        if !live {
            self.epoch = self.epoch.wrapping_add(1);
        }
        self.send(ToWorker::Install { live });
        if live {
            if let Some(older) = self.handover.begin(next) {
                self.retire(older);
            }
        } else {
            while self.from_worker.pop().is_ok() {}
            self.retire(next);
        }
    }

    /// Sends a replaced instrument back to the loader to be freed.
    fn retire(&mut self, old: Box<Prepared>) {
        if let Err(rtrb::PushError::Full(old)) = self.replaced.push(old) {
            // Never free on the audio thread: keep the memory instead.
            std::mem::forget(old);
        }
    }

    /// Carries out an operation now, on the voices and on those a handover
    /// is crossfading from.
    fn apply_operation(&mut self, operation: Operation) {
        self.voices.apply(operation);
        self.handover.apply(operation);
    }

    /// Applies every operation stamped up to now; those stamped before now are
    /// late.
    fn apply_due_operations(&mut self) {
        while let Ok(op) = self.from_worker.peek() {
            if op.at > self.now {
                break;
            }
            let op = *op;
            let _ = self.from_worker.pop();
            if op.epoch != self.epoch {
                continue;
            }
            if op.at < self.now {
                self.late_operations += 1;
            }
            self.apply_operation(op.item);
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
                self.render(&mut left[done..at], &mut right[done..at]);
                done = at;
            }
            self.apply(event);
        }
        self.render(&mut left[done..frames], &mut right[done..frames]);
        self.finish_block(left, right);
    }
}

impl Drop for Synth {
    fn drop(&mut self) {
        if let Link::Realtime { stop, thread } = &mut self.link {
            stop.store(true, Ordering::Release);
            if let Some(thread) = thread.take() {
                thread.thread().unpark();
                let _ = thread.join();
            }
        }
    }
}

/// Everything a synthesiser is made of but its link to the worker.
struct Parts {
    voices: Box<dyn Voices>,
    preset: Preset,
    family: &'static str,
    mechanics: Subscriber<MechanicsView>,
    to_worker: Producer<Stamped<ToWorker>>,
    from_worker: Consumer<Stamped<Operation>>,
    instruments: Consumer<Box<Prepared>>,
    replaced: Producer<Box<Prepared>>,
    loader: InstrumentLoader,
}

impl Parts {
    /// The voices and worker of `preset`, and every queue between them, the
    /// loader and the editor.
    fn new(
        preset: &Preset,
        sample_rate: f64,
        latency: u64,
    ) -> Result<(Self, WorkerHost), SynthError> {
        let family = family_of(preset)?;
        let (voices, mut worker) = build(family, preset, sample_rate, latency)?;
        let (mechanics_publisher, mechanics) = triple_buffer(MechanicsView::default());
        worker.publish_view_to(mechanics_publisher);
        let (to_worker, commands) = RingBuffer::new(COMMAND_QUEUE);
        let (operations, from_worker) = RingBuffer::new(OPERATION_QUEUE);
        let (workers, installs) = RingBuffer::new(1);
        let (retired_in, retired) = RingBuffer::new(SWITCHES_IN_FLIGHT);
        let (instruments_in, instruments) = RingBuffer::new(1);
        let (replaced, replaced_out) = RingBuffer::new(SWITCHES_IN_FLIGHT);
        let host = WorkerHost {
            worker,
            commands,
            operations,
            installs,
            retired: retired_in,
        };
        let parts = Self {
            voices,
            preset: preset.clone(),
            family: family.name(),
            mechanics,
            to_worker,
            from_worker,
            instruments,
            replaced,
            loader: InstrumentLoader {
                sample_rate,
                latency,
                instruments: instruments_in,
                workers,
                replaced: replaced_out,
                retired,
            },
        };
        Ok((parts, host))
    }
}

/// `preset`'s voices and worker, as `family` builds them, at `sample_rate`
/// (Hz); the worker's operations come `latency` samples after the control
/// step that makes them.
fn build(
    family: &dyn Family,
    preset: &Preset,
    sample_rate: f64,
    latency: u64,
) -> Result<(Box<dyn Voices>, Box<Worker>), SynthError> {
    check_sample_rate(sample_rate)?;
    let voices = family.voices(preset, sample_rate)?;
    let worker = Box::new(Worker::new(family.mechanics(preset), sample_rate, latency));
    Ok((voices, worker))
}
