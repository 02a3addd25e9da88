//! What the worker publishes for the editor while the chiming clock plays:
//! its movement's positions (the escape wheel turning clockwise tooth by
//! tooth, the balance swinging), the time its hands show advancing a second
//! per second, and its chime and strike trains; publishing allocates
//! nothing.

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};
use orchard_engine::instrument::Preset;
use orchard_engine::mech::mechanism::{BRACKET_MOVEMENT_TOML, Mechanism};
use orchard_engine::rt::{MechanicsView, Synth};

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

const FS: f64 = 48_000.0;
const BLOCK: usize = 256;

/// The built-in clock with its hands at `time_h`, playing in lock-step.
fn clock(time_h: f64) -> Synth {
    let mut preset = Preset::builtin("chiming-clock").unwrap().unwrap();
    preset.set("clock:time_h", time_h).unwrap();
    Synth::new(&preset, FS).unwrap()
}

/// Plays `seconds` of `synth` and hands the view the worker last published
/// to `each` after every block. (Not checked for allocations: the
/// movement's adaptive stepper builds its step-adjustment messages as
/// strings; publishing is checked on its own below.)
fn play(synth: &mut Synth, seconds: f64, mut each: impl FnMut(&MechanicsView)) {
    let mut views = synth.take_views().expect("the views are ours");
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let blocks = (seconds * FS / BLOCK as f64).ceil() as usize;
    for _ in 0..blocks {
        synth.process(&mut left, &mut right);
        each(views.mechanics.latest());
    }
}

/// Index of `part`'s position among the movement's positions.
fn position_of(part: &str) -> usize {
    let movement = Mechanism::from_toml(BRACKET_MOVEMENT_TOML).unwrap();
    movement
        .state_names()
        .iter()
        .position(|name| name == &format!("parts/{part}:position"))
        .unwrap()
}

#[test]
fn the_published_movement_turns_and_its_hands_keep_time() {
    let mut synth = clock(10.0);
    let movement = Mechanism::from_toml(BRACKET_MOVEMENT_TOML).unwrap();
    let (wheel, balance) = (position_of("wheel"), position_of("balance"));
    // (worker time, wheel, balance, dial time) at every new view.
    let mut seen: Vec<(f64, f64, f64, f64)> = Vec::new();
    play(&mut synth, 4.0, |view| {
        if seen.last().is_some_and(|s| s.0 == view.time_s) || view.time_s == 0.0 {
            return;
        }
        let m = &view.mechanism;
        assert_eq!(m.description, Some(BRACKET_MOVEMENT_TOML));
        assert_eq!(m.count, movement.positions().len());
        let trains = m.trains.expect("a clock has trains");
        assert_eq!(trains.chime_quarter, 0, "no quarter passes at 10:00");
        assert_eq!(trains.strike_hour, 0);
        seen.push((
            view.time_s,
            m.positions()[wheel],
            m.positions()[balance],
            m.dial_time_s.expect("a clock has a dial"),
        ));
    });
    // About 60 views a second.
    assert!(seen.len() > 200, "{} views", seen.len());
    let (t0, wheel0, _, dial0) = seen[0];
    let &(t1, wheel1, _, dial1) = seen.last().unwrap();

    // The escape wheel turns clockwise (its angle falls), about a tenth of a
    // turn per 0.4 s swing, never back by more than a recoil.
    let turned = (wheel0 - wheel1) / std::f64::consts::TAU;
    let expected = (t1 - t0) / 4.0;
    println!("{turned:.3} turns of the escape wheel in {:.2} s", t1 - t0);
    assert!(
        (turned - expected).abs() < 0.1 * expected,
        "{turned} turns, {expected} expected"
    );
    let recoil = seen.windows(2).map(|w| w[1].1 - w[0].1).fold(0.0, f64::max);
    assert!(
        recoil < 5f64.to_radians(),
        "the wheel went back {recoil} rad"
    );

    // The balance swings both ways.
    let (low, high) = seen
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), s| (l.min(s.2), h.max(s.2)));
    assert!(high - low > 0.5, "the balance swings {low}..{high} rad");

    // The hands advance a second per second (the clock is regulated).
    let rate = (dial1 - dial0) / (t1 - t0);
    println!("the dial advances {rate:.4} s per s, from {dial0:.3} s");
    assert!((rate - 1.0).abs() < 0.03, "{rate} s per s");
    assert!((dial0 - 36_000.0).abs() < 1.0, "{dial0} s after midnight");
}

#[test]
fn the_trains_are_published_as_they_run() {
    // Hands at 11:59:59: the hour's quarters are released, then twelve.
    let mut synth = clock(12.0 - 1.0 / 3600.0);
    let mut chimed = None;
    play(&mut synth, 2.5, |view| {
        if view.time_s == 0.0 {
            return; // nothing published yet
        }
        let trains = view.mechanism.trains.unwrap();
        if trains.chime_quarter != 0 && chimed.is_none() {
            chimed = Some(trains);
        }
    });
    let trains = chimed.expect("the chime train ran");
    assert_eq!(trains.chime_quarter, 4, "the hour's quarters: {trains:?}");
    assert_eq!(trains.strike_hour, 12, "{trains:?}");
    assert!(
        !trains.striking,
        "the strike waits for the chime: {trains:?}"
    );
    assert_eq!(trains.strokes_left, 12);
}

#[test]
fn a_piano_publishes_no_mechanism() {
    let mut synth = Synth::new(&Preset::default_grand(), FS).unwrap();
    let mut views = 0;
    play(&mut synth, 0.1, |view| {
        if view.time_s > 0.0 {
            views += 1;
            assert_eq!(view.mechanism, Default::default());
        }
    });
    assert!(views > 0);
}

#[test]
fn publishing_the_clock_allocates_nothing() {
    use orchard_engine::families::chiming_clock::ClockMechanics;
    use orchard_engine::rt::{Mechanics, MechanismSnapshot};
    let preset = Preset::builtin("chiming-clock").unwrap().unwrap();
    let clock = ClockMechanics::new(&preset).unwrap();
    let mut snapshot = MechanismSnapshot::default();
    assert!(assert_no_alloc(|| clock.publish_mechanism(&mut snapshot)));
    assert_eq!(snapshot.count, 3);
}
