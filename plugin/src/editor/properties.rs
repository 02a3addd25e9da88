//! The property panel: a widget for each property the selected components
//! share, made from its metadata (a slider over its range in its unit, whole
//! steps for keys and counts, a checkbox for switches), with whether it is
//! explicit or inherited and a button to switch.

use egui::{Color32, Grid, RichText, Slider, Ui};
use orchard_engine::props::{PropertyInfo, ValueKind};

use super::learn::Learning;
use super::session::{EditSession, PropertyState};
use crate::learn::BindingTarget;

/// The smallest positive value a logarithmic slider from 0 reaches, as a
/// fraction of its top.
const SMALLEST_FRACTION: f64 = 1e-6;

/// Draws the panel for the selection, each row with its MIDI menu and the
/// controllers bound to it.
pub fn show(ui: &mut Ui, session: &mut EditSession, learning: &mut Learning) {
    if session.selection.is_empty() {
        ui.weak("Select a component in the tree (Ctrl-click to select several).");
        return;
    }
    let names = session.shared_properties();
    let selected: Vec<String> = session.selection.iter().cloned().collect();
    ui.label(RichText::new(selected.join(", ")).strong());
    if names.is_empty() {
        ui.weak("The selected components share no property.");
        return;
    }
    Grid::new("properties")
        .num_columns(3)
        .striped(true)
        .spacing([8.0, 6.0])
        .show(ui, |ui| {
            for name in names {
                property_row(ui, session, learning, &selected, name);
                ui.end_row();
            }
        });
    if let Some(refused) = &session.refused {
        ui.colored_label(
            Color32::from_rgb(230, 110, 90),
            format!("Refused: {refused}"),
        );
    }
}

/// One property: its name, its value's widget (and the controllers bound
/// to it), and explicit/inherited.
fn property_row(
    ui: &mut Ui,
    session: &mut EditSession,
    learning: &mut Learning,
    selected: &[String],
    name: &'static str,
) {
    let states: Vec<PropertyState> = selected
        .iter()
        .filter_map(|component| session.state(&format!("{component}:{name}")))
        .collect();
    let (Some(first), Some(info)) = (
        states.first().cloned(),
        session.info(&first_path(selected, name)),
    ) else {
        return;
    };
    let mixed = states.iter().any(|s| s.value != first.value);
    let label = ui
        .label(name)
        .on_hover_text(format!("{}\n{}", info.description, first.path));

    let merge_key = format!("{}:{name}", selected.join(","));
    let mut value = first.value;
    let targets: Vec<BindingTarget> = states
        .iter()
        .map(|s| BindingTarget::Property {
            path: s.path.clone(),
        })
        .collect();
    let row = ui.horizontal(|ui| {
        let response = value_widget(ui, &info, &mut value).labelled_by(label.id);
        if mixed {
            ui.weak("(differs)");
        }
        learning.badge(ui, &targets);
        response
    });
    learning.menu(&row.response, name, targets);
    let response = row.inner;
    if response.changed() && value != first.value {
        session.set_selected(name, value, Some(merge_key));
    }
    if response.drag_stopped() || response.lost_focus() {
        session.seal();
    }

    let all_explicit = states.iter().all(|s| s.explicit);
    let any_explicit = states.iter().any(|s| s.explicit);
    let inheritable = info.inheritable;
    let (text, colour) = match (all_explicit, any_explicit) {
        (true, _) => ("explicit", Color32::from_rgb(230, 180, 90)),
        (false, false) => ("inherited", Color32::from_rgb(130, 170, 220)),
        (false, true) => ("partly explicit", Color32::from_gray(180)),
    };
    if inheritable {
        let hint = if all_explicit {
            "Click to inherit: the value follows from the neighbouring keys that set it"
        } else {
            "Click to make explicit at the present value"
        };
        if ui
            .button(RichText::new(text).color(colour))
            .on_hover_text(hint)
            .clicked()
        {
            session.set_explicit(name, !all_explicit);
        }
    } else {
        ui.label(RichText::new(text).color(colour));
    }
}

fn first_path(selected: &[String], name: &str) -> String {
    format!(
        "{}:{name}",
        selected.first().map(String::as_str).unwrap_or_default()
    )
}

/// The widget for a value of this kind, over its range.
fn value_widget(ui: &mut Ui, info: &PropertyInfo, value: &mut f64) -> egui::Response {
    let (lo, hi) = info.slider;
    match info.kind {
        ValueKind::Switch => {
            let mut on = *value >= 0.5;
            let response = ui.checkbox(&mut on, "");
            *value = if on { 1.0 } else { 0.0 };
            response
        }
        ValueKind::MidiKey | ValueKind::Count => {
            ui.add(Slider::new(value, lo..=hi).step_by(1.0).integer())
        }
        ValueKind::Real => {
            // Ranges from 0 whose values lie decades below the top (string
            // losses, inharmonicity) get a logarithmic slider too.
            let near_zero = lo == 0.0 && hi > 0.0 && *value < hi / 100.0;
            let response = ui.add(
                Slider::new(value, lo..=hi)
                    .logarithmic(info.logarithmic || near_zero)
                    .smallest_positive(hi * SMALLEST_FRACTION)
                    .clamping(egui::SliderClamping::Always),
            );
            ui.label(info.unit);
            response
        }
    }
}
