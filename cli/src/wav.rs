//! Writing stereo WAV files without ever leaving a half-written file behind.
//!
//! A file is written with a provisional header, then its final header (sizes
//! filled in) is written over it; a file whose RIFF size would pass 4 GiB
//! becomes RF64 there (see [`super::riff`]). A device, a pipe or the standard
//! output cannot be gone back over: its header carries the sizes of a stream
//! of unknown length.

use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::Path;

use crate::destination::{Destination, Output};
use crate::riff::{DataSize, SampleFormat, WavFormat};

/// Largest 24-bit sample value.
const INT24_FULL_SCALE: f32 = 8_388_607.0;

/// A stereo WAV file being written. Samples go to a partial file beside the
/// destination, which replaces the destination only when [`StereoWav::finish`]
/// succeeds, so an existing file is never lost to a failed render (a device
/// or the standard output is written straight into: see [`Destination`]).
pub struct StereoWav {
    writer: Option<BufWriter<Output>>,
    format: WavFormat,
    destination: Destination,
    /// Bytes of samples written.
    data_bytes: u64,
    /// The largest RIFF size (file length − 8) written as RIFF; a longer file
    /// is RF64. `u32::MAX`, the largest a RIFF header holds, but in tests.
    riff_limit: u64,
    /// Samples beyond full scale: clipped to it in 24-bit files, kept as
    /// they are in float ones.
    pub over_full_scale: u64,
    /// Largest absolute sample value written (before any clipping).
    pub peak: f32,
}

impl StereoWav {
    /// Opens the output and writes a provisional header; fails with a
    /// one-line reason if it cannot.
    pub fn create(
        destination: &Path,
        sample_rate: u32,
        sample_format: SampleFormat,
    ) -> Result<Self, String> {
        let destination = Destination::new(destination)?;
        let output = destination.open()?;
        let data = match output {
            Output::File(_) => DataSize::Known(0),
            Output::Stream(_) => DataSize::Stream,
        };
        let mut wav = Self {
            writer: Some(BufWriter::new(output)),
            format: WavFormat {
                sample_rate,
                sample_format,
            },
            destination,
            data_bytes: 0,
            riff_limit: u64::from(u32::MAX),
            over_full_scale: 0,
            peak: 0.0,
        };
        let header = wav.format.header(data, wav.riff_limit);
        wav.writer().write_all(&header).map_err(|e| wav.fail(e))?;
        Ok(wav)
    }

    fn writer(&mut self) -> &mut BufWriter<Output> {
        self.writer.as_mut().expect("writer lives until finish")
    }

    fn fail(&self, error: std::io::Error) -> String {
        format!("cannot write {}: {error}", self.destination.display())
    }

    /// Appends interleaved frames from two channel slices.
    pub fn write(&mut self, left: &[f32], right: &[f32]) -> Result<(), String> {
        let format = self.format.sample_format;
        let (mut peak, mut over) = (self.peak, 0);
        let writer = self.writer.as_mut().expect("writer lives until finish");
        let mut result = Ok(());
        for (&l, &r) in left.iter().zip(right) {
            for sample in [l, r] {
                peak = peak.max(sample.abs());
                over += u64::from(sample.abs() > 1.0);
                result = result.and_then(|()| match format {
                    SampleFormat::Float32 => writer.write_all(&sample.to_le_bytes()),
                    SampleFormat::Int24 => {
                        let value = (sample.clamp(-1.0, 1.0) * INT24_FULL_SCALE).round() as i32;
                        writer.write_all(&value.to_le_bytes()[..3])
                    }
                });
            }
        }
        self.peak = peak;
        self.over_full_scale += over;
        self.data_bytes +=
            left.len().min(right.len()) as u64 * u64::from(self.format.frame_bytes());
        result.map_err(|e| self.fail(e))
    }

    /// Whether samples beyond full scale were clipped (24-bit) rather than
    /// kept (float).
    pub fn clips(&self) -> bool {
        self.format.sample_format == SampleFormat::Int24
    }

