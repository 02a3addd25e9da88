//! Building an instrument: what a host waits for when it activates the plugin
//! and what a parameter change costs before the new instrument swaps in (the
//! grand's 88 keys of strings, their dispersion fits, the hammers, the board and
//! the action; the mallet bars), at 48 kHz and at 8 kHz, where the instrument
//! runs at 48 kHz inside and adds the decimating filter.
//!
//! `cargo bench -p orchard-engine --bench build`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use orchard_engine::instrument::Preset;
use orchard_engine::rt::Synth;

fn build(c: &mut Criterion) {
    let mut group = c.benchmark_group("build");
    group.sample_size(10);
    for name in ["grand-piano", "mallet-bar", "celesta"] {
        let preset = Preset::builtin(name)
            .expect("a built-in preset")
            .expect("it loads");
        for rate in [48_000.0, 8_000.0] {
            group.bench_with_input(BenchmarkId::new(name, rate), &rate, |b, &rate| {
                b.iter(|| black_box(Synth::new(&preset, rate).expect("it builds")));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, build);
criterion_main!(benches);
