//! The chiming clock: ticks at the beat its movement keeps, a beat that
//! follows the balance as the physics says, tick and tock told apart, a
//! stopped clock silent, the Westminster quarters and twelve strokes at noon
//! on clamped-free rods, and ticks that survive a stalled worker.

use orchard_engine::families::chiming_clock::ClockSpec;
use std::time::{Duration, Instant};

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};
use orchard_engine::analysis::{click_onsets, peak_frequency};
use orchard_engine::families::chiming_clock::ClockReport;
use orchard_engine::instrument::{MalletBar, Preset};
use orchard_engine::rt::{RealtimeOptions, Synth};

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

const FS: f64 = 48_000.0;
const BLOCK: usize = 256;

/// The built-in clock with its hands at `time_h` and `edits` applied.
fn clock(time_h: f64, edits: &[(&str, f64)]) -> Preset {
    let mut preset = Preset::builtin("chiming-clock").unwrap().unwrap();
    preset.set("clock:time_h", time_h).unwrap();
    for &(path, value) in edits {
        preset.set(path, value).unwrap();
    }
    preset
}

/// `seconds` of `synth`, mixed to mono.
fn render(synth: &mut Synth, seconds: f64) -> Vec<f32> {
    let frames = (seconds * FS) as usize;
    let mut out = Vec::with_capacity(frames);
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    while out.len() < frames {
        synth.process(&mut left, &mut right);
        out.extend(left.iter().zip(&right).map(|(l, r)| 0.5 * (l + r)));
    }
    out.truncate(frames);
    out
}

/// Onsets of the clicks in `x` (s).
fn clicks(x: &[f32]) -> Vec<f64> {
    click_onsets(x, FS)
}

/// Mean interval between successive clicks, s.
fn mean_interval(onsets: &[f64]) -> f64 {
    (onsets[onsets.len() - 1] - onsets[0]) / (onsets.len() - 1) as f64
}

/// Energy of `x` in the 30 ms from `t` (s).
fn energy_after(x: &[f32], t: f64) -> f64 {
    let start = (t * FS) as usize;
    let end = (start + (0.03 * FS) as usize).min(x.len());
    x[start..end]
        .iter()
        .map(|&s| f64::from(s) * f64::from(s))
        .sum()
}

/// The beat `analyze` reports for `preset`'s clock, s.
fn reported_beat(preset: &Preset) -> f64 {
    ClockReport::measure(preset, 6.0).unwrap().beat_s
}

#[test]
fn ticks_come_at_the_beat_the_movement_keeps() {
    // Ten past ten: no quarter for minutes.
    let preset = clock(10.17, &[]);
    let mut synth = Synth::new(&preset, FS).unwrap();
    let x = render(&mut synth, 4.0);
    // Past the start-up swings.
    let onsets: Vec<f64> = clicks(&x).into_iter().filter(|&t| t > 1.0).collect();
    assert!(onsets.len() >= 12, "{onsets:?}");
    let heard = mean_interval(&onsets);
    let beat = reported_beat(&preset);
    assert!(
        (heard / beat - 1.0).abs() < 0.01,
        "ticks every {heard} s, the movement beats {beat} s"
    );
    // 18 000 beats an hour, as the preset is regulated.
    assert!((beat - 0.2).abs() < 0.002, "{beat}");
}

#[test]
fn the_beat_follows_the_balance_inertia_as_its_square_root() {
    let base = clock(10.17, &[]);
    let inertia = base.get("clock:balance_inertia_kg_m2").unwrap();
    let heavier = clock(10.17, &[("clock:balance_inertia_kg_m2", 1.44 * inertia)]);
    let ratio = reported_beat(&heavier) / reported_beat(&base);
    // The balance and hairspring set the period (2π·√(I/k)); the
    // escapement's impulses perturb it by a fraction of a percent.
    assert!(
        (ratio - 1.2).abs() < 0.012,
        "beat ratio {ratio} for 1.44× the inertia"
    );
    // And the ticks heard follow.
    let mut synth = Synth::new(&heavier, FS).unwrap();
    let x = render(&mut synth, 4.0);
    let onsets: Vec<f64> = clicks(&x).into_iter().filter(|&t| t > 1.0).collect();
    let heard = mean_interval(&onsets);
    assert!(
        (heard / reported_beat(&heavier) - 1.0).abs() < 0.01,
        "heard {heard} s"
    );
}

