//! The factory presets: Orchard's own sounds, as hosts list them (CLAP
//! preset discovery) and the editor's browser offers them.
//!
//! Each built-in instrument at its defaults comes first, in the instrument
//! parameter's order; then voicings of them, each a user preset file shipped
//! in `presets/factory/` (the same format as the user's own, so loading one
//! takes the same path).

use std::sync::OnceLock;

use nice_plug::prelude::Enum;
use orchard_engine::instrument::Preset;

use crate::host_params::Instrument;
use crate::user_preset::{self, PRESET_FORMAT, UserPreset};

/// One factory preset.
#[derive(Debug, Clone, PartialEq)]
pub struct FactoryPreset {
    /// Its permanent id: the load key hosts keep (`grand-piano`, `bright-grand`).
    pub id: &'static str,
    /// The name hosts and the browser show.
    pub name: String,
    /// One sentence on how it sounds and what it is built from.
    pub description: String,
    /// Keywords for a host's preset browser (`piano`, `mallets`, `clock`).
    pub features: &'static [&'static str],
    /// What loading it sets.
    pub preset: UserPreset,
}

/// A voicing of a built-in instrument: (id, name, description, file text).
type Voicing = (&'static str, &'static str, &'static str, &'static str);

/// The voicings, after the built-in instruments. Their values are explained
/// in docs/plugin.md ("Factory presets").
const VOICINGS: &[Voicing] = &[
    (
        "bright-grand",
        "Bright grand",
        "The grand voiced up: hammer felt four times as stiff (a shorter blow) \
         and high partials damped less",
        include_str!("../../presets/factory/bright-grand.orchard.json"),
    ),
    (
        "mellow-grand",
        "Mellow grand",
        "The grand voiced down: hammer felt a quarter as stiff (a longer blow) \
         and high partials damped more",
        include_str!("../../presets/factory/mellow-grand.orchard.json"),
    ),
];

/// Keywords for a family's presets.
fn features_of(family: &str) -> &'static [&'static str] {
    match family {
        "grand-piano" => &["instrument", "piano", "acoustic"],
        "mallet-bar" => &["instrument", "mallets", "percussion"],
        "chiming-clock" => &["instrument", "clock", "bells"],
        "music-box" => &["instrument", "music-box", "plucked"],
        "celesta" => &["instrument", "celesta", "keys"],
        _ => &["instrument"],
    }
}

/// The built-in instrument `instrument` at its defaults.
fn builtin(instrument: Instrument) -> FactoryPreset {
    let id = instrument.preset_name();
    let text = orchard_engine::families::builtin_presets()
        .into_iter()
        .find(|&(name, _)| name == id)
        .map(|(_, text)| text);
    let parsed = text.and_then(|text| Preset::from_toml(text).ok());
    let family = parsed.as_ref().and_then(|p| p.family.clone());
    FactoryPreset {
        id,
        name: Instrument::names()[instrument.to_index()].to_string(),
        description: parsed.map(|p| p.description).unwrap_or_default(),
        features: features_of(family.as_deref().unwrap_or(id)),
        preset: UserPreset {
            format: PRESET_FORMAT,
            instrument: id.to_string(),
            parameters: Default::default(),
            edits: Vec::new(),
        },
    }
}

/// Every factory preset: the built-in instruments, then the voicings (a
/// voicing whose file does not parse is left out; a test checks none is).
pub fn all() -> &'static [FactoryPreset] {
    static ALL: OnceLock<Vec<FactoryPreset>> = OnceLock::new();
    ALL.get_or_init(|| {
        let builtins =
            (0..Instrument::variants().len()).map(|i| builtin(Instrument::from_index(i)));
        let voicings = VOICINGS
            .iter()
            .filter_map(|&(id, name, description, text)| {
                let preset = user_preset::parse(text).ok()?;
                let base = Instrument::named(&preset.instrument).map(builtin)?;
                Some(FactoryPreset {
                    id,
                    name: name.to_string(),
                    description: description.to_string(),
                    features: base.features,
                    preset,
                })
            });
        builtins.chain(voicings).collect()
    })
}

/// The factory preset with this id.
pub fn named(id: &str) -> Option<&'static FactoryPreset> {
    all().iter().find(|preset| preset.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::OrchardParams;

    /// Every voicing ships, loads without a warning, and has an id of its
    /// own; the built-in instruments come first, in the parameter's order.
    #[test]
    fn every_factory_preset_loads_cleanly() {
        let all = all();
        let builtins = Instrument::variants().len();
        assert_eq!(all.len(), builtins + VOICINGS.len());
        for (i, preset) in all[..builtins].iter().enumerate() {
            assert_eq!(preset.id, Instrument::from_index(i).preset_name());
        }
        let params = OrchardParams::default();
        for preset in all {
            let plan = user_preset::plan(&preset.preset, &params).unwrap();
            assert!(
                plan.loaded.warnings.is_empty(),
                "{}: {:?}",
                preset.id,
                plan.loaded
            );
            assert!(
                !preset.description.is_empty(),
                "{} has no description",
                preset.id
            );
            assert_eq!(all.iter().filter(|p| p.id == preset.id).count(), 1);
        }
        assert_eq!(
            named("grand-piano").unwrap().features,
            features_of("grand-piano")
        );
        assert_eq!(
            named("bright-grand").unwrap().features,
            features_of("grand-piano")
        );
        assert!(named("no-such-preset").is_none());
    }
}
