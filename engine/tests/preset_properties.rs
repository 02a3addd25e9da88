//! Preset properties as an editor uses them: values inherited along the
//! keyboard, per-key paths, edit commands, property metadata and the component
//! tree.

use orchard_engine::instrument::HammerSet;
use orchard_engine::instrument::StringSet;
use orchard_engine::instrument::{
    DEFAULT_PRESET_TOML, Preset, PresetError, PropertyEdit, value_at,
};
use orchard_engine::props::ValueKind;

/// The grand piano's preset text with the strings' anchors these tests were
/// written for: the five anchors A0, C2, C4, C7 and C8 only (the preset's
/// other anchors, which give losses and the bridge alone, are taken out),
/// with `loss_b1` 0.5 at C2, 1.1 at C4 and 3.5 at C7, so that the numbers
/// below follow from the inheritance rules and not from the preset's
/// calibration.
fn grand_text() -> String {
    const HEADER: &str = "[[stiff-strings.strings.anchor]] # ";
    let mut text = DEFAULT_PRESET_TOML.to_string();
    let mut from = 0;
    while let Some(found) = text[from..].find(HEADER) {
        let start = from + found;
        let note = text[start + HEADER.len()..]
            .split([' ', ':', ',', '\n'])
            .next()
            .unwrap_or_default();
        if ["A0", "C2", "C4", "C7", "C8"].contains(&note) {
            from = start + HEADER.len();
        } else {
            let end = start + text[start..].find("\n\n").unwrap() + 2;
            text.replace_range(start..end, "");
            from = start;
        }
    }
    for (note, loss_b1) in [("C2", 0.5), ("C4", 1.1), ("C7", 3.5)] {
        let start = text
            .find(&format!("[[stiff-strings.strings.anchor]] # {note}"))
            .unwrap();
        let at = start + text[start..].find("loss_b1 = ").unwrap() + "loss_b1 = ".len();
        let end = at + text[at..].find('\n').unwrap();
        text.replace_range(at..end, &loss_b1.to_string());
    }
    text
}

fn grand() -> Preset {
    Preset::from_toml(&grand_text()).unwrap()
}

fn bars() -> Preset {
    Preset::load("mallet-bar").unwrap()
}

/// Geometric interpolation from `x` at key `a` to `y` at key `b`, written out.
fn geometric(x: f64, y: f64, a: u8, b: u8, key: u8) -> f64 {
    x * (y / x).powf(f64::from(key - a) / f64::from(b - a))
}

fn set(path: &str, value: f64) -> PropertyEdit {
    PropertyEdit::Set {
        path: path.into(),
        value,
    }
}

fn inherit(path: &str) -> PropertyEdit {
    PropertyEdit::Inherit { path: path.into() }
}

/// The grand's `loss_b1` at every key of its keyboard.
fn loss_b1(p: &Preset) -> Vec<f64> {
    (21..=108)
        .map(|k| p.get(&format!("strings/key/{k}:loss_b1")).unwrap())
        .collect()
}

#[test]
fn a_key_between_anchors_inherits_the_geometric_interpolation() {
    let p = grand();
    // loss_b1 is 0.5 at C2 (36) and 1.1 at C4 (60).
    let at_48 = p.get("strings/key/48:loss_b1").unwrap();
    assert_eq!(at_48, geometric(0.5, 1.1, 36, 60, 48));
    assert_eq!(p.key_params(48).unwrap().string.loss_b1, at_48);
    assert_eq!(p.is_explicit("strings/key/48:loss_b1"), Some(false));
    assert_eq!(p.is_explicit("strings/key/60:loss_b1"), Some(true));
    assert_eq!(p.get("strings/key/60:loss_b1"), Some(1.1));
    // The anchor path reads the same value as the key path.
    assert_eq!(p.get("strings/anchor/60:loss_b1"), Some(1.1));
    assert_eq!(p.is_explicit("strings/anchor/60:loss_b1"), Some(true));
    assert_eq!(
        p.get("strike/key/102:position"),
        Some(geometric(0.0625, 0.06, 96, 108, 102))
    );
    // Non-anchored properties are explicit; unknown paths are unknown, and key
    // paths exist only on the keyboard.
    assert_eq!(p.is_explicit("tuning:a4_hz"), Some(true));
    assert_eq!(p.is_explicit("strings/key/61:pitch"), None);
    assert_eq!(p.is_explicit("strings/key/20:loss_b1"), None);
    assert_eq!(p.get("strings/key/109:loss_b1"), None);
    assert_eq!(p.get("dampers/key/60:t60_s"), None);
    assert_eq!(p.get("strings/anchor/61:loss_b1"), None);
}

