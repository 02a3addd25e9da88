//! A file chooser drawn with egui (which has none of its own, and the
//! platforms' dialogs need system libraries): a window listing one folder's
//! subfolders and the files with the wanted extensions, a path field to type
//! into, and up, open and choose buttons. It chooses a file, or with
//! [`FileChooser::folders`] a folder. Used for MIDI files and the record
//! folder in the standalone app, and fit for `.scl` and `.kbm` files.

use std::path::{Path, PathBuf};

use egui::{Context, ScrollArea};

/// One entry of a folder as the chooser lists it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Entry {
    /// Folders first, then files.
    pub is_file: bool,
    /// The entry's name.
    pub name: String,
}

/// The entries of `folder` a chooser for `extensions` (lower case, without
/// the dot; empty: every file) shows: subfolders, then the files with one of
/// those extensions (any case), each group sorted by name; hidden entries
/// (`.name`) left out. The error is one line.
pub fn list(folder: &Path, extensions: &[&str]) -> Result<Vec<Entry>, String> {
    let reader = std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let mut entries: Vec<Entry> = reader
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_str()?.to_string();
            if name.starts_with('.') {
                return None;
            }
            // Follows symbolic links: a link to a folder is a folder.
            let is_file = !entry.path().is_dir();
            let wanted = !is_file
                || extensions.is_empty()
                || Path::new(&name)
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| extensions.iter().any(|w| e.eq_ignore_ascii_case(w)));
            wanted.then_some(Entry { is_file, name })
        })
        .collect();
    entries.sort();
    Ok(entries)
}

/// A file (or folder) chooser; closed until [`Self::open`].
#[derive(Debug, Clone)]
pub struct FileChooser {
    title: String,
    extensions: Vec<&'static str>,
    /// Whether it chooses a folder rather than a file.
    folders: bool,
    open: bool,
    folder: PathBuf,
    entries: Vec<Entry>,
    /// The path field.
    typed: String,
    /// Why the folder cannot be listed.
    error: Option<String>,
}

impl FileChooser {
    /// A chooser of files ending in one of `extensions` (e.g. `["mid",
    /// "midi"]`), its window titled `title`.
    pub fn files(title: &str, extensions: &[&'static str]) -> Self {
        Self {
            title: title.to_string(),
            extensions: extensions.to_vec(),
            folders: false,
            open: false,
            folder: PathBuf::new(),
            entries: Vec::new(),
            typed: String::new(),
            error: None,
        }
    }

    /// A chooser of folders, its window titled `title`.
    pub fn folders(title: &str) -> Self {
        Self {
            folders: true,
            ..Self::files(title, &[])
        }
    }

    /// Opens the window on `start`: a folder, or a file whose folder is
    /// listed (a path that does not exist: its nearest existing parent).
    pub fn open(&mut self, start: &Path) {
        self.open = true;
        let mut folder = start.to_path_buf();
        while !folder.is_dir() {
            match folder.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => folder = parent.to_path_buf(),
                _ => {
                    folder = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
                    break;
                }
            }
        }
        self.typed = start.display().to_string();
        self.go_to(folder);
    }

    /// Whether the window is open.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// The folder listed.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    fn go_to(&mut self, folder: PathBuf) {
        let shown = if self.folders {
            &[][..]
        } else {
            &self.extensions[..]
        };
        match list(&folder, shown) {
            Ok(entries) => {
                self.entries = entries
                    .into_iter()
                    .filter(|e| !(self.folders && e.is_file))
                    .collect();
                self.error = None;
            }
            Err(error) => {
                self.entries.clear();
                self.error = Some(error);
            }
        }
        if self.folders {
            self.typed = folder.display().to_string();
        }
        self.folder = folder;
    }

    /// Draws the window if open; the path chosen, once, when the user
    /// chooses one (the window then closes).
    pub fn show(&mut self, ctx: &Context) -> Option<PathBuf> {
        if !self.open {
            return None;
        }
        let mut chosen = None;
        let mut go_to = None;
        let mut open = self.open;
        egui::Window::new(self.title.as_str())
            .open(&mut open)
            .collapsible(false)
            .default_size([460.0, 380.0])
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    if ui.button("Up").clicked()
                        && let Some(parent) = self.folder.parent()
                    {
                        go_to = Some(parent.to_path_buf());
                    }
                    ui.label(self.folder.display().to_string());
                });
                if let Some(error) = &self.error {
                    ui.colored_label(ui.visuals().error_fg_color, error);
                }
                ScrollArea::vertical().max_height(260.0).show(ui, |ui| {
                    for entry in &self.entries {
                        let path = self.folder.join(&entry.name);
                        if entry.is_file {
                            if ui.selectable_label(false, &entry.name).clicked() {
                                chosen = Some(path);
                            }
                        } else if ui
                            .selectable_label(false, format!("{}/", entry.name))
                            .clicked()
                        {
                            go_to = Some(path);
                        }
                    }
                    if self.entries.is_empty() && self.error.is_none() {
                        ui.weak(if self.folders {
                            "No folders here"
                        } else {
                            "No such files here"
                        });
                    }
                });
                ui.separator();
                ui.horizontal(|ui| {
                    let field = ui.add(
                        egui::TextEdit::singleline(&mut self.typed)
                            .desired_width(300.0)
                            .hint_text("Path"),
                    );
                    let entered =
                        field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    let label = if self.folders {
                        "Choose this folder"
                    } else {
                        "Open"
                    };
                    if ui.button(label).clicked() || entered {
                        let typed = PathBuf::from(self.typed.trim());
                        if typed.is_dir() && !self.folders {
                            go_to = Some(typed);
                        } else if !typed.as_os_str().is_empty() {
                            chosen = Some(typed);
                        }
                    }
                });
            });
        if let Some(folder) = go_to {
            self.go_to(folder);
        }
        self.open = open && chosen.is_none();
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_lists_its_subfolders_then_the_wanted_files() {
        let dir = std::env::temp_dir().join(format!("orchard-chooser-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["songs", "Archive", ".hidden-folder"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        for file in ["b.mid", "A.MIDI", "notes.txt", ".hidden.mid", "scale.scl"] {
            std::fs::write(dir.join(file), "").unwrap();
        }
        let names = |extensions: &[&str]| -> Vec<(bool, String)> {
            list(&dir, extensions)
                .unwrap()
                .into_iter()
                .map(|e| (e.is_file, e.name))
                .collect()
        };
        let folder = |name: &str| (false, name.to_string());
        let file = |name: &str| (true, name.to_string());
        assert_eq!(
            names(&["mid", "midi"]),
            [
                folder("Archive"),
                folder("songs"),
                file("A.MIDI"),
                file("b.mid")
            ]
        );
        assert_eq!(
            names(&["scl", "kbm"]),
            [folder("Archive"), folder("songs"), file("scale.scl")]
        );
        assert_eq!(names(&[]).len(), 6);
        let missing = list(&dir.join("nowhere"), &[]).unwrap_err();
        assert!(
            missing.contains("nowhere") && !missing.contains('\n'),
            "{missing}"
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
