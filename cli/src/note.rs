//! `orchard analyze --note N --velocity V`: plays one note on an instrument
//! and measures it: the hammer's contact, the partials and the inharmonicity,
//! the decay times, a spectrogram, and the note as a WAV file.

pub use orchard_engine::instrument::note_name;
use std::fmt::Write as _;

use orchard_engine::analysis::{
    EARLY_SPAN_DB, LATE_FROM_DB, LATE_TO_DB, LevelTrack, Partial, StiffFit, TwoStageDecay,
    amplitude_at, note_partials, onset, two_stage_decay,
};
use orchard_engine::instrument::{Preset, StrikeReport};
use orchard_engine::midi::{Score, ScoreEvent};
use orchard_engine::rt::{Synth, SynthEvent};

use crate::args::analyze::AnalyzeArgs;
use crate::audio_file::Stereo;
use crate::outputs::{self, require_png};
use crate::ranged::Ranged;
use crate::render::{self, BLOCK};
use crate::riff::SampleFormat;
use crate::spectrogram::{self, SpectrogramSpec};
use crate::wav::StereoWav;

/// Simulated time of a note analysis unless `--duration` says otherwise, s.
pub const DEFAULT_DURATION_S: f64 = 8.0;

/// How long a note is held and rendered (`--duration`), s.
pub const DURATION: Ranged = Ranged::closed(0.5, 120.0, "s");
/// Partials measured (the inharmonicity is fitted to the first
/// [`orchard_engine::analysis::FIT_PARTIALS`]; the table shows how far the
/// higher ones lie from the fit).
pub const PARTIALS: u32 = 12;
/// Partials whose decay times are reported one by one.
const DECAY_PARTIALS: usize = 6;

/// One note played and recorded.
pub struct Recording {
    /// Mono output (the mean of both channels), full scale 1.
    pub signal: Vec<f32>,
    /// The two channels the instrument played, full scale 1.
    pub stereo: Stereo,
    /// Sample rate, Hz.
    pub sample_rate: f64,
    /// The strike, as the simulation measured it (struck strings report
    /// their strikes; bars do not).
    pub strike: Option<StrikeReport>,
}

/// Runs a note analysis: checks the arguments, plays the note with the key
/// held for the whole duration, and returns the report, or a one-line reason.
pub fn run(args: &AnalyzeArgs, key: u8) -> Result<String, String> {
    let duration_s = args.duration.unwrap_or(DEFAULT_DURATION_S);
    check_held_note(duration_s, args.velocity)?;
    if let Some(path) = &args.spectrogram {
        require_png("--spectrogram", path)?;
    }
    let outputs: Vec<_> = [("--wav", &args.wav), ("--spectrogram", &args.spectrogram)]
        .into_iter()
        .filter_map(|(flag, path)| Some((flag, path.as_deref()?)))
        .collect();
    outputs::check(&outputs, &args.instrument.input_files())?;
    let preset = args.instrument.load()?;
    check_on_keyboard(&preset, "--note", key)?;
    // Created before playing so that an unwritable path fails at once.
    let wav = match &args.wav {
        Some(path) => Some(StereoWav::create(
            path,
            args.sample_rate,
            SampleFormat::Float32,
        )?),
        None => None,
    };
    let recording = play(&preset, key, args.velocity, duration_s, args.sample_rate)?;
    let figures = measure(&preset, key, args.velocity, &recording)?;
    let mut text = figures.report();
    if let Some(path) = &args.spectrogram {
        let title = format!(
            "key {} ({}) at velocity {}, {}",
            key,
            note_name(key),
            args.velocity,
            preset.name
        );
        spectrogram::write_png(
            &SpectrogramSpec {
                signal: &recording.signal,
                sample_rate: recording.sample_rate,
                lowest_hz: figures.first_hz,
                title: &title,
            },
            path,
        )?;
        let _ = write!(text, "\nwrote spectrogram {}", path.display());
    }
    if let (Some(mut wav), Some(path)) = (wav, &args.wav) {
        wav.write(&recording.stereo.left, &recording.stereo.right)?;
        wav.finish()?;
        let _ = write!(text, "\nwrote {}", path.display());
    }
    Ok(text)
}

/// Plays `key` at MIDI `velocity` on `preset`, held for `duration_s` (s) at
/// `sample_rate` (Hz), and measures it as `orchard analyze --note` does
/// (writing nothing): the arguments are checked first, and every error is
/// one line.
pub fn analyze(
    preset: &Preset,
    key: u8,
    velocity: u8,
    duration_s: f64,
    sample_rate: u32,
) -> Result<NoteFigures, String> {
    check_held_note(duration_s, velocity)?;
    check_on_keyboard(preset, "--note", key)?;
    let recording = play(preset, key, velocity, duration_s, sample_rate)?;
    measure(preset, key, velocity, &recording)
}

