//! The instrument being edited: the preset as the host parameters and the
//! property edits make it, the selection, and undo/redo.
//!
//! Every edit is a property-path command ([`PropertyEdit`]), the same that
//! presets and the plugin's saved state hold: it goes into the instrument
//! state, and the plugin, seeing its version change, rebuilds the instrument off
//! the audio thread and swaps it in live (sounding notes carry on).

use std::collections::BTreeSet;
use std::sync::Arc;

use orchard_engine::instrument::{ComponentInfo, Preset, PropertyEdit};
use orchard_engine::props::PropertyInfo;

use super::history::{History, Step};
use crate::params::OrchardParams;
use crate::sound::SoundSettings;

/// One property's state: its value, and whether it is explicit (set here) or
/// inherited (interpolated from other keys).
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyState {
    /// The property path.
    pub path: String,
    /// Its value, in the property's unit.
    pub value: f64,
    /// Set at this component (true) or inherited (false).
    pub explicit: bool,
}

/// The editor's model of the instrument.
pub struct EditSession {
    params: Arc<OrchardParams>,
    /// The host parameters the preset was resolved with.
    settings: SoundSettings,
    /// The version of the instrument state the preset was resolved with.
    version: u64,
    /// The instrument as it plays.
    preset: Preset,
    components: Vec<ComponentInfo>,
    history: History<Vec<PropertyState>>,
    /// The selected components' paths.
    pub selection: BTreeSet<String>,
    /// The last edit the instrument refused, in words.
    pub refused: Option<String>,
}

impl EditSession {
    /// The session for the plugin's parameters and state.
    pub fn new(params: Arc<OrchardParams>) -> Self {
        let settings = SoundSettings::from_params(&params);
        let version = params.state.version();
        let preset = settings.instrument_with(&params.edits());
        let components = preset.components();
        Self {
            params,
            settings,
            version,
            preset,
            components,
            history: History::default(),
            selection: BTreeSet::new(),
            refused: None,
        }
    }

    /// Follows changes made elsewhere: the host moved a parameter, loaded a
    /// project, or a preset was loaded. Cheap when nothing changed.
    pub fn refresh(&mut self) {
        let settings = SoundSettings::from_params(&self.params);
        let version = self.params.state.version();
        if settings == self.settings && version == self.version {
            return;
        }
        let instrument_changed = settings.instrument != self.settings.instrument;
        self.settings = settings;
        self.version = version;
        self.resolve();
        if instrument_changed {
            // Another instrument: its components and history are its own.
            self.history.clear();
            self.selection
                .retain(|path| self.components.iter().any(|c| &c.path == path));
        }
    }

    /// Resolves the preset from the settings and edits.
    fn resolve(&mut self) {
        self.preset = self.settings.instrument_with(&self.params.edits());
        self.components = self.preset.components();
    }

    /// The instrument as it plays now.
    pub fn preset(&self) -> &Preset {
        &self.preset
    }

    /// Every component, in display order.
    pub fn components(&self) -> &[ComponentInfo] {
        &self.components
    }

    /// A component by path.
    pub fn component(&self, path: &str) -> Option<&ComponentInfo> {
        self.components.iter().find(|c| c.path == path)
    }

    /// The metadata of a property.
    pub fn info(&self, path: &str) -> Option<PropertyInfo> {
        self.preset.property_info(path)
    }

    /// A property's value and whether it is explicit.
    pub fn state(&self, path: &str) -> Option<PropertyState> {
        Some(PropertyState {
            path: path.to_string(),
            value: self.preset.get(path)?,
            explicit: self.preset.is_explicit(path)?,
        })
    }

