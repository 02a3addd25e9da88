//! What the host parameters do to the instrument: each sets property paths of
//! the chosen preset. The instrument is then rebuilt off the audio thread and
//! swapped in live at the start of a block: sounding notes carry on with the
//! new values (a change of instrument stops them).

use std::sync::OnceLock;

use orchard_engine::instrument::{Preset, PropertyEdit};

use crate::params::{Instrument, OrchardParams};

/// The preset played in place of the instrument parameter's built-in one, if
/// chosen (once, before any plugin is created: the standalone's `--preset`).
static BASE_PRESET: OnceLock<Preset> = OnceLock::new();

/// Plays `preset` in place of the built-in instruments from now on in this
/// process; false (nothing changes) if one was chosen already.
pub fn set_base_preset(preset: Preset) -> bool {
    BASE_PRESET.set(preset).is_ok()
}

/// The values of the sound parameters, as the host last set them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoundSettings {
    /// The built-in instrument.
    pub instrument: Instrument,
    /// −1 to 1: felt stiffness × 4^hardness (`HAMMERS/anchor/KEY:felt_stiffness`).
    pub hardness: f32,
    /// −1 to 1: string loss b2 ÷ 8^brightness (`STRINGS/anchor/KEY:loss_b2`).
    pub brightness: f32,
    /// 0.25 to 4: string loss b1 ÷ decay (`STRINGS/anchor/KEY:loss_b1`).
    pub decay: f32,
    /// Cents (`STRINGS:detune_cents`).
    pub detune: f32,
    /// Soundboard level (`SOUNDBOARD:body_gain`).
    pub resonance: f32,
    /// Hz (`tuning:a4_hz`).
    pub a4: f32,
    /// 0 to 1 (`tuning:stretch`).
    pub stretch: f32,
    /// Exponent (`velocity:curve`, and the action's `action:curve` at once).
    pub velocity_curve: f32,
    /// 0 to 1 (`output:stereo_width`).
    pub width: f32,
}

impl SoundSettings {
    /// The parameters' present values (atomics: safe on the audio thread).
    pub fn from_params(params: &OrchardParams) -> Self {
        Self {
            instrument: params.instrument.value(),
            hardness: params.hardness.value(),
            brightness: params.brightness.value(),
            decay: params.decay.value(),
            detune: params.detune.value(),
            resonance: params.resonance.value(),
            a4: params.a4.value(),
            stretch: params.stretch.value(),
            velocity_curve: params.velocity_curve.value(),
            width: params.width.value(),
        }
    }

    /// The chosen instrument with these settings, then `edits` applied in
    /// order. Each applies where the instrument has the part it names (a bar
    /// has no strings to detune); an edit the preset refuses leaves the
    /// instrument as it was.
    pub fn instrument_with(&self, edits: &[PropertyEdit]) -> Preset {
        let mut preset = self.instrument();
        for edit in edits {
            let _ = preset.apply(edit);
        }
        preset
    }

    /// The chosen instrument with these settings applied.
    pub fn instrument(&self) -> Preset {
        let mut preset = match BASE_PRESET.get() {
            Some(base) => base.clone(),
            None => Preset::load(self.instrument.preset_name())
                .expect("the built-in presets are tested to load"),
        };
        let base = preset.clone();
        let absolute = [
            (":detune_cents", self.detune),
            (":body_gain", self.resonance),
            ("tuning:a4_hz", self.a4),
            ("tuning:stretch", self.stretch),
            ("velocity:curve", self.velocity_curve),
            ("output:stereo_width", self.width),
        ];
        let scaled = [
            (":felt_stiffness", 4f64.powf(f64::from(self.hardness))),
            (":loss_b2", 8f64.powf(-f64::from(self.brightness))),
            (":loss_b1", 1.0 / f64::from(self.decay)),
        ];
        for path in base.paths() {
            let set_to = absolute
                .iter()
                .find(|(suffix, _)| path.ends_with(suffix))
                .map(|&(_, value)| decimal(value))
                .or_else(|| {
                    let (_, factor) = scaled.iter().find(|(suffix, _)| path.ends_with(suffix))?;
                    Some(base.get(&path)? * factor)
                });
            if let Some(value) = set_to {
                // Out of the preset's range: the property keeps its value.
                let _ = preset.set(&path, value);
            }
        }
        preset
    }
}

/// The `f64` a host means by an `f32` parameter value: the shortest decimal
/// that reads back as it (0.6, not 0.6000000238).
fn decimal(value: f32) -> f64 {
    value.to_string().parse().unwrap_or(f64::from(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> SoundSettings {
        SoundSettings::from_params(&OrchardParams::default())
    }

    /// The parameters' defaults are the grand piano as its preset describes it.
    #[test]
    fn defaults_leave_the_grand_as_it_is() {
        let settings = defaults();
        assert_eq!(settings.instrument(), Preset::default_grand());
    }

    #[test]
    fn settings_reach_their_property_paths() {
        let settings = SoundSettings {
            hardness: 1.0,
            decay: 2.0,
            a4: 442.0,
            detune: 2.0,
            ..defaults()
        };
        let grand = Preset::default_grand();
        let p = settings.instrument();
        let k = "hammers/anchor/60:felt_stiffness";
        assert!((p.get(k).unwrap() / grand.get(k).unwrap() - 4.0).abs() < 1e-12);
        let b1 = "strings/anchor/60:loss_b1";
        assert!((p.get(b1).unwrap() / grand.get(b1).unwrap() - 0.5).abs() < 1e-12);
        assert_eq!(p.get("tuning:a4_hz"), Some(442.0));
        assert_eq!(p.get("strings:detune_cents"), Some(2.0));
        let bars = SoundSettings {
            instrument: Instrument::named("mallet-bar").unwrap(),
            ..settings
        }
        .instrument();
        assert_eq!(bars.name, "Mallet and bar");
        assert_eq!(bars.get("tuning:a4_hz"), Some(442.0));
    }
}
