//! `orchard pin`: a MIDI file's notes arranged onto a music box's cylinder
//! (see [`orchard_engine::families::music_box::arrange`]), written as a
//! preset that `orchard render --preset FILE` plays.

use orchard_engine::families::music_box::MusicBoxSpec;
use std::path::Path;

use orchard_engine::families::builtin_presets;
use orchard_engine::families::music_box::arrange::{arrange, nominal_speed_rad_s, with_pins};
use orchard_engine::instrument::{Preset, note_name};
use orchard_engine::midi;
use orchard_engine::rt::SynthEvent;

use crate::args::pin::PinArgs;
use crate::{destination, outputs, print};

/// Largest preset file read, bytes (as `--preset` reads them).
const MAX_PRESET_BYTES: u64 = 16 << 20;

/// The text of preset `name`: a built-in one's, or the file's.
fn preset_text(name: &str) -> Result<String, String> {
    if let Some((_, text)) = builtin_presets().into_iter().find(|(n, _)| *n == name) {
        return Ok(text.to_string());
    }
    orchard_engine::input::read_capped_text(Path::new(name), MAX_PRESET_BYTES)
        .map_err(|e| format!("{name}: {e}"))
}

/// Runs `orchard pin`: the summary on success (notes the comb lacks are
/// listed on the standard error, one line each), else a one-line reason.
pub fn run_pin(args: &PinArgs) -> Result<String, String> {
    let preset = Preset::load(&args.preset).map_err(|e| e.to_string())?;
    let (name, spec) = preset.objects.of::<MusicBoxSpec>().next().ok_or_else(|| {
        format!(
            "`{}` is not a music box (try --preset music-box)",
            args.preset
        )
    })?;
    let lead_m = preset
        .topology()
        .map_err(|e| e.to_string())?
        .hammers
        .start_gap_m;
    outputs::check(
        &[("-o", &args.output)],
        &[("MIDI", &args.midi), ("--preset", Path::new(&args.preset))],
    )?;
    let score = midi::read(&args.midi)?;
    let notes: Vec<(f64, u8)> = score
        .events
        .iter()
        .filter_map(|e| match e.event {
            SynthEvent::NoteOn { key, velocity } if velocity > 0.0 => Some((e.time_s, key)),
            _ => None,
        })
        .collect();
    if notes.is_empty() {
        return Err(format!("{}: no notes to pin", args.midi.display()));
    }
    let arrangement = arrange(spec, lead_m, &notes);
    let name_of = |key: i32| u8::try_from(key).map_or_else(|_| format!("key {key}"), note_name);
    for &(time_s, key) in &arrangement.missing {
        print::err(&format!(
            "orchard pin: {} at {time_s:.3} s ({} after the transposition) is not on the comb",
            name_of(key - arrangement.transpose),
            name_of(key)
        ));
    }
    let text = with_pins(&preset_text(&args.preset)?, name, &arrangement.pins);
    // What is written must load.
    Preset::from_toml(&text).map_err(|e| format!("the pinned preset does not load: {e}"))?;
    destination::write_whole(&args.output, text.as_bytes())?;
    let turn_s = std::f64::consts::TAU / nominal_speed_rad_s(spec);
    let mut summary = format!(
        "pinned {} notes on the cylinder of `{}` ({} semitones), one turn in {turn_s:.1} s",
        arrangement.pins.len(),
        args.preset,
        arrangement.transpose
    );
    if arrangement.speed_up > 1.0 {
        summary += &format!(
            "; longer than a turn, played {:.2} times as fast",
            arrangement.speed_up
        );
    }
    if !arrangement.missing.is_empty() {
        summary += &format!(
            "; {} notes the comb lacks left out",
            arrangement.missing.len()
        );
    }
    if arrangement.dropped > 0 {
        summary += &format!(
            "; {} notes beyond the cylinder's pins left out",
            arrangement.dropped
        );
    }
    Ok(summary + &format!(" -> {}", args.output.display()))
}
