//! A property is declared once, and every other name for it is checked
//! against that declaration: renaming a declared field breaks its
//! declaration and the tests below that find a rule, a live edit or an order
//! naming a field that is no longer there, never a knob that silently
//! stops reaching its property.

use std::collections::BTreeSet;

use orchard_engine::families::{builtin_presets, family_of};
use orchard_engine::instrument::Preset;
use orchard_engine::props::PropertyTree;

/// Every built-in instrument, by its preset's name.
fn builtins() -> Vec<(&'static str, Preset)> {
    builtin_presets()
        .into_iter()
        .map(|(name, _)| (name, Preset::builtin(name).unwrap().unwrap()))
        .collect()
}

/// The property paths of `component`'s own fields, as the editor's tree
/// lists them.
fn own_paths(preset: &Preset, component: &str) -> Vec<String> {
    preset
        .components()
        .into_iter()
        .find(|c| c.path == component)
        .map(|c| {
            c.properties
                .into_iter()
                .map(|name| format!("{component}:{name}"))
                .collect()
        })
        .unwrap_or_default()
}

/// A field declared `at_least` another names a field of the same part:
/// reading a property's info narrows it by that field's value, and a value
/// below it is refused naming the order.
#[test]
fn every_declared_order_names_a_field_of_its_part() {
    let mut orders = 0;
    for (name, preset) in builtins() {
        for component in preset.components() {
            for path in own_paths(&preset, &component.path) {
                let info = preset.property_info(&path).unwrap();
                let Some(low) = info.at_least else {
                    continue;
                };
                orders += 1;
                let low_path = format!("{}:{low}", component.path);
                let low_value = preset.get(&low_path);
                assert!(
                    low_value.is_some(),
                    "{name}: {path} is declared at least `{low}`, which {} has not",
                    component.path
                );
                assert!(info.range.0 >= low_value.unwrap(), "{name}: {path}");
                let low_info = preset.property_info(&low_path).unwrap();
                let value = preset.get(&path).unwrap();
                assert!(low_info.range.1 <= value, "{name}: {low_path}");
            }
        }
    }
    // The keyboard's, the velocity curve's, the strings' unisons, the
    // board's modes, the cases' modes, the celesta's partials.
    assert!(orders >= 6, "{orders}");
}

/// Every range an instrument's rules give a property names a declared
/// field: its property info offers the rule's range, and validation refuses
/// a value just outside it.
#[test]
fn every_rule_bounds_a_declared_field() {
    let mut bounds = 0;
    for (name, preset) in builtins() {
        let instrument = preset.instrument().unwrap();
        for bound in preset.bounds(&instrument) {
            bounds += 1;
            let own = format!("{}:{}", bound.component, bound.field);
            let at_a_key = format!(
                "{}/key/{}:{}",
                bound.component, preset.keyboard.lowest_key, bound.field
            );
            let path = if preset.get(&own).is_some() {
                own
            } else {
                at_a_key
            };
            let info = preset
                .property_info(&path)
                .unwrap_or_else(|| panic!("{name}: a rule bounds {path}, which is not declared"));
            assert!(
                info.range.0 >= bound.range.min && info.range.1 <= bound.range.max,
                "{name}: {path} offers {:?}, the rule {:?}",
                info.range,
                (bound.range.min, bound.range.max)
            );
            let mut edited = preset.clone();
            let beyond = bound.range.max + bound.range.max.abs().max(1.0);
            assert!(
                edited.set(&path, beyond).is_err(),
                "{name}: {path} = {beyond} is beyond its rule"
            );
        }
    }
    // The strike positions of every instrument, a grand action's keys and
    // let-off, the clock's rods, the music box's pins.
    assert!(bounds >= 10, "{bounds}");
}

/// What a family's mechanics take live is what its preset declares `live`:
/// every path its mechanics declare is a preset path declared live and
/// described as the preset describes it, and every field declared live on
/// an object of the family's own kinds is one of them, which an edit
/// reaches (it reads back the value it was given).
#[test]
fn the_mechanics_take_live_what_the_preset_declares_live() {
    let mut live = 0;
    for (name, preset) in builtins() {
        let family = family_of(&preset).unwrap();
        let mut mechanics = family.mechanics(&preset);
        let mut tree = PropertyTree::new();
        mechanics.declare_properties(&mut tree);
        let taken: BTreeSet<String> = tree
            .explicit_values()
            .into_keys()
            .filter(|path| preset.get(path).is_some())
            .collect();
        for path in &taken {
            let info = preset.property_info(path).unwrap();
            assert!(
                info.live,
                "{name}: {path} is taken live but not declared so"
            );
            assert_eq!(tree.info(path), Ok(&info), "{name}: {path}");
        }
        let own_kinds: Vec<&str> = family.object_kinds().iter().map(|k| k.table).collect();
        for (object, spec) in preset.objects.iter() {
            if !own_kinds.contains(&spec.kind()) {
                continue;
            }
            for path in own_paths(&preset, object) {
                if !preset.property_info(&path).unwrap().live {
                    continue;
                }
                live += 1;
                assert!(taken.contains(&path), "{name}: {path} is declared live");
                let info = tree.info(&path).unwrap();
                let middle = (info.slider.0 + info.slider.1) / 2.0;
                let value = if info.kind.is_whole() {
                    middle.round()
                } else {
                    middle
                };
                assert_eq!(
                    mechanics.set_property(&path, value),
                    Ok(()),
                    "{name}: {path}"
                );
                let read = mechanics.property(&path).unwrap();
                assert!(
                    (read - value).abs() <= 1e-9 * value.abs().max(1.0),
                    "{name}: {path} set to {value} reads {read}"
                );
            }
        }
    }
    // The grand's action and dampers, the celesta's blow distance, the
    // clock's time, wind and balance, the music box's wind.
    assert!(live >= 14, "{live}");
}

/// A field declared with a default reads as that default from a preset
/// that leaves it out (here in the editor's JSON; a TOML file is read by
/// the same reader): the default is written once, in the
/// declaration, and the reader takes it from there.
#[test]
fn a_field_left_out_reads_as_its_declared_default() {
    let mut defaults = 0;
    for (name, preset) in builtins() {
        let written = serde_json::to_value(&preset).unwrap();
        let mut tables: Vec<(String, Vec<String>)> = ["tuning", "keyboard", "velocity", "output"]
            .iter()
            .map(|part| (part.to_string(), vec![part.to_string()]))
            .collect();
        for (object, spec) in preset.objects.iter() {
            let table = vec![spec.kind().to_string(), object.to_string()];
            tables.push((object.to_string(), table));
        }
        for (component, table) in tables {
            for path in own_paths(&preset, &component) {
                let info = preset.property_info(&path).unwrap();
                let Some(default) = info.default else {
                    continue;
                };
                defaults += 1;
                let mut text = written.clone();
                let mut fields = &mut text;
                for key in &table {
                    fields = fields.get_mut(key.as_str()).unwrap();
                }
                // (A field at its default may not be written at all.)
                fields.as_object_mut().unwrap().remove(info.name);
                let read: Preset = serde_json::from_value(text).unwrap();
                assert_eq!(read.get(&path), Some(default), "{name}: {path}");
            }
        }
    }
    // The stretch, the touch curve, the microphone and the grand's dampers
    // and board.
    assert!(defaults >= 6, "{defaults}");
}
