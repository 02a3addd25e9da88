//! Every numeric value of a preset by property path, to read, set and inherit:
//! the same paths its errors name.
//!
//! ```text
//! path       = component ":" field
//! component  = "tuning" | "keyboard" | "velocity" | "output"
//!            | "room"                (a preset without one gets the default)
//!            | NAME                  an object's own fields (`strings`, `action`)
//!            | "strike"              (no fields of its own)
//!            | SET "/anchor/" KEY    the anchor at KEY, which must exist
//!            | SET "/key/" KEY       any key of the keyboard
//! SET        = the name of a stiff-strings or felt-hammers object | "strike"
//! ```
//!
//! E.g. `tuning:a4_hz`, `hammers:start_gap_m`, `hammers/anchor/60:felt_stiffness`,
//! `strings/key/61:loss_b1`, `strike/key/96:position`. At a key (and at an
//! anchor, which is a key too) a field reads as the value the key plays with:
//! the anchor's, if it gives it (*explicit*), or the interpolation between the
//! nearest anchors that give it (*inherited*). Setting it there makes it
//! explicit, creating the anchor if need be; [`PropertyEdit::Inherit`] makes
//! it inherited again.

use serde::{Deserialize, Serialize};

use super::anchor_list::AnchorList;
use super::definition::Preset;
use super::error::PresetError;
use super::fields::Fields;

/// An edit of one property by path: what an editor sends, and what an undo
/// history or an automation lane can keep. In JSON:
/// `{"op":"set","path":"strings/key/61:loss_b1","value":1.2}`,
/// `{"op":"inherit","path":"strings/key/61:loss_b1"}`,
/// `{"op":"text","path":"tuning:scale","text":"! 19-edo.scl\n…"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum PropertyEdit {
    /// Gives the property `value`; at a key (or anchor) the value becomes
    /// explicit there, and an anchor is created at that key if there was none.
    Set {
        /// The property path.
        path: String,
        /// The new value, in the property's unit.
        value: f64,
    },
    /// Takes an explicit value at a key away, so that the key inherits it
    /// from the anchors around (the anchor goes when it gives nothing more).
    /// The value at a key that inherits already stays as it is.
    Inherit {
        /// The property path: `SET/key/KEY:field` or `SET/anchor/KEY:field`.
        path: String,
    },
    /// Gives a text property its text: the tuning's Scala scale
    /// (`tuning:scale`, a `.scl` file's text) or keyboard mapping
    /// (`tuning:keymap`, a `.kbm` file's); an empty text takes it away. The
    /// edit holds the text itself, so that a saved state does not depend on a
    /// file that may go.
    Text {
        /// The property path: `tuning:scale` or `tuning:keymap`.
        path: String,
        /// The file's text; empty to remove it.
        text: String,
    },
}

impl PropertyEdit {
    /// The path of the property it edits.
    pub fn path(&self) -> &str {
        match self {
            Self::Set { path, .. } | Self::Inherit { path } | Self::Text { path, .. } => path,
        }
    }
}

/// What a component path names.
pub(super) enum Part<'a> {
    /// A part with fields of its own (`tuning`, an object, `strike`).
    Fields(&'a mut dyn Fields),
    /// One key of a set with anchors.
    Key {
        /// The set's anchors.
        anchors: &'a mut dyn AnchorList,
        /// The key.
        key: u8,
        /// The set's path (`strings`, `strike`).
        set: String,
    },
}

/// A component path split at its first two `/`: `(head, Some((what, key)))` for
/// `SET/anchor/KEY` and `SET/key/KEY`, `(head, None)` for the others.
fn split(component: &str) -> Option<(&str, Option<(&str, u8)>)> {
    let Some((head, rest)) = component.split_once('/') else {
        return Some((component, None));
    };
    let (what, key) = rest.split_once('/')?;
    Some((head, Some((what, key.parse().ok()?))))
}