/// Checks the `--duration` (s) and `--velocity` of a held note.
pub fn check_held_note(duration_s: f64, velocity: u8) -> Result<(), String> {
    DURATION
        .check("--duration", duration_s)
        .map_err(|e| format!("{e} for a note"))?;
    if !(1..=127).contains(&velocity) {
        return Err(format!("--velocity {velocity} must be 1 to 127"));
    }
    Ok(())
}

/// Checks that `key`, given with `flag`, is on `preset`'s keyboard.
pub fn check_on_keyboard(preset: &Preset, flag: &str, key: u8) -> Result<(), String> {
    let keyboard = preset.keyboard;
    if (keyboard.lowest_key..=keyboard.highest_key).contains(&key) {
        return Ok(());
    }
    Err(format!(
        "{flag} {key} is outside the {} preset's keyboard ({} to {})",
        preset.name, keyboard.lowest_key, keyboard.highest_key
    ))
}

/// Plays `key` at MIDI `velocity` from rest and holds it for `duration_s`
/// (s), rendering the synthesiser in lock-step at `sample_rate` (Hz).
pub fn play(
    preset: &Preset,
    key: u8,
    velocity: u8,
    duration_s: f64,
    sample_rate: u32,
) -> Result<Recording, String> {
    let rate = f64::from(sample_rate);
    let mut synth = Synth::new(preset, rate).map_err(|e| e.to_string())?;
    let press = ScoreEvent {
        time_s: 0.0,
        event: SynthEvent::NoteOn {
            key,
            velocity: f32::from(velocity) / 127.0,
        },
    };
    let score = Score::new(vec![press], duration_s);
    let frames = (duration_s * rate).round() as usize;
    let mut stereo = Stereo {
        left: Vec::with_capacity(frames + BLOCK),
        right: Vec::with_capacity(frames + BLOCK),
    };
    // No tail: the key is held, so the recording ends with the score.
    render::render(&mut synth, &score, 0.0, BLOCK, |_, left, right| {
        stereo.left.extend_from_slice(left);
        stereo.right.extend_from_slice(right);
        Ok(())
    })?;
    stereo.left.truncate(frames);
    stereo.right.truncate(frames);
    let signal = stereo
        .left
        .iter()
        .zip(&stereo.right)
        .map(|(l, r)| 0.5 * (l + r))
        .collect();
    let strike = synth.strike_report(key).copied();
    Ok(Recording {
        signal,
        stereo,
        sample_rate: rate,
        strike,
    })
}

/// What `orchard analyze --note` measures of one played note.
#[derive(Debug, Clone, PartialEq)]
pub struct NoteFigures {
    /// The MIDI key played.
    pub key: u8,
    /// Its MIDI velocity, 1 to 127.
    pub velocity: u8,
    /// The instrument's name.
    pub preset_name: String,
    /// Length of the recording, s (the key is held throughout).
    pub duration_s: f64,
    /// Sample rate, Hz.
    pub sample_rate: f64,
    /// The strike as the simulation measured it (struck strings only).
    pub strike: Option<StrikeReport>,
    /// The partials and the inharmonicity fitted to them.
    pub partials: PartialFigures,
    /// T60 decay times of the broadband level.
    pub level_decay: TwoStageDecay,
    /// The first partial's frequency, Hz (the tuning's target when it was not
    /// found).
    pub first_hz: f64,
}

/// The partials of a note, as far as they could be measured.
#[derive(Debug, Clone, PartialEq)]
pub enum PartialFigures {
    /// The key is not a string (a bar, a tine): no inharmonicity to fit.
    NotAString,
    /// Too few partials were found to fit the stiff-string law.
    TooFew {
        /// How many were found.
        found: usize,
    },
    /// The stiff-string fit and every partial found.
    Fitted(FittedPartials),
}

/// The partials found and the stiff-string law fitted to them.
#[derive(Debug, Clone, PartialEq)]
pub struct FittedPartials {
    /// `f_n = n·f0·sqrt(1 + B·n²)` fitted to the partials [`Self::fitted`].
    pub fit: StiffFit,
    /// The partial numbers the fit used.
    pub fitted: Vec<u32>,
    /// The preset's inharmonicity `B` for the key (dimensionless).
    pub preset_b: f64,
    /// The tuning's target for the first partial, Hz.
    pub target_hz: f64,
    /// The partials found, in order of number.
    pub partials: Vec<PartialFigure>,
}

