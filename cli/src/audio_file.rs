//! Reading sound files for measurement: WAV (through hound) and Ogg Vorbis
//! (through lewton), mixed down to one channel (a two-channel file's left
//! and right are kept beside the mix).

use std::io::{Cursor, Read, Seek};
use std::path::Path;

use lewton::inside_ogg::OggStreamReader;
use orchard_engine::rt::check_sample_rate;

/// The largest sound file read, bytes: a quarter of an hour of 24-bit
/// stereo at 96 kHz (a note's recording is a few MB).
pub const MAX_AUDIO_BYTES: u64 = 512 << 20;

/// A sound file's samples, mixed to mono.
#[derive(Debug, Clone, PartialEq)]
pub struct MonoAudio {
    /// The mean of all channels, frame by frame, full scale 1.
    pub signal: Vec<f32>,
    /// Sample rate, Hz.
    pub sample_rate: f64,
    /// The channels as read, when there were exactly two.
    pub stereo: Option<Stereo>,
}

/// The two channels of a stereo sound, full scale 1.
#[derive(Debug, Clone, PartialEq)]
pub struct Stereo {
    /// The left channel.
    pub left: Vec<f32>,
    /// The right channel, as long as the left.
    pub right: Vec<f32>,
}

impl Stereo {
    /// Adds the frames of `interleaved` (left, right, left, ...), each scaled
    /// by `scale`.
    fn extend(&mut self, interleaved: &[f32], scale: f32) {
        for frame in interleaved.chunks_exact(2) {
            self.left.push(frame[0] * scale);
            self.right.push(frame[1] * scale);
        }
    }

    /// Empty channels, if a file of `channels` channels is stereo.
    fn for_channels(channels: usize) -> Option<Self> {
        (channels == 2).then(|| Self {
            left: Vec::new(),
            right: Vec::new(),
        })
    }
}

impl MonoAudio {
    /// One channel, `signal`, at `sample_rate` (Hz).
    pub fn of_channel(signal: Vec<f32>, sample_rate: f64) -> Self {
        Self {
            signal,
            sample_rate,
            stereo: None,
        }
    }

    /// Two channels, `left` and `right` (as long as each other), at
    /// `sample_rate` (Hz), with their mix.
    pub fn of_pair(left: Vec<f32>, right: Vec<f32>, sample_rate: f64) -> Self {
        Self {
            signal: left
                .iter()
                .zip(&right)
                .map(|(l, r)| 0.5 * (l + r))
                .collect(),
            sample_rate,
            stereo: Some(Stereo { left, right }),
        }
    }

    /// Length, s.
    pub fn seconds(&self) -> f64 {
        self.signal.len() as f64 / self.sample_rate
    }
}

/// Reads `path`, a WAV (integer PCM of 8 to 32 bits or 32-bit float) or Ogg
/// Vorbis file, told apart by their first bytes, and mixes its channels to
/// mono (keeping a stereo file's two channels too). A missing, unreadable, corrupt or empty file is a one-line error
/// naming it.
pub fn read_mono(path: &Path) -> Result<MonoAudio, String> {
    let fail = |reason: String| format!("cannot read {}: {reason}", path.display());
    let bytes = orchard_engine::input::read_capped(path, MAX_AUDIO_BYTES).map_err(fail)?;
    let audio = match bytes.get(..4) {
        Some(b"RIFF") => read_wav(Cursor::new(&bytes)),
        Some(b"OggS") => read_ogg(Cursor::new(&bytes)),
        Some(_) => Err("neither a WAV nor an Ogg Vorbis file".into()),
        None => Err("too short for a WAV or Ogg Vorbis file".into()),
    }
    .map_err(fail)?;
    // A rate no renderer plays (1 Hz) would put every time measured
    // thousands of seconds off.
    check_sample_rate(audio.sample_rate).map_err(|e| fail(e.to_string()))?;
    if audio.signal.is_empty() {
        return Err(fail("no samples".into()));
    }
    if !audio.signal.iter().all(|s| s.is_finite()) {
        return Err(fail("samples that are not finite numbers".into()));
    }
    Ok(audio)
}

/// Mixes interleaved samples of `channels` channels to mono, scaling each by
/// `scale`.
fn mix(interleaved: &[f32], channels: usize, scale: f32, into: &mut Vec<f32>) {
    let gain = scale / channels as f32;
    into.extend(
        interleaved
            .chunks_exact(channels)
            .map(|frame| frame.iter().sum::<f32>() * gain),
    );
}

fn read_wav(reader: impl Read) -> Result<MonoAudio, String> {
    let mut wav = hound::WavReader::new(reader).map_err(|e| e.to_string())?;
    let spec = wav.spec();
    let channels = usize::from(spec.channels);
    if channels == 0 || spec.sample_rate == 0 {
        return Err("no channels or no sample rate".into());
    }
    let (samples, scale): (Result<Vec<f32>, _>, f32) = match spec.sample_format {
        hound::SampleFormat::Float => (wav.samples::<f32>().collect(), 1.0),
        hound::SampleFormat::Int => (
            wav.samples::<i32>().map(|s| s.map(|s| s as f32)).collect(),
            1.0 / (1u64 << (spec.bits_per_sample.clamp(1, 32) - 1)) as f32,
        ),
    };
    let samples = samples.map_err(|e| e.to_string())?;
    let mut signal = Vec::with_capacity(samples.len() / channels);
    mix(&samples, channels, scale, &mut signal);
    let mut stereo = Stereo::for_channels(channels);
    if let Some(stereo) = &mut stereo {
        stereo.extend(&samples, scale);
    }
    Ok(MonoAudio {
        signal,
        sample_rate: f64::from(spec.sample_rate),
        stereo,
    })
}

fn read_ogg(reader: impl Read + Seek) -> Result<MonoAudio, String> {
    let mut ogg = OggStreamReader::new(reader).map_err(|e| e.to_string())?;
    let channels = usize::from(ogg.ident_hdr.audio_channels);
    let sample_rate = ogg.ident_hdr.audio_sample_rate;
    if channels == 0 || sample_rate == 0 {
        return Err("no channels or no sample rate".into());
    }
    let mut signal = Vec::new();
    let mut stereo = Stereo::for_channels(channels);
    let mut packet = Vec::new();
    while let Some(samples) = ogg.read_dec_packet_itl().map_err(|e| e.to_string())? {
        packet.clear();
        packet.extend(samples.iter().map(|&s| f32::from(s)));
        mix(&packet, channels, 1.0 / 32_768.0, &mut signal);
        if let Some(stereo) = &mut stereo {
            stereo.extend(&packet, 1.0 / 32_768.0);
        }
    }
    Ok(MonoAudio {
        signal,
        sample_rate: f64::from(sample_rate),
        stereo,
    })
}
