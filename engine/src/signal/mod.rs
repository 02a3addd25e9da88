//! What every layer that makes or carries sound agrees on about the signal:
//! the level below which it counts as silence, and the subnormal numbers
//! flushed to zero around the DSP ([`FlushDenormals`]).

mod denormals;

pub use denormals::FlushDenormals;

/// Output level below which a voice or a room's input counts as silent:
/// −120 dBFS.
pub const SILENCE_LEVEL: f64 = 1e-6;
