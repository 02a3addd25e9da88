//! The grand piano's strings measured from their sound: stiffness dispersion,
//! tuning, unisons coupled through the bridge, dampers.

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};
use orchard_engine::analysis::{amplitude_at, peak_frequency};
use orchard_engine::families::grand_piano::StruckString;
use orchard_engine::instrument::Preset;
use orchard_engine::resonators::{
    MAX_UNISON_STRINGS, StringDeviation, StringParams, Unison, UnisonParams,
};
use orchard_engine::rt::Synth;

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

/// Chaigne & Askenfelt's C4 as one string.
fn c4() -> StringParams {
    StringParams {
        length_m: 0.62,
        mass_kg: 3.93e-3,
        fundamental_hz: 261.625_565,
        strike_position: 0.12,
        loss_b1: 1.1,
        loss_b2: 2.7e-4,
    }
}

fn single(string: StringParams, b: f64) -> UnisonParams {
    UnisonParams::lone_string(string, b)
}

/// The bridge force after a 1 N impulse at the strike point, `seconds` long.
fn impulse_response(unison: &mut Unison, sample_rate: f64, seconds: f64) -> Vec<f64> {
    let n = (seconds * sample_rate) as usize;
    let mut out = Vec::with_capacity(n);
    out.push(unison.step(1.0));
    for _ in 1..n {
        out.push(unison.step(0.0));
    }
    out
}

fn to_f32(x: &[f64]) -> Vec<f32> {
    let peak = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    x.iter().map(|&v| (v / peak) as f32).collect()
}

/// Frequency of the strongest peak within 0.4·f1 of `n·f1`.
fn partial(signal: &[f32], fs: f64, f1: f64, n: u32) -> f64 {
    let centre = f64::from(n) * f1;
    peak_frequency(signal, fs, centre - 0.4 * f1, centre + 0.4 * f1).expect("a partial")
}

fn cents(f: f64, reference: f64) -> f64 {
    1200.0 * (f / reference).log2()
}

/// The C4 string's partials 1…8, measured from its sound, follow
/// `n·f0·√(1 + B·n²)`: B fitted to them lies within 10 % of the string's
/// 3.77e-4, the first partial within 1 cent of its pitch, and each partial within
/// 2 cents of the stiff-string law.
#[test]
fn c4_partials_follow_the_stiff_string_law() {
    let fs = 48_000.0;
    let b = 3.77e-4;
    let params = c4();
    let mut s = Unison::new(&single(params, b), fs).unwrap();
    let audio = to_f32(&impulse_response(&mut s, fs, 2.0));
    let f1 = partial(&audio, fs, params.fundamental_hz, 1);
    assert!(
        cents(f1, params.fundamental_hz).abs() < 1.0,
        "first partial {f1} Hz"
    );
    // (f_n/(n·f1))²·(1 + B) = 1 + B·n²: least squares for B over n = 2…8.
    let (mut num, mut den) = (0.0, 0.0);
    for n in 2..=8u32 {
        let fn_ = partial(&audio, fs, f1, n);
        let nn = f64::from(n * n);
        let r = (fn_ / (f64::from(n) * f1)).powi(2);
        num += (r - 1.0) * (nn - r);
        den += (nn - r) * (nn - r);
        let law = orchard_engine::resonators::stiff_partial_hz(f1, b, n);
        assert!(
            cents(fn_, law).abs() < 2.0,
            "partial {n}: {fn_} Hz, law {law} Hz"
        );
    }
    let fitted = num / den;
    assert!(
        (fitted / b - 1.0).abs() < 0.1,
        "fitted B = {fitted:e}, string's {b:e}"
    );
    // The same string without stiffness is harmonic: B fits near zero.
    let mut flexible = Unison::new(&single(params, 0.0), fs).unwrap();
    let audio = to_f32(&impulse_response(&mut flexible, fs, 2.0));
    let f8 = partial(&audio, fs, params.fundamental_hz, 8);
    assert!(cents(f8, 8.0 * params.fundamental_hz).abs() < 1.0, "{f8}");
}

/// From the bass to C7 and beyond, at 44.1, 48 and 96 kHz, the first partial is
/// tuned to within a cent whatever the dispersion filter does.
#[test]
fn first_partial_is_in_tune_for_any_stiffness() {
    let preset = Preset::default_grand();
    for fs in [44_100.0, 48_000.0, 96_000.0] {
        for (key, b) in [
            (21u8, 5e-5),
            (33, 1e-4),
            (48, 2e-4),
            (60, 3.77e-4),
            (72, 1.1e-3),
            (84, 3e-3),
            (96, 8e-3),
        ] {
            let params = preset.key_params(key).expect("a string instrument").string;
            let mut s = Unison::new(&single(params, b), fs).unwrap();
            let f0 = params.fundamental_hz;
            let seconds = (100.0 / f0).max(1.0);
            let audio = to_f32(&impulse_response(&mut s, fs, seconds));
            let f1 = partial(&audio, fs, f0, 1);
            let c = cents(f1, f0);
            assert!(c.abs() < 1.0, "key {key}, B {b:e}, {fs} Hz: {c:.3} cents");
        }
    }
}