/// The part of `preset` that `component` names, if it has one.
pub(super) fn part<'a>(preset: &'a mut Preset, component: &str) -> Option<Part<'a>> {
    let (head, at) = split(component)?;
    let Some((what, key)) = at else {
        return own_fields(preset, head).map(Part::Fields);
    };
    let keyboard = preset.keyboard.lowest_key..=preset.keyboard.highest_key;
    let anchors = anchor_list(preset, head)?;
    let exists = match what {
        "anchor" => anchors.has_anchor(key),
        "key" => keyboard.contains(&key),
        _ => false,
    };
    exists.then(|| Part::Key {
        anchors,
        key,
        set: head.to_string(),
    })
}

/// The anchors of the set called `set` (`strike` for the strike's).
pub(super) fn anchor_list<'a>(preset: &'a mut Preset, set: &str) -> Option<&'a mut dyn AnchorList> {
    if set == "strike" {
        return Some(&mut preset.strikes.first_mut()?.anchor);
    }
    preset.objects.get_mut(set)?.anchors()
}

/// The part called `head` that has fields of its own.
fn own_fields<'a>(preset: &'a mut Preset, head: &str) -> Option<&'a mut dyn Fields> {
    match head {
        "tuning" => Some(&mut preset.tuning),
        "keyboard" => Some(&mut preset.keyboard),
        "velocity" => Some(&mut preset.velocity),
        "output" => Some(&mut preset.output),
        "room" => Some(preset.room.get_or_insert_with(Default::default)),
        "strike" => Some(preset.strikes.first_mut()?),
        _ => Some(preset.objects.get_mut(head)?.fields_mut()),
    }
}

/// `error`, naming the edit's path if it is about the value the edit gave at
/// a key (which validation names by its anchor: `SET/anchor/KEY:field` for
/// `SET/key/KEY:field`).
fn named_as_edited(error: PresetError, edit: &PropertyEdit) -> PresetError {
    let edited = edit.path();
    match error {
        PresetError::OutOfRange { path, value, range }
            if path == edited.replacen("/key/", "/anchor/", 1) =>
        {
            PresetError::OutOfRange {
                path: edited.to_string(),
                value,
                range,
            }
        }
        other => other,
    }
}

/// A component at the top of the preset's tree.
pub(super) struct Top {
    /// Its path.
    pub path: String,
    /// Its kind: `tuning`, `keyboard`, `velocity`, `output`, `room`, an object's kind,
    /// or `strike`.
    pub kind: &'static str,
}

impl Preset {
    /// The value at property path `path` (e.g. `hammers/anchor/60:felt_stiffness`,
    /// `strings/key/61:loss_b1`), if the preset has it; at a key, the explicit
    /// value or else the interpolated one.
    pub fn get(&self, path: &str) -> Option<f64> {
        let (head, name) = path.split_once(':')?;
        // Reading goes through the same resolution as writing, on a copy.
        let mut copy = self.clone();
        match part(&mut copy, head)? {
            Part::Fields(fields) => fields.field(name).map(|f| f.get()),
            Part::Key { anchors, key, .. } => anchors.value(key, name),
        }
    }

    /// Whether the value at `path` is explicit (`Some(true)`) or inherited
    /// along the keyboard (`Some(false)`); `None` for an unknown path. Values
    /// not given at keys (`tuning:a4_hz`, `strings:detune_cents`) are always
    /// explicit.
    pub fn is_explicit(&self, path: &str) -> Option<bool> {
        let (head, name) = path.split_once(':')?;
        let mut copy = self.clone();
        match part(&mut copy, head)? {
            Part::Fields(fields) => fields.field(name).map(|_| true),
            Part::Key { anchors, key, .. } => anchors.explicit(key, name),
        }
    }

    /// Sets the value at property path `path` (see [`PropertyEdit::Set`]) and
    /// checks the whole preset again; on any error nothing changes, and the
    /// error names the path.
    pub fn set(&mut self, path: &str, value: f64) -> Result<(), PresetError> {
        self.apply(&PropertyEdit::Set {
            path: path.to_string(),
            value,
        })
    }

    /// Applies `edit` and checks the whole preset again; on any error nothing
    /// changes. Errors: an unknown path, a value out of range (naming the
    /// edit's path), and an inherit of a value not given along the keyboard or
    /// given by one anchor alone.
    pub fn apply(&mut self, edit: &PropertyEdit) -> Result<(), PresetError> {
        let mut changed = self.clone();
        changed.edit(edit)?;
        changed
            .check_values()
            .map_err(|error| named_as_edited(error, edit))?;
        *self = changed;
        Ok(())
    }

