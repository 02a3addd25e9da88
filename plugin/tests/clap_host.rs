//! Orchard loaded as a host loads it: the built CLAP plugin, through clack-host.
//!
//! The plugin under test is this workspace's own cdylib, built for the tests with
//! nice-plug's `assert_process_allocs`: any allocation inside `process` aborts the
//! test process.

mod common;

use clack_extensions::params::{ParamInfoBuffer, PluginParams};
use clack_extensions::render::{PluginRender, RenderMode};
use clack_extensions::state::PluginState;
use clack_host::events::event_types::{MidiEvent, NoteOffEvent, NoteOnEvent, ParamValueEvent};
use clack_host::prelude::*;
use orchard_cli::render;
use orchard_cli::score::{Score, ScoreEvent};
use orchard_engine::analysis::peak_frequency;
use orchard_engine::instrument::Preset;
use orchard_engine::rt::{DEFAULT_RELEASE_VELOCITY, PASSBAND_EDGE, Synth, SynthEvent};

use common::{TestHostShared, host_info, with_plugin};

struct TestHost;

impl HostHandlers for TestHost {
    type Shared<'a> = TestHostShared;
    type MainThread<'a> = ();
    type AudioProcessor<'a> = ();
}

/// How the test host calls `process`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Pace {
    /// As fast as it can, in realtime mode (what a host rendering ahead
    /// without saying it renders offline does).
    Unpaced,
    /// This many times faster than real time (1: one block per block
    /// period, as a sound card), in realtime mode.
    Faster(f64),
    /// As fast as it can, having told the plugin that it renders offline.
    Offline,
}

/// What the test host sends, at a frame.
#[derive(Debug, Clone, Copy)]
enum Send {
    /// Key and velocity (0 to 1).
    NoteOn(u16, f64),
    NoteOff(u16),
    /// A parameter (CLAP id) to a plain value.
    Param(u32, f64),
    /// A MIDI message (status, data, data) on the note port.
    Midi([u8; 3]),
}

/// Renders key 69 held from frame 10 for `held_s`, then released, for `total_s`,
/// at `sample_rate` in blocks of `block` frames. Returns the left and right channels.
fn render_through_clap(
    entry: &PluginEntry,
    sample_rate: f64,
    block: usize,
    held_s: f64,
    total_s: f64,
) -> [Vec<f32>; 2] {
    let note_off_frame = (held_s * sample_rate) as usize;
    let script = [
        (10, Send::NoteOn(69, 0.8)),
        (note_off_frame, Send::NoteOff(69)),
    ];
    render_script(entry, sample_rate, block, total_s, &script, Pace::Unpaced)
}

/// A new instance of the bundle's one plugin.
fn instance(entry: &PluginEntry) -> PluginInstance<TestHost> {
    let factory = entry.get_plugin_factory().expect("a plugin factory");
    let descriptor = factory.plugin_descriptors().next().expect("one plugin");
    assert_eq!(descriptor.name().unwrap().to_bytes(), b"Orchard");
    let id = descriptor.id().unwrap();
    PluginInstance::<TestHost>::new(|_| TestHostShared, |_| (), entry, id, &host_info()).unwrap()
}

/// Renders `total_s` seconds at `sample_rate` in blocks of `block` frames,
/// sending `script` (sorted by frame) at `pace` (`Pace::Faster(1.0)`: one
/// block per block period, as a sound card asks for them). Returns the left
/// and right channels.
fn render_script(
    entry: &PluginEntry,
    sample_rate: f64,
    block: usize,
    total_s: f64,
    script: &[(usize, Send)],
    pace: Pace,
) -> [Vec<f32>; 2] {
    render_from_state(entry, None, sample_rate, block, total_s, script, pace).0
}

/// [`render_script`] on an instance that first loads `state` (the bytes a host
/// saved), if given. Returns the channels and the state saved after rendering.
fn render_from_state(
    entry: &PluginEntry,
    state: Option<&[u8]>,
    sample_rate: f64,
    block: usize,
    total_s: f64,
    script: &[(usize, Send)],
    pace: Pace,
) -> ([Vec<f32>; 2], Vec<u8>) {
    let mut instance = instance(entry);
    let state_extension: PluginState = instance
        .plugin_shared_handle()
        .get_extension()
        .expect("the state extension");
    if let Some(bytes) = state {
        state_extension
            .load(&instance.plugin_handle(), &mut &bytes[..])
            .expect("the state loads");
    }
    let out = render_on(&mut instance, sample_rate, block, total_s, script, pace);
    let mut saved = Vec::new();
    state_extension
        .save(&instance.plugin_handle(), &mut saved)
        .expect("the state saves");
    (out, saved)
}

