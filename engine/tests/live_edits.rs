//! Live edits (`InstrumentLoader::load_live`): an edit of the running
//! instrument takes over with the sounding notes carrying on, without a click,
//! and is heard at once; keys, pedals and hammers in flight carry over; an
//! instrument of another shape is a switch; the install allocates nothing and
//! lock-step renders stay bit-identical.

use std::time::Duration;

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};
use orchard_engine::analysis::{peak_frequency, rms};
use orchard_engine::families::grand_piano::PianoVoices;
use orchard_engine::families::mallet_bar::BarVoices;
use orchard_engine::instrument::{Preset, StrikeReport};
use orchard_engine::rt::{
    InstrumentLoader, Operation, RealtimeOptions, Score, Synth, SynthError, SynthEvent, Voices,
};

mod support;
use support::grand_at_bridge;

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

const FS: f64 = 48_000.0;
/// The sample of the edit, 0.5 s: a multiple of every block size used here
/// (64 and 1000), so the install falls on the same sample whatever the blocks.
const EDIT_AT: usize = 24_000;
/// C major, C4 to C5.
const CHORD: [u8; 4] = [60, 64, 67, 72];
/// Fortissimo, MIDI velocity 112.
const FF: f32 = 112.0 / 127.0;

/// Left and right channels.
type Stereo = (Vec<f32>, Vec<f32>);

/// How an instrument is installed.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Install {
    /// `load_live`.
    Live,
    /// `load`, a switch.
    Switch,
}

/// The pedal down and the chord struck ff at 0, held throughout.
fn held_pedalled_chord() -> Vec<(usize, SynthEvent)> {
    let mut score = vec![(0, SynthEvent::Sustain(1.0))];
    score.extend(CHORD.map(|key| (0, SynthEvent::NoteOn { key, velocity: FF })));
    score
}

/// The grand piano with `edits` (path, value) made.
fn edited(edits: &[(&str, f64)]) -> Preset {
    let mut preset = grand_at_bridge();
    for &(path, value) in edits {
        preset.set(path, value).unwrap();
    }
    preset
}

/// Renders `score` (sorted by frame) for `frames` on `start` in lock-step
/// blocks of `block` frames; each of `installs` (frame, how, preset) is
/// loaded before the block starting at its frame. Returns the synthesiser
/// and its output.
fn render(
    start: &Preset,
    score: &[(usize, SynthEvent)],
    installs: &[(usize, Install, &Preset)],
    frames: usize,
    block: usize,
) -> (Synth, Stereo) {
    let mut synth = Synth::new(start, FS).unwrap();
    let mut loader = synth.take_loader().unwrap();
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    let score = Score::new(score.iter().map(|&(at, event)| (at as u64, event)), 0);
    let mut player = score.player();
    for begin in (0..frames).step_by(block) {
        let end = (begin + block).min(frames);
        for &(_, how, preset) in installs.iter().filter(|i| i.0 == begin) {
            match how {
                Install::Live => loader.load_live(preset).unwrap(),
                Install::Switch => loader.load(preset).unwrap(),
            }
        }
        player.play(&mut synth, &mut left[begin..end], &mut right[begin..end]);
    }
    loader.collect();
    (synth, (left, right))
}

/// The grand piano playing `score` with `edit`'s preset installed as it says
/// at [`EDIT_AT`] (or nothing installed), in blocks of 64.
fn play(score: &[(usize, SynthEvent)], edit: Option<(Install, &Preset)>, frames: usize) -> Stereo {
    let installs: Vec<_> = edit.map(|(how, p)| (EDIT_AT, how, p)).into_iter().collect();
    render(&grand_at_bridge(), score, &installs, frames, 64).1
}

/// The largest sample-to-sample step of `x`.
fn largest_step(x: &[f32]) -> f64 {
    x.windows(2)
        .map(|w| f64::from((w[1] - w[0]).abs()))
        .fold(0.0, f64::max)
}

/// Energy of the third difference of `x`, a high-pass whose gain
/// `(2·sin(ω/2))³` is 1 at 8 kHz (at 48 kHz), 1/7 at 4 kHz, 1/450 at 1 kHz:
/// what a click adds to a piano's sound.
fn high_band_energy(x: &[f32]) -> f64 {
    x.windows(4)
        .map(|w| {
            let [a, b, c, d] = [w[0], w[1], w[2], w[3]].map(f64::from);
            (d - 3.0 * c + 3.0 * b - a).powi(2)
        })
        .sum()
}

