//! The factory presets as files, for CLAP preset discovery: one file per
//! preset (`ID.orchard.json`, the user preset format) in a folder Orchard
//! keeps, declared to hosts as a file location of factory content.
//!
//! Why files: presets inside the plugin form one container (CLAP location
//! kind "plugin", whose location must be null), and clap-validator 0.4.1
//! hangs on any container that declares a second preset
//! (docs/clap-validator-limits.md). A folder of single-preset files is
//! crawled one file, one preset at a time by every host.
//!
//! The files are a copy: the presets themselves stay compiled into the
//! plugin, and a preset in this folder is known by its file name, so a
//! host's stored path loads the right preset even after the folder was
//! cleaned out or a file edited.

use std::path::{Path, PathBuf};

use crate::factory::{self, FactoryPreset};
use crate::user_preset::{self, EXTENSION};

/// The folder: `$ORCHARD_FACTORY_PRESET_DIR` if set; otherwise the
/// platform's place for regenerable files (`$XDG_CACHE_HOME/orchard/factory-presets`
/// or `~/.cache/orchard/factory-presets` on Linux).
pub fn folder() -> Option<PathBuf> {
    let var = user_preset::env_path;
    if let Some(dir) = var("ORCHARD_FACTORY_PRESET_DIR") {
        return Some(dir);
    }
    if cfg!(target_os = "windows") {
        return var("LOCALAPPDATA").map(|d| d.join("Orchard").join("Factory presets"));
    }
    if cfg!(target_os = "macos") {
        return var("HOME").map(|h| h.join("Library/Caches/Orchard/Factory presets"));
    }
    var("XDG_CACHE_HOME")
        .or_else(|| var("HOME").map(|h| h.join(".cache")))
        .map(|d| d.join("orchard").join("factory-presets"))
}

/// The file name of the factory preset with this id.
fn file_name(id: &str) -> String {
    format!("{id}.{EXTENSION}")
}

/// Writes every factory preset into `folder` (created if missing) whose
/// file is missing or holds something else, and returns the folder as an
/// absolute path. Files that already hold their preset are left alone, so
/// a host's second scan writes nothing. Other files in the folder are never
/// touched. The error names the path that could not be made or written.
pub fn write_all(folder: &Path) -> Result<PathBuf, String> {
    let fail = |e: std::io::Error| format!("{}: {e}", folder.display());
    std::fs::create_dir_all(folder).map_err(fail)?;
    let folder = folder.canonicalize().map_err(fail)?;
    for preset in factory::all() {
        let path = folder.join(file_name(preset.id));
        if user_preset::read(&path).ok().as_ref() != Some(&preset.preset) {
            user_preset::write(&path, &preset.preset)?;
        }
    }
    Ok(folder)
}

/// Whether `path` is in the folder of [`folder`] (as given or as an
/// absolute path).
pub fn in_folder(path: &Path) -> bool {
    let (Some(parent), Some(ours)) = (path.parent(), folder()) else {
        return false;
    };
    parent == ours
        || ours
            .canonicalize()
            .is_ok_and(|ours| parent.canonicalize().ok() == Some(ours))
}

/// The factory preset whose file `path` is, if it names one in the folder
/// of [`folder`]; whether the file still exists, or what it holds, does not
/// matter.
pub fn preset_of(path: &Path) -> Option<&'static FactoryPreset> {
    if !in_folder(path) {
        return None;
    }
    let name = path.file_name()?.to_str()?;
    factory::all()
        .iter()
        .find(|preset| file_name(preset.id) == name)
}
