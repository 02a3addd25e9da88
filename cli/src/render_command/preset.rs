//! The instrument one render plays: the preset as the options change it,
//! its clock's hands set by `--start`.

use orchard_engine::families::chiming_clock::ClockSpec;
use orchard_engine::instrument::Preset;

use crate::args::render::RenderArgs;

/// The preset `args` play. Without a MIDI file a music box plays its
/// cylinder; with one, the file's notes alone (its cylinder held, as the
/// preset has it).
pub fn load(args: &RenderArgs) -> Result<Preset, String> {
    let mut preset = if args.midi.is_empty() && !args.demo {
        args.instrument.load_turning_cylinders()?
    } else {
        args.instrument.load()?
    };
    if let Some(time_h) = args.start {
        set_clock(&mut preset, &args.instrument.preset, time_h)?;
    }
    Ok(preset)
}

/// Sets the hands of `preset`'s clock (`name` names the preset in errors) to
/// `time_h`, hours after midnight.
fn set_clock(preset: &mut Preset, name: &str, time_h: f64) -> Result<(), String> {
    let Some(clock) = preset
        .objects
        .of::<ClockSpec>()
        .next()
        .map(|(name, _)| name.to_string())
    else {
        return Err(format!(
            "--start sets a clock's hands, and `{}` has no clock (try --preset chiming-clock)",
            orchard_engine::input::name(name)
        ));
    };
    preset
        .set(&format!("{clock}:time_h"), time_h)
        .map_err(|e| e.to_string())
}
