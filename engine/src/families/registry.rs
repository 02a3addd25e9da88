//! The registry of families: the built-in ones and those registered at run
//! time, each with its object kinds and built-in presets.

use std::sync::RwLock;

use super::{celesta, chiming_clock, grand_piano, mallet_bar, music_box};
use crate::instrument::{ObjectKind, Preset, SHARED_KINDS};
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

/// Every object kind a preset may list, in the order presets list them: the
/// shared kinds, then each known family's own.
pub fn object_kinds() -> Vec<ObjectKind> {
    let mut kinds = SHARED_KINDS.to_vec();
    for family in families() {
        for kind in family.object_kinds() {
            if !kinds.iter().any(|known| known.table == kind.table) {
                kinds.push(*kind);
            }
        }
    }
    kinds
}
