//! The action's keyboard: how many keys it has and which MIDI notes they are
//! (A0 to C8).

use crate::families::grand_piano::objects::ActionSpec;

/// The lowest and highest MIDI notes the action has (A0 and C8).
pub const NOTES: (u8, u8) = ActionSpec::NOTES;
/// MIDI note of the lowest key.
pub const LOWEST_NOTE: u8 = NOTES.0;
/// Number of keys (A0 to C8).
pub const KEYS: usize = (NOTES.1 - NOTES.0) as usize + 1;

/// Index of MIDI `note` among the action's keys from A0, if it has that key.
pub fn key_index(note: u8) -> Option<usize> {
    let index = usize::from(note.checked_sub(LOWEST_NOTE)?);
    (index < KEYS).then_some(index)
}