#[test]
fn tick_and_tock_differ_and_a_stopped_clock_is_silent() {
    let mut synth = Synth::new(&clock(10.17, &[]), FS).unwrap();
    let x = render(&mut synth, 4.0);
    let onsets: Vec<f64> = clicks(&x).into_iter().filter(|&t| t > 1.0).collect();
    let levels: Vec<f64> = onsets
        .iter()
        .map(|&t| 10.0 * energy_after(&x, t).log10())
        .collect();
    // Entry and exit pallets alternate: every other click differs from its
    // neighbours by the same amount, and more than 1 dB.
    let differences: Vec<f64> = levels.windows(2).map(|w| w[1] - w[0]).collect();
    for pair in differences.windows(2) {
        assert!(pair[0].abs() > 1.0, "{levels:?}");
        assert!(
            pair[0] * pair[1] < 0.0,
            "tick and tock alternate: {levels:?}"
        );
    }
    let mut stopped = Synth::new(&clock(10.17, &[("clock:running", 0.0)]), FS).unwrap();
    let silence = render(&mut stopped, 2.0);
    assert!(silence.iter().all(|&s| s == 0.0));
}

/// When each rod (by key) is struck in `x` (s): where the envelope of its
/// second partial, the strongest of a rod struck near its clamp, rises
/// threefold within 40 ms above a fifth of its largest; at least 0.3 s apart.
fn rod_strikes(x: &[f32], preset: &Preset, key: u8) -> Vec<f64> {
    let f = preset.fundamental_hz(key) * 6.267;
    let hop = (0.005 * FS) as usize;
    let window = (0.04 * FS) as usize;
    let (mut re, mut im) = (vec![0.0; x.len()], vec![0.0; x.len()]);
    for (i, &s) in x.iter().enumerate() {
        let phase = std::f64::consts::TAU * f * i as f64 / FS;
        re[i] = f64::from(s) * phase.cos();
        im[i] = -f64::from(s) * phase.sin();
    }
    let mut envelope = Vec::new();
    let (mut sr, mut si) = (0.0, 0.0);
    for i in 0..x.len() {
        sr += re[i];
        si += im[i];
        if i >= window {
            sr -= re[i - window];
            si -= im[i - window];
        }
        if i % hop == 0 {
            envelope.push((sr * sr + si * si).sqrt() / window as f64);
        }
    }
    let largest = envelope.iter().copied().fold(0.0, f64::max);
    let mut strikes: Vec<f64> = Vec::new();
    for i in 2..envelope.len().saturating_sub(8) {
        let t = i as f64 * hop as f64 / FS;
        if envelope[i + 8] > 3.0 * envelope[i - 2]
            && envelope[i + 8] > 0.2 * largest
            && strikes.last().is_none_or(|&last| t - last > 0.3)
        {
            strikes.push(t);
        }
    }
    strikes
}

#[test]
fn at_noon_it_rings_the_hour_quarters_then_counts_twelve_on_its_rods() {
    // Two seconds to noon.
    let preset = clock(11.0 + 59.0 / 60.0 + 58.0 / 3600.0, &[]);
    let report = ClockReport::measure(&preset, 6.0).unwrap();
    let noon = report.first_start_s;
    assert!((noon - 2.0).abs() < 0.02, "noon at {noon} s");
    let mut synth = Synth::new(&preset, FS).unwrap();
    let seconds = noon + report.quarters[3].duration_s + report.twelve.duration_s + 1.5;
    let x = render(&mut synth, seconds);
    let (bells, hour) = ([68, 66, 64, 59], 52);
    let mut struck: Vec<(f64, u8)> = bells
        .iter()
        .chain([hour].iter())
        .flat_map(|&key| {
            rod_strikes(&x, &preset, key)
                .into_iter()
                .map(move |t| (t, key))
        })
        .collect();
    struck.sort_by(|a, b| a.0.total_cmp(&b.0));
    let keys: Vec<u8> = struck.iter().map(|&(_, key)| key).collect();
    // Changes 2, 3, 4 and 5 of the Westminster quarters, then the hour.
    let mut expected = vec![
        64, 68, 66, 59, // E G# F# B
        64, 66, 68, 64, // E F# G# E
        68, 64, 66, 59, // G# E F# B
        59, 66, 68, 64, // B F# G# E
    ];
    expected.extend([hour; 12]);
    assert_eq!(keys, expected, "{struck:?}");
    // The chime starts as the minute hand reaches twelve (the fly lets the
    // barrel gather speed for its first pin), and the hour is counted at the
    // strike train's pace.
    assert!(struck[0].0 > noon && struck[0].0 < noon + 1.0, "{struck:?}");
    let strokes: Vec<f64> = struck[16..].iter().map(|&(t, _)| t).collect();
    let interval = mean_interval(&strokes);
    assert!(
        (interval / report.twelve.interval_s - 1.0).abs() < 0.02,
        "strokes every {interval} s, the train's {}",
        report.twelve.interval_s
    );
    let chime_end = struck[15].0 - struck[0].0;
    assert!(
        chime_end < report.quarters[3].duration_s,
        "{chime_end} s of quarters"
    );
}

