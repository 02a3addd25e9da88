//! The output level stages allocate nothing once made: the limiter runs per
//! block on memory it was given when it was built, as an audio thread needs.

use nice_assert_no_alloc::{AllocDisabler, assert_no_alloc};
use orchard_cli::level::Stage;
use orchard_cli::limiter::Limiter;

#[global_allocator]
static ALLOCATOR: AllocDisabler = AllocDisabler;

const FS: f64 = 48_000.0;

/// Blocks of a signal that goes far over the ceiling and back, in every
/// block size up to 512, through the limiter and the level stage.
#[test]
fn limiting_allocates_nothing() {
    let mut limiter = Limiter::new(0.5, FS);
    let mut stage = Stage::limiter(0.5, FS);
    let (mut left, mut right) = (vec![0.0f32; 512], vec![0.0f32; 512]);
    let mut written = 0usize;
    let mut peak = 0.0f32;
    assert_no_alloc(|| {
        for block in 1..=512 {
            for (i, (l, r)) in left[..block]
                .iter_mut()
                .zip(&mut right[..block])
                .enumerate()
            {
                let phase = (block * 7 + i) as f32 * 0.01;
                *l = 3.0 * phase.sin();
                *r = if i == block / 2 { -20.0 } else { 0.1 };
            }
            let mut sink = |l: &[f32], r: &[f32]| {
                written += l.len();
                peak = orchard_cli::level::peak(peak, l, r);
                Ok(())
            };
            stage
                .process(&left[..block], &right[..block], &mut sink)
                .unwrap();
            limiter.process(&mut left[..block], &mut right[..block]);
            peak = orchard_cli::level::peak(peak, &left[..block], &right[..block]);
        }
    });
    assert_eq!(written, 512 * 513 / 2 - limiter.latency());
    assert!(peak <= 0.5 && peak > 0.4, "peak {peak}");
    assert!(limiter.deepest_reduction_db() > 30.0);
}
