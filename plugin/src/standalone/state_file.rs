//! The standalone app's state between runs: the sound (instrument, host
//! parameters and property edits, as a user preset holds them), the audio
//! and MIDI devices, the record folder and the MIDI file opened last.
//!
//! It is a JSON file, `$ORCHARD_STANDALONE_STATE` if set, else
//! `$XDG_CONFIG_HOME/orchard/standalone.json` (`~/.config/orchard/…`
//! without it). It is written whole to a temporary file that then replaces
//! the old one, so a crash never leaves half a file; a file that cannot be
//! read is kept beside it as `….bak` and the app starts from defaults with a
//! one-line warning.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::user_preset::UserPreset;

/// The format of the state file this build writes.
pub const STATE_FILE_FORMAT: u32 = 1;

/// The audio and MIDI devices chosen (each `None`: the app's default).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Devices {
    /// `auto`, `jack`, `alsa` or `dummy`.
    pub backend: Option<String>,
    /// ALSA: the audio output device's name.
    pub output_device: Option<String>,
    /// ALSA: the MIDI input device's name; JACK: the MIDI output port to
    /// connect to the app's input.
    pub midi_input: Option<String>,
    /// ALSA: the sample rate, Hz.
    pub sample_rate: Option<u32>,
    /// ALSA: the period, frames.
    pub period_size: Option<u32>,
}

/// Everything the standalone app keeps between runs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StandaloneState {
    /// The format it was written in.
    pub format: u32,
    /// The sound: instrument, parameters, edits.
    pub sound: Option<UserPreset>,
    /// The devices.
    pub devices: Devices,
    /// Where takes are recorded.
    pub record_folder: Option<PathBuf>,
    /// The MIDI file opened last.
    pub midi_file: Option<PathBuf>,
}

/// Where the state file is (see the module's description); `None` when
/// there is no home folder.
pub fn state_path() -> Option<PathBuf> {
    let var = crate::user_preset::env_path;
    if let Some(path) = var("ORCHARD_STANDALONE_STATE") {
        return Some(path);
    }
    var("XDG_CONFIG_HOME")
        .or_else(|| var("HOME").map(|home| home.join(".config")))
        .map(|config| config.join("orchard").join("standalone.json"))
}

/// The largest state file read, bytes.
const MAX_STATE_BYTES: u64 = 4 << 20;

/// Reads the state at `path`: the defaults if there is no file; if there is
/// one that cannot be read, the defaults and a one-line warning, the file
/// moved to `path.bak` so nothing is lost.
pub fn load(path: &Path) -> (StandaloneState, Option<String>) {
    if !path.exists() {
        return (StandaloneState::default(), None);
    }
    let parsed = orchard_engine::input::read_capped_text(path, MAX_STATE_BYTES).and_then(|text| {
        serde_json::from_str::<StandaloneState>(&text).map_err(|e| {
            format!(
                "line {}, column {}: {}",
                e.line(),
                e.column(),
                orchard_engine::input::one_line(&e.to_string())
            )
        })
    });
    match parsed {
        Ok(state) => (state, None),
        Err(reason) => {
            let backup = backup_path(path);
            let kept = match std::fs::rename(path, &backup) {
                Ok(()) => format!("kept as {}", backup.display()),
                Err(e) => format!("cannot keep it as {}: {e}", backup.display()),
            };
            let warning = format!(
                "the saved state {} cannot be read ({reason}); starting from defaults ({kept})",
                path.display()
            );
            (StandaloneState::default(), Some(warning))
        }
    }
}

/// `path` with `.bak` added to its name.
fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".bak");
    PathBuf::from(name)
}

/// Writes `state` to `path` (creating its folder) through a temporary file
/// renamed over the old one; the error is one line naming the file.
pub fn save(path: &Path, state: &StandaloneState) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot save the state to {}: {e}", path.display());
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(fail)?;
    }
    let state = StandaloneState {
        format: STATE_FILE_FORMAT,
        ..state.clone()
    };
    let text = serde_json::to_string_pretty(&state).map_err(|e| e.to_string())?;
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, text).map_err(fail)?;
    std::fs::rename(&temporary, path).map_err(fail)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use orchard_engine::instrument::PropertyEdit;

    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("orchard-state-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn example() -> StandaloneState {
        StandaloneState {
            format: STATE_FILE_FORMAT,
            sound: Some(UserPreset {
                format: 1,
                instrument: "mallet-bar".into(),
                parameters: BTreeMap::from([("hardness".to_string(), 0.25)]),
                edits: vec![PropertyEdit::Set {
                    path: "strings:detune_cents".into(),
                    value: 1.5,
                }],
            }),
            devices: Devices {
                backend: Some("alsa".into()),
                output_device: Some("hw:1,0".into()),
                midi_input: Some("Keyboard:Keyboard MIDI 1 24:0".into()),
                sample_rate: Some(44_100),
                period_size: Some(256),
            },
            record_folder: Some("/tmp/takes".into()),
            midi_file: Some("/tmp/song.mid".into()),
        }
    }

    #[test]
    fn a_saved_state_reads_back_the_same() {
        let dir = folder("round-trip");
        let path = dir.join("deep").join("standalone.json");
        save(&path, &example()).unwrap();
        assert_eq!(load(&path), (example(), None));
        // Saving again replaces it; no temporary file is left behind.
        let mut changed = example();
        changed.midi_file = None;
        save(&path, &changed).unwrap();
        assert_eq!(load(&path).0, changed);
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["standalone.json"]);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_corrupt_state_gives_defaults_a_warning_and_a_backup() {
        let dir = folder("corrupt");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("standalone.json");
        std::fs::write(&path, "{\"format\": 1, \"devices\": [oops").unwrap();
        let (state, warning) = load(&path);
        assert_eq!(state, StandaloneState::default());
        let warning = warning.unwrap();
        assert!(
            warning.contains("line 1, column") && !warning.contains('\n'),
            "{warning}"
        );
        assert!(!path.exists());
        let kept = std::fs::read_to_string(dir.join("standalone.json.bak")).unwrap();
        assert_eq!(kept, "{\"format\": 1, \"devices\": [oops");
        // No file at all is no warning.
        assert_eq!(load(&path), (StandaloneState::default(), None));
        let _ = std::fs::remove_dir_all(dir);
    }
}
