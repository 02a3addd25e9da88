//! The celesta: felt hammers thrown by a simplified piano action strike
//! steel bars, free at both ends and tuned by undercutting (partials at the
//! preset's ratios instead of the uniform bar's 1 : 2.7565 : 5.4039); each
//! bar sits over a wooden Helmholtz box tuned to its fundamental, and felt
//! dampers, lifted by the keys and the damper pedal, stop the bars.
//!
//! The bars, hammers, boxes and dampers are one wave-digital tree per key
//! ([`MalletBar::with_fittings`], see `instrument::bar_fittings`), played by
//! the mallet bars' voices; the action is [`CelestaAction`].

mod mechanics;
mod spec;

pub use mechanics::CelestaAction;
pub use spec::CelestaSpec;

use crate::families::LiveProperties;
use crate::families::mallet_bar::BarVoices;
use crate::instrument::{BarFittings, HelmholtzBox, MalletBar, ObjectKind, Preset};
use crate::rt::{Family, Mechanics, SynthError, Voices};

/// The celesta family.
#[derive(Debug, Clone, Copy)]
pub struct Celesta;

/// The celesta of `preset`'s objects, if it has one.
fn spec(preset: &Preset) -> Option<&CelestaSpec> {
    preset.topology().ok()?.joined::<CelestaSpec>()
}

/// What `spec` mounts on every bar: its box (none at a coupling of 0) and
/// its damper.
pub fn fittings(spec: &CelestaSpec) -> BarFittings {
    BarFittings {
        resonator: (spec.box_coupling > 0.0).then_some(HelmholtzBox {
            coupling: spec.box_coupling,
            q: spec.box_q,
            mouth_gain: spec.mouth_gain,
        }),
        damper_t60_s: Some(spec.damper_t60_s),
    }
}

impl Family for Celesta {
    fn name(&self) -> &'static str {
        "celesta"
    }

    fn presets(&self) -> &'static [(&'static str, &'static str)] {
        &[("celesta", include_str!("../../../../presets/celesta.toml"))]
    }

    fn object_kinds(&self) -> &'static [ObjectKind] {
        spec::KINDS
    }

    fn fits(&self, preset: &Preset) -> bool {
        preset
            .topology()
            .is_ok_and(|t| t.joined::<CelestaSpec>().is_some() && t.bars().is_some())
    }

    fn companions(&self) -> &'static [&'static str] {
        &["celesta"]
    }

    fn voices(&self, preset: &Preset, sample_rate: f64) -> Result<Box<dyn Voices>, SynthError> {
        let spec = spec(preset)
            .ok_or_else(|| SynthError::Family("a celesta needs a [celesta.NAME]".to_string()))?;
        let ratios = spec.partial_ratios();
        let fittings = fittings(spec);
        let voices = BarVoices::build(preset, |params, silence| {
            let partials: Vec<f64> = ratios.iter().map(|r| r * params.fundamental_hz).collect();
            MalletBar::with_fittings(
                params.key,
                &params.point_modes_at(&partials),
                &params.striker(),
                &fittings,
                (params.fundamental_hz, sample_rate, silence),
            )
        })?;
        Ok(Box::new(voices))
    }

    fn mechanics(&self, preset: &Preset) -> Box<dyn Mechanics> {
        // A preset that validates has its celesta; without one the hammers
        // are thrown at once.
        let blow_distance_m = spec(preset).map_or(0.0, |s| s.blow_distance_m);
        let live = preset
            .objects
            .of::<CelestaSpec>()
            .next()
            .map(|(name, _)| LiveProperties::of(preset, name))
            .unwrap_or_default();
        Box::new(CelestaAction::new(preset.velocity, blow_distance_m, live))
    }
}
