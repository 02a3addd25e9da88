//! `orchard render` of one file, as the sequence of its steps: the checks,
//! the score, the instrument, the outputs, the passes, the summary.

use orchard_engine::rt::Synth;

use super::passes::Passes;
use super::summary::{Outcome, probes_written};
use super::{checks, preset, score};
use crate::args::render::RenderArgs;
use crate::level::{self, Stage};
use crate::probe;
use crate::wav::StereoWav;

/// Renders one score: reads it, renders it, writes the WAV (and the probes'
/// CSV). Returns a one-line summary, or a one-line reason for failing.
/// Everything that can be checked is checked before any output is touched.
pub fn render_one(args: &RenderArgs) -> Result<String, String> {
    let output = checks::output(args)?;
    let score = score::to_play(args)?;
    let ceiling = checks::ceiling(args)?;
    let rate = f64::from(args.sample_rate);
    let probe_every = checks::probe_interval_frames(args, rate)?;
    checks::files_apart(args, output)?;
    let preset = preset::load(args)?;

    let mut synth = Synth::new(&preset, rate).map_err(|e| e.to_string())?;
    let mut recorder = match &args.probe_out {
        Some(path) => Some(probe::Recorder::new(&args.probes, &mut synth, path)?),
        None => None,
    };
    let mut wav = StereoWav::create(output, args.sample_rate, args.format)?;

    let passes = Passes::new(&score, args, rate);
    // --normalize: a first pass finds the peak.
    let first_peak = if args.normalize {
        Some(passes.find_peak(&preset)?)
    } else {
        None
    };
    let normalizing_gain = first_peak.and_then(|peak| level::normalizing_gain(peak, ceiling));
    let mut stage = match normalizing_gain {
        Some(gain) => Stage::gain(gain),
        None if args.limiter => Stage::limiter(ceiling, rate),
        None => Stage::unity(),
    };
    let written = passes.write(
        &mut synth,
        probe_every,
        &mut stage,
        &mut wav,
        recorder.as_mut(),
    )?;
    passes.finish();
    checks::passes_agree(first_peak, written.instrument_peak)?;

    let outcome = Outcome {
        output,
        seconds: written.summary.frames as f64 / rate,
        sample_rate: args.sample_rate,
        peak: wav.peak,
        normalizing_gain,
        limiter_reduction_db: stage.deepest_reduction_db(),
        normalize: args.normalize,
        over_full_scale: wav.over_full_scale,
        clips: wav.clips(),
        rang_out: written.summary.rang_out,
    };
    wav.finish()?;
    let mut line = outcome.line();
    if let (Some(recorder), Some(path)) = (recorder, &args.probe_out) {
        let rows = recorder.rows;
        recorder.finish()?;
        line.push_str(&probes_written(args.probes.len(), path, rows));
    }
    Ok(line)
}
