//! Decay times of a piano tone. A struck string's sound falls in two stages:
//! a fast prompt sound while the strings' vertical motion drains into the
//! bridge, then a slow aftersound. Each stage's 60 dB decay time (T60) comes
//! from a straight line fitted to the level in dB.

use super::fit;

/// The prompt sound: from the peak level down to this many dB below it.
pub const EARLY_SPAN_DB: f64 = 10.0;
/// The aftersound: from [`EARLY_SPAN_DB`] down to this many dB below the peak
/// (or the end of the recording).
pub const LATE_FLOOR_DB: f64 = 40.0;
/// Fewest frames a stage needs for a decay time.
const MIN_FRAMES: usize = 3;

/// A level over time, in dB, frame by frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LevelTrack {
    /// Centre of each frame, s.
    pub times_s: Vec<f64>,
    /// Level of each frame, dB (any reference).
    pub levels_db: Vec<f64>,
}

/// Decay times of the two stages, s (`None` when the recording does not
/// contain enough of a stage, or the level does not fall).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TwoStageDecay {
    /// T60 of the prompt sound, s.
    pub early_t60_s: Option<f64>,
    /// T60 of the aftersound, s.
    pub late_t60_s: Option<f64>,
}

impl LevelTrack {
    /// Adds one frame at `time_s` of amplitude `amplitude` (linear, > 0 to count).
    pub fn push(&mut self, time_s: f64, amplitude: f64) {
        self.times_s.push(time_s);
        self.levels_db
            .push(20.0 * amplitude.max(f64::MIN_POSITIVE).log10());
    }

    /// The decay times: the early stage from the loudest frame until the level
    /// first falls [`EARLY_SPAN_DB`] below it, the late stage from there until
    /// [`LATE_FLOOR_DB`] below it or the end.
    pub fn two_stage_decay(&self) -> TwoStageDecay {
        let Some((peak_at, &peak)) = self
            .levels_db
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
        else {
            return TwoStageDecay::default();
        };
        let below = |db: f64| {
            (peak_at..self.levels_db.len())
                .find(|&i| self.levels_db[i] < peak - db)
                .unwrap_or(self.levels_db.len())
        };
        let knee = below(EARLY_SPAN_DB);
        let floor = below(LATE_FLOOR_DB);
        TwoStageDecay {
            early_t60_s: self.t60(peak_at, (knee + 1).min(self.levels_db.len())),
            late_t60_s: self.t60(knee, floor),
        }
    }

    /// T60 of frames `from..to`, s: 60 dB over the fitted fall per second.
    fn t60(&self, from: usize, to: usize) -> Option<f64> {
        if to < from + MIN_FRAMES {
            return None;
        }
        let points = (from..to).map(|i| (self.times_s[i], self.levels_db[i]));
        let line = fit::line(points)?;
        (line.slope < 0.0).then(|| -60.0 / line.slope)
    }
}

/// A decay time for a report: `2.41 s`, or `–` when there is none.
pub fn show(t60_s: Option<f64>) -> String {
    t60_s.map_or_else(|| "–".into(), |t| format!("{t:.2} s"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_slopes_are_told_apart() {
        // 60 dB/s for 0.3 s (-18 dB), then 6 dB/s.
        let mut track = LevelTrack::default();
        for i in 0..400 {
            let t = f64::from(i) * 0.01;
            let db = if t < 0.3 {
                -60.0 * t
            } else {
                -18.0 - 6.0 * (t - 0.3)
            };
            track.push(t, 10f64.powf(db / 20.0));
        }
        let decay = track.two_stage_decay();
        let early = decay.early_t60_s.unwrap();
        let late = decay.late_t60_s.unwrap();
        assert!((early - 1.0).abs() < 0.02, "{early}");
        // The late fit starts at -10 dB, inside the early stage, so it is a
        // little steep; mostly it sees the slow slope.
        assert!((late - 10.0).abs() < 1.5, "{late}");
        assert_eq!(show(None), "–");
    }

    #[test]
    fn rising_or_short_tracks_have_no_decay_time() {
        let mut track = LevelTrack::default();
        for i in 0..10 {
            track.push(f64::from(i), f64::from(i + 1));
        }
        assert_eq!(track.two_stage_decay(), TwoStageDecay::default());
    }
}
