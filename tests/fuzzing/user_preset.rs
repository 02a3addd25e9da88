//! User preset files (`*.orchard.json`), as the editor's preset browser
//! loads them.

use orchard::OrchardParams;
use orchard::user_preset;

use super::check;

/// Parses `data` as a user preset and works out what loading it sets
/// ([`user_preset::plan`]). A file refused is refused in one line; each warning
/// is one line; and the instrument it gives, with the edits the plugin
/// applies, validates (and so builds: [`super::preset_toml`] checks that).
pub fn user_preset_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let preset = match user_preset::parse(text) {
        Ok(preset) => preset,
        Err(error) => return check::one_line(&error),
    };
    let params = OrchardParams::default();
    let plan = match user_preset::plan(&preset, &params) {
        Ok(plan) => plan,
        Err(error) => return check::one_line(&error),
    };
    for warning in &plan.loaded.warnings {
        check::one_line(warning);
    }
    let instrument = plan.settings.instrument_with(&preset.edits);
    if let Err(error) = instrument.validate() {
        panic!("a user preset gives an instrument that is not valid: {error}");
    }
}
