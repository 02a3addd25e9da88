//! The realtime side of Orchard: the audio-rate voices, the mechanical worker
//! that plays them at control rate, the lock-free queues between them, and the
//! synthesiser that couples them in lock-step or realtime mode.

mod bus;
mod error;
mod event;
mod family;
mod mechanics;
mod ops;
mod oversampling;
mod sample_rate;
mod score;
mod synth;
mod triple_buffer;
mod view;
mod voices;
mod worker;

pub use bus::{mix, stereo_gains, write_bus};
pub use error::SynthError;
pub use event::{SynthEvent, TimedEvent};
pub use family::Family;
pub use mechanics::{Mechanics, Pedals};
pub use ops::{IMPACT_SITE_KEYS, Operation, Stamped, ToWorker};
pub use oversampling::{Decimator, MIN_INTERNAL_RATE_HZ, PASSBAND_EDGE};
pub use sample_rate::{SAMPLE_RATES_HZ, UnsupportedRate, check_sample_rate, parse_sample_rate};
pub use score::{Score, ScorePlayer};
pub use synth::{Counters, DEFAULT_RELEASE_VELOCITY, InstrumentLoader, RealtimeOptions, Synth};
pub use triple_buffer::{Publisher, Subscriber, triple_buffer};
pub use view::{
    ClockTrains, MAX_MECHANISM_POSITIONS, MIDI_KEYS, MechanicsView, MechanismSnapshot, MeterView,
    Views,
};
pub use voices::{CHUNK, Voices};
pub use worker::{CONTROL_RATE_HZ, Worker};

pub use crate::signal::SILENCE_LEVEL;