#[test]
fn setting_a_key_makes_it_explicit_and_moves_only_its_neighbours() {
    let before = grand();
    let mut p = before.clone();
    let was = loss_b1(&p);
    p.apply(&set("strings/key/48:loss_b1", 2.0)).unwrap();
    assert_eq!(p.get("strings/key/48:loss_b1"), Some(2.0));
    assert_eq!(p.is_explicit("strings/key/48:loss_b1"), Some(true));
    // The new anchor gives that field only: the others still inherit, unchanged.
    assert_eq!(p.is_explicit("strings/key/48:length_m"), Some(false));
    assert_eq!(p.get("strings/anchor/48:loss_b1"), Some(2.0));
    let anchors: Vec<u8> = p
        .objects
        .get_as::<StringSet>("strings")
        .unwrap()
        .anchor
        .iter()
        .map(|a| a.key)
        .collect();
    assert_eq!(anchors, [21, 36, 48, 60, 96, 108]);
    for key in 21..=108 {
        let old = before.key_params(key).unwrap();
        let new = p.key_params(key).unwrap();
        assert_eq!(new.string.length_m, old.string.length_m, "key {key}");
        assert_eq!(new.felt, old.felt, "key {key}");
    }
    let now = loss_b1(&p);
    for key in 21..=108u8 {
        let i = usize::from(key - 21);
        let expected = match key {
            37..=47 => geometric(0.5, 2.0, 36, 48, key),
            48 => 2.0,
            49..=59 => geometric(2.0, 1.1, 48, 60, key),
            _ => was[i],
        };
        assert_eq!(now[i], expected, "key {key}");
    }
    assert_ne!(now[40 - 21], was[40 - 21]);

    // Inheriting again restores every value exactly, and the anchor goes.
    p.apply(&inherit("strings/key/48:loss_b1")).unwrap();
    assert_eq!(loss_b1(&p), was);
    assert_eq!(p, before);
    // A key that inherits already stays as it is.
    p.apply(&inherit("strings/key/48:loss_b1")).unwrap();
    assert_eq!(p, before);
}

#[test]
fn an_anchor_keeps_its_other_fields_when_one_inherits() {
    let mut p = grand();
    let interpolated = geometric(0.5, 3.5, 36, 96, 60);
    p.apply(&inherit("strings/anchor/60:loss_b1")).unwrap();
    assert_eq!(p.get("strings/key/60:loss_b1"), Some(interpolated));
    assert_eq!(p.is_explicit("strings/anchor/60:loss_b1"), Some(false));
    assert_eq!(p.get("strings/anchor/60:length_m"), Some(0.62));
    assert!(!p.paths().contains(&"strings/anchor/60:loss_b1".to_string()));
    assert!(
        p.paths()
            .contains(&"strings/anchor/60:length_m".to_string())
    );
    assert_eq!(p.key_params(60).unwrap().string.loss_b1, interpolated);
}

#[test]
fn inheriting_needs_another_anchor_and_an_anchored_property() {
    let mut p = bars();
    let before = p.clone();
    let err = p.apply(&inherit("mallets/key/69:mass_kg")).unwrap_err();
    assert!(matches!(err, PresetError::CannotInherit { .. }), "{err}");
    assert!(err.to_string().contains("mallets/key/69:mass_kg"), "{err}");
    let err = p.apply(&inherit("strike/anchor/69:position")).unwrap_err();
    assert!(err.to_string().contains("nothing to inherit from"), "{err}");
    let err = p.apply(&inherit("tuning:a4_hz")).unwrap_err();
    assert!(matches!(err, PresetError::CannotInherit { .. }), "{err}");
    assert!(err.to_string().contains("tuning:a4_hz"), "{err}");
    let err = p.apply(&inherit("tuning:pitch")).unwrap_err();
    assert!(matches!(err, PresetError::UnknownPath(_)), "{err}");
    let err = p.apply(&inherit("mallets/key/56:mass_kg")).unwrap_err();
    assert!(matches!(err, PresetError::UnknownPath(_)), "{err}");
    assert_eq!(p, before, "a refused edit changed the preset");
    // The felt's hysteresis falls back to a lossless felt where no anchor
    // gives it, so even its only anchor may let it go.
    p.apply(&inherit("mallets/key/69:felt_hysteresis_s_per_m"))
        .unwrap();
    assert_eq!(p.get("mallets/key/69:felt_hysteresis_s_per_m"), Some(0.0));
    assert_eq!(
        p.is_explicit("mallets/key/69:felt_hysteresis_s_per_m"),
        Some(false)
    );
    assert_eq!(p.bar_params(69), before.bar_params(69));
}

