//! Gelsey's escapement simulated for 31 s of mechanism time with the penalty
//! contact model — his Fig. 22 run took 49.2 s on a 1993 Sparcstation 10; the
//! target here is under 31 ms (1000× faster).
//!
//! `cargo bench -p orchard-engine --bench escapement`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use orchard_engine::mech::mechanism::{Mechanism, builtin, run};

fn escapement(c: &mut Criterion) {
    let text = builtin("escapement").expect("the escapement preset exists");
    let template = Mechanism::from_toml(text).expect("the escapement preset builds");
    let mut group = c.benchmark_group("mechanism");
    group.measurement_time(Duration::from_secs(10));
    group.sample_size(20);
    group.bench_function("escapement_31s", |b| {
        b.iter(|| {
            let mut m = template.clone();
            let stats = run(&mut m, 0.0, 31.0, 1e-3, 1e-12, |_, _, _| {}).expect("runs");
            black_box((stats, m.time()))
        })
    });
    group.finish();
}

criterion_group!(benches, escapement);
criterion_main!(benches);