    /// The properties every selected component has, in the first one's order.
    pub fn shared_properties(&self) -> Vec<&'static str> {
        let mut selected = self.selection.iter().filter_map(|p| self.component(p));
        let Some(first) = selected.next() else {
            return Vec::new();
        };
        let rest: Vec<_> = selected.collect();
        first
            .properties
            .iter()
            .copied()
            .filter(|name| rest.iter().all(|c| c.properties.contains(name)))
            .collect()
    }

    /// Sets `property` of every selected component to `value` (explicit from
    /// now on). One undo step; with a `merge_key`, consecutive sets with the
    /// same key (a slider drag) make one step.
    pub fn set_selected(&mut self, property: &str, value: f64, merge_key: Option<String>) {
        let paths = self.selected_paths(property);
        let after = paths
            .iter()
            .map(|path| PropertyState {
                path: path.clone(),
                value,
                explicit: true,
            })
            .collect();
        self.change(after, merge_key);
    }

    /// Makes `property` of the selected components inherited (`false`) or
    /// explicit at its present value (`true`).
    pub fn set_explicit(&mut self, property: &str, explicit: bool) {
        let after = self
            .selected_paths(property)
            .iter()
            .filter_map(|path| self.state(path))
            .map(|state| PropertyState { explicit, ..state })
            .collect();
        self.change(after, None);
    }

    /// Ends a slider drag: the next change is a step of its own.
    pub fn seal(&mut self) {
        self.history.seal();
    }

    fn selected_paths(&self, property: &str) -> Vec<String> {
        self.selection
            .iter()
            .map(|component| format!("{component}:{property}"))
            .collect()
    }

    /// Moves the properties to `after`, recording the step for undo. If the
    /// instrument refuses any of it, nothing changes and `refused` says why.
    fn change(&mut self, after: Vec<PropertyState>, merge_key: Option<String>) {
        let before: Vec<_> = after.iter().filter_map(|s| self.state(&s.path)).collect();
        if before == after || before.len() != after.len() {
            return;
        }
        if self.apply(&after) {
            self.history.record(Step {
                before,
                after,
                merge_key,
            });
        }
    }

    /// Writes `states` as edits into the instrument state and rebuilds;
    /// false (nothing changed) if the instrument refuses one. Earlier edits of
    /// the same paths are replaced, so the state holds one edit per path.
    fn apply(&mut self, states: &[PropertyState]) -> bool {
        let touched = |edit: &PropertyEdit| states.iter().any(|s| s.path == edit.path());
        let mut edits: Vec<_> = self
            .params
            .edits()
            .into_iter()
            .filter(|e| !touched(e))
            .collect();
        let mut preset = self.settings.instrument_with(&edits);
        for state in states {
            let edit = if state.explicit {
                PropertyEdit::Set {
                    path: state.path.clone(),
                    value: state.value,
                }
            } else if preset.is_explicit(&state.path) == Some(true) {
                PropertyEdit::Inherit {
                    path: state.path.clone(),
                }
            } else {
                continue;
            };
            if let Err(error) = preset.apply(&edit) {
                self.refused = Some(error.to_string());
                return false;
            }
            edits.push(edit);
        }
        self.refused = None;
        self.params.set_edits(edits);
        self.version = self.params.state.version();
        self.components = preset.components();
        self.preset = preset;
        true
    }

    /// Gives the text property `path` (`tuning:scale`, `tuning:keymap`) the
    /// text `text` (a file's; empty takes it away), replacing any earlier
    /// text edit of it. Not an undo step. The error, if the instrument
    /// refuses it (a broken file), is one line naming the file's line, and
    /// nothing changes.
    pub fn set_text(&mut self, path: &str, text: String) -> Result<(), String> {
        let edit = PropertyEdit::Text {
            path: path.to_string(),
            text,
        };
        let mut edits: Vec<_> = self
            .params
            .edits()
            .into_iter()
            .filter(|e| e.path() != path)
            .collect();
        let mut preset = self.settings.instrument_with(&edits);
        preset.apply(&edit).map_err(|e| e.to_string())?;
        edits.push(edit);
        self.params.set_edits(edits);
        self.version = self.params.state.version();
        self.components = preset.components();
        self.preset = preset;
        Ok(())
    }

    /// Undoes the last step; false if there was none.
    pub fn undo(&mut self) -> bool {
        let Some(before) = self.history.undo().map(|s| s.before.clone()) else {
            return false;
        };
        self.apply(&before)
    }

    /// Redoes the last undone step; false if there was none.
    pub fn redo(&mut self) -> bool {
        let Some(after) = self.history.redo().map(|s| s.after.clone()) else {
            return false;
        };
        self.apply(&after)
    }

    /// Whether undo / redo have anything to do.
    pub fn can_undo_redo(&self) -> (bool, bool) {
        (self.history.can_undo(), self.history.can_redo())
    }

    /// Forgets the undo history (a preset was loaded).
    pub fn forget_history(&mut self) {
        self.history.clear();
    }
}
