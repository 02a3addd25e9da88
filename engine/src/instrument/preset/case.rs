//! A wooden case's modes, as a clock or a music box lists them
//! (`case_lowest_mode_hz`, `case_highest_mode_hz` at least it, `case_modes`,
//! `case_t60_s`, `case_modal_mass_kg`): the ranges both families declare
//! their case's fields with (`[= case::LOWEST_MODE_HZ]` in `fields!`).

use crate::props::DeclaredRange;

/// `case_lowest_mode_hz`, Hz.
pub const LOWEST_MODE_HZ: DeclaredRange = DeclaredRange {
    min: 20.0,
    max: 5000.0,
    text: "20 to 5000 Hz",
};

/// `case_highest_mode_hz`, Hz (and at least `case_lowest_mode_hz`).
pub const HIGHEST_MODE_HZ: DeclaredRange = DeclaredRange {
    min: 20.0,
    max: 10000.0,
    text: "20 to 10 000 Hz",
};

/// `case_modes`: how many.
pub const MODES: DeclaredRange = DeclaredRange {
    min: 0.0,
    max: 64.0,
    text: "0 to 64",
};

/// `case_t60_s`, s.
pub const T60_S: DeclaredRange = DeclaredRange {
    min: 1e-3,
    max: 10.0,
    text: "1 ms to 10 s",
};

/// `case_modal_mass_kg`, kg.
pub const MODAL_MASS_KG: DeclaredRange = DeclaredRange {
    min: 1e-3,
    max: 100.0,
    text: "1 g to 100 kg",
};