/// Samples from `from_s` to `to_s` seconds after the edit.
fn after_edit(x: &[f32], from_s: f64, to_s: f64) -> &[f32] {
    let at = |s: f64| (EDIT_AT as f64 + s * FS).round() as usize;
    &x[at(from_s)..at(to_s)]
}

/// The 10 ms around the edit.
fn around_edit(x: &[f32]) -> &[f32] {
    after_edit(x, -0.005, 0.005)
}

/// A measure of a stereo render: the larger of the two channels'.
fn measure(x: &Stereo, f: impl Fn(&[f32]) -> f64) -> f64 {
    f(&x.0).max(f(&x.1))
}

/// What an install did to the sound, against the render without it.
#[derive(Debug)]
struct Effect {
    /// RMS over the 50 ms after the edit over the unedited RMS there.
    level: f64,
    /// Largest sample step in the 10 ms around the edit over the unedited one.
    step: f64,
    /// Energy above ~8 kHz in the 10 ms around the edit over the unedited.
    high_band: f64,
}

impl Effect {
    fn of(edited: &Stereo, reference: &Stereo) -> Self {
        let ratio = |f: &dyn Fn(&[f32]) -> f64| measure(edited, f) / measure(reference, f);
        Self {
            level: ratio(&|x| rms(after_edit(x, 0.0, 0.05))),
            step: ratio(&|x| largest_step(around_edit(x))),
            high_band: ratio(&|x| high_band_energy(around_edit(x))),
        }
    }

    /// The chord goes on at its level (an edit of the losses or the tuning
    /// changes it by a few percent in 50 ms) with no larger step and no more
    /// energy above 8 kHz than the unedited chord has around the swap, within
    /// 1.5 times: a little more than these measures of the unedited chord
    /// vary from one 10 ms to the next (up to 1.3 times); a cut makes them 5
    /// and 90 times as large.
    fn carries_on_without_a_click(&self) -> bool {
        (0.85..1.15).contains(&self.level) && self.step <= 1.5 && self.high_band <= 1.5
    }
}

/// The edits a musician makes while holding a chord, by name.
const EDITS: [(&str, &[(&str, f64)]); 6] = [
    ("A4 440 -> 446 Hz", &[("tuning:a4_hz", 446.0)]),
    (
        "string loss b1 +1.1/s on every string",
        &[
            ("strings/anchor/21:loss_b1", 1.25),
            ("strings/anchor/36:loss_b1", 1.27),
            ("strings/anchor/48:loss_b1", 1.2),
            ("strings/anchor/60:loss_b1", 1.4),
            ("strings/anchor/72:loss_b1", 1.4),
            ("strings/anchor/84:loss_b1", 2.6),
            ("strings/anchor/96:loss_b1", 1.8),
            ("strings/anchor/108:loss_b1", 2.6),
        ],
    ),
    ("detune 0.5 -> 3 cents", &[("strings:detune_cents", 3.0)]),
    ("body gain 0.6 -> 1.2", &[("soundboard:body_gain", 1.2)]),
    (
        "felt stiffness x4",
        &[("hammers/anchor/60:felt_stiffness", 1.8e11)],
    ),
    (
        "equal temperament -> Werckmeister III laid from E flat",
        &[("tuning:temperament", 1.0), ("tuning:temperament_key", 3.0)],
    ),
];

/// Every edit, live, at 0.5 s while a pedalled ff chord sounds: the chord
/// carries on at its level with no click; the same edit through `load` cuts
/// the chord (silence after it) and fails the same measure.
#[test]
fn live_edits_keep_the_chord_sounding_without_a_click() {
    let frames = EDIT_AT + 4_800;
    let score = held_pedalled_chord();
    let reference = play(&score, None, frames);
    for (name, edits) in EDITS {
        let preset = edited(edits);
        let live = Effect::of(
            &play(&score, Some((Install::Live, &preset)), frames),
            &reference,
        );
        let switch = Effect::of(
            &play(&score, Some((Install::Switch, &preset)), frames),
            &reference,
        );
        eprintln!("{name}: live {live:?}; switch {switch:?}");
        assert!(live.carries_on_without_a_click(), "{name}: {live:?}");
        assert!(
            switch.level < 1e-3 && !switch.carries_on_without_a_click(),
            "{name} through load: {switch:?}"
        );
    }
}

