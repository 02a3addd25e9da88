//! `orchard._native.render`: a score played on an instrument, start to
//! finish, as `orchard render` plays it (without `--normalize` or
//! `--limiter`): the same synthesiser, blocks, tail and checks.

use orchard_cli::render::{BLOCK, check_length, render as play_score};
use orchard_cli::{MAX_DURATION, MAX_TAIL};
use orchard_engine::rt::Synth;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

use crate::audio::Interleaved;
use crate::instrument::Instrument;
use crate::score::Score;
use crate::{checked_rate, refused};

/// Blocks rendered between two looks at Python's signals (Ctrl-C), about a
/// second of audio at 48 kHz.
const BLOCKS_BETWEEN_SIGNAL_CHECKS: u64 = 100;

/// Plays `score` on `instrument` at `sample_rate` (Hz), then lets it ring
/// until silent, for at most `max_tail_s` (s); refuses a score longer than
/// `max_duration_s` (s). Returns interleaved stereo `float32` frames. The GIL
/// is released while rendering; Ctrl-C (any Python signal handler that
/// raises) stops the render within about a second of audio.
#[pyfunction]
#[pyo3(signature = (instrument, score, sample_rate=48_000, max_tail_s=20.0, max_duration_s=21_600.0))]
pub fn render<'py>(
    py: Python<'py>,
    instrument: &Instrument,
    score: &Score,
    sample_rate: u32,
    max_tail_s: f64,
    max_duration_s: f64,
) -> PyResult<Bound<'py, PyByteArray>> {
    let rate = checked_rate(sample_rate)?;
    MAX_TAIL.check("max_tail", max_tail_s).map_err(refused)?;
    MAX_DURATION
        .check("max_duration", max_duration_s)
        .map_err(refused)?;
    check_length(&score.score, max_duration_s).map_err(refused)?;
    let frames = py.detach(|| play(instrument, score, rate, max_tail_s))?;
    frames.into_bytearray(py)
}

/// The render itself, without the GIL: it takes it back only to look at
/// Python's signals.
fn play(
    instrument: &Instrument,
    score: &Score,
    rate: f64,
    max_tail_s: f64,
) -> PyResult<Interleaved> {
    let mut synth = Synth::new(&instrument.preset, rate).map_err(|e| refused(e.to_string()))?;
    let expected = ((score.score.end_s + 1.0) * rate) as usize;
    let mut frames = Interleaved::with_capacity(expected);
    let mut interrupted = None;
    let mut blocks = 0u64;
    let played = play_score(&mut synth, &score.score, max_tail_s, BLOCK, |_, l, r| {
        frames.extend(l, r);
        blocks += 1;
        if !blocks.is_multiple_of(BLOCKS_BETWEEN_SIGNAL_CHECKS) {
            return Ok(());
        }
        if let Err(error) = Python::attach(|py| py.check_signals()) {
            interrupted = Some(error);
            return Err("interrupted".to_owned());
        }
        Ok(())
    });
    match (played, interrupted) {
        (_, Some(error)) => Err(error),
        (Err(reason), None) => Err(refused(reason)),
        (Ok(_), None) => Ok(frames),
    }
}
