//! Instruments: what a preset describes, and the voices built from it.

mod key_params;
mod preset;
mod strike;
mod voice;

pub use key_params::KeyParams;
pub use preset::{
    Anchor, DamperSpec, HammerSpec, Keyboard, OutputSpec, Preset, PresetError, Tuning, VelocityMap,
};
pub use strike::{ContactTrace, PULSE_DIP_FRACTION, StrikeReport};
pub use voice::{StruckString, VoiceError};