/// Activates `instance` at `sample_rate` for blocks of up to `block` frames
/// (offline first, if `pace` says so), renders `total_s` seconds sending
/// `script` at `pace`, and deactivates it.
fn render_on(
    instance: &mut PluginInstance<TestHost>,
    sample_rate: f64,
    block: usize,
    total_s: f64,
    script: &[(usize, Send)],
    pace: Pace,
) -> [Vec<f32>; 2] {
    if pace == Pace::Offline {
        let render: PluginRender = instance
            .plugin_shared_handle()
            .get_extension()
            .expect("the render extension");
        render
            .set(&instance.plugin_handle(), RenderMode::Offline)
            .expect("offline rendering");
    }
    let config = PluginAudioConfiguration {
        sample_rate,
        min_frames_count: 1,
        max_frames_count: block as u32,
    };
    let processor = instance.activate(|_, _| (), config).unwrap();

    let total = (total_s * sample_rate) as usize;
    let output = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let mut processor = processor.start_processing().unwrap();
                let mut out = [vec![0.0f32; total], vec![0.0f32; total]];
                let (mut left, mut right) = (vec![0.0f32; block], vec![0.0f32; block]);
                let mut input_ports = AudioPorts::with_capacity(0, 0);
                let mut output_ports = AudioPorts::with_capacity(2, 1);
                let mut events = EventBuffer::with_capacity(16);
                let mut start = 0;
                while start < total {
                    let len = block.min(total - start);
                    events.clear();
                    for &(frame, send) in script {
                        if !(start..start + len).contains(&frame) {
                            continue;
                        }
                        let t = (frame - start) as u32;
                        let key = |k: u16| Pckn::new(0u16, 0u16, k, 0u32);
                        match send {
                            Send::NoteOn(k, v) => events.push(&NoteOnEvent::new(t, key(k), v)),
                            Send::NoteOff(k) => events.push(&NoteOffEvent::new(t, key(k), 0.5)),
                            Send::Param(id, value) => events.push(&ParamValueEvent::new(
                                t,
                                ClapId::new(id),
                                Pckn::match_all(),
                                value,
                            )),
                            Send::Midi(bytes) => events.push(&MidiEvent::new(t, 0, bytes)),
                        }
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
                    out[0][start..start + len].copy_from_slice(&left[..len]);
                    out[1][start..start + len].copy_from_slice(&right[..len]);
                    start += len;
                    if let Pace::Faster(speed) = pace {
                        std::thread::sleep(std::time::Duration::from_secs_f64(
                            len as f64 / sample_rate / speed,
                        ));
                    }
                }
                (processor.stop_processing(), out)
            })
            .join()
            .unwrap()
    });
    let (processor, out) = output;
    instance.deactivate(processor);
    out
}

/// A parameter as the plugin describes it: (id, name, min, max, default).
type ParamDescription = (u32, String, f64, f64, f64);

/// Every parameter the plugin reports through the CLAP params extension.
fn parameters(entry: &PluginEntry) -> Vec<ParamDescription> {
    let mut instance = instance(entry);
    let params: PluginParams = instance
        .plugin_shared_handle()
        .get_extension()
        .expect("the params extension");
    let count = params.count(&instance.plugin_handle());
    (0..count)
        .map(|i| {
            let mut buffer = ParamInfoBuffer::new();
            let info = params
                .get_info(&instance.plugin_handle(), i, &mut buffer)
                .expect("every index has a parameter");
            (
                info.id.get(),
                String::from_utf8_lossy(info.name).into_owned(),
                info.min_value,
                info.max_value,
                info.default_value,
            )
        })
        .collect()
}

/// The parameter called `name`.
fn parameter_named(entry: &PluginEntry, name: &str) -> ParamDescription {
    parameters(entry)
        .into_iter()
        .find(|p| p.1 == name)
        .unwrap_or_else(|| panic!("a parameter called {name}"))
}

fn peak(x: &[f32]) -> f32 {
    x.iter().fold(0.0, |m, s| m.max(s.abs()))
}

