//! The tuning's choices as host parameters: the temperament and the key it is
//! laid from (`tuning:temperament`, `tuning:temperament_key`). Their ids are
//! permanent: hosts store automation under them.

use std::sync::OnceLock;

use nice_plug::prelude::Enum;
use orchard_engine::instrument::Temperament;

/// A temperament a host can choose (see [`Temperament`]); its preset name
/// (`werckmeister-iii`) is the stable id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TemperamentChoice(pub Temperament);

impl Default for TemperamentChoice {
    fn default() -> Self {
        Self(Temperament::Equal)
    }
}

/// The temperaments' names for people and their ids, once per process
/// (hosts hold the strings).
fn temperament_names() -> &'static (Vec<&'static str>, Vec<&'static str>) {
    static NAMES: OnceLock<(Vec<&'static str>, Vec<&'static str>)> = OnceLock::new();
    NAMES.get_or_init(|| {
        let labels = Temperament::ALL.iter().map(|t| t.label()).collect();
        let ids = Temperament::ALL.iter().map(|t| t.name()).collect();
        (labels, ids)
    })
}

impl Enum for TemperamentChoice {
    fn variants() -> &'static [&'static str] {
        &temperament_names().0
    }

    fn ids() -> Option<&'static [&'static str]> {
        Some(&temperament_names().1)
    }

    fn to_index(self) -> usize {
        self.0.index() as usize
    }

    fn from_index(index: usize) -> Self {
        let index = u32::try_from(index).unwrap_or(0);
        Self(Temperament::from_index(index).unwrap_or(Temperament::Equal))
    }
}

/// The key a temperament is laid from, a pitch class: 0 (C) to 11 (B).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TemperamentKey(pub u8);

/// The keys' names as hosts show them (plain text: not every host draws ♯ and ♭).
const KEY_NAMES: [&str; 12] = [
    "C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B",
];

/// The keys' permanent ids.
const KEY_IDS: [&str; 12] = [
    "c", "c-sharp", "d", "e-flat", "e", "f", "f-sharp", "g", "a-flat", "a", "b-flat", "b",
];

impl Enum for TemperamentKey {
    fn variants() -> &'static [&'static str] {
        &KEY_NAMES
    }

    fn ids() -> Option<&'static [&'static str]> {
        Some(&KEY_IDS)
    }

    fn to_index(self) -> usize {
        usize::from(self.0)
    }

    fn from_index(index: usize) -> Self {
        Self(u8::try_from(index).ok().filter(|&k| k < 12).unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use orchard_engine::instrument::parse_pitch_class;

    /// The keys' names are the engine's pitch classes, in order.
    #[test]
    fn key_names_are_the_pitch_classes() {
        for (class, name) in KEY_NAMES.iter().enumerate() {
            assert_eq!(parse_pitch_class(name), Some(class as u8));
            assert_eq!(TemperamentKey::from_index(class).to_index(), class);
        }
        for t in Temperament::ALL {
            let choice = TemperamentChoice(t);
            assert_eq!(TemperamentChoice::from_index(choice.to_index()), choice);
        }
    }
}
