//! Gelsey's chiming clock and escapement variants (Gelsey, "Automated
//! reasoning about machines", Artificial Intelligence 74, 1995, Section 3.3,
//! Figs. 26–28) simulated and analysed as `orchard analyze` does: the chime
//! as a process periodically superimposed on the escapement's pattern, the
//! swing shrinking as the mainspring runs down, the missing tooth's pattern
//! of a full revolution and the large tooth's jam.

use std::f64::consts::TAU;

use orchard_engine::mech::long_term::{
    GradualEffect, LongTermParams, LongTermReport, Trace, analyze,
};
use orchard_engine::mech::mechanism::{Mechanism, MechanismDescription, builtin, record};

/// The description of built-in mechanism `name`, its trace over its own
/// analysis duration, and the analysis of that trace.
fn run(name: &str) -> (MechanismDescription, Trace, LongTermReport) {
    let d = MechanismDescription::from_toml(builtin(name).unwrap()).unwrap();
    let duration_s = d
        .analysis_duration_s
        .expect("the preset says how long to run");
    let trace = record::record(Mechanism::new(&d).unwrap(), duration_s).unwrap();
    let report = analyze(&trace, &LongTermParams::default()).unwrap();
    (d, trace, report)
}

/// Index of the variable called `name`.
fn index(trace: &Trace, name: &str) -> usize {
    trace
        .variables()
        .iter()
        .position(|v| v.name == name)
        .unwrap_or_else(|| panic!("no variable {name}"))
}

/// Value of variable `j` at time `t_s` (the sample at or after it).
fn at(trace: &Trace, j: usize, t_s: f64) -> f64 {
    let i = trace.times_s().partition_point(|&t| t < t_s);
    trace.sample(i.min(trace.len() - 1))[j]
}

/// Peak-to-peak swing of variable `j` over `[from_s, to_s)`.
fn swing(trace: &Trace, j: usize, from_s: f64, to_s: f64) -> f64 {
    let (lo, hi) = (0..trace.len())
        .filter(|&i| (from_s..to_s).contains(&trace.times_s()[i]))
        .map(|i| trace.sample(i)[j])
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    hi - lo
}

/// Teeth on the standard escape wheel (escapement.toml's pattern).
const TEETH: f64 = 10.0;

#[test]
fn the_chime_is_a_process_superimposed_once_per_turn_of_the_large_gear() {
    let (d, trace, report) = run("gelsey-chime");
    let r = report.regularity().unwrap_or_else(|| panic!("{report}"));
    let wheel = index(&trace, "wheel position");
    // The basic pattern is the escapement's: one tooth per cycle.
    assert!(
        (r.changes[wheel].per_cycle + TAU / TEETH).abs() < 1e-3,
        "{report}"
    );

    let [chime] = report.superimposed() else {
        panic!("one superimposed process expected: {report}");
    };
    // Once per turn of the large gear: 1/|ratio| turns of the escape wheel,
    // each of TEETH cycles. Each start comes at the same angle of the wheel,
    // so a whole number of cycles apart; the cycle's duration varies within
    // P_t_match (1 %) along the run as the swing shrinks, and each start is
    // placed on a 5 ms sample.
    let ratio = d.gears[0].ratio;
    let expected_s = TEETH / ratio.abs() * r.period_s;
    let period_s = chime.period_s.unwrap_or_else(|| panic!("{report}"));
    assert!(
        (period_s - expected_s).abs() <= 0.01 * expected_s + 0.01,
        "period {period_s} s vs {expected_s} s: {report}"
    );
    // Seen at least twice, so the period was measured.
    assert!(chime.instances >= 2, "{report}");
    // It runs for a while, shorter than its period, and first starts after
    // the escapement's pattern was established, within a turn of the gear.
    assert!(
        chime.duration_s > r.period_s && chime.duration_s < period_s / 2.0,
        "{report}"
    );
    assert!(
        chime.first_start_s > r.start_s && chime.first_start_s < r.start_s + period_s,
        "{report}"
    );
    // The first start is where the clapper first leaves the chime: its
    // position moves away from its rest, found here independently.
    let clapper = index(&trace, "clapper position");
    let rest = at(&trace, clapper, r.start_s);
    let leaves = (0..trace.len())
        .find(|&i| (trace.sample(i)[clapper] - rest).abs() > 1e-4)
        .map(|i| trace.times_s()[i])
        .unwrap();
    assert!(
        (chime.first_start_s - leaves).abs() <= 0.02,
        "first start {} s, clapper leaves at {leaves} s",
        chime.first_start_s
    );
    // The clapper, and only it, is involved, and returns to the chime.
    for (j, v) in trace.variables().iter().enumerate() {
        assert_eq!(chime.involved[j], v.name.starts_with("clapper"), "{report}");
    }
    assert!(chime.net_change.iter().all(|&c| c == 0.0), "{report}");
    let text = report.to_string();
    assert!(text.contains("superimposed process every "), "{text}");
    assert!(
        text.contains("clapper position, clapper velocity return to where they were"),
        "{text}"
    );
}