#[test]
fn plays_in_a_clap_host_at_every_rate_and_block_size() {
    with_plugin(|entry| {
        let (held_s, total_s) = (0.4, 1.6);
        for sample_rate in [44_100.0, 48_000.0, 96_000.0] {
            let mut reference: Option<[Vec<f32>; 2]> = None;
            for block in [4096, 512, 64, 1] {
                let out = render_through_clap(entry, sample_rate, block, held_s, total_s);
                let at = |s: f64| (s * sample_rate) as usize;
                for channel in &out {
                    assert!(channel.iter().all(|s| s.is_finite()), "non-finite output");
                    let held = peak(&channel[at(0.01)..at(held_s)]);
                    assert!(
                        held > 1e-3,
                        "silent while held: {held} at {sample_rate} Hz, block {block}"
                    );
                    // The damper's T60 is 0.25 s: a second after release,
                    // the note's strings are still (240 dB down); only the
                    // top strings, which have no dampers, ring faintly with
                    // what the bridge gave them, 60 dB or more below the note.
                    let after = peak(&channel[at(held_s + 1.0)..]);
                    assert!(
                        after < 1e-3 * held,
                        "still sounding after release: {after} of {held}"
                    );
                }
                // Sample-accurate events: every block size renders the same audio.
                match &reference {
                    None => reference = Some(out),
                    Some(r) => {
                        let first = r[0].iter().zip(&out[0]).position(|(a, b)| a != b);
                        assert!(
                            r == &out,
                            "block size {block} changed the output at {sample_rate} Hz from frame {first:?}: {:?} vs {:?}",
                            first.map(|i| &r[0][i..i + 4]),
                            first.map(|i| &out[0][i..i + 4])
                        );
                    }
                }
            }
        }
    });
}

/// Every rate clap-validator, the VST3 validator and DawDreamer try, 1234.5678 Hz
/// to 1234567.8 Hz, and 2 MHz: the plugin activates and processes at each without allocating,
/// its output stays finite, and a key sounds at its 48 kHz pitch wherever the
/// rate carries it and stays silent where it cannot.
#[test]
fn activates_and_plays_in_tune_at_every_rate_a_host_may_ask_for() {
    let nominal_hz = |key: u16| 440.0 * 2f64.powf((f64::from(key) - 69.0) / 12.0);
    let pitch = |out: &[f32], rate: f64, key: u16| {
        let f = nominal_hz(key);
        peak_frequency(&out[(0.1 * rate) as usize..], rate, f / 1.06, f * 1.06).expect("a pitch")
    };
    with_plugin(|entry| {
        // A4 fits every rate; C6 (1047 Hz) does not fit 1234.5678 Hz.
        for key in [69, 84] {
            let script = [(0, Send::NoteOn(key, 0.8))];
            let play = |rate: f64| render_script(entry, rate, 256, 0.4, &script, Pace::Unpaced);
            let reference = pitch(&play(48_000.0)[0], 48_000.0, key);
            for rate in [
                1_234.567_8,
                8_000.0,
                22_050.0,
                44_100.0,
                96_000.0,
                192_000.0,
                384_000.0,
                768_000.0,
                1_234_567.8,
                2_000_000.0,
            ] {
                let [left, right] = play(rate);
                assert!(
                    left.iter().chain(&right).all(|x| x.is_finite()),
                    "{rate} Hz, key {key}"
                );
                if nominal_hz(key) <= PASSBAND_EDGE * rate {
                    let got = pitch(&left, rate, key);
                    let cents = 1200.0 * (got / reference).log2();
                    assert!(
                        cents.abs() < 2.0,
                        "{rate} Hz, key {key}: {got:.3} Hz against {reference:.3} Hz at 48 kHz"
                    );
                } else {
                    assert_eq!(peak(&left), 0.0, "{rate} Hz, key {key} sounds");
                }
            }
        }
    });
}

