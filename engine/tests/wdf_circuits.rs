//! Wave-digital circuits against independent solutions of the same physics.

use std::f64::consts::PI;

use orchard_engine::wdf::description::{
    capacitor, inductor, parallel, resistor, series, voltage_source,
};
use orchard_engine::wdf::{Bct, Element, TreeDescription, TreeError, WaveTableau};

#[global_allocator]
static ALLOCATOR: nice_assert_no_alloc::AllocDisabler = nice_assert_no_alloc::AllocDisabler;

const FS: f64 = 48_000.0;
const IS: f64 = 2.52e-9;
const VT: f64 = 0.025_85;

fn input(n: usize) -> f64 {
    2.0 * (2.0 * PI * 100.0 * n as f64 / FS).sin()
}

/// A resistive source driving a capacitor in series (the capacitor turned to face
/// the source), closed by a short at the root.
fn rc_lowpass(r: f64, c: f64) -> TreeDescription {
    TreeDescription::new(
        "short",
        Element::Short,
        series([voltage_source("Vin", r), capacitor("C", c).inverted()]),
    )
}

fn diode_clipper() -> TreeDescription {
    TreeDescription::new(
        "diodes",
        Element::DiodePair {
            saturation_amps: IS,
            thermal_volts: VT,
        },
        parallel([voltage_source("Vin", 4_700.0), capacitor("C", 47e-9)]),
    )
}

#[test]
fn rc_lowpass_equals_the_bilinear_recursion() {
    let (r, c) = (1_000.0, 100e-9);
    let mut tree = Bct::new(&rc_lowpass(r, c), FS).unwrap();
    let (vin, cap) = (tree.source("Vin").unwrap(), tree.leaf("C").unwrap());
    let k = 2.0 * FS * r * c;
    let (mut reference, mut x_prev) = (0.0, 0.0);
    let mut worst: f64 = 0.0;
    for n in 0..100_000 {
        let x = input(n);
        tree.set_source(vin, x);
        tree.tick();
        reference = ((k - 1.0) * reference + x + x_prev) / (k + 1.0);
        x_prev = x;
        worst = worst.max((tree.voltage(cap) - reference).abs());
    }
    assert!(worst < 1e-12, "largest difference {worst} V");

    // The Wave Tableau's block kernel runs the same circuit to the same precision.
    let mut wt = WaveTableau::new(&rc_lowpass(r, c), FS).unwrap();
    let (vin, cap) = (wt.source("Vin").unwrap(), wt.leaf("C").unwrap());
    let x: Vec<f64> = (0..100_000).map(input).collect();
    let mut y = vec![0.0; x.len()];
    wt.process(vin, &x, cap, &mut y);
    let (mut reference, mut x_prev, mut worst) = (0.0, 0.0, 0.0f64);
    for (&x, &y) in x.iter().zip(&y) {
        reference = ((k - 1.0) * reference + x + x_prev) / (k + 1.0);
        x_prev = x;
        worst = worst.max((y - reference).abs());
    }
    assert!(worst < 1e-12, "wave tableau: largest difference {worst} V");
}

/// The clipper's ODE, C·dv/dt = (x − v)/R − 2·Is·sinh(v/Vt), integrated by the
/// trapezoidal rule with each step's implicit equation solved by bisection to the
/// last bit, independently of the wave-digital code.
fn clipper_reference(samples: usize) -> Vec<f64> {
    let (r, c) = (4_700.0, 47e-9);
    let f = |v: f64, x: f64| (x - v) / r - 2.0 * IS * (v / VT).sinh();
    let mut out = Vec::with_capacity(samples);
    let (mut v, mut x_prev) = (0.0, 0.0);
    for n in 0..samples {
        let x = input(n);
        let known = c * FS * v + 0.5 * f(v, x_prev);
        // g(u) = C·fs·u − f(u, x)/2 − known is increasing in u: bisect.
        let g = |u: f64| c * FS * u - 0.5 * f(u, x) - known;
        let (mut lo, mut hi) = (-10.0f64, 10.0f64);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if g(mid) > 0.0 { hi = mid } else { lo = mid }
        }
        let u = if g(hi).abs() < g(lo).abs() { hi } else { lo };
        v = u;
        x_prev = x;
        out.push(v);
    }
    out
}