    /// Applies `edit` without checking the result.
    fn edit(&mut self, edit: &PropertyEdit) -> Result<(), PresetError> {
        let path = edit.path();
        let unknown = || PresetError::UnknownPath(path.to_string());
        let cannot_inherit = |reason| PresetError::CannotInherit {
            path: path.to_string(),
            reason,
        };
        if let PropertyEdit::Text { text, .. } = edit {
            let set = self.tuning.set_text(path, text).ok_or_else(unknown)?;
            return set.map_err(PresetError::Tuning);
        }
        let (head, name) = path.split_once(':').ok_or_else(unknown)?;
        match (part(self, head).ok_or_else(unknown)?, edit) {
            (Part::Fields(fields), PropertyEdit::Set { value, .. }) => fields
                .field(name)
                .ok_or_else(unknown)?
                .set(*value)
                .map_err(|range| PresetError::OutOfRange {
                    path: path.to_string(),
                    value: *value,
                    range: range.into(),
                }),
            (Part::Fields(_), PropertyEdit::Text { .. }) => Err(unknown()),
            (Part::Fields(fields), PropertyEdit::Inherit { .. }) => {
                fields.field(name).ok_or_else(unknown)?;
                Err(cannot_inherit(
                    "it is not given along the keyboard, only here",
                ))
            }
            (Part::Key { anchors, key, .. }, edit) => {
                anchors.explicit(key, name).ok_or_else(unknown)?;
                match edit {
                    PropertyEdit::Set { value, .. } => {
                        anchors.give(key, name, *value);
                        Ok(())
                    }
                    PropertyEdit::Inherit { .. } => {
                        anchors.inherit(key, name).map_err(cannot_inherit)
                    }
                    PropertyEdit::Text { .. } => Err(unknown()),
                }
            }
        }
    }

    /// Seeds everything random in the instrument (the soundboards' modes) with
    /// `seed`.
    pub fn reseed(&mut self, seed: u32) {
        for object in self.objects.values_mut() {
            object.reseed(seed);
        }
    }

    /// The components at the top of the preset's tree, in display order:
    /// tuning, keyboard, velocity, output, the room (if the preset has one), the objects (strings, hammers,
    /// bars, dampers, action, soundboard) and the strike.
    pub(super) fn top_components(&self) -> Vec<Top> {
        let room = self.room.is_some().then_some("room");
        let settings = ["tuning", "keyboard", "velocity", "output"]
            .into_iter()
            .chain(room)
            .map(|kind| Top {
                path: kind.to_string(),
                kind,
            });
        let objects = self.objects.iter().map(|(name, object)| Top {
            path: name.to_string(),
            kind: object.kind(),
        });
        let strike = self.strikes.first().map(|_| Top {
            path: "strike".to_string(),
            kind: "strike",
        });
        settings.into_iter().chain(objects).chain(strike).collect()
    }

    /// Every property path whose value the preset stores, in a stable order:
    /// each component's own fields, and for a set with anchors, the fields
    /// each anchor gives (`SET/anchor/KEY:field`). Key paths
    /// (`SET/key/KEY:field`) are not listed: every key of the keyboard has
    /// them, for the fields its anchors list.
    pub fn paths(&self) -> Vec<String> {
        let mut copy = self.clone();
        let mut paths = Vec::new();
        for Top { path: head, .. } in self.top_components() {
            if let Some(Part::Fields(fields)) = part(&mut copy, &head) {
                paths.extend(
                    fields
                        .declarations()
                        .iter()
                        .map(|f| format!("{head}:{}", f.name)),
                );
            }
            let Some(anchors) = anchor_list(&mut copy, &head) else {
                continue;
            };
            for key in anchors.keys() {
                for field in anchors.declarations() {
                    if anchors.explicit(key, field.name) == Some(true) {
                        paths.push(format!("{head}/anchor/{key}:{}", field.name));
                    }
                }
            }
        }
        paths
    }
}
