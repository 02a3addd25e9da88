//! The room the instrument is heard in, as a preset lists it (`[room]`): a
//! shoebox hall whose walls give early reflections, a late reverb that dies
//! away in `t60_s`, and how much of it is mixed with the dry sound. A preset
//! without `[room]` is heard dry, as before rooms existed.

use serde::{Deserialize, Serialize};

/// A shoebox room and the dry/room mix (see [`Room`](super::Room)).
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
}
