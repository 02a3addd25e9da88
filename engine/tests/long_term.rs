//! Long-term behaviour analysis (Gelsey's Section 3) on synthetic traces whose
//! cycle, minima per cycle and per-cycle changes are known.

use std::f64::consts::{PI, TAU};

use orchard_engine::mech::long_term::{
    GradualEffect, Insufficiency, LongTermParams, Trace, TraceError, Unit, Variable, Verdict,
    analyze,
};

/// Sampling interval of the synthetic traces, s.
const DT: f64 = 1e-3;
/// Moments of inertia of the balance and escape wheel, kg m².
const BALANCE_INERTIA: f64 = 2e-6;
const WHEEL_INERTIA: f64 = 5e-7;

fn escapement_variables() -> Vec<Variable> {
    vec![
        Variable::new("balance", Unit::Radian),
        Variable::new("escape wheel", Unit::Radian),
    ]
}

/// An escapement's kinematics, analytically: the balance swings
/// `θ0 cos(2π t / D)`, and the escape wheel advances `step / 2` smoothly during
/// each half swing, at rest where the balance turns. The kinetic energy is zero
/// exactly at the two turning points of each cycle, so `M = 2`, `D = period_s`
/// and `A = (0, step)`. `period_at(t)` lets the period drift.
fn escapement(
    duration_s: f64,
    theta0: f64,
    step_at: impl Fn(f64) -> f64,
    cycles_at: impl Fn(f64) -> (f64, f64),
) -> Trace {
    let samples = (duration_s / DT) as usize;
    let mut trace = Trace::with_capacity(escapement_variables(), samples);
    let mut wheel = 0.0;
    let mut previous_cycles = 0.0;
    for i in 0..samples {
        let t = i as f64 * DT;
        // Cycles completed by t, and their rate (1/s).
        let (p, rate) = cycles_at(t);
        let balance = theta0 * (TAU * p).cos();
        let balance_rate = -theta0 * TAU * rate * (TAU * p).sin();
        // Half swings completed: u; the wheel moves as (u − sin(2πu)/2π).
        let step = step_at(t);
        let u = 2.0 * p;
        let u_prev = 2.0 * previous_cycles;
        let shape = |u: f64| u - (TAU * u).sin() / TAU;
        wheel += step / 2.0 * (shape(u) - shape(u_prev));
        previous_cycles = p;
        let wheel_rate = step / 2.0 * 2.0 * rate * (1.0 - (TAU * u).cos());
        let energy =
            0.5 * BALANCE_INERTIA * balance_rate.powi(2) + 0.5 * WHEEL_INERTIA * wheel_rate.powi(2);
        trace.push(t, &[balance, wheel], energy).unwrap();
    }
    trace
}

/// A constant period: `t / period_s` cycles at `1 / period_s` per second.
fn steady(period_s: f64) -> impl Fn(f64) -> (f64, f64) {
    move |t| (t / period_s, 1.0 / period_s)
}

fn report_of(trace: &Trace) -> orchard_engine::mech::long_term::LongTermReport {
    analyze(trace, &LongTermParams::default()).unwrap()
}

#[test]
fn escapement_kinematics_give_two_minima_its_period_and_the_wheel_step() {
    let period_s = 0.73;
    let step = 12f64.to_radians();
    let trace = escapement(20.0, 0.8, |_| step, steady(period_s));
    let report = report_of(&trace);
    let r = report.regularity().unwrap_or_else(|| panic!("{report}"));
    assert_eq!(r.minima_per_cycle, 2, "{report}");
    // D is the mean over N cycles of cycle starts each placed on a sample, so
    // within one sampling interval at either end: 2 DT / N.
    let tolerance_s = 2.0 * DT / r.cycles as f64;
    assert!((r.period_s - period_s).abs() <= tolerance_s, "{report}");
    assert!(r.cycles >= 20, "{report}");
    // The wheel is at rest at a cycle start, so sampling barely moves it.
    assert!((r.changes[1].per_cycle - step).abs() < 1e-4, "{report}");
    assert!(!r.changes[1].repeats);
    assert!(r.changes[0].per_cycle.abs() < 1e-4, "{report}");
    assert!(r.changes[0].repeats);
    assert!(r.gradual.is_empty(), "{report}");
    assert!(report.broken.is_empty());
    let text = report.to_string();
    assert!(
        text.starts_with("regular: period 0.730 s, 2 kinetic-energy minima per cycle"),
        "{text}"
    );
    assert!(
        text.contains("escape wheel advances 12.0° per cycle"),
        "{text}"
    );
    assert!(text.contains("balance repeats each cycle"), "{text}");
}

