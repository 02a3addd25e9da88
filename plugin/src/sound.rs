//! What the host parameters do to the instrument: each sets the property
//! paths its declaration reaches in the chosen preset (see
//! [`crate::host_params::HOST_PARAMS`]). The instrument is then rebuilt off the
//! audio thread and swapped in live at the start of a block: sounding notes
//! carry on with the new values (a change of instrument stops them).

use std::sync::OnceLock;

use nice_plug::prelude::Enum;
use orchard_engine::instrument::{Preset, PropertyEdit, RoomSpec};

use crate::host_params::{Change, HOST_PARAMS, Instrument, PARAM_COUNT};
use crate::params::OrchardParams;

/// The preset played in place of the instrument parameter's built-in one, if
/// chosen (once, before any plugin is created: the standalone's `--preset`).
static BASE_PRESET: OnceLock<Preset> = OnceLock::new();

/// Plays `preset` in place of the built-in instruments from now on in this
/// process; false (nothing changes) if one was chosen already.
pub fn set_base_preset(preset: Preset) -> bool {
    BASE_PRESET.set(preset).is_ok()
}

/// The values of the host parameters that shape the instrument, as the host
/// last set them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoundSettings {
    /// The built-in instrument.
    pub instrument: Instrument,
    /// Each host parameter's plain value (a choice's index, a switch's 0 or
    /// 1), in the order of [`HOST_PARAMS`]; 0 for those that drive no
    /// property (the output level and the instrument choice), so that
    /// moving them is no change of the instrument.
    values: [f32; PARAM_COUNT],
}

impl SoundSettings {
    /// The parameters' present values (atomics: safe on the audio thread;
    /// allocates nothing).
    pub fn from_params(params: &OrchardParams) -> Self {
        Self::from_values(params.host.instrument.value(), params.host.plain_values())
    }

    /// `instrument` with each host parameter at its plain value in
    /// `values`, in the order of [`HOST_PARAMS`] (allocates nothing).
    pub fn from_values(instrument: Instrument, mut values: [f32; PARAM_COUNT]) -> Self {
        for (value, declaration) in values.iter_mut().zip(&HOST_PARAMS) {
            if declaration.reach.is_none() {
                *value = 0.0;
            }
        }
        Self { instrument, values }
    }

    /// The plain value of the host parameter `id`, if it shapes the
    /// instrument.
    pub fn value(&self, id: &str) -> Option<f32> {
        let index = HOST_PARAMS.iter().position(|p| p.id == id)?;
        HOST_PARAMS[index].reach.map(|_| self.values[index])
    }

    /// These settings with the host parameter `id` at the plain value
    /// `value` (a parameter that shapes nothing, or no parameter, is left
    /// as it is).
    pub fn with(mut self, id: &str, value: f32) -> Self {
        if let Some(index) = HOST_PARAMS
            .iter()
            .position(|p| p.id == id && p.reach.is_some())
        {
            self.values[index] = value;
        }
        self
    }

