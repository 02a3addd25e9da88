//! The family seam, proved from outside the engine: a toy family defined only
//! here — a plucked string with a plectrum for mechanics, and an object kind
//! of its own, `[plucked-strings.NAME]`, declared here — registers with the
//! engine and plays through `Synth`, through the command-line renderer and
//! through the plugin, loaded in this process by a CLAP host, as the built-in
//! families do, with no change to the realtime layer. A second toy family,
//! whose voices run away (NaN, infinities, huge values), shows that the
//! plugin's output stays finite and bounded whatever its instrument does.

use std::any::Any;
use std::f64::consts::TAU;
use std::sync::OnceLock;

use clack_extensions::params::{ParamInfoBuffer, PluginParams};
use clack_host::events::event_types::{NoteOnEvent, ParamValueEvent};
use clack_host::prelude::*;

use orchard_engine::analysis::peak_frequency;
use orchard_engine::families;
use orchard_engine::families::mallet_bar::MalletBars;
use orchard_engine::instrument::{ObjectKind, ObjectSpec, Preset, Rebound};
use orchard_engine::mech::{ForwardModel, NoProperties};
use orchard_engine::props::DeclaredRange;
use orchard_engine::rt::{
    CHUNK, Family, MIDI_KEYS, Mechanics, Operation, Synth, SynthError, SynthEvent, Voices,
};

const FS: f64 = 48_000.0;

/// Time from a key going down to the plectrum plucking its string, s (the
/// toy preset's `strings:pluck_delay_s`).
const PLUCK_DELAY_S: f64 = 0.010;

/// The toy family's own object kind: a plucked string per key, one damped
/// mode at the key's pitch, `[plucked-strings.NAME]` in a preset.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PluckedStrings {
    /// Time a string takes to fade by 60 dB, s.
    t60_s: f64,
    /// Time from a key going down to its plectrum plucking, s.
    pluck_delay_s: f64,
}

orchard_engine::fields!(PluckedStrings {
    t60_s: Real, "s", [0.05, 20.0, "0.05 to 20 s"], "Time a plucked string takes to fade by 60 dB";
    pluck_delay_s: Real, "s", [0.0, 0.1, "0 to 100 ms"], "Time from a key going down to its plectrum plucking";
});

impl ObjectSpec for PluckedStrings {
    fn kind(&self) -> &'static str {
        "plucked-strings"
    }

    fn struck(&self) -> Option<DeclaredRange> {
        Some(DeclaredRange {
            min: 0.01,
            max: 0.99,
            text: "0.01 to 0.99 of a string",
        })
    }
}

/// The toy preset's plucked strings.
fn plucked(preset: &Preset) -> Option<&PluckedStrings> {
    preset.topology().ok()?.target_as::<PluckedStrings>()
}

/// Each key's string: one damped mode at the key's pitch.
struct ToyStrings {
    lowest_key: u8,
    /// Per key: (2 r cos ω, r², y[n−1], y[n−2]).
    modes: Vec<[f64; 4]>,
    /// Per key: the pluck waiting to enter the next sample.
    pending: Vec<f64>,
}

impl Voices for ToyStrings {
    fn apply(&mut self, operation: Operation) {
        if let Operation::Strike { key, speed_m_s, .. } = operation
            && let Some(slot) = key
                .checked_sub(self.lowest_key)
                .and_then(|i| self.pending.get_mut(usize::from(i)))
        {
            *slot += 0.1 * speed_m_s;
        }
    }

    fn render(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        _on_rebound: &mut dyn FnMut(u8, usize, Rebound),
    ) {
        let frames = left.len().min(right.len()).min(CHUNK);
        for n in 0..frames {
            let mut sum = 0.0;
            for (mode, pending) in self.modes.iter_mut().zip(&mut self.pending) {
                let [a1, a2, y1, y2] = *mode;
                let y = a1 * y1 - a2 * y2 + *pending;
                *pending = 0.0;
                *mode = [a1, a2, y, y1];
                sum += y;
            }
            left[n] = sum as f32;
            right[n] = sum as f32;
        }
    }

    fn reset(&mut self) {
        for mode in &mut self.modes {
            mode[2] = 0.0;
            mode[3] = 0.0;
        }
        self.pending.fill(0.0);
    }

