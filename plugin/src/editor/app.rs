//! The editor's whole window, drawn into any [`egui::Ui`]: the preset
//! browser and undo/redo on top, the component tree on the left, the
//! properties of the selection on the right, the macro controls with the
//! meters and scope in the middle, the mechanism over the on-screen
//! keyboard at the bottom, and the clockwork window when the top bar's
//! button opens it.

use std::sync::Arc;

use egui::{Key, KeyboardShortcut, Modifiers, Panel, Ui};
use nice_plug::prelude::ParamSetter;
use orchard_engine::rt::{MechanicsView, MeterView};

use super::browser::{Browser, BrowserAction};
use super::clockwork::{self, ClockworkView};
use super::controls::{self, Gestures};
use super::keyboard::{Keyboard, Keys};
use super::learn::Learning;
use super::meters::{self, Scope};
use super::session::EditSession;
use super::standalone_bar::StandaloneBar;
use super::tree::{Navigation, PROBES};
use super::tuning_files::TuningFiles;
use super::{fonts, mechanism, probes, properties};
use crate::link::EditorLink;
use crate::params::{OrchardParams, ZOOM_RANGE};

const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
const REDO: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
/// Zoom steps of the − and + buttons.
const ZOOM_STEP: f32 = 1.1;

/// Everything the editor shows and remembers while open.
pub struct EditorApp {
    params: Arc<OrchardParams>,
    link: Arc<EditorLink>,
    /// The instrument being edited.
    pub session: EditSession,
    navigation: Navigation,
    /// The preset browser.
    pub browser: Browser,
    gestures: Gestures,
    /// MIDI learn.
    learning: Learning,
    keyboard: Keyboard,
    scope: Scope,
    mechanics: MechanicsView,
    meters: MeterView,
    /// Whether the fonts are installed in the window's egui context.
    fonts_installed: bool,
    clockwork: ClockworkView,
    /// The File menu and transport (drawn only in the standalone app).
    standalone: StandaloneBar,
    /// Scala files loaded into the tuning.
    pub tuning_files: TuningFiles,
}

impl EditorApp {
    /// The editor for the plugin's parameters, linked to its audio thread.
    pub fn new(params: Arc<OrchardParams>, link: Arc<EditorLink>) -> Self {
        Self {
            session: EditSession::new(Arc::clone(&params)),
            learning: Learning::new(Arc::clone(&params), Arc::clone(&link)),
            params,
            link,
            navigation: Navigation::default(),
            browser: Browser::default(),
            gestures: Gestures::default(),
            keyboard: Keyboard::default(),
            scope: Scope::default(),
            mechanics: MechanicsView::default(),
            meters: MeterView::default(),
            fonts_installed: false,
            clockwork: ClockworkView::default(),
            standalone: StandaloneBar::default(),
            tuning_files: TuningFiles::default(),
        }
    }

    /// The window opened (a new egui context): install the fonts, start the
    /// scope.
    pub fn opened(&mut self) {
        self.fonts_installed = false;
        self.link.want_scope(true);
    }

    /// The window closed: stop the scope, let go of a key the mouse held.
    pub fn closed(&mut self) {
        self.link.want_scope(false);
        if let Some(off) = self.keyboard.release() {
            self.link.play(off);
        }
    }

