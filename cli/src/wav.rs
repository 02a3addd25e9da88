//! Writing WAV files without ever leaving a half-written file behind.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use hound::{SampleFormat as HoundFormat, WavSpec, WavWriter};

use super::SampleFormat;
use super::destination::Destination;

/// Largest 24-bit sample value.
const INT24_FULL_SCALE: f32 = 8_388_607.0;

/// A stereo WAV file being written. Samples go to a partial file beside the
/// destination, which replaces the destination only when [`StereoWav::finish`]
/// succeeds, so an existing file is never lost to a failed render (a device
/// is written straight into: see [`Destination`]).
pub struct StereoWav {
    writer: Option<WavWriter<BufWriter<File>>>,
    format: SampleFormat,
    destination: Destination,
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
        let destination = Destination::new(destination)?;
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
        let writer = WavWriter::create(destination.write_path(), spec)
            .map_err(|e| format!("cannot write {}: {}", destination.display(), io_reason(e)))?;
        Ok(Self {
            writer: Some(writer),
            format,
            destination,
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
        self.destination.commit()
    }
}

fn io_reason(error: hound::Error) -> String {
    match error {
        hound::Error::IoError(e) => e.to_string(),
        other => other.to_string(),
    }
}
