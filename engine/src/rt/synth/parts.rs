//! What a synthesiser is made of but its link to the worker: the family's
//! voices and worker, and every queue between them, the loader and the editor.

use rtrb::{Consumer, Producer, RingBuffer};

use super::build::{build, build_room};
use super::loader::{InstrumentLoader, Prepared};
use crate::instrument::Preset;
use crate::room::Room;
use crate::rt::error::SynthError;
use crate::rt::family::Family;
use crate::rt::ops::{Operation, Stamped, ToWorker};
use crate::rt::triple_buffer::{Subscriber, triple_buffer};
use crate::rt::view::MechanicsView;
use crate::rt::voices::Voices;
use crate::rt::worker::WorkerHost;

/// Messages the audio thread may have in flight to the worker.
const COMMAND_QUEUE: usize = 4096;
/// Operations the worker may have in flight to the audio thread.
const OPERATION_QUEUE: usize = 8192;
/// Replaced instruments that may wait for the loader to free them.
const SWITCHES_IN_FLIGHT: usize = 8;

/// Everything a synthesiser is made of but its link to the worker.
pub(super) struct Parts {
    pub voices: Box<dyn Voices>,
    pub room: Option<Box<Room>>,
    pub preset: Preset,
    pub family: &'static str,
    pub mechanics: Subscriber<MechanicsView>,
    pub to_worker: Producer<Stamped<ToWorker>>,
    pub from_worker: Consumer<Stamped<Operation>>,
    pub instruments: Consumer<Box<Prepared>>,
    pub replaced: Producer<Box<Prepared>>,
    pub loader: InstrumentLoader,
}

impl Parts {
    /// The voices and worker of `preset`, and every queue between them, the
    /// loader and the editor.
    ///
    /// The voices and the worker run at `sample_rate` (Hz), the room at the
    /// host's `host_sample_rate`.
    pub fn new(
        family: &'static dyn Family,
        preset: &Preset,
        sample_rate: f64,
        host_sample_rate: f64,
        latency: u64,
    ) -> Result<(Self, WorkerHost), SynthError> {
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
            room: build_room(preset, host_sample_rate),
            preset: preset.clone(),
            family: family.name(),
            mechanics,
            to_worker,
            from_worker,
            instruments,
            replaced,
            loader: InstrumentLoader {
                sample_rate,
                host_sample_rate,
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
