//! A cylinder music box: a comb of steel tines plucked by the pins of a
//! turning cylinder, the cylinder turned by a mainspring and governed by a
//! fly, the comb bolted to a resonant case.
//!
//! - [`comb`]: the tines as cut for their pitches (lead under the bass
//!   tips) and their modes, from the clamped-free beam with a tip mass.
//! - [`tine`]: one tine and its pin as a wave-digital tree at audio rate:
//!   the pin's Hertzian contact at the root.
//! - [`movement`]: spring, train, fly and cylinder in the mechanical
//!   scheduler.
//! - [`mechanics`]: the pins sending their plucks, the reactions coming
//!   back, MIDI notes plucking directly.
//! - [`voices`]: the comb and the case at audio rate.
//! - [`arrange`]: a tune pinned onto the cylinder (`orchard pin`).

pub mod arrange;
pub mod comb;
mod kind;
pub mod mechanics;
pub mod movement;
mod spec;
pub mod tine;
mod tine_tree;
pub mod voices;

pub use kind::{MIN_PIN_HYSTERESIS_S_PER_M, MIN_PIN_POSITION};
pub use mechanics::MusicBoxMechanics;
pub use spec::{MAX_PINS, MAX_TINES, MusicBoxSpec, PinSpec};
pub use voices::MusicBoxVoices;

use crate::instrument::{ObjectKind, Preset};
use crate::rt::{Family, Mechanics, SynthError, Voices};

/// The music-box family.
#[derive(Debug, Clone, Copy)]
pub struct MusicBox;

impl Family for MusicBox {
    fn name(&self) -> &'static str {
        "music-box"
    }

    fn presets(&self) -> &'static [(&'static str, &'static str)] {
        &[(
            "music-box",
            include_str!("../../../../presets/music-box.toml"),
        )]
    }

    fn object_kinds(&self) -> &'static [ObjectKind] {
        kind::KINDS
    }

    fn fits(&self, preset: &Preset) -> bool {
        preset
            .topology()
            .is_ok_and(|t| t.target_as::<MusicBoxSpec>().is_some())
    }

    fn voices(&self, preset: &Preset, sample_rate: f64) -> Result<Box<dyn Voices>, SynthError> {
        let topology = preset.topology().map_err(SynthError::Preset)?;
        let spec = topology.target_as::<MusicBoxSpec>().ok_or_else(|| {
            SynthError::Family(
                "a music box needs a [music-box.NAME] as its strike's target".to_string(),
            )
        })?;
        Ok(Box::new(MusicBoxVoices::new(preset, spec, sample_rate)?))
    }

    fn mechanics(&self, preset: &Preset) -> Box<dyn Mechanics> {
        match MusicBoxMechanics::new(preset) {
            Some(mechanics) => Box::new(mechanics),
            None => Box::new(super::ThrownStrikers::new(preset.velocity)),
        }
    }
}
