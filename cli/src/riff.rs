//! The header of a stereo WAV file: RIFF while the file fits in 4 GiB, RF64
//! (EBU Tech 3306) beyond, and the sizes of a stream of unknown length.
//!
//! Every header has the same length, so a file is begun with one header and
//! completed by writing the final one over it. A RIFF header reserves, right
//! after `WAVE`, a `JUNK` chunk as long as RF64's `ds64` chunk; a file that
//! outgrows RIFF's 32-bit sizes becomes RF64 by rewriting the first chunk's id
//! (`RIFF` → `RF64`) and the `JUNK` chunk as `ds64`, which holds the 64-bit
//! sizes, the 32-bit ones then set to `0xFFFF_FFFF` (EBU Tech 3306, 2009,
//! section 3).
//!
//! Layout, byte offsets (little-endian throughout):
//!
//! | offset | RIFF                       | RF64                               |
//! |--------|----------------------------|------------------------------------|
//! | 0      | `RIFF`, file size − 8 (u32) | `RF64`, `0xFFFF_FFFF`              |
//! | 8      | `WAVE`                     | `WAVE`                             |
//! | 12     | `JUNK`, 28, 28 zero bytes  | `ds64`, 28, RIFF size (u64), data size (u64), frames (u64), table length 0 (u32) |
//! | 48     | `fmt `: 16 bytes of PCM, or 18 of IEEE float (`cbSize` 0) |  same |
//! |        | float only: `fact`, 4, frames (u32) | `fact`, 4, `0xFFFF_FFFF` |
//! |        | `data`, data size (u32), then the samples | `data`, `0xFFFF_FFFF`, then the samples |

/// WAV sample formats (`render --format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SampleFormat {
    /// 24-bit integer PCM.
    Int24,
    /// 32-bit IEEE float.
    Float32,
}

/// Channels of every file written: left and right.
pub const CHANNELS: u16 = 2;
/// A 32-bit size field that says "see `ds64`" (RF64) or "unknown" (a stream).
pub const UNKNOWN_SIZE: u32 = u32::MAX;
/// Bytes of the `ds64` chunk's body (and of the `JUNK` chunk reserving its place).
const DS64_BODY: u32 = 28;

/// How big the data following a header is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataSize {
    /// A file of this many bytes of samples.
    Known(u64),
    /// A stream whose length is not known when its header is written: every
    /// size is [`UNKNOWN_SIZE`], the largest a WAV header holds, which
    /// streaming readers take as "read to the end".
    Stream,
}

/// The format of a stereo WAV file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WavFormat {
    /// Frames per second, Hz.
    pub sample_rate: u32,
    /// How each sample is stored.
    pub sample_format: SampleFormat,
}

impl WavFormat {
    /// Bytes of one sample of one channel.
    pub fn sample_bytes(&self) -> u16 {
        match self.sample_format {
            SampleFormat::Int24 => 3,
            SampleFormat::Float32 => 4,
        }
    }

    /// Bytes of one frame (a sample of each channel).
    pub fn frame_bytes(&self) -> u16 {
        CHANNELS * self.sample_bytes()
    }

    /// Bytes of the header, up to the first sample.
    pub fn header_bytes(&self) -> u64 {
        self.header(DataSize::Known(0), u64::MAX).len() as u64
    }

