//! A wooden case's modes, as a clock or a music box lists them: what both
//! families' cases are checked against.

use super::check::Checker;
use super::error::PresetError;

/// Checks a wooden case's modes as a clock or a music box lists them:
/// `case_lowest_mode_hz` and `case_highest_mode_hz` (in order),
/// `case_modes`, `case_t60_s` and `case_modal_mass_kg`.
pub fn check_case(
    c: &Checker,
    (lowest_hz, highest_hz): (f64, f64),
    modes: u32,
    t60_s: f64,
    modal_mass_kg: f64,
) -> Result<(), PresetError> {
    c.range(
        "case_lowest_mode_hz",
        lowest_hz,
        20.0,
        5000.0,
        "20 to 5000 Hz",
    )?;
    c.ordered(
        ("case_lowest_mode_hz", lowest_hz),
        ("case_highest_mode_hz", highest_hz),
        "at least case_lowest_mode_hz",
    )?;
    c.range(
        "case_highest_mode_hz",
        highest_hz,
        20.0,
        10000.0,
        "20 to 10 000 Hz",
    )?;
    c.range("case_modes", f64::from(modes), 0.0, 64.0, "0 to 64")?;
    c.range("case_t60_s", t60_s, 1e-3, 10.0, "1 ms to 10 s")?;
    c.range(
        "case_modal_mass_kg",
        modal_mass_kg,
        1e-3,
        100.0,
        "1 g to 100 kg",
    )
}
