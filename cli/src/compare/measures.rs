//! What `compare` measures of one note, and how two notes' partials'
//! decay times compare: shared by the side-by-side report, the keyboard
//! table, the recording's two channels against each other and `orchard fit`.

use std::path::Path;

use orchard_engine::analysis::{
    AttackNoise, CENTROID_SPAN_S, COMPARED_PARTIALS, Dip, LevelDifference, Partial, StereoImage,
    StiffFit, TwoStageDecay, level_difference, level_re_first, note_partials_heard, onset,
    partial_dips, partial_t60s, stereo_image, two_stage_decay_heard,
};

use super::channels::{attack_heard, centroid_heard, channels, from_onsets};
use crate::audio_file::{MonoAudio, read_mono};
use crate::note::PARTIALS;

/// The partials whose dips below their smooth decay are reported: 1 to this.
pub const DIP_PARTIALS: u32 = 4;
/// The partials whose decay times are compared: 1 to this.
pub const DECAY_PARTIALS: u32 = 10;

/// What `compare` measures of one note.
#[derive(Debug, Clone, PartialEq)]
pub struct NoteMeasures {
    /// Length of the sound from its onset to the end, s.
    pub from_onset_s: f64,
    /// Partials 1 to 12, those found (see
    /// [`orchard_engine::analysis::note_partials`]).
    pub partials: Vec<Partial>,
    /// The stiff-string fit of partials 1 to 8.
    pub fit: Option<StiffFit>,
    /// Early and late T60 of the broadband level.
    pub decay: TwoStageDecay,
    /// Spectral centroid of the first 0.3 s from the onset, Hz.
    pub centroid_hz: Option<f64>,
    /// Energy between the partials and below the fundamental in the first
    /// 50 ms (see [`orchard_engine::analysis::attack_noise`]).
    pub attack: Option<AttackNoise>,
    /// The deepest dip below its smooth decay of each of partials 1 to
    /// `DIP_PARTIALS` (`None` where a partial was not found or has no
    /// track).
    pub dips: Vec<Option<Dip>>,
    /// Where each of partials 1 to [`DECAY_PARTIALS`] lies, Hz: where it
    /// was measured, else where the stiff-string fit puts it (their decay
    /// times: [`NoteMeasures::partial_t60s_over`]).
    pub partial_hz: Vec<Option<f64>>,
    /// Left/right correlation and side/mid ratio from the onset to the end,
    /// for a stereo sound.
    pub stereo: Option<StereoImage>,
}

impl NoteMeasures {
    /// Measures the note in `audio` whose first partial is near `first_hz`
    /// (Hz). `None` if `audio` is silent.
    pub fn of(audio: &MonoAudio, first_hz: f64) -> Option<Self> {
        let rate = audio.sample_rate;
        let heard = channels(audio);
        // The first of the channels' onsets (their mix may cancel).
        let start = heard.iter().filter_map(|c| onset(c)).min()?;
        let partials = note_partials_heard(&heard, rate, first_hz, PARTIALS);
        let fit = StiffFit::fit_note(&partials);
        // Each partial where it was measured, else where the fit puts it.
        let partial_hz: Vec<Option<f64>> = (1..=DECAY_PARTIALS.max(DIP_PARTIALS))
            .map(|n| {
                let measured = partials.iter().find(|p| p.number == n);
                measured
                    .map(|p| p.frequency_hz)
                    .or_else(|| fit.map(|f| f.partial_hz(n)))
            })
            .collect();
        let dip_hz = &partial_hz[..DIP_PARTIALS as usize];
        let tracked: Vec<f64> = dip_hz.iter().flatten().copied().collect();
        let mut found =
            partial_dips(&heard, rate, dip_hz[0].unwrap_or(first_hz), &tracked).into_iter();
        let dips = dip_hz
            .iter()
            .map(|hz| hz.and_then(|_| found.next().flatten()))
            .collect();
        let stereo = audio
            .stereo
            .as_ref()
            .and_then(|s| stereo_image(s.left.get(start..)?, s.right.get(start..)?));
        Some(Self {
            from_onset_s: (audio.signal.len() - start) as f64 / rate,
            fit,
            decay: two_stage_decay_heard(&heard, rate),
            centroid_hz: centroid_heard(&heard, rate, CENTROID_SPAN_S),
            attack: fit.and_then(|f| attack_heard(&heard, rate, &f)),
            dips,
            partial_hz,
            stereo,
            partials,
        })
    }

