//! Scala files in the editor: load a scale (`.scl`) or a keyboard mapping
//! (`.kbm`) into the instrument, or take it away. The instrument keeps the
//! files' text (`tuning:scale`, `tuning:keymap`), so a saved project does
//! not depend on the files staying where they were.

use std::path::{Path, PathBuf};

use egui::{Context, Ui};
use orchard_engine::instrument::tuning_files;
use orchard_engine::instrument::{KeyMap, Scale};

use super::file_chooser::FileChooser;
use super::session::EditSession;

/// The scale's and the mapping's property paths.
const SCALE: &str = "tuning:scale";
const KEYMAP: &str = "tuning:keymap";

/// The two choosers and what the last load said.
#[derive(Debug, Clone)]
pub struct TuningFiles {
    scales: FileChooser,
    keymaps: FileChooser,
    /// The last load's error, one line.
    error: Option<String>,
    /// Where the choosers open: the folder of the last file loaded.
    folder: PathBuf,
}

impl Default for TuningFiles {
    fn default() -> Self {
        Self {
            scales: FileChooser::files("Load a Scala scale", &["scl"]),
            keymaps: FileChooser::files("Load a keyboard mapping", &["kbm"]),
            error: None,
            folder: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
        }
    }
}

/// Reads `path` as a scale (`keymap` false) or a mapping, checked with the
/// file's own name, so that an error names its file and line.
pub fn read_checked(path: &Path, keymap: bool) -> Result<String, String> {
    let text = tuning_files::read(path, keymap)?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    if keymap {
        KeyMap::parse(&text, &name)?;
    } else {
        Scale::parse(&text, &name)?;
    }
    Ok(text)
}

impl TuningFiles {
    /// Draws the scale's and the mapping's rows (what is loaded, Load…,
    /// Clear), and the choosers' windows.
    pub fn show(&mut self, ui: &mut Ui, session: &mut EditSession) {
        let tuning = &session.preset().tuning;
        let scale = tuning.scale.as_ref().map(|s| {
            let description = s.description().trim();
            let name = if description.is_empty() {
                "untitled"
            } else {
                description
            };
            format!("{name} ({} notes)", s.len())
        });
        let keymap = tuning.keymap.is_some().then(|| "loaded".to_string());
        let mut clear = None;
        let rows = [
            (
                "Scala scale",
                scale,
                "none (the temperament)",
                "Load .scl…",
                "Clear scale",
                SCALE,
            ),
            (
                "Keyboard mapping",
                keymap,
                "none (Scala's standard)",
                "Load .kbm…",
                "Clear mapping",
                KEYMAP,
            ),
        ];
        for (label, loaded, none, load, clear_label, path) in rows {
            ui.horizontal(|ui| {
                ui.label(format!("{label}: {}", loaded.as_deref().unwrap_or(none)));
                if ui.button(load).clicked() {
                    let chooser = if path == KEYMAP {
                        &mut self.keymaps
                    } else {
                        &mut self.scales
                    };
                    chooser.open(&self.folder);
                }
                if loaded.is_some() && ui.button(clear_label).clicked() {
                    clear = Some(path);
                }
            });
        }
        if let Some(error) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
        if let Some(path) = clear {
            self.error = session.set_text(path, String::new()).err();
        }
        self.windows(ui.ctx(), session);
    }

    /// The choosers' windows; a chosen file is loaded at once.
    fn windows(&mut self, ctx: &Context, session: &mut EditSession) {
        for keymap in [false, true] {
            let chooser = if keymap {
                &mut self.keymaps
            } else {
                &mut self.scales
            };
            if let Some(path) = chooser.show(ctx) {
                self.error = self.load(&path, keymap, session).err();
            }
        }
    }

    /// Loads the file at `path` into the instrument.
    pub fn load(
        &mut self,
        path: &Path,
        keymap: bool,
        session: &mut EditSession,
    ) -> Result<(), String> {
        if let Some(folder) = path.parent() {
            self.folder = folder.to_path_buf();
        }
        let text = read_checked(path, keymap)?;
        session.set_text(if keymap { KEYMAP } else { SCALE }, text)
    }
}
