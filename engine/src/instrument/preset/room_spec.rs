//! The ranges a preset's `[room]` is checked against (the room itself is
//! [`RoomSpec`], the room's own).

use super::PresetError;
use super::check::Checker;
// Re-exported for `fields.rs`, which names it `super::room_spec::RoomSpec`.
pub(super) use crate::room::RoomSpec;

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
