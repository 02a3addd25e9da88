//! What a host parameter reaches in a preset: the property paths it sets.

use orchard_engine::instrument::Preset;

/// What a host parameter reaches in a preset: checked against the preset's
/// declarations by the tests, so renaming a property breaks a test, not a
/// knob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PropertyReach {
    /// One property path of a component every preset has (`tuning:a4_hz`).
    Path(&'static str),
    /// One property path of the room (`room:mix`), reached only where the
    /// preset has a room: the Room knob brings one (reading a room path of
    /// a preset without a room gives the default room's values, and setting
    /// one would add a room).
    RoomPath(&'static str),
    /// Field `field` of every object of the kinds `kinds` (`stiff-strings`,
    /// `felt-hammers`, `soundboard`), on the object itself or on each of its
    /// anchors.
    Field {
        /// The objects' kinds, as a preset names them (`[KIND.NAME]`).
        kinds: &'static [&'static str],
        /// The field.
        field: &'static str,
    },
}

impl PropertyReach {
    /// Every property path of `preset` it reaches (none where the preset
    /// lacks the part: a bar has no strings to detune).
    pub fn paths(self, preset: &Preset) -> Vec<String> {
        match self {
            Self::Path(path) => preset
                .get(path)
                .map(|_| path.to_string())
                .into_iter()
                .collect(),
            Self::RoomPath(path) => preset
                .room
                .and_then(|_| preset.get(path))
                .map(|_| path.to_string())
                .into_iter()
                .collect(),
            Self::Field { kinds, field } => {
                let objects: Vec<String> = preset
                    .components()
                    .into_iter()
                    .filter(|c| kinds.contains(&c.kind))
                    .map(|c| c.path)
                    .collect();
                preset
                    .paths()
                    .into_iter()
                    .filter(|path| {
                        path.split_once(':').is_some_and(|(component, name)| {
                            name == field
                                && objects.iter().any(|object| {
                                    component == object
                                        || component
                                            .strip_prefix(object.as_str())
                                            .is_some_and(|rest| rest.starts_with("/anchor/"))
                                })
                        })
                    })
                    .collect()
            }
        }
    }
}