#[test]
fn diode_clipper_equals_the_trapezoidal_ode() {
    let samples = 48_000;
    let reference = clipper_reference(samples);
    let mut tree = Bct::new(&diode_clipper(), FS).unwrap();
    let (vin, cap) = (tree.source("Vin").unwrap(), tree.leaf("C").unwrap());
    let x: Vec<f64> = (0..samples).map(input).collect();
    let mut y = vec![0.0; samples];
    tree.process(vin, &x, cap, &mut y);
    let worst = y
        .iter()
        .zip(&reference)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
    assert!(worst < 1e-10, "largest difference {worst} V");
    let mut wt = WaveTableau::new(&diode_clipper(), FS).unwrap();
    let (vin, cap) = (wt.source("Vin").unwrap(), wt.leaf("C").unwrap());
    let mut y_wt = vec![0.0; samples];
    // In two blocks, so that the kernel's hand-over of state is exercised too.
    wt.process(vin, &x[..1000], cap, &mut y_wt[..1000]);
    wt.process(vin, &x[1000..], cap, &mut y_wt[1000..]);
    let worst_wt = y_wt
        .iter()
        .zip(&reference)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
    assert!(
        worst_wt < 1e-10,
        "wave tableau: largest difference {worst_wt} V"
    );
    // And it clips: the diodes hold the output well below the 2 V input.
    let peak = y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(peak > 0.3 && peak < 0.8, "peak {peak} V");
}

#[test]
fn per_sample_equals_per_block_and_reset_equals_fresh() {
    let x: Vec<f64> = (0..5_000).map(input).collect();
    let fresh = || Bct::new(&diode_clipper(), FS).unwrap();
    let mut block_tree = fresh();
    let (vin, cap) = (
        block_tree.source("Vin").unwrap(),
        block_tree.leaf("C").unwrap(),
    );
    let mut block = vec![0.0; x.len()];
    block_tree.process(vin, &x, cap, &mut block);

    let mut sample_tree = fresh();
    let per_sample: Vec<f64> = x
        .iter()
        .map(|&v| {
            sample_tree.set_source(vin, v);
            sample_tree.tick();
            sample_tree.voltage(cap)
        })
        .collect();
    assert!(block == per_sample);

    // Odd block sizes cut anywhere give the same samples.
    let mut chunked_tree = fresh();
    let mut chunked = vec![0.0; x.len()];
    let mut start = 0;
    for size in [1usize, 7, 64, 333, 4096].iter().cycle() {
        if start >= x.len() {
            break;
        }
        let end = (start + size).min(x.len());
        chunked_tree.process(vin, &x[start..end], cap, &mut chunked[start..end]);
        start = end;
    }
    assert!(chunked == block);

    block_tree.reset();
    let mut again = vec![0.0; x.len()];
    block_tree.process(vin, &x, cap, &mut again);
    assert!(again == block, "reset() does not return to a fresh state");
}

/// A DC source behind a divider, with a capacitor across the lower resistor and an
/// inductor in series: started at its operating point it does not move at all.
#[test]
fn dc_operating_point_starts_in_equilibrium() {
    let description = TreeDescription::new(
        "short",
        Element::Short,
        series([
            voltage_source("V", 1_000.0),
            inductor("L", 0.01).inverted(),
            parallel([resistor("R2", 1_000.0), capacitor("C", 1e-6)]).inverted(),
        ]),
    );
    let mut tree = Bct::new(&description, FS).unwrap();
    let (v, c, l) = (
        tree.source("V").unwrap(),
        tree.leaf("C").unwrap(),
        tree.leaf("L").unwrap(),
    );
    tree.set_source(v, 5.0);
    let mut cold = tree.clone();
    tree.settle_to_dc().unwrap();
    for _ in 0..1_000 {
        tree.tick();
        assert!((tree.voltage(c) - 2.5).abs() < 1e-12, "{}", tree.voltage(c));
        assert!(tree.voltage(l).abs() < 1e-12);
        assert!((tree.current(l).abs() - 2.5e-3).abs() < 1e-12);
    }
    // Without it, the same circuit starts with a transient.
    cold.tick();
    assert!((cold.voltage(c) - 2.5).abs() > 0.1);
}