/// Large edits (A4 to 500 Hz, more than two semitones; the body's gain four
/// times; the strings' loss ten times, which takes a fifth of the level in
/// 50 ms) carry the chord on too, without a click: no step larger than the
/// chord's own, and at most twice its energy above 8 kHz, or, if the edit
/// itself brightens the chord more (the higher tuning makes it 3-6 times as
/// bright above 8 kHz once it has settled, 20-30 ms after the swap), no more
/// than the edited chord has then. The 10 ms around the swap hold half the old
/// chord and half the new, so a swap without a click lies between the two.
#[test]
fn large_live_edits_do_not_click() {
    let frames = EDIT_AT + 4_800;
    let score = held_pedalled_chord();
    let reference = play(&score, None, frames);
    let large: [&[(&str, f64)]; 3] = [
        &[("tuning:a4_hz", 500.0)],
        &[("soundboard:body_gain", 2.4)],
        &[
            ("strings/anchor/60:loss_b1", 11.0),
            ("strings/anchor/96:loss_b1", 35.0),
        ],
    ];
    for edits in large {
        let live = play(&score, Some((Install::Live, &edited(edits))), frames);
        let effect = Effect::of(&live, &reference);
        let settled = |x: &[f32]| high_band_energy(after_edit(x, 0.02, 0.03));
        let brightened = measure(&live, settled) / measure(&reference, settled);
        eprintln!("{edits:?}: {effect:?}, settled high band {brightened}");
        assert!(
            effect.level > 0.7 && effect.step <= 1.5 && effect.high_band <= brightened.max(2.0),
            "{edits:?}: {effect:?}, settled high band {brightened}"
        );
    }
}

/// The frequency of the strongest peak of `x` within `band` (Hz), measured
/// from `from_s` to `to_s` seconds after the edit (left channel).
fn pitch_after_edit(x: &Stereo, from_s: f64, to_s: f64, band: (f64, f64)) -> f64 {
    peak_frequency(after_edit(&x.0, from_s, to_s), FS, band.0, band.1).unwrap()
}

/// Cents from `from` to `to`.
fn cents(from: f64, to: f64) -> f64 {
    1200.0 * (to / from).log2()
}

/// A4 440 -> 446 Hz while the chord sounds: within the next 100 ms the
/// chord's C4 and G4 have moved up by 1200·log2(446/440) = 23.45 cents.
#[test]
fn a_live_retune_moves_the_sounding_chord_at_once() {
    let frames = EDIT_AT + 4_800;
    let score = held_pedalled_chord();
    let reference = play(&score, None, frames);
    let live = play(&score, Some((Install::Live, &edited(EDITS[0].1))), frames);
    let expected = cents(440.0, 446.0);
    for (note, band) in [("C4", (250.0, 280.0)), ("G4", (380.0, 410.0))] {
        let before = pitch_after_edit(&reference, 0.01, 0.1, band);
        let after = pitch_after_edit(&live, 0.01, 0.1, band);
        let moved = cents(before, after);
        eprintln!("{note}: {before:.2} -> {after:.2} Hz, {moved:.2} cents");
        assert!((moved - expected).abs() < 3.0, "{note} moved {moved} cents");
    }
}

/// String loss b1 raised by 1.1 1/s on every string while the pedalled chord
/// sounds (the chord's own strings and all those it drives through the
/// bridge): over the next half second the sound decays faster than unedited,
/// by at least three quarters of what the extra 1.1 1/s makes
/// (20·log10(e)·1.1 = 9.6 dB/s): the board's own ring, which the edit does
/// not touch, and the energy the strings trade with it and with their
/// motion along the board through the bridge make up the rest.
#[test]
fn a_live_loss_edit_speeds_up_the_decay() {
    let frames = EDIT_AT + 28_800;
    let score = held_pedalled_chord();
    let decay_db = |x: &Stereo| {
        let level = |from| measure(x, |c| rms(after_edit(c, from, from + 0.05)));
        20.0 * (level(0.05) / level(0.5)).log10() / 0.45
    };
    let unedited = decay_db(&play(&score, None, frames));
    let live = decay_db(&play(
        &score,
        Some((Install::Live, &edited(EDITS[1].1))),
        frames,
    ));
    eprintln!("decay after the edit: {live:.1} dB/s, unedited {unedited:.1} dB/s");
    let extra_at_c4 = 20.0 * std::f64::consts::E.log10() * 1.1;
    assert!(
        live - unedited > 0.75 * extra_at_c4,
        "{live} dB/s against {unedited} dB/s"
    );
}

