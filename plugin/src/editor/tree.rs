//! The navigation panel: the instrument's components as a tree (tuning,
//! strings, hammers, action, soundboard…, each anchored set with a child per
//! key), a search by path, and the live probes.

use egui::{CollapsingHeader, Modifiers, ScrollArea, TextEdit, Ui};

use super::session::EditSession;

/// The tree's node for the live probes (not a preset component).
pub const PROBES: &str = "probes";
/// Search results shown at most.
const MAX_RESULTS: usize = 200;

/// The search box's text.
#[derive(Debug, Default)]
pub struct Navigation {
    /// Path, or part of one, to look for (`strings/key/6`, `hammers:felt`).
    pub search: String,
}

impl Navigation {
    /// Draws the search box and the tree (or the search's results).
    pub fn show(&mut self, ui: &mut Ui, session: &mut EditSession) {
        ui.horizontal(|ui| {
            let label = ui.label("Search");
            ui.add(
                TextEdit::singleline(&mut self.search)
                    .hint_text("a path, e.g. strings/key/60")
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(label.id);
        });
        ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let query = self.search.trim().to_lowercase();
                if query.is_empty() {
                    tree(ui, session);
                } else {
                    results(ui, session, &query);
                }
            });
    }
}

/// A component's row: clicking selects it; with Ctrl (Cmd) it joins the
/// selection, or leaves it.
fn row(ui: &mut Ui, session: &mut EditSession, path: &str, text: &str) {
    let selected = session.selection.contains(path);
    let response = ui.selectable_label(selected, text).on_hover_text(path);
    if response.clicked() {
        let add = ui.input(|i| i.modifiers.matches_logically(Modifiers::COMMAND));
        if !add {
            session.selection.clear();
            session.selection.insert(path.to_string());
        } else if !session.selection.remove(path) {
            session.selection.insert(path.to_string());
        }
    }
}

/// The whole tree: top-level components, those with children as collapsing
/// sections.
fn tree(ui: &mut Ui, session: &mut EditSession) {
    let top: Vec<(String, String)> = session
        .components()
        .iter()
        .filter(|c| c.parent.is_none())
        .map(|c| (c.path.clone(), c.label.clone()))
        .collect();
    for (path, label) in top {
        let children: Vec<(String, String)> = session
            .components()
            .iter()
            .filter(|c| c.parent.as_deref() == Some(path.as_str()))
            .map(|c| (c.path.clone(), c.label.clone()))
            .collect();
        if children.is_empty() {
            row(ui, session, &path, &label);
            continue;
        }
        CollapsingHeader::new(&label).id_salt(&path).show(ui, |ui| {
            row(ui, session, &path, &format!("all of {path}"));
            for (child, label) in &children {
                row(ui, session, child, label);
            }
        });
    }
    row(ui, session, PROBES, "probes (live)");
}

/// Components whose path contains `query` (a `:property` part looks among
/// the component's properties), each shown by its path.
fn results(ui: &mut Ui, session: &mut EditSession, query: &str) {
    let (component_query, property_query) = match query.split_once(':') {
        Some((c, p)) => (c, Some(p)),
        None => (query, None),
    };
    let found: Vec<String> = session
        .components()
        .iter()
        .filter(|c| c.path.to_lowercase().contains(component_query))
        .filter(|c| property_query.is_none_or(|p| c.properties.iter().any(|name| name.contains(p))))
        .take(MAX_RESULTS)
        .map(|c| c.path.clone())
        .collect();
    if found.is_empty() {
        ui.weak("no component has that path");
    }
    for path in found {
        row(ui, session, &path, &path);
    }
}
