//! `orchard bench`: how fast the default instrument plays, as realtime factors
//! (audio seconds rendered per CPU second on one thread) for a single note, a
//! ten-note chord and a sustained glissando over all 88 keys, and the peak
//! resident memory of the process.

use std::time::Instant;

use clap::ValueEnum;
use orchard_engine::instrument::Preset;
use orchard_engine::rt::{Synth, SynthEvent};

use super::BenchArgs;

/// Frames per `process` call, as a host would use.
const BLOCK: usize = 64;
/// Time between the glissando's keys, s.
const GLISSANDO_STEP_S: f64 = 0.05;
/// Keys of the ten-note chord: C major over three octaves.
const CHORD: [u8; 10] = [36, 43, 48, 52, 55, 60, 64, 67, 72, 76];

/// A timed performance to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Scenario {
    /// Middle C, held.
    OneNote,
    /// Ten keys struck together and held.
    Chord,
    /// All 88 keys, 50 ms apart, held (as with the sustain pedal down).
    Glissando,
}

impl Scenario {
    fn label(self) -> &'static str {
        match self {
            Self::OneNote => "one note",
            Self::Chord => "ten-note chord",
            Self::Glissando => "88-key glissando",
        }
    }

    /// (time s, key) of every strike.
    fn strikes(self) -> Vec<(f64, u8)> {
        match self {
            Self::OneNote => vec![(0.0, 60)],
            Self::Chord => CHORD.iter().map(|&k| (0.0, k)).collect(),
            Self::Glissando => (21u8..=108)
                .enumerate()
                .map(|(i, k)| (i as f64 * GLISSANDO_STEP_S, k))
                .collect(),
        }
    }
}

/// Renders `scenario` for `tail_s` seconds after its last strike at
/// `sample_rate`; returns (audio seconds, CPU seconds).
fn measure(scenario: Scenario, sample_rate: f64, tail_s: f64) -> Result<(f64, f64), String> {
    let preset = Preset::default_grand();
    let mut synth = Synth::new(&preset, sample_rate).map_err(|e| e.to_string())?;
    let strikes = scenario.strikes();
    let end_s = strikes.last().map_or(0.0, |s| s.0) + tail_s;
    let frames = (end_s * sample_rate).ceil() as usize;
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let mut next = 0;
    let mut sink = 0.0f32;
    let glissando = scenario == Scenario::Glissando;
    if glissando {
        // The sustain pedal holds every string free as the hand slides on.
        synth.apply(SynthEvent::Sustain(1.0));
    }
    let start = Instant::now();
    let mut frame = 0;
    while frame < frames {
        let now_s = frame as f64 / sample_rate;
        while next < strikes.len() && strikes[next].0 <= now_s {
            if glissando && next > 0 {
                synth.apply(SynthEvent::NoteOff {
                    key: strikes[next - 1].1,
                });
            }
            synth.apply(SynthEvent::NoteOn {
                key: strikes[next].1,
                velocity: 0.7,
            });
            next += 1;
        }
        let n = BLOCK.min(frames - frame);
        synth.process(&mut left[..n], &mut right[..n]);
        sink += left[0] + right[n - 1];
        frame += n;
    }
    let cpu_s = start.elapsed().as_secs_f64();
    if !sink.is_finite() {
        return Err(format!("{}: the output is not finite", scenario.label()));
    }
    Ok((frames as f64 / sample_rate, cpu_s))
}

/// Peak resident memory of this process, MB (Linux; `None` elsewhere).
fn peak_resident_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Runs `orchard bench`: one line per scenario and one for memory.
pub fn run_bench(args: &BenchArgs) -> Result<String, String> {
    if !(args.tail.is_finite() && args.tail > 0.0 && args.tail <= 600.0) {
        return Err(format!(
            "--tail {} must be between 0 and 600 seconds",
            args.tail
        ));
    }
    let scenarios: Vec<Scenario> = match args.scenario {
        Some(one) => vec![one],
        None => vec![Scenario::OneNote, Scenario::Chord, Scenario::Glissando],
    };
    let mut lines = Vec::new();
    for scenario in scenarios {
        let (audio_s, cpu_s) = measure(scenario, f64::from(args.sample_rate), args.tail)?;
        lines.push(format!(
            "{}: {:.1}× real time ({audio_s:.1} s of audio in {cpu_s:.2} s, {} Hz, {BLOCK}-frame blocks)",
            scenario.label(),
            audio_s / cpu_s.max(1e-9),
            args.sample_rate
        ));
    }
    if let Some(mb) = peak_resident_mb() {
        lines.push(format!("peak resident memory: {mb:.0} MB"));
    }
    Ok(lines.join("\n"))
}
