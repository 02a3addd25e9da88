//! The editor in a plugin window (nice-plug-egui: egui through baseview and
//! OpenGL), resizable, opening at the size and zoom it was left at.

use std::sync::Arc;

use nice_plug::context::gui::GuiContext;
use nice_plug::editor::dpi::{LogicalSize, Size};
use nice_plug::editor::{Editor, ResizeHint, SpawnedEditor};
use nice_plug_egui::baseview::WindowSize;
use nice_plug_egui::resizable_window::ResizableWindow;
use nice_plug_egui::{
    EguiEditor, EguiEditorState, EguiNiceSettings, Frame, NiceEguiApp, RepaintNotifier,
    create_egui_editor,
};

use super::app::EditorApp;
use crate::link::EditorLink;
use crate::params::{EditorLayout, MAX_SIZE, MIN_SIZE, OrchardParams};

/// The plugin's editor: the window nice-plug-egui runs (the plugin's
/// `Plugin::Editor`, and what every VST3 view of an instance opens).
pub type OrchardEditor = EguiEditor<OrchardWindow>;

/// An open editor window and the handle to it.
pub type OpenWindow = SpawnedEditor<<OrchardEditor as Editor>::Handle>;

/// The editor as nice-plug-egui runs it.
pub struct OrchardWindow {
    app: EditorApp,
    gui: Option<GuiContext>,
    /// The plugin's parameters, where the window's size and zoom are saved.
    params: Arc<OrchardParams>,
}

/// The plugin's editor: `params` (with the saved layout) and the link to the
/// audio thread.
pub fn create(
    params: Arc<OrchardParams>,
    link: Arc<EditorLink>,
) -> Option<EguiEditor<OrchardWindow>> {
    create_with(params, link, RepaintNotifier::new())
}

/// The plugin's editor, as [`create`] makes it, redrawn whenever anyone
/// calls `repaint` (from any thread: it is one atomic flag).
pub fn create_with(
    params: Arc<OrchardParams>,
    link: Arc<EditorLink>,
    repaint: RepaintNotifier,
) -> Option<EguiEditor<OrchardWindow>> {
    let layout = params.layout();
    let state = EguiEditorState::from_size(
        Size::Logical(LogicalSize::new(
            f64::from(layout.width),
            f64::from(layout.height),
        )),
        layout.zoom,
    );
    let logical = |[w, h]: [f32; 2]| Some(LogicalSize::new(w, h));
    let settings = EguiNiceSettings::new()
        .with_tile("Orchard")
        .with_resize_hint(
            ResizeHint::resizable().with_min_max_logical_size(logical(MIN_SIZE), logical(MAX_SIZE)),
        );
    let window = OrchardWindow {
        app: EditorApp::new(Arc::clone(&params), link),
        gui: None,
        params,
    };
    create_egui_editor(state, repaint, settings, window)
}

impl OrchardWindow {
    fn remember(&self, change: impl FnOnce(&mut EditorLayout)) {
        self.params.change_layout(change);
    }
}

impl NiceEguiApp for OrchardWindow {
    fn build(
        &mut self,
        egui_ctx: egui::Context,
        gui: GuiContext,
        _frame: &mut Frame,
    ) -> Result<(), nice_plug_egui::baseview::HandlerError> {
        egui_ctx.set_zoom_factor(self.params.layout().zoom);
        self.gui = Some(gui);
        self.app.opened();
        Ok(())
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut Frame) {
        let Some(gui) = &self.gui else {
            return;
        };
        // A corner to drag, for hosts whose frames do not resize plugins.
        let [min, max] = [MIN_SIZE, MAX_SIZE].map(|[w, h]| egui::vec2(w, h));
        ResizableWindow::new("orchard-editor")
            .min_size(min)
            .max_size(max)
            .show(ui, |ui| self.app.ui(ui, &gui.param_setter()));
    }

    fn resized(&mut self, size: WindowSize) {
        self.remember(|layout| {
            layout.width = size.logical.width as f32;
            layout.height = size.logical.height as f32;
        });
    }

    fn zoom_factor_changed(&mut self, zoom: f32) {
        self.remember(|layout| layout.zoom = zoom);
    }

    fn editor_closed(&mut self) {
        self.app.closed();
    }
}
