//! The formats the instrument state has been saved in, and reading each of
//! them as this build's.
//!
//! Format 0 is the state of Orchard 0.1.0, which had only the output level
//! and no instrument state ([`upgrade_state`] gives it an empty one);
//! format 1 held edits as a map from property path to value; format 2
//! holds them as a list of commands in the order they were made (a value
//! set, or a property made inherited again). States saved before MIDI learn
//! have no bindings.

use std::collections::BTreeMap;

use nice_plug::prelude::{PluginState, nice_warn};
use orchard_engine::instrument::PropertyEdit;
use serde::{Deserialize, Deserializer};

use super::state::InstrumentState;
use crate::learn::BindingList;

/// The plugin state's field holding the MIDI bindings.
const BINDINGS_FIELD: &str = "midi-bindings";
/// The plugin state's field holding the instrument state.
const INSTRUMENT_STATE_FIELD: &str = "instrument-state";

/// The format of [`super::InstrumentState`] this build writes.
pub const STATE_FORMAT: u32 = 2;

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

/// Reads edits as format 2 writes them (a list of commands) or as format 1
/// did (a map from path to value, each a value set).
pub(super) fn edits_of_any_format<'de, D: Deserializer<'de>>(
    reader: D,
) -> Result<Vec<PropertyEdit>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Stored {
        Commands(Vec<PropertyEdit>),
        ByPath(BTreeMap<String, f64>),
    }
    Ok(match Stored::deserialize(reader)? {
        Stored::Commands(edits) => edits,
        Stored::ByPath(values) => values
            .into_iter()
            .map(|(path, value)| PropertyEdit::Set { path, value })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn states_of_format_1_load_as_commands_and_format_2_round_trips() {
        let old = r#"{"format":1,"edits":{"strings:detune_cents":1.5,"tuning:a4_hz":442.0}}"#;
        let state: InstrumentState = serde_json::from_str(old).unwrap();
        assert_eq!(
            state.edits,
            vec![
                PropertyEdit::Set {
                    path: "strings:detune_cents".into(),
                    value: 1.5
                },
                PropertyEdit::Set {
                    path: "tuning:a4_hz".into(),
                    value: 442.0
                },
            ]
        );
        let new = InstrumentState {
            format: STATE_FORMAT,
            edits: vec![
                PropertyEdit::Set {
                    path: "strings/key/61:loss_b1".into(),
                    value: 0.9,
                },
                PropertyEdit::Inherit {
                    path: "hammers/key/60:felt_stiffness".into(),
                },
            ],
        };
        let text = serde_json::to_string(&new).unwrap();
        assert_eq!(serde_json::from_str::<InstrumentState>(&text).unwrap(), new);
        assert!(serde_json::from_str::<InstrumentState>(r#"{"format":2,"edits":7}"#).is_err());
    }
}
