//! Writing WAV files without ever leaving a half-written file behind.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use hound::{SampleFormat as HoundFormat, WavSpec, WavWriter};

use super::SampleFormat;

/// Largest 24-bit sample value.
const INT24_FULL_SCALE: f32 = 8_388_607.0;

/// A stereo WAV file being written. Samples go to a temporary file beside the
/// destination, which replaces the destination only when [`StereoWav::finish`]
/// succeeds, so an existing file is never lost to a failed render.
pub struct StereoWav {
    writer: Option<WavWriter<BufWriter<File>>>,
    format: SampleFormat,
    temporary: PathBuf,
    destination: PathBuf,
    /// Samples beyond full scale that were clipped (24-bit only).
    pub clipped: u64,
    /// Largest absolute sample value written.
    pub peak: f32,
}

impl StereoWav {
    /// Creates the temporary file; fails with a one-line reason if it cannot.
    pub fn create(
        destination: &Path,
        sample_rate: u32,
        format: SampleFormat,
    ) -> Result<Self, String> {
        let temporary = partial_path(destination)?;
        let spec = match format {
            SampleFormat::Int24 => WavSpec {
                channels: 2,
                sample_rate,
                bits_per_sample: 24,
                sample_format: HoundFormat::Int,
            },
            SampleFormat::Float32 => WavSpec {
                channels: 2,
                sample_rate,
                bits_per_sample: 32,
                sample_format: HoundFormat::Float,
            },
        };
        let writer = WavWriter::create(&temporary, spec)
            .map_err(|e| format!("cannot write {}: {}", destination.display(), io_reason(e)))?;
        Ok(Self {
            writer: Some(writer),
            format,
            temporary,
            destination: destination.to_path_buf(),
            clipped: 0,
            peak: 0.0,
        })
    }

    /// Appends interleaved frames from two channel slices.
    pub fn write(&mut self, left: &[f32], right: &[f32]) -> Result<(), String> {
        let writer = self.writer.as_mut().expect("writer lives until finish");
        for (&l, &r) in left.iter().zip(right) {
            for sample in [l, r] {
                self.peak = self.peak.max(sample.abs());
                let result = match self.format {
                    SampleFormat::Float32 => writer.write_sample(sample),
                    SampleFormat::Int24 => {
                        if sample.abs() > 1.0 {
                            self.clipped += 1;
                        }
                        let value = (sample.clamp(-1.0, 1.0) * INT24_FULL_SCALE).round() as i32;
                        writer.write_sample(value)
                    }
                };
                result.map_err(|e| {
                    format!(
                        "cannot write {}: {}",
                        self.destination.display(),
                        io_reason(e)
                    )
                })?;
            }
        }
        Ok(())
    }

    /// Completes the file and moves it into place.
    pub fn finish(mut self) -> Result<(), String> {
        let writer = self.writer.take().expect("writer lives until finish");
        writer.finalize().map_err(|e| {
            format!(
                "cannot write {}: {}",
                self.destination.display(),
                io_reason(e)
            )
        })?;
        std::fs::rename(&self.temporary, &self.destination)
            .map_err(|e| format!("cannot write {}: {e}", self.destination.display()))
    }
}

impl Drop for StereoWav {
    fn drop(&mut self) {
        // Unfinished: remove the partial file, leaving any earlier destination intact.
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

/// Where an output file is written until it is complete: a hidden file beside
/// `destination`. Errors if `destination` names no file.
pub(super) fn partial_path(destination: &Path) -> Result<PathBuf, String> {
    let name = destination
        .file_name()
        .ok_or_else(|| format!("output path {} names no file", destination.display()))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(name);
    temporary_name.push(".orchard-partial");
    Ok(destination.with_file_name(temporary_name))
}

fn io_reason(error: hound::Error) -> String {
    match error {
        hound::Error::IoError(e) => e.to_string(),
        other => other.to_string(),
    }
}
