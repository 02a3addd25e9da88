//! What the host parameters do to the instrument: each sets property paths of
//! the chosen preset. The instrument is then rebuilt off the audio thread and
//! swapped in live at the start of a block: sounding notes carry on with the
//! new values (a change of instrument stops them).

use std::sync::OnceLock;

use nice_plug::prelude::FloatParam;
use orchard_engine::instrument::{Preset, PropertyEdit, RoomSpec};

use crate::microphone_choice::MicrophoneChoice;
use crate::params::{Instrument, OrchardParams};
use crate::tuning_choices::{TemperamentChoice, TemperamentKey};

/// The preset played in place of the instrument parameter's built-in one, if
/// chosen (once, before any plugin is created: the standalone's `--preset`).
static BASE_PRESET: OnceLock<Preset> = OnceLock::new();

/// Plays `preset` in place of the built-in instruments from now on in this
/// process; false (nothing changes) if one was chosen already.
pub fn set_base_preset(preset: Preset) -> bool {
    BASE_PRESET.set(preset).is_ok()
}

/// What a host parameter reaches in a preset: checked against the preset's
/// declarations by the tests, so renaming a property breaks a test, not a
/// knob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// One property path of a component every preset has (`tuning:a4_hz`).
    Path(&'static str),
    /// One property path of the room (`room:mix`), reached only where the
    /// preset has a room: the Room knob brings one (reading a room path of
    /// a preset without a room gives the default room's values, and setting
    /// one would add a room).
    RoomPath(&'static str),
    /// Field `field` of every object of the kinds `kinds` (`stiff-strings`,
    /// `felt-hammers`, `soundboard`), on the object itself or on each of its
    /// anchors.
    Field {
        /// The objects' kinds, as a preset names them (`[KIND.NAME]`).
        kinds: &'static [&'static str],
        /// The field.
        field: &'static str,
    },
}

impl Target {
    /// Every property path of `preset` it reaches (none where the preset
    /// lacks the part: a bar has no strings to detune).
    pub fn paths(self, preset: &Preset) -> Vec<String> {
        match self {
            Self::Path(path) => preset
                .get(path)
                .map(|_| path.to_string())
                .into_iter()
                .collect(),
            Self::RoomPath(path) => preset
                .room
                .and_then(|_| preset.get(path))
                .map(|_| path.to_string())
                .into_iter()
                .collect(),
            Self::Field { kinds, field } => {
                let objects: Vec<String> = preset
                    .components()
                    .into_iter()
                    .filter(|c| kinds.contains(&c.kind))
                    .map(|c| c.path)
                    .collect();
                preset
                    .paths()
                    .into_iter()
                    .filter(|path| {
                        path.split_once(':').is_some_and(|(component, name)| {
                            name == field
                                && objects.iter().any(|object| {
                                    component == object
                                        || component
                                            .strip_prefix(object.as_str())
                                            .is_some_and(|rest| rest.starts_with("/anchor/"))
                                })
                        })
                    })
                    .collect()
            }
        }
    }
}

/// What each sound parameter (by its id) reaches; the output level and the
/// instrument choice reach none.
pub const TARGETS: &[(&str, Target)] = &[
    (
        "hardness",
        Target::Field {
            kinds: &["felt-hammers"],
            field: "felt_stiffness",
        },
    ),
    (
        "brightness",
        Target::Field {
            kinds: &["stiff-strings"],
            field: "loss_b2",
        },
    ),
    (
        "decay",
        Target::Field {
            kinds: &["stiff-strings"],
            field: "loss_b1",
        },
    ),
    (
        "detune",
        Target::Field {
            kinds: &["stiff-strings"],
            field: "detune_cents",
        },
    ),
    (
        "resonance",
        Target::Field {
            kinds: &["soundboard"],
            field: "body_gain",
        },
    ),
    ("a4", Target::Path("tuning:a4_hz")),
    ("stretch", Target::Path("tuning:stretch")),
    ("temperament", Target::Path("tuning:temperament")),
    ("temperament-key", Target::Path("tuning:temperament_key")),
    ("velocity-curve", Target::Path("velocity:curve")),
    ("width", Target::Path("output:stereo_width")),
    (
        "clock-running",
        Target::Field {
            kinds: &["clock", "music-box"],
            field: "running",
        },
    ),
    (
        "clock-time",
        Target::Field {
            kinds: &["clock"],
            field: "time_h",
        },
    ),
    (
        "clock-winding",
        Target::Field {
            kinds: &["clock", "music-box"],
            field: "wound",
        },
    ),
    ("microphone", Target::Path("output:microphone")),
    ("room", Target::RoomPath("room:mix")),
    ("room-decay", Target::RoomPath("room:t60_s")),
];

