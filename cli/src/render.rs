//! Offline rendering of a score through the synthesiser.

use orchard_engine::midi::Score;
use orchard_engine::rt::Synth;

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

/// Refuses a score that lasts longer than `max_duration_s` (s), with its
/// length.
pub fn check_length(score: &Score, max_duration_s: f64) -> Result<(), String> {
    if score.end_s > max_duration_s {
        return Err(format!(
            "the score lasts {:.0} s ({:.1} h), longer than --max-duration {} s",
            score.end_s,
            score.end_s / 3600.0,
            max_duration_s
        ));
    }
    Ok(())
}

/// Plays `score` on `synth`, which has rendered nothing yet, in blocks of
/// [`BLOCK`] frames, each cut further at every multiple of `split` frames; each
/// piece goes to `after_piece` as (synth, left, right). After the score ends,
/// rendering continues until the instrument is silent, but for at most
/// `max_tail_s` seconds. Event times are rounded to the nearest sample.
///
/// The output does not depend on `split` (lock-step rendering is bit-identical
/// across block sizes, and when to stop is decided at whole blocks), so probes
/// sampled every `split` frames leave the audio as it is.
pub fn render(
    synth: &mut Synth,
    score: &Score,
    max_tail_s: f64,
    split: usize,
    after_piece: impl FnMut(&Synth, &[f32], &[f32]) -> Result<(), String>,
) -> Result<RenderSummary, String> {
    let rate = synth.sample_rate();
    let score = score.at_rate(rate);
    let max_tail = (max_tail_s.max(0.0) * rate).round() as u64;
    let (mut left, mut right) = (vec![0.0f32; BLOCK], vec![0.0f32; BLOCK]);
    let mut player = score.player();
    player.play_out(synth, &mut left, &mut right, max_tail, split, after_piece)?;
    Ok(RenderSummary {
        frames: player.sample(),
        rang_out: !synth.is_active(),
    })
}
