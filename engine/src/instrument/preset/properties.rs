//! What an editor needs to show a preset: its components as a tree, and for
//! each property its declaration and the range it has in this instrument (Lloyd & Stavness,
//! "ArtiSynth Description and Design Overview", 2014, Sections 3.2 and 3.5: a
//! navigation tree of component paths, and a property panel built from what
//! the properties say about themselves).

use super::bound::bounds_of;
use super::definition::Preset;
use super::fields::Fields;
use super::paths::{Part, Top, anchor_list, part};
use crate::instrument::note_name;
use crate::props::{Declaration, PropertyInfo};

/// A component of the preset's tree, for a navigation panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentInfo {
    /// Its path: the part of a property path before the `:` (`strings`,
    /// `strings/key/60`).
    pub path: String,
    /// The path of the component it belongs to; `None` at the top.
    pub parent: Option<String>,
    /// What it is: `tuning`, `keyboard`, `velocity`, `output`, an object's kind
    /// (`stiff-strings`, `felt-hammers`, `free-free-bars`, `dampers`,
    /// `grand-action`, `soundboard`), `strike`, or `key` (one key of a set with
    /// anchors).
    pub kind: &'static str,
    /// A name for people: `Tuning`, the object's name, `C4 (60)`.
    pub label: String,
    /// The names of its properties: `PATH:NAME` is a property path for each.
    pub properties: Vec<&'static str>,
}

/// No bound: every real number.
const UNBOUNDED: (f64, f64) = (f64::NEG_INFINITY, f64::INFINITY);

/// The names of `fields`.
fn names(fields: &[Declaration]) -> Vec<&'static str> {
    fields.iter().map(|field| field.name).collect()
}

/// The bounds the declared orders of `declarations` put on the field
/// `name` of `fields`: at least the field it is declared `at_least`, at
/// most each field declared `at_least` it.
fn ordered_bounds(fields: &dyn Fields, declarations: &[Declaration], name: &str) -> (f64, f64) {
    let declaration = Declaration::find(declarations, name);
    let low = declaration
        .and_then(|d| d.at_least)
        .and_then(|low| fields.value(low))
        .unwrap_or(f64::NEG_INFINITY);
    let high = declarations
        .iter()
        .filter(|d| d.at_least == Some(name))
        .filter_map(|d| fields.value(d.name))
        .fold(f64::INFINITY, f64::min);
    (low, high)
}

impl Preset {
    /// What the property at `path` is: its declaration, and the range an
    /// edit may give it here (its declared range, narrowed by the field it
    /// may not fall below or that may not fall below it, and by the ranges
    /// the instrument's rules give it, [`super::Bound`]), with how a slider
    /// should show it; `None` for an unknown path. Key paths
    /// (`strings/key/61:loss_b1`) and anchor paths share their field's info.
    pub fn property_info(&self, path: &str) -> Option<PropertyInfo> {
        let (head, name) = path.split_once(':')?;
        let mut copy = self.clone();
        let (declaration, component, order) = match part(&mut copy, head)? {
            Part::Fields(fields) => {
                let declarations = fields.declarations();
                let declaration = *Declaration::find(declarations, name)?;
                let order = ordered_bounds(fields, declarations, name);
                (declaration, head.to_string(), order)
            }
            Part::Key { anchors, set, .. } => {
                let declaration = *Declaration::find(anchors.declarations(), name)?;
                (declaration, set, UNBOUNDED)
            }
        };
        let rules = self
            .instrument()
            .map(|instrument| bounds_of(&self.bounds(&instrument), &component, name))
            .unwrap_or(UNBOUNDED);
        let bounds = (order.0.max(rules.0), order.1.min(rules.1));
        Some(PropertyInfo::new(declaration, bounds))
    }

    /// The components of the preset as a tree, in display order, each parent
    /// before its children: `tuning`, `keyboard`, `velocity`, `output`, each
    /// object, and `strike`; under each set with anchors (strings, hammers)
    /// and under `strike`, one `key` per key of the keyboard (`strings/key/60`),
    /// lowest first. Anchors are not listed apart: they are keys.
    pub fn components(&self) -> Vec<ComponentInfo> {
        let mut copy = self.clone();
        let keys = self.keyboard.lowest_key..=self.keyboard.highest_key;
        let mut components = Vec::new();
        for Top { path, kind } in self.top_components() {
            let properties = match part(&mut copy, &path) {
                Some(Part::Fields(fields)) => names(fields.declarations()),
                _ => Vec::new(),
            };
            let key_fields = anchor_list(&mut copy, &path).map(|a| names(a.declarations()));
            components.push(ComponentInfo {
                label: self.label(&path, kind),
                path: path.clone(),
                parent: None,
                kind,
                properties,
            });
            let Some(fields) = key_fields else {
                continue;
            };
            components.extend(keys.clone().map(|key| ComponentInfo {
                path: format!("{path}/key/{key}"),
                parent: Some(path.clone()),
                kind: "key",
                label: format!("{} ({key})", note_name(key)),
                properties: fields.clone(),
            }));
        }
        components
    }

    /// The label of the top component at `path`, of kind `kind`.
    fn label(&self, path: &str, kind: &str) -> String {
        match (kind, self.strikes.first()) {
            ("tuning", _) => "Tuning".into(),
            ("keyboard", _) => "Keyboard".into(),
            ("velocity", _) => "Velocity".into(),
            ("output", _) => "Output".into(),
            ("room", _) => "Room".into(),
            ("strike", Some(strike)) => format!("Strike: {} on {}", strike.hammers, strike.target),
            _ => path.to_string(),
        }
    }
}
