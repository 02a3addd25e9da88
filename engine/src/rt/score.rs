//! A performance as synthesiser events at sample indices, and its playback in
//! blocks: the one place where a timed event list is cut into the blocks that
//! [`Synth::process_events`] renders. The command-line renderer, the speed
//! measurements and the tests all play their scores through it.
//!
//! Every event applies at its own sample, whatever the blocks, so (lock-step
//! rendering being bit-identical across block sizes) a score sounds the same
//! played in blocks of one frame or of thousands.

use super::{Synth, SynthEvent, TimedEvent};

/// Synthesiser events at sample indices from the start of the performance, in
/// time order, and the sample where the performance ends.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Score {
    /// (sample index, event), sorted by sample; simultaneous events keep the
    /// order they were given in.
    events: Vec<(u64, SynthEvent)>,
    /// End of the performance, samples from the start: at least the last
    /// event's sample.
    end_sample: u64,
}

impl Score {
    /// A score from events at sample indices, in any order (simultaneous ones
    /// keep their order), ending at `end_sample` or at the last event if that
    /// is later. Allocates: the event list.
    pub fn new(events: impl IntoIterator<Item = (u64, SynthEvent)>, end_sample: u64) -> Self {
        let mut events: Vec<_> = events.into_iter().collect();
        events.sort_by_key(|&(sample, _)| sample);
        let last = events.last().map_or(0, |&(sample, _)| sample);
        Self {
            events,
            end_sample: end_sample.max(last),
        }
    }

    /// The events, (sample index, event), in time order.
    pub fn events(&self) -> &[(u64, SynthEvent)] {
        &self.events
    }

    /// End of the performance, samples from the start.
    pub fn end_sample(&self) -> u64 {
        self.end_sample
    }

    /// A player at the start of the score.
    pub fn player(&self) -> ScorePlayer<'_> {
        ScorePlayer {
            score: self,
            next: 0,
            sample: 0,
            ahead: 0,
        }
    }
}

/// Plays a [`Score`] on a synthesiser block by block, into buffers the caller
/// provides. Allocates nothing.
///
/// The player counts samples from the start of the score; the synthesiser
/// should have rendered nothing of it yet when the first block is played.
/// A synthesiser whose output is delayed by its decimating filter (see
/// [`Synth::output_delay`]) runs that many samples ahead of the output: its
/// first samples are rendered and dropped before the first block, so every
/// event is heard at its own sample.
#[derive(Debug, Clone)]
pub struct ScorePlayer<'a> {
    score: &'a Score,
    /// Index of the first event not yet applied.
    next: usize,
    /// Samples played so far.
    sample: u64,
    /// Samples the synthesiser runs ahead of the output (set when the first
    /// block is played).
    ahead: u64,
}

