//! Offline rendering of a score through the synthesiser.

use orchard_engine::rt::{Synth, TimedEvent};

use super::score::Score;

/// Frames rendered per block: the renderer decides whether to stop after each.
pub const BLOCK: usize = 512;

/// How much was rendered.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderSummary {
    /// Frames written.
    pub frames: u64,
    /// Whether the instrument fell silent before the tail limit.
    pub rang_out: bool,
}

/// Plays `score` on `synth`, which has rendered nothing yet, in blocks of
/// [`BLOCK`] frames, each cut further at every multiple of `split` frames; each
/// piece goes to `after_piece` as (synth, left, right). After the score ends,
/// rendering continues until the instrument is silent, but for at most
/// `max_tail_s` seconds.
///
/// The output does not depend on `split` (lock-step rendering is bit-identical
/// across block sizes, and when to stop is decided at whole blocks), so probes
/// sampled every `split` frames leave the audio as it is.
pub fn render(
    synth: &mut Synth,
    score: &Score,
    max_tail_s: f64,
    split: usize,
    mut after_piece: impl FnMut(&Synth, &[f32], &[f32]) -> Result<(), String>,
) -> Result<RenderSummary, String> {
    let rate = synth.sample_rate();
    let frame_of = |seconds: f64| (seconds.max(0.0) * rate).round() as u64;
    let score_end = frame_of(score.end_s);
    let tail_limit = score_end + frame_of(max_tail_s.max(0.0));
    let split = split.max(1) as u64;
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let mut next_event = 0;
    let mut frame = 0u64;
    loop {
        let pending = next_event < score.events.len();
        if !pending && frame >= score_end && (!synth.is_active() || frame >= tail_limit) {
            break;
        }
        let block_end = frame + BLOCK as u64;
        while frame < block_end {
            let piece_end = ((frame / split + 1) * split).min(block_end);
            let first = next_event;
            while next_event < score.events.len()
                && frame_of(score.events[next_event].time_s) < piece_end
            {
                next_event += 1;
            }
            let events = score.events[first..next_event].iter().map(|e| TimedEvent {
                offset: frame_of(e.time_s).saturating_sub(frame) as usize,
                event: e.event,
            });
            let len = (piece_end - frame) as usize;
            let (l, r) = (&mut left[..len], &mut right[..len]);
            synth.process_events(l, r, events);
            after_piece(synth, l, r)?;
            frame = piece_end;
        }
    }
    Ok(RenderSummary {
        frames: frame,
        rang_out: !synth.is_active(),
    })
}