/// Level (dB) of the component at `f` Hz in successive windows of `window_s`
/// starting at each of `times_s`.
fn envelope_db(signal: &[f64], fs: f64, f: f64, times_s: &[f64], window_s: f64) -> Vec<f64> {
    let w = (window_s * fs) as usize;
    times_s
        .iter()
        .map(|&t| {
            let start = (t * fs) as usize;
            20.0 * amplitude_at(&signal[start..start + w], fs, f).log10()
        })
        .collect()
}

/// Least-squares slope of `y` against `x`.
fn slope(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

/// Early and late decay rates (dB/s) of the fundamental of `key` played by a voice
/// whose strings number `strings`, vibrating in one plane or (`two_planes`)
/// also along the board as the preset's bridge tilt couples it.
fn decay_rates(strings: usize, two_planes: bool) -> (f64, f64) {
    let fs = 24_000.0;
    let preset = Preset::default_grand();
    let mut params = preset.key_params(57).expect("a string instrument");
    params.strings = strings;
    params.deviations = [StringDeviation::NONE; MAX_UNISON_STRINGS];
    if !two_planes {
        params.second_plane = None;
    }
    // The voice stands on its own resistive bridge, with no board: one that
    // couples the strings more strongly than their mistuning parts them
    // (Weinreich's regime: each string alone would lose 1.7 1/s to it, the
    // preset's 0.7-cent spread is 0.56 rad/s), as a grand's bridge and board
    // do together around A3.
    params.bridge_impedance_kg_s = 600.0;
    let mut voice = StruckString::new(params, fs, 2e-3, 0.25, 0.006, 1e-12).unwrap();
    voice.strike(2.0);
    let out: Vec<f64> = (0..(6.0 * fs) as usize).map(|_| voice.tick()).collect();
    let f0 = params.string.fundamental_hz;
    let early_t: Vec<f64> = (0..6).map(|i| 0.1 + 0.1 * f64::from(i)).collect();
    let late_t: Vec<f64> = (0..6).map(|i| 4.0 + 0.3 * f64::from(i)).collect();
    let early = slope(&early_t, &envelope_db(&out, fs, f0, &early_t, 0.2));
    let late = slope(&late_t, &envelope_db(&out, fs, f0, &late_t, 0.2));
    (-early, -late)
}

/// A3 on three strings detuned by the preset's spread and coupled through a
/// resistive bridge: the in-phase motion the hammer gives them drains into the bridge fast,
/// then what detuning moved into out-of-phase motion rings on slowly. One string
/// on the same bridge, in one plane, decays at one rate; with its motion along
/// the board, which the tilted bridge feeds and hardly damps, it too decays
/// in two stages (Weinreich 1977).
#[test]
fn coupled_unison_decays_in_two_stages() {
    let (early, late) = decay_rates(3, false);
    assert!(late > 0.5, "late decay {late} dB/s");
    assert!(
        early > 2.0 * late,
        "three strings: early {early} dB/s, late {late} dB/s"
    );
    let (early, late) = decay_rates(1, false);
    assert!(
        (early / late - 1.0).abs() < 0.25,
        "one string: early {early} dB/s, late {late} dB/s"
    );
    let (early, late) = decay_rates(1, true);
    assert!(
        early > 2.0 * late && late > 0.3,
        "one string in two planes: early {early} dB/s, late {late} dB/s"
    );
}

/// The grand's C4 at `fs` (Hz): hammer 2 mm away, damper T60 0.25 s.
fn c4_voice(fs: f64) -> StruckString {
    let params = Preset::default_grand()
        .key_params(60)
        .expect("a string instrument");
    StruckString::new(params, fs, 2e-3, 0.25, 0.006, 1e-12).unwrap()
}

/// Level (dB, RMS of the bridge force) of a C4 voice over `0.45..0.5` s after its
/// damper is set to `amount`, relative to the 50 ms before.
fn damped_drop_db(amount: f64) -> f64 {
    let fs = 48_000.0;
    let mut voice = c4_voice(fs);
    voice.strike(3.0);
    let held: Vec<f64> = (0..(0.5 * fs) as usize).map(|_| voice.tick()).collect();
    voice.set_damper_amount(amount);
    let after: Vec<f64> = (0..(0.5 * fs) as usize).map(|_| voice.tick()).collect();
    let rms = |x: &[f64]| (x.iter().map(|v| v * v).sum::<f64>() / x.len() as f64).sqrt();
    let w = (0.05 * fs) as usize;
    20.0 * (rms(&after[after.len() - w..]) / rms(&held[held.len() - w..])).log10()
}

/// The damper fully down takes a note 40 dB down within half a second; lifted, the
/// note decays only by its own prompt decay (the preset's C4 trichord loses about
/// 35 dB/s to the bridge and its strings in the first second), far less than 40 dB;
/// half down, it decays in between, at least 10 dB from either.
#[test]
fn damper_amount_sets_the_decay() {
    let full = damped_drop_db(1.0);
    let none = damped_drop_db(0.0);
    let half = damped_drop_db(0.5);
    assert!(full < -40.0, "damper down: {full} dB");
    assert!(none > -25.0, "damper up: {none} dB");
    assert!(
        half < none - 10.0 && half > full + 10.0,
        "half: {half} dB (down {full}, up {none})"
    );
}

/// Una corda: striking one string of three gives a softer note than striking all
/// three at the same hammer speed, and the other strings still sound through the
/// bridge.
#[test]
fn striking_a_subset_of_strings() {
    let fs = 48_000.0;
    let render = |mask: u8| {
        let mut v = c4_voice(fs);
        v.set_struck_strings(mask);
        v.strike(3.0);
        let out: Vec<f64> = (0..(0.3 * fs) as usize).map(|_| v.tick()).collect();
        let rms = (out.iter().map(|x| x * x).sum::<f64>() / out.len() as f64).sqrt();
        (rms, v)
    };
    let (all, _) = render(0b111);
    let (one, voice) = render(0b010);
    assert!(one < 0.8 * all, "una corda {one} vs tre corde {all}");
    let unison = voice.string();
    let unstruck = unison.string(0).unwrap().peak_wave();
    assert!(
        unstruck > 0.0,
        "the bridge passes energy to unstruck strings"
    );
    assert!(unstruck < unison.string(1).unwrap().peak_wave());
}

/// Strings, unisons, the voice and the synthesiser never allocate after building.
#[test]
fn string_processing_never_allocates() {
    let preset = Preset::default_grand();
    let mut voice = StruckString::new(
        preset.key_params(50).expect("a string instrument"),
        48_000.0,
        2e-3,
        0.25,
        0.006,
        1e-9,
    )
    .unwrap();
    let mut synth = Synth::new(&preset, 48_000.0).unwrap();
    let (mut l, mut r) = (vec![0.0f32; 1024], vec![0.0f32; 1024]);
    let mut sum = 0.0;
    assert_no_alloc(|| {
        voice.set_struck_strings(0b001);
        voice.strike(2.0);
        for _ in 0..2000 {
            sum += voice.tick();
        }
        voice.set_damper_amount(0.4);
        voice.set_struck_strings(0);
        voice.strike(4.0);
        for _ in 0..2000 {
            sum += voice.tick();
        }
        synth.note_on(60, 0.7);
        synth.set_damper_amount(60, 0.5);
        synth.set_damper_amount(61, f64::NAN);
        synth.process(&mut l, &mut r);
    });
    assert!(sum.is_finite());
    assert!(l.iter().all(|x| x.is_finite()));
}

/// Impossible unisons are refused with a clear error instead of panicking.
#[test]
fn impossible_unisons_are_rejected() {
    let mut p = single(c4(), 3.77e-4);
    p.strings = 4;
    assert!(Unison::new(&p, 48_000.0).is_err());
    p = single(c4(), f64::NAN);
    assert!(Unison::new(&p, 48_000.0).is_err());
    p = single(c4(), 3.77e-4);
    p.bridge_impedance_kg_s = -1.0;
    assert!(Unison::new(&p, 48_000.0).is_err());
    p = single(c4(), 3.77e-4);
    p.string.fundamental_hz = 15_000.0;
    let err = Unison::new(&p, 44_100.0).unwrap_err().to_string();
    assert!(err.contains("period"), "{err}");
}

/// Each partial of the C4 string decays at the rate the loss law gives its
/// frequency, `σ = b1 + b2·k²` with `k = 2π·f/c`: matched at partials 1 and 8
/// (within 3 %), and following the one-pole loss filter's shape between them
/// (partial 4 within 10 %).
#[test]
fn partials_decay_by_the_loss_law() {
    let fs = 48_000.0;
    let b = 3.77e-4;
    let params = c4();
    let mut s = Unison::new(&single(params, b), fs).unwrap();
    let seconds = 2.4;
    let out = impulse_response(&mut s, fs, seconds);
    let w = (0.4 * fs) as usize;
    let span = (out.len() - w) as f64 / fs;
    for (n, tolerance) in [(1u32, 0.03), (4, 0.10), (8, 0.03)] {
        let f = orchard_engine::resonators::stiff_partial_hz(params.fundamental_hz, b, n);
        let early = amplitude_at(&out[..w], fs, f);
        let late = amplitude_at(&out[out.len() - w..], fs, f);
        let measured = (early / late).ln() / span;
        let designed = params.decay_rate(2.0 * std::f64::consts::PI * f);
        assert!(
            (measured / designed - 1.0).abs() < tolerance,
            "partial {n}: {measured} 1/s, law {designed} 1/s"
        );
    }
}
