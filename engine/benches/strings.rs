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
            let mut params = preset.key_params(key).unison(0.25, 0.006);
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
    group.finish();
    for count in [1usize, 10, 230] {
        let (blocks, time) = totals
            .borrow()
            .iter()
            .filter(|t| t.0 == count)
            .fold((0u64, Duration::ZERO), |(b, t), r| (b + r.1, t + r.2));
        let audio_s = blocks as f64 * BLOCK as f64 / FS;
        println!(
            "strings/{count}: realtime factor {:.1} ({audio_s:.2} s of audio in {:.3} s)",
            audio_s / time.as_secs_f64().max(1e-12),
            time.as_secs_f64()
        );
    }
}

criterion_group!(benches, strings);
criterion_main!(benches);