/// `trace` with deterministic noise: uniform in ±`state_noise` on every value
/// and ±`energy_noise` J on the kinetic energy (kept non-negative).
fn noisy(trace: &Trace, state_noise: f64, energy_noise: f64) -> Trace {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut uniform = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let mut out = Trace::with_capacity(trace.variables().to_vec(), trace.len());
    for i in 0..trace.len() {
        let values: Vec<f64> = trace
            .sample(i)
            .iter()
            .map(|v| v + state_noise * uniform())
            .collect();
        let energy = (trace.kinetic_energy_j()[i] + energy_noise * uniform()).max(0.0);
        out.push(trace.times_s()[i], &values, energy).unwrap();
    }
    out
}

#[test]
fn numerical_noise_does_not_add_minima_or_break_the_cycle() {
    let period_s = 0.73;
    let step = 12f64.to_radians();
    let clean = escapement(20.0, 0.8, |_| step, steady(period_s));
    let peak_j = clean
        .kinetic_energy_j()
        .iter()
        .fold(0.0f64, |m, &e| m.max(e));
    // Noise of 0.1 % of the energy range: near a turning point, where the
    // energy grows as (2π Δt / D)² of the range (the balance dominates), it
    // hides the minimum within |Δt| < √0.002 D / 2π ≈ 5 ms.
    let trace = noisy(&clean, 1e-5, 1e-3 * peak_j);
    let report = report_of(&trace);
    let r = report.regularity().unwrap_or_else(|| panic!("{report}"));
    assert_eq!(r.minima_per_cycle, 2, "{report}");
    let tolerance_s = 2.0 * (0.005 + DT) / r.cycles as f64;
    assert!((r.period_s - period_s).abs() <= tolerance_s, "{report}");
    assert!((r.changes[1].per_cycle - step).abs() < 1e-3, "{report}");
    assert!(r.changes[0].repeats, "{report}");

    // Counting every wiggle (Gelsey's rule alone) finds no cycle.
    let params = LongTermParams {
        minimum_prominence: 0.0,
        ..LongTermParams::default()
    };
    assert!(!analyze(&trace, &params).unwrap().is_regular());
}

/// A damped oscillator kicked at each upward zero crossing, as a balance is by
/// its escapement, and a counter advanced by each kick. Integrated with RK4 at
/// `DT / SUBSTEPS`, sampled every `DT`.
const SUBSTEPS: usize = 100;

struct Kicked {
    omega: f64,
    zeta: f64,
    kick: f64,
    step: f64,
}

impl Kicked {
    /// Free oscillation between kicks: zero crossings `π / ω_d` apart whatever
    /// the amplitude, and a kick at a crossing does not move the next one, so
    /// the period is `2π / ω_d` exactly.
    fn period_s(&self) -> f64 {
        TAU / (self.omega * (1.0 - self.zeta * self.zeta).sqrt())
    }

    fn run(&self, x0: f64, v0: f64, duration_s: f64) -> Trace {
        let variables = vec![
            Variable::new("balance", Unit::Radian),
            Variable::new("counter", Unit::Other("teeth".into())),
        ];
        let mut trace = Trace::new(variables);
        let (mut x, mut v, mut count) = (x0, v0, 0.0);
        let h = DT / SUBSTEPS as f64;
        let accel = |x: f64, v: f64| -2.0 * self.zeta * self.omega * v - self.omega.powi(2) * x;
        let samples = (duration_s / DT) as usize;
        for i in 0..samples {
            trace.push(i as f64 * DT, &[x, count], 0.5 * v * v).unwrap();
            for _ in 0..SUBSTEPS {
                let (k1x, k1v) = (v, accel(x, v));
                let (k2x, k2v) = (
                    v + h / 2.0 * k1v,
                    accel(x + h / 2.0 * k1x, v + h / 2.0 * k1v),
                );
                let (k3x, k3v) = (
                    v + h / 2.0 * k2v,
                    accel(x + h / 2.0 * k2x, v + h / 2.0 * k2v),
                );
                let (k4x, k4v) = (v + h * k3v, accel(x + h * k3x, v + h * k3v));
                let next = x + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
                v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
                if x < 0.0 && next >= 0.0 {
                    v += self.kick;
                    count += self.step;
                }
                x = next;
            }
        }
        trace
    }
}

