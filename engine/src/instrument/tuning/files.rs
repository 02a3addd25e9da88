//! `--tuning FILE.scl`, `--keymap FILE.kbm` and `--temperament NAME[:KEY]`:
//! the keyboard's tuning chosen on the command line. The scale and mapping
//! are read into the preset (it holds their text, not their paths), before
//! any `--set`, so that `--set tuning:a4_hz=…` and the stretch apply on top.
//! Besides files, `--tuning` and `--keymap` take the names of the examples
//! under `tunings/`, built in (`19-edo`), as `--preset` takes a built-in
//! preset's name.

use std::path::Path;

use crate::input::name as excerpt;
use crate::instrument::{KeyMap, Preset, Scale, Temperament, parse_pitch_class};

/// The largest scale or keyboard mapping file read, bytes.
const MAX_TUNING_FILE_BYTES: u64 = 1 << 20;

/// The built-in examples: name, `.scl` text, `.kbm` text.
const BUILT_IN: [(&str, &str, &str); 1] = [(
    "19-edo",
    include_str!("../../../../tunings/19-edo.scl"),
    include_str!("../../../../tunings/19-edo.kbm"),
)];

/// The text of the tuning file at `path`, or of the built-in example of that
/// name if no file is there (`keymap`: its `.kbm`, else its `.scl`), at most
/// 1 MiB; the error is one line naming it.
pub fn read(path: &Path, keymap: bool) -> Result<String, String> {
    if !path.exists() {
        let name = path.to_str().unwrap_or_default();
        if let Some((_, scl, kbm)) = BUILT_IN.iter().find(|(n, ..)| *n == name) {
            return Ok(if keymap { kbm } else { scl }.to_string());
        }
    }
    crate::input::read_capped_text(path, MAX_TUNING_FILE_BYTES)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The file name errors quote: the last part of the path, as given.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}

/// Reads `NAME[:KEY]` (`vallotti`, `werckmeister-iii:Eb`): the temperament's
/// index and key (pitch class, 0 C to 11 B; C if not given).
pub fn parse_temperament(text: &str) -> Result<(u32, u32), String> {
    let bad = |why: String| format!("--temperament {}: {why}", excerpt(text));
    let (name, key) = text.split_once(':').unwrap_or((text, "C"));
    let temperament = Temperament::from_name(name.trim()).ok_or_else(|| {
        let names: Vec<_> = Temperament::ALL.iter().map(|t| t.name()).collect();
        bad(format!("expected one of {}", names.join(", ")))
    })?;
    let key = parse_pitch_class(key.trim()).ok_or_else(|| {
        bad(format!(
            "`{}` is not a key such as C, Eb or F#",
            excerpt(key)
        ))
    })?;
    Ok((temperament.index(), u32::from(key)))
}

/// Gives `preset` the temperament `temperament` (`NAME[:KEY]`), the scale in
/// the `.scl` file `scale` and the mapping in the `.kbm` file `keymap`, each
/// if given; errors are one line naming the file and line, or the option.
pub fn apply(
    preset: &mut Preset,
    temperament: Option<&str>,
    scale: Option<&Path>,
    keymap: Option<&Path>,
) -> Result<(), String> {
    if let Some(text) = temperament {
        let (index, key) = parse_temperament(text)?;
        preset.tuning.temperament = index;
        preset.tuning.temperament_key = key;
    }
    if let Some(path) = scale {
        preset.tuning.scale = Some(Scale::parse(&read(path, false)?, &file_name(path))?);
    }
    if let Some(path) = keymap {
        let name = file_name(path);
        let map = KeyMap::parse(&read(path, true)?, &name)?;
        if let Some(scale) = &preset.tuning.scale {
            map.check(scale, &name)?;
        }
        preset.tuning.keymap = Some(map);
    }
    preset.validate().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temperaments_are_read_with_or_without_a_key() {
        assert_eq!(parse_temperament("vallotti"), Ok((2, 0)));
        assert_eq!(parse_temperament("werckmeister-iii:Eb"), Ok((1, 3)));
        assert_eq!(parse_temperament("pythagorean:F♯"), Ok((5, 6)));
        let err = parse_temperament("meantone").unwrap_err();
        assert!(
            err.starts_with("--temperament meantone: expected one of equal, "),
            "{err}"
        );
        let err = parse_temperament("vallotti:H").unwrap_err();
        assert_eq!(
            err,
            "--temperament vallotti:H: `H` is not a key such as C, Eb or F#"
        );
    }
}
