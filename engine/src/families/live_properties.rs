//! The properties a family's mechanics change while they run (a clock's
//! time and wind, a music box's wind): the fields of its preset object
//! declared `live`, with their declarations and present values, so that
//! edits and editors reach them by their preset paths.

use crate::instrument::Preset;
use crate::props::{PropertyError, PropertyInfo, PropertyTree};

/// Live properties: each one's path (`NAME:field`), what it is, and its
/// value when the mechanics were built.
#[derive(Debug, Clone, Default)]
pub struct LiveProperties(Vec<(String, PropertyInfo, f64)>);

impl LiveProperties {
    /// The fields of `preset`'s object `name` declared `live`, as the
    /// preset describes them, with their present values. Allocates.
    pub fn of(preset: &Preset, name: &str) -> Self {
        let Some(object) = preset.objects.get(name) else {
            return Self::default();
        };
        Self(
            object
                .fields()
                .declarations()
                .iter()
                .filter(|field| field.live)
                .filter_map(|field| {
                    let path = format!("{name}:{}", field.name);
                    let info = preset.property_info(&path)?;
                    let value = preset.get(&path)?;
                    Some((path, info, value))
                })
                .collect(),
        )
    }

    /// What the property at `path` is, if it is one of them.
    pub fn info(&self, path: &str) -> Option<&PropertyInfo> {
        self.0
            .iter()
            .find(|(live, ..)| live == path)
            .map(|(_, info, _)| info)
    }

    /// The field `path` names (`NAME:field` gives `field`), if it is one of
    /// them and `value` lies within its range; otherwise why the edit is
    /// refused.
    pub fn edit<'p>(&self, path: &'p str, value: f64) -> Result<&'p str, PropertyError> {
        let unknown = || PropertyError::UnknownPath(path.to_string());
        self.info(path).ok_or_else(unknown)?.check(path, value)?;
        path.split_once(':')
            .map(|(_, field)| field)
            .ok_or_else(unknown)
    }

    /// Declares them in `tree`, each under its component.
    pub fn declare(&self, tree: &mut PropertyTree) {
        for (path, info, value) in &self.0 {
            let (component, _) = path.split_once(':').expect("a preset path has a component");
            tree.add_component(component);
            tree.declare(component, *info, *value);
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
