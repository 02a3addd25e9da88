//! The room (`[room]`, `room:` properties): an impulse through it decays in
//! the T60 it is set to (Schroeder's backward integration, −5 to −35 dB,
//! within 10 %), its late reverb is as dense as noise by Abel and Huang's
//! measure, its first reflection arrives when the floor's image source
//! says, its reverb is as loud as Sabine's critical distance makes it, it
//! plays without allocating, a reset silences it, a live edit retunes it, a room at mix 0 is
//! no room at all (the output is bit for bit the dry instrument's), mix
//! changes glide without a click, and new walls let the old room's tail
//! ring out.

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};
use orchard_engine::air::SPEED_OF_SOUND_M_S;
use orchard_engine::analysis::{echo_density, schroeder_t60};
use orchard_engine::instrument::{Preset, RoomSpec};
use orchard_engine::room::{Geometry, Room, reverberant_energy};
use orchard_engine::rt::Synth;

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

const FS: f64 = 48_000.0;
const BLOCK: usize = 256;

/// The default room with `mix` and `t60_s`.
fn room(mix: f64, t60_s: f64) -> RoomSpec {
    RoomSpec {
        mix,
        t60_s,
        ..RoomSpec::default()
    }
}

/// The room's response to a unit impulse in both channels, `seconds` long,
/// left and right.
fn impulse_response(spec: &RoomSpec, seconds: f64) -> [Vec<f32>; 2] {
    let frames = (seconds * FS) as usize;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    left[0] = 1.0;
    right[0] = 1.0;
    let mut room = Room::new(spec, FS);
    for (l, r) in left.chunks_mut(BLOCK).zip(right.chunks_mut(BLOCK)) {
        assert_no_alloc(|| room.process(l, r));
    }
    [left, right]
}

#[test]
fn an_impulse_decays_in_the_t60_it_is_set_to() {
    for t60 in [0.8, 2.0] {
        for (ear, ir) in impulse_response(&room(1.0, t60), 1.5 * t60 + 0.5)
            .iter()
            .enumerate()
        {
            let measured = schroeder_t60(ir, FS, -5.0, -35.0).unwrap();
            println!("T60 {t60} s, ear {ear}: measured {measured:.3} s");
            assert!((measured - t60).abs() < 0.1 * t60, "{t60}: {measured}");
        }
    }
}

#[test]
fn the_late_reverb_is_as_dense_as_noise_and_the_ears_hear_it_apart() {
    let [left, right] = impulse_response(&room(1.0, 1.5), 1.0);
    // Abel and Huang's normalised echo density in 20 ms windows: about 1
    // for noise; separate echoes (the first reflections) give far less.
    let early = echo_density(&left, FS, 0.005, 0.02);
    let densities: Vec<f64> = [0.1, 0.2, 0.4, 0.8]
        .iter()
        .map(|&at| echo_density(&left, FS, at, 0.02))
        .collect();
    println!("echo density at 5 ms {early:.2}; at 0.1, 0.2, 0.4, 0.8 s {densities:.2?}");
    assert!(early < 0.5, "{early}");
    assert!(densities.iter().all(|&d| d >= 0.9), "{densities:?}");
    // The ears' late reverb is nearly uncorrelated.
    let (from, to) = ((0.1 * FS) as usize, (0.8 * FS) as usize);
    let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(x, y)| f64::from(x * y)).sum::<f64>();
    let (l, r) = (&left[from..to], &right[from..to]);
    let correlation = dot(l, r) / (dot(l, l) * dot(r, r)).sqrt();
    println!("correlation of the ears' late reverb {correlation:.3}");
    assert!(correlation.abs() < 0.2, "{correlation}");
}

