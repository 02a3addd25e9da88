//! `orchard._native.Score`: a performance in seconds, from a Standard MIDI
//! File (on disk or in memory) or from timed raw MIDI messages.

use std::path::PathBuf;

use orchard_engine::midi::{self, MAX_MIDI_BYTES, ScoreEvent};
use pyo3::prelude::*;

use crate::refused;

/// A performance: timed events and when it ends.
#[pyclass(frozen, module = "orchard._native")]
pub struct Score {
    pub(crate) score: midi::Score,
}

#[pymethods]
impl Score {
    /// Reads a Standard MIDI File (type 0, 1 or 2), as `orchard render` does.
    #[staticmethod]
    fn from_file(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let score = py.detach(|| midi::read(&path)).map_err(refused)?;
        Ok(Self { score })
    }

    /// Parses a Standard MIDI File held in memory.
    #[staticmethod]
    fn from_smf(py: Python<'_>, data: &[u8]) -> PyResult<Self> {
        if data.len() as u64 > MAX_MIDI_BYTES {
            return Err(refused(format!(
                "the MIDI data is {} bytes, more than the {MAX_MIDI_BYTES} a MIDI file may have",
                data.len()
            )));
        }
        let score = py.detach(|| midi::parse(data)).map_err(|e| {
            refused(format!(
                "the MIDI data is not a valid Standard MIDI File: {e}"
            ))
        })?;
        Ok(Self { score })
    }

    /// A score of raw MIDI messages (status byte first) at times in seconds
    /// from the start, in any order (simultaneous ones keep theirs), lasting
    /// at least until `end_s`. Messages Orchard does not play are left out.
    #[staticmethod]
    #[pyo3(signature = (messages, end_s=0.0))]
    fn from_messages(messages: Vec<(f64, Vec<u8>)>, end_s: f64) -> PyResult<Self> {
        if !(end_s.is_finite() && end_s >= 0.0) {
            return Err(refused(format!(
                "the end, {end_s} s, must be a time from 0 on"
            )));
        }
        let mut events = Vec::with_capacity(messages.len());
        for (index, (time_s, bytes)) in messages.iter().enumerate() {
            if !(time_s.is_finite() && *time_s >= 0.0) {
                return Err(refused(format!(
                    "message {index}: its time, {time_s} s, must be a time from 0 on"
                )));
            }
            let event = midi::event_of_bytes(bytes)
                .map_err(|e| refused(format!("message {index} at {time_s} s: {e}")))?;
            if let Some(event) = event {
                events.push(ScoreEvent {
                    time_s: *time_s,
                    event,
                });
            }
        }
        Ok(Self {
            score: midi::Score::new(events, end_s),
        })
    }

    /// How long the performance lasts, s (the tail comes on top).
    #[getter]
    fn duration_s(&self) -> f64 {
        self.score.end_s
    }

    /// How many events Orchard plays in it.
    fn __len__(&self) -> usize {
        self.score.events.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<orchard.Score {} events, {:.2} s>",
            self.score.events.len(),
            self.score.end_s
        )
    }
}