impl ScorePlayer<'_> {
    /// Samples played so far.
    pub fn sample(&self) -> u64 {
        self.sample
    }

    /// The events not applied yet, (sample index, event).
    pub fn pending(&self) -> &[(u64, SynthEvent)] {
        &self.score.events[self.next..]
    }

    /// Whether every event has applied and the score's end has been played.
    pub fn is_over(&self) -> bool {
        self.pending().is_empty() && self.sample >= self.score.end_sample
    }

    /// Plays the next block: `left.len()` frames (the shorter of the two
    /// slices), overwriting `left` and `right`; each event of the score due in
    /// the block applies at its sample. Allocates nothing.
    pub fn play(&mut self, synth: &mut Synth, left: &mut [f32], right: &mut [f32]) {
        let frames = left.len().min(right.len());
        if self.sample == 0 && synth.output_delay() > 0 && synth.samples_rendered() == 0 {
            self.ahead = synth.output_delay();
            self.skip_latency(synth, left, right);
        }
        self.render(
            synth,
            self.sample + self.ahead,
            &mut left[..frames],
            &mut right[..frames],
        );
        self.sample += frames as u64;
    }

    /// Renders the synthesiser's first `self.ahead` samples into `left` and
    /// `right` piece by piece, with the events due in them, and drops them.
    fn skip_latency(&mut self, synth: &mut Synth, left: &mut [f32], right: &mut [f32]) {
        let piece = left.len().min(right.len()).max(1) as u64;
        let mut done = 0;
        while done < self.ahead {
            let n = piece.min(self.ahead - done) as usize;
            self.render(synth, done, &mut left[..n], &mut right[..n]);
            done += n as u64;
        }
    }

    /// Renders the score's samples from `start` on into `left` and `right`,
    /// applying each event due among them at its sample.
    fn render(&mut self, synth: &mut Synth, start: u64, left: &mut [f32], right: &mut [f32]) {
        let end = start + left.len() as u64;
        let first = self.next;
        let events = &self.score.events;
        while self.next < events.len() && events[self.next].0 < end {
            self.next += 1;
        }
        let due = events[first..self.next]
            .iter()
            .map(|&(sample, event)| TimedEvent {
                offset: sample.saturating_sub(start) as usize,
                event,
            });
        synth.process_events(left, right, due);
    }

    /// Plays the rest of the score and then lets the instrument ring until it
    /// is silent, but for at most `max_tail_samples` past the score's end, in
    /// blocks of `left.len()` frames (whether to stop is decided at whole
    /// blocks). Each block is cut further at every multiple of `split` frames
    /// from the start of the score, and `after_piece(synth, left, right)` is
    /// called with every piece as it is played; an error from it stops the
    /// playback and is returned. Allocates nothing.
    ///
    /// The audio does not depend on `split`, so pieces taken at regular
    /// intervals (to sample probes, say) leave it as it is.
    pub fn play_out<E>(
        &mut self,
        synth: &mut Synth,
        left: &mut [f32],
        right: &mut [f32],
        max_tail_samples: u64,
        split: usize,
        mut after_piece: impl FnMut(&Synth, &[f32], &[f32]) -> Result<(), E>,
    ) -> Result<(), E> {
        let block = left.len().min(right.len()).max(1) as u64;
        let split = split.max(1) as u64;
        let tail_limit = self.score.end_sample.saturating_add(max_tail_samples);
        let mut wound_down = false;
        while !(self.is_over() && (!synth.is_active() || self.sample >= tail_limit)) {
            if self.is_over() && !wound_down {
                synth.wind_down();
                wound_down = true;
            }
            let block_end = self.sample + block;
            while self.sample < block_end {
                let piece_end = ((self.sample / split + 1) * split).min(block_end);
                let len = (piece_end - self.sample) as usize;
                let (l, r) = (&mut left[..len], &mut right[..len]);
                self.play(synth, l, r);
                after_piece(synth, l, r)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instrument::Preset;

    const FS: f64 = 48_000.0;

    fn score() -> Score {
        let on = |key| SynthEvent::NoteOn { key, velocity: 0.8 };
        let off = |key| SynthEvent::NoteOff { key, velocity: 0.5 };
        // Given out of order; the two at 700 keep theirs.
        Score::new(
            [
                (700, off(60)),
                (0, on(60)),
                (700, on(67)),
                (333, on(64)),
                (1_500, off(67)),
            ],
            1_200,
        )
    }

    fn synth() -> Synth {
        Synth::new(&Preset::default_grand(), FS).unwrap()
    }

    #[test]
    fn events_are_sorted_stably_and_the_end_covers_them() {
        let score = score();
        let samples: Vec<u64> = score.events().iter().map(|e| e.0).collect();
        assert_eq!(samples, [0, 333, 700, 700, 1_500]);
        assert!(matches!(
            score.events()[2].1,
            SynthEvent::NoteOff { key: 60, .. }
        ));
        assert_eq!(score.end_sample(), 1_500);
    }

    /// Blocks of any size give what one call with every event at its offset
    /// gives, bit for bit.
    #[test]
    fn blocks_of_any_size_place_every_event_on_its_sample() {
        let score = score();
        let frames = 2_000;
        let (mut left, mut right) = (vec![0.0f32; frames], vec![0.0f32; frames]);
        let events = score.events().iter().map(|&(sample, event)| TimedEvent {
            offset: sample as usize,
            event,
        });
        synth().process_events(&mut left, &mut right, events);
        assert!(left.iter().any(|s| s.abs() > 1e-4));
        for block in [1, 7, 64, 512] {
            let mut synth = synth();
            let mut player = score.player();
            let (mut l, mut r) = (vec![0.0f32; frames], vec![0.0f32; frames]);
            for (l, r) in l.chunks_mut(block).zip(r.chunks_mut(block)) {
                player.play(&mut synth, l, r);
            }
            assert!(player.is_over());
            assert!(l == left && r == right, "blocks of {block} differ");
        }
    }

    /// Playing out stops at the tail limit, at a whole block, with every piece
    /// cut at the multiples of `split`.
    #[test]
    fn playing_out_stops_at_the_tail_limit_in_whole_blocks() {
        let score = score();
        let mut synth = synth();
        let mut player = score.player();
        let (mut left, mut right) = ([0.0f32; 256], [0.0f32; 256]);
        let mut pieces = Vec::new();
        player
            .play_out(&mut synth, &mut left, &mut right, 100, 100, |s, l, _| {
                pieces.push((s.samples_rendered(), l.len()));
                Ok::<(), std::convert::Infallible>(())
            })
            .unwrap();
        // The note rings on past 1 600, so the tail limit stops it: at the
        // first whole block (of 256) from there.
        assert_eq!(player.sample(), 1_792);
        assert!(
            pieces
                .iter()
                .all(|&(end, len)| len > 0 && (end % 100 == 0 || end % 256 == 0))
        );
        assert_eq!(pieces.iter().map(|p| p.1 as u64).sum::<u64>(), 1_792);
        assert!(synth.is_active());
    }
}
