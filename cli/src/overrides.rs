//! `--seed` and `--set PATH=VALUE`: changes to a preset before it is played,
//! checked one by one so that a bad one is reported alone, by name.

use orchard_engine::input::name as excerpt;
use orchard_engine::instrument::{Preset, PresetError};

/// One `--set PATH=VALUE`.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    /// Property path, e.g. `tuning:a4_hz`.
    pub path: String,
    /// The new value, in the property's unit.
    pub value: f64,
}

impl Setting {
    /// Parses `PATH=VALUE`; the error is one line quoting (an excerpt of)
    /// the argument.
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = |why: &str| format!("--set {}: {why}", excerpt(text));
        let (path, value) = text
            .split_once('=')
            .ok_or_else(|| bad("expected PATH=VALUE, e.g. tuning:a4_hz=442"))?;
        let path = path.trim();
        if path.is_empty() {
            return Err(bad("the property path is empty"));
        }
        let value: f64 = value
            .trim()
            .parse()
            .map_err(|_| bad(&format!("`{}` is not a number", excerpt(value.trim()))))?;
        if !value.is_finite() {
            return Err(bad("the value must be finite"));
        }
        Ok(Self {
            path: path.to_string(),
            value,
        })
    }
}

/// Reseeds `preset` with `seed` if given, then applies `settings` (raw
/// `PATH=VALUE` arguments) in order with [`Preset::set`]. Stops at the first
/// bad one with a one-line reason naming it; an unknown path lists the paths
/// of the same object.
pub fn apply(preset: &mut Preset, seed: Option<u32>, settings: &[String]) -> Result<(), String> {
    if let Some(seed) = seed {
        preset.reseed(seed);
    }
    for text in settings {
        let setting = Setting::parse(text)?;
        preset
            .set(&setting.path, setting.value)
            .map_err(|e| match e {
                PresetError::UnknownPath(_) => unknown_path(preset, &setting.path),
                other => format!("--set {}: {other}", excerpt(text)),
            })?;
    }
    Ok(())
}

/// The reason for an unknown path: its object's properties if the object
/// exists (`tuning has a4_hz, stretch`), else the objects there are.
fn unknown_path(preset: &Preset, path: &str) -> String {
    let head = path.split(':').next().unwrap_or(path);
    let all = preset.paths();
    let siblings: Vec<&str> = all
        .iter()
        .filter_map(|p| p.split_once(':'))
        .filter(|(component, _)| *component == head)
        .map(|(_, property)| property)
        .collect();
    let hint = if siblings.is_empty() {
        let mut heads: Vec<&str> = all
            .iter()
            .filter_map(|p| p.split(':').next())
            .filter(|h| !h.contains('/'))
            .collect();
        heads.dedup();
        format!("objects: {}", listing(&heads))
    } else {
        format!("{head} has {}", listing(&siblings))
    };
    format!(
        "--set: the {} preset has no property `{}` ({hint})",
        excerpt(&preset.name),
        excerpt(path)
    )
}

/// The longest list of names an error gives, characters: a message stays
/// one short line however many properties an object has.
const LISTING_CHARS: usize = 120;

/// `names` joined with commas, as many as fit in [`LISTING_CHARS`], and
/// how many more there are and where they are all listed.
fn listing(names: &[&str]) -> String {
    let mut shown = String::new();
    for (i, name) in names.iter().enumerate() {
        let next = if shown.is_empty() {
            (*name).to_string()
        } else {
            format!("{shown}, {name}")
        };
        if next.chars().count() > LISTING_CHARS && i > 0 {
            return format!(
                "{shown} and {} more (`orchard presets --paths PRESET` lists them all)",
                names.len() - i
            );
        }
        shown = next;
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse_or_say_why_not() {
        assert_eq!(
            Setting::parse("tuning:a4_hz=442").unwrap(),
            Setting {
                path: "tuning:a4_hz".into(),
                value: 442.0
            }
        );
        assert!(
            Setting::parse("tuning:a4_hz")
                .unwrap_err()
                .contains("PATH=VALUE")
        );
        assert!(
            Setting::parse("tuning:a4_hz=loud")
                .unwrap_err()
                .contains("`loud` is not a number")
        );
        assert!(Setting::parse("=3").unwrap_err().contains("empty"));
        assert!(
            Setting::parse("tuning:a4_hz=inf")
                .unwrap_err()
                .contains("finite")
        );
    }

    #[test]
    fn applies_in_order_and_names_the_bad_one() {
        let mut preset = Preset::default_grand();
        let good = [
            "tuning:a4_hz=442".to_string(),
            "action:restitution=0.6".to_string(),
        ];
        apply(&mut preset, Some(7), &good).unwrap();
        assert_eq!(preset.get("tuning:a4_hz"), Some(442.0));
        assert_eq!(preset.get("action:restitution"), Some(0.6));
        assert_eq!(preset.get("soundboard:seed"), Some(7.0));

        let error = apply(&mut preset, None, &["tuning:a4=440".into()]).unwrap_err();
        assert!(error.contains("no property `tuning:a4`"), "{error}");
        assert!(error.contains("tuning has a4_hz"), "{error}");
        // An object of many properties is named in part, and the message
        // stays one short line.
        let error = apply(&mut preset, None, &["strings:lowest=1".into()]).unwrap_err();
        assert!(error.contains("strings has pairs_from_key, "), "{error}");
        assert!(
            error.contains(" more (`orchard presets --paths PRESET`"),
            "{error}"
        );
        assert!(error.chars().count() < 300, "{error}");
        let error = apply(&mut preset, None, &["nothing:x=1".into()]).unwrap_err();
        assert!(error.contains("objects: tuning"), "{error}");
        let error = apply(&mut preset, None, &["keyboard:lowest_key=1.5".into()]).unwrap_err();
        assert!(
            error.starts_with("--set keyboard:lowest_key=1.5: "),
            "{error}"
        );
        assert!(error.contains("outside its range"), "{error}");
    }
}
