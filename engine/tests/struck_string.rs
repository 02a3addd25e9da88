//! The first physical voice, measured from its sound and its simulation.

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};
use orchard_engine::analysis::{peak, peak_frequency, rms};
use orchard_engine::families::grand_piano::SoundboardSpec;
use orchard_engine::families::grand_piano::StruckString;
use orchard_engine::instrument::Preset;
use orchard_engine::rt::Synth;
use orchard_engine::wdf::FeltLaw;

mod support;
use support::grand_at_bridge;

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

/// Renders `key` struck at MIDI `velocity`, held for `seconds`; returns the left channel.
fn render_note(sample_rate: f64, key: u8, velocity: u8, seconds: f64) -> Vec<f32> {
    render_note_on(
        &Preset::default_grand(),
        sample_rate,
        key,
        velocity,
        seconds,
    )
}

/// [`render_note`] on `preset`.
fn render_note_on(
    preset: &Preset,
    sample_rate: f64,
    key: u8,
    velocity: u8,
    seconds: f64,
) -> Vec<f32> {
    let mut synth = Synth::new(preset, sample_rate).unwrap();
    let frames = (seconds * sample_rate) as usize;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    synth.note_on(key, f32::from(velocity) / 127.0);
    synth.process(&mut left, &mut right);
    left
}

/// How far (cents) the fundamental of `key`, struck at MIDI velocity 80 and
/// measured after the strike transient over `seconds` of ringing, lies from
/// `expected` Hz. The peak is sought within half a semitone either side.
fn pitch_error_cents(sample_rate: f64, key: u8, expected: f64, seconds: f64) -> f64 {
    pitch_error_cents_on(
        &Preset::default_grand(),
        sample_rate,
        key,
        expected,
        seconds,
    )
}

/// [`pitch_error_cents`] on `preset`.
fn pitch_error_cents_on(
    preset: &Preset,
    sample_rate: f64,
    key: u8,
    expected: f64,
    seconds: f64,
) -> f64 {
    let skip = 0.05;
    let audio = render_note_on(preset, sample_rate, key, 80, seconds + skip);
    let start = (skip * sample_rate) as usize;
    let band = 2f64.powf(0.5 / 12.0);
    let f = peak_frequency(
        &audio[start..],
        sample_rate,
        expected / band,
        expected * band,
    )
    .expect("a spectral peak near the fundamental");
    1200.0 * (f / expected).log2()
}

#[test]
fn struck_string_sounds_at_its_pitch() {
    for &(sample_rate, key, expected) in &[
        (48_000.0, 69, 440.0),
        (48_000.0, 60, 261.625_565),
        (44_100.0, 69, 440.0),
        (96_000.0, 60, 261.625_565),
    ] {
        let c = pitch_error_cents(sample_rate, key, expected, 1.5);
        assert!(
            c.abs() < 2.0,
            "key {key} at {sample_rate} Hz: {c:.3} cents off"
        );
    }
}

/// Every key from A0 to C8 rings at its stretched target (the preset's tuning:
/// octaves beatless on the strings' partials 2:1) to a tenth of a cent: the loop's
/// fractional delay absorbs the loss filter's and the dispersion filter's phase
/// delay. The strings stand on their local bridges here (no board modes), so
/// that this measures the strings' own tuning; [`tuned_on_the_board`] measures
/// them on the board.
///
/// The unisons' strings are tuned alike here. With the preset's spread,
/// a treble trichord's three components beat and trade energy through the bridge
/// within the half-second window, and the window's spectral peak wanders by about
/// a cent with the window length (D7: −1.08 cents over 0.5 s, +0.77 over 2 s):
/// that cluster has no pitch to a tenth of a cent, so it cannot test the tuning.
#[test]
fn whole_keyboard_is_in_tune() {
    let preset = unison_tuned_alike(0);
    // The targets are stretched: C8 lies well above equal temperament.
    let c8_et = 440.0 * 2f64.powf((108.0 - 69.0) / 12.0);
    assert!(1200.0 * (preset.fundamental_hz(108) / c8_et).log2() > 10.0);
    for (key, c) in keyboard_pitch_errors(&preset) {
        assert!(c.abs() < 0.1, "key {key}: {c:.3} cents");
    }
}

/// On the board, whose modes give the bridge a reactive admittance that pulls
/// every string's pitch (by up to about 5 cents in the middle), the strings
/// are designed as a tuner leaves them, so that each key still rings at its
/// target: within 0.1 cent over most of the keyboard. The first-order
/// correction, from the bridge's reflection phase at the target, leaves up to
/// about 0.6 cent in the bass, where the board's modes lie close to the
/// strings' partials and the loop's group delay differs from its phase delay.
#[test]
fn tuned_on_the_board() {
    let preset = unison_tuned_alike(
        Preset::default_grand()
            .objects
            .get_as::<SoundboardSpec>("soundboard")
            .unwrap()
            .modes,
    );
    let errors = keyboard_pitch_errors(&preset);
    let within_tenth = errors.iter().filter(|(_, c)| c.abs() < 0.1).count();
    assert!(within_tenth >= 70, "{errors:?}");
    for (key, c) in errors {
        assert!(c.abs() < 0.7, "key {key}: {c:.3} cents");
    }
}

