//! `[output]`: from the resonators' force to the output, and where the
//! instrument is heard from.

use serde::{Deserialize, Serialize};

use crate::fields;

/// From the resonators' force to the output.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Output sample value per newton of bridge force (for bars: per m/s of the
    /// pickup point's velocity).
    pub gain_per_newton: f64,
    /// Stereo spread of the keyboard, 0 (mono) to 1 (lowest key hard left),
    /// where the sound is panned (a piano heard from the bridge or the
    /// pianist's seat); for a piano's close pair, how far apart the two
    /// microphones stand (0 together, 1 at the bridge's ends).
    pub stereo_width: f64,
    /// Where the instrument is heard from (for a piano: a stereo pair, each
    /// microphone hearing the board and the strings from its own place), by
    /// its index in [`MICROPHONES`]: 0 (the default when a preset names
    /// none) the bridge, the board's sound as the bridge force, panned.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub microphone: u32,
}

fn is_zero_u32(x: &u32) -> bool {
    *x == 0
}

/// The microphone positions `output:microphone` chooses from, by index.
pub const MICROPHONES: [&str; 3] = ["bridge", "player", "close"];

fields!(OutputSpec {
    gain_per_newton: Real, "1/N", [1e-6, 10.0, "1e-6 to 10 per N"],
        "Output level per newton of bridge force (for bars: per m/s at the pickup)";
    stereo_width: Real, "", [0.0, 1.0, "0 to 1"],
        "How widely the keyboard spreads across the stereo field: 0 mono, 1 lowest key hard left (a piano's close pair: how far apart its microphones stand, 0 together, 1 at the bridge's ends)";
    microphone: Count = 0.0, "", [0.0, (MICROPHONES.len() - 1) as f64, "0 (bridge), 1 (player) or 2 (close)"],
        "Where a piano is heard from: 0 the bridge force (panned), 1 the pianist's seat, 2 a close pair over the strings (each microphone hears the board and the strings from its own place)";
});
