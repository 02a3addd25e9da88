//! The preset browser: the built-in instruments and the user's own presets
//! (files in the user preset folder), loaded, saved as, and reverted to.
//!
//! A user preset is a small JSON file: the instrument, the host parameters'
//! values and the property edits, in order. Loading one sets the parameters
//! through the host (so hosts record the change) and the edits through the
//! instrument state.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use nice_plug::plugin::{ParamValue, PluginState};
use nice_plug::prelude::{Enum, EnumParam, Param, ParamSetter};
use orchard_engine::instrument::PropertyEdit;
use serde::{Deserialize, Serialize};

use crate::factory::FactoryPreset;
use crate::microphone_choice::MicrophoneChoice;
use crate::params::{Instrument, InstrumentState, OrchardParams, STATE_FORMAT};
use crate::sound::SoundSettings;
use crate::tuning_choices::{TemperamentChoice, TemperamentKey};

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

/// The plugin's present sound as a user preset.
pub fn capture(params: &OrchardParams) -> UserPreset {
    UserPreset {
        format: PRESET_FORMAT,
        instrument: params.host.instrument.value().preset_name().to_string(),
        parameters: params
            .sound_params()
            .into_iter()
            .map(|(id, param)| (id.to_string(), param.unmodulated_plain_value()))
            .chain([
                (
                    TEMPERAMENT.into(),
                    params.host.temperament.value().to_index() as f32,
                ),
                (
                    KEY.into(),
                    params.host.temperament_key.value().to_index() as f32,
                ),
                (
                    MICROPHONE.into(),
                    params.host.microphone.value().to_index() as f32,
                ),
            ])
            .collect(),
        edits: params.edits(),
    }
}

/// What loading a preset did: warnings about parts that were skipped.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Loaded {
    /// Things in the preset this build does not know, in words.
    pub warnings: Vec<String>,
}

/// What loading a user preset sets, worked out before anything is set.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The built-in instrument.
    pub instrument: Instrument,
    /// Every sound parameter's normalized value, in the order of
    /// [`OrchardParams::sound_params`].
    pub normalized: Vec<f32>,
    /// The sound the plugin builds from them, before the edits (with the
    /// temperament and its key).
    pub settings: SoundSettings,
    /// What was skipped.
    pub loaded: Loaded,
}

/// Works out what loading `preset` sets: its instrument (an unknown one is
/// the error); each sound parameter's value, or its default if the preset
/// does not give it or gives something not a number; and which of the
/// preset's edits the instrument refuses. Unknown parameter ids,
/// non-numbers and refused edits are warnings, one line each.
pub fn plan(preset: &UserPreset, params: &OrchardParams) -> Result<Plan, String> {
    let instrument = (0..Instrument::variants().len())
        .map(Instrument::from_index)
        .find(|i| i.preset_name() == preset.instrument)
        .ok_or_else(|| {
            format!(
                "unknown instrument \"{}\"",
                orchard_engine::input::excerpt(&preset.instrument)
            )
        })?;
    let mut loaded = Loaded::default();
    let mut normalized = Vec::new();
    for (id, param) in params.sound_params() {
        normalized.push(match preset.parameters.get(id) {
            Some(&value) if value.is_finite() => param.preview_normalized(value),
            Some(&value) => {
                loaded.warnings.push(format!(
                    "parameter {id}: {value} is not a number; default used"
                ));
                param.default_normalized_value()
            }
            None => param.default_normalized_value(),
        });
    }
    for id in preset.parameters.keys() {
        let choice = [TEMPERAMENT, KEY, MICROPHONE].contains(&id.as_str());
        if !choice && !params.sound_params().any(|(known, _)| known == id) {
            loaded.warnings.push(format!(
                "parameter {}: unknown, skipped",
                orchard_engine::input::excerpt(id)
            ));
        }
    }
    let mut values = params.host.plain_values();
    for ((index, param), &normalized) in params.host.floats().zip(&normalized) {
        values[index] = param.preview_plain(normalized);
    }
    let temperament: TemperamentChoice = chosen(preset, TEMPERAMENT, &mut loaded);
    let key: TemperamentKey = chosen(preset, KEY, &mut loaded);
    let microphone: MicrophoneChoice = chosen(preset, MICROPHONE, &mut loaded);
    let settings = SoundSettings::from_values(instrument, values)
        .with(TEMPERAMENT, temperament.to_index() as f32)
        .with(KEY, key.to_index() as f32)
        .with(MICROPHONE, microphone.to_index() as f32);
    // Edits the instrument refuses (unknown paths, values out of range) are
    // kept in the state, so nothing is lost, and reported.
    let mut check = settings.instrument();
    for edit in &preset.edits {
        if let Err(error) = check.apply(edit) {
            loaded.warnings.push(format!("edit refused: {error}"));
        }
    }
    Ok(Plan {
        instrument,
        normalized,
        settings,
        loaded,
    })
}

/// Sets the parameters (as host gestures) and the edits of `preset`, as
/// [`plan`] works them out. Parameters it does not give return to their
/// defaults; unknown parameter ids and out-of-range values are reported, not
/// fatal.
pub fn apply(
    preset: &UserPreset,
    params: &OrchardParams,
    setter: &ParamSetter,
) -> Result<Loaded, String> {
    let plan = plan(preset, params)?;
    setter.begin_set_parameter(&params.host.instrument);
    setter.set_parameter(&params.host.instrument, plan.instrument);
    setter.end_set_parameter(&params.host.instrument);
    for ((_, param), &normalized) in params.sound_params().into_iter().zip(&plan.normalized) {
        setter.begin_set_parameter(param);
        setter.set_parameter_normalized(param, normalized);
        setter.end_set_parameter(param);
    }
    let settings = &plan.settings;
    choose(
        setter,
        &params.host.temperament,
        settings.choice(TEMPERAMENT),
    );
    choose(setter, &params.host.temperament_key, settings.choice(KEY));
    choose(setter, &params.host.microphone, settings.choice(MICROPHONE));
    params.set_edits(preset.edits.clone());
    Ok(plan.loaded)
}