    /// The T60 of each of partials 1 to [`DECAY_PARTIALS`] of `audio` (the
    /// note these measures were taken of, or a render of it) over its first
    /// `seconds` (s) from the onset (see
    /// [`orchard_engine::analysis::partial_t60s`]), s: a recording's over
    /// its whole length, a render's over the recording's. Measured only
    /// where asked for: each partial is tracked frame by frame.
    pub fn partial_t60s_over(&self, audio: &MonoAudio, seconds: f64) -> Vec<Option<f64>> {
        let Some(&Some(first_hz)) = self.partial_hz.first() else {
            return vec![None; self.partial_hz.len()];
        };
        let heard = from_onsets(&channels(audio), audio.sample_rate, seconds);
        let known: Vec<f64> = self.partial_hz.iter().flatten().copied().collect();
        let mut timed = partial_t60s(&heard, audio.sample_rate, first_hz, &known).into_iter();
        self.partial_hz
            .iter()
            .map(|hz| hz.and_then(|_| timed.next().flatten()))
            .collect()
    }

    /// Level of partial `n` relative to the first partial, dB (`None` if
    /// either was not found).
    pub fn level_db(&self, n: u32) -> Option<f64> {
        level_re_first(&self.partials, n)
    }

    /// How this note's partials 2–10 (relative to its fundamental) differ
    /// from `other`'s.
    pub fn levels_against(&self, other: &Self) -> Option<LevelDifference> {
        level_difference(&self.partials, &other.partials, COMPARED_PARTIALS)
    }

    /// The deepest of the partials' dips, dB, with the partial's number.
    pub fn deepest_dip(&self) -> Option<(u32, Dip)> {
        (1..)
            .zip(&self.dips)
            .filter_map(|(n, d)| Some((n, (*d)?)))
            .min_by(|a, b| a.1.depth_db.total_cmp(&b.1.depth_db))
    }

    /// Frequency of the first partial, Hz.
    pub fn first_hz(&self) -> Option<f64> {
        self.partials
            .iter()
            .find(|p| p.number == 1)
            .map(|p| p.frequency_hz)
    }
}

/// How a render's partials' decay times compare with a recording's: the
/// geometric mean of the render's T60 over the recording's across the
/// partials both have, and how many they are (`None` if none).
pub fn partial_decay_ratio(ours: &[Option<f64>], theirs: &[Option<f64>]) -> Option<(f64, usize)> {
    let logs: Vec<f64> = ours
        .iter()
        .zip(theirs)
        .filter_map(|(o, t)| Some((o.as_ref()? / t.as_ref()?).ln()))
        .collect();
    (!logs.is_empty()).then(|| {
        (
            (logs.iter().sum::<f64>() / logs.len() as f64).exp(),
            logs.len(),
        )
    })
}

/// The late T60 (s) of the note in `audio` measured over only its first
/// `seconds` (s) from the onset: a render measured as long as a shorter
/// recording.
pub fn late_t60_over(audio: &MonoAudio, seconds: f64) -> Option<f64> {
    let heard = from_onsets(&channels(audio), audio.sample_rate, seconds);
    two_stage_decay_heard(&heard, audio.sample_rate).late_t60_s
}

/// Reads and measures `path` around `first_hz` (Hz).
pub fn read_and_measure(path: &Path, first_hz: f64) -> Result<(MonoAudio, NoteMeasures), String> {
    let audio = read_mono(path)?;
    let measures = NoteMeasures::of(&audio, first_hz)
        .ok_or_else(|| format!("{} is silent", path.display()))?;
    Ok((audio, measures))
}
