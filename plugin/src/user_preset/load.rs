//! What loading a user preset sets: the instrument, the host parameters
//! (as host gestures, or as a state the host restores) and the property
//! edits; and the plugin's present sound captured as a user preset.

use nice_plug::plugin::{ParamValue, PluginState};
use nice_plug::prelude::{Enum, EnumParam, Param, ParamSetter};

use super::{PRESET_FORMAT, UserPreset};
use crate::host_params::Instrument;
use crate::microphone_choice::MicrophoneChoice;
use crate::params::{InstrumentState, OrchardParams, STATE_FORMAT};
use crate::sound::SoundSettings;
use crate::tuning_choices::{TemperamentChoice, TemperamentKey};

/// The plugin's present sound as a user preset.
pub fn capture(params: &OrchardParams) -> UserPreset {
    UserPreset {
        format: PRESET_FORMAT,
        instrument: params.host.instrument.value().preset_name().to_string(),
        parameters: params
            .sound_params()
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
    for ((_, param), &normalized) in params.sound_params().zip(&plan.normalized) {
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
    for ((id, param), &normalized) in params.sound_params().zip(&plan.normalized) {
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
}
