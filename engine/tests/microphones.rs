//! Microphones (`output:microphone`): the pianist's seat and the close pair
//! hear the strings' own sound beside the board's, each microphone from its
//! own distance to each key's strings. Listening changes nothing the
//! strings do. On a board without modes, which does not move, the close
//! pair (which hears the board by its motion) hears the strings alone, and
//! the seat (which hears the board by its bridge force) hears the strings
//! beside what the bridge hears: at C4's
//! partials, the close pair hears them louder than the seat by what the
//! law of a string's standing wave heard over its end predicts for their
//! distances; at the seat they stay far under the board's sound (strings
//! are poor radiators); above 4 kHz they are a larger part of what the
//! close pair hears than of the seat's sound; and it plays without
//! allocating.

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};
use orchard_engine::analysis::{amplitude_at, measure_partials};
use orchard_engine::instrument::{Preset, StringSet};
use orchard_engine::resonators::string_field::heard_law;
use orchard_engine::resonators::{Placement, microphone_trim};
use orchard_engine::rt::Synth;

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

const FS: f64 = 48_000.0;
const BLOCK: usize = 128;
/// Middle C, and where it stands along the bridge (keys A0 to C8 evenly).
const KEY: u8 = 60;
const ALONG: f64 = (60.0 - 21.0) / 87.0;

/// Middle C struck as hard as the touch goes, heard from `microphone`, on
/// the grand's board or (`still`) on one without modes: the left channel,
/// 1 s, played in blocks without allocating. Its strings are each as their
/// note's (no deviations, which move the treble's balance of board and
/// strings by about half a decibel) and move across the board only: the
/// microphones hear that motion's dipoles (the strings' motion along the
/// board, which the bridge's tilt feeds, would radiate as dipoles turned a
/// quarter turn, and is not heard). Their longitudinal pull, which
/// reaches the listener through the board alone and puts phantom partials
/// beside the partials compared, is left out.
fn middle_c(microphone: u32, still: bool) -> Vec<f64> {
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
    strings.unison_spread_contact = 0.0;
    if still {
        preset.set("soundboard:modes", 0.0).unwrap();
    }
    let mut synth = Synth::new(&preset, FS).unwrap();
    let frames = FS as usize / BLOCK * BLOCK;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    synth.note_on(KEY, 1.0);
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
fn microphones_hear_the_strings_as_standing_waves() {
    let still_bridge = middle_c(0, true);
    let strings_at_seat = difference(&middle_c(1, true), &still_bridge);
    let strings_close = middle_c(2, true);
    let bridge = middle_c(0, false);
    let at_seat = middle_c(1, false);
    let close = middle_c(2, false);
    let steady_close: Vec<f32> = steady(&strings_close).iter().map(|&s| s as f32).collect();
    let partials = measure_partials(&steady_close, FS, 261.6, 40);
    assert!(partials.len() > 20, "{} partials", partials.len());

    let (seat, near) = (
        Placement::of_microphone(1, 0.6).unwrap(),
        Placement::of_microphone(2, 0.6).unwrap(),
    );
    // Same strings, same board density: the left microphones' weights for
    // middle C differ by their distances to its strings (the weights, taken
    // at the fundamental, scale the radiation filter at the pair's height).
    let preset = Preset::default_grand();
    let string = preset.key_params(KEY).unwrap().string;
    let weight = |p: &Placement| p.string_weights(ALONG, &string, 4.7)[0];
    // Each pair's preamplifier trim scales all it hears.
    let weights = weight(&near) / weight(&seat) * microphone_trim(2) / microphone_trim(1);
    let mut checked = 0;
    for p in &partials {
        let f = p.frequency_hz;
        let heard_at_seat = amplitude_at(steady(&strings_at_seat), FS, f);
        let heard_close = amplitude_at(steady(&strings_close), FS, f);
        let predicted = weights * heard_law(f, near.strings_m) / heard_law(f, seat.strings_m);
        let db = 20.0 * (heard_close / heard_at_seat / predicted).log10();
        // Each filter follows the law within 0.75 dB.
        assert!(db.abs() < 1.5, "partial {}: {db} dB off", p.number);
        let board = amplitude_at(steady(&bridge), FS, f);
        let added_at_seat = amplitude_at(steady(&difference(&at_seat, &bridge)), FS, f);
        eprintln!(
            "{f:>7.0} Hz: strings {:>6.1} dB against the board at the seat, {:>6.1} dB against the whole close; ratio off {db:+.2} dB",
            20.0 * (added_at_seat / board).log10(),
            20.0 * (heard_close / amplitude_at(steady(&close), FS, f)).log10(),
        );
        checked += 1;
        if f < 400.0 {
            // A thin string is a poor radiator of long waves: at the seat
            // it is more than 25 dB under the board.
            assert!(20.0 * (added_at_seat / board).log10() < -25.0, "{f} Hz");
        }
    }
    assert!(checked > 20);

    // Above 4 kHz the strings' own sound is a small part of the note at
    // the seat, 0.7 m away, and close to them: a thin string's standing
    // wave, heard over its end, radiates little beside a board, and close
    // to the strings the pair is close to the board too, whose strips under
    // it it hears most (about −30 dB at the seat, −34 dB close). Close, they
    // are still heard: more than −40 dB.
    let band_energy = |x: &[f64]| {
        partials
            .iter()
            .filter(|p| p.frequency_hz > 4_000.0)
            .map(|p| amplitude_at(steady(x), FS, p.frequency_hz).powi(2))
            .sum::<f64>()
    };
    let seat_db =
        10.0 * (band_energy(&difference(&at_seat, &bridge)) / band_energy(&bridge)).log10();
    let close_db = 10.0 * (band_energy(&strings_close) / band_energy(&close)).log10();
    assert!(
        seat_db < -20.0,
        "at the seat the strings are {seat_db} dB of the board above 4 kHz"
    );
    assert!(
        (-40.0..-20.0).contains(&close_db),
        "close, the strings are {close_db} dB of the whole above 4 kHz, at the seat {seat_db} dB"
    );
}