/// How a parameter changes the properties it reaches.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Change {
    /// To this value.
    To(f64),
    /// By this factor, from the preset's value.
    Times(f64),
}

/// The values of the sound parameters, as the host last set them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SoundSettings {
    /// The built-in instrument.
    pub instrument: Instrument,
    /// −1 to 1: felt stiffness × 4^hardness (every felt hammer's anchors).
    pub hardness: f32,
    /// −1 to 1: string loss b2 ÷ 8^brightness (every stiff string's anchors).
    pub brightness: f32,
    /// 0.25 to 4: string loss b1 ÷ decay (every stiff string's anchors).
    pub decay: f32,
    /// Cents (every stiff string's `detune_cents`).
    pub detune: f32,
    /// Soundboard level (every soundboard's `body_gain`).
    pub resonance: f32,
    /// Hz (`tuning:a4_hz`).
    pub a4: f32,
    /// 0 to 1 (`tuning:stretch`).
    pub stretch: f32,
    /// The temperament (`tuning:temperament`).
    pub temperament: TemperamentChoice,
    /// The key it is laid from (`tuning:temperament_key`).
    pub temperament_key: TemperamentKey,
    /// Exponent (`velocity:curve`, the action's too).
    pub velocity_curve: f32,
    /// 0 to 1 (`output:stereo_width`).
    pub width: f32,
    /// A clock's balance swings, a music box's cylinder turns (every
    /// clock's and music box's `running`).
    pub clock_running: bool,
    /// Hours after midnight a clock's hands are set to (every clock's `time_h`).
    pub clock_time: f32,
    /// 0 to 1 (every clock's and music box's `wound`).
    pub clock_winding: f32,
    /// Where it is heard from (`output:microphone`).
    pub microphone: MicrophoneChoice,
    /// 0 to 1 (`room:mix`): above 0 it sets the mix, and a preset without a
    /// room gets the default room; at 0 a preset's own room keeps its mix
    /// (the built-in ones have none: they are heard dry).
    pub room: f32,
    /// 0.25 to 4: the room's T60 (`room:t60_s`) times this.
    pub room_decay: f32,
}

impl SoundSettings {
    /// The parameters' present values (atomics: safe on the audio thread).
    pub fn from_params(params: &OrchardParams) -> Self {
        Self::from_values(params.instrument.value(), params, FloatParam::value)
    }

