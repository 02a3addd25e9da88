//! The seam between an instrument family's audio-rate side and the
//! synthesiser: every key's voice and the body they drive, playing the
//! operations the mechanical worker sends.

use std::any::Any;
use std::f64::consts::FRAC_PI_4;
use std::fmt;

use super::ops::Operation;
use crate::instrument::{ContactTrace, OutputSpec, PresetError, Rebound, StrikeReport};

/// Frames a family renders per call at most; sets the size of the mixing buses.
pub const CHUNK: usize = 256;

/// Output level below which a voice counts as silent: −120 dBFS.
pub const SILENCE_LEVEL: f64 = 1e-6;

/// The sample rates an instrument can be built for, Hz.
///
/// Below [`super::MIN_INTERNAL_RATE_HZ`] the synthesiser runs at a whole
/// multiple of the rate and decimates its output (see [`super::Decimator`]);
/// a family is only ever built for a rate of at least that.
pub const SAMPLE_RATES_HZ: std::ops::RangeInclusive<f64> = 1_000.0..=2_000_000.0;

/// Why a synthesiser could not be prepared.
#[derive(Debug, Clone, PartialEq)]
pub enum SynthError {
    /// The sample rate is not a finite number between 1 kHz and 2 MHz.
    SampleRate(f64),
    /// The preset's objects do not fit together.
    Preset(PresetError),
    /// A key's voice cannot be built at this sample rate: the family's
    /// one-line reason, naming the key.
    Voice(String),
    /// The preset names a family no registry knows, or no family fits it.
    Family(String),
    /// The mechanical worker's thread could not be started.
    Worker(String),
    /// The last instrument loaded has not been installed yet.
    SwitchPending,
}

impl fmt::Display for SynthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SampleRate(rate) => {
                write!(
                    f,
                    "sample rate {rate} Hz is outside {} to {} Hz",
                    SAMPLE_RATES_HZ.start(),
                    SAMPLE_RATES_HZ.end()
                )
            }
            Self::Preset(e) => e.fmt(f),
            Self::Voice(reason) => reason.fmt(f),
            Self::Family(reason) => reason.fmt(f),
            Self::Worker(reason) => write!(f, "cannot start the mechanical worker: {reason}"),
            Self::SwitchPending => {
                write!(
                    f,
                    "the instrument loaded before has not started playing yet"
                )
            }
        }
    }
}

impl std::error::Error for SynthError {}

/// A whole sample rate in Hz typed on a command line, if it is one an
/// instrument can be built for; otherwise the reason, with the range.
pub fn parse_sample_rate(text: &str) -> Result<u32, String> {
    let rate: u32 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number of Hz"))?;
    check_sample_rate(f64::from(rate)).map_err(|e| e.to_string())?;
    Ok(rate)
}

/// `Ok` if `sample_rate` (Hz) is one an instrument can be built for.
pub fn check_sample_rate(sample_rate: f64) -> Result<(), SynthError> {
    if sample_rate.is_finite() && SAMPLE_RATES_HZ.contains(&sample_rate) {
        Ok(())
    } else {
        Err(SynthError::SampleRate(sample_rate))
    }
}

/// The left and right gains of a voice at `position` along the keyboard, 0
/// (lowest key) to 1 (highest): bass to the left, treble to the right, as
/// the player hears it, panned at equal power over the output's stereo
/// width, times its gain.
pub fn stereo_gains(output: &OutputSpec, position: f64) -> [f64; 2] {
    let angle = FRAC_PI_4 * (1.0 + output.stereo_width * (2.0 * position - 1.0));
    [
        output.gain_per_newton * angle.cos(),
        output.gain_per_newton * angle.sin(),
    ]
}

/// Adds `gains` times `tick(frame index)` to each frame of `out`: a voice
/// rendered on its own into a stereo bus.
#[inline]
pub fn mix(out: &mut [[f64; 2]], [left, right]: [f64; 2], mut tick: impl FnMut(usize) -> f64) {
    for (i, frame) in out.iter_mut().enumerate() {
        let y = tick(i);
        frame[0] += left * y;
        frame[1] += right * y;
    }
}

/// Writes a stereo bus to the output channels `left` and `right` (as many
/// frames as the shortest of the three).
#[inline]
pub fn write_bus(bus: &[[f64; 2]], left: &mut [f32], right: &mut [f32]) {
    for ((l, r), &[bus_left, bus_right]) in left.iter_mut().zip(right.iter_mut()).zip(bus) {
        *l = bus_left as f32;
        *r = bus_right as f32;
    }
}

/// An instrument family's audio-rate side: every key's voice and the body
/// they drive.
///
/// Built off the audio thread; after that [`Voices::apply`],
/// [`Voices::render`], [`Voices::reset`] and [`Voices::continue_from`] run on
/// the audio thread and never allocate, lock or panic.
pub trait Voices: Send {
    /// Carries out one operation of the mechanical worker now.
    fn apply(&mut self, operation: Operation);

    /// Renders `left.len()` frames (at most [`CHUNK`]) into `left` and
    /// `right`, overwriting them. `on_rebound(key, frame, how)` hears of every
    /// striker that lets go after a strike: at which frame of this call, and
    /// how.
    fn render(
        &mut self,
        left: &mut [f32],
        right: &mut [f32],
        on_rebound: &mut dyn FnMut(u8, usize, Rebound),
    );

    /// Everything at rest.
    fn reset(&mut self);

    /// Carries on everything sounding in `old`, the same family's voices of
    /// the same shape with other values, from the next sample with these
    /// values. Returns false, changing nothing, if the shapes differ (or
    /// `old` is another family's).
    fn continue_from(&mut self, old: &dyn Voices) -> bool;

    /// The voices as their own type, for [`Voices::continue_from`] and
    /// inspection.
    fn as_any(&self) -> &dyn Any;

    /// Whether any voice is sounding or the body ringing.
    fn is_active(&self) -> bool;

    /// The frequency of `key`'s lowest partial, Hz, for keys that sound a
    /// pitch (`None` for keys the family does not play or pitches it does not
    /// name). A synthesiser whose host rate cannot carry that pitch leaves
    /// the key silent.
    fn pitch_hz(&self, _key: u8) -> Option<f64> {
        None
    }

    /// How many keys are sounding or have a striker in flight.
    fn sounding_keys(&self) -> u32;

    /// How many times a voice went non-finite and was silenced.
    fn non_finite_resets(&self) -> u64;

    /// Contacts taken from a key still holding one, so far (families that
    /// share strikers among keys).
    fn stolen_contacts(&self) -> u64 {
        0
    }

    /// Energy of the waves on each sounding key's resonator, J, into
    /// `out(key, joules)` (keys at rest may be left out).
    fn resonator_energies(&self, _out: &mut dyn FnMut(u8, f64)) {}

    /// Energy of the waves on `key`'s resonator now, J (0 at rest).
    fn resonator_energy_j(&self, _key: u8) -> f64 {
        0.0
    }

    /// What the last strike of `key` did, if its family reports strikes.
    fn strike_report(&self, _key: u8) -> Option<&StrikeReport> {
        None
    }

    /// The contact force and felt compression of `key`'s last strike.
    fn contact_trace(&self, _key: u8) -> Option<&ContactTrace> {
        None
    }
}
