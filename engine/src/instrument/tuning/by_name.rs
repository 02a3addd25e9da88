//! Serde for the tuning's choices, stored as indices (so that they are
//! properties that can be set, automated and edited like any other) and
//! written in presets by name: `temperament = "vallotti"`,
//! `temperament_key = "E♭"`. Reading takes a name or an index.

use serde::{Deserialize, Deserializer, Serializer};

/// A name or an index, as a preset may give either.
#[derive(Deserialize)]
#[serde(untagged)]
enum NameOrIndex {
    Index(u32),
    Name(String),
}

/// `tuning:temperament`: the names of [`super::Temperament::name`].
pub mod temperament {
    use super::*;
    use crate::instrument::tuning::Temperament;

    /// Writes the temperament's name.
    pub fn serialize<S: Serializer>(index: &u32, serializer: S) -> Result<S::Ok, S::Error> {
        match Temperament::from_index(*index) {
            Some(t) => serializer.serialize_str(t.name()),
            None => serializer.serialize_u32(*index),
        }
    }

    /// Reads a temperament's name or index.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
        match NameOrIndex::deserialize(deserializer)? {
            NameOrIndex::Index(index) => Ok(index),
            NameOrIndex::Name(name) => Temperament::from_name(&name)
                .map(Temperament::index)
                .ok_or_else(|| {
                    let names: Vec<_> = Temperament::ALL.iter().map(|t| t.name()).collect();
                    serde::de::Error::custom(format!(
                        "unknown temperament '{name}': expected one of {}",
                        names.join(", ")
                    ))
                }),
        }
    }
}

/// `tuning:temperament_key`: pitch class names (`C`, `E♭`, `Eb`, `D#`).
pub mod pitch_class {
    use super::*;
    use crate::instrument::tuning::{parse_pitch_class, pitch_class_name};

    /// Writes the pitch class's name.
    pub fn serialize<S: Serializer>(class: &u32, serializer: S) -> Result<S::Ok, S::Error> {
        match u8::try_from(*class) {
            Ok(class) if class < 12 => serializer.serialize_str(pitch_class_name(class)),
            _ => serializer.serialize_u32(*class),
        }
    }

    /// Reads a pitch class's name or number.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
        match NameOrIndex::deserialize(deserializer)? {
            NameOrIndex::Index(class) => Ok(class),
            NameOrIndex::Name(name) => parse_pitch_class(&name).map(u32::from).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "unknown key '{name}': expected a note name such as C, E♭, Eb or F#"
                ))
            }),
        }
    }
}
