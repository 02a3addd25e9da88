//! The offline renderer against the engine it drives.

use orchard::cli::demo;
use orchard::cli::render::{BLOCK, render};
use orchard_engine::instrument::Preset;
use orchard_engine::rt::{Synth, TimedEvent};

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
/// exact sample: its output equals the engine stepped one frame at a time.
#[test]
fn renderer_is_deterministic_and_sample_accurate() {
    let rate = 48_000;
    let first = render_demo(rate);
    assert!(first == render_demo(rate), "two renders differ");

    let score = demo::phrase();
    let mut synth = Synth::new(&Preset::default_grand(), f64::from(rate)).unwrap();
    let frames = first.0.len();
    let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
    let frame_of = |t: f64| (t * f64::from(rate)).round() as usize;
    let mut next = 0;
    for n in 0..frames {
        let start = next;
        while next < score.events.len() && frame_of(score.events[next].time_s) == n {
            next += 1;
        }
        let events = score.events[start..next].iter().map(|e| TimedEvent {
            offset: 0,
            event: e.event,
        });
        synth.process_events(&mut left[n..=n], &mut right[n..=n], events);
    }
    assert_eq!(next, score.events.len());
    assert!(first == (left, right), "renderer and engine disagree");
}