#[test]
fn setting_a_key_creates_an_anchor_in_order_and_errors_change_nothing() {
    let mut p = bars();
    p.set("mallets/key/60:felt_stiffness", 2e8).unwrap();
    p.set("mallets/key/81:felt_stiffness", 5e8).unwrap();
    let keys: Vec<u8> = p
        .objects
        .get_as::<HammerSet>("mallets")
        .unwrap()
        .anchor
        .iter()
        .map(|a| a.key)
        .collect();
    assert_eq!(keys, [60, 69, 81]);
    assert_eq!(
        p.bar_params(75).unwrap().felt.stiffness,
        geometric(1e8, 5e8, 69, 81, 75)
    );
    let before = p.clone();
    for bad in [f64::NAN, 1.0, 1e17] {
        let err = p.set("mallets/key/70:felt_stiffness", bad).unwrap_err();
        assert!(
            err.to_string().contains("mallets/key/70:felt_stiffness"),
            "{err}"
        );
    }
    assert!(p.set("mallets/key/56:mass_kg", 0.02).is_err());
    assert_eq!(p, before);
    let json = serde_json::to_string(&set("strings/key/61:loss_b1", 1.25)).unwrap();
    assert_eq!(
        json,
        r#"{"op":"set","path":"strings/key/61:loss_b1","value":1.25}"#
    );
}

#[test]
fn property_edits_round_trip_through_json() {
    for edit in [
        set("strings/key/61:loss_b1", 1.25),
        set("tuning:a4_hz", 442.0),
        inherit("hammers/anchor/60:felt_exponent"),
    ] {
        let json = serde_json::to_string(&edit).unwrap();
        let back: PropertyEdit = serde_json::from_str(&json).unwrap();
        assert_eq!(back, edit, "{json}");
    }
    let inherit_json = serde_json::to_string(&inherit("strike/key/60:position")).unwrap();
    assert_eq!(
        inherit_json,
        r#"{"op":"inherit","path":"strike/key/60:position"}"#
    );
}

#[test]
fn a_preset_may_omit_anchor_fields_but_not_everywhere() {
    let omitted = grand_text().replacen("loss_b1 = 1.1\n", "", 1);
    let p = Preset::from_toml(&omitted).unwrap();
    let inherited = geometric(0.5, 3.5, 36, 96, 60);
    assert_eq!(p.get("strings/key/60:loss_b1"), Some(inherited));
    assert_eq!(p.key_params(60).unwrap().string.loss_b1, inherited);
    assert_eq!(p.is_explicit("strings/anchor/60:loss_b1"), Some(false));

    let nowhere: String = grand_text()
        .lines()
        .filter(|line| !line.starts_with("loss_b1"))
        .collect::<Vec<_>>()
        .join("\n");
    let err = Preset::from_toml(&nowhere).unwrap_err().to_string();
    assert!(
        err.contains("strings:anchor: loss_b1 is given by no anchor"),
        "{err}"
    );
    let empty = DEFAULT_PRESET_TOML.replace(
        "[[strike.anchor]] # C4: fraction of the speaking length from the agraffe\nkey = 60\nposition = 0.12\n",
        "[[strike.anchor]]\nkey = 60\n",
    );
    assert_ne!(empty, DEFAULT_PRESET_TOML);
    let err = Preset::from_toml(&empty).unwrap_err().to_string();
    assert!(err.contains("strike:anchor") && err.contains("60"), "{err}");
}

/// Values just beyond `lo` and `hi` for a property of kind `kind`.
fn just_outside(kind: ValueKind, (lo, hi): (f64, f64)) -> (f64, f64) {
    if kind.is_whole() {
        (lo - 1.0, hi + 1.0)
    } else {
        (lo.next_down(), hi.next_up())
    }
}

