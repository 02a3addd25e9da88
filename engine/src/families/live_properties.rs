//! The properties a family's mechanics change while they run (a clock's
//! time and wind, a music box's wind), declared from its preset object's
//! fields so that edits and editors reach them by their preset paths.

use crate::instrument::Preset;
use crate::props::{PropertyInfo, PropertyTree};

/// Live properties: each one's path (`NAME:field`) and declaration.
#[derive(Debug, Clone, Default)]
pub struct LiveProperties(Vec<(String, PropertyInfo)>);

impl LiveProperties {
    /// `fields` of `preset`'s object `name`, declared as the preset declares
    /// them, with their present values. Allocates.
    pub fn of(preset: &Preset, name: &str, fields: &[&'static str]) -> Self {
        Self(
            fields
                .iter()
                .filter_map(|field| {
                    let path = format!("{name}:{field}");
                    let declared = preset.property_info(&path)?;
                    let value = preset.get(&path)?;
                    let (min, max) = declared.range;
                    let info = PropertyInfo::new(
                        field,
                        declared.description,
                        declared.unit,
                        min,
                        max,
                        value,
                    );
                    Some((path, info))
                })
                .collect(),
        )
    }

    /// Declares them in `tree`, each under its component.
    pub fn declare(&self, tree: &mut PropertyTree) {
        for (path, info) in &self.0 {
            let (component, _) = path.split_once(':').expect("a preset path has a component");
            tree.add_component(component);
            tree.declare(component, info.clone());
        }
    }
}

/// The field `path` (`NAME:field`) names on the object called `name`; `None`
/// for another object's path or a path without a field.
pub fn field_of<'p>(name: &str, path: &'p str) -> Option<&'p str> {
    path.split_once(':')
        .filter(|&(object, _)| object == name)
        .map(|(_, field)| field)
}
