//! The plugin's saved state: the JSON a host keeps in its project and hands
//! back to `IComponent::setState` (VST3) or `clap_plugin_state::load`.

use nice_plug::params::InternalParamMut;
use nice_plug::plugin::ParamValue;
use nice_plug::prelude::{ParamPtr, Params, Plugin, PluginState};
use orchard::sound::SoundSettings;
use orchard::{Orchard, OrchardParams};

/// Loads `data` as a saved state into fresh parameters, as the plugin
/// wrappers do (nice-plug's `deserialize_json`, then `deserialize_object`:
/// [`Plugin::filter_state`], each parameter by id, then the persisted
/// fields), then works out the instrument the plugin would build from them.
/// No state may panic, and the instrument of any state validates (and so
/// builds: [`super::preset_toml`] checks that): the plugin applies only the
/// edits its preset accepts.
pub fn saved_state(data: &[u8]) {
    let Ok(mut state) = serde_json::from_slice::<PluginState>(data) else {
        return;
    };
    <Orchard as Plugin>::filter_state(&mut state);
    let params = OrchardParams::default();
    let by_id = params.param_map();
    for (id, value) in &state.params {
        let Some((_, pointer, _)) = by_id.iter().find(|(known, _, _)| known == id) else {
            continue;
        };
        set(*pointer, value);
    }
    params.deserialize_fields(&state.fields);
    let _ = params.layout();
    let preset = SoundSettings::from_params(&params).instrument_with(&params.edits());
    if let Err(error) = preset.validate() {
        panic!("a saved state gives an instrument that is not valid: {error}");
    }
}

/// Sets the parameter at `pointer` to the saved `value`, as nice-plug does:
/// a value of the wrong kind is skipped.
fn set(pointer: ParamPtr, value: &ParamValue) {
    // SAFETY: the pointers come from `param_map` of parameters that outlive
    // this call, and nothing else uses them meanwhile.
    unsafe {
        match (pointer, value) {
            (ParamPtr::FloatParam(p), ParamValue::F32(v)) => {
                (*p)._internal_set_plain_value(*v);
            }
            (ParamPtr::IntParam(p), ParamValue::I32(v)) => {
                (*p)._internal_set_plain_value(*v);
            }
            (ParamPtr::BoolParam(p), ParamValue::Bool(v)) => {
                (*p)._internal_set_plain_value(*v);
            }
            (ParamPtr::EnumParam(p), ParamValue::I32(v)) => {
                (*p)._internal_set_plain_value(*v);
            }
            (ParamPtr::EnumParam(p), ParamValue::String(id)) => {
                (*p).set_from_id(id);
            }
            _ => {}
        }
    }
}
