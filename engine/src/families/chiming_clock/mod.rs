//! A chiming bracket clock whose sound comes from its mechanism.
//!
//! - [`movement`]: the going train (mainspring, gear train, lever
//!   escapement, balance) in the mechanical scheduler, in SI units; its
//!   parts' blows are found as they happen.
//! - [`trains`]: the chime and strike trains: spring, pin barrel, fly.
//! - [`westminster`]: the quarters pinned on the chime barrel.
//! - [`mechanics`]: all of it as the worker drives it.
//! - [`case`]: the plate and case the ticks ring in.
//! - [`body`]: one bank of their modes, where every blow rings on.
//! - [`report`]: the beat and the trains' cycles, as `analyze` reports them.
//! - [`voices`]: the rods and the ticking sites at audio rate.

pub mod body;
pub mod case;
pub mod mechanics;
pub mod movement;
pub mod report;
mod spec;
pub mod trains;
pub mod voices;
pub mod westminster;

pub use mechanics::ClockMechanics;
pub use report::ClockReport;
pub use spec::ClockSpec;
pub use voices::ClockVoices;

use super::thrown::ThrownStrikers;
use crate::instrument::{ObjectKind, Preset};
use crate::rt::{Family, Mechanics, SynthError, Voices};

/// The chiming-clock family.
#[derive(Debug, Clone, Copy)]
pub struct ChimingClock;

impl Family for ChimingClock {
    fn name(&self) -> &'static str {
        "chiming-clock"
    }

    fn presets(&self) -> &'static [(&'static str, &'static str)] {
        &[(
            "chiming-clock",
            include_str!("../../../../presets/chiming-clock.toml"),
        )]
    }

    fn object_kinds(&self) -> &'static [ObjectKind] {
        spec::KINDS
    }

    fn fits(&self, preset: &Preset) -> bool {
        preset
            .topology()
            .is_ok_and(|t| t.joined::<ClockSpec>().is_some() && t.bars().is_some())
    }

    fn companions(&self) -> &'static [&'static str] {
        &["clock"]
    }

    fn voices(&self, preset: &Preset, sample_rate: f64) -> Result<Box<dyn Voices>, SynthError> {
        let topology = preset.topology().map_err(SynthError::Preset)?;
        let spec = topology.joined::<ClockSpec>().ok_or_else(|| {
            SynthError::Family("a chiming clock needs a [clock.NAME]".to_string())
        })?;
        Ok(Box::new(ClockVoices::new(preset, spec, sample_rate)?))
    }

    fn mechanics(&self, preset: &Preset) -> Box<dyn Mechanics> {
        match ClockMechanics::new(preset) {
            Some(clock) => Box::new(clock),
            None => Box::new(ThrownStrikers::new(preset.velocity)),
        }
    }
}