    /// Draws one frame. The first only installs the fonts (they take effect
    /// from the next).
    pub fn ui(&mut self, ui: &mut Ui, setter: &ParamSetter) {
        if !self.fonts_installed {
            ui.ctx().set_fonts(fonts::definitions());
            self.fonts_installed = true;
            ui.ctx().request_repaint();
            return;
        }
        self.read_engine();
        self.learning.frame(ui, setter);
        self.session.refresh();
        self.shortcuts(ui);
        if let Some(session) = crate::standalone::session() {
            Panel::top("standalone").show(ui, |ui| self.standalone.show(ui, session));
        }
        Panel::top("top").show(ui, |ui| self.top_bar(ui, setter));
        Panel::bottom("keys").show(ui, |ui| self.playing_surface(ui));
        Panel::left("tree")
            .resizable(true)
            .default_size(250.0)
            .show(ui, |ui| {
                ui.heading("Components");
                self.navigation.show(ui, &mut self.session);
            });
        Panel::right("properties")
            .resizable(true)
            .default_size(430.0)
            .show(ui, |ui| {
                ui.heading("Properties");
                egui::ScrollArea::vertical().show(ui, |ui| {
                    if self.session.selection.len() == 1 && self.session.selection.contains(PROBES)
                    {
                        let keys = Keys::of(&self.session.preset().keyboard);
                        probes::show(ui, keys, &self.mechanics, &self.meters);
                    } else {
                        properties::show(ui, &mut self.session, &mut self.learning);
                    }
                });
            });
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("Controls");
            controls::show(
                ui,
                setter,
                &self.params,
                &mut self.gestures,
                &mut self.learning,
            );
            ui.separator();
            ui.heading("Tuning files");
            self.tuning_files.show(ui, &mut self.session);
            ui.separator();
            ui.heading("Output");
            meters::show(ui, &self.meters, &self.scope);
        });
        let family = orchard_engine::families::family_of(self.session.preset()).ok();
        let mechanism = family.and_then(|f| clockwork::family_mechanism(f.name()));
        self.clockwork.follow_instrument(mechanism, &self.mechanics);
        self.clockwork.window(ui.ctx());
        // The mechanism moves: draw again at the display's rate.
        ui.ctx().request_repaint();
    }

    /// The clockwork window: what it shows of the instrument's mechanism.
    pub fn clockwork(&self) -> &ClockworkView {
        &self.clockwork
    }

    /// Takes the latest snapshots and scope samples.
    fn read_engine(&mut self) {
        if let Some((mechanics, meters)) = self
            .link
            .with_views(|views| (*views.mechanics.latest(), *views.meters.latest()))
        {
            self.mechanics = mechanics;
            self.meters = meters;
        }
        let scope = &mut self.scope;
        self.link.drain_scope(|frame| scope.push(frame));
    }

    fn shortcuts(&mut self, ui: &Ui) {
        if ui.input_mut(|i| i.consume_shortcut(&REDO)) {
            self.session.redo();
        } else if ui.input_mut(|i| i.consume_shortcut(&UNDO)) {
            self.session.undo();
        }
    }

    fn top_bar(&mut self, ui: &mut Ui, setter: &ParamSetter) {
        ui.horizontal(|ui| {
            ui.heading("Orchard");
            ui.separator();
            let (can_undo, can_redo) = self.session.can_undo_redo();
            if ui
                .add_enabled(can_undo, egui::Button::new("Undo"))
                .on_hover_text("Ctrl+Z")
                .clicked()
            {
                self.session.undo();
            }
            if ui
                .add_enabled(can_redo, egui::Button::new("Redo"))
                .on_hover_text("Ctrl+Shift+Z")
                .clicked()
            {
                self.session.redo();
            }
            ui.separator();
            self.zoom_buttons(ui);
            ui.separator();
            self.clockwork.toggle(ui);
            ui.separator();
            self.learning.status(ui);
        });
        if self.browser.show(ui, &self.params, setter) == BrowserAction::Loaded {
            self.session.refresh();
            self.session.forget_history();
        }
    }

    fn zoom_buttons(&mut self, ui: &mut Ui) {
        let zoom = ui.ctx().zoom_factor();
        let mut wanted = zoom;
        if ui.button("−").on_hover_text("Zoom out").clicked() {
            wanted = zoom / ZOOM_STEP;
        }
        if ui
            .button(format!("{:.0} %", zoom * 100.0))
            .on_hover_text("Zoom to 100 %")
            .clicked()
        {
            wanted = 1.0;
        }
        if ui.button("+").on_hover_text("Zoom in").clicked() {
            wanted = zoom * ZOOM_STEP;
        }
        let wanted = wanted.clamp(ZOOM_RANGE.0, ZOOM_RANGE.1);
        if wanted != zoom {
            ui.ctx().set_zoom_factor(wanted);
            self.params.change_layout(|layout| layout.zoom = wanted);
        }
    }

    /// The mechanism above the keyboard, keys aligned.
    fn playing_surface(&mut self, ui: &mut Ui) {
        let keys = Keys::of(&self.session.preset().keyboard);
        mechanism::show(ui, 120.0, keys, &self.mechanics, &self.meters);
        let mechanics = &self.mechanics;
        let down = |key: u8| {
            mechanics
                .key_down
                .get(usize::from(key))
                .copied()
                .unwrap_or(false)
        };
        for event in self.keyboard.show(ui, 80.0, keys, &down) {
            self.link.play(event);
        }
    }
}
