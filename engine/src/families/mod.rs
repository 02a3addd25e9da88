//! Instrument families and the registry of them.
//!
//! A family is one folder: the object kinds only it plays (a grand's action,
//! a clock's movement: their specs, fields and checks), how its keys sound
//! (its [`Voices`]), what moves them (its [`Mechanics`], a model the
//! worker's scheduler advances), and its built-in presets. The synthesiser
//! knows families only through [`Family`]. Adding one takes its folder, its
//! preset file and one line in [`BUILTIN`]; a family defined elsewhere (a
//! plugin's, a test's) joins with [`register`], bringing its own object
//! kinds.
//!
//! The registry is the top of the engine: it reads presets (their tables
//! name object kinds the families declare: `preset_reading.rs`), checks that
//! a family plays them, and finds the family a synthesiser plays a preset
//! with (`synth_for.rs`).
//!
//! A preset names its family (`family = "grand-piano"`); one that names none
//! belongs to the first registered family that [`Family::fits`] it.
//!
//! [`Voices`]: crate::rt::Voices
//! [`Family`]: crate::rt::Family
//! [`Family::fits`]: crate::rt::Family::fits
//! [`Mechanics`]: crate::rt::Mechanics

pub mod celesta;
pub mod chiming_clock;
mod governed_wheel;
pub mod grand_piano;
mod live_properties;
pub mod mallet_bar;
pub mod music_box;
mod preset_reading;
mod registry;
mod synth_for;
mod thrown;

pub use governed_wheel::GovernedWheel;
pub use live_properties::{LiveProperties, field_of};
pub use registry::{BUILTIN, builtin_presets, families, family_of, object_kinds, register};
pub use thrown::ThrownStrikers;