    /// The choice parameter `id` is at (its first choice if there is no
    /// such parameter).
    pub fn choice<T: Enum>(&self, id: &str) -> T {
        T::from_index(self.value(id).unwrap_or(0.0) as usize)
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

    /// The chosen instrument with these settings applied: each host
    /// parameter changes every property it reaches in the preset, in the
    /// order of [`HOST_PARAMS`].
    pub fn instrument(&self) -> Preset {
        let mut preset = match BASE_PRESET.get() {
            Some(base) => base.clone(),
            None => Preset::load(self.instrument.preset_name())
                .expect("the built-in presets are tested to load"),
        };
        // The room knob up brings a room to a preset heard dry; at 0 a
        // preset without a room stays without one.
        let brings_room = HOST_PARAMS
            .iter()
            .zip(&self.values)
            .any(|(declaration, &value)| declaration.knob.brings_room(value));
        if brings_room && preset.room.is_none() {
            preset.room = Some(RoomSpec::default());
        }
        let base = preset.clone();
        for (declaration, &value) in HOST_PARAMS.iter().zip(&self.values) {
            let (Some(reach), Some(change)) = (declaration.reach, declaration.knob.change(value))
            else {
                continue;
            };
            for path in reach.paths(&base) {
                let value = match change {
                    Change::To(value) => value,
                    Change::Times(factor) => match base.get(&path) {
                        Some(value) => value * factor,
                        None => continue,
                    },
                };
                // Out of the preset's range: the property keeps its value.
                let _ = preset.set(&path, value);
            }
        }
        preset
    }
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

    /// Every host parameter but the output level and the instrument choice
    /// reaches declared properties of the grand or the clock, and changes
    /// them at its default. Renaming a property fails here.
    #[test]
    fn every_host_parameter_reaches_a_declared_property() {
        let grand = Preset::default_grand();
        let clock = Preset::load("chiming-clock").unwrap();
        let mut in_a_room = grand.clone();
        in_a_room.room = Some(RoomSpec::default());
        let settings = defaults();
        for declaration in &HOST_PARAMS {
            let Some(reach) = declaration.reach else {
                assert!(["level", "instrument"].contains(&declaration.id));
                continue;
            };
            let id = declaration.id;
            let mut reached = 0;
            for preset in [&grand, &clock, &in_a_room] {
                for path in reach.paths(preset) {
                    assert!(preset.property_info(&path).is_some(), "{id}: {path}");
                    reached += 1;
                }
            }
            assert!(reached > 0, "parameter {id} reaches nothing");
            let value = settings.value(id).expect("it shapes the instrument");
            assert!(
                declaration.knob.change(value).is_some(),
                "{id} changes nothing"
            );
        }
        // A renamed field reaches nothing, and the test above would say so.
        let renamed = crate::host_params::PropertyReach::Field {
            kinds: &["stiff-strings"],
            field: "detune",
        };
        assert!(renamed.paths(&grand).is_empty());
    }

    #[test]
    fn settings_reach_their_property_paths() {
        let settings = defaults()
            .with("hardness", 1.0)
            .with("decay", 2.0)
            .with("a4", 442.0)
            .with("detune", 2.0);
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

    /// The clock's parameters set its hands, start and stop it and wind it;
    /// at their defaults they leave the built-in clock as its preset is.
    #[test]
    fn clock_parameters_reach_the_clock() {
        let clock = SoundSettings {
            instrument: Instrument::named("chiming-clock").unwrap(),
            ..defaults()
        };
        let preset = Preset::load("chiming-clock").unwrap();
        assert_eq!(
            clock.instrument().get("clock:time_h"),
            preset.get("clock:time_h")
        );
        assert_eq!(clock.instrument().get("clock:running"), Some(1.0));
        let set = clock
            .with("clock-running", 0.0)
            .with("clock-time", 9.5)
            .with("clock-winding", 0.25)
            .instrument();
        assert_eq!(set.get("clock:running"), Some(0.0));
        assert_eq!(set.get("clock:time_h"), Some(9.5));
        assert_eq!(set.get("clock:wound"), Some(0.25));
    }

    /// The mechanism parameters stop a music box's cylinder and wind its
    /// spring as they do a clock's; at their defaults the built-in box's
    /// cylinder turns (its preset holds it, for MIDI files), fully wound as
    /// its preset has it.
    #[test]
    fn mechanism_parameters_reach_the_music_box() {
        let box_settings = SoundSettings {
            instrument: Instrument::named("music-box").unwrap(),
            ..defaults()
        };
        let preset = Preset::load("music-box").unwrap();
        assert_eq!(preset.get("box:running"), Some(0.0));
        assert_eq!(box_settings.instrument().get("box:running"), Some(1.0));
        assert_eq!(
            box_settings.instrument().get("box:wound"),
            preset.get("box:wound")
        );
        let set = box_settings
            .with("clock-running", 0.0)
            .with("clock-winding", 0.25)
            .instrument();
        assert_eq!(set.get("box:running"), Some(0.0));
        assert_eq!(set.get("box:wound"), Some(0.25));
    }

    /// The temperament and its key reach the tuning: Vallotti laid from E♭
    /// moves the keys as the engine's temperament does, A4 held.
    #[test]
    fn temperament_parameters_reach_the_tuning() {
        use crate::tuning_choices::TemperamentChoice;
        use orchard_engine::instrument::Temperament;
        let preset = defaults()
            .with(
                "temperament",
                TemperamentChoice(Temperament::Vallotti).to_index() as f32,
            )
            .with("temperament-key", 3.0)
            .instrument();
        assert_eq!(preset.get("tuning:temperament"), Some(2.0));
        assert_eq!(preset.get("tuning:temperament_key"), Some(3.0));
        assert_eq!(preset.fundamental_hz(69), 440.0);
        let grand = Preset::default_grand();
        let moved = 1200.0 * (preset.fundamental_hz(62) / grand.fundamental_hz(62)).log2();
        let expected = Temperament::Vallotti.key_offset_cents(62, 3);
        assert!((moved - expected).abs() < 1e-9, "{moved} {expected}");
        assert!(expected.abs() > 1.0);
    }

    /// The room knob brings the default room to the grand, which has none,
    /// at the knob's mix; the decay knob scales its T60. At 0 the grand
    /// stays dry, without a room.
    #[test]
    fn room_parameters_bring_a_room() {
        assert_eq!(defaults().instrument().room, None);
        let decay_only = defaults().with("room-decay", 2.0);
        assert_eq!(decay_only.instrument().room, None);
        let room = defaults()
            .with("room", 0.3)
            .with("room-decay", 2.0)
            .instrument()
            .room
            .expect("a room");
        let default = RoomSpec::default();
        assert_eq!(room.mix, 0.3);
        assert!((room.t60_s - 2.0 * default.t60_s).abs() < 1e-12);
        assert!(room.same_geometry(&default));
    }

    /// The microphone parameter moves the grand's microphones; at its
    /// default it leaves the preset's (the close pair) as it is.
    #[test]
    fn the_microphone_parameter_reaches_the_output() {
        assert_eq!(defaults().instrument().output.microphone, 2);
        let bridge = defaults().with("microphone", 0.0).instrument();
        assert_eq!(bridge.get("output:microphone"), Some(0.0));
    }
}