#[test]
fn a_rod_rings_at_its_pitch_with_the_partials_of_a_clamped_free_bar() {
    let preset = clock(10.0, &[]);
    for key in [52u8, 64, 68] {
        let params = preset.bar_params(key).unwrap();
        let ratios: Vec<f64> = params
            .partials_hz()
            .iter()
            .map(|f| f / params.fundamental_hz)
            .collect();
        for (ratio, uniform) in ratios.iter().zip([1.0, 6.267, 17.55]) {
            assert!((ratio / uniform - 1.0).abs() < 0.01, "{ratios:?}");
        }
        // Measured from the struck rod: each partial within 1 %.
        let mut rod = MalletBar::new(&params, FS, 0.0).unwrap();
        rod.strike(1.0);
        let x: Vec<f32> = (0..(1.5 * FS) as usize)
            .map(|_| rod.tick() as f32)
            .collect();
        for expected in params.partials_hz() {
            let found = peak_frequency(&x, FS, 0.9 * expected, 1.1 * expected).unwrap();
            assert!(
                (found / expected - 1.0).abs() < 0.01,
                "key {key}: {found} Hz for {expected} Hz"
            );
        }
        let pitch = preset.fundamental_hz(key);
        let cents = 1200.0 * (params.partials_hz()[0] / pitch).log2();
        assert!(cents.abs() < 3.0, "key {key}: {cents} cents");
    }
}

/// The mechanism on its own thread, stalled for 200 ms: the audio side never
/// allocates, every tick is still played (late ones counted), and the ticks
/// match a clock run in lock-step with the same latency.
#[test]
fn a_stalled_worker_loses_no_tick() {
    let preset = clock(10.17, &[]);
    let seconds = 3.0;
    let frames = (seconds * FS) as usize;
    let stall_at = (1.2 * FS) as u64;
    let mut synth = Synth::realtime(
        &preset,
        FS,
        RealtimeOptions {
            latency: 2 * BLOCK as u64,
            stall: Some((stall_at, Duration::from_millis(200))),
        },
    )
    .unwrap();
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let mut x = Vec::with_capacity(frames);
    let period = Duration::from_secs_f64(BLOCK as f64 / FS);
    let started = Instant::now();
    let mut blocks = 0u32;
    while x.len() < frames {
        assert_no_alloc(|| synth.process(&mut left, &mut right));
        x.extend(left.iter().zip(&right).map(|(l, r)| 0.5 * (l + r)));
        blocks += 1;
        if let Some(wait) = (period * blocks).checked_sub(started.elapsed()) {
            std::thread::sleep(wait);
        }
    }
    assert!(x.iter().all(|s| s.is_finite()));
    let counters = synth.counters();
    assert!(counters.late_operations > 0, "{counters:?}");
    let mut steady = Synth::lock_step(&preset, FS, 2 * BLOCK as u64).unwrap();
    let reference = render(&mut steady, seconds);
    // Outside the stall, click for click; within it the late ones come
    // together when the worker catches up, but none is lost: the ticks'
    // energy is the lock-step clock's.
    let stall = (stall_at as f64 / FS, stall_at as f64 / FS + 0.5);
    let outside = |onsets: Vec<f64>| -> Vec<f64> {
        onsets
            .into_iter()
            .filter(|&t| t < stall.0 || t > stall.1)
            .collect()
    };
    let (heard, expected) = (outside(clicks(&x)), outside(clicks(&reference)));
    assert_eq!(
        heard.len(),
        expected.len(),
        "{heard:?} against {expected:?}"
    );
    let energy = |x: &[f32]| x.iter().map(|&s| f64::from(s) * f64::from(s)).sum::<f64>();
    let (played, steady) = (energy(&x), energy(&reference));
    assert!(
        (played / steady - 1.0).abs() < 0.03,
        "tick energy {played} against {steady} in lock-step"
    );
}

