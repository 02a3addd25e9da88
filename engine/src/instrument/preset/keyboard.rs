//! `[keyboard]`: the keys that have a voice.

use serde::{Deserialize, Serialize};

use crate::fields;

/// The keys that have a voice.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keyboard {
    /// Lowest MIDI key (21 is A0 on an 88-key piano).
    pub lowest_key: u8,
    /// Highest MIDI key (108 is C8).
    pub highest_key: u8,
}

fields!(Keyboard {
    lowest_key: Key, "", "Lowest MIDI key that plays";
    highest_key: Key, "", [0.0, 127.0, "a MIDI key, 0 to 127"], at_least lowest_key, "Highest MIDI key that plays";
});
