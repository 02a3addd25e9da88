//! A binding: a controller ([`Source`]) moving a target over its whole range,
//! a host parameter (by its permanent id, over its normalised 0 to 1) or a
//! property path (over the span its declaration gives a slider).

use orchard_engine::props::{PropertyInfo, ValueKind};
use serde::{Deserialize, Deserializer, Serialize};

use super::controller::Source;

/// What a binding moves.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum BindingTarget {
    /// A host parameter, by its permanent id (`hardness`).
    Param {
        /// The parameter's id.
        id: String,
    },
    /// A property of the instrument (`strings/key/61:loss_b1`).
    Property {
        /// The property path.
        path: String,
    },
}

/// A controller bound to a target.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Binding {
    /// The controller that moves it.
    pub source: Source,
    /// What it moves.
    pub target: BindingTarget,
}

/// The bindings as the plugin state saves them: a JSON list. Reading is
/// lenient: an entry that is not a binding this build knows (a corrupt one,
/// or one from a later build) is skipped, and the others are kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct BindingList(pub Vec<Binding>);

impl<'de> Deserialize<'de> for BindingList {
    fn deserialize<D: Deserializer<'de>>(reader: D) -> Result<Self, D::Error> {
        let entries = Vec::<serde_json::Value>::deserialize(reader)?;
        Ok(Self(
            entries
                .into_iter()
                .filter_map(|entry| serde_json::from_value::<Binding>(entry).ok())
                .filter(|binding| binding.source.is_valid())
                .collect(),
        ))
    }
}

/// The value a property takes at controller position `position` (0 to 1):
/// the slider span of its declaration, end to end; geometric where its
/// slider is logarithmic (a positive range over decades), whole steps for
/// keys and counts, off below the middle and on from it for a switch.
pub fn property_value(info: &PropertyInfo, position: f64) -> f64 {
    let position = if position.is_finite() {
        position.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (lo, hi) = info.slider;
    match info.kind {
        ValueKind::Switch => {
            if position >= 0.5 {
                1.0
            } else {
                0.0
            }
        }
        ValueKind::MidiKey | ValueKind::Count => (lo + position * (hi - lo)).round(),
        ValueKind::Real if info.logarithmic && lo > 0.0 && hi > lo => lo * (hi / lo).powf(position),
        ValueKind::Real => lo + position * (hi - lo),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::controller::Control;
    use orchard_engine::instrument::Preset;
    use orchard_engine::props::Declaration;

    fn info(path: &str) -> PropertyInfo {
        Preset::load("grand-piano")
            .unwrap()
            .property_info(path)
            .unwrap_or_else(|| panic!("{path} is declared"))
    }

    #[test]
    fn a_property_spans_its_declared_range_end_to_end() {
        let a4 = info("tuning:a4_hz");
        assert!(!a4.logarithmic);
        assert_eq!(property_value(&a4, 0.0), a4.slider.0);
        assert_eq!(property_value(&a4, 1.0), a4.slider.1);
        let middle = property_value(&a4, 0.5);
        assert!((middle - 0.5 * (a4.slider.0 + a4.slider.1)).abs() < 1e-9);
        assert_eq!(property_value(&a4, -3.0), a4.slider.0, "clamped below");
        assert_eq!(property_value(&a4, f64::NAN), a4.slider.0, "and NaN");
    }

    #[test]
    fn a_logarithmic_property_moves_by_equal_ratios() {
        let paths = Preset::load("grand-piano").unwrap().paths();
        let logarithmic = paths
            .iter()
            .map(|path| info(path))
            .find(|i| i.kind == ValueKind::Real && i.logarithmic && i.slider.0 > 0.0)
            .expect("the piano has a property with a logarithmic slider");
        let (lo, hi) = logarithmic.slider;
        let at = |p| property_value(&logarithmic, p);
        assert!((at(0.0) / lo - 1.0).abs() < 1e-12);
        assert!((at(1.0) / hi - 1.0).abs() < 1e-12);
        assert!((at(0.5) / (lo * hi).sqrt() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn keys_and_counts_take_whole_steps_and_switches_flip_in_the_middle() {
        let key = PropertyInfo::new(
            Declaration {
                kind: ValueKind::MidiKey,
                ..Declaration::real("lowest_key", "", "")
            },
            (21.0, 108.0),
        );
        assert_eq!(property_value(&key, 0.0), 21.0);
        assert_eq!(property_value(&key, 1.0), 108.0);
        let v = property_value(&key, 0.3);
        assert_eq!(v, v.round());
        let switch = PropertyInfo::declared(Declaration {
            kind: ValueKind::Switch,
            ..Declaration::real("running", "", "")
        });
        assert_eq!(property_value(&switch, 0.49), 0.0);
        assert_eq!(property_value(&switch, 0.5), 1.0);
    }

    #[test]
    fn a_list_keeps_the_bindings_it_can_read_and_skips_the_rest() {
        let text = r#"[
            {"source":{"control":{"kind":"cc","number":74},"channel":0},
             "target":{"kind":"param","id":"hardness"}},
            {"source":{"control":{"kind":"cc","number":200},"channel":null},
             "target":{"kind":"param","id":"hardness"}},
            {"source":{"control":{"kind":"pitch-bend"},"channel":null},
             "target":{"kind":"property","path":"tuning:a4_hz"}},
            {"source":"garbage"},
            17
        ]"#;
        let list: BindingList = serde_json::from_str(text).unwrap();
        assert_eq!(
            list.0,
            vec![
                Binding {
                    source: Source {
                        control: Control::Cc { number: 74 },
                        channel: Some(0)
                    },
                    target: BindingTarget::Param {
                        id: "hardness".into()
                    },
                },
                Binding {
                    source: Source {
                        control: Control::PitchBend,
                        channel: None
                    },
                    target: BindingTarget::Property {
                        path: "tuning:a4_hz".into()
                    },
                },
            ]
        );
        let again: BindingList = serde_json::from_str(&serde_json::to_string(&list).unwrap())
            .expect("what it writes reads back");
        assert_eq!(again, list);
        assert!(serde_json::from_str::<BindingList>("{\"not\":\"a list\"}").is_err());
    }
}
