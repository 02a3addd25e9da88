//! The ranges a preset's `[room]` is checked against (the room itself is
//! [`RoomSpec`], the room's own).

use super::check::Checker;
use super::error::PresetError;

use crate::room::RoomSpec;

impl RoomSpec {
    /// Checks every value against its range.
    pub(super) fn validate(&self, c: &Checker) -> Result<(), PresetError> {
        c.range("mix", self.mix, 0.0, 1.0, "0 (dry) to 1 (room alone)")?;
        c.range("t60_s", self.t60_s, 0.1, 10.0, "0.1 to 10 s")?;
        let side = "3 to 60 m";
        c.range("width_m", self.width_m, 3.0, 60.0, side)?;
        c.range("depth_m", self.depth_m, 3.0, 60.0, side)?;
        c.range("height_m", self.height_m, 2.5, 30.0, "2.5 to 30 m")?;
        c.range("absorption", self.absorption, 0.01, 1.0, "0.01 to 1")
    }
}

crate::fields!(RoomSpec {
    mix: Real, "", "How much of the room is heard: 0 dry (the room off), 1 the room alone";
    t60_s: Real, "s", "Time the room's reverb takes to fade by 60 dB";
    width_m: Real, "m", "Width of the room, left to right as the listener faces the instrument";
    depth_m: Real, "m", "Depth of the room, from the instrument's wall to the back wall";
    height_m: Real, "m", "Height of the room";
    absorption: Real, "", "Energy the walls absorb at each reflection: more makes the early reflections weaker";
});
