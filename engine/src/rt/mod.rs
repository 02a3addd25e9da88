//! The realtime side of Orchard: the audio-rate voices, the mechanical worker
//! that plays them at control rate, the lock-free queues between them, and the
//! synthesiser that couples them in lock-step or realtime mode.

mod denormals;
mod event;
mod ops;
mod score;
mod synth;
mod triple_buffer;
mod view;
mod voices;
mod worker;

pub use denormals::FlushDenormals;
pub use event::{SynthEvent, TimedEvent};
pub use ops::{Operation, Stamped, ToWorker};
pub use score::{Score, ScorePlayer};
pub use synth::{Counters, DEFAULT_RELEASE_VELOCITY, InstrumentLoader, RealtimeOptions, Synth};
pub use triple_buffer::{Publisher, Subscriber, triple_buffer};
pub use view::{MIDI_KEYS, MechanicsView, MeterView, Views};
pub use voices::{SynthError, Voices};
pub use worker::{CONTROL_RATE_HZ, Worker};
