//! The formats the instrument state has been saved in, and reading each of
//! them as this build's.
//!
//! Format 0 is the state of Orchard 0.1.0, which had only the output level
//! and no instrument state ([`super::upgrade_state`] gives it an empty one);
//! format 1 held edits as a map from property path to value; format 2
//! holds them as a list of commands in the order they were made (a value
//! set, or a property made inherited again). States saved before MIDI learn
//! have no bindings.

use std::collections::BTreeMap;

use orchard_engine::instrument::PropertyEdit;
use serde::{Deserialize, Deserializer};

/// The format of [`super::InstrumentState`] this build writes.
pub const STATE_FORMAT: u32 = 2;

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
    use crate::params::InstrumentState;

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