    /// `instrument` with each of `params`' sound parameters at the plain
    /// value `value(param)` gives it (allocates nothing).
    pub fn from_values(
        instrument: Instrument,
        params: &OrchardParams,
        value: impl Fn(&FloatParam) -> f32,
    ) -> Self {
        Self {
            instrument,
            hardness: value(&params.hardness),
            brightness: value(&params.brightness),
            decay: value(&params.decay),
            detune: value(&params.detune),
            resonance: value(&params.resonance),
            a4: value(&params.a4),
            stretch: value(&params.stretch),
            temperament: params.temperament.value(),
            temperament_key: params.temperament_key.value(),
            velocity_curve: value(&params.velocity_curve),
            width: value(&params.width),
            clock_running: params.clock_running.value(),
            clock_time: value(&params.clock_time),
            clock_winding: value(&params.clock_winding),
            microphone: params.microphone.value(),
            room: value(&params.room),
            room_decay: value(&params.room_decay),
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

    /// What the parameter `id` does to the properties it reaches.
    fn change(&self, id: &str) -> Option<Change> {
        Some(match id {
            "hardness" => Change::Times(4f64.powf(f64::from(self.hardness))),
            "brightness" => Change::Times(8f64.powf(-f64::from(self.brightness))),
            "decay" => Change::Times(1.0 / f64::from(self.decay)),
            "detune" => Change::To(decimal(self.detune)),
            "resonance" => Change::To(decimal(self.resonance)),
            "a4" => Change::To(decimal(self.a4)),
            "stretch" => Change::To(decimal(self.stretch)),
            "temperament" => Change::To(f64::from(self.temperament.0.index())),
            "temperament-key" => Change::To(f64::from(self.temperament_key.0)),
            "velocity-curve" => Change::To(decimal(self.velocity_curve)),
            "width" => Change::To(decimal(self.width)),
            "clock-running" => Change::To(if self.clock_running { 1.0 } else { 0.0 }),
            // To the second, as the parameter shows it.
            "clock-time" => Change::To((f64::from(self.clock_time) * 3600.0).round() / 3600.0),
            "clock-winding" => Change::To(decimal(self.clock_winding)),
            "microphone" => Change::To(f64::from(self.microphone.0)),
            // At 0 a preset's own room keeps its mix.
            "room" if self.room > 0.0 => Change::To(decimal(self.room)),
            "room" => Change::Times(1.0),
            "room-decay" => Change::Times(decimal(self.room_decay)),
            _ => return None,
        })
    }

    /// The chosen instrument with these settings applied.
    pub fn instrument(&self) -> Preset {
        let mut preset = match BASE_PRESET.get() {
            Some(base) => base.clone(),
            None => Preset::load(self.instrument.preset_name())
                .expect("the built-in presets are tested to load"),
        };
        // The room knob up brings a room to a preset heard dry; at 0 a
        // preset without a room stays without one.
        if self.room > 0.0 && preset.room.is_none() {
            preset.room = Some(RoomSpec::default());
        }
        let base = preset.clone();
        for &(id, target) in TARGETS {
            let Some(change) = self.change(id) else {
                continue;
            };
            for path in target.paths(&base) {
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

/// The `f64` a host means by an `f32` parameter value: the shortest decimal
/// that reads back as it (0.6, not 0.6000000238).
fn decimal(value: f32) -> f64 {
    value.to_string().parse().unwrap_or(f64::from(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nice_plug::params::Params;

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
    /// reaches declared properties of the grand or the clock; each of its
    /// targets is a parameter. Renaming a property or a parameter fails here.
    #[test]
    fn every_host_parameter_reaches_a_declared_property() {
        let grand = Preset::default_grand();
        let clock = Preset::load("chiming-clock").unwrap();
        let mut in_a_room = grand.clone();
        in_a_room.room = Some(RoomSpec::default());
        let params = OrchardParams::default();
        let ids: Vec<String> = params.param_map().into_iter().map(|(id, ..)| id).collect();
        for id in &ids {
            if id == "level" || id == "instrument" {
                continue;
            }
            let (_, target) = TARGETS
                .iter()
                .find(|(target_id, _)| *target_id == id.as_str())
                .unwrap_or_else(|| panic!("parameter {id} has no target"));
            let mut reached = 0;
            for preset in [&grand, &clock, &in_a_room] {
                for path in target.paths(preset) {
                    assert!(preset.property_info(&path).is_some(), "{id}: {path}");
                    reached += 1;
                }
            }
            assert!(reached > 0, "parameter {id} reaches nothing");
            assert!(defaults().change(id).is_some(), "{id} changes nothing");
        }
        for (id, _) in TARGETS {
            assert!(ids.iter().any(|known| known == id), "no parameter {id}");
        }
        // A renamed field reaches nothing, and the test above would say so.
        let renamed = Target::Field {
            kinds: &["stiff-strings"],
            field: "detune",
        };
        assert!(renamed.paths(&grand).is_empty());
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
        let set = SoundSettings {
            clock_running: false,
            clock_time: 9.5,
            clock_winding: 0.25,
            ..clock
        }
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
        let set = SoundSettings {
            clock_running: false,
            clock_winding: 0.25,
            ..box_settings
        }
        .instrument();
        assert_eq!(set.get("box:running"), Some(0.0));
        assert_eq!(set.get("box:wound"), Some(0.25));
    }

    /// The temperament and its key reach the tuning: Vallotti laid from E♭
    /// moves the keys as the engine's temperament does, A4 held.
    #[test]
    fn temperament_parameters_reach_the_tuning() {
        use orchard_engine::instrument::Temperament;
        let preset = SoundSettings {
            temperament: TemperamentChoice(Temperament::Vallotti),
            temperament_key: TemperamentKey(3),
            ..defaults()
        }
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
        let decay_only = SoundSettings {
            room_decay: 2.0,
            ..defaults()
        };
        assert_eq!(decay_only.instrument().room, None);
        let room = SoundSettings {
            room: 0.3,
            room_decay: 2.0,
            ..defaults()
        }
        .instrument()
        .room
        .expect("a room");
        let default = RoomSpec::default();
        assert_eq!(room.mix, 0.3);
        assert!((room.t60_s - 2.0 * default.t60_s).abs() < 1e-12);
        assert!(room.same_geometry(&default));
    }

    /// The microphone parameter moves the grand's microphones; at its
    /// default it leaves the preset's (the bridge) as it is.
    #[test]
    fn the_microphone_parameter_reaches_the_output() {
        assert_eq!(defaults().instrument().output.microphone, 0);
        let close = SoundSettings {
            microphone: MicrophoneChoice(2),
            ..defaults()
        }
        .instrument();
        assert_eq!(close.get("output:microphone"), Some(2.0));
    }
}