#[test]
fn the_balance_swing_shrinks_as_the_mainspring_runs_down() {
    let (_, trace, report) = run("gelsey-chime");
    let r = report.regularity().unwrap_or_else(|| panic!("{report}"));
    let balance = index(&trace, "balance position");
    // Measured on the trace: the swing over the last three cycles against the
    // first three after the start-up.
    let early = swing(&trace, balance, r.start_s, r.start_s + 3.0 * r.period_s);
    let late = swing(&trace, balance, r.end_s - 3.0 * r.period_s, r.end_s);
    assert!(late < 0.95 * early, "swing {early} rad, then {late} rad");
    // Reported as a gradual effect: the balance's position at each cycle
    // start (a turning point) drifts towards the middle of its swing.
    let (per_cycle, total) = r
        .gradual
        .iter()
        .find_map(|g| match *g {
            GradualEffect::Variable {
                index,
                per_cycle,
                total,
                ..
            } if index == balance => Some((per_cycle, total)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no drift of the balance: {report}"));
    let start = at(&trace, balance, r.start_s);
    let middle = {
        let (lo, hi) = (start - early, start + early);
        // The cycle starts at one end of the swing: the middle lies half a
        // swing towards the other end.
        let other = if (at(&trace, balance, r.start_s + r.period_s / 2.0) - lo).abs()
            < (at(&trace, balance, r.start_s + r.period_s / 2.0) - hi).abs()
        {
            lo
        } else {
            hi
        };
        (start + other) / 2.0
    };
    assert!(
        per_cycle * (middle - start) > 0.0 && total * (middle - start) > 0.0,
        "{report}"
    );
    // The drift over the run is half the loss of swing (one end of it),
    // within a quarter.
    let loss = early - late;
    assert!(
        (total.abs() - loss / 2.0).abs() < 0.25 * loss,
        "drift {total} rad, swing lost {loss} rad: {report}"
    );
}

#[test]
fn the_missing_tooth_gives_a_pattern_of_a_full_revolution() {
    let (_, trace, report) = run("escapement-missing-tooth");
    let r = report.regularity().unwrap_or_else(|| panic!("{report}"));
    let wheel = index(&trace, "wheel position");
    // Gelsey: the initially successful hypothesis fails before the wheel has
    // turned once, then a pattern whose wheel displacement is one full
    // revolution is confirmed.
    let first = report.broken.first().unwrap_or_else(|| panic!("{report}"));
    let turned = at(&trace, wheel, first.until_s) - at(&trace, wheel, first.from_s);
    assert!(turned.abs() < TAU, "{report}");
    // The wheel locks at the same tooth after a revolution.
    assert!((r.changes[wheel].per_cycle + TAU).abs() < 1e-3, "{report}");
    assert!(r.cycles >= 2, "{report}");
    // A revolution lasts a whole number of balance periods (the escapement's
    // cycle, within 1 % of the balance's damped period 7.366 s).
    let balance_periods = r.period_s / 7.366;
    assert!(
        (balance_periods - balance_periods.round()).abs() < 0.01 * balance_periods,
        "{report}"
    );
    assert!(
        balance_periods.round() < TEETH,
        "fewer beats than teeth: {report}"
    );
    assert!(
        report
            .to_string()
            .contains("wheel position advances 360° per cycle (clockwise)"),
        "{report}"
    );
}

#[test]
fn the_large_tooth_jams_the_escapement_before_a_revolution() {
    let (_, trace, report) = run("escapement-large-tooth");
    assert!(!report.is_regular(), "{report}");
    let stop = report.stop.unwrap_or_else(|| panic!("no stop: {report}"));
    let wheel = index(&trace, "wheel position");
    // The standard pattern held, then broke before a full revolution...
    let first = report.broken.first().unwrap_or_else(|| panic!("{report}"));
    assert!(first.until_s < stop.from_s, "{report}");
    assert!(at(&trace, wheel, first.until_s).abs() < TAU, "{report}");
    // ...and the wheel never advanced again: less than one tooth from the
    // break to the end, and the whole mechanism at rest for good.
    let end = trace.sample(trace.len() - 1)[wheel];
    assert!(
        (end - at(&trace, wheel, first.until_s)).abs() < TAU / TEETH,
        "{report}"
    );
    let energy = trace.kinetic_energy_j();
    let peak = energy.iter().fold(0.0f64, |m, &e| m.max(e));
    let from = trace.times_s().partition_point(|&t| t < stop.from_s);
    assert!(energy[from..].iter().all(|&e| e <= 1e-6 * peak));
    assert!(stop.until_s - stop.from_s > 2.0 * 7.366, "{report}");
    let text = report.to_string();
    assert!(text.starts_with("stopped: at rest from "), "{text}");
    assert!(!text.contains("a longer run may confirm"), "{text}");
}
