//! Offline rendering of a score through the synthesiser.

use orchard_engine::instrument::Preset;
use orchard_engine::rt::{Synth, TimedEvent};

use super::score::Score;

/// Frames rendered per block.
const BLOCK: usize = 512;

/// How much was rendered.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderSummary {
    /// Frames written.
    pub frames: u64,
    /// Whether the instrument fell silent before the tail limit.
    pub rang_out: bool,
}

/// Renders `score` with `preset` at `sample_rate` (Hz), handing each block to `sink`
/// as (left, right). After the score ends, rendering continues until the instrument
/// is silent, but for at most `max_tail_s` seconds. `progress` is told the frames
/// done after each block.
pub fn render(
    preset: &Preset,
    score: &Score,
    sample_rate: u32,
    max_tail_s: f64,
    mut sink: impl FnMut(&[f32], &[f32]) -> Result<(), String>,
    mut progress: impl FnMut(u64),
) -> Result<RenderSummary, String> {
    let rate = f64::from(sample_rate);
    let mut synth = Synth::new(preset, rate).map_err(|e| e.to_string())?;
    let frame_of = |seconds: f64| (seconds.max(0.0) * rate).round() as u64;
    let score_end = frame_of(score.end_s);
    let tail_limit = score_end + frame_of(max_tail_s.max(0.0));
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let mut next_event = 0;
    let mut frame = 0u64;
    loop {
        let pending = next_event < score.events.len();
        if !pending && frame >= score_end && (!synth.is_active() || frame >= tail_limit) {
            break;
        }
        let len = BLOCK as u64;
        let block_end = frame + len;
        let first = next_event;
        while next_event < score.events.len()
            && frame_of(score.events[next_event].time_s) < block_end
        {
            next_event += 1;
        }
        let events = score.events[first..next_event].iter().map(|e| TimedEvent {
            offset: frame_of(e.time_s).saturating_sub(frame) as usize,
            event: e.event,
        });
        synth.process_events(&mut left, &mut right, events);
        sink(&left, &right)?;
        frame = block_end;
        progress(frame);
    }
    Ok(RenderSummary {
        frames: frame,
        rang_out: !synth.is_active(),
    })
}
