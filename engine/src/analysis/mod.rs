//! Measurements on rendered audio: the quantities a tuner or an acoustician reads
//! off a recording.

mod centroid;
mod level;
mod spectrum;
mod stft;

pub use centroid::spectral_centroid;
pub use level::{peak, rms};
pub use spectrum::{amplitude_at, peak_frequency};
pub use stft::{Spectrogram, spectrogram};