/// One partial of a note.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PartialFigure {
    /// Partial number, 1 for the fundamental.
    pub number: u32,
    /// Measured frequency, Hz.
    pub frequency_hz: f64,
    /// The fit's frequency for this partial, Hz.
    pub fit_hz: f64,
    /// Level against the strongest partial, dB.
    pub level_db: f64,
    /// Its decay times (measured for the first partials only).
    pub decay: Option<TwoStageDecay>,
}

impl PartialFigure {
    /// How far the measured frequency lies from the fit, cents.
    pub fn cents_off_fit(&self) -> f64 {
        1200.0 * (self.frequency_hz / self.fit_hz).log2()
    }
}

/// Measures the partials, the inharmonicity and the decay times of `key`,
/// played at MIDI `velocity` and recorded as `recording`.
pub fn measure(
    preset: &Preset,
    key: u8,
    velocity: u8,
    recording: &Recording,
) -> Result<NoteFigures, String> {
    let signal = &recording.signal;
    let rate = recording.sample_rate;
    let Some(onset) = onset(signal) else {
        return Err(format!("key {key} made no sound"));
    };
    let target_hz = preset.fundamental_hz(key);
    let preset_b = preset.key_params(key).map(|k| k.inharmonicity);
    let found: Vec<Partial> = match preset_b {
        Some(_) => note_partials(signal, rate, target_hz, PARTIALS),
        None => Vec::new(),
    };
    let first_hz = found
        .iter()
        .find(|p| p.number == 1)
        .map_or(target_hz, |p| p.frequency_hz);
    let decaying = &found[..found.len().min(DECAY_PARTIALS)];
    let tracks = partial_tracks(&signal[onset..], rate, first_hz, decaying);
    let decays: Vec<TwoStageDecay> = tracks.iter().map(LevelTrack::two_stage_decay).collect();
    let partials = match preset_b {
        None => PartialFigures::NotAString,
        Some(preset_b) => FittedPartials::fit(&found, &decays, target_hz, preset_b),
    };
    Ok(NoteFigures {
        key,
        velocity,
        preset_name: preset.name.clone(),
        duration_s: signal.len() as f64 / rate,
        sample_rate: rate,
        strike: recording.strike,
        partials,
        level_decay: two_stage_decay(signal, rate),
        first_hz,
    })
}

impl NoteFigures {
    /// The report `orchard analyze --note` prints.
    pub fn report(&self) -> String {
        let mut text = self.header();
        text.push('\n');
        match &self.partials {
            PartialFigures::NotAString => {
                let _ = write!(
                    text,
                    "partials: not measured (the {} preset's key {} is not a string)",
                    self.preset_name, self.key
                );
            }
            PartialFigures::TooFew { found } => {
                let _ = write!(text, "partials: too few found to fit ({found})");
            }
            PartialFigures::Fitted(fitted) => fitted.report(self.key, &mut text),
        }
        let _ = write!(
            text,
            "\ndecay of the level: T60 {} early (first {EARLY_SPAN_DB} dB), {} late (-{LATE_FROM_DB} to -{LATE_TO_DB} dB or the end)",
            show_t60(self.level_decay.early_t60_s),
            show_t60(self.level_decay.late_t60_s)
        );
        text
    }

    /// The report's first lines: what was played and the strike.
    fn header(&self) -> String {
        let ms = |t: Option<f64>| t.map_or_else(|| "–".into(), |t| format!("{:.2} ms", t * 1e3));
        let mut text = format!(
            "key {} ({}) at velocity {} on {}: {:.1} s at {} Hz, key held\n",
            self.key,
            note_name(self.key),
            self.velocity,
            self.preset_name,
            self.duration_s,
            self.sample_rate
        );
        let Some(s) = &self.strike else {
            text.push_str("contact: not reported (only struck strings report their strikes)");
            return text;
        };
        let _ = writeln!(
            text,
            "hammer: {:.2} m/s at let-off, first touch {} later",
            s.strike_speed_m_s,
            ms(s.first_touch_s)
        );
        let plural = |n: u32| if n == 1 { "" } else { "s" };
        let _ = write!(
            text,
            "contact: {} (first contact), {} contact{}, {} force pulse{}, peak force {:.1} N",
            ms(s.contact_duration_s),
            s.contacts,
            plural(s.contacts),
            s.force_pulses,
            plural(s.force_pulses),
            s.peak_force_n
        );
        if let Some(e) = s.restitution() {
            let _ = write!(text, ", restitution {e:.2}");
        }
        text
    }
}

