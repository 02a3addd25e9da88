//! Microphones (`output:microphone`): the pianist's seat and close
//! microphones hear the strings' own sound beside the board's. Listening
//! changes nothing the strings do, so the strings' own sound is what a
//! microphone adds to the bridge's output: at C4's partials, the close pair
//! hears it louder than the seat by what the line-dipole law predicts for
//! their distances; under 400 Hz it leaves the board's sound as it was;
//! above 4 kHz it brightens the note; and it plays without allocating.

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};
use orchard_engine::analysis::{amplitude_at, measure_partials};
use orchard_engine::instrument::{Preset, StringSet};
use orchard_engine::resonators::Placement;
use orchard_engine::resonators::string_radiation::{key_weight, radiation_gain};
use orchard_engine::rt::Synth;

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

const FS: f64 = 48_000.0;
const BLOCK: usize = 128;

/// Middle C struck as hard as the touch goes, heard from `microphone`:
/// the left channel, 1 s, played in blocks without allocating. Its strings
/// are each as their note's (no deviations, which move the treble's balance
/// of board and strings by about half a decibel) and move across the board
/// only: the microphones hear that motion's dipoles (the strings' motion
/// along the board, which the bridge's tilt feeds, would radiate as dipoles
/// turned a quarter turn, and is not heard). Their longitudinal pull, which
/// reaches the listener through the board alone and puts phantom partials
/// beside the partials compared, is left out.
fn middle_c(microphone: u32) -> Vec<f64> {
    let mut preset = Preset::default_grand();
    preset
        .set("output:microphone", f64::from(microphone))
        .unwrap();
    preset.set("strings:bridge_tilt_rad", 0.0).unwrap();
    preset.set("strings:longitudinal_coupling", 0.0).unwrap();
    let strings = preset
        .objects
        .get_as_mut::<StringSet>("strings")
        .expect("the grand's strings");
    strings.unison_spread_cents = 0.0;
    strings.unison_spread_inharmonicity = 0.0;
    strings.unison_spread_loss = 0.0;
    let mut synth = Synth::new(&preset, FS).unwrap();
    let frames = FS as usize / BLOCK * BLOCK;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    synth.note_on(60, 1.0);
    for (l, r) in left.chunks_mut(BLOCK).zip(right.chunks_mut(BLOCK)) {
        assert_no_alloc(|| synth.process(l, r));
    }
    left.iter().map(|&s| f64::from(s)).collect()
}

/// `a − b`, sample by sample.
fn difference(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x - y).collect()
}

/// From 0.1 to 0.6 s.
fn steady(x: &[f64]) -> &[f64] {
    &x[(0.1 * FS) as usize..(0.6 * FS) as usize]
}

#[test]
fn microphones_hear_the_strings_as_line_dipoles() {
    let bridge = middle_c(0);
    let player = middle_c(1);
    let close = middle_c(2);
    let heard_at_seat = difference(&player, &bridge);
    let heard_close = difference(&close, &bridge);
    let steady_bridge: Vec<f32> = steady(&bridge).iter().map(|&s| s as f32).collect();
    let partials = measure_partials(&steady_bridge, FS, 261.6, 40);
    assert!(partials.len() > 20, "{} partials", partials.len());

    let (seat, near) = (
        Placement::of_microphone(1).unwrap(),
        Placement::of_microphone(2).unwrap(),
    );
    // Same key, same board: the weights differ by the board's distance.
    let weights = key_weight(330.0, 4.7, near.board_m) / key_weight(330.0, 4.7, seat.board_m);
    let mut checked = 0;
    for p in &partials {
        let f = p.frequency_hz;
        let at_seat = amplitude_at(steady(&heard_at_seat), FS, f);
        let near_strings = amplitude_at(steady(&heard_close), FS, f);
        let predicted =
            weights * radiation_gain(f, near.strings_m) / radiation_gain(f, seat.strings_m);
        let db = 20.0 * (near_strings / at_seat / predicted).log10();
        // Each filter follows the law within 0.75 dB.
        assert!(db.abs() < 1.5, "partial {}: {db} dB off", p.number);
        eprintln!(
            "{:>7.0} Hz: seat {:>6.1} dB, close {:>6.1} dB against the board; ratio off {db:+.2} dB",
            f,
            20.0 * (at_seat / amplitude_at(steady(&bridge), FS, f)).log10(),
            20.0 * (near_strings / amplitude_at(steady(&bridge), FS, f)).log10()
        );
        checked += 1;

        let board = amplitude_at(steady(&bridge), FS, f);
        if f < 400.0 {
            // A thin string is a poor radiator of long waves: at the seat
            // it is more than 25 dB under the board.
            assert!(20.0 * (at_seat / board).log10() < -25.0, "{f} Hz");
        }
    }
    assert!(checked > 20);

    // Above 4 kHz the strings' own sound makes the note brighter, the more
    // so close to them.
    let band_energy = |x: &[f64]| {
        partials
            .iter()
            .filter(|p| p.frequency_hz > 4_000.0)
            .map(|p| amplitude_at(steady(x), FS, p.frequency_hz).powi(2))
            .sum::<f64>()
    };
    let seat_db = 10.0 * (band_energy(&player) / band_energy(&bridge)).log10();
    let close_db = 10.0 * (band_energy(&close) / band_energy(&bridge)).log10();
    assert!(seat_db > 1.0, "the seat adds {seat_db} dB above 4 kHz");
    assert!(
        close_db > seat_db + 1.0,
        "close {close_db} dB, seat {seat_db} dB"
    );
}