/// The grand with its unisons tuned alike (no spread, and every string as
/// its note's) and a board of `modes` modes, heard from the bridge.
fn unison_tuned_alike(modes: u32) -> Preset {
    let mut preset = grand_at_bridge();
    preset.tune_unisons_alike();
    preset.set("soundboard:modes", f64::from(modes)).unwrap();
    preset
}

/// How far (cents) each key's fundamental lies from its target on `preset`.
fn keyboard_pitch_errors(preset: &Preset) -> Vec<(u8, f64)> {
    (21u8..=108)
        .map(|key| {
            let expected = preset.fundamental_hz(key);
            // Enough periods for a sharp spectral peak.
            let seconds = (80.0 / expected).max(0.5);
            (
                key,
                pitch_error_cents_on(preset, 48_000.0, key, expected, seconds),
            )
        })
        .collect()
}

#[test]
fn harder_strikes_are_louder() {
    let sample_rate = 48_000.0;
    let window = (0.2 * sample_rate) as usize;
    let levels: Vec<f64> = [20u8, 40, 60, 80, 100, 127]
        .iter()
        .map(|&v| rms(&render_note(sample_rate, 60, v, 0.2)[..window]))
        .collect();
    for pair in levels.windows(2) {
        assert!(
            pair[1] > pair[0] * 1.05,
            "RMS not rising with velocity: {levels:?}"
        );
    }
    // Fortissimo on one string stays well inside full scale.
    assert!(peak(&render_note(sample_rate, 60, 127, 0.3)) < 0.5);
}

/// C4 struck at 3 m/s: contact lasts milliseconds (2 ms for these parameters:
/// piano_hammer.rs has the precise check), then the hammer rebounds and leaves
/// the string.
#[test]
fn hammer_contact_is_physical() {
    let sample_rate = 48_000.0;
    let preset = Preset::default_grand();
    let mut voice = StruckString::new(
        preset.key_params(60).expect("a string instrument"),
        sample_rate,
        2e-3,
        0.25,
        0.006,
        1e-9,
    )
    .unwrap();
    voice.strike(3.0);
    for _ in 0..(0.1 * sample_rate) as usize {
        voice.tick();
    }
    let report = *voice.report();
    let duration = report.contact_duration_s.expect("the first contact ended");
    assert!((1e-3..6e-3).contains(&duration), "contact {duration} s");
    // The felt starts 2 mm away: first touch after 2/3 ms.
    let touch = report.first_touch_s.unwrap();
    assert!(
        (touch - 2e-3 / 3.0).abs() < 2.0 / sample_rate,
        "touch at {touch} s"
    );
    assert!(report.rebound_velocity_m_s.unwrap() < 0.0, "{report:?}");
    assert!(report.hammer_gone, "{report:?}");
    // Peak felt force of a C4 hammer at 3 m/s is tens of newtons.
    assert!((5.0..200.0).contains(&report.peak_force_n), "{report:?}");
}

/// Through the strike, the hammer's kinetic energy goes into the string: what the
/// string and the rebounding hammer hold afterwards equals it, less the little the
/// string's losses took meanwhile. The preset's felt relaxes, which takes its
/// share (see `piano_hammer.rs`, where that share is accounted for); here it is
/// made elastic to check the lossless exchange.
#[test]
fn strike_conserves_energy() {
    let sample_rate = 96_000.0;
    let preset = Preset::default_grand();
    let mut params = preset.key_params(60).expect("a string instrument");
    params.felt = FeltLaw::elastic(params.felt.stiffness, params.felt.exponent);
    let mut voice = StruckString::new(params, sample_rate, 0.5e-3, 0.25, 0.006, 1e-9).unwrap();
    let speed = 3.0;
    voice.strike(speed);
    let mut last_velocity = speed;
    // Until the first contact ends, plus a little: before any wave has reached the
    // bridge twice, so only the loss filter's first pass has acted.
    while voice.report().contact_duration_s.is_none() {
        voice.tick();
        last_velocity = voice.hammer_velocity().unwrap_or(last_velocity);
    }
    // Anchors give the hammer per string; the whole hammer strikes them all.
    let m = params.hammer_mass_kg * voice.string().len() as f64;
    let before = 0.5 * m * speed * speed;
    let after = voice.string().energy_j(sample_rate) + 0.5 * m * last_velocity * last_velocity;
    assert!(
        after <= before * 1.001,
        "energy created: {after} J from {before} J"
    );
    assert!(
        after >= before * 0.97,
        "energy lost: {after} J from {before} J"
    );
}