    fn continue_from(&mut self, _old: &dyn Voices) -> bool {
        false
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn is_active(&self) -> bool {
        self.modes.iter().any(|m| m[2].abs() > 1e-7)
    }

    fn sounding_keys(&self) -> u32 {
        self.modes.iter().filter(|m| m[2].abs() > 1e-7).count() as u32
    }

    fn non_finite_resets(&self) -> u64 {
        0
    }
}

/// A plectrum per key: it plucks its preset's `pluck_delay_s` after the key
/// goes down.
struct Plectrum {
    /// Time from a key going down to its pluck, s.
    delay_s: f64,
    /// Per MIDI key: when to pluck (s) and how hard (m/s), if due.
    due: [Option<(f64, f64)>; MIDI_KEYS],
    /// Per MIDI key: plucked in the last step, how hard.
    plucked: [Option<f64>; MIDI_KEYS],
}

impl ForwardModel for Plectrum {
    fn step(&mut self, _t0: f64, t1: f64) {
        for (due, plucked) in self.due.iter_mut().zip(&mut self.plucked) {
            if let Some((at, speed)) = *due
                && at <= t1
            {
                *plucked = Some(speed);
                *due = None;
            }
        }
    }
}

impl NoProperties for Plectrum {}

impl Mechanics for Plectrum {
    fn perform(&mut self, t_s: f64, event: SynthEvent, _now: &mut dyn FnMut(Operation)) {
        if let SynthEvent::NoteOn { key, velocity } = event
            && velocity > 0.0
            && let Some(due) = self.due.get_mut(usize::from(key))
        {
            *due = Some((t_s + self.delay_s, 1.0 + f64::from(velocity)));
        }
    }

    fn drain_operations(&mut self, out: &mut dyn FnMut(Operation)) {
        for (key, plucked) in self.plucked.iter_mut().enumerate() {
            if let Some(speed_m_s) = plucked.take() {
                out(Operation::Strike {
                    key: key as u8,
                    speed_m_s,
                    shifted: false,
                });
            }
        }
    }

    fn reset(&mut self) {
        self.due = [None; MIDI_KEYS];
        self.plucked = [None; MIDI_KEYS];
    }

    fn continue_motion_from(&mut self, _previous: &dyn Mechanics) {}
}

/// The toy family.
struct ToyPluck;

impl Family for ToyPluck {
    fn name(&self) -> &'static str {
        "toy-pluck"
    }

    fn presets(&self) -> &'static [(&'static str, &'static str)] {
        static PRESETS: OnceLock<[(&str, &str); 1]> = OnceLock::new();
        PRESETS.get_or_init(|| [("toy-pluck", toy_preset_text())])
    }

    fn object_kinds(&self) -> &'static [ObjectKind] {
        const KINDS: &[ObjectKind] = &[ObjectKind::of::<PluckedStrings>("plucked-strings")];
        KINDS
    }

    /// Plucked strings struck by its plectra.
    fn fits(&self, preset: &Preset) -> bool {
        plucked(preset).is_some()
    }

    fn voices(&self, preset: &Preset, sample_rate: f64) -> Result<Box<dyn Voices>, SynthError> {
        let strings = plucked(preset).ok_or_else(|| {
            SynthError::Family("the toy plucks [plucked-strings.NAME]".to_string())
        })?;
        let keys = preset.keyboard.lowest_key..=preset.keyboard.highest_key;
        let r = 1000f64.powf(-1.0 / (strings.t60_s * sample_rate));
        let modes = keys
            .clone()
            .map(|key| {
                let omega = TAU * preset.tuning.target(key, |_| 0.0) / sample_rate;
                [2.0 * r * omega.cos(), r * r, 0.0, 0.0]
            })
            .collect::<Vec<_>>();
        Ok(Box::new(ToyStrings {
            lowest_key: *keys.start(),
            pending: vec![0.0; modes.len()],
            modes,
        }))
    }

    fn mechanics(&self, preset: &Preset) -> Box<dyn Mechanics> {
        Box::new(Plectrum {
            delay_s: plucked(preset).map_or(PLUCK_DELAY_S, |strings| strings.pluck_delay_s),
            due: [None; MIDI_KEYS],
            plucked: [None; MIDI_KEYS],
        })
    }
}