#[test]
fn dc_operating_point_with_a_nonlinear_root() {
    let mut tree = Bct::new(&diode_clipper(), FS).unwrap();
    let (vin, cap) = (tree.source("Vin").unwrap(), tree.leaf("C").unwrap());
    tree.set_source(vin, 1.0);
    tree.settle_to_dc().unwrap();
    tree.tick();
    let v = tree.voltage(cap);
    // At DC: (1 − v)/R = 2·Is·sinh(v/Vt).
    let residual = (1.0 - v) / 4_700.0 - 2.0 * IS * (v / VT).sinh();
    assert!(residual.abs() < 1e-15, "{v} V, residual {residual} A");
    for _ in 0..100 {
        tree.tick();
        assert!((tree.voltage(cap) - v).abs() < 1e-13);
    }
}

#[test]
fn broken_trees_are_refused_with_the_element_named() {
    let err = |d: TreeDescription| Bct::new(&d, FS).unwrap_err();
    let diode = Element::Diode {
        saturation_amps: IS,
        thermal_volts: VT,
    };

    let e = err(TreeDescription::new(
        "D1",
        diode,
        series([
            resistor("R1", 1.0),
            orchard_engine::wdf::description::element("D2", diode),
        ]),
    ));
    assert!(
        matches!(&e, TreeError::NotAdaptable { name, .. } if name == "D2"),
        "{e}"
    );
    assert!(e.to_string().contains("'D2'") && e.to_string().contains("one nonlinear"));

    let e = err(TreeDescription::new(
        "open",
        Element::Open,
        series([resistor("R1", 1.0), resistor("R1", 2.0)]),
    ));
    assert!(
        matches!(&e, TreeError::DuplicateName(name) if name == "R1"),
        "{e}"
    );

    let e = err(TreeDescription::new(
        "open",
        Element::Open,
        parallel([resistor("R1", 1.0), capacitor("C9", -1e-6)]),
    ));
    assert!(
        e.to_string().contains("'C9'") && e.to_string().contains("capacitance"),
        "{e}"
    );

    let e = err(TreeDescription::new(
        "C0",
        Element::Capacitor { farads: 1e-6 },
        resistor("R", 1.0),
    ));
    assert!(
        matches!(&e, TreeError::BadRoot { name, .. } if name == "C0"),
        "{e}"
    );

    let e = err(TreeDescription::new(
        "open",
        Element::Open,
        series([resistor("Rx", 1.0)]),
    ));
    assert!(e.to_string().contains("'Rx'"), "{e}");

    let e = err(TreeDescription::new(
        "open",
        Element::Open,
        parallel([
            resistor("R1", 1.0),
            resistor("R2", 1.0).through_transformer(0.0),
        ]),
    ));
    assert!(e.to_string().contains("'R2'"), "{e}");

    let tree = Bct::new(&rc_lowpass(1.0, 1.0), FS).unwrap();
    assert!(matches!(tree.source("C"), Err(TreeError::WrongKind { .. })));
    assert!(matches!(
        tree.leaf("nope"),
        Err(TreeError::UnknownElement(_))
    ));
    assert!(matches!(
        Bct::new(&rc_lowpass(1.0, 1.0), f64::NAN),
        Err(TreeError::SampleRate(_))
    ));
}

/// The circuit files the examples run are the circuits tested above.
#[test]
fn circuit_files_describe_the_tested_circuits() {
    let rc: TreeDescription = toml::from_str(include_str!("../circuits/rc_lowpass.toml")).unwrap();
    assert_eq!(rc, rc_lowpass(1_000.0, 100e-9));
    let clipper: TreeDescription =
        toml::from_str(include_str!("../circuits/diode_clipper.toml")).unwrap();
    assert_eq!(clipper, diode_clipper());
}

