//! The passes of one render over its score: with `--normalize` a first that
//! finds the peak, then the one that writes, under one progress bar.

use indicatif::ProgressBar;
use orchard_engine::instrument::Preset;
use orchard_engine::midi::Score;
use orchard_engine::rt::Synth;

use crate::args::render::RenderArgs;
use crate::interrupt;
use crate::level::{self, Stage};
use crate::probe::Recorder;
use crate::render::{self, RenderSummary};
use crate::wav::StereoWav;

/// The passes of one render: the score they play, how long they let it
/// ring, and the bar that shows how far they have gone.
pub struct Passes<'a> {
    /// The score played.
    score: &'a Score,
    /// `--max-tail`, s.
    max_tail_s: f64,
    /// Sample rate, Hz.
    rate: f64,
    /// Frames one pass is expected to render (the score and a second).
    expected_frames: u64,
    /// Passes made: 2 with `--normalize`, else 1.
    count: u64,
    /// Only long renders get a bar; it draws only when stderr is a terminal.
    bar: ProgressBar,
}

/// What the writing pass played.
pub struct Written {
    /// How much was rendered.
    pub summary: RenderSummary,
    /// The peak of the instrument's output (before `--normalize` or
    /// `--limiter`), full scale 1.
    pub instrument_peak: f32,
}

impl<'a> Passes<'a> {
    /// The passes `args` ask for over `score`, at `rate` Hz.
    pub fn new(score: &'a Score, args: &RenderArgs, rate: f64) -> Self {
        let expected_frames = ((score.end_s + 1.0) * rate) as u64;
        let count = if args.normalize { 2 } else { 1 };
        let bar = if score.end_s > 10.0 && !args.in_batch {
            ProgressBar::new(count * expected_frames)
        } else {
            ProgressBar::hidden()
        };
        Self {
            score,
            max_tail_s: args.max_tail,
            rate,
            expected_frames,
            count,
            bar,
        }
    }

    /// `--normalize`'s first pass: plays the score on a new synth of
    /// `preset` and returns the peak of its output, full scale 1.
    pub fn find_peak(&self, preset: &Preset) -> Result<f32, String> {
        let mut first = Synth::new(preset, self.rate).map_err(|e| e.to_string())?;
        let mut peak = 0.0f32;
        render::render(
            &mut first,
            self.score,
            self.max_tail_s,
            render::BLOCK,
            |synth, l, r| {
                interrupt::check()?;
                peak = level::peak(peak, l, r);
                self.show(0, synth);
                Ok(())
            },
        )?;
        Ok(peak)
    }

    /// The pass that writes: plays the score on `synth` through `stage`
    /// into `wav`. The probes' `recorder`, if any, hears the instrument
    /// (before `stage`) and records a row every `probe_every` frames.
    pub fn write(
        &self,
        synth: &mut Synth,
        probe_every: Option<usize>,
        stage: &mut Stage,
        wav: &mut StereoWav,
        mut recorder: Option<&mut Recorder>,
    ) -> Result<Written, String> {
        let mut write = |l: &[f32], r: &[f32]| wav.write(l, r);
        let mut instrument_peak = 0.0f32;
        let split = probe_every.unwrap_or(render::BLOCK);
        let summary = render::render(synth, self.score, self.max_tail_s, split, |synth, l, r| {
            interrupt::check()?;
            instrument_peak = level::peak(instrument_peak, l, r);
            stage.process(l, r, &mut write)?;
            // Probes hear the instrument, before --normalize or --limiter.
            if let Some(recorder) = recorder.as_deref_mut() {
                recorder.listen(l, r);
                if synth.samples_rendered() % split as u64 == 0 {
                    recorder.record(synth)?;
                }
            }
            self.show(self.count - 1, synth);
            Ok(())
        })?;
        stage.finish(&mut write)?;
        interrupt::check()?;
        Ok(Written {
            summary,
            instrument_peak,
        })
    }

    /// Clears the bar once the passes are done.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Shows `synth`'s progress in pass `pass` (0 is the first).
    fn show(&self, pass: u64, synth: &Synth) {
        let frames = synth.samples_rendered().min(self.expected_frames);
        self.bar.set_position(pass * self.expected_frames + frames);
    }
}
