//! The offline renderer against the engine it drives.

use orchard_cli::demo;
use orchard_cli::render::{BLOCK, render};
use orchard_engine::instrument::Preset;
use orchard_engine::rt::Synth;

fn render_demo(sample_rate: u32) -> (Vec<f32>, Vec<f32>) {
    let (mut left, mut right) = (Vec::new(), Vec::new());
    let mut synth = Synth::new(&Preset::default_grand(), f64::from(sample_rate)).unwrap();
    render(&mut synth, &demo::phrase(), 20.0, BLOCK, |_, l, r| {
        left.extend_from_slice(l);
        right.extend_from_slice(r);
        Ok(())
    })
    .unwrap();
    (left, right)
}

/// Renders are deterministic, and the renderer's blocks place every event on the
/// exact sample: its output equals the engine stepped one frame at a time, where
/// an event can only apply at the start of its frame.
#[test]
fn renderer_is_deterministic_and_sample_accurate() {
    let rate = 48_000;
    let first = render_demo(rate);
    assert!(first == render_demo(rate), "two renders differ");

    let score = demo::phrase().at_rate(f64::from(rate));
    let mut synth = Synth::new(&Preset::default_grand(), f64::from(rate)).unwrap();
    let frames = first.0.len();
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    let mut player = score.player();
    for (l, r) in left.chunks_mut(1).zip(right.chunks_mut(1)) {
        player.play(&mut synth, l, r);
    }
    assert!(player.pending().is_empty());
    assert!(first == (left, right), "renderer and engine disagree");
}
