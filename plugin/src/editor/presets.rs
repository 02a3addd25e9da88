//! The preset browser's list: the factory presets, then the user's own
//! (files in the user preset folder), by name.

use std::path::{Path, PathBuf};

use crate::factory::FactoryPreset;
use crate::user_preset::EXTENSION;

/// Where a preset comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum PresetSource {
    /// A factory preset: a built-in instrument with its parameters at their
    /// defaults, or a voicing of one.
    Factory(&'static FactoryPreset),
    /// A file in the user preset folder (or anywhere).
    File(PathBuf),
}

impl PresetSource {
    /// The name shown in the browser.
    pub fn name(&self) -> String {
        match self {
            Self::Factory(preset) => format!("{} (factory)", preset.name),
            Self::File(path) => path
                .file_name()
                .and_then(|n| n.to_str())
                .map(|n| {
                    n.trim_end_matches(EXTENSION)
                        .trim_end_matches('.')
                        .to_string()
                })
                .unwrap_or_else(|| path.display().to_string()),
        }
    }
}

/// The factory presets, then the user presets in `folder` by name.
pub fn list(folder: Option<&Path>) -> Vec<PresetSource> {
    let mut files: Vec<PathBuf> = folder
        .and_then(|f| std::fs::read_dir(f).ok())
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(EXTENSION)))
        .collect();
    files.sort();
    crate::factory::all()
        .iter()
        .map(PresetSource::Factory)
        .chain(files.into_iter().map(PresetSource::File))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::user_preset::{PRESET_FORMAT, UserPreset, file_for, write};

    /// A saved preset is listed after the factory presets, by its name.
    #[test]
    fn saved_presets_list_after_the_builtins() {
        let dir = std::env::temp_dir().join(format!("orchard-presets-list-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let preset = UserPreset {
            format: PRESET_FORMAT,
            instrument: "grand-piano".into(),
            parameters: Default::default(),
            edits: Vec::new(),
        };
        write(&file_for(&dir, "Bright / hall").unwrap(), &preset).unwrap();
        let listed = list(Some(&dir));
        assert_eq!(listed.len(), crate::factory::all().len() + 1);
        assert_eq!(listed.last().unwrap().name(), "Bright _ hall");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
