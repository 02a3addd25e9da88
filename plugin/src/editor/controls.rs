//! The control panel: the host-automatable macro parameters, each edit
//! wrapped in the host's automation gesture (begin, values, end) so hosts
//! record it as one move.

use egui::{Slider, Ui};
use nice_plug::prelude::{Enum, Param, ParamSetter};

use crate::params::{Instrument, OrchardParams};

/// The parameter being dragged, by name, if any: its gesture is open.
#[derive(Debug, Default)]
pub struct Gestures {
    open: Option<String>,
}

impl Gestures {
    /// A slider for `param` over its normalised range, showing its value with
    /// its unit. A drag is one gesture; a double-click resets to the default.
    pub fn slider<P: Param>(&mut self, ui: &mut Ui, setter: &ParamSetter, param: &P) {
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
            return;
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
    }

    /// Closes the open gesture, if it is `param`'s.
    fn end<P: Param>(&mut self, setter: &ParamSetter, param: &P) {
        if self.open.as_deref() == Some(param.name()) {
            setter.end_set_parameter(param);
            self.open = None;
        }
    }
}

/// Draws every host parameter: the instrument as a choice, the rest as sliders.
pub fn show(ui: &mut Ui, setter: &ParamSetter, params: &OrchardParams, gestures: &mut Gestures) {
    let current = params.instrument.value();
    ui.horizontal(|ui| {
        let label = ui.add_sized([150.0, 18.0], egui::Label::new(params.instrument.name()));
        egui::ComboBox::from_id_salt("instrument")
            .selected_text(Instrument::variants()[current.to_index()])
            .show_ui(ui, |ui| {
                for (index, name) in Instrument::variants().iter().enumerate() {
                    let choice = Instrument::from_index(index);
                    if ui.selectable_label(choice == current, *name).clicked() && choice != current
                    {
                        setter.begin_set_parameter(&params.instrument);
                        setter.set_parameter(&params.instrument, choice);
                        setter.end_set_parameter(&params.instrument);
                    }
                }
            })
            .response
            .labelled_by(label.id);
    });
    for (_, param) in params.sound_params() {
        gestures.slider(ui, setter, param);
    }
}
