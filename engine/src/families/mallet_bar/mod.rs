//! Mallets and bars: felt mallets thrown straight from the player's velocity
//! at free-free bars (partials 1 : 2.7565 : 5.4039), each key on its own.

mod voices;

pub use voices::BarVoices;

use super::thrown::ThrownStrikers;
use crate::instrument::Preset;
use crate::rt::{Family, Mechanics, SynthError, Voices};

/// The mallet-and-bar family.
#[derive(Debug, Clone, Copy)]
pub struct MalletBars;

impl Family for MalletBars {
    fn name(&self) -> &'static str {
        "mallet-bar"
    }

    fn presets(&self) -> &'static [(&'static str, &'static str)] {
        &[(
            "mallet-bar",
            include_str!("../../../../presets/mallet-bar.toml"),
        )]
    }

    fn fits(&self, preset: &Preset) -> bool {
        // Bars and hammers alone: what joins them (a clock's trains, a
        // celesta's action) belongs to another family.
        preset
            .topology()
            .is_ok_and(|t| t.bars().is_some() && t.joined.is_empty())
    }

    fn voices(&self, preset: &Preset, sample_rate: f64) -> Result<Box<dyn Voices>, SynthError> {
        Ok(Box::new(BarVoices::new(preset, sample_rate)?))
    }

    fn mechanics(&self, preset: &Preset) -> Box<dyn Mechanics> {
        Box::new(ThrownStrikers::new(preset.velocity))
    }
}
