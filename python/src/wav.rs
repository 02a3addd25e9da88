//! `orchard._native.write_wav`: stereo WAV files written by the command
//! line's own writer, so a file written from Python is the CLI's byte for
//! byte (24-bit or float, RF64 past 4 GiB, atomic: a partial file replaces
//! the destination only when complete).

use std::path::PathBuf;

use orchard_cli::SampleFormat;
use orchard_cli::wav::StereoWav;
use pyo3::prelude::*;

use crate::audio::FRAME_BYTES;
use crate::{checked_rate, refused};

/// Frames handed to the writer at a time.
const CHUNK_FRAMES: usize = 4096;

/// The sample format `format` names: `int24` or `float32`.
fn sample_format(format: &str) -> PyResult<SampleFormat> {
    match format {
        "int24" => Ok(SampleFormat::Int24),
        "float32" => Ok(SampleFormat::Float32),
        other => Err(refused(format!(
            "format `{}`: give int24 or float32",
            orchard_engine::input::name(other)
        ))),
    }
}

/// Writes interleaved stereo frames, native-endian `float32` `samples`, to
/// `path` at `sample_rate` (Hz) as `format` (`int24` or `float32`). Returns
/// the peak (full scale 1) and how many samples lay beyond full scale
/// (clipped in a 24-bit file, kept in a float one). The GIL is released
/// while writing.
#[pyfunction]
#[pyo3(signature = (path, samples, sample_rate=48_000, format="int24"))]
pub fn write_wav(
    py: Python<'_>,
    path: PathBuf,
    samples: &[u8],
    sample_rate: u32,
    format: &str,
) -> PyResult<(f32, u64)> {
    let format = sample_format(format)?;
    checked_rate(sample_rate)?;
    if !samples.len().is_multiple_of(FRAME_BYTES) {
        return Err(refused(format!(
            "{} bytes are no whole number of stereo float32 frames ({FRAME_BYTES} bytes each)",
            samples.len()
        )));
    }
    py.detach(|| write(&path, samples, sample_rate, format))
        .map_err(refused)
}

/// The writing itself, without the GIL.
fn write(
    path: &std::path::Path,
    samples: &[u8],
    sample_rate: u32,
    format: SampleFormat,
) -> Result<(f32, u64), String> {
    let mut wav = StereoWav::create(path, sample_rate, format)?;
    let (mut left, mut right) = (
        Vec::with_capacity(CHUNK_FRAMES),
        Vec::with_capacity(CHUNK_FRAMES),
    );
    let sample = |bytes: &[u8]| f32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    for chunk in samples.chunks(FRAME_BYTES * CHUNK_FRAMES) {
        left.clear();
        right.clear();
        for frame in chunk.chunks_exact(FRAME_BYTES) {
            left.push(sample(&frame[..4]));
            right.push(sample(&frame[4..]));
        }
        wav.write(&left, &right)?;
    }
    let summary = (wav.peak, wav.over_full_scale);
    wav.finish()?;
    Ok(summary)
}
