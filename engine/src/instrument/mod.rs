//! Instruments: what a preset describes, and the voices built from it.

mod bar;
mod key_params;
mod preset;
mod strike;
mod tuning;
mod voice;

pub use bar::{BarError, BarPreset, MalletBar};
pub use key_params::KeyParams;
pub use preset::{
    Anchor, DamperSpec, HammerSpec, Keyboard, OutputSpec, Preset, PresetError, SoundboardSpec,
    Tuning, UnisonSpec, VelocityMap,
};
pub use strike::{ContactTrace, PULSE_DIP_FRACTION, StrikeReport};
pub use tuning::{StretchedTuning, octave_widening_cents};
pub use voice::{StruckString, VoiceError};