#[test]
fn the_first_reflection_arrives_when_the_floors_image_says() {
    let spec = room(1.0, 1.5);
    let geometry = Geometry::of(&spec);
    let [left, right] = impulse_response(&spec, 0.05);
    for (ear, ir) in [left, right].iter().enumerate() {
        // The floor (z = 0) mirrors the source to −z: the shortest detour.
        let [x, y, z] = geometry.source;
        let [ex, ey, ez] = geometry.ears[ear];
        let floor = ((x - ex).powi(2) + (y - ey).powi(2) + (z + ez).powi(2)).sqrt();
        let direct = geometry.direct_m(ear);
        let expected = (floor - direct) / SPEED_OF_SOUND_M_S * FS;
        let first = ir.iter().position(|x| x.abs() > 1e-6).unwrap();
        println!("ear {ear}: floor reflection at {first} samples, geometry says {expected:.2}");
        assert!(
            (first as f64 - expected).abs() <= 1.0,
            "{first} vs {expected}"
        );
        // Its amplitude: one bounce and the longer way.
        let gain = (1.0 - spec.absorption).sqrt() * direct / floor;
        assert!(
            (f64::from(ir[first]) - gain).abs() < 1e-3 * gain,
            "{}",
            ir[first]
        );
    }
}

#[test]
fn the_reverb_is_as_loud_as_the_critical_distance_makes_it() {
    for t60 in [0.8, 2.0] {
        let spec = room(1.0, t60);
        let [left, _] = impulse_response(&spec, 3.0 * t60);
        // The late part, after the early reflections' second order: from
        // the network's first output on. Both parts add in energy.
        let energy: f64 = left.iter().map(|&x| f64::from(x) * f64::from(x)).sum();
        let early: f64 = orchard_engine::room::Geometry::of(&spec)
            .reflections(0, spec.absorption)
            .iter()
            .map(|r| r.gain * r.gain)
            .sum();
        let late = energy - early;
        let promised = reverberant_energy(&Geometry::of(&spec), t60);
        let db = 10.0 * (late / promised).log10();
        println!("T60 {t60} s: late energy {late:.3}, promised {promised:.3} ({db:+.2} dB)");
        assert!(db.abs() < 2.0, "{db} dB");
    }
}

/// `preset` with four notes struck and held for a second, in
/// blocks under `assert_no_alloc`.
fn play(preset: &Preset) -> [Vec<f32>; 2] {
    let mut synth = Synth::new(preset, FS).unwrap();
    let frames = (1.0 * FS) as usize / BLOCK * BLOCK;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    for key in [48, 60, 64, 67] {
        synth.note_on(key, 0.7);
    }
    for (l, r) in left.chunks_mut(BLOCK).zip(right.chunks_mut(BLOCK)) {
        assert_no_alloc(|| synth.process(l, r));
    }
    [left, right]
}

#[test]
fn a_room_at_mix_0_is_no_room_and_the_room_plays_without_allocating() {
    let dry = Preset::default_grand();
    assert!(dry.room.is_none());
    let mut off = dry.clone();
    off.set("room:t60_s", 3.0).unwrap();
    assert_eq!(off.room.map(|r| r.mix), Some(0.0));
    let mut on = dry.clone();
    on.set("room:mix", 0.3).unwrap();
    let (dry_out, off_out, on_out) = (play(&dry), play(&off), play(&on));
    assert!(dry_out == off_out, "a room at mix 0 changed the output");
    assert!(dry_out != on_out);
    assert!(on_out.iter().flatten().all(|x| x.is_finite()));
}

#[test]
fn a_reset_silences_the_room_and_a_live_edit_retunes_it() {
    let mut preset = Preset::load("mallet-bar").unwrap();
    preset.set("room:mix", 0.5).unwrap();
    let mut synth = Synth::new(&preset, FS).unwrap();
    let mut loader = synth.take_loader().unwrap();
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let key = preset.keyboard.lowest_key + 12;
    synth.note_on(key, 0.8);
    synth.process(&mut left, &mut right);
    synth.all_notes_off();
    synth.reset();
    // Silenced, the room too.
    assert!(!synth.is_active());
    synth.note_on(key, 0.8);
    synth.process(&mut left, &mut right);
    assert!(synth.is_active());
    let mut edited = preset.clone();
    edited.set("room:t60_s", 0.5).unwrap();
    loader.load_live(&edited).unwrap();
    assert_no_alloc(|| synth.process(&mut left, &mut right));
    assert_eq!(synth.preset().room.unwrap().t60_s, 0.5);
    loader.collect();
}

