//! The preset browser's panel: choose and load, save as, revert; errors and
//! warnings shown in plain words until dismissed.

use std::path::PathBuf;

use egui::{Color32, Ui};
use nice_plug::prelude::ParamSetter;

use super::presets::{self, PresetSource};
use crate::params::OrchardParams;
use crate::user_preset;

/// The browser's state.
#[derive(Debug, Default)]
pub struct Browser {
    /// The preset loaded (or saved) last: what revert goes back to.
    current: Option<PresetSource>,
    /// The name typed for "save as".
    save_name: String,
    /// The last problem or result, shown until the next action.
    message: Option<(bool, String)>,
    /// A user preset folder chosen for this session (tests), else the platform's.
    pub folder: Option<PathBuf>,
}

/// What the browser did this frame.
#[derive(Debug, PartialEq, Eq)]
pub enum BrowserAction {
    /// Nothing.
    None,
    /// A preset replaced the sound: the undo history no longer applies.
    Loaded,
}

impl Browser {
    fn folder(&self) -> Option<PathBuf> {
        self.folder.clone().or_else(user_preset::user_folder)
    }

    /// Draws the browser in one row.
    pub fn show(
        &mut self,
        ui: &mut Ui,
        params: &OrchardParams,
        setter: &ParamSetter,
    ) -> BrowserAction {
        let mut action = BrowserAction::None;
        let folder = self.folder();
        ui.horizontal(|ui| {
            let label = ui.label("Preset");
            let shown = self
                .current
                .as_ref()
                .map_or("(unsaved)".to_string(), PresetSource::name);
            egui::ComboBox::from_id_salt("preset")
                .selected_text(shown)
                .width(200.0)
                // Tall enough for the factory presets and a few of the
                // user's before it scrolls.
                .height(480.0)
                .show_ui(ui, |ui| {
                    for source in presets::list(folder.as_deref()) {
                        if ui
                            .selectable_label(self.current.as_ref() == Some(&source), source.name())
                            .clicked()
                        {
                            action = self.load(source, params, setter);
                        }
                    }
                })
                .response
                .labelled_by(label.id);
            if ui
                .add_enabled(self.current.is_some(), egui::Button::new("Revert"))
                .on_hover_text("Back to the preset as it was loaded or saved")
                .clicked()
                && let Some(source) = self.current.clone()
            {
                action = self.load(source, params, setter);
            }
            ui.add(
                egui::TextEdit::singleline(&mut self.save_name)
                    .hint_text("name")
                    .desired_width(120.0),
            );
            if ui.button("Save as").clicked() {
                self.save(folder.as_deref(), params);
            }
            if let Some(folder) = &folder {
                ui.weak(folder.display().to_string())
                    .on_hover_text("The user preset folder");
            }
        });
        if let Some((ok, message)) = &self.message {
            let colour = if *ok {
                Color32::from_rgb(140, 200, 140)
            } else {
                Color32::from_rgb(235, 110, 90)
            };
            let dismissed = ui
                .horizontal(|ui| {
                    ui.colored_label(colour, message);
                    ui.small_button("Dismiss").clicked()
                })
                .inner;
            if dismissed {
                self.message = None;
            }
        }
        action
    }

    /// Loads `source`; on error nothing changes and the message says why.
    fn load(
        &mut self,
        source: PresetSource,
        params: &OrchardParams,
        setter: &ParamSetter,
    ) -> BrowserAction {
        let preset = match &source {
            PresetSource::Factory(preset) => Ok(preset.preset.clone()),
            PresetSource::File(path) => user_preset::read(path),
        };
        let result = preset.and_then(|p| user_preset::apply(&p, params, setter));
        match result {
            Ok(loaded) => {
                let mut message = format!("Loaded {}", source.name());
                if !loaded.warnings.is_empty() {
                    message = format!("{message}, with warnings: {}", loaded.warnings.join("; "));
                }
                self.message = Some((loaded.warnings.is_empty(), message));
                self.current = Some(source);
                BrowserAction::Loaded
            }
            Err(error) => {
                self.message = Some((false, format!("Could not load {}: {error}", source.name())));
                BrowserAction::None
            }
        }
    }

    fn save(&mut self, folder: Option<&std::path::Path>, params: &OrchardParams) {
        let Some(folder) = folder else {
            self.message = Some((
                false,
                "No user preset folder: set ORCHARD_PRESET_DIR or HOME".into(),
            ));
            return;
        };
        let saved = user_preset::file_for(folder, &self.save_name).and_then(|path| {
            user_preset::write(&path, &user_preset::capture(params)).map(|()| path)
        });
        self.message = Some(match saved {
            Ok(path) => {
                let source = PresetSource::File(path);
                let message = format!("Saved {}", source.name());
                self.current = Some(source);
                (true, message)
            }
            Err(error) => (false, format!("Could not save: {error}")),
        });
    }
}
