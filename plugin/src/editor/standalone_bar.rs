//! What the editor shows only in the standalone app: a File menu (Record,
//! Record folder…, Open MIDI file…, Devices…), the MIDI file's transport
//! with its position, and the recording's state. In plugin hosts there is
//! no standalone session and none of it is drawn.

use egui::{ComboBox, Context, Ui};

use super::file_chooser::FileChooser;
use crate::standalone::state_file::Devices;
use crate::standalone::{DeviceLists, Session};

/// The File menu, the transport and their windows.
pub struct StandaloneBar {
    midi_files: FileChooser,
    record_folders: FileChooser,
    devices: Option<DevicesPanel>,
    /// The last thing done or gone wrong, one line.
    message: String,
}

impl Default for StandaloneBar {
    fn default() -> Self {
        Self {
            midi_files: FileChooser::files("Open MIDI file", &["mid", "midi", "smf"]),
            record_folders: FileChooser::folders("Record folder"),
            devices: None,
            message: String::new(),
        }
    }
}

/// The Devices window's choice being edited.
struct DevicesPanel {
    choice: Devices,
    lists: DeviceLists,
}

/// `seconds` as minutes, seconds and tenths (`1:05.3`).
fn clock(seconds: f64) -> String {
    let tenths = (seconds.max(0.0) * 10.0).round() as u64;
    format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
}

impl StandaloneBar {
    /// Draws the menu, transport and recording state into `ui` (a row),
    /// and their windows.
    pub fn show(&mut self, ui: &mut Ui, session: &Session) {
        ui.horizontal(|ui| {
            ui.menu_button("File", |ui| self.menu(ui, session));
            ui.separator();
            self.transport(ui, session);
            ui.separator();
            self.recording(ui, session);
            if !self.message.is_empty() {
                ui.separator();
                ui.label(&self.message);
            }
        });
        self.windows(ui.ctx(), session);
    }

    fn menu(&mut self, ui: &mut Ui, session: &Session) {
        let recording = session.recorder.is_recording();
        if ui
            .button(if recording {
                "Stop recording"
            } else {
                "Record"
            })
            .clicked()
        {
            session.recorder.set_recording(!recording);
            ui.close();
        }
        if ui.button("Record folder…").clicked() {
            self.record_folders.open(&session.recorder.folder());
            ui.close();
        }
        if ui.button("Open MIDI file…").clicked() {
            let start = session
                .transport
                .file()
                .unwrap_or_else(|| std::env::current_dir().unwrap_or_default());
            self.midi_files.open(&start);
            ui.close();
        }
        if ui.button("Devices…").clicked() {
            self.devices = Some(DevicesPanel {
                choice: session.devices(),
                lists: session.list_devices(),
            });
            ui.close();
        }
    }