/// A preset of the mallet bars' keyboard and tuning, played by `family`
/// and called `name`.
fn mallet_preset_as(family: &str, name: &str) -> String {
    // The mallet family's own preset (not through the registry, which
    // asks the toy families for their presets).
    let [(_, text)] = MalletBars.presets() else {
        panic!("the mallet family has one preset");
    };
    let bars = Preset::from_toml(text).unwrap();
    let toy = text
        .replace("family = \"mallet-bar\"", &format!("family = \"{family}\""))
        .replace(
            &format!("name = \"{}\"", bars.name),
            &format!("name = \"{name}\""),
        );
    assert_ne!(
        toy, *text,
        "the mallet preset names its family and its name"
    );
    toy
}

/// The toy family's preset: its own plucked strings, plucked by plectra
/// (felt hammers, the kind every family may use), A3 to A5.
fn toy_preset_text() -> &'static str {
    r#"name = "Toy pluck"
description = "A plucked string per key: one damped mode"
family = "toy-pluck"

[tuning]
a4_hz = 440.0

[keyboard]
lowest_key = 57
highest_key = 81

[velocity]
softest_speed_m_s = 0.3
hardest_speed_m_s = 5.0

[output]
gain_per_newton = 0.5
stereo_width = 0.0

[plucked-strings.strings]
t60_s = 1.0
pluck_delay_s = 0.010

[felt-hammers.plectra]
start_gap_m = 0.001

[[felt-hammers.plectra.anchor]]
key = 69
mass_kg = 0.001
felt_stiffness = 1.0e6
felt_exponent = 1.5

[[strike]]
hammers = "plectra"
target = "strings"

[[strike.anchor]]
key = 69
position = 0.2
"#
}

/// Registers both toy families. Every test calls it before anything reads
/// the registry, so that the plugin's list of instruments (made once, on
/// first use) holds them both.
fn register_toys() {
    families::register(&ToyPluck);
    families::register(&ToyRunaway);
}

/// The toy preset, its family registered.
fn toy_preset() -> Preset {
    register_toys();
    Preset::from_toml(toy_preset_text()).unwrap()
}

/// What the runaway voices play once struck, over and over: everything a
/// model gone wrong can put out, and two ordinary samples.
const RUNAWAY: [f32; 7] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    1e30,
    -1e30,
    0.5,
    -0.25,
];

/// Voices that run away once a key is struck: [`RUNAWAY`] in both channels.
struct RunawayVoices {
    struck: bool,
    frame: usize,
}

impl Voices for RunawayVoices {
    fn apply(&mut self, operation: Operation) {
        self.struck |= matches!(operation, Operation::Strike { .. });
    }

    fn render(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        _on_rebound: &mut dyn FnMut(u8, usize, Rebound),
    ) {
        for (l, r) in left.iter_mut().zip(right.iter_mut()).take(CHUNK) {
            let sample = if self.struck {
                self.frame += 1;
                RUNAWAY[self.frame % RUNAWAY.len()]
            } else {
                0.0
            };
            (*l, *r) = (sample, sample);
        }
    }

    fn reset(&mut self) {
        self.struck = false;
    }

    fn continue_from(&mut self, _old: &dyn Voices) -> bool {
        false
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn is_active(&self) -> bool {
        self.struck
    }

    fn sounding_keys(&self) -> u32 {
        u32::from(self.struck)
    }

    fn non_finite_resets(&self) -> u64 {
        0
    }
}

/// The runaway family: the toy plectrum striking [`RunawayVoices`].
struct ToyRunaway;

impl Family for ToyRunaway {
    fn name(&self) -> &'static str {
        "toy-runaway"
    }

    fn presets(&self) -> &'static [(&'static str, &'static str)] {
        static TEXT: OnceLock<String> = OnceLock::new();
        static PRESETS: OnceLock<[(&str, &str); 1]> = OnceLock::new();
        let text = TEXT.get_or_init(|| mallet_preset_as("toy-runaway", "Toy runaway"));
        PRESETS.get_or_init(|| [("toy-runaway", text.as_str())])
    }

    fn fits(&self, _preset: &Preset) -> bool {
        false
    }

    /// Any preset that names it: its voices play no model at all.
    fn plays(&self, _preset: &Preset) -> bool {
        true
    }

    fn voices(&self, _preset: &Preset, _sample_rate: f64) -> Result<Box<dyn Voices>, SynthError> {
        Ok(Box::new(RunawayVoices {
            struck: false,
            frame: 0,
        }))
    }

    fn mechanics(&self, preset: &Preset) -> Box<dyn Mechanics> {
        ToyPluck.mechanics(preset)
    }
}

