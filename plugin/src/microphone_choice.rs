//! Where the instrument is heard from, as a host parameter
//! (`output:microphone`). The ids are permanent: hosts store automation under
//! them.

use nice_plug::prelude::Enum;
use orchard_engine::instrument::MICROPHONES;

/// A microphone position (an index into [`MICROPHONES`]): the bridge (the
/// bridge force, panned), the pianist's seat, or a close pair over the
/// strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MicrophoneChoice(pub u32);

/// The positions as hosts show them, in [`MICROPHONES`]' order.
const LABELS: [&str; 3] = ["Bridge", "Pianist's seat", "Close"];

impl Enum for MicrophoneChoice {
    fn variants() -> &'static [&'static str] {
        &LABELS
    }

    fn ids() -> Option<&'static [&'static str]> {
        Some(&MICROPHONES)
    }

    fn to_index(self) -> usize {
        self.0 as usize
    }

    fn from_index(index: usize) -> Self {
        Self(
            u32::try_from(index)
                .ok()
                .filter(|&i| (i as usize) < MICROPHONES.len())
                .unwrap_or(0),
        )
    }
}
