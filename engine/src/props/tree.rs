//! Component paths and declared properties (Lloyd & Stavness, "ArtiSynth
//! Description and Design Overview", 2014, Sections 2.2 and 2.4): every part,
//! spring and probe has a path such as `escapement/parts/balance`, and each of
//! its properties a full path such as `escapement/parts/balance:inertia`. A
//! property has a description, a unit and a range; an inheritable property is
//! either set explicitly or inherits the value of the nearest ancestor
//! component that sets it explicitly.
//!
//! The same paths are what presets, the editor and host automation use; only
//! explicit values are saved, so a saved tree restores exactly.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::access::PropertyError;
use super::declaration::PropertyInfo;

/// One declared property of a component: what it is, its value when
/// neither set nor inherited, and where its value comes from.
#[derive(Debug, Clone, PartialEq)]
struct Declared {
    info: PropertyInfo,
    default: f64,
    mode: Mode,
}

/// Where a property's value comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    /// Set on this component.
    Explicit(f64),
    /// Taken from the nearest ancestor that sets it (or the default).
    Inherited,
}

/// A full property path split into its component path and property name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PropertyPath<'a> {
    /// `escapement/parts/balance`.
    pub component: &'a str,
    /// `inertia`.
    pub property: &'a str,
}

impl<'a> PropertyPath<'a> {
    /// Splits `component:property`; `None` without exactly one `:` or with an
    /// empty side.
    pub fn parse(path: &'a str) -> Option<Self> {
        let (component, property) = path.split_once(':')?;
        let valid = !component.is_empty() && !property.is_empty() && !property.contains(':');
        valid.then_some(Self {
            component,
            property,
        })
    }
}

/// The ancestors of a component path, nearest first: `a/b/c` gives `a/b`, `a`.
fn ancestors(component: &str) -> impl Iterator<Item = &str> {
    let mut rest = component;
    std::iter::from_fn(move || {
        let (parent, _) = rest.rsplit_once('/')?;
        rest = parent;
        Some(parent)
    })
}

/// Every component's declared properties and their modes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PropertyTree {
    components: BTreeMap<String, BTreeMap<&'static str, Declared>>,
}

/// The explicit values of a tree, by full path: what presets and host state store.
pub type ExplicitValues = BTreeMap<String, f64>;

impl PropertyTree {
    /// An empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares a component (so it can be found by path even without properties).
    pub fn add_component(&mut self, component: &str) {
        self.components.entry(component.to_string()).or_default();
    }

    /// Declares `info` on `component` with value `default` when neither
    /// set nor inherited: inherited if inheritable, otherwise explicit at
    /// `default`.
    pub fn declare(&mut self, component: &str, info: PropertyInfo, default: f64) {
        let mode = if info.inheritable {
            Mode::Inherited
        } else {
            Mode::Explicit(default)
        };
        self.components
            .entry(component.to_string())
            .or_default()
            .insert(
                info.name,
                Declared {
                    info,
                    default,
                    mode,
                },
            );
    }

    /// The component's path (borrowed from the tree), the property's info and
    /// its mode.
    fn entry(&self, path: &str) -> Result<(&str, &Declared), PropertyError> {
        let unknown = || PropertyError::UnknownPath(path.to_string());
        let parsed = PropertyPath::parse(path).ok_or_else(unknown)?;
        let (component, properties) = self
            .components
            .get_key_value(parsed.component)
            .ok_or_else(unknown)?;
        let declared = properties.get(parsed.property).ok_or_else(unknown)?;
        Ok((component, declared))
    }

    fn entry_mut(&mut self, path: &str) -> Result<&mut Declared, PropertyError> {
        let unknown = || PropertyError::UnknownPath(path.to_string());
        let parsed = PropertyPath::parse(path).ok_or_else(unknown)?;
        self.components
            .get_mut(parsed.component)
            .and_then(|properties| properties.get_mut(parsed.property))
            .ok_or_else(unknown)
    }

