//! Piano strings: the realtime factor of 1, 10 and 230 stiff strings at 48 kHz on
//! one thread (each in a unison coupled through its bridge, as a piano with the
//! pedal down plays them).
//!
//! `cargo bench -p orchard-engine --bench strings`; after criterion's timings, the
//! realtime factor (seconds of audio per second of computation) is printed for each
//! string count.

use std::cell::RefCell;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use orchard_engine::instrument::Preset;
use orchard_engine::resonators::Unison;

const FS: f64 = 48_000.0;
/// Samples per block: 10 ms.
const BLOCK: usize = 480;

/// Unisons totalling `strings` strings, trichords spread over the keyboard (and
/// one smaller unison for the remainder), with the preset's values at each key.
fn piano(strings: usize) -> Vec<Unison> {
    let preset = Preset::default_grand();
    let groups = strings.div_ceil(3);
    (0..groups)
        .map(|g| {
            let key = 21 + (g * 87 / groups.max(1)) as u8;
            let mut params = preset
                .key_params(key)
                .expect("a string instrument")
                .unison(0.25, 0.006);
            params.strings = (strings - 3 * g).min(3);
            Unison::new(&params, FS).expect("every key builds at 48 kHz")
        })
        .collect()
}

/// One block: each unison is struck (a force impulse) and rings for 10 ms.
fn render(unisons: &mut [Unison]) -> f64 {
    let mut sum = 0.0;
    for u in unisons.iter_mut() {
        sum += u.step(1.0);
        for _ in 1..BLOCK {
            sum += u.step(0.0);
        }
    }
    sum
}

/// The yardstick the string loop is measured against: a bare scalar loop with one
/// delay line, a first-order Thiran fractional delay, eight first-order dispersion
/// allpasses and a one-pole loss filter per string, no coupling, no hammer port.
struct BareString {
    line: Vec<f64>,
    position: usize,
    thiran: (f64, f64, f64),
    dispersion: [f64; 8],
    loss: (f64, f64),
}

impl BareString {
    fn new(length: usize) -> Self {
        let mut line = vec![0.0; length];
        line[0] = 1.0;
        Self {
            line,
            position: 0,
            thiran: (0.3, 0.0, 0.0),
            dispersion: [0.0; 8],
            loss: (0.99, 0.0),
        }
    }

    #[inline]
    fn tick(&mut self) -> f64 {
        let x = self.line[self.position];
        let (c, x1, y1) = self.thiran;
        let mut y = c * (x - y1) + x1;
        self.thiran = (c, x, y);
        for s in &mut self.dispersion {
            let out = -0.5 * y + *s;
            *s = y + 0.5 * out;
            y = out;
        }
        let (g, prev) = self.loss;
        let out = g * 0.8 * y + 0.2 * prev;
        self.loss.1 = out;
        self.line[self.position] = -out;
        self.position += 1;
        if self.position == self.line.len() {
            self.position = 0;
        }
        x
    }
}

fn strings(c: &mut Criterion) {
    let totals: RefCell<Vec<(usize, u64, Duration)>> = RefCell::new(Vec::new());
    let mut group = c.benchmark_group("strings");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    for count in [1usize, 10, 230] {
        let mut unisons = piano(count);
        assert_eq!(unisons.iter().map(Unison::len).sum::<usize>(), count);
        group.throughput(Throughput::Elements((count * BLOCK) as u64));
        group.bench_function(BenchmarkId::from_parameter(count), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    black_box(render(&mut unisons));
                }
                let elapsed = start.elapsed();
                totals.borrow_mut().push((count, iters, elapsed));
                elapsed
            })
        });
    }
    let mut bare: Vec<BareString> = (0..230).map(|i| BareString::new(60 + 7 * i)).collect();
    group.throughput(Throughput::Elements((230 * BLOCK) as u64));
    group.bench_function(BenchmarkId::new("bare_scalar", 230), |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                let mut sum = 0.0;
                for s in bare.iter_mut() {
                    for _ in 0..BLOCK {
                        sum += s.tick();
                    }
                }
                black_box(sum);
            }
            let elapsed = start.elapsed();
            totals.borrow_mut().push((0, iters, elapsed));
            elapsed
        })
    });
    group.finish();
    for count in [1usize, 10, 230, 0] {
        let (blocks, time) = totals
            .borrow()
            .iter()
            .filter(|t| t.0 == count)
            .fold((0u64, Duration::ZERO), |(b, t), r| (b + r.1, t + r.2));
        let audio_s = blocks as f64 * BLOCK as f64 / FS;
        let name = if count == 0 {
            "bare_scalar/230".to_string()
        } else {
            format!("strings/{count}")
        };
        println!(
            "{name}: realtime factor {:.1} ({audio_s:.2} s of audio in {:.3} s)",
            audio_s / time.as_secs_f64().max(1e-12),
            time.as_secs_f64()
        );
    }
}

criterion_group!(benches, strings);
criterion_main!(benches);
