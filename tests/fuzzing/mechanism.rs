//! Mechanism TOML, as `orchard analyze --mechanism FILE` and the editor's
//! clockwork view read it.

use orchard_engine::mech::mechanism::{Mechanism, Stepper};

use super::check;

/// Simulated time a mechanism that builds is run for, s.
const RUN_S: f64 = 0.05;
/// Most integration steps tried in that time.
const MAX_STEPS: usize = 50;

/// Parses and builds `data` as a mechanism. A mechanism refused is refused
/// in one line; one built runs a few steps from rest (as `orchard analyze`
/// does) without a panic, and any failure to step is one line.
pub fn mechanism_toml(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Mechanism::from_toml(text) {
        Err(error) => check::one_line(&error.to_string()),
        Ok(mut mechanism) => {
            let _ = mechanism.state_names();
            let _ = mechanism.shapes().count();
            let mut stepper = Stepper::start(&mut mechanism, 0.0, 1e-3, 1e-12);
            if let Err(error) = stepper.advance(&mut mechanism, RUN_S, MAX_STEPS, |_, _, _| {}) {
                check::one_line(&error.to_string());
            }
        }
    }
}
