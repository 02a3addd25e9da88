//! Shared hammers: more simultaneous strikes than hammer contact trees. Steals
//! are counted and click-free, deferred strikes still sound, and nothing
//! allocates.

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};
use orchard_engine::families::grand_piano::PianoVoices;
use orchard_engine::families::grand_piano::SHARED_HAMMERS;
use orchard_engine::instrument::Preset;
use orchard_engine::rt::{Operation, Synth, SynthEvent, TimedEvent, Voices};

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

const FS: f64 = 48_000.0;

/// An eight-note chord from C4 up: white keys, one contact each.
const CHORD: [u8; 8] = [60, 62, 64, 65, 67, 69, 71, 72];

/// A run of the voices one sample at a time: the left channel, the sample of
/// each steal, and the sample at which each key's hammer was thrown.
struct Run {
    left: Vec<f64>,
    steals: Vec<usize>,
    launches: Vec<usize>,
}

/// Strikes `keys` at 3 m/s before sample 0 (all at once) or at `launch_at[i]`,
/// their dampers lifted at sample 0, and renders `frames` samples.
fn run(voices: &mut PianoVoices, keys: &[u8], launch_at: Option<&[usize]>, frames: usize) -> Run {
    let strike = |key| Operation::Strike {
        key,
        speed_m_s: 3.0,
        shifted: false,
    };
    for &key in keys {
        voices.apply(Operation::Damper { key, amount: 0.0 });
    }
    let mut out = Run {
        left: Vec::with_capacity(frames),
        steals: Vec::new(),
        launches: vec![usize::MAX; keys.len()],
    };
    let (mut l, mut r) = ([0.0f32], [0.0f32]);
    for n in 0..frames {
        for (i, &key) in keys.iter().enumerate() {
            if launch_at.map_or(n == 0, |at| at[i] == n) {
                voices.apply(strike(key));
            }
        }
        let stolen = voices.stolen_contacts();
        voices.render(&mut l, &mut r, |_, _, _| {});
        for _ in stolen..voices.stolen_contacts() {
            out.steals.push(n);
        }
        for (i, &key) in keys.iter().enumerate() {
            // A key's report is empty until its hammer is thrown.
            let thrown = voices.strike_report(key).unwrap().strike_speed_m_s > 0.0;
            if thrown && out.launches[i] == usize::MAX {
                out.launches[i] = n;
            }
        }
        out.left.push(f64::from(l[0]));
    }
    out
}

