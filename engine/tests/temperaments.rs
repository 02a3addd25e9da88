//! Temperaments and Scala scales, measured from rendered notes: every key's
//! first partial lands within 0.1 cent of the published temperament (or the
//! scale), with and without the stretch on top.
//!
//! The expected pitches are the published tables (cents above C), typed here
//! so that they check the engine's comma arithmetic rather than repeat it.

use orchard_engine::analysis::peak_frequency;
use orchard_engine::instrument::{KeyMap, Preset, Scale, Temperament};
use orchard_engine::rt::Synth;

const FS: f64 = 48_000.0;

/// Published pitches above C, cents, of each temperament laid from C
/// (Barbour, *Tuning and Temperament*, 1951; Lindley, "Temperaments", Grove).
const TABLES: [(Temperament, [f64; 12]); 6] = [
    (
        Temperament::Equal,
        [
            0.0, 100.0, 200.0, 300.0, 400.0, 500.0, 600.0, 700.0, 800.0, 900.0, 1000.0, 1100.0,
        ],
    ),
    (
        Temperament::WerckmeisterIii,
        [
            0.0, 90.225, 192.180, 294.135, 390.225, 498.045, 588.270, 696.090, 792.180, 888.270,
            996.090, 1092.180,
        ],
    ),
    (
        Temperament::Vallotti,
        [
            0.0, 94.135, 196.090, 298.045, 392.180, 501.955, 592.180, 698.045, 796.090, 894.135,
            1000.0, 1090.225,
        ],
    ),
    (
        Temperament::KirnbergerIii,
        [
            0.0, 90.225, 193.157, 294.135, 386.314, 498.045, 590.224, 696.578, 792.180, 889.735,
            996.090, 1088.269,
        ],
    ),
    (
        Temperament::QuarterCommaMeantone,
        [
            0.0, 76.049, 193.157, 310.265, 386.314, 503.422, 579.471, 696.578, 772.627, 889.735,
            1006.843, 1082.892,
        ],
    ),
    (
        Temperament::Pythagorean,
        [
            0.0, 113.685, 203.910, 294.135, 407.820, 498.045, 611.730, 701.955, 815.640, 905.865,
            996.090, 1109.775,
        ],
    ),
];

/// The grand with its unisons tuned alike, on local bridges (no board
/// modes, whose reactance pulls the pitch: `struck_string.rs` measures that),
/// stretch `stretch`: the setting in which `struck_string.rs` finds every key
/// within 0.1 cent of its target.
fn grand(stretch: f64) -> Preset {
    let mut preset = Preset::default_grand();
    preset.tune_unisons_alike();
    preset.set("soundboard:modes", 0.0).unwrap();
    preset.set("tuning:stretch", stretch).unwrap();
    preset
}

/// The frequency (Hz) of the first partial of `key` struck on `preset`, sought
/// within half a semitone of `expected` Hz after the strike's transient.
fn measured_hz(preset: &Preset, key: u8, expected: f64) -> f64 {
    let skip = 0.05;
    let seconds = skip + (80.0 / expected).max(0.5);
    let mut synth = Synth::new(preset, FS).unwrap();
    let frames = (seconds * FS) as usize;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    synth.note_on(key, 80.0 / 127.0);
    synth.process(&mut left, &mut right);
    let band = 2f64.powf(0.5 / 12.0);
    let start = (skip * FS) as usize;
    peak_frequency(&left[start..], FS, expected / band, expected * band)
        .expect("a spectral peak near the first partial")
}

/// The worst error so far, cents, printed with `--nocapture`.
fn report(what: &str, worst: &mut f64, error: f64) {
    if error.abs() > worst.abs() {
        *worst = error;
        eprintln!("{what}: worst so far {error:+.4} cents");
    }
}

fn cents(a: f64, b: f64) -> f64 {
    1200.0 * (a / b).log2()
}

/// The published pitch of `key` with `table` laid from pitch class `tonic`
/// and A4 held at `a4_hz`, Hz.
fn published_hz(table: &[f64; 12], tonic: u8, key: u8, a4_hz: f64) -> f64 {
    let offset = |key: u8| {
        let class = (i32::from(key) - i32::from(tonic)).rem_euclid(12) as usize;
        table[class] - 100.0 * class as f64
    };
    let cents_from_a4 = 100.0 * (f64::from(key) - 69.0) + offset(key) - offset(69);
    a4_hz * 2f64.powf(cents_from_a4 / 1200.0)
}