    fn transport(&mut self, ui: &mut Ui, session: &Session) {
        let transport = &session.transport;
        let Some(file) = transport.file() else {
            ui.weak("No MIDI file");
            return;
        };
        let name = file.file_name().map_or_else(
            || file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        ui.label(name);
        if ui.button("Rewind").clicked() {
            transport.rewind();
        }
        if transport.is_playing() {
            if ui.button("Pause").clicked() {
                transport.pause();
            }
        } else if ui.button("Play").clicked() {
            transport.play();
        }
        if ui.button("Stop").clicked() {
            transport.stop();
        }
        let (position, length) = transport.position_s();
        ui.monospace(format!("{} / {}", clock(position), clock(length)));
    }

    fn recording(&mut self, ui: &mut Ui, session: &Session) {
        let recorder = &session.recorder;
        if recorder.is_recording() {
            let seconds = recorder.frames_written() as f64
                / f64::from(session.transport.sample_rate().max(1));
            let text = egui::RichText::new(format!("Recording {}", clock(seconds)))
                .color(egui::Color32::from_rgb(220, 40, 40));
            ui.label(text);
            if recorder.overruns() > 0 {
                ui.label(format!("{} dropped", recorder.overruns()));
            }
        } else {
            let status = recorder.status();
            if !status.is_empty() {
                ui.weak(status);
            }
        }
    }

    fn windows(&mut self, ctx: &Context, session: &Session) {
        if let Some(path) = self.midi_files.show(ctx) {
            self.message = match session.transport.open(&path, false) {
                Ok(()) => format!("Opened {}", path.display()),
                Err(error) => error,
            };
        }
        if let Some(folder) = self.record_folders.show(ctx) {
            self.message = format!("Takes go to {}", folder.display());
            session.recorder.set_folder(folder);
        }
        let mut open = self.devices.is_some();
        if let Some(panel) = self.devices.as_mut() {
            egui::Window::new("Devices")
                .open(&mut open)
                .collapsible(false)
                .show(ctx, |ui| {
                    if let Some(message) = panel.show(ui, session) {
                        self.message = message;
                    }
                });
        }
        if !open {
            self.devices = None;
        }
    }
}

/// Choices offered in a combo box: "default" (`None`) and each of `names`.
fn choose(ui: &mut Ui, label: &str, value: &mut Option<String>, names: &[String]) {
    ComboBox::from_label(label)
        .selected_text(value.as_deref().unwrap_or("default"))
        .width(280.0)
        .show_ui(ui, |ui| {
            ui.selectable_value(value, None, "default");
            for name in names {
                ui.selectable_value(value, Some(name.clone()), name);
            }
        });
}

impl DevicesPanel {
    /// Draws the panel; a message when the choice is saved or cannot restart.
    fn show(&mut self, ui: &mut Ui, session: &Session) -> Option<String> {
        ui.label(
            "The audio and MIDI devices are opened when the app starts: save a \
             choice for the next start, or restart with it now.",
        );
        let backend = self.choice.backend.get_or_insert_with(|| "auto".into());
        ComboBox::from_label("Backend")
            .selected_text(backend.as_str())
            .show_ui(ui, |ui| {
                for name in &self.lists.backends {
                    ui.selectable_value(backend, name.clone(), name);
                }
            });
        let jack = backend == "jack";
        if jack {
            choose(
                ui,
                "MIDI input (a JACK MIDI port)",
                &mut self.choice.midi_input,
                &self.lists.jack_midi_ports,
            );
            ui.weak("JACK sets the output, the sample rate and the period.");
        } else {
            choose(
                ui,
                "Audio output (ALSA)",
                &mut self.choice.output_device,
                &self.lists.outputs,
            );
            choose(
                ui,
                "MIDI input (ALSA)",
                &mut self.choice.midi_input,
                &self.lists.alsa_midi_inputs,
            );
            let mut rate = self.choice.sample_rate.unwrap_or(48_000);
            let mut period = self.choice.period_size.unwrap_or(512);
            ui.horizontal(|ui| {
                ComboBox::from_label("Sample rate")
                    .selected_text(format!("{rate} Hz"))
                    .show_ui(ui, |ui| {
                        for choice in [44_100, 48_000, 88_200, 96_000, 192_000] {
                            ui.selectable_value(&mut rate, choice, format!("{choice} Hz"));
                        }
                    });
                ui.label("Period");
                ui.add(
                    egui::DragValue::new(&mut period)
                        .range(16..=8192)
                        .suffix(" frames"),
                );
            });
            self.choice.sample_rate = Some(rate);
            self.choice.period_size = Some(period);
        }
        let mut message = None;
        ui.horizontal(|ui| {
            if ui.button("Refresh").clicked() {
                self.lists = session.list_devices();
            }
            if ui.button("Save for the next start").clicked() {
                session.set_devices(self.choice.clone());
                message = Some("Devices saved for the next start".to_string());
            }
            if ui.button("Restart with these devices").clicked() {
                session.set_devices(self.choice.clone());
                if !session.restart() {
                    message = Some("This app cannot restart itself".to_string());
                }
            }
        });
        message
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_shows_minutes_seconds_and_tenths() {
        assert_eq!(clock(0.0), "0:00.0");
        assert_eq!(clock(65.34), "1:05.3");
        assert_eq!(clock(599.96), "10:00.0");
        assert_eq!(clock(-1.0), "0:00.0");
    }
}