/// The host sees every sound parameter with its range, and their ids stay put
/// from build to build (hosts store automation under them). Setting each to its
/// minimum and maximum while a chord plays (the instrument is rebuilt off the
/// audio thread each time) keeps the output finite, and so does NaN.
#[test]
fn parameters_are_stable_and_every_value_plays() {
    with_plugin(|entry| {
        let params = parameters(entry);
        let names: Vec<&str> = params.iter().map(|p| p.1.as_str()).collect();
        for expected in [
            "Output level",
            "Instrument",
            "Hammer hardness",
            "Brightness",
            "Decay",
            "Unison detune",
            "String resonance",
            "A4 tuning",
            "Stretch",
            "Temperament",
            "Temperament key",
            "Velocity curve",
            "Stereo width",
        ] {
            assert!(names.contains(&expected), "no {expected} in {names:?}");
        }
        for (id, name, min, max, default) in &params {
            assert!(
                min < max && (min..=max).contains(&default),
                "{name}: {min} {max} {default}"
            );
            assert_ne!(*id, 0, "{name}");
        }
        // nice-plug shows hosts normalised values: A4's 415–466 Hz as 0–1, its
        // default 440 Hz at (440 − 415)/(466 − 415).
        let a4 = params.iter().find(|p| p.1 == "A4 tuning").unwrap();
        assert_eq!((a4.2, a4.3), (0.0, 1.0));
        assert!((a4.4 - 25.0 / 51.0).abs() < 1e-6, "{a4:?}");
        // Ids come from the permanent string ids: the same on every build.
        let ids: Vec<u32> = params.iter().map(|p| p.0).collect();
        assert_eq!(
            ids,
            parameters(entry).iter().map(|p| p.0).collect::<Vec<_>>()
        );

        let fs = 48_000.0;
        let block = 512;
        let mut script = vec![
            (10, Send::NoteOn(60, 0.8)),
            (10, Send::NoteOn(64, 0.8)),
            (10, Send::NoteOn(67, 0.8)),
        ];
        let mut frame = 2_000;
        for &(id, _, min, max, _) in &params {
            for value in [min, max, f64::NAN] {
                script.push((frame, Send::Param(id, value)));
                frame += 3_000;
            }
            script.push((frame, Send::NoteOn(60, 0.8)));
            frame += 1_000;
        }
        let total_s = (frame + 24_000) as f64 / fs;
        let out = render_script(entry, fs, block, total_s, &script, Pace::Unpaced);
        for channel in &out {
            assert!(channel.iter().all(|s| s.is_finite()), "non-finite output");
        }
        assert!(peak(&out[0]) > 1e-3, "silent");
    });
}

/// A parameter change reaches the sound: A4 tuning at its maximum (466 Hz)
/// retunes the instrument (rebuilt off the audio thread; this test build is
/// not optimised, so it waits two seconds for it).
#[test]
fn a4_tuning_retunes_the_instrument() {
    with_plugin(|entry| {
        let a4 = parameter_named(entry, "A4 tuning");
        let fs = 48_000.0;
        let script = [
            (10, Send::Param(a4.0, 1.0)),
            (96_000, Send::NoteOn(69, 0.8)),
        ];
        // Rendered at the pace of a sound card, so the rebuild has its time.
        let out = render_script(entry, fs, 4_800, 3.0, &script, Pace::Faster(1.0));
        let note = &out[0][100_000..];
        let found = orchard_engine::analysis::peak_frequency(note, fs, 420.0, 500.0).unwrap();
        assert!(
            (1200.0 * (found / 466.0).log2()).abs() < 3.0,
            "A4 at {found} Hz"
        );
    });
}

/// A parameter moved while a note sounds takes effect on that note, live: the
/// held A4 goes on sounding and glides to the new tuning.
#[test]
fn a_parameter_change_retunes_a_sounding_note() {
    with_plugin(|entry| {
        let a4 = parameter_named(entry, "A4 tuning");
        let fs = 48_000.0;
        let note = (10, Send::NoteOn(69, 0.8));
        let retune = (24_000, Send::Param(a4.0, 1.0));
        // At the pace of a sound card, so the rebuild has its time.
        let out = render_script(entry, fs, 4_800, 3.0, &[note, retune], Pace::Faster(1.0));
        let unedited = render_script(entry, fs, 4_800, 3.0, &[note], Pace::Faster(1.0));
        let window = 96_000..144_000;
        let before = &out[0][4_800..24_000];
        let after = &out[0][window.clone()];
        let pitch =
            |x: &[f32]| orchard_engine::analysis::peak_frequency(x, fs, 420.0, 500.0).unwrap();
        let cents = |f: f64, reference: f64| 1200.0 * (f / reference).log2();
        assert!(
            cents(pitch(before), 440.0).abs() < 3.0,
            "first at {} Hz",
            pitch(before)
        );
        assert!(
            cents(pitch(after), 466.0).abs() < 3.0,
            "then at {} Hz",
            pitch(after)
        );
        // Still the same note ringing, as loud as it rings unedited: the swap
        // did not cut it off.
        let ratio = peak(after) / peak(&unedited[0][window]);
        assert!(
            (0.7..1.4).contains(&ratio),
            "level {ratio} × the unedited note's"
        );
    });
}

