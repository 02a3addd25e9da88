//! The audio-thread side of Orchard: a synthesiser that turns note events into
//! sound, allocating nothing after it is prepared.

mod event;
mod synth;

pub use event::{SynthEvent, TimedEvent};
pub use synth::{Synth, SynthError};