/// The balance made heavier while the clock runs (an edit in the editor,
/// handed over live): the clock goes on from where it was, with no gap in
/// its ticking and no click at the handover, and beats √1.44 = 1.2 times
/// slower from then on.
#[test]
fn a_live_edit_of_the_balance_changes_the_beat_while_it_runs() {
    let base = clock(10.17, &[]);
    let inertia = base.get("clock:balance_inertia_kg_m2").unwrap();
    let heavier = clock(10.17, &[("clock:balance_inertia_kg_m2", 1.44 * inertia)]);
    let mut synth = Synth::new(&base, FS).unwrap();
    let mut loader = synth.take_loader().unwrap();
    let before = render(&mut synth, 3.0);
    loader.load_live(&heavier).unwrap();
    let after = render(&mut synth, 5.0);
    let old_beat = mean_interval(&clicks(&before)[5..]);
    let settled: Vec<f64> = clicks(&after).into_iter().filter(|&t| t > 2.0).collect();
    let new_beat = mean_interval(&settled);
    assert!(
        (new_beat / old_beat - 1.2).abs() < 0.015,
        "{old_beat} s, then {new_beat} s"
    );
    // It carried on: the first tick after the edit comes within a beat, and
    // the ticking never pauses longer than a beat and a half.
    let first = clicks(&after);
    assert!(first[0] < 1.2 * new_beat, "{first:?}");
    for pair in first.windows(2) {
        assert!(pair[1] - pair[0] < 1.5 * new_beat, "{first:?}");
    }
    // No click: the handover's first samples continue the last ones.
    let jump = (after[0] - before[before.len() - 1]).abs();
    let largest_step = before
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0f32, f32::max);
    assert!(jump <= largest_step, "{jump} at the handover");
}

/// Each blow's contact at audio rate measures the impulse the parts
/// exchanged and hands it back to the mechanism: a snapshot for nearly
/// every blow handed over. A tooth's drop onto a pallet (the fastest blows,
/// one per site and beat) meets its site at rest, and the contact and body
/// are passive, so the parts part no faster than they met: its impulse
/// lies between the inelastic `m·v` and the elastic `2·m·v` (restitution 0
/// to 1; the oiled steel's Hunt–Crossley loss and the energy left ringing
/// in the plate and case keep it below 1).
#[test]
fn the_measured_impulse_comes_back_to_the_mechanism() {
    use orchard_engine::families::chiming_clock::ClockMechanics;
    let mut synth = Synth::new(&clock(10.17, &[]), FS).unwrap();
    let mut drops = Vec::new();
    for _ in 0..60 {
        render(&mut synth, 0.05);
        let clock: &ClockMechanics = synth
            .lock_step_mechanics()
            .and_then(|m| m.as_any().downcast_ref())
            .unwrap();
        if let Some(impulse) = clock.last_impulse()
            && impulse.speed_in_m_s > 0.2
            && drops.last() != Some(&impulse)
        {
            drops.push(impulse);
        }
    }
    let clock: &ClockMechanics = synth
        .lock_step_mechanics()
        .and_then(|m| m.as_any().downcast_ref())
        .unwrap();
    // Each tick is a few blows (a tooth's drop, the lever on its banking
    // pin, the impulse pin in the fork); nearly all come back (the last may
    // still be in contact, a few sites lie where the survey saw no blow).
    assert!(
        clock.measured_blows() as f64 > 0.8 * clock.blows() as f64,
        "{} of {} blows measured",
        clock.measured_blows(),
        clock.blows()
    );
    assert!(drops.len() >= 5, "{drops:?}");
    for drop in &drops {
        assert!(
            drop.impulse_n_s > 0.0 && drop.restitution > 0.0 && drop.restitution <= 1.0 + 1e-9,
            "{drop:?}"
        );
    }
}