/// Every property path of `p` an editor reaches: what `paths()` lists and
/// every key path of the component tree.
fn editor_paths(p: &Preset) -> Vec<String> {
    let keyed = p.components().into_iter().flat_map(|c| {
        c.properties
            .iter()
            .map(|name| format!("{}:{name}", c.path))
            .collect::<Vec<_>>()
    });
    let mut all: Vec<String> = p.paths().into_iter().chain(keyed).collect();
    all.sort();
    all.dedup();
    all
}

#[test]
fn every_property_has_info_and_its_range_is_what_validation_accepts() {
    for p in [grand(), bars()] {
        let all = editor_paths(&p);
        assert!(all.len() > p.paths().len() + 88, "{}", all.len());
        for path in &all {
            let info = p
                .property_info(path)
                .unwrap_or_else(|| panic!("{path} has no info"));
            assert!(!info.description.is_empty(), "{path}");
            assert!(p.get(path).is_some(), "{path}");
            let (lo, hi) = info.range;
            assert!(lo.is_finite() && hi.is_finite() && lo <= hi, "{path}");
            assert!(info.slider.0.is_finite() && info.slider.1.is_finite());
            assert_eq!(
                info.inheritable,
                path.contains("/key/") || path.contains("/anchor/")
            );
        }
        // Setting the ends of each range succeeds, just outside fails. Every
        // path of the preset, and key paths at the keyboard's ends and middle.
        let low = p.keyboard.lowest_key;
        let high = p.keyboard.highest_key;
        let sampled = all.iter().filter(|path| {
            !path.contains("/key/")
                || [low, (low + high) / 2 + 1, high]
                    .iter()
                    .any(|k| path.contains(&format!("/key/{k}:")))
        });
        for path in sampled {
            let info = p.property_info(path).unwrap();
            let (below, above) = just_outside(info.kind, info.range);
            for value in [info.range.0, info.range.1] {
                let mut q = p.clone();
                q.set(path, value)
                    .unwrap_or_else(|e| panic!("{path} = {value}: {e}"));
            }
            for value in [below, above] {
                assert!(p.clone().set(path, value).is_err(), "{path} = {value}");
            }
        }
    }
}

#[test]
fn property_info_gives_units_kinds_and_sliders() {
    let p = grand();
    let info = |path: &str| p.property_info(path).unwrap();
    let stiffness = info("hammers/key/61:felt_stiffness");
    assert_eq!(stiffness.unit, "N/m^p");
    assert_eq!(stiffness.range, (1e3, 1e16));
    assert!(stiffness.logarithmic && stiffness.inheritable);
    assert_eq!(info("hammers/anchor/60:felt_stiffness"), stiffness);
    assert_eq!(info("strings/key/61:loss_b2").unit, "m²/s");
    let a4 = info("tuning:a4_hz");
    assert_eq!(
        (a4.unit, a4.range, a4.kind),
        ("Hz", (300.0, 600.0), ValueKind::Real)
    );
    assert!(!a4.logarithmic && !a4.inheritable);
    // Checked twice (the hammers' own range and the action's let-off): both.
    assert_eq!(info("hammers:start_gap_m").range, (5e-4, 0.01));
    assert_eq!(
        bars().property_info("mallets:start_gap_m").unwrap().range,
        (1e-5, 0.05)
    );
    // Properties that bound each other.
    assert_eq!(info("soundboard:lowest_mode_hz").range, (10.0, 1800.0));
    assert_eq!(info("soundboard:highest_mode_hz").range, (45.0, 15_000.0));
    assert_eq!(info("velocity:softest_speed_m_s").range, (0.05, 6.5));
    assert_eq!(info("strings:pairs_from_key").range, (0.0, 48.0));
    assert_eq!(info("keyboard:lowest_key").range, (21.0, 108.0));
    assert_eq!(info("keyboard:lowest_key").kind, ValueKind::MidiKey);
    assert_eq!(
        bars().property_info("keyboard:lowest_key").unwrap().range,
        (0.0, 81.0)
    );
    assert_eq!(info("strike/key/60:position").range, (0.01, 0.5));
    assert_eq!(
        bars()
            .property_info("strike/key/60:position")
            .unwrap()
            .range,
        (0.01, 0.99)
    );
    // A switch, and a count validation leaves open above.
    assert_eq!(info("action:realistic_travel").kind, ValueKind::Switch);
    assert_eq!(info("action:realistic_travel").range, (0.0, 1.0));
    let seed = info("soundboard:seed");
    assert_eq!(seed.kind, ValueKind::Count);
    assert_eq!(seed.range, (0.0, f64::from(u32::MAX)));
    assert_eq!(seed.slider, (0.0, 1000.0));
    assert!(p.property_info("tuning:pitch").is_none());
    assert!(p.property_info("strings/key/20:loss_b1").is_none());
}