/// nice-plug's CLAP state: the JSON's length (u64, little-endian), then the
/// JSON.
fn clap_stream(json: &[u8]) -> Vec<u8> {
    let mut bytes = (json.len() as u64).to_le_bytes().to_vec();
    bytes.extend_from_slice(json);
    bytes
}

/// The whole state goes into the host's project and comes back exactly: a
/// fresh instance loaded with a saved state renders the same audio, bit for
/// bit, and the state (parameters and instrument edits) makes a difference.
/// A state from Orchard 0.1.0 (only the output level, kept as a fixture) loads
/// as the default instrument at that level.
#[test]
fn state_is_saved_and_restored_exactly() {
    with_plugin(|entry| {
        let fs = 48_000.0;
        let script = [(10, Send::NoteOn(60, 0.8)), (24_000, Send::NoteOff(60))];
        let render = |state: Option<&[u8]>| {
            render_from_state(entry, state, fs, 512, 1.0, &script, Pace::Unpaced)
        };
        let edited = br#"{"version":"0.2.0","params":{"hardness":{"f32":0.5},"a4":{"f32":442.0},"level":{"f32":0.7}},"fields":{"instrument-state":"{\"format\":1,\"edits\":{\"strings:detune_cents\":1.5}}"}}"#;
        let (first, saved) = render(Some(&clap_stream(edited)));
        let (again, _) = render(Some(&saved));
        assert!(first == again, "a restored state renders differently");
        let (default, _) = render(None);
        assert!(first != default, "the state made no difference");
        let saved_text = String::from_utf8_lossy(&saved);
        assert!(saved_text.contains("detune_cents"), "{saved_text}");

        let old = include_bytes!("fixtures/state-0.1.0.json");
        let (from_old, _) = render(Some(&clap_stream(old)));
        for (o, d) in from_old[0].iter().zip(&default[0]) {
            assert!(
                (o - 0.5 * d).abs() <= 1e-6 * d.abs().max(1e-3),
                "{o} vs 0.5 × {d}"
            );
        }
    });
}

/// One instance, deactivated and activated again at another sample rate and
/// block size, plays in tune at both.
#[test]
fn reactivates_at_another_sample_rate() {
    with_plugin(|entry| {
        let mut instance = instance(entry);
        for (fs, block) in [(44_100.0, 512), (96_000.0, 64), (48_000.0, 4096)] {
            let out = render_on(
                &mut instance,
                fs,
                block,
                1.0,
                &[(10, Send::NoteOn(69, 0.8))],
                Pace::Unpaced,
            );
            let found =
                orchard_engine::analysis::peak_frequency(&out[0], fs, 420.0, 460.0).unwrap();
            let cents = 1200.0 * (found / 440.0).log2();
            assert!(cents.abs() < 2.0, "{fs} Hz: A4 {cents} cents off");
        }
    });
}

/// The command-line renderer (`orchard render`'s playback, from the
/// `orchard-cli` library) and the plugin (under clack-host in offline render
/// mode) given the same note produce the same audio, bit for bit.
#[test]
fn the_renderer_and_the_plugin_agree_bit_for_bit() {
    with_plugin(|entry| {
        // Middle C at velocity 100 from 1 s for 0.5 s, as a MIDI file with
        // the note at two beats of 120 bpm for one beat reads.
        let events = vec![
            ScoreEvent {
                time_s: 1.0,
                event: SynthEvent::NoteOn {
                    key: 60,
                    velocity: 100.0 / 127.0,
                },
            },
            ScoreEvent {
                time_s: 1.5,
                event: SynthEvent::NoteOff {
                    key: 60,
                    velocity: DEFAULT_RELEASE_VELOCITY,
                },
            },
        ];
        let score = Score::new(events, 1.5);
        let preset = Preset::load(orchard_cli::DEFAULT_PRESET).unwrap();
        let mut synth = Synth::new(&preset, 48_000.0).unwrap();
        let mut cli_left = Vec::new();
        let max_tail_s = 20.0;
        render::render(&mut synth, &score, max_tail_s, render::BLOCK, |_, l, _| {
            cli_left.extend_from_slice(l);
            Ok(())
        })
        .unwrap();

        let mut instance = instance(entry);
        let script = [
            (48_000, Send::NoteOn(60, 100.0 / 127.0)),
            (72_000, Send::NoteOff(60)),
        ];
        let frames = cli_left.len();
        let plugin = render_on(
            &mut instance,
            48_000.0,
            512,
            frames as f64 / 48_000.0,
            &script,
            Pace::Offline,
        );
        let n = frames.min(plugin[0].len());
        assert!(n > 80_000, "{n} frames: the note and its release");
        assert!(
            cli_left.iter().any(|s| s.abs() > 1e-3),
            "the renderer was silent"
        );
        let first = cli_left[..n]
            .iter()
            .zip(&plugin[0][..n])
            .position(|(a, b)| a != b);
        assert_eq!(first, None, "they differ from frame {first:?}");
    });
}