impl FittedPartials {
    /// The stiff-string fit of the `found` partials (the preset's `preset_b`
    /// and first partial at `target_hz`, Hz, for comparison), with the decay
    /// times of the first (`decays`).
    fn fit(
        found: &[Partial],
        decays: &[TwoStageDecay],
        target_hz: f64,
        preset_b: f64,
    ) -> PartialFigures {
        let fitted = StiffFit::fitted(found);
        let Some(fit) = StiffFit::fit(fitted) else {
            return PartialFigures::TooFew { found: found.len() };
        };
        let strongest = found.iter().fold(0.0f64, |m, p| m.max(p.amplitude));
        let partials = found
            .iter()
            .enumerate()
            .map(|(i, p)| PartialFigure {
                number: p.number,
                frequency_hz: p.frequency_hz,
                fit_hz: fit.partial_hz(p.number),
                level_db: 20.0 * (p.amplitude / strongest).log10(),
                decay: decays.get(i).copied(),
            })
            .collect();
        PartialFigures::Fitted(Self {
            fit,
            fitted: fitted.iter().map(|p| p.number).collect(),
            preset_b,
            target_hz,
            partials,
        })
    }

    /// The first partial, if it was found.
    pub fn first(&self) -> Option<&PartialFigure> {
        self.partials.iter().find(|p| p.number == 1)
    }

    /// How far the first partial lies from its target, cents (`None` if it
    /// was not found).
    pub fn tuning_cents(&self) -> Option<f64> {
        self.first()
            .map(|p| 1200.0 * (p.frequency_hz / self.target_hz).log2())
    }

    /// The inharmonicity fit, the tuning and a table of the partials with
    /// their decay times, appended to `text`.
    fn report(&self, key: u8, text: &mut String) {
        let numbers: Vec<String> = self.fitted.iter().map(u32::to_string).collect();
        let _ = writeln!(
            text,
            "inharmonicity: B = {:.3e} fitted to partials {} (preset {:.3e} for key {key}, {:+.1} %); f0 = {:.2} Hz",
            self.fit.b,
            numbers.join(","),
            self.preset_b,
            100.0 * (self.fit.b / self.preset_b - 1.0),
            self.fit.f0_hz
        );
        if let (Some(first), Some(cents)) = (self.first(), self.tuning_cents()) {
            let _ = writeln!(
                text,
                "tuning: partial 1 at {:.2} Hz, target {:.2} Hz ({cents:+.2} cents)",
                first.frequency_hz, self.target_hz
            );
        }
        let _ = write!(
            text,
            "partial  measured Hz     fit Hz  cents off fit  level dB  T60 early  T60 late"
        );
        for p in &self.partials {
            let (early, late) = p.decay.map_or((String::new(), String::new()), |d| {
                (show_t60(d.early_t60_s), show_t60(d.late_t60_s))
            });
            let row = format!(
                "{:>7}  {:>11.2}  {:>9.2}  {:>+13.2}  {:>8.1}  {:>9}  {:>8}",
                p.number,
                p.frequency_hz,
                p.fit_hz,
                p.cents_off_fit(),
                p.level_db,
                early,
                late
            );
            text.push('\n');
            text.push_str(row.trim_end());
        }
    }
}

/// A decay time for a report: `2.41 s`, or `–` when there is none.
pub fn show_t60(t60_s: Option<f64>) -> String {
    t60_s.map_or_else(|| "–".into(), |t| format!("{t:.2} s"))
}

/// The amplitude of each of `partials` in `signal` (from the onset), frame by
/// frame: frames of at least 0.1 s and six periods of the first partial at
/// `first_hz` (so that neighbouring partials are told apart), overlapping by
/// half.
fn partial_tracks(
    signal: &[f32],
    rate: f64,
    first_hz: f64,
    partials: &[Partial],
) -> Vec<LevelTrack> {
    let frame_s = (0.1f64).max(6.0 / first_hz);
    let frame = (frame_s * rate) as usize;
    let mut tracks = vec![LevelTrack::default(); partials.len()];
    for (i, chunk) in signal.windows(frame).step_by(frame / 2).enumerate() {
        let chunk: Vec<f64> = chunk.iter().map(|&s| f64::from(s)).collect();
        let t = (i * (frame / 2)) as f64 / rate + frame_s / 2.0;
        for (track, partial) in tracks.iter_mut().zip(partials) {
            track.push(t, amplitude_at(&chunk, rate, partial.frequency_hz));
        }
    }
    tracks
}

#[cfg(test)]
mod tests {
    use super::note_name;

    #[test]
    fn notes_are_named_with_middle_c_as_c4() {
        assert_eq!(note_name(60), "C4");
        assert_eq!(note_name(21), "A0");
        assert_eq!(note_name(70), "A♯4");
        assert_eq!(note_name(108), "C8");
    }
}