/// Every key of the octave C4–B4 and a few across the keyboard, in each of
/// the six temperaments laid from C, without stretch: within 0.1 cent of the
/// published tables.
#[test]
fn six_temperaments_from_c_measure_as_published() {
    let keys: Vec<u8> = (60..72).chain([33, 46, 88, 100]).collect();
    for (temperament, table) in TABLES {
        let mut worst = 0.0;
        let mut preset = grand(0.0);
        preset
            .set("tuning:temperament", f64::from(temperament.index()))
            .unwrap();
        for &key in &keys {
            let expected = published_hz(&table, 0, key, 440.0);
            let error = cents(measured_hz(&preset, key, expected), expected);
            report(&format!("{temperament:?}"), &mut worst, error);
            assert!(
                error.abs() < 0.1,
                "{temperament:?} key {key}: {error:.3} cents"
            );
        }
    }
}

/// Laid from E♭ with A4 at 442 Hz: Pythagorean's wolf moves to B–F♯, and
/// Werckmeister III's pure thirds to the flat keys; A4 stays at 442 Hz.
#[test]
fn temperaments_in_another_key_hold_a() {
    for (index, tonic) in [(5, 3u8), (1, 3)] {
        let (temperament, table) = TABLES[index];
        let mut worst = 0.0;
        let mut preset = grand(0.0);
        preset.set("tuning:a4_hz", 442.0).unwrap();
        preset
            .set("tuning:temperament", f64::from(temperament.index()))
            .unwrap();
        preset
            .set("tuning:temperament_key", f64::from(tonic))
            .unwrap();
        assert_eq!(preset.fundamental_hz(69), 442.0);
        for key in 60..72 {
            let expected = published_hz(&table, tonic, key, 442.0);
            let error = cents(measured_hz(&preset, key, expected), expected);
            report(&format!("{temperament:?} on E♭"), &mut worst, error);
            assert!(
                error.abs() < 0.1,
                "{temperament:?} on E♭, key {key}: {error:.3} cents"
            );
        }
    }
}

/// The stretch applies on top: with the grand's full stretch, each key of
/// Werckmeister III lies the published temperament's cents from the
/// stretched equal-tempered target, from A0 to C8.
#[test]
fn the_stretch_applies_on_top() {
    let (temperament, table) = TABLES[1];
    let stretched_equal = grand(1.0);
    let mut preset = grand(1.0);
    preset
        .set("tuning:temperament", f64::from(temperament.index()))
        .unwrap();
    let mut worst = 0.0;
    for key in [21u8, 30, 45, 58, 64, 66, 76, 87, 99, 108] {
        let equal_hz = 440.0 * 2f64.powf((f64::from(key) - 69.0) / 12.0);
        let stretch = stretched_equal.fundamental_hz(key) / equal_hz;
        let expected = published_hz(&table, 0, key, 440.0) * stretch;
        let error = cents(measured_hz(&preset, key, expected), expected);
        report("Werckmeister III stretched", &mut worst, error);
        assert!(error.abs() < 0.1, "key {key}: {error:.3} cents");
    }
    // The stretch is really there: C8 lies well above its unstretched pitch.
    let c8 = published_hz(&table, 0, 108, 440.0);
    assert!(cents(preset.fundamental_hz(108), c8) > 10.0);
}

/// The scale and mapping of `tunings/`: 19-EDO, degree 0 on middle C at
/// 256 Hz.
fn nineteen_edo() -> (Scale, KeyMap) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tunings/");
    let read = |name: &str| std::fs::read_to_string(format!("{dir}{name}")).unwrap();
    let scale = Scale::parse(&read("19-edo.scl"), "19-edo.scl").unwrap();
    let keymap = KeyMap::parse(&read("19-edo.kbm"), "19-edo.kbm").unwrap();
    (scale, keymap)
}

/// A 19-EDO `.scl` with its `.kbm`, unstretched: every key k sounds at
/// 256·2^((k − 60)/19) Hz, within 0.1 cent; and with the stretch on top, the
/// stretched grand's cents above equal temperament are added key by key.
#[test]
fn nineteen_edo_scale_and_keymap() {
    let (scale, keymap) = nineteen_edo();
    for stretch in [0.0, 1.0] {
        let mut preset = grand(stretch);
        preset.tuning.scale = Some(scale.clone());
        preset.tuning.keymap = Some(keymap.clone());
        preset.validate().unwrap();
        let stretched_equal = grand(stretch);
        let mut worst = 0.0;
        for key in [21u8, 40, 55, 59, 60, 61, 62, 70, 79, 80, 98, 108] {
            let equal_hz = 440.0 * 2f64.powf((f64::from(key) - 69.0) / 12.0);
            let stretch_ratio = stretched_equal.fundamental_hz(key) / equal_hz;
            let expected = 256.0 * 2f64.powf((f64::from(key) - 60.0) / 19.0) * stretch_ratio;
            let error = cents(measured_hz(&preset, key, expected), expected);
            report(&format!("19-EDO, stretch {stretch}"), &mut worst, error);
            assert!(
                error.abs() < 0.1,
                "stretch {stretch}, key {key}: {error:.3} cents"
            );
        }
    }
}