#[test]
fn a_family_defined_outside_the_engine_plays_through_synth() {
    let mut synth = Synth::new(&toy_preset(), FS).unwrap();
    let frames = (0.5 * FS) as usize;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    synth.note_on(69, 0.8);
    for (l, r) in left.chunks_mut(64).zip(right.chunks_mut(64)) {
        synth.process(l, r);
    }
    // Its mechanics decide when it sounds: nothing before the plectrum
    // plucks, 10 ms after the key (within a control period of 1/3 ms).
    let onset = left.iter().position(|x| x.abs() > 1e-6).unwrap();
    let onset_s = onset as f64 / FS;
    assert!(
        (PLUCK_DELAY_S..PLUCK_DELAY_S + 0.001).contains(&onset_s),
        "plucked at {onset_s} s"
    );
    // Its voices decide what sounds: A4 from the preset's tuning.
    let pitch = peak_frequency(&left[onset..], FS, 200.0, 1000.0).unwrap();
    assert!((pitch - 440.0).abs() < 1.0, "sounds at {pitch} Hz");
    assert_eq!(left, right);
}

/// The level of `x` (dB) over the 10 ms from `t_s` (s): its RMS.
fn level_db(x: &[f32], t_s: f64) -> f64 {
    let start = (t_s * FS) as usize;
    let window = &x[start..start + (0.01 * FS) as usize];
    let power = window.iter().map(|&s| f64::from(s).powi(2)).sum::<f64>() / window.len() as f64;
    10.0 * power.log10()
}

/// A4 played on `preset` for `seconds`, left channel.
fn a4_on(preset: &Preset, seconds: f64) -> Vec<f32> {
    let mut synth = Synth::new(preset, FS).unwrap();
    let frames = (seconds * FS) as usize;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    synth.note_on(69, 0.8);
    for (l, r) in left.chunks_mut(64).zip(right.chunks_mut(64)) {
        synth.process(l, r);
    }
    left
}

/// The toy family's own object kind is read from its table, edited by its
/// property paths as the engine's kinds are (checked by its own ranges),
/// written back out, and heard: the string's decay and the plectrum's delay
/// are the preset's.
#[test]
fn a_family_defined_outside_the_engine_brings_its_own_object_kind() {
    let mut preset = toy_preset();
    assert_eq!(preset.get("strings:t60_s"), Some(1.0));
    assert!(
        preset
            .paths()
            .contains(&"strings:pluck_delay_s".to_string())
    );
    let info = preset.property_info("strings:t60_s").unwrap();
    assert_eq!((info.unit, info.range), ("s", (0.05, 20.0)));
    let refused = preset.set("strings:t60_s", 50.0).unwrap_err().to_string();
    assert!(
        refused.contains("strings:t60_s") && refused.contains("0.05 to 20 s"),
        "{refused}"
    );
    preset.set("strings:t60_s", 0.5).unwrap();
    preset.set("strings:pluck_delay_s", 0.02).unwrap();

    // Written out and read back, through the registry, it is the same.
    let text = toml::to_string(&preset).unwrap();
    assert!(text.contains("[plucked-strings.strings]"), "{text}");
    assert_eq!(Preset::from_toml(&text).unwrap(), preset);

    let left = a4_on(&preset, 1.0);
    let onset_s = left.iter().position(|x| x.abs() > 1e-6).unwrap() as f64 / FS;
    assert!((0.02..0.021).contains(&onset_s), "plucked at {onset_s} s");
    // One damped mode: it falls 60 dB in t60_s, so 24 dB over 0.2 s.
    let fall_db = level_db(&left, 0.2) - level_db(&left, 0.4);
    assert!((fall_db - 24.0).abs() < 1.0, "fell {fall_db} dB in 0.2 s");
}

#[test]
fn a_preset_naming_an_unknown_family_is_refused_with_the_known_ones() {
    let mut preset = Preset::load("mallet-bar").unwrap();
    preset.family = Some("harpsichord".into());
    let error = Synth::new(&preset, FS).unwrap_err().to_string();
    assert!(
        error.contains("harpsichord")
            && error.contains("grand-piano")
            && error.contains("mallet-bar"),
        "{error}"
    );
}

struct HostShared;

impl SharedHandler<'_> for HostShared {
    fn request_restart(&self) {}
    fn request_process(&self) {}
    fn request_callback(&self) {}
}