/// Middle C struck at the start in `preset`, its dampers down at
/// `note_off_s` if given; at `change_s` the instrument becomes `then`
/// (installed live, as a host's edit is). Returns the left channel of
/// `seconds`, played in blocks without allocating.
fn play_changing(
    preset: &Preset,
    then: &Preset,
    seconds: f64,
    change_s: f64,
    note_off_s: Option<f64>,
) -> Vec<f32> {
    let mut synth = Synth::new(preset, FS).unwrap();
    let mut loader = synth.take_loader().unwrap();
    let frames = (seconds * FS) as usize / BLOCK * BLOCK;
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    let block_of = |t: f64| (t * FS) as usize / BLOCK;
    synth.note_on(60, 0.8);
    for (i, (l, r)) in left
        .chunks_mut(BLOCK)
        .zip(right.chunks_mut(BLOCK))
        .enumerate()
    {
        if note_off_s.map(block_of) == Some(i) {
            synth.note_off(60);
        }
        if block_of(change_s) == i {
            loader.load_live(then).unwrap();
        }
        assert_no_alloc(|| synth.process(l, r));
        loader.collect();
    }
    left
}

/// The largest change from one sample to the next in `x[range]`.
fn largest_step(x: &[f32], range: std::ops::Range<usize>) -> f32 {
    x[range]
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f32::max)
}

fn energy(x: &[f32]) -> f64 {
    x.iter().map(|s| f64::from(*s).powi(2)).sum()
}

/// New walls do not cut the reverb: the room they replace rings out while
/// the new one takes the sound. After the note's dampers are down, the tail
/// through the change carries on as loud (within 1.5 dB) as the tail of a
/// room left alone; the old way, the new empty room alone, loses it.
#[test]
fn new_walls_let_the_old_rooms_tail_ring_out() {
    let mut hall = Preset::default_grand();
    hall.set("room:mix", 0.5).unwrap();
    let mut studio = hall.clone();
    studio.set("room:width_m", 9.0).unwrap();
    studio.set("room:depth_m", 12.0).unwrap();
    assert!(!hall.room.unwrap().same_geometry(&studio.room.unwrap()));
    let moved = play_changing(&hall, &studio, 1.5, 0.5, Some(0.2));
    let stayed = play_changing(&hall, &hall, 1.5, 0.5, Some(0.2));
    let after = (0.6 * FS) as usize..(1.0 * FS) as usize;
    let db = 10.0 * (energy(&moved[after.clone()]) / energy(&stayed[after])).log10();
    assert!(db.abs() < 1.5, "the tail through new walls: {db} dB");
}

/// A room switched on, automated or switched off is heard without a click:
/// the dry and the room levels glide, so during the change no sample steps
/// further (+50 %) than the held note's own steps in the settled sound
/// before it or after it, where an instant change of 0.2 → 0.9 mix steps
/// the dry sound by 0.7 of its level.
#[test]
fn mix_changes_glide_without_a_click() {
    let mut light = Preset::default_grand();
    light.set("room:mix", 0.2).unwrap();
    let mut heavy = light.clone();
    heavy.set("room:mix", 0.9).unwrap();
    let dry = Preset::default_grand();
    for (from, to) in [(&light, &heavy), (&dry, &heavy), (&heavy, &dry)] {
        let left = play_changing(from, to, 0.5, 0.25, None);
        let (change, frames) = ((0.25 * FS) as usize / BLOCK * BLOCK, left.len());
        let before = largest_step(&left, change - 2400..change);
        let at = largest_step(&left, change - 1..change + 2400);
        let after = largest_step(&left, change + 4800..frames);
        assert!(
            at < 1.5 * before.max(after),
            "{:?} → {:?}: a step of {at} at the change, {before} before, {after} after",
            from.room.map(|r| r.mix),
            to.room.map(|r| r.mix)
        );
    }
}