#[test]
fn components_form_a_tree_with_every_key_under_its_set() {
    let p = grand();
    let components = p.components();
    let top: Vec<(&str, &str)> = components
        .iter()
        .filter(|c| c.parent.is_none())
        .map(|c| (c.path.as_str(), c.kind))
        .collect();
    assert_eq!(
        top,
        [
            ("tuning", "tuning"),
            ("keyboard", "keyboard"),
            ("velocity", "velocity"),
            ("output", "output"),
            ("strings", "stiff-strings"),
            ("hammers", "felt-hammers"),
            ("dampers", "dampers"),
            ("action", "grand-action"),
            ("soundboard", "soundboard"),
            ("strike", "strike"),
        ]
    );
    let c4 = components
        .iter()
        .find(|c| c.path == "strings/key/60")
        .unwrap();
    assert_eq!(c4.parent.as_deref(), Some("strings"));
    assert_eq!((c4.kind, c4.label.as_str()), ("key", "C4 (60)"));
    assert!(c4.properties.contains(&"loss_b1"));
    for set in ["strings", "hammers", "strike"] {
        let keys: Vec<&str> = components
            .iter()
            .filter(|c| c.parent.as_deref() == Some(set))
            .map(|c| c.path.as_str())
            .collect();
        assert_eq!(keys.len(), 88, "{set}");
        assert_eq!(keys[0], format!("{set}/key/21"));
    }
    // Parents come before their children; no anchor components.
    for (i, c) in components.iter().enumerate() {
        if let Some(parent) = &c.parent {
            assert!(
                components[..i].iter().any(|p| &p.path == parent),
                "{}",
                c.path
            );
        }
        assert!(!c.path.contains("/anchor/"), "{}", c.path);
    }
    let strings = &components[4];
    assert_eq!(
        strings.properties,
        [
            "pairs_from_key",
            "triples_from_key",
            "detune_cents",
            "unison_spread_cents",
            "unison_spread_inharmonicity",
            "unison_spread_loss",
            "unison_spread_contact",
            "unison_seed",
            "bridge_tilt_rad",
            "youngs_modulus_pa",
            "longitudinal_coupling",
            "longitudinal_t60_s"
        ]
    );
    let bars = bars().components();
    assert!(bars.iter().any(|c| c.path == "mallets/key/57"));
    assert!(!bars.iter().any(|c| c.parent.as_deref() == Some("bars")));
}

/// The public interpolation agrees with what keys read.
#[test]
fn value_at_is_what_keys_read() {
    let p = grand();
    let strings = p.objects.get_as::<StringSet>("strings").unwrap();
    for key in [21, 30, 61, 100] {
        assert_eq!(
            value_at(&strings.anchor, key, |a| a.inharmonicity),
            p.get(&format!("strings/key/{key}:inharmonicity"))
        );
    }
}

/// Every range an editor offers is one validation enforces, for every
/// built-in instrument (the test above samples the grand's and the bars'
/// keys): for every stored property, a value just outside the range
/// (declared with its field, or narrowed by the instrument's rules) is
/// refused and the preset is left as it was.
#[test]
fn every_offered_range_refuses_what_lies_outside_it() {
    use orchard_engine::families::builtin_presets;
    use orchard_engine::props::ValueKind;
    let mut checked = 0;
    for (name, _) in builtin_presets() {
        let preset = Preset::load(name).unwrap();
        for path in preset.paths() {
            let info = preset.property_info(&path).unwrap();
            let (lo, hi) = info.range;
            let step = |bound: f64| match info.kind {
                ValueKind::Real => bound.abs().max(1e-9) * 0.01,
                _ => 1.0,
            };
            for outside in [lo - step(lo), hi + step(hi)] {
                if !outside.is_finite()
                    || info.kind.range().0 > outside
                    || outside > info.kind.range().1
                {
                    continue;
                }
                let mut edited = preset.clone();
                assert!(
                    edited.set(&path, outside).is_err(),
                    "{name}: {path} = {outside} was accepted"
                );
                assert_eq!(
                    edited, preset,
                    "{name}: a refused edit of {path} changed the preset"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} bounds checked");
}
