//! User presets: the small JSON files that describe a sound (the
//! instrument, the host parameters' values and the property edits, in
//! order), in the user preset folder or anywhere; the factory presets ship
//! in the same format. Reading, writing and naming them, and where they
//! are kept; what loading one sets ([`plan`], [`apply`], [`write_state`])
//! and capturing the present sound as one ([`capture`]).

mod load;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use orchard_engine::instrument::PropertyEdit;
use serde::{Deserialize, Serialize};

pub use load::{Loaded, Plan, apply, capture, plan, set_temperament, write_state};

/// The format of user preset files this build writes.
pub const PRESET_FORMAT: u32 = 1;
/// User preset files end in this.
pub const EXTENSION: &str = "orchard.json";

/// A user preset as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserPreset {
    /// The format it was written in.
    pub format: u32,
    /// The built-in instrument it starts from (`grand-piano`, `mallet-bar`).
    pub instrument: String,
    /// Host parameter id → plain value (`hardness` → 0.3).
    pub parameters: BTreeMap<String, f32>,
    /// Property edits, applied in order after the parameters.
    pub edits: Vec<PropertyEdit>,
}

/// The user preset folder: `$ORCHARD_PRESET_DIR` if set; otherwise the
/// platform's place for user data (`$XDG_DATA_HOME/orchard/presets` or
/// `~/.local/share/orchard/presets` on Linux).
pub fn user_folder() -> Option<PathBuf> {
    let var = env_path;
    if let Some(dir) = var("ORCHARD_PRESET_DIR") {
        return Some(dir);
    }
    if cfg!(target_os = "windows") {
        return var("APPDATA").map(|d| d.join("Orchard").join("Presets"));
    }
    if cfg!(target_os = "macos") {
        return var("HOME").map(|h| h.join("Library/Application Support/Orchard/Presets"));
    }
    var("XDG_DATA_HOME")
        .or_else(|| var("HOME").map(|h| h.join(".local/share")))
        .map(|d| d.join("orchard").join("presets"))
}

/// The path the environment variable `name` holds, if it is set and not
/// empty.
pub(crate) fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The largest user preset file read, bytes (one holds a few hundred edits
/// in a few kB).
pub const MAX_PRESET_BYTES: u64 = 1 << 20;

/// Reads a user preset file (at most [`MAX_PRESET_BYTES`]). Errors name the
/// file and say what is wrong, with the line and column for malformed JSON.
pub fn read(path: &Path) -> Result<UserPreset, String> {
    let text = orchard_engine::input::read_capped_text(path, MAX_PRESET_BYTES)
        .and_then(|text| parse(&text));
    text.map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses the text of a user preset file. The error is one line: where the
/// JSON is malformed (line and column) and what was expected, quoting little.
pub fn parse(text: &str) -> Result<UserPreset, String> {
    let preset: UserPreset = serde_json::from_str(text).map_err(|e| json_error(&e))?;
    if preset.format > PRESET_FORMAT {
        return Err(format!(
            "written by a newer Orchard (format {}; this one reads up to {PRESET_FORMAT})",
            preset.format
        ));
    }
    Ok(preset)
}

/// One line for a JSON error: where (line and column, when known) and what
/// was expected and found, quoting little of the input.
fn json_error(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let location = format!(" at line {} column {}", error.line(), error.column());
    let message = orchard_engine::input::one_line(text.strip_suffix(&location).unwrap_or(&text));
    match error.line() {
        0 => message,
        line => format!("line {line}, column {}: {message}", error.column()),
    }
}

/// The file a preset named `name` is saved to in `folder`: the name with
/// characters that are unsafe in file names replaced.
pub fn file_for(folder: &Path, name: &str) -> Result<PathBuf, String> {
    let clean: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || " -_()".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.trim().is_empty() {
        return Err("give the preset a name".into());
    }
    Ok(folder.join(format!("{clean}.{EXTENSION}")))
}

/// Writes `preset` to `path`, creating the folder; never leaves a half-written
/// file in place of an old one (it writes a temporary file, named for this
/// process so that two programs writing the same preset do not share it, and
/// renames it).
pub fn write(path: &Path, preset: &UserPreset) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(fail)?;
    }
    let text = serde_json::to_string_pretty(preset).map_err(|e| e.to_string())?;
    let temporary = path.with_extension(format!("tmp-{}", std::process::id()));
    std::fs::write(&temporary, text).map_err(fail)?;
    std::fs::rename(&temporary, path).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("orchard-presets-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn saved_presets_read_back_and_list_after_the_builtins() {
        let dir = folder("roundtrip");
        let preset = UserPreset {
            format: PRESET_FORMAT,
            instrument: "grand-piano".into(),
            parameters: BTreeMap::from([("hardness".to_string(), 0.25)]),
            edits: vec![PropertyEdit::Set {
                path: "tuning:a4_hz".into(),
                value: 442.0,
            }],
        };
        let path = file_for(&dir, "Bright / hall").unwrap();
        assert_eq!(path.file_name().unwrap(), "Bright _ hall.orchard.json");
        write(&path, &preset).unwrap();
        assert_eq!(read(&path).unwrap(), preset);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn broken_files_say_where_and_what() {
        let dir = folder("broken");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.orchard.json");
        std::fs::write(&path, "{\n  \"format\": 1,\n  \"instrument\": 3\n}").unwrap();
        let error = read(&path).unwrap_err();
        assert!(
            error.contains("bad.orchard.json") && error.contains("line 3"),
            "{error}"
        );
        std::fs::write(
            &path,
            r#"{"format": 9, "instrument": "grand-piano", "parameters": {}, "edits": []}"#,
        )
        .unwrap();
        assert!(read(&path).unwrap_err().contains("newer Orchard"));
        assert!(read(&dir.join("missing.orchard.json")).is_err());
        assert!(file_for(&dir, "  ").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
