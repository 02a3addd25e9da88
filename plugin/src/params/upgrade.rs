//! States saved by older versions made loadable: one without an instrument
//! state (format 0, Orchard 0.1.0's) and one saved before MIDI learn.

use nice_plug::prelude::{PluginState, nice_warn};

use super::state::InstrumentState;
use super::state_formats::STATE_FORMAT;
use crate::learn::BindingList;

/// The plugin state's field holding the MIDI bindings.
const BINDINGS_FIELD: &str = "midi-bindings";
/// The plugin state's field holding the instrument state.
const INSTRUMENT_STATE_FIELD: &str = "instrument-state";

/// Makes a state a host saved with an older version one this build loads
/// (the plugin's `filter_state`, before the host's state is applied): a
/// state of format 0, without an instrument state, loads as the default
/// instrument at its output level; one saved before MIDI learn, or whose
/// bindings are not a list, loads with no bindings (and the rest as
/// saved).
pub fn upgrade_state(state: &mut PluginState) {
    let bindings = state.fields.entry(BINDINGS_FIELD.to_string()).or_default();
    if serde_json::from_str::<BindingList>(bindings).is_err() {
        if !bindings.is_empty() {
            nice_warn!("Orchard ignores the saved MIDI bindings: they are not a list");
        }
        *bindings = "[]".to_string();
    }
    state
        .fields
        .entry(INSTRUMENT_STATE_FIELD.to_string())
        .or_insert_with(|| {
            let current = InstrumentState {
                format: STATE_FORMAT,
                ..InstrumentState::default()
            };
            serde_json::to_string(&current).unwrap_or_default()
        });
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn state_with(bindings: Option<&str>) -> PluginState {
        let mut fields = BTreeMap::new();
        fields.insert(
            INSTRUMENT_STATE_FIELD.to_string(),
            r#"{"format":2,"edits":[]}"#.to_string(),
        );
        if let Some(text) = bindings {
            fields.insert(BINDINGS_FIELD.to_string(), text.to_string());
        }
        PluginState {
            version: "0.1.0".into(),
            params: Default::default(),
            fields,
        }
    }

    /// A state saved before MIDI learn loads with no bindings (not the
    /// ones the instance had), and so does one whose bindings field is not
    /// a list; the rest of the state is left as it was.
    #[test]
    fn old_and_corrupt_states_load_with_no_bindings_and_the_rest_intact() {
        for bindings in [None, Some("{broken"), Some("42"), Some("")] {
            let mut state = state_with(bindings);
            upgrade_state(&mut state);
            assert_eq!(state.fields[BINDINGS_FIELD], "[]", "{bindings:?}");
            assert_eq!(
                state.fields[INSTRUMENT_STATE_FIELD],
                r#"{"format":2,"edits":[]}"#
            );
        }
        let kept = r#"[{"source":{"control":{"kind":"cc","number":1},"channel":null},"target":{"kind":"param","id":"a4"}}]"#;
        let mut state = state_with(Some(kept));
        upgrade_state(&mut state);
        assert_eq!(state.fields[BINDINGS_FIELD], kept, "a good list is kept");
    }

    /// A state of format 0 (no instrument state) gets an empty one of this
    /// build's format.
    #[test]
    fn a_state_without_an_instrument_state_gets_an_empty_one() {
        let mut state = state_with(Some("[]"));
        state.fields.remove(INSTRUMENT_STATE_FIELD);
        upgrade_state(&mut state);
        let loaded: InstrumentState =
            serde_json::from_str(&state.fields[INSTRUMENT_STATE_FIELD]).unwrap();
        assert_eq!(loaded.format, STATE_FORMAT);
        assert!(loaded.edits.is_empty());
    }
}
