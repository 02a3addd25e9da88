//! MIDI files and performances in seconds: Standard MIDI Files read into
//! scores ([`read`], [`parse`]), scores in seconds ([`Score`]), the meaning of
//! MIDI channel messages to the synthesiser ([`event_of`], [`event_of_bytes`],
//! [`message_of`]), and synthesiser events written back to a file
//! ([`smf_bytes`]). The renderer, the standalone app's player and recorder,
//! and the Python package share them.

mod file;
mod message;
mod score;
mod write;

pub use file::{MAX_MIDI_BYTES, parse, read};
pub use message::{event_of, event_of_bytes, message_of};
pub use score::{Score, ScoreEvent};
pub use write::{TEMPO_US, TICKS_PER_QUARTER, TICKS_PER_SECOND, smf_bytes};
