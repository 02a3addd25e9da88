//! The grand action at control rate: timing, velocity curve, repetition,
//! dampers and pedals.

use orchard_engine::families::grand_piano::GrandPiano;
use orchard_engine::families::grand_piano::action::{
    Action, ActionCommand, ActionEvent, ActionSettings,
};
use orchard_engine::instrument::Preset;
use orchard_engine::mech::Model;
use orchard_engine::props::{PropertyAccess, PropertyError};
use orchard_engine::rt::Family;

const C4: u8 = 60;

fn realistic() -> ActionSettings {
    ActionSettings {
        realistic_travel: true,
        ..ActionSettings::default()
    }
}

/// Runs the action from `from` to `to` (s) in 1 ms steps and returns its events.
fn run(action: &mut Action, from: f64, to: f64) -> Vec<(f64, ActionEvent)> {
    let steps = ((to - from) / 1e-3).round() as usize;
    for i in 0..steps {
        let t0 = from + i as f64 * 1e-3;
        assert!(action.advance(t0, t0 + 1e-3).is_none());
    }
    let mut events = Vec::new();
    action.drain_events(&mut events);
    events
}

/// The let-offs (time, speed at the string) among `events`.
fn strikes(events: &[(f64, ActionEvent)]) -> Vec<(f64, f64)> {
    events
        .iter()
        .filter_map(|&(t, e)| match e {
            ActionEvent::LetOff { speed, .. } => Some((t, speed)),
            _ => None,
        })
        .collect()
}

fn press(action: &mut Action, t: f64, velocity: u8) {
    assert!(action.command(t, ActionCommand::KeyDown { note: C4, velocity }));
}

fn release(action: &mut Action, t: f64) {
    assert!(action.command(
        t,
        ActionCommand::KeyUp {
            note: C4,
            velocity: 0.5
        }
    ));
}

/// By default a note-on throws the hammer from let-off at once (so the string
/// sounds after the last millimetre's flight: the synthesiser's tests check the
/// 5 ms), to meet the string at exactly the velocity curve's speed.
#[test]
fn default_action_lets_off_at_once_at_the_curves_speed() {
    for velocity in [1u8, 20, 64, 100, 127] {
        let mut action = Action::new(ActionSettings::default());
        press(&mut action, 0.010, velocity);
        let hits = strikes(&run(&mut action, 0.0, 0.1));
        assert_eq!(hits.len(), 1, "velocity {velocity}");
        let (t, speed) = hits[0];
        assert_eq!(t, 0.010, "velocity {velocity}");
        let expected = action.settings().strike_speed(velocity);
        assert!(
            (speed - expected).abs() < 1e-9 * expected,
            "{speed} vs {expected}"
        );
    }
    let s = ActionSettings::default();
    assert_eq!(s.strike_speed(1), s.velocity.softest_speed_m_s);
    assert!((s.strike_speed(127) - s.velocity.hardest_speed_m_s).abs() < 1e-12);
    assert!((1..127).all(|v| s.strike_speed(v + 1) > s.strike_speed(v)));
}

/// With realistic travel the jack's stroke takes tens of milliseconds, longer
/// for soft notes, and still delivers the curve's speed.
#[test]
fn realistic_travel_takes_the_time_of_the_stroke() {
    let settings = realistic();
    let mut delays = Vec::new();
    for velocity in [20u8, 64, 127] {
        let mut action = Action::new(settings);
        press(&mut action, 0.0, velocity);
        let hits = strikes(&run(&mut action, 0.0, 0.5));
        assert_eq!(hits.len(), 1);
        let expected = settings.strike_speed(velocity);
        assert!((hits[0].1 - expected).abs() < 1e-9 * expected);
        delays.push(hits[0].0);
    }
    assert!(delays.windows(2).all(|w| w[0] > w[1]), "{delays:?}");
    assert!(delays[2] > 0.010 && delays[0] > 0.050, "{delays:?}");
}