/// Thirty-one voices of the clipper (groups of 16, 8, 4 and single voices), each
/// with its own input, computed side by side, give each voice what a single
/// tableau gives it alone; one voice is driven beyond the diode table's range.
#[test]
fn polyphonic_voices_equal_single_voices() {
    use orchard_engine::wdf::PolyTableau;
    let voices = 31;
    let frames = 4_800;
    let mut poly = PolyTableau::new(&diode_clipper(), FS, "Vin", "C", voices).unwrap();
    let amplitude = |k: usize| if k == 20 { 900.0 } else { 0.1 + 0.3 * k as f64 };
    let mut input = vec![0.0; frames * voices];
    for n in 0..frames {
        for k in 0..voices {
            input[n * voices + k] =
                amplitude(k) * (2.0 * PI * (100.0 + 37.0 * k as f64) * n as f64 / FS).sin();
        }
    }
    let mut output = vec![0.0; input.len()];
    poly.process(&input, &mut output);
    for k in 0..voices {
        let mut single = WaveTableau::new(&diode_clipper(), FS).unwrap();
        let (vin, cap) = (single.source("Vin").unwrap(), single.leaf("C").unwrap());
        let x: Vec<f64> = (0..frames).map(|n| input[n * voices + k]).collect();
        let mut y = vec![0.0; frames];
        single.process(vin, &x, cap, &mut y);
        for n in 0..frames {
            let got = output[n * voices + k];
            assert!(
                (got - y[n]).abs() < 1e-13,
                "voice {k}, sample {n}: {got} vs {}",
                y[n]
            );
        }
    }
    poly.reset();
    let mut again = vec![0.0; input.len()];
    poly.process(&input, &mut again);
    assert!(
        again == output,
        "reset() does not return the voices to their start"
    );
}

/// A capacitor charged from an ideal voltage source at the root through a
/// resistor; opening the root switch of a second circuit freezes its charge.
#[test]
fn root_sources_and_switches_act_at_run_time() {
    // Ideal source at the root driving R in series with C: v_C follows the
    // source with time constant RC.
    let description = TreeDescription::new(
        "V",
        Element::IdealVoltageSource { volts: 0.0 },
        series([resistor("R", 1_000.0), capacitor("C", 1e-6)]),
    );
    let mut tree = Bct::new(&description, FS).unwrap();
    let c = tree.leaf("C").unwrap();
    assert!(tree.set_root_source(1.0));
    assert!(!tree.set_switch(true), "an ideal source is not a switch");
    for _ in 0..(FS * 0.01) as usize {
        tree.tick();
    }
    // Ten time constants: fully charged (the series orientation makes it −1 V).
    assert!(
        (tree.voltage(c).abs() - 1.0).abs() < 1e-3,
        "{}",
        tree.voltage(c)
    );

    // The DC operating point follows the source's present value, not the
    // description's: 2 V across C from the first sample.
    let mut settled = Bct::new(
        &TreeDescription::new(
            "V",
            Element::IdealVoltageSource { volts: 0.0 },
            series([resistor("R", 1_000.0), capacitor("C", 1e-6)]),
        ),
        FS,
    )
    .unwrap();
    settled.set_root_source(2.0);
    settled.settle_to_dc().unwrap();
    settled.tick();
    assert!(
        (settled.voltage(c).abs() - 2.0).abs() < 1e-12,
        "{}",
        settled.voltage(c)
    );

    // A charged capacitor discharging through a resistor, interrupted by a switch.
    let description = TreeDescription::new(
        "S",
        Element::Switch { closed: true },
        series([resistor("R", 1_000.0), capacitor("C", 1e-6)]),
    );
    let mut tree = Bct::new(&description, FS).unwrap();
    let c = tree.leaf("C").unwrap();
    tree.set_reactive_state(c, 1.0);
    for _ in 0..48 {
        tree.tick();
    }
    let at_open = tree.voltage(c);
    assert!(at_open < 0.4 && at_open > 0.3, "{at_open}"); // e^(−1) after 1 ms
    assert!(tree.set_switch(false));
    for _ in 0..480 {
        tree.tick();
    }
    assert!(
        (tree.voltage(c) - at_open).abs() < 0.02 * at_open,
        "the open switch let it discharge"
    );
}

