//! The control panel: the host-automatable macro parameters, each edit
//! wrapped in the host's automation gesture (begin, values, end) so hosts
//! record it as one move; each takes a MIDI controller by MIDI learn.

use egui::{Response, Slider, Ui};
use nice_plug::prelude::{Enum, EnumParam, Param, ParamSetter};

use super::learn::Learning;
use crate::learn::BindingTarget;
use crate::params::OrchardParams;

/// The parameter being dragged, by name, if any: its gesture is open.
#[derive(Debug, Default)]
pub struct Gestures {
    open: Option<String>,
}

impl Gestures {
    /// A slider for `param` over its normalised range, showing its value with
    /// its unit. A drag is one gesture; a double-click resets to the default.
    /// Returns the slider's response.
    pub fn slider<P: Param>(&mut self, ui: &mut Ui, setter: &ParamSetter, param: &P) -> Response {
        let mut normalized = param.unmodulated_normalized_value();
        let response = ui
            .horizontal(|ui| {
                let label = ui.add_sized([150.0, 18.0], egui::Label::new(param.name()).truncate());
                let response = ui
                    .add(Slider::new(&mut normalized, 0.0..=1.0).show_value(false))
                    .labelled_by(label.id);
                ui.label(param.to_string());
                response
            })
            .inner;
        let name = param.name();
        if response.double_clicked() {
            setter.begin_set_parameter(param);
            setter.set_parameter_normalized(param, param.default_normalized_value());
            setter.end_set_parameter(param);
            return response;
        }
        if response.changed() {
            if self.open.as_deref() != Some(name) {
                self.end(setter, param);
                setter.begin_set_parameter(param);
                self.open = Some(name.to_string());
            }
            setter.set_parameter_normalized(param, normalized);
        }
        if self.open.as_deref() == Some(name) && !response.dragged() {
            self.end(setter, param);
        }
        response
    }

    /// Closes the open gesture, if it is `param`'s.
    fn end<P: Param>(&mut self, setter: &ParamSetter, param: &P) {
        if self.open.as_deref() == Some(param.name()) {
            setter.end_set_parameter(param);
            self.open = None;
        }
    }
}

/// Draws every host parameter: the instrument, the temperament and its key
/// as choices, the rest as sliders; each with its MIDI menu and the
/// controllers bound to it.
pub fn show(
    ui: &mut Ui,
    setter: &ParamSetter,
    params: &OrchardParams,
    gestures: &mut Gestures,
    learning: &mut Learning,
) {
    let mut learnable =
        |ui: &mut Ui, id: &str, name: &str, draw: &mut dyn FnMut(&mut Ui) -> Response| {
            let targets = vec![BindingTarget::Param { id: id.into() }];
            let row = ui.horizontal(|ui| {
                draw(ui);
                learning.badge(ui, &targets);
            });
            learning.menu(&row.response, name, targets);
        };
    learnable(ui, "instrument", params.host.instrument.name(), &mut |ui| {
        choice(ui, setter, &params.host.instrument, "instrument")
    });
    for (id, param) in params.sound_params() {
        learnable(ui, id, param.name(), &mut |ui| {
            gestures.slider(ui, setter, param)
        });
    }
    learnable(
        ui,
        "temperament",
        params.host.temperament.name(),
        &mut |ui| choice(ui, setter, &params.host.temperament, "temperament"),
    );
    learnable(
        ui,
        "temperament-key",
        params.host.temperament_key.name(),
        &mut |ui| choice(ui, setter, &params.host.temperament_key, "temperament-key"),
    );
}

/// A labelled drop-down list for the choice `param`; a pick is one host
/// gesture. `salt` tells it from the other lists. Returns the list's
/// response.
fn choice<T: Enum + Copy + PartialEq + 'static>(
    ui: &mut Ui,
    setter: &ParamSetter,
    param: &EnumParam<T>,
    salt: &str,
) -> Response {
    let current = param.value();
    ui.horizontal(|ui| {
        let label = ui.add_sized([150.0, 18.0], egui::Label::new(param.name()));
        egui::ComboBox::from_id_salt(salt)
            .selected_text(T::variants()[current.to_index()])
            .show_ui(ui, |ui| {
                for (index, name) in T::variants().iter().enumerate() {
                    let picked = T::from_index(index);
                    if ui.selectable_label(picked == current, *name).clicked() && picked != current
                    {
                        setter.begin_set_parameter(param);
                        setter.set_parameter(param, picked);
                        setter.end_set_parameter(param);
                    }
                }
            })
            .response
            .labelled_by(label.id)
    })
    .inner
}
