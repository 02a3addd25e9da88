//! Instrument families and the registry of them.
//!
//! A family is one folder: how its keys sound (its [`Voices`]), what moves
//! them (its [`Mechanics`], a model the worker's scheduler advances), and its
//! built-in presets. The synthesiser knows families only through
//! [`Family`]. Adding one takes its folder, its preset file and one line in
//! [`BUILTIN`]; a family defined elsewhere (a plugin's, a test's) joins with
//! [`register`].
//!
//! A preset names its family (`family = "grand-piano"`); one that names none
//! belongs to the first registered family that [`Family::fits`] it.
//!
//! [`Voices`]: crate::rt::Voices
//! [`Mechanics`]: crate::rt::Mechanics

pub mod celesta;
pub mod chiming_clock;
mod governed_wheel;
pub mod grand_piano;
mod live_properties;
pub mod mallet_bar;
pub mod music_box;
mod thrown;

pub use governed_wheel::GovernedWheel;
pub use live_properties::{LiveProperties, field_of};
pub use thrown::ThrownStrikers;

use std::sync::RwLock;

use crate::instrument::Preset;
use crate::rt::{Family, SynthError};

/// The families built into every binary, in the order hosts list their presets.
pub const BUILTIN: &[&dyn Family] = &[
    &grand_piano::GrandPiano,
    &mallet_bar::MalletBars,
    &chiming_clock::ChimingClock,
    &music_box::MusicBox,
    &celesta::Celesta,
];

/// Families registered at run time, after the built-in ones.
static REGISTERED: RwLock<Vec<&'static dyn Family>> = RwLock::new(Vec::new());

/// Adds `family` to the registry (after the built-in families and those
/// registered before), unless a family of that name is known already.
/// Returns whether it was added.
pub fn register(family: &'static dyn Family) -> bool {
    let mut registered = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    if BUILTIN
        .iter()
        .chain(registered.iter())
        .any(|known| known.name() == family.name())
    {
        return false;
    }
    registered.push(family);
    true
}

/// Every family known: the built-in ones, then those registered.
pub fn families() -> Vec<&'static dyn Family> {
    let registered = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    BUILTIN
        .iter()
        .copied()
        .chain(registered.iter().copied())
        .collect()
}

/// The family of `preset`: the one it names, else the first that fits it.
pub fn family_of(preset: &Preset) -> Result<&'static dyn Family, SynthError> {
    let known = families();
    let found = match &preset.family {
        Some(name) => known.iter().find(|family| family.name() == name),
        None => known.iter().find(|family| family.fits(preset)),
    };
    found.copied().ok_or_else(|| {
        let names: Vec<_> = known.iter().map(|family| family.name()).collect();
        SynthError::Family(match &preset.family {
            Some(name) => format!(
                "no instrument family `{}` (known: {})",
                crate::input::excerpt(name),
                names.join(", ")
            ),
            None => format!(
                "the preset names no family and none fits its objects (known: {})",
                names.join(", ")
            ),
        })
    })
}

/// Every built-in preset of every family known: (name, TOML text), each
/// family's first in registry order, then each family's second, and so on:
/// a preset added to a family comes after the ones there were (hosts number
/// the instrument choices in this order).
pub fn builtin_presets() -> Vec<(&'static str, &'static str)> {
    let mut ranked: Vec<(usize, usize, (&'static str, &'static str))> = families()
        .iter()
        .enumerate()
        .flat_map(|(f, family)| {
            family
                .presets()
                .iter()
                .enumerate()
                .map(move |(rank, &preset)| (rank, f, preset))
        })
        .collect();
    ranked.sort_by_key(|&(rank, family, _)| (rank, family));
    ranked.into_iter().map(|(.., preset)| preset).collect()
}
