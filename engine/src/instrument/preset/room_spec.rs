//! The room the instrument is heard in, as a preset lists it (`[room]`): a
//! shoebox hall whose walls give early reflections, a late reverb that dies
//! away in `t60_s`, and how much of it is mixed with the dry sound. A preset
//! without `[room]` is heard dry, as before rooms existed.

use serde::{Deserialize, Serialize};

use super::PresetError;
use super::check::Checker;

/// A shoebox room and the dry/room mix (see [`crate::room`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomSpec {
    /// The room's share of the output, 0 (dry: the room is off) to 1 (the
    /// room alone): output = (1 − mix)·dry + mix·(early + late).
    pub mix: f64,
    /// Time the late reverb takes to fade by 60 dB, s (at every frequency).
    pub t60_s: f64,
    /// Length of the room from left to right as the listener faces the
    /// instrument, m.
    pub width_m: f64,
    /// Length of the room from the instrument's wall to the back wall, m.
    pub depth_m: f64,
    /// Height of the room, m.
    pub height_m: f64,
    /// Energy a wall absorbs at each reflection, 0 (a mirror) to 1 (open
    /// air): an early reflection's amplitude falls by √(1 − absorption) per
    /// bounce.
    pub absorption: f64,
}

impl Default for RoomSpec {
    /// A small concert hall, off (`mix` 0).
    fn default() -> Self {
        Self {
            mix: 0.0,
            t60_s: 1.8,
            width_m: 18.0,
            depth_m: 26.0,
            height_m: 9.0,
            absorption: 0.25,
        }
    }
}

impl RoomSpec {
    /// Whether the room is heard at all (`mix` above 0).
    pub fn is_on(&self) -> bool {
        self.mix > 0.0
    }

    /// Whether `other` has the same walls: a room of the same geometry at
    /// the same rate takes other values without rebuilding its delays.
    pub fn same_geometry(&self, other: &Self) -> bool {
        (self.width_m, self.depth_m, self.height_m)
            == (other.width_m, other.depth_m, other.height_m)
    }

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
