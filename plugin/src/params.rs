//! The parameters a host sees and automates.
//!
//! Ids are permanent: hosts store automation and state under them. Every
//! parameter but the output level drives property paths of the instrument (see
//! [`crate::sound`]).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use nice_plug::params::persist::PersistentField;
use nice_plug::prelude::*;
use orchard_engine::instrument::{Preset, PropertyEdit};
use serde::{Deserialize, Deserializer, Serialize};

use crate::editor::EditorLayout;
use crate::learn::ControllerMap;
use crate::microphone_choice::MicrophoneChoice;
use crate::tuning_choices::{TemperamentChoice, TemperamentKey};

/// The format of [`InstrumentState`] this build writes. Format 0 is the state
/// of Orchard 0.1.0, which had only the output level and no instrument state;
/// format 1 held edits as a map from property path to value; format 2 holds
/// them as a list of commands in the order they were made (a value set, or a
/// property made inherited again).
pub const STATE_FORMAT: u32 = 2;

/// The instrument's state beyond the host parameters, saved in the host's
/// project with them: property edits (from user presets and the editor),
/// applied in order after the parameters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InstrumentState {
    /// The format it was written in.
    pub format: u32,
    /// Property edits, in order (e.g. `strings:detune_cents` set to 1.5).
    #[serde(deserialize_with = "edits_of_any_format")]
    pub edits: Vec<PropertyEdit>,
}

/// Reads edits as format 2 writes them (a list of commands) or as format 1
/// did (a map from path to value, each a value set).
fn edits_of_any_format<'de, D: Deserializer<'de>>(
    reader: D,
) -> Result<Vec<PropertyEdit>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Stored {
        Commands(Vec<PropertyEdit>),
        ByPath(BTreeMap<String, f64>),
    }
    Ok(match Stored::deserialize(reader)? {
        Stored::Commands(edits) => edits,
        Stored::ByPath(values) => values
            .into_iter()
            .map(|(path, value)| PropertyEdit::Set { path, value })
            .collect(),
    })
}

/// An instrument a host can choose: one of the built-in presets of the
/// registered instrument families ([`orchard_engine::families`]), in registry
/// order. Hosts see each preset's display name; its preset name is the
/// stable id saved with projects.
///
/// The list is read from the registry once, when the host first asks: a
/// family registered later is not offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instrument(usize);

/// The built-in presets as the instrument parameter offers them.
struct Catalog {
    /// Display names (`Grand piano`).
    names: Vec<&'static str>,
    /// Preset names (`grand-piano`).
    ids: Vec<&'static str>,
}

/// The catalogue, read from the registry once per process (its strings live
/// as long as the process: hosts hold them).
fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let presets = orchard_engine::families::builtin_presets();
        let names = presets
            .iter()
            .map(|&(id, text)| {
                let name = Preset::from_toml(text).map_or_else(|_| id.to_string(), |p| p.name);
                &*Box::leak(name.into_boxed_str())
            })
            .collect();
        let ids = presets.iter().map(|&(id, _)| id).collect();
        Catalog { names, ids }
    })
}

impl Instrument {
    /// The first built-in preset: the grand piano.
    pub const DEFAULT: Self = Self(0);

    /// The built-in preset's name.
    pub fn preset_name(self) -> &'static str {
        catalog().ids[self.0]
    }

    /// The names hosts show for every choice, in order.
    pub fn names() -> &'static [&'static str] {
        &catalog().names
    }

    /// The built-in preset called `name`, if there is one.
    pub fn named(name: &str) -> Option<Self> {
        catalog().ids.iter().position(|&id| id == name).map(Self)
    }
}

impl Enum for Instrument {
    fn variants() -> &'static [&'static str] {
        &catalog().names
    }

    fn ids() -> Option<&'static [&'static str]> {
        Some(&catalog().ids)
    }

    fn to_index(self) -> usize {
        self.0
    }

    fn from_index(index: usize) -> Self {
        Self(if index < catalog().ids.len() {
            index
        } else {
            0
        })
    }
}

