//! Golden renders: short reference renders of every built-in instrument, kept as
//! digests in `engine/tests/golden/renders.toml`, so that a change of sound fails
//! a test instead of passing unnoticed.
//!
//! A digest holds two things:
//!
//! - `hash`: FNV-1a (64 bit) of the render as 16-bit PCM, the samples a 16-bit
//!   WAV of it would hold, left and right interleaved. Any change of sound a
//!   16-bit file can show changes it.
//! - `levels_db`: a coarse fingerprint of the sound, the level (dB re full scale,
//!   floored at [`FLOOR_DB`]) in ten octave bands from 31.5 Hz to 16 kHz over
//!   each span of [`SPANS_S`] (attack, body, tail). When the hash moves, it says
//!   where the sound moved, and by how much.
//!
//! The hash binds on the arithmetic the goldens were made with
//! ([`orchard_engine::arithmetic`]): another processor rounds differently, and
//! there the fingerprint must hold within [`TOLERANCE_DB`].
//!
//! To accept an intended change of sound, run
//!
//! ```sh
//! ORCHARD_BLESS_GOLDEN=1 cargo test -p orchard-engine --test golden_renders
//! ```
//!
//! and say in the commit why the sound changed.

use std::collections::BTreeMap;
use std::path::PathBuf;

use orchard_engine::instrument::Preset;
use orchard_engine::rt::{DEFAULT_RELEASE_VELOCITY, Score, Synth, SynthEvent};
use rustfft::FftPlanner;
use rustfft::num_complex::Complex;
use serde::Deserialize;

const SAMPLE_RATE: f64 = 48_000.0;
/// Length of every reference render, s.
const LENGTH_S: f64 = 1.2;
/// Spans of time the fingerprint measures separately, s from the start.
const SPANS_S: [(f64, f64); 3] = [(0.0, 0.1), (0.1, 0.5), (0.5, LENGTH_S)];
/// Centres of the octave bands, Hz (each spans centre/√2 to centre·√2).
const BAND_CENTRES_HZ: [f64; 10] = [
    31.5, 63.0, 125.0, 250.0, 500.0, 1000.0, 2000.0, 4000.0, 8000.0, 16000.0,
];
/// Levels below this are written as it: too quiet to compare, dB re full scale.
const FLOOR_DB: f64 = -100.0;
/// How far a band's level may move on another arithmetic, dB: rounding moves it
/// by less than 1e-9 dB, any change of the model by far more.
const TOLERANCE_DB: f64 = 0.01;
/// Environment variable that rewrites the goldens from this build's renders.
const BLESS: &str = "ORCHARD_BLESS_GOLDEN";

/// One thing that happens in a reference render, in a scene's short notation.
#[derive(Clone, Copy)]
enum Event {
    /// Key, MIDI velocity.
    On(u8, u8),
    Off(u8),
    /// Sustain pedal depth, 0 to 1.
    Sustain(f32),
}

impl From<Event> for SynthEvent {
    fn from(event: Event) -> Self {
        match event {
            Event::On(key, velocity) => SynthEvent::NoteOn {
                key,
                velocity: f32::from(velocity) / 127.0,
            },
            Event::Off(key) => SynthEvent::NoteOff {
                key,
                velocity: DEFAULT_RELEASE_VELOCITY,
            },
            Event::Sustain(depth) => SynthEvent::Sustain(depth),
        }
    }
}

/// A reference render: a built-in preset, the properties set on it, and
/// what is played on it, at seconds from the start.
struct Scene {
    name: &'static str,
    preset: &'static str,
    settings: &'static [(&'static str, f64)],
    events: &'static [(f64, Event)],
}

/// The grand's chord, struck and damped.
const CHORD_DAMPED: &[(f64, Event)] = &[
    (0.0, Event::On(60, 100)),
    (0.05, Event::On(64, 70)),
    (0.1, Event::On(67, 40)),
    (0.15, Event::On(36, 110)),
    (0.6, Event::Off(60)),
    (0.6, Event::Off(64)),
    (0.6, Event::Off(67)),
    (0.6, Event::Off(36)),
];

