//! Measurements on rendered audio: the quantities a tuner or an acoustician reads
//! off a recording. The note measurements (onset, partials and inharmonicity,
//! two-stage decay, brightness) are those `orchard analyze --note` and
//! `orchard compare` report, so tests can hold the engine to the same numbers;
//! a mechanism's clicks are found by [`click_onsets`], and a room's
//! reverberation time and echo density by [`schroeder_t60`] and
//! [`echo_density`].

mod centroid;
mod clicks;
mod decay;
mod fit;
mod level;
mod onset;
mod partials;
mod pitch;
mod reverb;
mod spectrum;
mod stft;

pub use centroid::{CENTROID_SPAN_S, centroid_first, power_centroid, spectral_centroid};
pub use clicks::click_onsets;
pub use decay::{
    EARLY_SPAN_DB, LATE_FROM_DB, LATE_TO_DB, LEVEL_WINDOW_S, LevelTrack, TwoStageDecay,
    level_track, two_stage_decay,
};
pub use fit::{Line, fit_line};
pub use level::{peak, rms};
pub use onset::{ONSET_FRACTION, onset};
pub use partials::{
    FIT_PARTIALS, PARTIALS_FROM_S, PARTIALS_OVER_S, Partial, StiffFit, measure_partials,
    note_partials,
};
pub use pitch::{HIGHEST_F0_HZ, LOWEST_F0_HZ, estimate_f0};
pub use reverb::{echo_density, schroeder_t60};
pub use spectrum::{amplitude_at, peak_frequency};
pub use stft::{Spectrogram, spectrogram};