#[test]
fn a_kicked_damped_oscillator_settles_into_its_period_and_counts_one_step_per_cycle() {
    let osc = Kicked {
        omega: TAU * 1.3,
        zeta: 0.02,
        kick: 0.5,
        step: 1.0,
    };
    // Start on the limit cycle: at an upward crossing the kick restores what
    // one period of damping took, v = kick / (1 − r).
    let r = (-osc.zeta * osc.omega * osc.period_s()).exp();
    let trace = osc.run(0.0, osc.kick / (1.0 - r), 25.0);
    let report = report_of(&trace);
    let reg = report.regularity().unwrap_or_else(|| panic!("{report}"));
    assert_eq!(reg.minima_per_cycle, 2, "{report}");
    // Cycle starts on samples (±DT at each end of the averaged span): within
    // 2 DT / N. A kick comes up to one integration step late, after the
    // crossing, which shortens every period by under 12 % of DT / SUBSTEPS
    // (the kick raises the speed by 12 %): another 0.12 DT / 100 per cycle.
    let tolerance_s = 2.0 * DT / reg.cycles as f64 + 0.12 * DT / SUBSTEPS as f64;
    assert!(
        (reg.period_s - osc.period_s()).abs() <= tolerance_s,
        "{report} vs {}",
        osc.period_s()
    );
    assert_eq!(reg.changes[1].per_cycle, 1.0, "{report}");
    assert!(reg.changes[0].repeats, "{report}");
    assert!(reg.gradual.is_empty(), "{report}");
    assert!(
        report
            .to_string()
            .contains("counter advances 1.00 teeth per cycle"),
        "{report}"
    );
}