/// Host-visible parameters.
#[derive(Params)]
pub struct OrchardParams {
    /// Output level, in decibels, applied after the instrument.
    #[id = "level"]
    pub output_level: FloatParam,
    /// Which instrument plays.
    #[id = "instrument"]
    pub instrument: EnumParam<Instrument>,
    /// Felt hardness: −1 (soft, stiffness ÷ 4) to +1 (hard, × 4).
    #[id = "hardness"]
    pub hardness: FloatParam,
    /// Brightness: −1 (dull, high partials damped 8× more) to +1 (8× less).
    #[id = "brightness"]
    pub brightness: FloatParam,
    /// Sustain length: the strings' frequency-independent loss divided by this.
    #[id = "decay"]
    pub decay: FloatParam,
    /// Spread of the strings of a note, cents.
    #[id = "detune"]
    pub detune: FloatParam,
    /// Level of the soundboard's resonance.
    #[id = "resonance"]
    pub resonance: FloatParam,
    /// Pitch of A4, Hz.
    #[id = "a4"]
    pub a4: FloatParam,
    /// Octave stretch: 0 equal temperament, 1 beatless octaves.
    #[id = "stretch"]
    pub stretch: FloatParam,
    /// The temperament (`tuning:temperament`).
    #[id = "temperament"]
    pub temperament: EnumParam<TemperamentChoice>,
    /// The key the temperament is laid from (`tuning:temperament_key`).
    #[id = "temperament-key"]
    pub temperament_key: EnumParam<TemperamentKey>,
    /// Velocity curve exponent: above 1 more of the range for soft playing.
    #[id = "velocity-curve"]
    pub velocity_curve: FloatParam,
    /// Stereo width of the keyboard, 0 (mono) to 1.
    #[id = "width"]
    pub width: FloatParam,
    /// A clock's balance swings, a music box's cylinder turns (on); or they
    /// are held (off). The id is the clock's, from before music boxes.
    #[id = "clock-running"]
    pub clock_running: BoolParam,
    /// The time a clock's hands are set to, hours after midnight.
    #[id = "clock-time"]
    pub clock_time: FloatParam,
    /// How far a clock's or a music box's mainspring is wound, 0 to 1.
    #[id = "clock-winding"]
    pub clock_winding: FloatParam,
    /// Where the instrument is heard from (`output:microphone`).
    #[id = "microphone"]
    pub microphone: EnumParam<MicrophoneChoice>,
    /// How much of the room is heard, 0 to 1 (the room alone) (`room:mix`);
    /// at 0 a preset's own room keeps its mix, and the built-in
    /// instruments, which have none, are heard dry.
    #[id = "room"]
    pub room: FloatParam,
    /// The room's reverberation time (`room:t60_s`) times this.
    #[id = "room-decay"]
    pub room_decay: FloatParam,
    /// Everything else about the instrument, saved with the parameters.
    #[persist = "instrument-state"]
    pub state: VersionedState,
    /// The editor window's size and zoom.
    #[persist = "editor-layout"]
    pub editor_layout: Mutex<EditorLayout>,
    /// The MIDI controllers bound to parameters and properties (the
    /// player's setup: saved with the project, not in user presets).
    #[persist = "midi-bindings"]
    pub controllers: ControllerMap,
}

/// The id of every host parameter, in the order of
/// [`OrchardParams::param_ptrs`].
pub const PARAM_IDS: [&str; 19] = [
    "level",
    "instrument",
    "hardness",
    "brightness",
    "decay",
    "detune",
    "resonance",
    "a4",
    "stretch",
    "temperament",
    "temperament-key",
    "velocity-curve",
    "width",
    "clock-running",
    "clock-time",
    "clock-winding",
    "microphone",
    "room",
    "room-decay",
];

/// The instrument state, and a count of its changes: `process` sees that the
/// editor edited it or a host loaded another without taking its lock.
#[derive(Debug, Default)]
pub struct VersionedState {
    pub(crate) state: Mutex<InstrumentState>,
    version: AtomicU64,
}

impl VersionedState {
    /// How many times the state has changed (wait-free: for the audio thread).
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    /// Reads the state (off the audio thread: it locks).
    fn read<R>(&self, read: impl FnOnce(&InstrumentState) -> R) -> R {
        read(&self.state.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Replaces the state (off the audio thread: it locks).
    fn replace(&self, state: InstrumentState) {
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = state;
        self.version.fetch_add(1, Ordering::AcqRel);
    }

    /// Changes the edits in place, holding the lock throughout; counts a
    /// change if `change` says it made one (off the audio thread).
    fn update(&self, change: impl FnOnce(&mut Vec<PropertyEdit>) -> bool) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if change(&mut state.edits) {
            state.format = STATE_FORMAT;
            self.version.fetch_add(1, Ordering::AcqRel);
        }
    }
}

impl<'a> PersistentField<'a, InstrumentState> for VersionedState {
    fn set(&self, new_value: InstrumentState) {
        self.replace(new_value);
    }