/// Sets a choice parameter as one host gesture.
fn choose<T: Enum + PartialEq>(setter: &ParamSetter, param: &EnumParam<T>, value: T) {
    setter.begin_set_parameter(param);
    setter.set_parameter(param, value);
    setter.end_set_parameter(param);
}

/// Writes what loading `preset` sets, as [`plan`] works it out, into the
/// host state object `state`: the instrument, every sound parameter, the
/// temperament, its key and the microphone, and the edits as the instrument state. Other
/// parameters keep their values in `state`. This is how a host's preset
/// load (the CLAP `preset-load` extension) sets a preset: as a state the
/// host restores, applied between blocks.
pub fn write_state(
    preset: &UserPreset,
    plan: &Plan,
    params: &OrchardParams,
    state: &mut PluginState,
) {
    let id_of = |ids: Option<&'static [&'static str]>, index: usize| {
        ids.and_then(|ids| ids.get(index))
            .map_or(ParamValue::I32(index as i32), |id| {
                ParamValue::String((*id).to_string())
            })
    };
    let values = &mut state.params;
    values.insert(
        "instrument".into(),
        ParamValue::String(plan.instrument.preset_name().to_string()),
    );
    for ((id, param), &normalized) in params.sound_params().into_iter().zip(&plan.normalized) {
        values.insert(id.into(), ParamValue::F32(param.preview_plain(normalized)));
    }
    let settings = &plan.settings;
    let temperament: TemperamentChoice = settings.choice(TEMPERAMENT);
    let key: TemperamentKey = settings.choice(KEY);
    let microphone: MicrophoneChoice = settings.choice(MICROPHONE);
    values.insert(
        TEMPERAMENT.into(),
        id_of(TemperamentChoice::ids(), temperament.to_index()),
    );
    values.insert(KEY.into(), id_of(TemperamentKey::ids(), key.to_index()));
    values.insert(
        MICROPHONE.into(),
        id_of(MicrophoneChoice::ids(), microphone.to_index()),
    );
    let instrument_state = InstrumentState {
        format: STATE_FORMAT,
        edits: preset.edits.clone(),
    };
    if let Ok(json) = serde_json::to_string(&instrument_state) {
        state.fields.insert("instrument-state".into(), json);
    }
}

/// The ids under which a user preset keeps the temperament, its key and the
/// microphone, each as its choice's index.
const TEMPERAMENT: &str = "temperament";
const KEY: &str = "temperament-key";
const MICROPHONE: &str = "microphone";

/// Gives `preset` the temperament of index `temperament` (see
/// [`orchard_engine::instrument::Temperament::index`]) laid from `key` (a
/// pitch class, 0 C to 11 B): the standalone app's `--temperament`.
pub fn set_temperament(preset: &mut UserPreset, temperament: u32, key: u32) {
    preset
        .parameters
        .insert(TEMPERAMENT.into(), temperament as f32);
    preset.parameters.insert(KEY.into(), key as f32);
}

/// The choice `preset` gives the parameter `id` (an index), or the default
/// (with a warning in `loaded` if it gives something else).
fn chosen<T: Enum + Default>(preset: &UserPreset, id: &str, loaded: &mut Loaded) -> T {
    let Some(&value) = preset.parameters.get(id) else {
        return T::default();
    };
    let index = value as usize;
    if value.fract() == 0.0 && value >= 0.0 && index < T::variants().len() {
        T::from_index(index)
    } else {
        loaded.warnings.push(format!(
            "parameter {id}: {value} is not a choice; default used"
        ));
        T::default()
    }
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
        let listed = list(Some(&dir));
        assert_eq!(listed.len(), crate::factory::all().len() + 1);
        assert_eq!(listed.last().unwrap().name(), "Bright _ hall");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The temperament and its key are kept by index and read back; a
    /// value that is no choice falls back to equal with a warning.
    #[test]
    fn the_temperament_is_kept() {
        use orchard_engine::instrument::Temperament;
        let params = OrchardParams::default();
        let captured = capture(&params);
        assert_eq!(captured.parameters.get(TEMPERAMENT), Some(&0.0));
        let mut preset = captured.clone();
        preset.parameters.insert(TEMPERAMENT.into(), 4.0);
        preset.parameters.insert(KEY.into(), 3.0);
        let plan = plan(&preset, &params).unwrap();
        assert!(plan.loaded.warnings.is_empty(), "{:?}", plan.loaded);
        assert_eq!(
            plan.settings.choice::<TemperamentChoice>(TEMPERAMENT),
            TemperamentChoice(Temperament::QuarterCommaMeantone)
        );
        assert_eq!(
            plan.settings.choice::<TemperamentKey>(KEY),
            TemperamentKey(3)
        );
        preset.parameters.insert(TEMPERAMENT.into(), 9.5);
        let plan = super::plan(&preset, &params).unwrap();
        assert_eq!(
            plan.settings.choice::<TemperamentChoice>(TEMPERAMENT),
            TemperamentChoice::default()
        );
        assert_eq!(plan.loaded.warnings.len(), 1);
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