struct InProcessHost;

impl HostHandlers for InProcessHost {
    type Shared<'a> = HostShared;
    type MainThread<'a> = ();
    type AudioProcessor<'a> = ();
}

/// The plugin's CLAP entry, loaded from this process (not from a bundle), so
/// that it sees the families registered here.
fn in_process_entry() -> PluginEntry {
    // SAFETY: nice-plug's entry is a `clap_plugin_entry` of the same C
    // layout as clack's, alive for the whole process.
    unsafe {
        let raw = &orchard::clap_entry as *const _ as *const clack_host::entry::EntryDescriptor;
        PluginEntry::load_from_raw(&*raw, c"orchard-in-process").unwrap()
    }
}

/// Renders `frames` at `FS` in blocks of 256 from a new instance, choosing
/// the instrument called `instrument_name` at frame 0 and playing A4 at
/// frame 2560.
fn render_in_plugin(entry: &PluginEntry, instrument_name: &str, frames: usize) -> Vec<f32> {
    let host = HostInfo::new(
        "Orchard toy test",
        "Orchard",
        "https://example.invalid",
        "0.1.0",
    )
    .unwrap();
    let factory = entry.get_plugin_factory().unwrap();
    let id = factory.plugin_descriptors().next().unwrap().id().unwrap();
    let mut instance =
        PluginInstance::<InProcessHost>::new(|_| HostShared, |_| (), entry, id, &host).unwrap();
    let params: PluginParams = instance.plugin_shared_handle().get_extension().unwrap();
    let mut instrument = None;
    for i in 0..params.count(&instance.plugin_handle()) {
        let mut buffer = ParamInfoBuffer::new();
        if let Some(info) = params.get_info(&instance.plugin_handle(), i, &mut buffer)
            && info.name == b"Instrument"
        {
            instrument = Some((info.id, info.max_value));
        }
    }
    let info = instrument.expect("an instrument parameter");
    let (instrument_id, steps) = info;
    let choices = orchard::Instrument::names();
    let index = choices.iter().position(|&n| n == instrument_name).unwrap();
    // Hosts see the choice as a normalised value, index over the last index.
    let value = index as f64 / (choices.len() - 1) as f64 * steps;
    let config = PluginAudioConfiguration {
        sample_rate: FS,
        min_frames_count: 1,
        max_frames_count: 256,
    };
    let processor = instance.activate(|_, _| (), config).unwrap();
    let out = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let mut processor = processor.start_processing().unwrap();
                let mut out = vec![0.0f32; frames];
                let (mut left, mut right) = ([0.0f32; 256], [0.0f32; 256]);
                let mut input_ports = AudioPorts::with_capacity(0, 0);
                let mut output_ports = AudioPorts::with_capacity(2, 1);
                let mut events = EventBuffer::with_capacity(4);
                let mut start = 0;
                while start < frames {
                    let len = 256.min(frames - start);
                    events.clear();
                    if start == 0 {
                        events.push(&ParamValueEvent::new(
                            0,
                            instrument_id,
                            Pckn::match_all(),
                            value,
                        ));
                    }
                    // The note once the instrument has been rebuilt.
                    if start == 2560 {
                        events.push(&NoteOnEvent::new(
                            0,
                            Pckn::new(0u16, 0u16, 69u16, 0u32),
                            0.8,
                        ));
                    }
                    let inputs = input_ports.with_input_buffers([] as [AudioPortBuffer<
                        [InputChannel<f32>; 0],
                        [InputChannel<f64>; 0],
                    >; 0]);
                    let mut outputs = output_ports.with_output_buffers([AudioPortBuffer {
                        latency: 0,
                        channels: AudioPortBufferType::f32_output_only(
                            [&mut left[..len], &mut right[..len]].into_iter(),
                        ),
                    }]);
                    processor
                        .process(
                            &inputs,
                            &mut outputs,
                            &InputEvents::from_buffer(&events),
                            &mut OutputEvents::void(),
                            Some(start as u64),
                            None,
                        )
                        .unwrap();
                    out[start..start + len].copy_from_slice(&left[..len]);
                    start += len;
                    if start == 256 {
                        // The chosen instrument is built off the audio
                        // thread: give it time before the note.
                        std::thread::sleep(std::time::Duration::from_millis(300));
                    }
                }
                (processor.stop_processing(), out)
            })
            .join()
            .unwrap()
    });
    let (processor, out) = out;
    instance.deactivate(processor);
    out
}