/// A note struck after a live edit plays with the new values: A4 struck after
/// A4 440 -> 446 Hz sounds at 446 Hz; D4 struck after the C4 felt was made
/// four times as stiff (D4's 3.7 times, interpolated) strikes exactly as in
/// an instrument built stiffer, its contact shorter than unedited.
#[test]
fn a_note_struck_after_a_live_edit_plays_with_the_new_values() {
    let frames = EDIT_AT + 9_600;
    let strike_at = EDIT_AT + 2_400;
    let mut score = held_pedalled_chord();
    score.extend([69, 62].map(|key| (strike_at, SynthEvent::NoteOn { key, velocity: 0.7 })));
    let grand = grand_at_bridge();
    let retuned = edited(EDITS[0].1);
    let (_, live) = render(
        &grand,
        &score,
        &[(EDIT_AT, Install::Live, &retuned)],
        frames,
        64,
    );
    let a4 = pitch_after_edit(&live, 0.06, 0.2, (430.0, 460.0));
    eprintln!("A4 struck after the edit: {a4:.2} Hz");
    assert!(cents(446.0, a4).abs() < 3.0, "A4 at {a4} Hz");

    let harder = edited(EDITS[4].1);
    let d4 = |start: &Preset, installs: &[(usize, Install, &Preset)]| {
        *render(start, &score, installs, frames, 64)
            .0
            .strike_report(62)
            .unwrap()
    };
    let unedited = d4(&grand, &[]);
    let live = d4(&grand, &[(EDIT_AT, Install::Live, &harder)]);
    let built_harder = d4(&harder, &[]);
    let ms = |r: &StrikeReport| r.contact_duration_s.unwrap() * 1e3;
    eprintln!(
        "D4 contact: unedited {:.3} ms, after the edit {:.3} ms",
        ms(&unedited),
        ms(&live)
    );
    // D4's strings are not at rest when it is struck: the pedalled chord
    // drives them through the bridge, and the chord was struck with the old
    // felt in one render and the harder one in the other, so their faint
    // sympathetic motion differs. The strike is the same to a part in a
    // thousand.
    assert_eq!(live.contact_duration_s, built_harder.contact_duration_s);
    assert_eq!(live.force_pulses, built_harder.force_pulses);
    assert!((live.peak_force_n / built_harder.peak_force_n - 1.0).abs() < 1e-3);
    assert!(ms(&live) < 0.95 * ms(&unedited));
    assert!(live.peak_force_n > unedited.peak_force_n);
}

/// What the worker and the voices were doing carries over together. A hammer
/// the voices had in flight at the install still strikes (through `load` it
/// is lost); with the whole key
/// stroke simulated, a key pressed 5 ms before the install has its hammer
/// still pushed by the jack, and the new action lets it off and strikes
/// (through `load` the hammers start at rest and the note never sounds). A
/// key held without the pedal stays undamped through the edit, and its damper
/// falls when it is released after it.
#[test]
fn keys_hammers_and_dampers_carry_over() {
    let frames = EDIT_AT + 12_000;
    let sounds_after = |start: &Preset, key_down_at: usize, velocity: f32, how: Install| {
        let score = [(key_down_at, SynthEvent::NoteOn { key: 60, velocity })];
        let next = start.clone();
        let (synth, out) = render(start, &score, &[(EDIT_AT, how, &next)], frames, 64);
        let report = *synth.strike_report(60).unwrap();
        (measure(&out, |x| rms(after_edit(x, 0.05, 0.1))), report)
    };
    // The softest blow flies its last millimetre in 2.5 ms.
    let grand = grand_at_bridge();
    let (level, report) = sounds_after(&grand, EDIT_AT - 48, 1.0 / 127.0, Install::Live);
    let touched_s = report.first_touch_s.expect("the hammer in flight struck");
    assert!(
        touched_s * FS > 48.0,
        "it touched {touched_s} s after release, before the install"
    );
    assert!(level > 1e-4, "level {level}");
    let (_, lost) = sounds_after(&grand, EDIT_AT - 48, 1.0 / 127.0, Install::Switch);
    assert_eq!(
        lost.first_touch_s, None,
        "through load the hammer in flight is lost"
    );

    let mut realistic = grand_at_bridge();
    realistic.set("action:realistic_travel", 1.0).unwrap();
    let key_down_at = EDIT_AT - 240;
    let (live, _) = sounds_after(&realistic, key_down_at, 0.5, Install::Live);
    let (switched, _) = sounds_after(&realistic, key_down_at, 0.5, Install::Switch);
    eprintln!("key pressed 5 ms before the install: live {live:.2e}, switch {switched:.2e}");
    assert!(
        live > 1e-3 && switched == 0.0,
        "live {live}, switch {switched}"
    );

    // Held without the pedal across the edit, released 0.1 s after it: it
    // rings on as unedited, then its damper (60 dB in 0.25 s) takes it down
    // as fast as unedited, over 20 dB in 0.1 s.
    let release_at = EDIT_AT + 4_800;
    let score = [
        (
            0,
            SynthEvent::NoteOn {
                key: 60,
                velocity: FF,
            },
        ),
        (
            release_at,
            SynthEvent::NoteOff {
                key: 60,
                velocity: 0.5,
            },
        ),
    ];
    let retuned = edited(EDITS[0].1);
    let (_, unedited) = render(&grand, &score, &[], frames, 64);
    let (_, live) = render(
        &grand,
        &score,
        &[(EDIT_AT, Install::Live, &retuned)],
        frames,
        64,
    );
    let level = |x: &Stereo, from| measure(x, |c| rms(after_edit(c, from, from + 0.02)));
    let held = level(&live, 0.07) / level(&unedited, 0.07);
    let released_db = |x| 20.0 * (level(x, 0.2) / level(x, 0.07)).log10();
    let (live_db, unedited_db) = (released_db(&live), released_db(&unedited));
    eprintln!("held through the edit {held:.3} of unedited; released {live_db:.1} dB");
    assert!(
        (0.9..1.1).contains(&held),
        "held, it sounds {held} of unedited"
    );
    assert!(
        live_db < -20.0 && (live_db - unedited_db).abs() < 2.0,
        "released, it fell {live_db} dB, {unedited_db} dB unedited"
    );
}