/// The chiming clock's place among the built-in instruments: the
/// "Instrument" parameter's plain value that chooses it (a stepped
/// parameter's plain value is the choice's index).
fn clock_choice() -> f64 {
    orchard_engine::families::builtin_presets()
        .iter()
        .position(|(name, _)| *name == "chiming-clock")
        .unwrap() as f64
}

/// The chiming clock (a built-in instrument) plays in a host: its
/// mechanism runs in lock-step on the audio thread (with allocation checks
/// on), and it ticks at its 0.2 s beat; its running parameter stops it.
#[test]
fn the_clock_ticks_in_a_host_and_its_parameter_stops_it() {
    with_plugin(|entry| {
        let instrument = parameter_named(entry, "Instrument");
        let clock_choice = clock_choice();
        let running = parameter_named(entry, "Mechanism running");
        let fs = 48_000.0;
        let clock = [(10, Send::Param(instrument.0, clock_choice))];
        let out = render_script(entry, fs, 480, 4.0, &clock, Pace::Faster(1.0));
        let ticks: Vec<f64> =
            orchard_engine::analysis::click_onsets(&out[0][(1.5 * fs) as usize..], fs);
        assert!(ticks.len() >= 8, "ticks at {ticks:?}");
        let beat = (ticks[ticks.len() - 1] - ticks[0]) / (ticks.len() - 1) as f64;
        assert!((beat - 0.2).abs() < 0.004, "a tick every {beat} s");

        let stopped = [
            (10, Send::Param(instrument.0, clock_choice)),
            (10, Send::Param(running.0, 0.0)),
        ];
        let out = render_script(entry, fs, 480, 3.0, &stopped, Pace::Faster(1.0));
        assert!(
            peak(&out[0][(1.5 * fs) as usize..]) == 0.0,
            "a stopped clock is silent"
        );
    });
}

/// The chiming clock from 11:59:50 for 15 s (its ticks, then the quarters
/// and the hour at 12:00) is the same clock in every host: sample for sample
/// the same whether the host calls `process` as a sound card does, ten times
/// faster than real time without saying it renders offline, or offline. The
/// mechanism runs in lock-step on the audio thread, allocating nothing (the
/// allocation checks are on), so how fast a host calls cannot change it.
#[test]
fn the_clock_is_the_same_clock_in_every_host() {
    with_plugin(|entry| {
        let instrument = parameter_named(entry, "Instrument");
        let fs = 48_000.0;
        // A state that chooses the clock, so every run plays it from its
        // first sample (the built-in clock's hands stand at 11:59:50).
        let choose = [(0, Send::Param(instrument.0, clock_choice()))];
        let (_, clock_state) =
            render_from_state(entry, None, fs, 480, 0.01, &choose, Pace::Unpaced);
        let play =
            |pace: Pace| render_from_state(entry, Some(&clock_state), fs, 480, 15.0, &[], pace).0;
        let offline = play(Pace::Offline);
        let ticks = orchard_engine::analysis::click_onsets(&offline[0][..(9.0 * fs) as usize], fs);
        assert!(ticks.len() >= 40, "ticks at {ticks:?}");
        let chime = peak(&offline[0][(10.5 * fs) as usize..]);
        let ticking = peak(&offline[0][(1.0 * fs) as usize..(9.0 * fs) as usize]);
        assert!(
            chime > 4.0 * ticking,
            "the chime ({chime}) over the ticks ({ticking})"
        );
        for (pace, name) in [
            (Pace::Faster(10.0), "ten times faster than real time"),
            (Pace::Faster(1.0), "in real time"),
        ] {
            let out = play(pace);
            for (channel, (a, b)) in out.iter().zip(&offline).enumerate() {
                let first = a
                    .iter()
                    .zip(b)
                    .position(|(x, y)| x.to_bits() != y.to_bits());
                assert_eq!(
                    first, None,
                    "channel {channel} played {name} differs from offline from frame {first:?}"
                );
            }
        }
    });
}