    fn map<F, R>(&self, f: F) -> R
    where
        F: Fn(&InstrumentState) -> R,
    {
        self.read(f)
    }
}

impl OrchardParams {
    /// The property edits of the instrument state (off the audio thread: it
    /// locks).
    pub fn edits(&self) -> Vec<PropertyEdit> {
        self.state.read(|state| state.edits.clone())
    }

    /// Replaces the property edits of the instrument state (off the audio
    /// thread: it locks); the plugin rebuilds the instrument.
    pub fn set_edits(&self, edits: Vec<PropertyEdit>) {
        self.state.replace(InstrumentState {
            format: STATE_FORMAT,
            edits,
        });
    }

    /// Changes the property edits in place (off the audio thread: it locks
    /// the state while `change` runs); `change` returns whether it changed
    /// anything, and then the plugin rebuilds the instrument.
    pub fn update_edits(&self, change: impl FnOnce(&mut Vec<PropertyEdit>) -> bool) {
        self.state.update(change);
    }

    /// Every host parameter, in the order of [`PARAM_IDS`] (allocates
    /// nothing).
    pub fn param_ptrs(&self) -> [ParamPtr; 19] {
        [
            self.output_level.as_ptr(),
            self.instrument.as_ptr(),
            self.hardness.as_ptr(),
            self.brightness.as_ptr(),
            self.decay.as_ptr(),
            self.detune.as_ptr(),
            self.resonance.as_ptr(),
            self.a4.as_ptr(),
            self.stretch.as_ptr(),
            self.temperament.as_ptr(),
            self.temperament_key.as_ptr(),
            self.velocity_curve.as_ptr(),
            self.width.as_ptr(),
            self.clock_running.as_ptr(),
            self.clock_time.as_ptr(),
            self.clock_winding.as_ptr(),
            self.microphone.as_ptr(),
            self.room.as_ptr(),
            self.room_decay.as_ptr(),
        ]
    }

    /// Moves the parameter `PARAM_IDS[index]` to `normalized` (0 to 1,
    /// snapped to its steps) as a MIDI controller does, where the host's
    /// automation would set it (the output level glides there at
    /// `sample_rate_hz`). The host is not told (see [`crate::learn`]).
    /// Wait-free, allocates nothing: for the audio thread.
    pub fn move_param(&self, index: usize, normalized: f32, sample_rate_hz: f32) {
        let Some(&param) = self.param_ptrs().get(index) else {
            return;
        };
        // SAFETY: the pointer is to a parameter of `self`, alive for the call.
        // Setting a value and its smoother is what the wrappers do on the
        // audio thread for the host's automation: atomic stores.
        unsafe {
            if param._internal_set_normalized_value(normalized.clamp(0.0, 1.0)) {
                param._internal_update_smoother(sample_rate_hz, false);
            }
        }
    }

