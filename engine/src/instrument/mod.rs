//! Instruments: what a preset describes, and the voices built from it.

mod bar;
mod bar_fittings;
mod contact;
mod contact_log;
mod hammer_pool;
mod key_params;
mod preset;
mod strike;
mod string_key;
mod tuning;
mod velocity_curve;
mod voice;
mod voice_error;

pub use bar::{BarError, BarParams, MalletBar, ModesBranch, PointMode, Striker, modes_in_series};
pub use bar_fittings::{BarFittings, HelmholtzBox};
pub use contact_log::ContactLog;
pub use hammer_pool::{HammerPool, SHARED_HAMMERS};
pub use key_params::KeyParams;
pub use preset::{
    About, AnchorFields, AnchorList, Anchored, BarEnds, BarSet, Checker, ComponentInfo,
    DEFAULT_PRESET_TOML, Field, Fields, HammerAnchor, HammerSet, Instrument, Keyboard,
    LOSSLESS_FELT, Link, MAX_BAR_MODES, MAX_PRESET_BYTES, MICROPHONES, ObjectData, ObjectKind,
    ObjectSpec, Objects, OutputSpec, Preset, PresetError, PropertyEdit, PropertyInfo, Read,
    RoomSpec, SHARED_KINDS, StrikeAnchor, StrikePart, StrikeRange, StrikeSpec, StringAnchor,
    StringSet, Topology, UNRELAXING_FELT, ValueKind, check_case, fundamental_hz, value_at,
};
pub use strike::{ContactTrace, PULSE_DIP_FRACTION, StrikeReport};
pub use string_key::{Rebound, StringKey};
pub use tuning::files as tuning_files;
pub use tuning::{
    KeyMap, Scale, StretchedTuning, Temperament, note_name, octave_widening_cents, parse_note_name,
    parse_pitch_class, pitch_class_name,
};
pub use velocity_curve::VelocityCurve;
pub use voice::StruckString;
pub use voice_error::VoiceError;