/// The largest sample-to-sample step of `output` in `range`.
fn largest_step(output: &[f64], range: std::ops::Range<usize>) -> f64 {
    output[range.start.max(1)..range.end.min(output.len())]
        .iter()
        .zip(&output[range.start.max(1) - 1..])
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

/// Four hammers, an eight-note chord struck at once: four strikes take the
/// free hammers; the other four wait until a hammer has struck and let go of
/// its strings, and take it (a steal, counted). Every note sounds, the waiting
/// ones within a few milliseconds. The steals do not click: the output is the
/// same (within 1e-9 of its peak) as with hammers enough for every key struck
/// at the same moments, so around each steal its largest sample-to-sample step
/// is no larger than in the same sound played without stealing.
#[test]
fn pool_exhaustion_steals_without_a_click() {
    let preset = Preset::default_grand();
    let frames = (0.4 * FS) as usize;
    let mut shared = PianoVoices::with_hammers(&preset, FS, 4).unwrap();
    assert_eq!(shared.hammers().len(), 4);
    let stolen = run(&mut shared, &CHORD, None, frames);
    assert_eq!(shared.stolen_contacts(), 4, "steals at {:?}", stolen.steals);
    assert_eq!(stolen.steals.len(), 4);
    assert_eq!(shared.deferred_strikes(), 4);
    for (i, &key) in CHORD.iter().enumerate() {
        let report = shared.strike_report(key).unwrap();
        assert!(
            report.first_touch_s.is_some() && report.peak_force_n > 1.0,
            "key {key} sounds: {report:?}"
        );
        let waited_s = stolen.launches[i] as f64 / FS;
        assert!(waited_s < 5e-3, "key {key} waited {waited_s} s");
    }

    let mut ample = PianoVoices::with_hammers(&preset, FS, CHORD.len()).unwrap();
    let reference = run(&mut ample, &CHORD, Some(&stolen.launches), frames);
    assert_eq!(ample.stolen_contacts(), 0);
    assert_eq!(reference.launches, stolen.launches);
    let peak = reference.left.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    assert!(peak > 1e-3, "the chord sounds: peak {peak}");
    let difference = stolen
        .left
        .iter()
        .zip(&reference.left)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
    assert!(
        difference <= 1e-9 * peak,
        "stealing changed the sound by {difference} (peak {peak})"
    );
    // Whatever a steal does at the contact point reaches the output within a
    // few milliseconds (the strings' delay to the bridge).
    let after = (0.01 * FS) as usize;
    for &n in &stolen.steals {
        let window = n.saturating_sub(16)..n + after;
        let step = largest_step(&stolen.left, window.clone());
        let without = largest_step(&reference.left, window);
        assert!(
            step <= without * (1.0 + 1e-9) + 1e-12,
            "steal at {n}: step {step} vs {without} without stealing"
        );
    }
}

/// The full pool under a 24-note cluster struck at once, and the chord on
/// four hammers struck again while ringing: the pool's path (taking, stealing,
/// deferring, grafting) allocates nothing, the steals are counted and every
/// note sounds.
#[test]
fn exhausted_pool_never_allocates() {
    let preset = Preset::default_grand();
    let cluster: Vec<u8> = (48..72).collect();
    let mut voices = PianoVoices::new(&preset, FS).unwrap();
    let mut few = PianoVoices::with_hammers(&preset, FS, 4).unwrap();
    let (mut l, mut r) = (vec![0.0f32; 256], vec![0.0f32; 256]);
    let mut peak = 0.0f32;
    assert_no_alloc(|| {
        for &key in &cluster {
            voices.apply(Operation::Strike {
                key,
                speed_m_s: 4.0,
                shifted: key % 2 == 0,
            });
        }
        for block in 0..40 {
            voices.render(&mut l, &mut r, |_, _, _| {});
            peak = l.iter().fold(peak, |m, x| m.max(x.abs()));
            for strike in 0..2 {
                for &key in &CHORD {
                    few.apply(Operation::Strike {
                        key,
                        speed_m_s: 1.0 + f64::from(block % 5),
                        shifted: strike == 1,
                    });
                }
                few.render(&mut l[..64], &mut r[..64], |_, _, _| {});
            }
        }
        voices.reset();
        few.reset();
    });
    assert_eq!(voices.hammers().len(), SHARED_HAMMERS);
    assert!(voices.stolen_contacts() >= (cluster.len() - SHARED_HAMMERS) as u64);
    assert!(few.stolen_contacts() > 0);
    assert!(peak.is_finite() && peak > 1e-3, "peak {peak}");
    for &key in &cluster {
        let report = voices.strike_report(key).unwrap();
        assert!(report.first_touch_s.is_none(), "reset clears the reports");
    }
    assert_eq!(voices.hammers().in_use(), 0);
    assert!(!voices.is_active());
}

/// Every note of a cluster wider than the pool sounds, played through the
/// synthesiser (lock-step): the counters report the steals.
#[test]
fn the_synthesiser_counts_steals() {
    let mut synth = Synth::new(&Preset::default_grand(), FS).unwrap();
    let keys: Vec<u8> = (40..80).collect();
    let (mut l, mut r) = (vec![0.0f32; 512], vec![0.0f32; 512]);
    let notes = keys.iter().map(|&key| TimedEvent {
        offset: 0,
        event: SynthEvent::NoteOn { key, velocity: 1.0 },
    });
    synth.process_events(&mut l, &mut r, notes);
    for _ in 0..40 {
        synth.process_events(&mut l, &mut r, []);
    }
    assert!(
        synth.counters().stolen_contacts > 0,
        "{:?}",
        synth.counters()
    );
    for &key in &keys {
        let report = synth.strike_report(key).unwrap();
        assert!(report.first_touch_s.is_some(), "key {key}: {report:?}");
    }
}
