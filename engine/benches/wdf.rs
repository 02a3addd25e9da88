//! Wave-digital benchmarks: ns per sample of the RC lowpass and the diode clipper,
//! the BCT against the Wave Tableau as trees grow (De Sanctis et al. 2003, Fig. 3),
//! and the multiport root beside the single-port one.
//!
//! `cargo bench -p orchard-engine --bench wdf`; results are summarised in
//! docs/performance.md.

use std::f64::consts::PI;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use orchard_engine::wdf::description::{
    capacitor, element, parallel, resistor, series, voltage_source,
};
use orchard_engine::wdf::{
    Bct, Connection, Element, MultiportTree, PolyTableau, TreeDescription, WaveTableau,
};

const FS: f64 = 48_000.0;
const BLOCK: usize = 4_800;

fn input() -> Vec<f64> {
    (0..BLOCK)
        .map(|n| 2.0 * (2.0 * PI * 100.0 * n as f64 / FS).sin())
        .collect()
}

fn circuit(text: &str) -> TreeDescription {
    toml::from_str(text).expect("the circuit files are valid")
}

fn circuits(c: &mut Criterion) {
    let x = input();
    let mut group = c.benchmark_group("circuit");
    group.throughput(Throughput::Elements(BLOCK as u64));
    for (name, text) in [
        ("rc_lowpass", include_str!("../circuits/rc_lowpass.toml")),
        (
            "diode_clipper",
            include_str!("../circuits/diode_clipper.toml"),
        ),
    ] {
        let mut tree = Bct::new(&circuit(text), FS).unwrap();
        let (source, probe) = (tree.source("Vin").unwrap(), tree.leaf("C").unwrap());
        let mut y = vec![0.0; BLOCK];
        group.bench_function(BenchmarkId::new("bct", name), |b| {
            b.iter(|| {
                tree.process(source, black_box(&x), probe, &mut y);
                black_box(y[BLOCK - 1])
            })
        });
        let mut wt = WaveTableau::new(&circuit(text), FS).unwrap();
        let (source, probe) = (wt.source("Vin").unwrap(), wt.leaf("C").unwrap());
        group.bench_function(BenchmarkId::new("wt", name), |b| {
            b.iter(|| {
                wt.process(source, black_box(&x), probe, &mut y);
                black_box(y[BLOCK - 1])
            })
        });
    }
    group.finish();
}

/// A balanced tree of `n` bipoles (alternating series and parallel, resistors and
/// capacitors) driven by a source, under a resistor root.
fn balanced(n: usize) -> TreeDescription {
    fn build(first: usize, count: usize, depth: usize) -> Connection {
        if count == 1 {
            return if first.is_multiple_of(2) {
                resistor(&format!("r{first}"), 100.0 + first as f64)
            } else {
                capacitor(&format!("c{first}"), 1e-7 * (1.0 + first as f64 / 100.0))
            };
        }
        let half = count / 2;
        let children = vec![
            build(first, half, depth + 1),
            build(first + half, count - half, depth + 1),
        ];
        if depth.is_multiple_of(2) {
            Connection::Series(children)
        } else {
            Connection::Parallel(children)
        }
    }
    TreeDescription::new(
        "root",
        Element::Resistor { ohms: 1_000.0 },
        Connection::Parallel(vec![voltage_source("drive", 1_000.0), build(0, n - 1, 0)]),
    )
}

/// Each tree is built when its benchmark first runs (the tableau of 1024
/// bipoles takes most of a minute to build), so a filter that leaves it out
/// (`-- 'bct_vs_wt/[a-z]+/[0-9]{1,3}$'`) skips building it.
fn bct_versus_tableau(c: &mut Criterion) {
    let mut group = c.benchmark_group("bct_vs_wt");
    for n in [4usize, 16, 64, 256, 1024] {
        let description = balanced(n);
        let mut bct = None;
        group.bench_with_input(BenchmarkId::new("bct", n), &n, |b, _| {
            let bct = bct.get_or_insert_with(|| Bct::new(&description, FS).unwrap());
            let drive = bct.source("drive").unwrap();
            let mut phase = 0.0f64;
            b.iter(|| {
                phase += 0.01;
                bct.set_source(drive, phase.sin());
                bct.tick();
            })
        });
        let mut wt = None;
        group.bench_with_input(BenchmarkId::new("wt", n), &n, |b, _| {
            let wt = wt.get_or_insert_with(|| WaveTableau::new(&description, FS).unwrap());
            let drive = wt.source("drive").unwrap();
            let mut phase = 0.0f64;
            b.iter(|| {
                phase += 0.01;
                wt.set_source(drive, phase.sin());
                wt.tick();
            })
        });
    }
    group.finish();
}

/// The diode clipper for many voices at once; throughput counts voice-samples, so
/// the time per element is the per-voice cost of a sample.
fn polyphonic(c: &mut Criterion) {
    let description = circuit(include_str!("../circuits/diode_clipper.toml"));
    let mut group = c.benchmark_group("polyphonic_diode_clipper");
    for voices in [1usize, 8, 32] {
        let frames = BLOCK / 4;
        let mut poly = PolyTableau::new(&description, FS, "Vin", "C", voices).unwrap();
        let input: Vec<f64> = (0..frames * voices)
            .map(|i| {
                let (n, k) = (i / voices, i % voices);
                2.0 * (2.0 * PI * (100.0 + 10.0 * k as f64) * n as f64 / FS).sin()
            })
            .collect();
        let mut output = vec![0.0; input.len()];
        group.throughput(Throughput::Elements((frames * voices) as u64));
        group.bench_with_input(BenchmarkId::from_parameter(voices), &voices, |b, _| {
            b.iter(|| {
                poly.process(black_box(&input), &mut output);
                black_box(output[0])
            })
        });
    }
    group.finish();
}

/// A diode in series with an RC, its capacitor shunted by a second diode:
/// the first diode at the root alone (the second replaced by a resistor),
/// solved by the single-port root, beside both diodes solved jointly by a
/// multiport root. Throughput counts samples.
fn multiport_root(c: &mut Criterion) {
    let diode = Element::Diode {
        saturation_amps: 2.52e-9,
        thermal_volts: 0.025_85,
    };
    let shunt = |second: Element| {
        TreeDescription::new(
            "d1",
            diode,
            series([
                voltage_source("vs", 1_000.0),
                capacitor("c1", 1e-6),
                parallel([
                    capacitor("c2", 47e-9),
                    element("d2", second),
                    resistor("r2", 4_700.0),
                ]),
            ]),
        )
    };
    let x: Vec<f64> = input().iter().map(|v| 2.5 * v).collect();
    let mut group = c.benchmark_group("multiport_root");
    group.throughput(Throughput::Elements(BLOCK as u64));
    let mut single = Bct::new(&shunt(Element::Resistor { ohms: 1e6 }), FS).unwrap();
    let (vs, probe) = (single.source("vs").unwrap(), single.leaf("c2").unwrap());
    group.bench_function("single_port", |b| {
        b.iter(|| {
            for &v in &x {
                single.set_source(vs, v);
                single.tick();
            }
            black_box(single.voltage(probe))
        })
    });
    let mut joint = MultiportTree::new(&shunt(diode), FS).unwrap();
    let (vs, probe) = (joint.source("vs").unwrap(), joint.leaf("c2").unwrap());
    group.bench_function("two_ports_jointly", |b| {
        b.iter(|| {
            for &v in &x {
                joint.set_source(vs, v);
                joint.tick();
            }
            black_box(joint.voltage(probe))
        })
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = circuits, bct_versus_tableau, polyphonic, multiport_root
}
criterion_main!(benches);
