//! `orchard render --set PATH=VALUE` arguments.

use std::sync::OnceLock;

use orchard_cli::overrides;
use orchard_engine::families::builtin_presets;
use orchard_engine::instrument::Preset;

use super::check;

/// Most `--set` arguments taken from one input.
const MAX_SETTINGS: usize = 16;

/// The built-in presets by name, parsed once.
fn builtins() -> &'static [(&'static str, Preset)] {
    static PRESETS: OnceLock<Vec<(&'static str, Preset)>> = OnceLock::new();
    PRESETS.get_or_init(|| {
        builtin_presets()
            .into_iter()
            .map(|(name, toml)| {
                let preset = Preset::from_toml(toml).unwrap_or_else(|e| panic!("{name}: {e}"));
                (name, preset)
            })
            .collect()
    })
}

/// Reads `data` as `--set` arguments, one a line, and applies them to every
/// built-in preset in order, as the renderer does. A setting refused is
/// refused in one line; settings accepted leave a preset that validates
/// (and so builds: [`super::preset_toml`] checks that).
pub fn set_strings(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let settings: Vec<String> = text
        .lines()
        .take(MAX_SETTINGS)
        .map(str::to_string)
        .collect();
    for (name, preset) in builtins() {
        let mut preset = preset.clone();
        match overrides::apply(&mut preset, None, &settings) {
            Err(error) => check::one_line(&error),
            Ok(()) => {
                if let Err(error) = preset.validate() {
                    panic!("{name}: settings accepted leave a preset that is not valid: {error}");
                }
            }
        }
    }
}