/// An instrument of another shape (the mallet and bar) through `load_live` is
/// a switch: the chord stops, and the bars play.
#[test]
fn another_shape_falls_back_to_a_switch() {
    let frames = EDIT_AT + 9_600;
    let mut score = held_pedalled_chord();
    score.push((
        EDIT_AT + 4_800,
        SynthEvent::NoteOn {
            key: 72,
            velocity: 0.8,
        },
    ));
    let bars = Preset::load("mallet-bar").unwrap();
    let grand = grand_at_bridge();
    let (synth, out) = render(
        &grand,
        &score,
        &[(EDIT_AT, Install::Live, &bars)],
        frames,
        64,
    );
    assert_eq!(synth.preset().name, bars.name);
    let before = measure(&out, |x| rms(after_edit(x, -0.05, 0.0)));
    let after = measure(&out, |x| rms(after_edit(x, 0.0, 0.1)));
    let bar = measure(&out, |x| rms(after_edit(x, 0.1, 0.2)));
    eprintln!("chord {before:.2e}, after the switch {after:.2e}, a bar {bar:.2e}");
    assert!(before > 1e-2 && after == 0.0 && bar > 1e-3);
}

/// Live installs while notes sound, hammers fly and strikes wait for a hammer
/// (a 24-note cluster struck 1 ms before, more than the 16 shared hammers),
/// one of them waiting for the crossfade from the instrument before to end,
/// allocate nothing on the audio thread, in lock-step mode (the worker's
/// install inline) and in realtime mode; every note of the cluster sounds.
#[test]
fn live_installs_allocate_nothing_on_the_audio_thread() {
    let block = 64;
    let frames = EDIT_AT + 24_000;
    let cluster: Vec<u8> = (48..72).collect();
    let strike_at = EDIT_AT - 48;
    let mut score = held_pedalled_chord();
    score.extend(
        cluster
            .iter()
            .map(|&key| (strike_at, SynthEvent::NoteOn { key, velocity: 0.9 })),
    );
    // Every edit 0.1 s apart, and one more a block after the first, while
    // the output still crossfades from the instrument the first replaced.
    let mut edits: Vec<(usize, Preset)> = [0, 1, 2, 3, 4]
        .map(|i| (EDIT_AT + i * 4_800, edited(EDITS[i].1)))
        .into();
    edits.insert(1, (EDIT_AT + block, edited(EDITS[2].1)));
    for realtime in [false, true] {
        let mut synth = if realtime {
            let options = RealtimeOptions {
                latency: 2 * block as u64,
                stall: None,
            };
            Synth::realtime(&grand_at_bridge(), FS, options).unwrap()
        } else {
            Synth::new(&grand_at_bridge(), FS).unwrap()
        };
        let mut loader = synth.take_loader().unwrap();
        let (mut left, mut right) = (vec![0.0f32; block], vec![0.0f32; block]);
        let score = Score::new(score.iter().map(|&(at, event)| (at as u64, event)), 0);
        let mut player = score.player();
        for begin in (0..frames).step_by(block) {
            for (_, preset) in edits.iter().filter(|(at, _)| *at == begin) {
                // Off the audio thread: build the edited instrument.
                load_live_when_ready(&mut loader, preset);
            }
            assert_no_alloc(|| player.play(&mut synth, &mut left, &mut right));
            if realtime {
                std::thread::sleep(Duration::from_secs_f64(block as f64 / FS));
            }
        }
        loader.collect();
        for &key in &cluster {
            let report = synth.strike_report(key).unwrap();
            assert!(
                report.contacts > 0,
                "realtime {realtime}: key {key} never sounded"
            );
        }
        assert_eq!(synth.counters().dropped_commands, 0);
    }
}