#[test]
fn damper_silences_a_released_note() {
    let sample_rate = 48_000.0;
    let mut synth = Synth::new(&Preset::default_grand(), sample_rate).unwrap();
    let block = 480;
    let (mut l, mut r) = (vec![0.0f32; block], vec![0.0f32; block]);
    synth.note_on(48, 100.0 / 127.0);
    for _ in 0..50 {
        synth.process(&mut l, &mut r);
    }
    let held = peak(&l);
    synth.note_off(48);
    for _ in 0..50 {
        synth.process(&mut l, &mut r);
    }
    // Half a second after release: 60 dB below the held level, and its
    // strings asleep soon after. (The top strings, which have no dampers,
    // may still ring faintly with what C3 gave them through the bridge.)
    assert!(peak(&l) < held * 1e-3, "{} vs {held}", peak(&l));
    for _ in 0..100 {
        synth.process(&mut l, &mut r);
    }
    assert_eq!(synth.resonator_energy_j(48), 0.0);
    assert!(peak(&l) < held * 1e-4, "{} vs {held}", peak(&l));
}

/// The audio path allocates nothing: notes, process and reset under assert_no_alloc.
#[test]
fn processing_never_allocates() {
    let mut synth = Synth::new(&Preset::default_grand(), 44_100.0).unwrap();
    let (mut l, mut r) = (vec![0.0f32; 4096], vec![0.0f32; 4096]);
    assert_no_alloc(|| {
        for (i, key) in (21u8..=108).step_by(5).enumerate() {
            synth.note_on(key, (i as f32 * 0.07) % 1.0 + 0.05);
            synth.process(&mut l[..64], &mut r[..64]);
        }
        synth.note_on(200, 1.0);
        synth.note_on(60, f32::NAN);
        synth.set_sustain(0.5);
        synth.set_sostenuto(true);
        synth.set_una_corda(1.0);
        synth.set_sustain(f32::INFINITY);
        synth.process(&mut l, &mut r);
        synth.all_notes_off();
        synth.process(&mut l, &mut r);
        synth.reset();
        synth.process(&mut l[..1], &mut r[..1]);
    });
    assert!(l.iter().chain(&r).all(|s| s.is_finite()));
}

/// Sample-accurate events: the same performance rendered in blocks of 1, 64 and 4096
/// frames is bit-identical.
#[test]
fn block_size_does_not_change_the_sound() {
    use orchard_engine::rt::{Score, SynthEvent};
    let sample_rate = 44_100.0;
    let frames = 30_000;
    // (frame, event), not in order: a chord, a repeated note, releases.
    let score = [
        (
            0,
            SynthEvent::NoteOn {
                key: 60,
                velocity: 0.8,
            },
        ),
        (
            5,
            SynthEvent::NoteOn {
                key: 64,
                velocity: 0.5,
            },
        ),
        (
            4_000,
            SynthEvent::NoteOn {
                key: 67,
                velocity: 0.6,
            },
        ),
        (
            9_001,
            SynthEvent::NoteOn {
                key: 60,
                velocity: 1.0,
            },
        ),
        (6_000, SynthEvent::Sustain(0.7)),
        (7_003, SynthEvent::UnaCorda(1.0)),
        (12_345, SynthEvent::Sostenuto(true)),
        (
            15_000,
            SynthEvent::NoteOff {
                key: 60,
                velocity: 0.9,
            },
        ),
        (17_777, SynthEvent::Sustain(0.0)),
        (20_000, SynthEvent::AllNotesOff),
    ];
    let score = Score::new(score, 0);
    let render = |block: usize| {
        let mut synth = Synth::new(&Preset::default_grand(), sample_rate).unwrap();
        let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
        let mut player = score.player();
        for (l, r) in left.chunks_mut(block).zip(right.chunks_mut(block)) {
            player.play(&mut synth, l, r);
        }
        (left, right)
    };
    let reference = render(4096);
    assert!(peak(&reference.0) > 0.01);
    for block in [1, 64] {
        assert!(
            render(block) == reference,
            "block size {block} changed the output"
        );
    }
}

/// A simulation that goes non-finite (values in range for the tree's checks but
/// beyond what floating point can carry) is silenced and counted; nothing
/// non-finite reaches the output. Values that are not finite at all are refused.
#[test]
fn non_finite_state_is_contained() {
    let preset = Preset::default_grand();
    let mut params = preset.key_params(60).expect("a string instrument");
    params.hammer_mass_kg = 1e-300;
    params.felt.stiffness = 1e300;
    let mut voice = StruckString::new(params, 48_000.0, 2e-3, 0.25, 0.006, 1e-9).unwrap();
    voice.strike(3.0);
    let out: Vec<f64> = (0..4800).map(|_| voice.tick()).collect();
    assert!(out.iter().all(|x| x.is_finite()));
    assert_eq!(voice.non_finite_resets(), 1);
    assert!(!voice.is_active());

    params.hammer_mass_kg = f64::NAN;
    assert!(StruckString::new(params, 48_000.0, 2e-3, 0.25, 0.006, 1e-9).is_err());
}
