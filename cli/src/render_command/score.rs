//! What one render plays: the demo, a MIDI file, `--duration` of the
//! instrument on its own, or a music box's pinned tune; at most
//! `--max-duration` long.

use orchard_engine::families::music_box::MusicBoxSpec;
use orchard_engine::midi::{self, Score};

use crate::args::instrument::InstrumentArgs;
use crate::args::render::RenderArgs;
use crate::{demo, render};

/// The score `args` ask for, lasting at least `--duration`; refused if it
/// lasts longer than `--max-duration`.
pub fn to_play(args: &RenderArgs) -> Result<Score, String> {
    let mut score = match (args.midi.first(), args.demo) {
        (_, true) => demo::phrase(),
        (Some(path), false) => midi::read(path)?,
        (None, false) if args.duration.is_some() => Score::default(),
        (None, false) => match pinned_tune_s(&args.instrument)? {
            Some(end_s) => Score::new(Vec::new(), end_s),
            None => return Err("give a MIDI file, --demo or --duration".into()),
        },
    };
    if let Some(duration) = args.duration {
        score.end_s = score.end_s.max(duration);
    }
    render::check_length(&score, args.max_duration)?;
    Ok(score)
}

/// With no MIDI file, a music box plays its cylinder: until its last pin
/// has sounded (at the steady speed of its wind) and a second more; `None`
/// for a preset that has no pinned cylinder, an error for one that does
/// not load.
fn pinned_tune_s(instrument: &InstrumentArgs) -> Result<Option<f64>, String> {
    let preset = instrument.load_turning_cylinders()?;
    Ok(preset
        .objects
        .of::<MusicBoxSpec>()
        .next()
        .and_then(|(_, spec)| orchard_engine::families::music_box::arrange::tune_s(spec))
        .map(|s| s + 1.0))
}
