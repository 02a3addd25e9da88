//! The ranges a preset's `[room]` is checked against (the room itself is
//! [`RoomSpec`], the room's own).

use super::check::Checker;
use super::error::PresetError;

use crate::room::RoomSpec;

impl RoomSpec {
    /// Checks every value against its range.
    pub(super) fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        c.declared(self)
    }
}

crate::fields!(RoomSpec {
    mix: Real, "", [0.0, 1.0, "0 (dry) to 1 (room alone)"], "How much of the room is heard: 0 dry (the room off), 1 the room alone";
    t60_s: Real, "s", [0.1, 10.0, "0.1 to 10 s"], "Time the room's reverb takes to fade by 60 dB";
    width_m: Real, "m", [3.0, 60.0, "3 to 60 m"], "Width of the room, left to right as the listener faces the instrument";
    depth_m: Real, "m", [3.0, 60.0, "3 to 60 m"], "Depth of the room, from the instrument's wall to the back wall";
    height_m: Real, "m", [2.5, 30.0, "2.5 to 30 m"], "Height of the room";
    absorption: Real, "", [0.01, 1.0, "0.01 to 1"], "Energy the walls absorb at each reflection: more makes the early reflections weaker";
});
