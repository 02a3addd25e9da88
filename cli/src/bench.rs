//! `orchard bench`: how fast an instrument plays (the grand piano, or
//! `--preset`), as realtime factors (audio seconds rendered per CPU second on
//! one thread) for a single note, a ten-note chord and a sustained glissando
//! over all its keys; for a dense
//! session played as a live host plays it, the audio thread's worst block times
//! and the delay from note-on to sound; and the peak resident memory.

use std::time::{Duration, Instant};

use orchard_engine::instrument::Preset;
use orchard_engine::random::SplitMix64;
use orchard_engine::rt::{Score, Synth, SynthEvent};

use crate::args::bench::{BenchArgs, Scenario};

/// Frames per `process` call, as a host would use.
const BLOCK: usize = 64;
/// Time between the glissando's keys, s.
const GLISSANDO_STEP_S: f64 = 0.05;
/// Keys of the ten-note chord: C major over three octaves.
const CHORD: [u8; 10] = [36, 43, 48, 52, 55, 60, 64, 67, 72, 76];

// What each scenario plays, and its name in the report.
impl Scenario {
    fn label(self) -> &'static str {
        match self {
            Self::OneNote => "one note",
            Self::Chord => "ten-note chord",
            Self::Glissando => "glissando over every key",
            Self::Session => "dense session",
        }
    }

    /// (time s, key) of every strike on `preset`'s keyboard.
    fn strikes(self, preset: &Preset) -> Vec<(f64, u8)> {
        match self {
            Self::OneNote => vec![(0.0, 60)],
            Self::Chord => CHORD.iter().map(|&k| (0.0, k)).collect(),
            Self::Glissando => (preset.keyboard.lowest_key..=preset.keyboard.highest_key)
                .enumerate()
                .map(|(i, k)| (i as f64 * GLISSANDO_STEP_S, k))
                .collect(),
            Self::Session => Vec::new(),
        }
    }
}

/// What `scenario` plays on `preset` at `sample_rate` (Hz), its strikes at
/// their nearest samples, ending `tail_s` seconds after the last strike.
fn scenario_score(scenario: Scenario, preset: &Preset, sample_rate: f64, tail_s: f64) -> Score {
    let strikes = scenario.strikes(preset);
    let sample_of = |seconds: f64| (seconds * sample_rate).round() as u64;
    let glissando = scenario == Scenario::Glissando;
    let mut events = Vec::with_capacity(2 * strikes.len() + 1);
    if glissando {
        // The sustain pedal holds every string free as the hand slides on.
        events.push((0, SynthEvent::Sustain(1.0)));
    }
    for (i, &(at_s, key)) in strikes.iter().enumerate() {
        let at = sample_of(at_s);
        if glissando && i > 0 {
            let key = strikes[i - 1].1;
            events.push((at, SynthEvent::NoteOff { key, velocity: 0.5 }));
        }
        events.push((at, SynthEvent::NoteOn { key, velocity: 0.7 }));
    }
    let end_s = strikes.last().map_or(0.0, |s| s.0) + tail_s;
    Score::new(events, (end_s * sample_rate).ceil() as u64)
}

/// Renders `scenario` on `preset` for `tail_s` seconds after its last strike
/// at `sample_rate`; returns (audio seconds, CPU seconds).
fn measure(
    scenario: Scenario,
    preset: &Preset,
    sample_rate: f64,
    tail_s: f64,
) -> Result<(f64, f64), String> {
    let mut synth = Synth::new(preset, sample_rate).map_err(|e| e.to_string())?;
    let score = scenario_score(scenario, preset, sample_rate, tail_s);
    let frames = score.end_sample();
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let mut player = score.player();
    let mut sink = 0.0f32;
    let start = Instant::now();
    while player.sample() < frames {
        let n = BLOCK.min((frames - player.sample()) as usize);
        player.play(&mut synth, &mut left[..n], &mut right[..n]);
        sink += left[0] + right[n - 1];
    }
    let cpu_s = start.elapsed().as_secs_f64();
    if !sink.is_finite() {
        return Err(format!("{}: the output is not finite", scenario.label()));
    }
    Ok((frames as f64 / sample_rate, cpu_s))
}

/// Length of the dense session, s.
const SESSION_S: f64 = 60.0;
/// Notes per second in the dense session.
const SESSION_NOTES_PER_S: f64 = 12.0;

