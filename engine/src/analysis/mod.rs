//! Measurements on rendered audio: the quantities a tuner or an acoustician reads
//! off a recording. The note measurements (onset, partials and inharmonicity,
//! two-stage decay, brightness) are those `orchard analyze --note` and
//! `orchard compare` report, so tests can hold the engine to the same numbers;
//! a note's partial levels against another's ([`level_difference`]), its
//! attack's noise ([`attack_noise`]), the dips in its partials' decay
//! ([`partial_dips`]), each partial's decay time ([`partial_t60s`]) and its
//! stereo image ([`stereo_image`]) are those
//! `orchard compare` sets beside a recording's;
//! a mechanism's clicks are found by [`click_onsets`], and a room's
//! reverberation time and echo density by [`schroeder_t60`] and
//! [`echo_density`].

mod attack;
mod centroid;
mod clicks;
mod decay;
mod dips;
mod fit;
mod level;
mod onset;
mod partial_decay;
mod partial_levels;
mod partials;
mod pitch;
mod reverb;
mod spectrum;
mod stereo;
mod stft;

pub use attack::{
    ATTACK_SPAN_S, ATTACK_TOP_HZ, AttackNoise, BELOW_FIRST_FRACTION, LATER_S, attack_noise,
};
pub use centroid::{CENTROID_SPAN_S, centroid_first, power_centroid, spectral_centroid};
pub use clicks::click_onsets;
pub use decay::{
    EARLY_SPAN_DB, LATE_FROM_DB, LATE_TO_DB, LEVEL_WINDOW_S, LevelTrack, TwoStageDecay,
    level_track, two_stage_decay, two_stage_decay_heard,
};
pub use dips::{
    DIP_CLEAR_DB, DIP_FRAME_PERIODS, DIP_FRAME_S, DIP_HOP_S, DIP_RANGE_DB, DIP_SIDE_S, Dip,
    deepest_dip, partial_dips, partial_track,
};
pub use fit::{Line, fit_line};
pub use level::{peak, rms};
pub use onset::{ONSET_FRACTION, from_onset, onset};
pub use partial_decay::{
    BEAT_SPAN_S, PARTIAL_DECAY_DB, PARTIAL_DECAY_SPAN_S, partial_t60s, track_t60,
};
pub use partial_levels::{COMPARED_PARTIALS, LevelDifference, level_difference, level_re_first};
pub use partials::{
    FIT_PARTIALS, PARTIALS_FROM_S, PARTIALS_OVER_S, Partial, StiffFit, measure_partials,
    measure_partials_heard, note_partials, note_partials_heard,
};
pub use pitch::{HIGHEST_F0_HZ, LOWEST_F0_HZ, estimate_f0};
pub use reverb::{echo_density, schroeder_t60};
pub use spectrum::{amplitude_at, peak_frequency};
pub use stereo::{StereoImage, stereo_image};
pub use stft::{Spectrogram, spectrogram};