    /// The parameters that shape the sound continuously (all but the
    /// instrument choice), by permanent id.
    pub fn sound_params(&self) -> [(&'static str, &FloatParam); 14] {
        [
            ("level", &self.output_level),
            ("hardness", &self.hardness),
            ("brightness", &self.brightness),
            ("decay", &self.decay),
            ("detune", &self.detune),
            ("resonance", &self.resonance),
            ("a4", &self.a4),
            ("stretch", &self.stretch),
            ("velocity-curve", &self.velocity_curve),
            ("width", &self.width),
            ("clock-time", &self.clock_time),
            ("clock-winding", &self.clock_winding),
            ("room", &self.room),
            ("room-decay", &self.room_decay),
        ]
    }

    /// The editor window's saved size and zoom, made usable.
    pub fn layout(&self) -> EditorLayout {
        self.editor_layout
            .lock()
            .map(|layout| layout.clamped())
            .unwrap_or_default()
    }

    /// Changes the editor window's saved size or zoom.
    pub fn change_layout(&self, change: impl FnOnce(&mut EditorLayout)) {
        if let Ok(mut layout) = self.editor_layout.lock() {
            change(&mut layout);
            *layout = layout.clamped();
        }
    }
}

/// The time the built-in clock's hands are set to: 11:59:50, ten seconds
/// before it chimes the hour.
pub const CLOCK_PRESET_TIME_H: f32 = 11.0 + 59.0 / 60.0 + 50.0 / 3600.0;

/// `hours` after midnight as `HH:MM:SS`, to the nearest second.
fn time_of_day(hours: f32) -> String {
    let seconds = (f64::from(hours).clamp(0.0, 24.0) * 3600.0).round() as u32;
    format!(
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// Hours after midnight of `HH:MM` or `HH:MM:SS` (00:00 to 24:00).
fn parse_time_of_day(text: &str) -> Option<f32> {
    orchard_engine::input::time_of_day_h(text).map(|hours| hours as f32)
}

/// Shows a value with `digits` decimals (and no minus sign on a zero), so
/// that text read back gives the same text again: value → text → value →
/// text is stable, as hosts and validators expect.
fn rounded(digits: usize) -> Arc<dyn Fn(f32) -> String + Send + Sync> {
    Arc::new(move |value| {
        let text = format!("{value:.digits$}");
        match text.strip_prefix('-') {
            Some(magnitude) if magnitude.chars().all(|c| c == '0' || c == '.') => {
                magnitude.to_string()
            }
            _ => text,
        }
    })
}

impl Default for OrchardParams {
    fn default() -> Self {
        let linear = |name: &str, default: f32, min: f32, max: f32, digits: usize| {
            FloatParam::new(name, default, FloatRange::Linear { min, max })
                .with_value_to_string(rounded(digits))
        };
        // A factor on a preset's value: 0.25 to 4, 1 (the preset's) in the
        // middle of the knob.
        let times = |name: &str| {
            FloatParam::new(
                name,
                1.0,
                FloatRange::Skewed {
                    min: 0.25,
                    max: 4.0,
                    factor: FloatRange::skew_factor(-1.0),
                },
            )
            .with_unit("×")
            .with_value_to_string(rounded(3))
        };
        Self {
            output_level: FloatParam::new(
                "Output level",
                util::db_to_gain(0.0),
                FloatRange::Skewed {
                    min: util::db_to_gain(-60.0),
                    max: util::db_to_gain(12.0),
                    factor: FloatRange::gain_skew_factor(-60.0, 12.0),
                },
            )
            .with_smoother(SmoothingStyle::Logarithmic(20.0))
            .with_unit(" dB")
            .with_value_to_string(formatters::v2s_f32_gain_to_db(1))
            .with_string_to_value(formatters::s2v_f32_gain_to_db()),
            instrument: EnumParam::new("Instrument", Instrument::DEFAULT),
            hardness: linear("Hammer hardness", 0.0, -1.0, 1.0, 3),
            brightness: linear("Brightness", 0.0, -1.0, 1.0, 3),
            decay: times("Decay"),
            detune: linear("Unison detune", 0.7, 0.0, 10.0, 2).with_unit(" cents"),
            resonance: linear("String resonance", 0.6, 0.0, 2.0, 3),
            a4: linear("A4 tuning", 440.0, 415.0, 466.0, 2).with_unit(" Hz"),
            stretch: linear("Stretch", 1.0, 0.0, 1.0, 3),
            temperament: EnumParam::new("Temperament", TemperamentChoice::default()),
            temperament_key: EnumParam::new("Temperament key", TemperamentKey::default()),
            velocity_curve: FloatParam::new(
                "Velocity curve",
                1.0,
                FloatRange::Skewed {
                    min: 0.33,
                    max: 3.0,
                    factor: FloatRange::skew_factor(-1.0),
                },
            )
            .with_value_to_string(rounded(3)),
            width: linear("Stereo width", 0.6, 0.0, 1.0, 3),
            clock_running: BoolParam::new("Mechanism running", true),
            clock_time: FloatParam::new(
                "Clock time",
                CLOCK_PRESET_TIME_H,
                FloatRange::Linear {
                    min: 0.0,
                    max: 24.0,
                },
            )
            .with_value_to_string(Arc::new(time_of_day))
            .with_string_to_value(Arc::new(parse_time_of_day)),
            clock_winding: linear("Mechanism winding", 1.0, 0.0, 1.0, 3),
            microphone: EnumParam::new("Microphone", MicrophoneChoice::default()),
            room: linear("Room", 0.0, 0.0, 1.0, 3),
            room_decay: times("Room decay"),
            state: VersionedState {
                state: Mutex::new(InstrumentState {
                    format: STATE_FORMAT,
                    edits: Vec::new(),
                }),
                version: AtomicU64::new(0),
            },
            editor_layout: Mutex::new(EditorLayout::default()),
            controllers: ControllerMap::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every parameter's text reads back as the same value: value → text →
    /// value → text gives the same text, over a sweep of values including
    /// the one clap-validator tripped over (4/9) and both ends.
    #[test]
    fn every_parameter_round_trips_through_its_text() {
        let params = OrchardParams::default();
        let sweep = (0..=1000).map(|i| i as f32 / 1000.0).chain([
            4.0 / 9.0,
            1.0 / 3.0,
            2.0 / 3.0,
            1e-7,
            1.0 - 1e-7,
        ]);
        for (id, param, _) in params.param_map() {
            for normalized in sweep.clone() {
                // SAFETY: the pointers are to `params`, alive for the loop.
                let (text, again) = unsafe {
                    let text = param.normalized_value_to_string(normalized, true);
                    let back = param
                        .string_to_normalized_value(&text)
                        .unwrap_or_else(|| panic!("{id}: `{text}` does not read back"));
                    (text, param.normalized_value_to_string(back, true))
                };
                assert_eq!(text, again, "{id} at {normalized}");
            }
        }
    }

    #[test]
    fn states_of_format_1_load_as_commands_and_format_2_round_trips() {
        let old = r#"{"format":1,"edits":{"strings:detune_cents":1.5,"tuning:a4_hz":442.0}}"#;
        let state: InstrumentState = serde_json::from_str(old).unwrap();
        assert_eq!(
            state.edits,
            vec![
                PropertyEdit::Set {
                    path: "strings:detune_cents".into(),
                    value: 1.5
                },
                PropertyEdit::Set {
                    path: "tuning:a4_hz".into(),
                    value: 442.0
                },
            ]
        );
        let new = InstrumentState {
            format: STATE_FORMAT,
            edits: vec![
                PropertyEdit::Set {
                    path: "strings/key/61:loss_b1".into(),
                    value: 0.9,
                },
                PropertyEdit::Inherit {
                    path: "hammers/key/60:felt_stiffness".into(),
                },
            ],
        };
        let text = serde_json::to_string(&new).unwrap();
        assert_eq!(serde_json::from_str::<InstrumentState>(&text).unwrap(), new);
        assert!(serde_json::from_str::<InstrumentState>(r#"{"format":2,"edits":7}"#).is_err());
    }

    #[test]
    fn a_state_loaded_by_the_host_counts_as_a_change() {
        let params = OrchardParams::default();
        let before = params.state.version();
        params.state.set(InstrumentState {
            format: STATE_FORMAT,
            edits: vec![PropertyEdit::Set {
                path: "tuning:a4_hz".into(),
                value: 441.0,
            }],
        });
        assert_eq!(params.state.version(), before + 1);
        assert_eq!(params.edits().len(), 1);
        params.set_edits(Vec::new());
        assert_eq!(params.state.version(), before + 2);
    }

    #[test]
    fn param_ids_name_every_parameter_in_the_order_of_the_pointers() {
        let params = OrchardParams::default();
        let map = params.param_map();
        assert_eq!(map.len(), PARAM_IDS.len());
        for (id, pointer) in PARAM_IDS.iter().zip(params.param_ptrs()) {
            let (_, expected, _) = map
                .iter()
                .find(|(i, _, _)| i == id)
                .unwrap_or_else(|| panic!("{id} is a parameter"));
            assert!(*expected == pointer, "{id}");
        }
    }

    #[test]
    fn a_controller_moves_a_parameter_over_its_whole_range() {
        let params = OrchardParams::default();
        let a4 = PARAM_IDS.iter().position(|&id| id == "a4").unwrap();
        params.move_param(a4, 1.0, 48_000.0);
        assert_eq!(params.a4.value(), 466.0);
        params.move_param(a4, 0.0, 48_000.0);
        assert_eq!(params.a4.value(), 415.0);
        params.move_param(a4, 7.0, 48_000.0);
        assert_eq!(params.a4.value(), 466.0, "clamped");
        let key = PARAM_IDS
            .iter()
            .position(|&id| id == "temperament-key")
            .unwrap();
        params.move_param(key, 1.0, 48_000.0);
        assert_eq!(params.temperament_key.value().0, 11, "B, the last key");
        params.move_param(PARAM_IDS.len(), 0.5, 48_000.0);
    }

    #[test]
    fn bindings_are_saved_as_a_field_of_the_state_and_come_back() {
        use crate::learn::{Binding, Control, Source, Target};
        let params = OrchardParams::default();
        let binding = Binding {
            source: Source {
                control: Control::PitchBend,
                channel: Some(2),
            },
            target: Target::Property {
                path: "tuning:a4_hz".into(),
            },
        };
        params.controllers.bind(binding.clone()).unwrap();
        let fields = params.serialize_fields();
        assert!(fields["midi-bindings"].contains("pitch-bend"), "{fields:?}");
        let other = OrchardParams::default();
        other.deserialize_fields(&fields);
        assert_eq!(other.controllers.bindings(), vec![binding]);
    }
}