    /// Completes the file (its final header: RIFF, or RF64 past 4 GiB) and
    /// moves it into place; a stream is flushed.
    pub fn finish(mut self) -> Result<(), String> {
        let writer = self.writer.take().expect("writer lives until finish");
        let output = writer.into_inner().map_err(|e| self.fail(e.into_error()))?;
        match output {
            Output::File(mut file) => {
                let header = self
                    .format
                    .header(DataSize::Known(self.data_bytes), self.riff_limit);
                file.seek(SeekFrom::Start(0))
                    .and_then(|_| file.write_all(&header))
                    .and_then(|()| file.sync_all())
                    .map_err(|e| self.fail(e))?;
            }
            Output::Stream(mut stream) => stream.flush().map_err(|e| self.fail(e))?,
        }
        self.destination.commit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("orchard-wav-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    fn u64_at(bytes: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
    }

    /// A ramp of `frames` frames, left rising and right falling, with one
    /// sample beyond full scale on each side.
    fn ramp(frames: usize) -> (Vec<f32>, Vec<f32>) {
        let mut left: Vec<f32> = (0..frames).map(|i| i as f32 / frames as f32).collect();
        let mut right: Vec<f32> = left.iter().map(|x| -x).collect();
        left[1] = 1.5;
        right[2] = -2.0;
        (left, right)
    }

    /// Below 4 GiB a file is plain RIFF, which every reader (here hound)
    /// reads back sample for sample; 24-bit samples beyond full scale are
    /// clipped and counted, float ones kept.
    #[test]
    fn a_small_file_is_riff_that_readers_read() {
        let dir = scratch("riff");
        let (left, right) = ramp(1000);
        for format in [SampleFormat::Float32, SampleFormat::Int24] {
            let path = dir.join("small.wav");
            let mut wav = StereoWav::create(&path, 48_000, format).unwrap();
            wav.write(&left[..300], &right[..300]).unwrap();
            wav.write(&left[300..], &right[300..]).unwrap();
            assert_eq!((wav.over_full_scale, wav.peak), (2, 2.0));
            wav.finish().unwrap();
            let mut reader = hound::WavReader::open(&path).unwrap();
            assert_eq!(reader.spec().channels, 2);
            assert_eq!(reader.spec().sample_rate, 48_000);
            assert_eq!(reader.duration(), 1000);
            let samples: Vec<f32> = match format {
                SampleFormat::Float32 => reader.samples::<f32>().map(Result::unwrap).collect(),
                SampleFormat::Int24 => reader
                    .samples::<i32>()
                    .map(|s| s.unwrap() as f32 / INT24_FULL_SCALE)
                    .collect(),
            };
            let bound = match format {
                SampleFormat::Float32 => f32::INFINITY,
                SampleFormat::Int24 => 1.0,
            };
            for (i, (&l, &r)) in left.iter().zip(&right).enumerate() {
                let tolerance = 1.0 / INT24_FULL_SCALE;
                assert!((samples[2 * i] - l.clamp(-bound, bound)).abs() <= tolerance);
                assert!((samples[2 * i + 1] - r.clamp(-bound, bound)).abs() <= tolerance);
            }
        }
        std::fs::remove_dir_all(dir).ok();
    }

    /// A file whose RIFF size passes the limit (4 GiB; here a few hundred
    /// bytes, injected) is written as RF64: `RF64`, the 64-bit sizes in
    /// `ds64`, the 32-bit ones set aside, and the samples after `data`.
    #[test]
    fn a_file_past_the_riff_limit_is_rf64() {
        let dir = scratch("rf64");
        let path = dir.join("long.wav");
        let frames = 500;
        let (left, right) = ramp(frames);
        let mut wav = StereoWav::create(&path, 96_000, SampleFormat::Float32).unwrap();
        wav.riff_limit = 1000;
        wav.write(&left, &right).unwrap();
        wav.finish().unwrap();

        let bytes = std::fs::read(&path).unwrap();
        let data = 8 * frames as u64;
        assert_eq!(bytes.len() as u64, 94 + data);
        assert_eq!(&bytes[0..4], b"RF64");
        assert_eq!(u32_at(&bytes, 4), u32::MAX);
        assert_eq!(&bytes[8..12], b"WAVE");
        assert_eq!(&bytes[12..16], b"ds64");
        assert_eq!(u32_at(&bytes, 16), 28);
        assert_eq!(u64_at(&bytes, 20), bytes.len() as u64 - 8, "RIFF size");
        assert_eq!(u64_at(&bytes, 28), data, "data size");
        assert_eq!(u64_at(&bytes, 36), frames as u64, "sample count");
        assert_eq!(u32_at(&bytes, 44), 0, "table length");
        assert_eq!(&bytes[48..52], b"fmt ");
        assert_eq!(u32_at(&bytes, 60), 96_000);
        assert_eq!(&bytes[86..90], b"data");
        assert_eq!(u32_at(&bytes, 90), u32::MAX);
        let first_samples: Vec<f32> = bytes[94..94 + 16]
            .chunks(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect();
        assert_eq!(first_samples, [left[0], right[0], left[1], right[1]]);
        std::fs::remove_dir_all(dir).ok();
    }
}
