//! MIDI learn in the editor: right-click a host parameter's control or a
//! property's row, choose "Learn MIDI controller", and the next controller
//! that moves (a CC, the modulation wheel, pitch bend, channel pressure) is
//! bound to it on its channel; Esc or the menu cancels. The menu forgets a
//! binding or lets it listen on any channel, and the controllers bound to
//! each control are shown beside it.
//!
//! The editor hears controllers through the link's last-controller slot,
//! which the audio thread fills; it also tells the host, as automation
//! gestures, where controllers moved its parameters.

use std::sync::Arc;

use egui::{Color32, Key, Response, RichText, Ui};
use nice_plug::prelude::ParamSetter;

use crate::learn::{Binding, BindingTarget, Source};
use crate::link::EditorLink;
use crate::params::OrchardParams;

/// The colour of the bound controllers' names.
const BOUND: Color32 = Color32::from_rgb(150, 200, 140);

/// A control waiting for a controller to move.
#[derive(Debug, Clone)]
struct Waiting {
    /// What it binds.
    targets: Vec<BindingTarget>,
    /// The control's name, for the status line.
    name: String,
    /// The count of the last movement seen when learning began: the next
    /// one binds.
    seen: Option<u32>,
}

/// The editor's MIDI learn: what waits for a controller, what was said last.
pub struct Learning {
    params: Arc<OrchardParams>,
    link: Arc<EditorLink>,
    waiting: Option<Waiting>,
    /// The last outcome, in words (bound, refused).
    pub message: Option<String>,
}

impl Learning {
    /// MIDI learn for the plugin's parameters and link.
    pub fn new(params: Arc<OrchardParams>, link: Arc<EditorLink>) -> Self {
        Self {
            params,
            link,
            waiting: None,
            message: None,
        }
    }

    /// Once a frame: binds the controller that moved, if one waits (Esc
    /// cancels), and tells the host where controllers moved its parameters.
    pub fn frame(&mut self, ui: &Ui, setter: &ParamSetter) {
        self.tell_host(setter);
        let Some(waiting) = &self.waiting else {
            return;
        };
        if ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::Escape)) {
            self.waiting = None;
            return;
        }
        let Some(seen) = self.link.last_controller() else {
            return;
        };
        if Some(seen.count) == waiting.seen {
            return;
        }
        let source = Source {
            control: seen.control,
            channel: Some(seen.channel),
        };
        let waiting = self.waiting.take().expect("checked above");
        let bound = waiting
            .targets
            .into_iter()
            .try_for_each(|target| self.params.controllers.bind(Binding { source, target }));
        self.message = Some(match bound {
            Ok(()) => format!("{} moves {}", source.label(), waiting.name),
            Err(error) => error,
        });
    }

    /// Tells the host, as one automation gesture each, where controllers
    /// last put its parameters (if they moved since the last frame).
    fn tell_host(&self, setter: &ParamSetter) {
        let pointers = self.params.host.param_ptrs();
        for (index, position) in self.params.controllers.take_moved_params() {
            let param = pointers[index];
            // SAFETY: the pointers are to the plugin's parameters, which the
            // editor keeps alive; this is the GUI thread, where the
            // setter's calls belong.
            unsafe {
                setter.raw_context.raw_begin_set_parameter(param);
                setter
                    .raw_context
                    .raw_set_parameter_normalized(param, position);
                setter.raw_context.raw_end_set_parameter(param);
            }
        }
    }

    /// The status line: what waits for a controller (with a cancel
    /// button), or the last outcome.
    pub fn status(&mut self, ui: &mut Ui) {
        if let Some(waiting) = &self.waiting {
            ui.label(
                RichText::new(format!(
                    "Move a MIDI controller to bind it to {} (Esc cancels)",
                    waiting.name
                ))
                .color(BOUND),
            );
            if ui.button("Cancel learning").clicked() {
                self.waiting = None;
            }
        } else if let Some(message) = &self.message {
            ui.weak(message);
        }
    }

    /// Whether the control of `targets` waits for a controller.
    fn waits_for(&self, targets: &[BindingTarget]) -> bool {
        self.waiting
            .as_ref()
            .is_some_and(|waiting| waiting.targets == targets)
    }

    /// Shows the controllers bound to `targets` (or that they wait for
    /// one), beside their control.
    pub fn badge(&self, ui: &mut Ui, targets: &[BindingTarget]) {
        if self.waits_for(targets) {
            ui.label(RichText::new("MIDI: waiting…").color(BOUND));
            return;
        }
        let sources = self.params.controllers.sources_of(|t| targets.contains(t));
        if !sources.is_empty() {
            let names: Vec<String> = sources.iter().map(|s| s.label()).collect();
            ui.label(RichText::new(format!("MIDI: {}", names.join("; "))).color(BOUND));
        }
    }

    /// Gives the control of `targets`, drawn in the row that answered
    /// `row`, its MIDI menu on a right-click anywhere in the row: learn (or
    /// cancel learning), and for each controller bound to it, forget it or
    /// take it on any channel. `name` names it in the status line.
    pub fn menu(&mut self, row: &Response, name: &str, targets: Vec<BindingTarget>) {
        row.container_context_menu(|ui| {
            if self.waits_for(&targets) {
                if ui.button("Cancel learning").clicked() {
                    self.waiting = None;
                    ui.close();
                }
            } else if ui.button("Learn MIDI controller").clicked() {
                self.waiting = Some(Waiting {
                    targets: targets.clone(),
                    name: name.to_string(),
                    seen: self.link.last_controller().map(|seen| seen.count),
                });
                self.message = None;
                ui.close();
            }
            let sources = self.params.controllers.sources_of(|t| targets.contains(t));
            for source in sources {
                let ours = |b: &Binding| b.source == source && targets.contains(&b.target);
                if ui.button(format!("Forget {}", source.label())).clicked() {
                    self.params.controllers.forget(ours);
                    ui.close();
                }
                if source.channel.is_some()
                    && ui
                        .button(format!("Any channel for {}", source.control.label()))
                        .clicked()
                {
                    self.rebind_any_channel(source, &targets);
                    ui.close();
                }
            }
        });
    }

    /// Makes the bindings of `source` to `targets` listen on every channel.
    fn rebind_any_channel(&mut self, source: Source, targets: &[BindingTarget]) {
        let controllers = &self.params.controllers;
        controllers.forget(|b| b.source == source && targets.contains(&b.target));
        let any = Source {
            channel: None,
            ..source
        };
        for target in targets {
            if let Err(error) = controllers.bind(Binding {
                source: any,
                target: target.clone(),
            }) {
                self.message = Some(error);
            }
        }
    }
}
