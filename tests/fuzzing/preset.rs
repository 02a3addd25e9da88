//! Preset TOML, as `orchard render --preset FILE` and the standalone app's
//! `--preset FILE` read it.

use orchard_engine::instrument::Preset;

use super::check;

/// Parses `data` as a preset file. A preset refused is refused in one line;
/// a preset accepted lists every property path (as the editor does), reads
/// each back, describes it, and builds a synthesiser.
pub fn preset_toml(data: &[u8]) {
    // Text that is not UTF-8 is refused by the file reader before parsing.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Preset::from_toml(text) {
        Err(error) => check::one_line(&error.to_string()),
        Ok(preset) => {
            for path in preset.paths() {
                assert!(preset.get(&path).is_some(), "{path} is listed but unread");
                assert!(
                    preset.property_info(&path).is_some(),
                    "{path} is listed but undescribed"
                );
            }
            let _ = preset.components();
            check::builds(&preset);
        }
    }
}
