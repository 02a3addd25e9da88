//! Instruments: what a preset describes, and the voices built from it.

mod key_params;
mod preset;
mod voice;

pub use key_params::KeyParams;
pub use preset::{
    Anchor, DamperSpec, HammerSpec, Keyboard, OutputSpec, Preset, PresetError, SoundboardSpec,
    Tuning, UnisonSpec, VelocityMap,
};
pub use voice::{StrikeReport, StruckString, VoiceError};