const SCENES: &[Scene] = &[
    Scene {
        name: "grand-piano/chord-damped",
        preset: "grand-piano",
        settings: &[],
        events: CHORD_DAMPED,
    },
    // The grand heard from the bridge (microphone 0), as every render was
    // before its default output became the close pair.
    Scene {
        name: "grand-piano/chord-damped-bridge",
        preset: "grand-piano",
        settings: &[("output:microphone", 0.0)],
        events: CHORD_DAMPED,
    },
    Scene {
        name: "grand-piano/extremes-pedal",
        preset: "grand-piano",
        settings: &[],
        events: &[
            (0.0, Event::Sustain(1.0)),
            (0.0, Event::On(21, 30)),
            (0.05, Event::On(108, 127)),
            (0.1, Event::On(84, 90)),
            (0.3, Event::Off(21)),
            (0.3, Event::Off(108)),
            (0.3, Event::Off(84)),
            (0.8, Event::Sustain(0.0)),
        ],
    },
    Scene {
        name: "mallet-bar/arpeggio",
        preset: "mallet-bar",
        settings: &[],
        events: &[
            (0.0, Event::On(72, 60)),
            (0.1, Event::On(76, 80)),
            (0.2, Event::On(79, 100)),
            (0.3, Event::On(84, 120)),
            (0.7, Event::Off(72)),
            (0.7, Event::Off(76)),
            (0.7, Event::Off(79)),
            (0.7, Event::Off(84)),
        ],
    },
];

/// What the goldens file holds for one scene.
#[derive(Debug, Clone, PartialEq, Deserialize)]
struct Digest {
    /// FNV-1a of the 16-bit PCM, as 16 hexadecimal digits.
    hash: String,
    /// Levels per span, then per band, dB re full scale.
    levels_db: Vec<Vec<f64>>,
}

/// The goldens file.
#[derive(Debug, Deserialize)]
struct Goldens {
    /// The arithmetic the hashes were made with.
    arithmetic: String,
    render: BTreeMap<String, Digest>,
}

impl Goldens {
    /// The goldens as the file keeps them, one line per span of levels.
    fn to_toml(&self) -> String {
        let mut text = format!(
            "# Digests of the reference renders of engine/tests/golden_renders.rs.\n\
             # Rewritten by: {BLESS}=1 cargo test -p orchard-engine --test golden_renders\n\
             arithmetic = \"{}\"\n",
            self.arithmetic
        );
        for (name, digest) in &self.render {
            text += &format!(
                "\n[render.\"{name}\"]\nhash = \"{}\"\nlevels_db = [\n",
                digest.hash
            );
            for span in &digest.levels_db {
                let levels: Vec<String> = span.iter().map(|l| format!("{l:.4}")).collect();
                text += &format!("  [{}],\n", levels.join(", "));
            }
            text += "]\n";
        }
        text
    }
}

fn goldens_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/renders.toml")
}

/// Renders `scene`: left and right, full scale 1.
fn render(scene: &Scene) -> (Vec<f32>, Vec<f32>) {
    let mut preset = Preset::load(scene.preset).expect("a built-in preset");
    for &(path, value) in scene.settings {
        preset.set(path, value).expect("a property of the preset");
    }
    let mut synth = Synth::new(&preset, SAMPLE_RATE).unwrap();
    let frames = (LENGTH_S * SAMPLE_RATE) as usize;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    let events = scene
        .events
        .iter()
        .map(|&(at_s, event)| ((at_s * SAMPLE_RATE) as u64, event.into()));
    let score = Score::new(events, frames as u64);
    score.player().play(&mut synth, &mut left, &mut right);
    (left, right)
}