/// A realistic action re-struck after the key has risen past the repetition
/// point strikes again, sooner than from rest (the hammer starts from near the
/// check); pressed again too early it does not. The default action always
/// repeats.
#[test]
fn repetition_needs_the_key_to_rise_in_a_realistic_action() {
    let settings = realistic();
    let first_delay = {
        let mut action = Action::new(settings);
        press(&mut action, 0.0, 64);
        strikes(&run(&mut action, 0.0, 0.3))[0].0
    };
    for (gap, repeats) in [(0.030, true), (0.005, false)] {
        let mut action = Action::new(settings);
        press(&mut action, 0.0, 64);
        release(&mut action, 0.200);
        press(&mut action, 0.200 + gap, 64);
        let hits = strikes(&run(&mut action, 0.0, 0.6));
        assert_eq!(
            hits.len(),
            if repeats { 2 } else { 1 },
            "gap {gap} s: {hits:?}"
        );
        if repeats {
            let second_delay = hits[1].0 - (0.200 + gap);
            assert!(
                second_delay < first_delay,
                "{second_delay} vs {first_delay}"
            );
        }
    }
    let mut action = Action::new(ActionSettings::default());
    press(&mut action, 0.0, 64);
    release(&mut action, 0.100);
    press(&mut action, 0.102, 64);
    assert_eq!(strikes(&run(&mut action, 0.0, 0.2)).len(), 2);
}

/// Dampers lift with the key and fall on release; the sustain pedal holds them
/// up in proportion to its depth; sostenuto holds only the keys down when it was
/// pressed.
#[test]
fn dampers_follow_keys_and_pedals() {
    let mut action = Action::new(ActionSettings::default());
    assert_eq!(action.damper(C4), Some(1.0));
    press(&mut action, 0.0, 64);
    run(&mut action, 0.0, 0.02);
    assert_eq!(action.damper(C4), Some(0.0));
    release(&mut action, 0.02);
    run(&mut action, 0.02, 0.05);
    assert_eq!(action.damper(C4), Some(1.0));

    // Half pedal: half damping after release.
    action.command(0.05, ActionCommand::Sustain(0.5));
    press(&mut action, 0.05, 64);
    release(&mut action, 0.07);
    run(&mut action, 0.05, 0.1);
    assert!((action.damper(C4).unwrap() - 0.5).abs() < 1e-12);
    action.command(0.1, ActionCommand::Sustain(1.0));
    run(&mut action, 0.1, 0.12);
    assert_eq!(action.damper(C4), Some(0.0));
    action.command(0.12, ActionCommand::Sustain(0.0));
    run(&mut action, 0.12, 0.14);
    assert_eq!(action.damper(C4), Some(1.0));

    // Sostenuto: C4 held when it goes down keeps its damper up after release;
    // E4 pressed afterwards is damped on release.
    let e4 = C4 + 4;
    press(&mut action, 0.14, 64);
    action.command(0.15, ActionCommand::Sostenuto(true));
    action.command(
        0.16,
        ActionCommand::KeyDown {
            note: e4,
            velocity: 64,
        },
    );
    release(&mut action, 0.17);
    action.command(
        0.17,
        ActionCommand::KeyUp {
            note: e4,
            velocity: 0.5,
        },
    );
    run(&mut action, 0.14, 0.2);
    assert_eq!(action.damper(C4), Some(0.0));
    assert_eq!(action.damper(e4), Some(1.0));
    action.command(0.2, ActionCommand::Sostenuto(false));
    run(&mut action, 0.2, 0.22);
    assert_eq!(action.damper(C4), Some(1.0));

    action.command(0.22, ActionCommand::UnaCorda(0.8));
    run(&mut action, 0.22, 0.23);
    assert_eq!(action.una_corda(), 0.8);
    assert_eq!(action.property("pedals:una_corda"), Some(0.8));
}

/// Save → advance → restore → advance repeats bit for bit in the middle of a
/// flight.
#[test]
fn save_and_restore_are_bit_identical() {
    let settings = realistic();
    let mut action = Action::new(settings);
    press(&mut action, 0.0, 90);
    run(&mut action, 0.0, 0.02);
    let saved = action.save_state();
    let mut first = action.clone();
    let a = run(&mut first, 0.02, 0.1);
    action.restore_state(&saved);
    action.initialize(0.02);
    let b = run(&mut action, 0.02, 0.1);
    assert_eq!(a, b);
    assert_eq!(first.save_state(), action.save_state());
}