    /// What the property is: its declaration and range.
    pub fn info(&self, path: &str) -> Result<&PropertyInfo, PropertyError> {
        Ok(&self.entry(path)?.1.info)
    }

    /// Whether the value at `path` is explicit or inherited.
    pub fn mode(&self, path: &str) -> Result<Mode, PropertyError> {
        Ok(self.entry(path)?.1.mode)
    }

    /// The value in effect: explicit, else the nearest ancestor's explicit
    /// value of the same property, else the default.
    pub fn get(&self, path: &str) -> Result<f64, PropertyError> {
        let (component, declared) = self.entry(path)?;
        if let Mode::Explicit(value) = declared.mode {
            return Ok(value);
        }
        let name = declared.info.name;
        let inherited = ancestors(component).find_map(|ancestor| {
            match self.components.get(ancestor)?.get(name)?.mode {
                Mode::Explicit(value) => Some(value),
                Mode::Inherited => None,
            }
        });
        Ok(inherited.unwrap_or(declared.default))
    }

    /// Whether [`PropertyTree::set`] would take `value` at `path`: the path
    /// exists and the value is within its range (so not NaN). Allocates nothing,
    /// so the audio thread may ask.
    pub fn accepts(&self, path: &str, value: f64) -> bool {
        PropertyPath::parse(path)
            .and_then(|p| self.components.get(p.component)?.get(p.property))
            .is_some_and(|declared| declared.info.accepts(value))
    }

    /// Sets the value at `path` explicitly; a value outside the range is an
    /// error naming the path and the range, and changes nothing.
    pub fn set(&mut self, path: &str, value: f64) -> Result<(), PropertyError> {
        let declared = self.entry_mut(path)?;
        declared.info.check(path, value)?;
        declared.mode = Mode::Explicit(value);
        Ok(())
    }

    /// Makes an inheritable property inherit again.
    pub fn inherit(&mut self, path: &str) -> Result<(), PropertyError> {
        let declared = self.entry_mut(path)?;
        if !declared.info.inheritable {
            return Err(PropertyError::ReadOnly(format!("{path} (not inheritable)")));
        }
        declared.mode = Mode::Inherited;
        Ok(())
    }

    /// Component paths containing `text`, in order: the editor's search.
    pub fn find(&self, text: &str) -> impl Iterator<Item = &str> {
        self.components
            .keys()
            .map(String::as_str)
            .filter(move |path| path.contains(text))
    }

    /// Every full property path of `component`, in order.
    pub fn properties_of<'a>(&'a self, component: &'a str) -> impl Iterator<Item = String> + 'a {
        self.components
            .get(component)
            .into_iter()
            .flat_map(move |properties| properties.keys().map(move |p| format!("{component}:{p}")))
    }

    /// The explicit values (inherited ones are not stored).
    pub fn explicit_values(&self) -> ExplicitValues {
        let mut values = ExplicitValues::new();
        for (component, properties) in &self.components {
            for (name, declared) in properties {
                if let Mode::Explicit(value) = declared.mode {
                    values.insert(format!("{component}:{name}"), value);
                }
            }
        }
        values
    }

    /// Applies saved explicit values; the first unknown path or out-of-range
    /// value is returned as an error and nothing is changed.
    pub fn apply(&mut self, values: &ExplicitValues) -> Result<(), PropertyError> {
        let mut updated = self.clone();
        for (path, &value) in values {
            updated.set(path, value)?;
        }
        *self = updated;
        Ok(())
    }
}

