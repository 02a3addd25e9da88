//! A performance as timed synthesiser events, in seconds: what a MIDI file or
//! the demo holds before a sample rate is chosen.

use crate::rt::{self, SynthEvent};

/// One event at a time in seconds from the start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScoreEvent {
    /// Seconds from the start of the performance.
    pub time_s: f64,
    /// What happens.
    pub event: SynthEvent,
}

/// Timed events in time order, and when the performance ends.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Score {
    /// Events sorted by time (stable: simultaneous events keep their order).
    pub events: Vec<ScoreEvent>,
    /// End of the performance, s: at least the last event's time.
    pub end_s: f64,
}

impl Score {
    /// A score from unsorted events; `end_s` is raised to the last event if needed.
    pub fn new(mut events: Vec<ScoreEvent>, end_s: f64) -> Self {
        events.sort_by(|a, b| a.time_s.total_cmp(&b.time_s));
        let last = events.last().map_or(0.0, |e| e.time_s);
        Self {
            events,
            end_s: end_s.max(last),
        }
    }

    /// The score at `sample_rate` (Hz), for the engine to play: every time
    /// (negative ones as 0) rounded to the nearest sample.
    pub fn at_rate(&self, sample_rate: f64) -> rt::Score {
        let sample_of = |seconds: f64| (seconds.max(0.0) * sample_rate).round() as u64;
        let events = self.events.iter().map(|e| (sample_of(e.time_s), e.event));
        rt::Score::new(events, sample_of(self.end_s))
    }
}
