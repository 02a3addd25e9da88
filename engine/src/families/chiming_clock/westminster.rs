//! The Westminster quarters: five changes of four bells, rung one change at
//! the first quarter, two at the half, three at the third quarter and four
//! at the hour, ten changes in all, which is one turn of the chime barrel.

/// The five changes, as bells 1 (highest) to 4 (lowest), 0-based.
pub const CHANGES: [[usize; 4]; 5] = [
    [0, 1, 2, 3], // G♯ F♯ E B
    [2, 0, 1, 3], // E G♯ F♯ B
    [2, 1, 0, 2], // E F♯ G♯ E
    [0, 2, 1, 3], // G♯ E F♯ B
    [3, 1, 0, 2], // B F♯ G♯ E
];

/// The changes around the chime barrel, in the order they are rung: 1 | 2 3 |
/// 4 5 1 | 2 3 4 5 (0-based).
pub const BARREL: [usize; 10] = [0, 1, 2, 3, 4, 0, 1, 2, 3, 4];

/// Pin slots per change: four notes, then a rest.
pub const SLOTS_PER_CHANGE: usize = 5;

/// Pin slots around the barrel.
pub const SLOTS: usize = BARREL.len() * SLOTS_PER_CHANGE;

/// The slot the barrel rests at after quarter `q` (1 to 4) has been rung.
pub fn rest_slot(quarter: usize) -> usize {
    let changes: usize = (1..=quarter.clamp(1, 4)).sum();
    (changes * SLOTS_PER_CHANGE) % SLOTS
}

/// The bell (0-based) pinned at `slot`, or `None` for a rest.
pub fn bell_at(slot: usize) -> Option<usize> {
    let slot = slot % SLOTS;
    let (change, note) = (slot / SLOTS_PER_CHANGE, slot % SLOTS_PER_CHANGE);
    (note < 4).then(|| CHANGES[BARREL[change]][note])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_quarter_rings_its_changes_and_the_hour_ends_a_turn() {
        assert_eq!(rest_slot(1), 5);
        assert_eq!(rest_slot(2), 15);
        assert_eq!(rest_slot(3), 30);
        assert_eq!(rest_slot(4), 0);
        // The hour: changes 2, 3, 4, 5 from slot 30.
        let hour: Vec<_> = (30..50).filter_map(bell_at).collect();
        assert_eq!(hour[..4], [2, 0, 1, 3]);
        assert_eq!(hour[12..], [3, 1, 0, 2]);
        assert_eq!(hour.len(), 16);
    }
}
