//! The instrument parameter's choices: the built-in presets of the
//! registered instrument families, read from the registry once.

use std::sync::OnceLock;

use nice_plug::prelude::Enum;
use orchard_engine::instrument::Preset;

/// An instrument a host can choose: one of the built-in presets of the
/// registered instrument families ([`orchard_engine::families`]), in registry
/// order. Hosts see each preset's display name; its preset name is the
/// stable id saved with projects.
///
/// The list is read from the registry once, when the host first asks: a
/// family registered later is not offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instrument(usize);

/// The built-in presets as the instrument parameter offers them.
struct Catalog {
    /// Display names (`Grand piano`).
    names: Vec<&'static str>,
    /// Preset names (`grand-piano`).
    ids: Vec<&'static str>,
}

/// The catalogue, read from the registry once per process (its strings live
/// as long as the process: hosts hold them).
fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let presets = orchard_engine::families::builtin_presets();
        let names = presets
            .iter()
            .map(|&(id, text)| {
                let name = Preset::from_toml(text).map_or_else(|_| id.to_string(), |p| p.name);
                &*Box::leak(name.into_boxed_str())
            })
            .collect();
        let ids = presets.iter().map(|&(id, _)| id).collect();
        Catalog { names, ids }
    })
}

impl Instrument {
    /// The first built-in preset: the grand piano.
    pub const DEFAULT: Self = Self(0);

    /// The built-in preset's name.
    pub fn preset_name(self) -> &'static str {
        catalog().ids[self.0]
    }

    /// The names hosts show for every choice, in order.
    pub fn names() -> &'static [&'static str] {
        &catalog().names
    }

    /// The built-in preset called `name`, if there is one.
    pub fn named(name: &str) -> Option<Self> {
        catalog().ids.iter().position(|&id| id == name).map(Self)
    }
}

impl Enum for Instrument {
    fn variants() -> &'static [&'static str] {
        &catalog().names
    }

    fn ids() -> Option<&'static [&'static str]> {
        Some(&catalog().ids)
    }

    fn to_index(self) -> usize {
        self.0
    }

    fn from_index(index: usize) -> Self {
        Self(if index < catalog().ids.len() {
            index
        } else {
            0
        })
    }
}
