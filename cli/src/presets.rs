//! `orchard presets`: the built-in instrument presets, or every property
//! path of one preset with its value.

use orchard_engine::instrument::Preset;

use crate::args::presets::PresetsArgs;

/// Runs `orchard presets`: the built-in presets, one line each, or with
/// `--paths` every property path of one preset and its value.
pub fn run_presets(args: &PresetsArgs) -> Result<String, String> {
    if let Some(name) = &args.paths {
        let preset = Preset::load(name).map_err(|e| e.to_string())?;
        let lines: Vec<String> = property_values(&preset)
            .into_iter()
            .map(|(path, value)| format!("{path} = {value}"))
            .collect();
        return Ok(lines.join("\n"));
    }
    let lines: Vec<String> = builtin_preset_list()?
        .into_iter()
        .map(|(name, description)| format!("{name:<14}{description}"))
        .collect();
    Ok(lines.join("\n"))
}

/// Every property path of `preset` and its value, in the preset's order.
pub fn property_values(preset: &Preset) -> Vec<(String, f64)> {
    preset
        .paths()
        .into_iter()
        .map(|path| {
            let value = preset.get(&path).unwrap_or(f64::NAN);
            (path, value)
        })
        .collect()
}

/// The built-in presets, (name, description), in `orchard presets`' order.
pub fn builtin_preset_list() -> Result<Vec<(String, String)>, String> {
    orchard_engine::families::builtin_presets()
        .into_iter()
        .map(|(name, _)| {
            let preset = Preset::load(name).map_err(|e| format!("{name}: {e}"))?;
            Ok((name.to_owned(), preset.description))
        })
        .collect()
}
