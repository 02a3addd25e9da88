//! Instruments: what a preset describes, and the voices built from it.

mod bar;
mod bar_fittings;
pub(crate) mod contact;
mod contact_log;
mod modal_voice;
mod preset;
mod rebound;
pub(crate) mod strike;
mod tuning;
mod velocity_curve;

pub use bar::{BarError, BarParams, MalletBar, ModesBranch, PointMode, Striker, modes_in_series};
pub use bar_fittings::{BarFittings, HelmholtzBox};
pub use contact_log::ContactLog;
pub use modal_voice::{ModalTree, ModalVoice};
pub use preset::{
    AnchorFields, AnchorList, Anchored, BarEnds, BarSet, Bound, Checker, ComponentInfo,
    DEFAULT_PRESET_TOML, Field, Fields, HammerAnchor, HammerSet, Instrument, Keyboard,
    LOSSLESS_FELT, Link, MAX_BAR_MODES, MAX_PRESET_BYTES, MICROPHONES, NamedObject, ObjectData,
    ObjectKind, ObjectSpec, Objects, OutputSpec, Preset, PresetError, PropertyEdit, Read, RoomSpec,
    SHARED_KINDS, StrikeAnchor, StrikePart, StrikeSpec, StringAnchor, StringSet, Topology,
    UNRELAXING_FELT, case, fundamental_hz, value_at,
};
pub use rebound::Rebound;
pub use strike::{ContactTrace, PULSE_DIP_FRACTION, StrikeReport};
pub use tuning::files as tuning_files;
pub use tuning::{
    KeyMap, Scale, StretchedTuning, Temperament, note_name, octave_widening_cents, parse_note_name,
    parse_pitch_class, pitch_class_name,
};
pub use velocity_curve::VelocityCurve;
