//! The grand piano: each key's one to three stiff strings struck by felt
//! hammers shared through a pool, standing on one bridge and soundboard,
//! thrown by a grand action with its dampers and pedals.

pub mod action;
mod hammer_pool;
mod key_params;
mod mechanics;
mod objects;
mod string_key;
mod voice;
mod voice_error;
mod voices;

pub use hammer_pool::{HammerPool, SHARED_HAMMERS};
pub use key_params::KeyParams;
pub use mechanics::PianoMechanics;
pub use objects::{ActionSpec, DamperSet, SoundboardSpec};
pub use string_key::StringKey;
pub use voice::StruckString;
pub use voice_error::VoiceError;
pub use voices::PianoVoices;

use super::thrown::ThrownStrikers;
use crate::instrument::{DEFAULT_PRESET_TOML, ObjectKind, Preset};
use crate::rt::{Family, Mechanics, SynthError, Voices};
use action::ActionSettings;

/// Damper travel time when the piano has no dampers, s (the action still
/// times its damper levers).
const UNDAMPED_TRAVEL_S: f64 = 0.006;

/// The grand piano family.
#[derive(Debug, Clone, Copy)]
pub struct GrandPiano;

impl Family for GrandPiano {
    fn name(&self) -> &'static str {
        "grand-piano"
    }

    fn presets(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("grand-piano", DEFAULT_PRESET_TOML),
            (
                "fortepiano",
                include_str!("../../../../presets/fortepiano.toml"),
            ),
        ]
    }

    fn object_kinds(&self) -> &'static [ObjectKind] {
        objects::KINDS
    }

    fn fits(&self, preset: &Preset) -> bool {
        preset.topology().is_ok_and(|t| t.strings().is_some())
    }

    fn companions(&self) -> &'static [&'static str] {
        &["dampers", "grand-action", "soundboard"]
    }

    fn voices(&self, preset: &Preset, sample_rate: f64) -> Result<Box<dyn Voices>, SynthError> {
        Ok(Box::new(PianoVoices::new(preset, sample_rate)?))
    }

    /// The grand action the preset describes; without one, a note-on
    /// throws the hammer at once.
    fn mechanics(&self, preset: &Preset) -> Box<dyn Mechanics> {
        let action = preset.topology().ok().and_then(|t| {
            let spec = t.joined::<ActionSpec>()?;
            let damper_travel_s = t
                .joined::<DamperSet>()
                .map_or(UNDAMPED_TRAVEL_S, |d| d.travel_s);
            Some(ActionSettings::of(
                spec,
                preset.velocity,
                t.hammers.start_gap_m,
                damper_travel_s,
            ))
        });
        match action {
            Some(settings) => Box::new(PianoMechanics::new(settings, preset)),
            None => Box::new(ThrownStrikers::new(preset.velocity)),
        }
    }
}
