//! The checks one render makes of its options: before anything is touched,
//! and, after a `--normalize` render, that its two passes agreed.

use std::path::Path;

use crate::args::render::{DEFAULT_CEILING_DB, RenderArgs};
use crate::{level, outputs};

/// The WAV file to write (`-o`), which one render needs.
pub fn output(args: &RenderArgs) -> Result<&Path, String> {
    args.output
        .as_deref()
        .ok_or_else(|| "give the WAV file to write with -o".to_owned())
}

/// The ceiling of `--normalize` or `--limiter`, full scale 1 (`--ceiling`
/// applies to them alone).
pub fn ceiling(args: &RenderArgs) -> Result<f32, String> {
    if args.ceiling.is_some() && !(args.normalize || args.limiter) {
        return Err("--ceiling applies to --normalize or --limiter: give one of them".into());
    }
    Ok(level::db_to_gain(args.ceiling.unwrap_or(DEFAULT_CEILING_DB)) as f32)
}

/// Frames between probe rows (`--probe-interval`, rounded, at least one),
/// if probes are asked for; checks that `--probe` and `--probe-out` come
/// together.
pub fn probe_interval_frames(args: &RenderArgs, rate: f64) -> Result<Option<usize>, String> {
    match (args.probes.is_empty(), &args.probe_out) {
        (true, None) => Ok(None),
        (true, Some(path)) => Err(format!(
            "--probe-out {}: give at least one --probe PATH to record",
            path.display()
        )),
        (false, None) => Err(format!(
            "--probe {}: give --probe-out FILE.csv to write the probes to",
            args.probes[0]
        )),
        (false, Some(_)) => Ok(Some((args.probe_interval * rate).round().max(1.0) as usize)),
    }
}

/// Checks that the outputs (`output`, the probes' CSV) can be written and
/// are none of the inputs (the instrument's files, the MIDI file): see
/// [`outputs::check`].
pub fn files_apart(args: &RenderArgs, output: &Path) -> Result<(), String> {
    let mut outputs = vec![("-o", output)];
    outputs.extend(args.probe_out.as_deref().map(|csv| ("--probe-out", csv)));
    let mut inputs = args.instrument.input_files();
    if !args.demo {
        inputs.extend(args.midi.iter().map(|midi| ("MIDI", midi.as_path())));
    }
    outputs::check(&outputs, &inputs)
}

/// Refuses a `--normalize` render whose second pass peaked other than its
/// first (`first_peak`, `None` without `--normalize`): the gain would not
/// be the one found.
pub fn passes_agree(first_peak: Option<f32>, instrument_peak: f32) -> Result<(), String> {
    if first_peak.is_some_and(|peak| peak != instrument_peak) {
        return Err(format!(
            "--normalize: the second pass differed from the first (peak {} then {}); \
             render without --normalize",
            first_peak.unwrap_or_default(),
            instrument_peak
        ));
    }
    Ok(())
}