/// The audio-thread operations of every engine allocate nothing: ticks, blocks,
/// source changes, patches, switches and resets (after their preparation).
#[test]
fn the_audio_path_allocates_nothing() {
    use orchard_engine::wdf::PolyTableau;
    let x: Vec<f64> = (0..512).map(input).collect();
    let mut y = vec![0.0; x.len()];

    let mut bct = Bct::new(&diode_clipper(), FS).unwrap();
    let (vin, cap) = (bct.source("Vin").unwrap(), bct.leaf("C").unwrap());
    let patch = bct
        .planner()
        .set_element("C", Element::Capacitor { farads: 22e-9 })
        .unwrap();
    let mut wt = WaveTableau::new(&diode_clipper(), FS).unwrap();
    let (wt_vin, wt_cap) = (wt.source("Vin").unwrap(), wt.leaf("C").unwrap());
    wt.prepare_block(wt_vin, wt_cap);
    let mut poly = PolyTableau::new(&diode_clipper(), FS, "Vin", "C", 4).unwrap();
    let mut poly_y = vec![0.0; 4 * x.len()];
    let poly_x: Vec<f64> = x.iter().flat_map(|&v| [v; 4]).collect();

    nice_assert_no_alloc::assert_no_alloc(|| {
        bct.process(vin, &x, cap, &mut y);
        bct.apply_patch(&patch);
        bct.set_source(vin, 0.5);
        bct.tick();
        let _ = (bct.voltage(cap), bct.current(cap), bct.stored_energy());
        bct.reset();
        wt.process(wt_vin, &x, wt_cap, &mut y);
        wt.tick();
        let _ = wt.voltage(wt_cap);
        poly.process(&poly_x, &mut poly_y);
        poly.reset();
    });
    assert!(y.iter().all(|v| v.is_finite()));
}

/// A lossless LC tank (a mass on a spring in the mobility analogy) continued
/// by a tree of the same structure: with the same values it rings on sample
/// for sample; with a four times larger inductance it keeps the capacitor's
/// voltage and the inductor's current of the last sample (no jump in the
/// state), rings on at its own frequency, half the old one, and with the
/// energy ½·C·v² + ½·L·i² it held at the swap. A tree of another structure
/// is refused.
#[test]
fn a_tree_continues_another_with_its_voltages_and_currents() {
    let tank = |henries: f64| {
        let description = TreeDescription::new(
            "open",
            Element::Open,
            parallel([capacitor("C", 1e-6), inductor("L", henries)]),
        );
        Bct::new(&description, FS).unwrap()
    };
    let (farads, henries) = (1e-6, 1e-3);
    let mut old = tank(henries);
    let (c, l) = (old.leaf("C").unwrap(), old.leaf("L").unwrap());
    old.set_reactive_state(c, 1.0);
    for _ in 0..37 {
        old.tick();
    }
    let mut same = tank(henries);
    assert!(same.continue_from(&old));
    let mut slower = tank(4.0 * henries);
    assert!(slower.continue_from(&old));
    assert_eq!(slower.voltage(c), old.voltage(c));
    assert!((slower.current(l) - old.current(l)).abs() < 1e-12 * old.current(l).abs());
    let energy = |t: &Bct, henries: f64| {
        0.5 * farads * t.voltage(c).powi(2) + 0.5 * henries * t.current(l).powi(2)
    };
    let at_swap = energy(&slower, 4.0 * henries);
    let mut crossings = 0;
    let mut last = slower.voltage(c);
    let seconds = 0.1;
    for _ in 0..(seconds * FS) as usize {
        old.tick();
        same.tick();
        slower.tick();
        assert_eq!(same.voltage(c), old.voltage(c));
        crossings += usize::from((slower.voltage(c) > 0.0) != (last > 0.0));
        last = slower.voltage(c);
    }
    let hz = crossings as f64 / 2.0 / seconds;
    let expected = 1.0 / (2.0 * PI * (4.0 * henries * farads).sqrt());
    assert!((hz / expected - 1.0).abs() < 0.03, "{hz} Hz, {expected} Hz");
    let drift = (energy(&slower, 4.0 * henries) - at_swap).abs() / at_swap;
    assert!(drift < 0.05, "energy drifted by {drift}");
    let mut other = Bct::new(
        &TreeDescription::new(
            "open",
            Element::Open,
            series([resistor("R", 1.0), capacitor("C", 1e-6)]),
        ),
        FS,
    )
    .unwrap();
    assert!(!other.continue_from(&old));
}