/// The room plays in a host without allocating (the allocation checks are
/// on): with the Room knob at 0.5 a staccato middle C goes on sounding in the
/// room long after its dampers have stilled the dry note.
#[test]
fn the_room_rings_on_in_a_host() {
    with_plugin(|entry| {
        let room = parameter_named(entry, "Room");
        let fs = 48_000.0;
        // At the pace of a sound card, so the rebuild with the room has its
        // time before the note.
        let (on, off) = ((2.0 * fs) as usize, (2.3 * fs) as usize);
        let note = [(on, Send::NoteOn(60, 0.8)), (off, Send::NoteOff(60))];
        let roomy = [(10, Send::Param(room.0, 0.5)), note[0], note[1]];
        let dry = render_script(entry, fs, 4_800, 4.0, &note, Pace::Faster(1.0));
        let wet = render_script(entry, fs, 4_800, 4.0, &roomy, Pace::Faster(1.0));
        assert!(wet.iter().flatten().all(|s| s.is_finite()));
        let energy = |x: &[f32]| x.iter().map(|s| f64::from(*s).powi(2)).sum::<f64>();
        let tail = (3.0 * fs) as usize..(3.5 * fs) as usize;
        let ratio = energy(&wet[0][tail.clone()]) / energy(&dry[0][tail]).max(1e-30);
        // The default room's T60 is 1.8 s: 0.7 s after the note-off its
        // reverb has fallen by about 23 dB, the damped strings by far more.
        assert!(ratio > 10.0, "room tail / dry tail energy: {ratio}");
    });
}

/// A plugin state (as a host saves it, in the CLAP stream) with the
/// parameters `params` (id to JSON value, e.g. `{"f32": 442.0}`) and the
/// MIDI bindings field `bindings`, as text.
fn state_with_bindings(params: serde_json::Value, bindings: &str) -> Vec<u8> {
    let state = serde_json::json!({
        "version": "0.3.0",
        "params": params,
        "fields": {
            "instrument-state": r#"{"format":2,"edits":[]}"#,
            "midi-bindings": bindings,
        },
    });
    clap_stream(&serde_json::to_vec(&state).unwrap())
}

/// The JSON of a state the plugin saved (after the stream's length).
fn saved_json(saved: &[u8]) -> serde_json::Value {
    serde_json::from_slice(&saved[8..]).expect("the saved state is JSON")
}

/// The pitch of `x` between `lo_hz` and `hi_hz`, as cents from `reference_hz`.
fn cents_from(x: &[f32], fs: f64, lo_hz: f64, hi_hz: f64, reference_hz: f64) -> f64 {
    let f = peak_frequency(x, fs, lo_hz, hi_hz).expect("a peak");
    1200.0 * (f / reference_hz).log2()
}