/// Explicit values as they appear in TOML and host state: `path = value`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SavedProperties(pub ExplicitValues);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::props::{Declaration, DeclaredRange};

    const STIFFNESS: Declaration = Declaration::real("stiffness", "N/m", "spring stiffness")
        .within(DeclaredRange {
            min: 0.0,
            max: 1e6,
            text: "0 to 1e6 N/m",
        })
        .inherited();

    /// Figure 5 of the seed: stiffness set explicitly on A, C and E, inherited on
    /// B and D (from A) and on F (from C).
    fn figure_five() -> PropertyTree {
        let mut tree = PropertyTree::new();
        let stiffness = PropertyInfo::declared(STIFFNESS);
        for component in ["a", "a/b", "a/b/c", "a/d", "a/b/c/e", "a/b/c/f"] {
            tree.declare(component, stiffness, 1.0);
        }
        tree.set("a:stiffness", 10.0).unwrap();
        tree.set("a/b/c:stiffness", 30.0).unwrap();
        tree.set("a/b/c/e:stiffness", 50.0).unwrap();
        tree
    }

    #[test]
    fn inherited_values_come_from_the_nearest_explicit_ancestor() {
        let tree = figure_five();
        assert_eq!(tree.get("a/b:stiffness"), Ok(10.0));
        assert_eq!(tree.get("a/d:stiffness"), Ok(10.0));
        assert_eq!(tree.get("a/b/c/f:stiffness"), Ok(30.0));
        assert_eq!(tree.get("a/b/c/e:stiffness"), Ok(50.0));
        assert_eq!(tree.mode("a/b:stiffness"), Ok(Mode::Inherited));
        assert_eq!(tree.mode("a/b/c:stiffness"), Ok(Mode::Explicit(30.0)));
    }

    #[test]
    fn editing_an_inherited_value_makes_it_explicit_and_inherit_reverts_it() {
        let mut tree = figure_five();
        tree.set("a/b:stiffness", 20.0).unwrap();
        assert_eq!(tree.mode("a/b:stiffness"), Ok(Mode::Explicit(20.0)));
        // C is explicit, so it keeps its own value; D still inherits from A.
        assert_eq!(tree.get("a/b/c/f:stiffness"), Ok(30.0));
        tree.inherit("a/b/c:stiffness").unwrap();
        assert_eq!(tree.get("a/b/c/f:stiffness"), Ok(20.0));
        tree.inherit("a/b:stiffness").unwrap();
        assert_eq!(tree.get("a/b/c/f:stiffness"), Ok(10.0));
    }

    #[test]
    fn out_of_range_and_unknown_paths_are_errors_naming_them() {
        let mut tree = figure_five();
        let error = tree.set("a/b:stiffness", -1.0).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`a/b:stiffness` = -1 is outside its range [0, 1000000]"
        );
        assert_eq!(tree.mode("a/b:stiffness"), Ok(Mode::Inherited));
        for path in ["a/x:stiffness", "a/b:mass", "a/b", ":stiffness", "a:b:c"] {
            assert_eq!(
                tree.set(path, 1.0),
                Err(PropertyError::UnknownPath(path.to_string())),
                "{path}"
            );
        }
    }

    #[test]
    fn explicit_values_load_from_toml_and_restore_the_tree() {
        let tree = figure_five();
        let text = r#"
            "a:stiffness" = 10.0
            "a/b/c:stiffness" = 30.0
            "a/b/c/e:stiffness" = 50.0
        "#;
        let loaded: SavedProperties = toml::from_str(text).unwrap();
        assert_eq!(loaded.0, tree.explicit_values());
        let mut fresh = figure_five();
        for path in ["a:stiffness", "a/b/c:stiffness", "a/b/c/e:stiffness"] {
            fresh.inherit(path).unwrap();
        }
        fresh.apply(&loaded.0).unwrap();
        assert_eq!(fresh, tree);
        // A bad value anywhere leaves the tree untouched.
        let mut broken = loaded.0.clone();
        broken.insert("a/d:stiffness".into(), 2e6);
        assert!(fresh.apply(&broken).is_err());
        assert_eq!(fresh, tree);
    }

    #[test]
    fn search_finds_components_by_path() {
        let tree = figure_five();
        let found: Vec<_> = tree.find("b/c").collect();
        assert_eq!(found, ["a/b/c", "a/b/c/e", "a/b/c/f"]);
        let properties: Vec<_> = tree.properties_of("a/d").collect();
        assert_eq!(properties, ["a/d:stiffness"]);
    }
}