/// A key the mapping leaves unmapped (`x`) is silent; its neighbours play.
#[test]
fn unmapped_keys_are_silent() {
    let (scale, _) = nineteen_edo();
    let keymap = KeyMap::parse(
        "! every other key\n2\n0\n127\n60\n60\n261.6\n1\n0\nx\n",
        "gaps.kbm",
    )
    .unwrap();
    let mut preset = grand(0.0);
    preset.tuning.scale = Some(scale);
    preset.tuning.keymap = Some(keymap);
    preset.validate().unwrap();
    let level = |key: u8| {
        let mut synth = Synth::new(&preset, FS).unwrap();
        let (mut left, mut right) = (vec![0.0f32; 4800], vec![0.0f32; 4800]);
        synth.note_on(key, 0.8);
        synth.process(&mut left, &mut right);
        left.iter().fold(0.0f32, |m, s| m.max(s.abs()))
    };
    // On a board without modes the close pair hears the strings alone:
    // middle C's first 0.1 s peaks near −61 dBFS.
    assert!(level(60) > 1e-4);
    assert_eq!(level(61), 0.0);
    assert!(level(62) > 1e-4);
}

/// The scale and mapping travel as text edits (what a plugin's saved state
/// holds: the files' text, not their paths), read back from JSON; a bad text
/// is refused with its line, an empty one takes the scale away.
#[test]
fn scales_travel_as_text_edits() {
    use orchard_engine::instrument::PropertyEdit;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tunings/");
    let read = |name: &str| std::fs::read_to_string(format!("{dir}{name}")).unwrap();
    let edits = [
        PropertyEdit::Text {
            path: "tuning:scale".into(),
            text: read("19-edo.scl"),
        },
        PropertyEdit::Text {
            path: "tuning:keymap".into(),
            text: read("19-edo.kbm"),
        },
    ];
    let json = serde_json::to_string(&edits).unwrap();
    let edits: Vec<PropertyEdit> = serde_json::from_str(&json).unwrap();
    let mut preset = grand(0.0);
    for edit in &edits {
        preset.apply(edit).unwrap();
    }
    let expected = 256.0 * 2f64.powf(5.0 / 19.0);
    assert!(cents(preset.fundamental_hz(65), expected).abs() < 1e-4);
    // The preset written out and read back keeps the scale.
    let json = serde_json::to_string(&preset).unwrap();
    assert_eq!(serde_json::from_str::<Preset>(&json).unwrap(), preset);
    // A preset file holds the texts in its [tuning], with a temperament by
    // name and key.
    let tuning = format!(
        "[tuning]\ntemperament = \"vallotti\"\ntemperament_key = \"E♭\"\n\
         scale = '''\n{}'''\nkeymap = '''\n{}'''\n",
        read("19-edo.scl"),
        read("19-edo.kbm")
    );
    let toml = orchard_engine::instrument::DEFAULT_PRESET_TOML.replacen("[tuning]\n", &tuning, 1);
    let from_file = Preset::from_toml(&toml).unwrap();
    assert_eq!(from_file.tuning.temperament, 2);
    assert_eq!(from_file.tuning.temperament_key, 3);
    assert_eq!(from_file.tuning.scale, preset.tuning.scale);
    assert_eq!(from_file.tuning.keymap, preset.tuning.keymap);

    let bad = PropertyEdit::Text {
        path: "tuning:scale".into(),
        text: "bad\n2\n3/2\nabc\n".into(),
    };
    let error = preset.apply(&bad).unwrap_err().to_string();
    assert_eq!(
        error,
        "tuning: scale line 4: expected a ratio like 3/2 or a cents value like 701.955, found 'abc'"
    );
    for path in ["tuning:keymap", "tuning:scale"] {
        let remove = PropertyEdit::Text {
            path: path.into(),
            text: String::new(),
        };
        preset.apply(&remove).unwrap();
    }
    assert_eq!(preset, grand(0.0));
    let elsewhere = PropertyEdit::Text {
        path: "tuning:a4_hz".into(),
        text: "440".into(),
    };
    assert!(preset.apply(&elsewhere).is_err());
}
