//! What an editor needs to show a preset: its components as a tree, and for
//! each property its unit, meaning, kind and range (Lloyd & Stavness,
//! "ArtiSynth Description and Design Overview", 2014, Sections 3.2 and 3.5: a
//! navigation tree of component paths, and a property panel built from what
//! the properties say about themselves).

use super::check::every_key;
use super::definition::Preset;
use super::fields::{About, ValueKind};
use super::paths::{Part, Top, anchor_list, part};
use crate::instrument::note_name;

/// How far a slider reaches from the end of a range that validation bounds
/// when it leaves the other end open: a soundboard's `seed`, which may be any
/// whole number, offers 0 to 1000.
const OPEN_SLIDER_SPAN: f64 = 1000.0;

/// A slider is logarithmic when its range is positive and its ends lie at
/// least this far apart (a factor of 100: two decades).
const LOGARITHMIC_SPAN: f64 = 100.0;

/// What a property is, for a property panel.
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyInfo {
    /// SI unit (`"Hz"`, `"m"`, `"kg"`, `"1/s"`, `"m²/s"`, `"N/m^p"`, `"s/m"`,
    /// `"kg/s"`, `"s"`, `"cents"`, `"m/s"`, `"1/N"`), or `""` for a ratio, a
    /// count, a MIDI key or a switch.
    pub unit: &'static str,
    /// One line on what it does to the sound.
    pub description: &'static str,
    /// What kind of number it holds.
    pub kind: ValueKind,
    /// The lowest and highest values [`Preset::set`] accepts, with the rest of
    /// the preset as it is: the bounds [`Preset::validate`] checks (its checks
    /// run in a recording mode to find them), narrowed to what the type holds.
    /// Some bounds are other properties (`soundboard:lowest_mode_hz` at most
    /// `highest_mode_hz`), so a range can change when another value does.
    pub range: (f64, f64),
    /// The span a slider should offer: `range`, except where validation leaves
    /// an end open (a count, a seed) it stops 1000 from the other end.
    /// Always finite.
    pub slider: (f64, f64),
    /// Whether a slider should be logarithmic: a real, positive range
    /// spanning two decades or more.
    pub logarithmic: bool,
    /// Whether the value is given along the keyboard, so that it can be
    /// explicit or inherited at a key ([`Preset::is_explicit`],
    /// [`PropertyEdit::Inherit`](super::PropertyEdit::Inherit)).
    pub inheritable: bool,
}

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

/// The names of `fields`.
fn names(fields: &[About]) -> Vec<&'static str> {
    fields.iter().map(|field| field.name).collect()
}

/// The span a slider offers over `range`, given the bounds validation
/// `checked` (infinite where it leaves an end open); see
/// [`PropertyInfo::slider`].
fn slider(kind: ValueKind, checked: (f64, f64), range: (f64, f64)) -> (f64, f64) {
    let open_below = kind == ValueKind::Real && checked.0.is_infinite();
    let open_above = matches!(kind, ValueKind::Real | ValueKind::Count) && checked.1.is_infinite();
    match (open_below, open_above) {
        (false, false) => range,
        (false, true) => (range.0, range.0 + OPEN_SLIDER_SPAN),
        (true, false) => (range.1 - OPEN_SLIDER_SPAN, range.1),
        (true, true) => (-OPEN_SLIDER_SPAN, OPEN_SLIDER_SPAN),
    }
}

impl Preset {
    /// What the property at `path` is: unit, description, kind, range and how
    /// a slider should show it; `None` for an unknown path. Key paths
    /// (`strings/key/61:loss_b1`) and anchor paths share their field's info.
    pub fn property_info(&self, path: &str) -> Option<PropertyInfo> {
        let (head, name) = path.split_once(':')?;
        let find = |fields: &'static [About]| fields.iter().find(|f| f.name == name);
        let mut copy = self.clone();
        let (about, kind, checked_path, inheritable) = match part(&mut copy, head)? {
            Part::Fields(fields) => {
                let about = find(fields.about())?;
                (about, fields.field(name)?.kind(), path.to_string(), false)
            }
            Part::Key { anchors, set, .. } => {
                let checked_path = format!("{}:{name}", every_key(&set));
                (find(anchors.about())?, ValueKind::Real, checked_path, true)
            }
        };
        // The field's own range is data; rules across fields or across the
        // instrument (an ordered pair, keys a grand action has) narrow it,
        // as the checks record them.
        let declared = about
            .range
            .map_or((f64::NEG_INFINITY, f64::INFINITY), |r| (r.min, r.max));
        let narrowed = self
            .checked_ranges()
            .get(&checked_path)
            .copied()
            .unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        let checked = (declared.0.max(narrowed.0), declared.1.min(narrowed.1));
        let typed = kind.range();
        let range = (checked.0.max(typed.0), checked.1.min(typed.1));
        let slider = slider(kind, checked, range);
        Some(PropertyInfo {
            unit: about.unit,
            description: about.description,
            kind,
            range,
            slider,
            logarithmic: kind == ValueKind::Real
                && slider.0 > 0.0
                && slider.1 >= LOGARITHMIC_SPAN * slider.0,
            inheritable,
        })
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
                Some(Part::Fields(fields)) => names(fields.about()),
                _ => Vec::new(),
            };
            let key_fields = anchor_list(&mut copy, &path).map(|a| names(a.about()));
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
