//! Everything the host saves of the plugin: the host parameters (declared
//! in [`crate::host_params`]) and the state saved with them (the instrument
//! state, the editor's layout, the MIDI bindings), and how states saved by
//! older versions load.

mod editor_layout;
mod state;
mod state_formats;
mod upgrade;

use std::sync::Mutex;

use nice_plug::prelude::*;
use orchard_engine::instrument::PropertyEdit;

use crate::host_params::{HOST_PARAMS, HostParams};
use crate::learn::ControllerMap;

pub use editor_layout::{EditorLayout, MAX_SIZE, MIN_SIZE, ZOOM_RANGE};
pub use state::{InstrumentState, VersionedState};
pub use state_formats::STATE_FORMAT;
pub use upgrade::upgrade_state;

/// Everything the host saves of the plugin: the host parameters and the
/// instrument's state beyond them.
#[derive(Params)]
pub struct OrchardParams {
    /// The host parameters, each built from its declaration in
    /// [`HOST_PARAMS`].
    #[nested]
    pub host: HostParams,
    /// Everything else about the instrument, saved with the parameters.
    #[persist = "instrument-state"]
    pub state: VersionedState,
    /// The editor window's size and zoom.
    #[persist = "editor-layout"]
    pub editor_layout: Mutex<EditorLayout>,
    /// The MIDI controllers bound to parameters and properties (the
    /// player's setup: saved with the project, not in user presets).
    #[persist = "midi-bindings"]
    pub controllers: ControllerMap,
}

impl Default for OrchardParams {
    fn default() -> Self {
        Self {
            host: HostParams::declared(),
            state: VersionedState::empty(),
            editor_layout: Mutex::new(EditorLayout::default()),
            controllers: ControllerMap::default(),
        }
    }
}

impl OrchardParams {
    /// The property edits of the instrument state (off the audio thread: it
    /// locks).
    pub fn edits(&self) -> Vec<PropertyEdit> {
        self.state.read(|state| state.edits.clone())
    }

    /// Replaces the property edits of the instrument state (off the audio
    /// thread: it locks); the plugin rebuilds the instrument.
    pub fn set_edits(&self, edits: Vec<PropertyEdit>) {
        self.state.replace(InstrumentState {
            format: STATE_FORMAT,
            edits,
        });
    }

    /// Changes the property edits in place (off the audio thread: it locks
    /// the state while `change` runs); `change` returns whether it changed
    /// anything, and then the plugin rebuilds the instrument.
    pub fn update_edits(&self, change: impl FnOnce(&mut Vec<PropertyEdit>) -> bool) {
        self.state.update(change);
    }

    /// Moves the parameter `PARAM_IDS[index]` to `normalized` (0 to 1,
    /// snapped to its steps) as a MIDI controller does, where the host's
    /// automation would set it (the output level glides there at
    /// `sample_rate_hz`). The host is not told (see [`crate::learn`]).
    /// Wait-free, allocates nothing: for the audio thread.
    pub fn move_param(&self, index: usize, normalized: f32, sample_rate_hz: f32) {
        let Some(&param) = self.host.param_ptrs().get(index) else {
            return;
        };
        // SAFETY: the pointer is to a parameter of `self`, alive for the call.
        // Setting a value and its smoother is what the wrappers do on the
        // audio thread for the host's automation: atomic stores.
        unsafe {
            if param._internal_set_normalized_value(normalized.clamp(0.0, 1.0)) {
                param._internal_update_smoother(sample_rate_hz, false);
            }
        }
    }

    /// The continuous host parameters (all but the choices and switches),
    /// by permanent id, in the order of [`HOST_PARAMS`].
    pub fn sound_params(&self) -> impl Iterator<Item = (&'static str, &FloatParam)> + Clone {
        self.host
            .floats()
            .map(|(index, param)| (HOST_PARAMS[index].id, param))
    }

    /// The editor window's saved size and zoom, made usable.
    pub fn layout(&self) -> EditorLayout {
        self.editor_layout
            .lock()
            .map(|layout| layout.clamped())
            .unwrap_or_default()
    }