/// The host's instrument list comes from the registry: the toy family's
/// preset is offered beside the built-in ones, and choosing it plays the toy
/// family in the plugin (its plectrum's delay, its string's pitch).
#[test]
fn a_family_defined_outside_the_engine_plays_in_the_plugin() {
    register_toys();
    let entry = in_process_entry();
    let choices = orchard::Instrument::names();
    assert!(choices.contains(&"Toy pluck"), "{choices:?}");
    assert!(choices.contains(&"Grand piano"), "{choices:?}");
    let out = render_in_plugin(&entry, "Toy pluck", (0.5 * FS) as usize);
    let note_on = 2560;
    let onset = out.iter().position(|x| x.abs() > 1e-6).unwrap();
    let delay_s = (onset - note_on) as f64 / FS;
    assert!(
        (PLUCK_DELAY_S..PLUCK_DELAY_S + 0.002).contains(&delay_s),
        "plucked {delay_s} s after the note"
    );
    let pitch = peak_frequency(&out[onset..], FS, 200.0, 1000.0).unwrap();
    assert!((pitch - 440.0).abs() < 1.0, "sounds at {pitch} Hz");
}

/// A Standard MIDI File of one track: A4 at velocity 100 from 0 to 0.5 s
/// (480 ticks per quarter at the default 120 beats per minute).
fn one_a4() -> Vec<u8> {
    let track = [
        0x00, 0x90, 69, 100, // note on at 0
        0x83, 0x60, 0x80, 69, 64, // note off 480 ticks later
        0x00, 0xFF, 0x2F, 0x00, // end of track
    ];
    let mut midi = b"MThd".to_vec();
    midi.extend_from_slice(&[0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0]);
    midi.extend_from_slice(b"MTrk");
    midi.extend_from_slice(&(track.len() as u32).to_be_bytes());
    midi.extend_from_slice(&track);
    midi
}

/// The renderer finds the family of a preset file through the registry, as
/// for the built-in ones.
#[test]
fn a_family_defined_outside_the_engine_renders_from_the_command_line() {
    use clap::Parser;
    use orchard_cli::{Cli, Command, audio_file::read_mono, run_render};

    register_toys();
    let dir = std::env::temp_dir().join(format!("orchard-toy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (preset, midi, wav) = (dir.join("toy.toml"), dir.join("a4.mid"), dir.join("a4.wav"));
    std::fs::write(&preset, toy_preset_text()).unwrap();
    std::fs::write(&midi, one_a4()).unwrap();
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let cli = Cli::try_parse_from([
        "orchard".to_string(),
        "render".into(),
        path(&midi),
        "-o".into(),
        path(&wav),
        "--preset".into(),
        path(&preset),
        "--format".into(),
        "float32".into(),
        "--max-tail".into(),
        "0.5".into(),
    ])
    .unwrap();
    let Command::Render(args) = &cli.command else {
        panic!("a render");
    };
    run_render(args).unwrap();
    let audio = read_mono(&wav).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let onset = audio.signal.iter().position(|x| x.abs() > 1e-6).unwrap();
    let onset_s = onset as f64 / audio.sample_rate;
    assert!(
        (PLUCK_DELAY_S..PLUCK_DELAY_S + 0.001).contains(&onset_s),
        "plucked at {onset_s} s"
    );
    let pitch = peak_frequency(&audio.signal[onset..], audio.sample_rate, 200.0, 1000.0).unwrap();
    assert!((pitch - 440.0).abs() < 1.0, "sounds at {pitch} Hz");
}

/// Whatever the instrument puts out, the plugin hands the host finite
/// samples within its bound: a runaway's NaN and infinities become silence,
/// its huge values the bound, and its ordinary samples pass as they are.
#[test]
fn a_runaway_instrument_leaves_the_plugin_finite_and_bounded() {
    register_toys();
    let entry = in_process_entry();
    let out = render_in_plugin(&entry, "Toy runaway", (0.2 * FS) as usize);
    let bound = orchard::output_guard::OUTPUT_BOUND;
    assert!(out.iter().all(|x| x.is_finite() && x.abs() <= bound));
    for expected in [0.0, bound, -bound, 0.5, -0.25] {
        assert!(out.contains(&expected), "no {expected} in the output");
    }
}