#[test]
fn settings_are_edited_by_the_presets_paths_within_its_ranges() {
    let grand = Preset::default_grand();
    let mut mechanics = GrandPiano.mechanics(&grand);
    mechanics
        .set_property("hammers:start_gap_m", 0.003)
        .unwrap();
    assert_eq!(mechanics.property("hammers:start_gap_m"), Some(0.003));
    let (min, max) = grand.property_info("hammers:start_gap_m").unwrap().range;
    assert_eq!(
        mechanics.set_property("hammers:start_gap_m", 0.5),
        Err(PropertyError::OutOfRange {
            path: "hammers:start_gap_m".into(),
            value: 0.5,
            min,
            max,
        })
    );
    assert!(
        mechanics
            .set_property("hammers:start_gap_m", f64::NAN)
            .is_err()
    );
    assert_eq!(
        mechanics.set_property("action:colour", 1.0),
        Err(PropertyError::UnknownPath("action:colour".into()))
    );
    // The pedals are the player's: read, never set.
    assert_eq!(mechanics.property("pedals:sustain"), Some(0.0));
    assert!(mechanics.set_property("pedals:sustain", 1.0).is_err());
    let mut action = Action::new(ActionSettings::default());
    assert!(!action.command(f64::NAN, ActionCommand::Sustain(1.0)));
    // Keys outside the keyboard are ignored.
    assert!(action.command(
        0.0,
        ActionCommand::KeyDown {
            note: 5,
            velocity: 64
        }
    ));
    assert!(strikes(&run(&mut action, 0.0, 0.01)).is_empty());
}

/// A rebound reported by the strings' side replaces the restitution model: the
/// hammer falls from the string at the measured speed, from the reported time.
#[test]
fn a_measured_rebound_sets_the_fall() {
    let settings = ActionSettings::default();
    let mut action = Action::new(settings);
    press(&mut action, 0.0, 64);
    run(&mut action, 0.0, 0.003);
    action.command(
        0.003,
        ActionCommand::Rebound {
            note: C4,
            speed: 0.8,
        },
    );
    run(&mut action, 0.003, 0.008);
    let dt = 0.005;
    let fallen = 0.8 * dt + 0.5 * 9.81 * dt * dt;
    let expected = (settings.blow_distance - fallen) / settings.blow_distance;
    let travel = action.hammer_travel(C4).unwrap();
    assert!((travel - expected).abs() < 1e-9, "{travel} vs {expected}");
    // Nonsense is ignored.
    action.command(
        0.008,
        ActionCommand::Rebound {
            note: C4,
            speed: f64::NAN,
        },
    );
    run(&mut action, 0.008, 0.009);
    assert!(action.hammer_travel(C4).unwrap().is_finite());
}

/// A key let up fast drops its damper sooner than one let up slowly: the
/// release velocity sets how fast the key rises and the damper lands.
#[test]
fn release_velocity_sets_how_soon_the_damper_lands() {
    let landing = |velocity: f64| {
        let mut action = Action::new(ActionSettings::default());
        press(&mut action, 0.0, 64);
        run(&mut action, 0.0, 0.05);
        action.command(0.05, ActionCommand::KeyUp { note: C4, velocity });
        let mut t = 0.05;
        while action.damper(C4) != Some(1.0) {
            run(&mut action, t, t + 1e-3);
            t += 1e-3;
            assert!(t < 1.0, "the damper never landed");
        }
        t - 0.05
    };
    let (fast, usual, slow) = (landing(1.0), landing(0.5), landing(0.1));
    let travel = ActionSettings::default().damper_travel_s;
    assert!((usual - travel).abs() < 1.5e-3, "{usual} vs {travel}");
    assert!(
        fast < 0.6 * usual && slow > 3.0 * usual,
        "{fast} {usual} {slow}"
    );
}