#[test]
fn a_slowly_decaying_amplitude_is_a_gradual_effect() {
    // No kicks: the swing shrinks by exp(−2πζ/√(1−ζ²)) ≈ 1.25 % per cycle,
    // below one cycle's tolerance (2 % of a swing of twice the amplitude).
    let osc = Kicked {
        omega: TAU,
        zeta: 0.002,
        kick: 0.0,
        step: 0.0,
    };
    let trace = osc.run(1.0, 0.0, 40.0);
    let report = report_of(&trace);
    let reg = report.regularity().unwrap_or_else(|| panic!("{report}"));
    assert_eq!(reg.minima_per_cycle, 2, "{report}");
    assert!(
        (reg.period_s - osc.period_s()).abs() <= 2.0 * DT / reg.cycles as f64,
        "{report}"
    );
    let drift = reg
        .gradual
        .iter()
        .find_map(|g| match *g {
            GradualEffect::Variable {
                index: 0,
                per_cycle,
                total,
                ..
            } => Some((per_cycle, total)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no gradual effect on the balance: {report}"));
    // Each cycle starts at a turning point, amplitude decaying by 1.25 % per
    // cycle: the drift is towards zero and about 1.25 % of the value there.
    let start = trace.sample((reg.start_s / DT).round() as usize)[0];
    assert!(drift.0 * start < 0.0 && drift.1 * start < 0.0, "{report}");
    assert!(
        drift.0.abs() < 0.02 * start.abs() && drift.0.abs() > 0.005 * start.abs(),
        "{report}"
    );
    assert!(!reg.changes[0].repeats);
    assert!(
        report
            .to_string()
            .contains("gradual: balance at each cycle start drifts"),
        "{report}"
    );
}

#[test]
fn a_steady_oscillator_has_no_gradual_effect_but_a_lengthening_period_has() {
    let step = 12f64.to_radians();
    let steady_trace = escapement(30.0, 0.8, |_| step, steady(0.6));
    assert!(
        report_of(&steady_trace)
            .regularity()
            .unwrap()
            .gradual
            .is_empty()
    );

    // Period D0 (1 + β t), growing 0.2 % per cycle: cycles ln(1 + βt) / (β D0).
    let (d0, beta) = (0.6, 0.002 / 0.6);
    let chirp = move |t: f64| {
        (
            (1.0 + beta * t).ln() / (beta * d0),
            1.0 / (d0 * (1.0 + beta * t)),
        )
    };
    let report = report_of(&escapement(30.0, 0.8, |_| step, chirp));
    let reg = report.regularity().unwrap_or_else(|| panic!("{report}"));
    let (early_s, late_s) = reg
        .gradual
        .iter()
        .find_map(|g| match *g {
            GradualEffect::Period { early_s, late_s } => Some((early_s, late_s)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no gradual period change: {report}"));
    assert!(late_s > early_s * 1.02, "{report}");
    assert!(
        report.to_string().contains("gradual: period drifts from"),
        "{report}"
    );
}

#[test]
fn a_sudden_change_of_the_wheel_step_breaks_the_pattern() {
    let step = 12f64.to_radians();
    let trace = escapement(
        20.0,
        0.8,
        |t| if t < 17.5 { step } else { step / 2.0 },
        steady(0.73),
    );
    let report = report_of(&trace);
    assert!(!report.is_regular(), "{report}");
    assert_eq!(report.broken.len(), 1, "{report}");
    assert_eq!(report.broken[0].minima_per_cycle, 2);
    assert!((17.0..17.6).contains(&report.broken[0].until_s), "{report}");
    assert!(
        report
            .to_string()
            .starts_with("not regular: a pattern of 2 kinetic-energy minima held from"),
        "{report}"
    );
}

/// Half swings of chaotic duration and amplitude: the logistic map at r = 4.
#[test]
fn chaotic_swings_are_not_regular() {
    let mut trace = Trace::new(vec![Variable::new("pendulum", Unit::Radian)]);
    let (mut x, mut y) = (0.3f64, 0.6f64);
    let mut t = 0.0;
    let mut from = 0.5;
    for h in 0..200 {
        x = 4.0 * x * (1.0 - x);
        y = 4.0 * y * (1.0 - y);
        let duration = 0.5 + 0.5 * x;
        let to = if h % 2 == 0 { -(0.5 + y) } else { 0.5 + y };
        let samples = (duration / DT) as usize;
        for i in 0..samples {
            let phase = PI * i as f64 / samples as f64;
            let angle = (from + to) / 2.0 + (from - to) / 2.0 * phase.cos();
            let rate = -(from - to) / 2.0 * phase.sin() * PI / duration;
            trace.push(t, &[angle], 0.5 * rate * rate).unwrap();
            t += DT;
        }
        from = to;
    }
    let report = report_of(&trace);
    assert!(
        matches!(report.verdict, Verdict::NotRegular { .. }),
        "{report}"
    );
    assert!(report.minima > 150, "{report}");
    assert!(
        report
            .to_string()
            .starts_with("not regular: no pattern of up to 32"),
        "{report}"
    );
}

#[test]
fn too_little_data_is_reported_not_panicked_on() {
    let step = 12f64.to_radians();
    // Two seconds: under three cycles, six minima of which four are skipped.
    let short = report_of(&escapement(2.0, 0.8, |_| step, steady(0.73)));
    assert!(
        matches!(
            short.verdict,
            Verdict::InsufficientData(Insufficiency::TooFewMinima { needed: 4, .. })
        ),
        "{short}"
    );
    assert!(
        short.to_string().starts_with("insufficient data:"),
        "{short}"
    );

    let mut tiny = Trace::new(escapement_variables());
    assert!(matches!(
        report_of(&tiny).verdict,
        Verdict::InsufficientData(Insufficiency::TooFewSamples(0))
    ));
    for i in 0..100 {
        tiny.push(i as f64 * DT, &[0.1, 0.2], 1.0).unwrap();
    }
    let constant = report_of(&tiny);
    assert_eq!(
        constant.verdict,
        Verdict::InsufficientData(Insufficiency::ConstantEnergy)
    );
    assert!(constant.to_string().contains("constant"));

    let empty = Trace::new(Vec::new());
    assert!(!report_of(&empty).is_regular());
}

#[test]
fn bad_samples_and_parameters_are_errors() {
    let mut trace = Trace::new(escapement_variables());
    trace.push(0.0, &[0.0, 0.0], 0.0).unwrap();
    let nan = trace.push(0.1, &[f64::NAN, 0.0], 0.0).unwrap_err();
    assert!(nan.to_string().contains("balance"), "{nan}");
    assert!(matches!(
        trace.push(0.0, &[0.0, 0.0], 0.0),
        Err(TraceError::TimeNotIncreasing { .. })
    ));
    assert!(matches!(
        trace.push(0.2, &[0.0], 0.0),
        Err(TraceError::WrongCount {
            expected: 2,
            got: 1
        })
    ));
    assert!(matches!(
        trace.push(0.2, &[0.0, 0.0], -1.0),
        Err(TraceError::NegativeEnergy { .. })
    ));
    assert!(trace.push(0.2, &[0.0, 0.0], f64::INFINITY).is_err());
    assert_eq!(
        trace.len(),
        1,
        "rejected samples must leave the trace unchanged"
    );

    let params = LongTermParams {
        energy_range_fraction: f64::NAN,
        ..LongTermParams::default()
    };
    let err = analyze(&trace, &params).unwrap_err();
    assert!(err.to_string().contains("energy_range_fraction"), "{err}");
}