/// Offline, the clock runs in lock-step: two renders are the same to the
/// bit, whatever the block size.
#[test]
fn lock_step_renders_of_the_clock_are_bit_identical() {
    let preset = clock(11.0 + 59.0 / 60.0 + 59.0 / 3600.0, &[]);
    let frames = (2.5 * FS) as usize;
    let run = |block: usize| {
        let mut synth = Synth::new(&preset, FS).unwrap();
        let mut out = Vec::with_capacity(frames);
        let (mut left, mut right) = (vec![0.0f32; block], vec![0.0f32; block]);
        while out.len() < frames {
            synth.process(&mut left, &mut right);
            out.extend_from_slice(&left);
        }
        out.truncate(frames);
        out
    };
    let first = run(256);
    assert!(first.iter().any(|&s| s != 0.0));
    assert_eq!(first, run(256));
    assert_eq!(first, run(1000));
}

/// MIDI notes strike the rods directly: a set of clock chimes, each rod at
/// its key's pitch.
#[test]
fn a_note_strikes_its_rod() {
    let preset = clock(10.17, &[("clock:running", 0.0)]);
    let mut synth = Synth::new(&preset, FS).unwrap();
    synth.note_on(64, 0.8);
    let x = render(&mut synth, 1.5);
    let expected = preset.fundamental_hz(64);
    let found = peak_frequency(&x, FS, 0.97 * expected, 1.03 * expected).unwrap();
    assert!(
        (1200.0 * (found / expected).log2()).abs() < 3.0,
        "E4's rod at {found} Hz"
    );
    let second = peak_frequency(&x, FS, 0.97 * 6.267 * expected, 1.03 * 6.267 * expected).unwrap();
    assert!((second / found / 6.267 - 1.0).abs() < 0.01, "{second} Hz");
}

/// The going train's work per control step: over 15 s from 11:59:50 (ticks,
/// then the quarters and the hour), the integrator tries at most
/// `MAX_STEPS_PER_CALL` steps a control period, and in normal running it
/// never needs them all: the movement ends every control step where it was
/// asked to, so the bound that keeps the audio thread's cost finite changes
/// nothing a listener hears.
#[test]
fn the_movement_keeps_up_within_its_steps_per_control_period() {
    use orchard_engine::families::chiming_clock::movement::{MAX_STEPS_PER_CALL, Movement};
    use orchard_engine::rt::CONTROL_RATE_HZ;
    let preset = clock(11.0 + 59.0 / 60.0 + 50.0 / 3600.0, &[]);
    let spec = preset
        .objects
        .of::<ClockSpec>()
        .next()
        .map(|(_, spec)| spec)
        .unwrap();
    let mut movement = Movement::new(spec);
    let mut most = 0;
    let control_steps = (15.0 * CONTROL_RATE_HZ) as usize;
    for k in 1..=control_steps {
        let t = k as f64 / CONTROL_RATE_HZ;
        movement.step_towards(t, &mut |_| {});
        most = most.max(movement.steps_tried());
        assert_eq!(movement.lag_s(t), 0.0, "behind at {t} s");
    }
    assert!(
        most < MAX_STEPS_PER_CALL,
        "{most} steps in one control period"
    );
    assert!(
        most > 20,
        "the blows were stepped through ({most} steps at most)"
    );
    assert!(!movement.is_seized());
}

/// The whole clock in lock-step, as every front end plays it: 15 s from
/// 11:59:50 (its ticks, its blows' retried steps, the quarters and the
/// hour) without one allocation on the audio thread, the chime sounding
/// after 12:00 over the ticks.
#[test]
fn the_clock_in_lock_step_allocates_nothing() {
    let preset = clock(11.0 + 59.0 / 60.0 + 50.0 / 3600.0, &[]);
    let mut synth = Synth::new(&preset, FS).unwrap();
    let frames = (15.0 * FS) as usize;
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let mut x = Vec::with_capacity(frames + BLOCK);
    while x.len() < frames {
        assert_no_alloc(|| synth.process(&mut left, &mut right));
        x.extend(left.iter().zip(&right).map(|(l, r)| 0.5 * (l + r)));
    }
    let ticking = &x[FS as usize..(9.0 * FS) as usize];
    assert!(clicks(ticking).len() >= 35, "{:?}", clicks(ticking));
    let peak = |x: &[f32]| x.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    let chime = peak(&x[(10.5 * FS) as usize..]);
    assert!(
        chime > 4.0 * peak(ticking),
        "chime {chime}, ticks {}",
        peak(ticking)
    );
}