    /// Changes the editor window's saved size or zoom.
    pub fn change_layout(&self, change: impl FnOnce(&mut EditorLayout)) {
        if let Ok(mut layout) = self.editor_layout.lock() {
            change(&mut layout);
            *layout = layout.clamped();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host_params::PARAM_IDS;
    use nice_plug::params::persist::PersistentField;

    /// Every parameter's text reads back as the same value: value → text →
    /// value → text gives the same text, over a sweep of values including
    /// the one clap-validator tripped over (4/9) and both ends.
    #[test]
    fn every_parameter_round_trips_through_its_text() {
        let params = OrchardParams::default();
        let sweep = (0..=1000).map(|i| i as f32 / 1000.0).chain([
            4.0 / 9.0,
            1.0 / 3.0,
            2.0 / 3.0,
            1e-7,
            1.0 - 1e-7,
        ]);
        for (id, param, _) in params.param_map() {
            for normalized in sweep.clone() {
                // SAFETY: the pointers are to `params`, alive for the loop.
                let (text, again) = unsafe {
                    let text = param.normalized_value_to_string(normalized, true);
                    let back = param
                        .string_to_normalized_value(&text)
                        .unwrap_or_else(|| panic!("{id}: `{text}` does not read back"));
                    (text, param.normalized_value_to_string(back, true))
                };
                assert_eq!(text, again, "{id} at {normalized}");
            }
        }
    }

    #[test]
    fn a_state_loaded_by_the_host_counts_as_a_change() {
        let params = OrchardParams::default();
        let before = params.state.version();
        params.state.set(InstrumentState {
            format: STATE_FORMAT,
            edits: vec![PropertyEdit::Set {
                path: "tuning:a4_hz".into(),
                value: 441.0,
            }],
        });
        assert_eq!(params.state.version(), before + 1);
        assert_eq!(params.edits().len(), 1);
        params.set_edits(Vec::new());
        assert_eq!(params.state.version(), before + 2);
    }

    #[test]
    fn param_ids_name_every_parameter_in_the_order_of_the_pointers() {
        let params = OrchardParams::default();
        let map = params.param_map();
        assert_eq!(map.len(), PARAM_IDS.len());
        let ids: Vec<&str> = map.iter().map(|(id, ..)| id.as_str()).collect();
        assert_eq!(ids, PARAM_IDS, "the host lists them in the declared order");
        for (id, pointer) in PARAM_IDS.iter().zip(params.host.param_ptrs()) {
            let (_, expected, _) = map
                .iter()
                .find(|(i, _, _)| i == id)
                .unwrap_or_else(|| panic!("{id} is a parameter"));
            assert!(*expected == pointer, "{id}");
        }
    }

    #[test]
    fn a_controller_moves_a_parameter_over_its_whole_range() {
        let params = OrchardParams::default();
        let a4 = PARAM_IDS.iter().position(|&id| id == "a4").unwrap();
        params.move_param(a4, 1.0, 48_000.0);
        assert_eq!(params.host.a4.value(), 466.0);
        params.move_param(a4, 0.0, 48_000.0);
        assert_eq!(params.host.a4.value(), 415.0);
        params.move_param(a4, 7.0, 48_000.0);
        assert_eq!(params.host.a4.value(), 466.0, "clamped");
        let key = PARAM_IDS
            .iter()
            .position(|&id| id == "temperament-key")
            .unwrap();
        params.move_param(key, 1.0, 48_000.0);
        assert_eq!(params.host.temperament_key.value().0, 11, "B, the last key");
        params.move_param(PARAM_IDS.len(), 0.5, 48_000.0);
    }

    #[test]
    fn bindings_are_saved_as_a_field_of_the_state_and_come_back() {
        use crate::learn::{Binding, BindingTarget, Control, Source};
        let params = OrchardParams::default();
        let binding = Binding {
            source: Source {
                control: Control::PitchBend,
                channel: Some(2),
            },
            target: BindingTarget::Property {
                path: "tuning:a4_hz".into(),
            },
        };
        params.controllers.bind(binding.clone()).unwrap();
        let fields = params.serialize_fields();
        assert!(fields["midi-bindings"].contains("pitch-bend"), "{fields:?}");
        let other = OrchardParams::default();
        other.deserialize_fields(&fields);
        assert_eq!(other.controllers.bindings(), vec![binding]);
    }
}