    /// The header for `data`: RIFF if the file's RIFF size (its length − 8)
    /// is at most `riff_limit` bytes (`u32::MAX` but in tests), else RF64.
    pub fn header(&self, data: DataSize, riff_limit: u64) -> Vec<u8> {
        let float = self.sample_format == SampleFormat::Float32;
        let fmt_body: u32 = if float { 18 } else { 16 };
        let fact_chunk: u32 = if float { 12 } else { 0 };
        // Everything after the RIFF size field, up to the first sample.
        let fixed = 4 + (8 + DS64_BODY) + (8 + fmt_body) + fact_chunk + 8;
        let frame = u64::from(self.frame_bytes());
        let mut out = Vec::with_capacity(fixed as usize + 8);
        let mut put = |bytes: &[u8]| out.extend_from_slice(bytes);

        let sizes = match data {
            DataSize::Known(bytes) => {
                let riff = u64::from(fixed) + bytes;
                Some((riff, bytes, bytes / frame))
            }
            DataSize::Stream => None,
        };
        let rf64 = sizes.filter(|&(riff, _, _)| riff > riff_limit.min(u64::from(u32::MAX)));
        let small = |value: u64| match (sizes, rf64) {
            (Some(_), None) => value as u32,
            _ => UNKNOWN_SIZE,
        };
        let (riff, data_bytes, frames) = sizes.unwrap_or_default();

        put(if rf64.is_some() { b"RF64" } else { b"RIFF" });
        put(&small(riff).to_le_bytes());
        put(b"WAVE");
        match rf64 {
            Some((riff, data_bytes, frames)) => {
                put(b"ds64");
                put(&DS64_BODY.to_le_bytes());
                put(&riff.to_le_bytes());
                put(&data_bytes.to_le_bytes());
                put(&frames.to_le_bytes());
                put(&0u32.to_le_bytes());
            }
            None => {
                put(b"JUNK");
                put(&DS64_BODY.to_le_bytes());
                put(&[0; DS64_BODY as usize]);
            }
        }
        put(b"fmt ");
        put(&fmt_body.to_le_bytes());
        let format_tag: u16 = if float { 3 } else { 1 };
        put(&format_tag.to_le_bytes());
        put(&CHANNELS.to_le_bytes());
        put(&self.sample_rate.to_le_bytes());
        let byte_rate = self.sample_rate * u32::from(self.frame_bytes());
        put(&byte_rate.to_le_bytes());
        put(&self.frame_bytes().to_le_bytes());
        put(&(8 * self.sample_bytes()).to_le_bytes());
        if float {
            put(&0u16.to_le_bytes());
            put(b"fact");
            put(&4u32.to_le_bytes());
            put(&small(frames).to_le_bytes());
        }
        put(b"data");
        put(&small(data_bytes).to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLOAT: WavFormat = WavFormat {
        sample_rate: 48_000,
        sample_format: SampleFormat::Float32,
    };
    const INT24: WavFormat = WavFormat {
        sample_rate: 44_100,
        sample_format: SampleFormat::Int24,
    };

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    fn u64_at(bytes: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
    }

    /// RIFF, RF64 and a stream's header are as long as each other, so one
    /// can be written over another.
    #[test]
    fn every_header_of_a_format_has_one_length() {
        for format in [FLOAT, INT24] {
            let lengths = [
                format.header(DataSize::Known(0), u64::MAX).len(),
                format.header(DataSize::Known(1 << 40), u64::MAX).len(),
                format.header(DataSize::Stream, u64::MAX).len(),
            ];
            assert_eq!(lengths, [format.header_bytes() as usize; 3]);
        }
        assert_eq!(INT24.header_bytes(), 80);
        assert_eq!(FLOAT.header_bytes(), 94);
    }

    /// A file of 4 GiB and more of samples is RF64, its sizes in `ds64`; one
    /// byte less than RIFF's limit stays RIFF.
    #[test]
    fn a_file_beyond_four_gib_is_rf64() {
        let header = FLOAT.header_bytes();
        let largest_riff = u64::from(u32::MAX) - (header - 8);
        let data = largest_riff - largest_riff % 8;
        let riff = FLOAT.header(DataSize::Known(data), u64::MAX);
        assert_eq!(&riff[0..4], b"RIFF");
        assert_eq!(u64::from(u32_at(&riff, 4)), header - 8 + data);
        assert_eq!(&riff[12..16], b"JUNK");

        let data = data + 8;
        let rf64 = FLOAT.header(DataSize::Known(data), u64::MAX);
        assert_eq!(&rf64[0..4], b"RF64");
        assert_eq!(u32_at(&rf64, 4), UNKNOWN_SIZE);
        assert_eq!(&rf64[12..16], b"ds64");
        assert_eq!(u32_at(&rf64, 16), 28);
        assert_eq!(u64_at(&rf64, 20), header - 8 + data);
        assert_eq!(u64_at(&rf64, 28), data);
        assert_eq!(u64_at(&rf64, 36), data / 8);
        assert_eq!(u32_at(&rf64, 44), 0);
        // fmt, then fact and data with their 32-bit sizes set aside.
        assert_eq!(&rf64[48..52], b"fmt ");
        assert_eq!(&rf64[74..78], b"fact");
        assert_eq!(u32_at(&rf64, 82), UNKNOWN_SIZE);
        assert_eq!(&rf64[86..90], b"data");
        assert_eq!(u32_at(&rf64, 90), UNKNOWN_SIZE);
    }

    /// The `fmt ` chunk describes 24-bit PCM and 32-bit float as every reader
    /// expects: format tag, channels, rate, byte rate, block align, bits.
    #[test]
    fn the_format_chunk_describes_the_samples() {
        let pcm = INT24.header(DataSize::Known(600), u64::MAX);
        assert_eq!(u32_at(&pcm, 52), 16);
        assert_eq!(&pcm[56..58], &1u16.to_le_bytes());
        assert_eq!(&pcm[58..60], &2u16.to_le_bytes());
        assert_eq!(u32_at(&pcm, 60), 44_100);
        assert_eq!(u32_at(&pcm, 64), 44_100 * 6);
        assert_eq!(&pcm[68..70], &6u16.to_le_bytes());
        assert_eq!(&pcm[70..72], &24u16.to_le_bytes());
        assert_eq!(&pcm[72..76], b"data");
        assert_eq!(u32_at(&pcm, 76), 600);

        let float = FLOAT.header(DataSize::Known(800), u64::MAX);
        assert_eq!(u32_at(&float, 52), 18);
        assert_eq!(&float[56..58], &3u16.to_le_bytes());
        assert_eq!(&float[70..72], &32u16.to_le_bytes());
        assert_eq!(&float[72..74], &0u16.to_le_bytes());
        assert_eq!(u32_at(&float, 82), 100, "frames in fact");
    }

    /// A stream's sizes are all "unknown", and it stays RIFF.
    #[test]
    fn a_stream_has_unknown_sizes() {
        let stream = INT24.header(DataSize::Stream, 0);
        assert_eq!(&stream[0..4], b"RIFF");
        assert_eq!(u32_at(&stream, 4), UNKNOWN_SIZE);
        assert_eq!(u32_at(&stream, 76), UNKNOWN_SIZE);
    }
}