/// The dense session: random keys and velocities over [`SESSION_S`], each
/// held 0.1–2 s, the sustain pedal down and up every 3 s.
fn session_score(sample_rate: f64) -> Score {
    let mut rng = SplitMix64::new(1);
    let frames = (SESSION_S * sample_rate) as u64;
    let notes = (SESSION_S * SESSION_NOTES_PER_S) as usize;
    let mut score = Vec::with_capacity(2 * notes + 40);
    for _ in 0..notes {
        let at = rng.below(frames);
        let key = 21 + rng.below(88) as u8;
        let velocity = (1 + rng.below(127)) as f32 / 127.0;
        let hold = ((0.1 + 1.9 * rng.unit()) * sample_rate) as u64;
        score.push((at, SynthEvent::NoteOn { key, velocity }));
        score.push((at + hold, SynthEvent::NoteOff { key, velocity: 0.5 }));
    }
    for (i, at) in (0..frames)
        .step_by((3.0 * sample_rate) as usize)
        .enumerate()
    {
        score.push((at, SynthEvent::Sustain(if i % 2 == 0 { 1.0 } else { 0.0 })));
    }
    Score::new(score, frames)
}

/// The dense session on `preset` as the plugin plays it (lock-step: the
/// mechanics inline, no added latency): the block times against the block
/// period; then note-on to first sound from silence.
fn session(preset: &Preset, sample_rate: f64) -> Result<Vec<String>, String> {
    let mut synth = Synth::new(preset, sample_rate).map_err(|e| e.to_string())?;
    let score = session_score(sample_rate);
    // The notes still held at the end are not played out.
    let frames = (SESSION_S * sample_rate) as u64;
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let mut times = Vec::with_capacity(frames as usize / BLOCK + 1);
    let mut player = score.player();
    while player.sample() < frames {
        let began = Instant::now();
        player.play(&mut synth, &mut left, &mut right);
        times.push(began.elapsed());
    }
    times.sort_unstable();
    let period = Duration::from_secs_f64(BLOCK as f64 / sample_rate);
    let percent = |d: Duration| 100.0 * d.as_secs_f64() / period.as_secs_f64();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    let mut lines = vec![format!(
        "dense session ({SESSION_S:.0} s, {SESSION_NOTES_PER_S:.0} notes/s, {BLOCK}-frame blocks): \
         process takes {:.1} % of the block period at the 99.9th percentile \
         (median {:.1} %, mean {:.1} %, worst {:.1} %)",
        percent(at(0.999)),
        percent(at(0.5)),
        percent(mean),
        percent(at(1.0)),
    )];
    let mut delays = Vec::new();
    for velocity in [1u8, 64, 127] {
        let mut synth = Synth::new(preset, sample_rate).map_err(|e| e.to_string())?;
        synth.note_on(60, f32::from(velocity) / 127.0);
        let mut first = None;
        for block in 0..(0.25 * sample_rate) as usize / BLOCK {
            synth.process(&mut left, &mut right);
            if let Some(i) = left.iter().position(|s| *s != 0.0) {
                first = Some(block * BLOCK + i);
                break;
            }
        }
        let first = first.ok_or("middle C did not sound within 250 ms")?;
        delays.push(format!(
            "{:.1} ms at velocity {velocity}",
            first as f64 / sample_rate * 1e3
        ));
    }
    lines.push(format!(
        "note-on to first sound (middle C): {}",
        delays.join(", ")
    ));
    Ok(lines)
}

/// Runs `orchard bench`: one line per scenario and one for memory.
pub fn run_bench(args: &BenchArgs) -> Result<String, String> {
    let scenarios: Vec<Scenario> = match args.scenario {
        Some(one) => vec![one],
        None => vec![
            Scenario::OneNote,
            Scenario::Chord,
            Scenario::Glissando,
            Scenario::Session,
        ],
    };
    let preset = args.instrument.load()?;
    let mut lines = Vec::new();
    for scenario in scenarios {
        if scenario == Scenario::Session {
            lines.extend(session(&preset, f64::from(args.sample_rate))?);
            continue;
        }
        let (audio_s, cpu_s) = measure(scenario, &preset, f64::from(args.sample_rate), args.tail)?;
        lines.push(format!(
            "{}: {:.1}× real time ({audio_s:.1} s of audio in {cpu_s:.2} s, {} Hz, {BLOCK}-frame blocks)",
            scenario.label(),
            audio_s / cpu_s.max(1e-9),
            args.sample_rate
        ));
    }
    if let Some(mb) = crate::memory::peak_resident_mb() {
        lines.push(format!("peak resident memory: {mb:.0} MB"));
    }
    Ok(lines.join("\n"))
}