/// FNV-1a (64 bit) of the render as 16-bit PCM, left and right interleaved,
/// rounded and clipped as a 16-bit WAV writer does.
fn pcm16_hash(left: &[f32], right: &[f32]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (&l, &r) in left.iter().zip(right) {
        for x in [l, r] {
            let sample = (f64::from(x) * 32767.0).round().clamp(-32768.0, 32767.0) as i16;
            for byte in sample.to_le_bytes() {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    format!("{hash:016x}")
}

/// Level (dB re full scale, at least [`FLOOR_DB`]) of the mono sum in each
/// octave band over each span: the power of the Hann-windowed spectrum in the
/// band, scaled so that a full-scale sine reads 0 dB.
fn levels_db(left: &[f32], right: &[f32]) -> Vec<Vec<f64>> {
    let mono: Vec<f64> = left
        .iter()
        .zip(right)
        .map(|(l, r)| 0.5 * f64::from(l + r))
        .collect();
    let mut planner = FftPlanner::new();
    SPANS_S
        .iter()
        .map(|&(from, to)| {
            let span = &mono[(from * SAMPLE_RATE) as usize..(to * SAMPLE_RATE) as usize];
            let n = span.len();
            let window = |i: usize| 0.5 - 0.5 * (std::f64::consts::TAU * i as f64 / n as f64).cos();
            let mut spectrum: Vec<Complex<f64>> = span
                .iter()
                .enumerate()
                .map(|(i, &x)| Complex::new(x * window(i), 0.0))
                .collect();
            planner.plan_fft_forward(n).process(&mut spectrum);
            // Parseval: a full-scale sine through the Hann window puts 3n²/32
            // into the positive frequencies.
            let full_scale = 3.0 * (n as f64).powi(2) / 32.0;
            let bin_hz = SAMPLE_RATE / n as f64;
            BAND_CENTRES_HZ
                .iter()
                .map(|&centre| {
                    let (lo, hi) = (centre / 2f64.sqrt(), centre * 2f64.sqrt());
                    let power: f64 = (1..n / 2)
                        .filter(|&k| (lo..hi).contains(&(k as f64 * bin_hz)))
                        .map(|k| spectrum[k].norm_sqr())
                        .sum();
                    let db = 10.0 * (power / full_scale).log10();
                    if db.is_finite() {
                        db.max(FLOOR_DB)
                    } else {
                        FLOOR_DB
                    }
                })
                .collect()
        })
        .collect()
}

fn digest(scene: &Scene) -> Digest {
    let (left, right) = render(scene);
    Digest {
        hash: pcm16_hash(&left, &right),
        levels_db: levels_db(&left, &right),
    }
}

/// Where two fingerprints differ by more than [`TOLERANCE_DB`]: one line per
/// band, with both levels.
fn fingerprint_changes(golden: &Digest, now: &Digest) -> Vec<String> {
    let mut changes = Vec::new();
    for (s, (was, is)) in golden.levels_db.iter().zip(&now.levels_db).enumerate() {
        for (b, (a, c)) in was.iter().zip(is).enumerate() {
            if (a - c).abs() > TOLERANCE_DB {
                let (from, to) = SPANS_S[s];
                changes.push(format!(
                    "  {from}-{to} s, {} Hz band: {a:.3} -> {c:.3} dB",
                    BAND_CENTRES_HZ[b]
                ));
            }
        }
    }
    changes
}

/// Every built-in instrument sounds as its goldens say: on the arithmetic they
/// were made with, bit for bit at 16 bits; on another, within [`TOLERANCE_DB`]
/// in every band and span. With `ORCHARD_BLESS_GOLDEN=1` set, rewrites them.
#[test]
fn built_in_instruments_sound_as_their_goldens() {
    let digests: BTreeMap<String, Digest> = SCENES
        .iter()
        .map(|scene| (scene.name.to_string(), digest(scene)))
        .collect();
    let arithmetic = orchard_engine::arithmetic().to_string();
    if std::env::var_os(BLESS).is_some() {
        let goldens = Goldens {
            arithmetic,
            render: digests,
        };
        let text = goldens.to_toml();
        std::fs::create_dir_all(goldens_path().parent().unwrap()).unwrap();
        std::fs::write(goldens_path(), text).unwrap();
        return;
    }
    let text = std::fs::read_to_string(goldens_path()).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; make it with {BLESS}=1 cargo test -p orchard-engine --test golden_renders",
            goldens_path().display()
        )
    });
    let goldens: Goldens = toml::from_str(&text).unwrap();
    let same_arithmetic = goldens.arithmetic == arithmetic;
    let mut failures = Vec::new();
    for (name, now) in &digests {
        let Some(golden) = goldens.render.get(name) else {
            failures.push(format!("{name}: no golden"));
            continue;
        };
        let changes = fingerprint_changes(golden, now);
        let hash_moved = same_arithmetic && golden.hash != now.hash;
        if hash_moved || !changes.is_empty() {
            failures.push(format!(
                "{name}: hash {} -> {}, {} band levels moved{}{}",
                golden.hash,
                now.hash,
                changes.len(),
                if changes.is_empty() { "" } else { ":\n" },
                changes.join("\n")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "the sound changed (arithmetic {arithmetic}, goldens made on {}):\n{}\n\
         If it was meant to, run {BLESS}=1 cargo test -p orchard-engine --test golden_renders \
         and say why in the commit.",
        goldens.arithmetic,
        failures.join("\n")
    );
}

/// The digest sees what it should: the fingerprint of a full-scale 1 kHz sine
/// reads 0 dB in the 1 kHz band (within 0.1 dB) and far less elsewhere, and
/// one 16-bit step in one sample moves the hash.
#[test]
fn the_digest_sees_a_sine_and_one_step() {
    let n = (LENGTH_S * SAMPLE_RATE) as usize;
    let sine: Vec<f32> = (0..n)
        .map(|i| (std::f64::consts::TAU * 1000.0 * i as f64 / SAMPLE_RATE).sin() as f32)
        .collect();
    let levels = levels_db(&sine, &sine);
    for span in &levels {
        assert!(span[5].abs() < 0.1, "{span:?}");
        for (b, &level) in span.iter().enumerate() {
            if b != 5 {
                assert!(level < -30.0, "band {b}: {span:?}");
            }
        }
    }
    let mut stepped = sine.clone();
    stepped[1234] += 1.0 / 32767.0;
    assert_ne!(pcm16_hash(&sine, &sine), pcm16_hash(&stepped, &sine));
}
