//! The one-line summary of one render.

use std::path::Path;

use crate::destination::is_stdout;
use crate::level;

/// What one render wrote, as its summary tells it.
pub struct Outcome<'a> {
    /// The WAV file written (`-`: the standard output).
    pub output: &'a Path,
    /// Audio written, s.
    pub seconds: f64,
    /// Sample rate of the file, Hz.
    pub sample_rate: u32,
    /// The file's peak, full scale 1.
    pub peak: f32,
    /// The gain `--normalize` applied, if it found a peak.
    pub normalizing_gain: Option<f32>,
    /// The limiter's deepest gain reduction, dB, if a limiter ran.
    pub limiter_reduction_db: Option<f64>,
    /// Whether `--normalize` was asked for.
    pub normalize: bool,
    /// Samples beyond full scale.
    pub over_full_scale: u64,
    /// Whether those were clipped (an integer format) rather than kept.
    pub clips: bool,
    /// Whether the instrument fell silent before `--max-tail`.
    pub rang_out: bool,
}

impl Outcome<'_> {
    /// The summary: the file, its length, rate and peak, then what the
    /// level stage did, samples beyond full scale, and a cut-off tail.
    pub fn line(&self) -> String {
        let shown = if is_stdout(self.output) {
            "the standard output".to_owned()
        } else {
            self.output.display().to_string()
        };
        let mut line = format!(
            "wrote {shown}: {:.2} s at {} Hz, peak {:.1} dBFS",
            self.seconds,
            self.sample_rate,
            level::gain_to_db(f64::from(self.peak))
        );
        match (self.normalizing_gain, self.limiter_reduction_db) {
            (Some(gain), _) => line.push_str(&format!(
                ", normalised by {:+.1} dB",
                level::gain_to_db(f64::from(gain))
            )),
            (None, Some(reduction)) if reduction > 0.0 => {
                line.push_str(&format!(", limited by up to {reduction:.1} dB"));
            }
            (None, Some(_)) => line.push_str(", the limiter never acted"),
            (None, None) if self.normalize => line.push_str(", silent: nothing to normalise"),
            (None, None) => {}
        }
        let over = self.over_full_scale;
        match (over, self.clips) {
            (0, _) => {}
            (_, true) => line.push_str(&format!(
                ", {over} samples clipped (see --normalize and --limiter)"
            )),
            (_, false) => line.push_str(&format!(
                ", {over} samples beyond full scale (kept: float32)"
            )),
        }
        if !self.rang_out {
            line.push_str(", cut off while still ringing (see --max-tail)");
        }
        line
    }
}

/// The summary's end when probes were recorded: `count` of them, `rows`
/// rows, into `path`.
pub fn probes_written(count: usize, path: &Path, rows: u64) -> String {
    format!(
        "; wrote {count} probe{} to {} ({rows} rows)",
        if count == 1 { "" } else { "s" },
        path.display()
    )
}