/// Queues `preset` live, waiting (at most a second) for the last instrument
/// loaded to be installed.
fn load_live_when_ready(loader: &mut InstrumentLoader, preset: &Preset) {
    for _ in 0..1000 {
        match loader.load_live(preset) {
            Err(SynthError::SwitchPending) => std::thread::sleep(Duration::from_millis(1)),
            result => return result.unwrap(),
        }
    }
    panic!("the last instrument loaded was never installed");
}

/// Lock-step renders with live edits (at 0.5 s and 0.667 s, with notes struck
/// around them) are bit-identical from run to run and across block sizes 64
/// and 1000.
#[test]
fn live_edits_are_deterministic_across_runs_and_block_sizes() {
    let frames = 48_000;
    let mut score = held_pedalled_chord();
    score.extend([
        (
            EDIT_AT - 100,
            SynthEvent::NoteOn {
                key: 76,
                velocity: 0.8,
            },
        ),
        (
            EDIT_AT + 1_000,
            SynthEvent::NoteOn {
                key: 69,
                velocity: 0.6,
            },
        ),
        (
            EDIT_AT + 5_000,
            SynthEvent::NoteOff {
                key: 76,
                velocity: 0.5,
            },
        ),
    ]);
    score.sort_by_key(|&(at, _)| at);
    let (retuned, softer) = (edited(EDITS[0].1), edited(EDITS[1].1));
    let installs = [
        (EDIT_AT, Install::Live, &retuned),
        (32_000, Install::Live, &softer),
    ];
    let grand = grand_at_bridge();
    let run = |block| render(&grand, &score, &installs, frames, block).1;
    let reference = run(64);
    assert!(measure(&reference, |x| rms(&x[EDIT_AT..])) > 1e-3);
    assert!(run(64) == reference, "a second run differs");
    assert!(run(1000) == reference, "1000-frame blocks differ");
}

/// The audio side on its own: voices that take over the state of voices built
/// from the same preset, at any sample while notes ring and a hammer flies,
/// render exactly what the old voices would have rendered.
#[test]
fn voices_continuing_the_same_instrument_render_the_same_samples() {
    let grand = grand_at_bridge();
    let mut old = PianoVoices::new(&grand, FS).unwrap();
    let (mut left, mut right) = ([0.0f32; 200], [0.0f32; 200]);
    let strike = |key, speed_m_s| Operation::Strike {
        key,
        speed_m_s,
        shifted: false,
    };
    for key in CHORD {
        old.apply(strike(key, 4.0));
    }
    for _ in 0..100 {
        old.render(&mut left, &mut right, |_, _, _| {});
    }
    old.apply(strike(50, 0.5));
    old.render(&mut left[..7], &mut right[..7], |_, _, _| {});
    let mut new = PianoVoices::new(&grand, FS).unwrap();
    assert!(new.continue_from(&old));
    let (mut new_left, mut new_right) = ([0.0f32; 200], [0.0f32; 200]);
    for _ in 0..50 {
        old.render(&mut left, &mut right, |_, _, _| {});
        new.render(&mut new_left, &mut new_right, |_, _, _| {});
        assert!(left == new_left && right == new_right);
    }
    assert_eq!(new.strike_report(50), old.strike_report(50));
    assert!(new.strike_report(50).unwrap().contacts > 0);
    // Another shape is refused and leaves the voices as they are.
    let mut bars = BarVoices::new(&Preset::load("mallet-bar").unwrap(), FS).unwrap();
    assert!(!bars.continue_from(&old) && !bars.is_active());
}
