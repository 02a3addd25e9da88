//! The action's keyboard: how many keys it has and which MIDI notes they are
//! (A0 to C8).

/// Number of keys (A0 to C8).
pub const KEYS: usize = 88;
/// MIDI note of the lowest key.
pub const LOWEST_NOTE: u8 = 21;
/// The lowest and highest MIDI notes the action has (A0 and C8).
pub const NOTES: (u8, u8) = (LOWEST_NOTE, LOWEST_NOTE + KEYS as u8 - 1);

/// Index of MIDI `note` among the action's keys from A0, if it has that key.
pub fn key_index(note: u8) -> Option<usize> {
    let index = usize::from(note.checked_sub(LOWEST_NOTE)?);
    (index < KEYS).then_some(index)
}