/// MIDI learn's bindings at work in a host, with the allocation checks on:
/// a project whose state binds the modulation wheel (CC 1, any channel) to
/// the A4 tuning parameter and CC 2 on channel 1 to hammer hardness; the
/// wheel pushed to the top on channel 4 retunes a held A4 to the
/// parameter's top, 466 Hz, and the project saves it there; CC 2 on
/// channel 6 leaves the hardness alone. A state whose bindings field is
/// corrupt loads the rest (its A4 at 442 Hz) with no bindings.
#[test]
fn a_bound_controller_moves_a_host_parameter_and_the_project_keeps_it() {
    with_plugin(|entry| {
        let fs = 48_000.0;
        let bindings = r#"[
            {"source":{"control":{"kind":"cc","number":1},"channel":null},
             "target":{"kind":"param","id":"a4"}},
            {"source":{"control":{"kind":"cc","number":2},"channel":0},
             "target":{"kind":"param","id":"hardness"}}
        ]"#;
        let state = state_with_bindings(serde_json::json!({}), bindings);
        let script = [
            (10, Send::NoteOn(69, 0.8)),
            (24_000, Send::Midi([0xB3, 1, 127])),
            (24_000, Send::Midi([0xB5, 2, 127])),
        ];
        let (out, saved) = render_from_state(
            entry,
            Some(&state),
            fs,
            4_800,
            2.5,
            &script,
            Pace::Faster(1.0),
        );
        let before = cents_from(&out[0][4_800..24_000], fs, 420.0, 500.0, 440.0);
        let after = cents_from(&out[0][72_000..120_000], fs, 420.0, 500.0, 466.0);
        assert!(before.abs() < 3.0, "first {before} cents from 440 Hz");
        assert!(after.abs() < 3.0, "then {after} cents from 466 Hz");
        let saved = saved_json(&saved);
        assert_eq!(saved["params"]["a4"]["f32"], 466.0, "{saved}");
        assert_eq!(
            saved["params"]["hardness"]["f32"], 0.0,
            "CC 2 came on another channel than its binding's"
        );
        let kept: serde_json::Value =
            serde_json::from_str(saved["fields"]["midi-bindings"].as_str().unwrap()).unwrap();
        assert_eq!(kept.as_array().unwrap().len(), 2, "the bindings are saved");

        let corrupt = state_with_bindings(serde_json::json!({"a4": {"f32": 442.0}}), "{broken");
        let (_, saved) =
            render_from_state(entry, Some(&corrupt), fs, 512, 0.05, &[], Pace::Unpaced);
        let saved = saved_json(&saved);
        assert_eq!(saved["params"]["a4"]["f32"], 442.0, "{saved}");
        assert_eq!(saved["fields"]["midi-bindings"], "[]");
    });
}

/// A property bound to the pitch-bend wheel (channel 1) in a host: the
/// wheel fully up sets `tuning:a4_hz` to the top of its declared range and
/// a held A4 sounds there; back at rest (raw 8192) it sets the exact middle
/// of the range, and the note follows (each a second after the move, time
/// for the background thread). Many messages on the way make one
/// edit in the saved project, at the last position.
#[test]
fn a_bound_pitch_bend_moves_a_property_of_a_sounding_note() {
    with_plugin(|entry| {
        let fs = 48_000.0;
        let info = Preset::load("grand-piano")
            .unwrap()
            .property_info("tuning:a4_hz")
            .unwrap();
        let (lo, hi) = info.slider;
        let middle = 0.5 * (lo + hi);
        let bindings = r#"[
            {"source":{"control":{"kind":"pitch-bend"},"channel":0},
             "target":{"kind":"property","path":"tuning:a4_hz"}}
        ]"#;
        let state = state_with_bindings(serde_json::json!({}), bindings);
        let mut script = vec![(10, Send::NoteOn(69, 0.8))];
        // The wheel swept up over 0.1 s, a message a millisecond.
        for step in 0..=100u32 {
            let raw = 8192 + step * (16383 - 8192) / 100;
            let frame = 24_000 + step as usize * 48;
            script.push((
                frame,
                Send::Midi([0xE0, (raw & 0x7f) as u8, (raw >> 7) as u8]),
            ));
        }
        script.push((108_000, Send::Midi([0xE0, 0x00, 0x40])));
        let (out, saved) = render_from_state(
            entry,
            Some(&state),
            fs,
            4_800,
            4.0,
            &script,
            Pace::Faster(1.0),
        );
        let before = cents_from(&out[0][4_800..24_000], fs, 420.0, 500.0, 440.0);
        let up = cents_from(&out[0][72_000..108_000], fs, 0.9 * hi, 1.1 * hi, hi);
        let rest = cents_from(
            &out[0][156_000..192_000],
            fs,
            0.95 * middle,
            1.05 * middle,
            middle,
        );
        assert!(before.abs() < 3.0, "first {before} cents from 440 Hz");
        assert!(up.abs() < 3.0, "wheel up: {up} cents from {hi} Hz");
        assert!(
            rest.abs() < 3.0,
            "wheel at rest: {rest} cents from {middle} Hz"
        );

        let saved = saved_json(&saved);
        let edits: serde_json::Value =
            serde_json::from_str(saved["fields"]["instrument-state"].as_str().unwrap()).unwrap();
        assert_eq!(
            edits["edits"],
            serde_json::json!([{"op": "set", "path": "tuning:a4_hz", "value": middle}]),
            "{edits}"
        );
    });
}
