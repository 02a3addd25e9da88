//! The editor, driven headless through egui_kittest as a user would: find a
//! component by path, select it, drag a property's slider, undo; the macro
//! controls send host automation gestures; the on-screen keyboard plays;
//! the clockwork window shows the chiming clock the worker runs.

use std::sync::{Arc, Mutex};

use egui::accesskit::Role;
use egui::{Key, Modifiers, Pos2, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nice_plug::prelude::*;
use orchard::editor::app::EditorApp;
use orchard::learn::{Binding, BindingTarget, Control, Movement, Source};
use orchard::link::{AudioLink, EditorLink, link};
use orchard::sound::SoundSettings;
use orchard::{Instrument, OrchardParams};
use orchard_engine::instrument::PropertyEdit;
use orchard_engine::mech::mechanism::BRACKET_MOVEMENT_TOML;
use orchard_engine::rt::{MechanicsView, MeterView, Synth, SynthEvent, Views, triple_buffer};

/// A host that records the automation gestures it is sent, and sets the
/// parameters as a host does.
#[derive(Default)]
struct RecordingHost {
    gestures: Mutex<Vec<String>>,
}

impl GuiContextInner for RecordingHost {
    fn plugin_api(&self) -> PluginApi {
        PluginApi::Clap
    }
    unsafe fn raw_begin_set_parameter(&self, _param: ParamPtr) {
        self.gestures.lock().unwrap().push("begin".into());
    }
    unsafe fn raw_set_parameter_normalized(&self, param: ParamPtr, normalized: f32) {
        // SAFETY: the parameter belongs to the fixture's `OrchardParams`,
        // alive for the whole test.
        unsafe { param._internal_set_normalized_value(normalized) };
        self.gestures
            .lock()
            .unwrap()
            .push(format!("set {normalized:.3}"));
    }
    unsafe fn raw_end_set_parameter(&self, _param: ParamPtr) {
        self.gestures.lock().unwrap().push("end".into());
    }
    fn get_state(&self) -> PluginState {
        PluginState {
            version: String::new(),
            params: Default::default(),
            fields: Default::default(),
        }
    }
    fn set_state(&self, _state: PluginState) {}
    fn request_restart(&self) {}
}

struct Editor {
    app: EditorApp,
    host: Arc<RecordingHost>,
}

struct Fixture {
    params: Arc<OrchardParams>,
    link: Arc<EditorLink>,
    audio: AudioLink,
    harness: Harness<'static, Editor>,
}

fn open_editor() -> Fixture {
    let params = Arc::new(OrchardParams::default());
    let (editor_link, audio) = link();
    let link = Arc::new(editor_link);
    let editor = Editor {
        app: EditorApp::new(Arc::clone(&params), Arc::clone(&link)),
        host: Arc::new(RecordingHost::default()),
    };
    let harness = Harness::builder()
        .with_size(Vec2::new(1280.0, 860.0))
        .build_ui_state(
            |ui, editor: &mut Editor| {
                let setter = ParamSetter::new(&*editor.host);
                editor.app.ui(ui, &setter);
            },
            editor,
        );
    Fixture {
        params,
        link,
        audio,
        harness,
    }
}

/// The value the engine builds the instrument with, as the plugin's rebuild does.
fn engine_value(params: &OrchardParams, path: &str) -> f64 {
    SoundSettings::from_params(params)
        .instrument_with(&params.edits())
        .get(path)
        .expect("the path exists")
}

/// Drags from `from` by `by` with the mouse, a frame per step.
fn drag(harness: &mut Harness<'static, Editor>, from: Pos2, by: Vec2) {
    harness.hover_at(from);
    harness.step();
    harness.drag_at(from);
    harness.step();
    for i in 1..=5 {
        harness.hover_at(from + by * (i as f32 / 5.0));
        harness.step();
    }
    harness.drop_at(from + by);
    harness.step();
    harness.step();
}

#[test]
fn find_by_path_drag_a_property_and_undo() {
    let mut f = open_editor();
    let path = "strings/key/61:loss_b1";
    let before = engine_value(&f.params, path);
    let version = f.params.state.version();

    f.harness.get_by_label("Search").focus();
    f.harness.get_by_label("Search").type_text("strings/key/61");
    f.harness.run_steps(2);
    f.harness.get_by_label("strings/key/61").click();
    f.harness.run_steps(2);
    let state = f.harness.state().app.session.state(path).unwrap();
    assert!(
        !state.explicit,
        "key 61 is between anchors: loss_b1 is inherited"
    );

    let slider = f
        .harness
        .get_by_role_and_label(Role::Slider, "loss_b1")
        .rect();
    drag(&mut f.harness, slider.center(), Vec2::new(60.0, 0.0));

    let after = engine_value(&f.params, path);
    assert!(
        (after / before - 1.0).abs() > 0.05,
        "the drag moved the value: {before} → {after}"
    );
    let state = f.harness.state().app.session.state(path).unwrap();
    assert!(state.explicit, "edited, the property became explicit");
    assert!(
        f.params.state.version() > version,
        "the plugin is told to rebuild"
    );
    assert!(
        f.params
            .edits()
            .iter()
            .any(|e| matches!(e, PropertyEdit::Set { path: p, .. } if p == path)),
        "the edit is a property-path command in the saved state"
    );
    // Its neighbour below the next anchor follows the new value.
    let neighbour = "strings/key/62:loss_b1";
    assert!(
        !f.harness
            .state()
            .app
            .session
            .state(neighbour)
            .unwrap()
            .explicit
    );

    f.harness.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    f.harness.run_steps(2);
    let undone = engine_value(&f.params, path);
    assert!(
        (undone - before).abs() <= 1e-12 * before.abs(),
        "undo restores {before}, got {undone}"
    );
    assert!(
        !f.harness.state().app.session.state(path).unwrap().explicit,
        "and makes it inherited again"
    );

    f.harness
        .key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    f.harness.run_steps(2);
    assert!(
        (engine_value(&f.params, path) - after).abs() <= 1e-12 * after.abs(),
        "redo"
    );
}

#[test]
fn the_inherited_button_makes_a_value_explicit_and_back() {
    let mut f = open_editor();
    let path = "hammers/key/64:felt_stiffness";
    let before = engine_value(&f.params, path);
    f.harness
        .state_mut()
        .app
        .session
        .selection
        .insert("hammers/key/64".into());
    f.harness.run_steps(2);
    // Every property of a key between anchors is inherited; click the
    // felt stiffness's button.
    let buttons = f.harness.query_all_by_label("inherited").count();
    assert!(
        buttons >= 4,
        "a hammer key has several inherited properties: {buttons}"
    );
    f.harness
        .state_mut()
        .app
        .session
        .set_explicit("felt_stiffness", true);
    f.harness.run_steps(2);
    assert_eq!(
        f.harness.query_all_by_label("inherited").count(),
        buttons - 1
    );
    assert!(f.harness.state().app.session.state(path).unwrap().explicit);
    assert_eq!(
        engine_value(&f.params, path),
        before,
        "explicit at the same value"
    );
    f.harness.get_by_label("explicit").click();
    f.harness.run_steps(2);
    assert!(!f.harness.state().app.session.state(path).unwrap().explicit);
    assert_eq!(f.harness.query_all_by_label("inherited").count(), buttons);
}

#[test]
fn multi_selection_edits_what_the_selection_shares_in_one_step() {
    let mut f = open_editor();
    let session = &mut f.harness.state_mut().app.session;
    session.selection.insert("strings/key/61".into());
    session.selection.insert("strings/key/70".into());
    session.selection.insert("hammers/key/61".into());
    assert!(
        session.shared_properties().is_empty(),
        "strings and hammers share no property"
    );
    session.selection.remove("hammers/key/61");
    assert!(session.shared_properties().contains(&"loss_b2"));
    let before = [61, 70].map(|k| engine_value(&f.params, &format!("strings/key/{k}:loss_b2")));
    let session = &mut f.harness.state_mut().app.session;
    session.set_selected("loss_b2", 1e-3, None);
    for k in [61, 70] {
        assert_eq!(
            engine_value(&f.params, &format!("strings/key/{k}:loss_b2")),
            1e-3
        );
    }
    assert!(f.harness.state_mut().app.session.undo());
    let after_undo = [61, 70].map(|k| engine_value(&f.params, &format!("strings/key/{k}:loss_b2")));
    assert_eq!(after_undo, before, "one undo step restores both");
}

#[test]
fn macro_sliders_send_host_automation_gestures() {
    let mut f = open_editor();
    f.harness.run_steps(2);
    let slider = f
        .harness
        .get_by_role_and_label(Role::Slider, "Hammer hardness")
        .rect();
    drag(&mut f.harness, slider.center(), Vec2::new(40.0, 0.0));
    let gestures = f.harness.state().host.gestures.lock().unwrap().clone();
    assert_eq!(
        gestures.first().map(String::as_str),
        Some("begin"),
        "{gestures:?}"
    );
    assert_eq!(
        gestures.last().map(String::as_str),
        Some("end"),
        "{gestures:?}"
    );
    assert_eq!(
        gestures.iter().filter(|g| *g == "begin").count(),
        1,
        "one gesture: {gestures:?}"
    );
    assert!(
        gestures.iter().filter(|g| g.starts_with("set")).count() >= 2,
        "{gestures:?}"
    );
}

#[test]
fn the_on_screen_keyboard_plays_harder_at_the_front_of_a_key() {
    let mut f = open_editor();
    f.harness.run_steps(2);
    let keyboard = f.harness.get_by_label("On-screen keyboard").rect();
    // The lowest white key, A0: a press near its back, then near its front.
    let x = keyboard.left() + 3.0;
    let mut velocities = Vec::new();
    for depth in [0.1, 0.95] {
        let at = Pos2::new(x, keyboard.top() + depth * keyboard.height());
        f.harness.hover_at(at);
        f.harness.step();
        f.harness.drag_at(at);
        f.harness.step();
        f.harness.drop_at(at);
        f.harness.step();
        while let Some(event) = f.audio.next_note() {
            match event {
                SynthEvent::NoteOn { key, velocity } => {
                    assert_eq!(key, 21);
                    velocities.push(velocity);
                }
                SynthEvent::NoteOff { key, .. } => assert_eq!(key, 21),
                other => panic!("unexpected {other:?}"),
            }
        }
    }
    assert_eq!(velocities.len(), 2, "{velocities:?}");
    assert!(
        velocities[0] < 0.35 && velocities[1] > 0.9,
        "{velocities:?}"
    );
}

#[test]
fn a_user_preset_loads_from_the_browser_and_reports_what_it_skipped() {
    let folder =
        std::env::temp_dir().join(format!("orchard-editor-presets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("mine.orchard.json"),
        r#"{
  "format": 1,
  "instrument": "grand-piano",
  "parameters": { "hardness": 0.5, "loudness": 3.0 },
  "edits": [
    { "op": "set", "path": "strings/key/61:loss_b1", "value": 0.9 },
    { "op": "set", "path": "strings/key/61:no_such_field", "value": 1.0 }
  ]
}"#,
    )
    .unwrap();
    std::fs::write(folder.join("broken.orchard.json"), "{ \"format\": 1,").unwrap();
    let mut f = open_editor();
    f.harness.state_mut().app.browser.folder = Some(folder.clone());
    let version = f.params.state.version();
    f.harness.run_steps(2);

    f.harness
        .get_by_role_and_label(Role::ComboBox, "Preset")
        .click();
    f.harness.run_steps(2);
    f.harness.get_by_label("mine").click();
    f.harness.run_steps(2);
    let message = f
        .harness
        .get_by_label_contains("Loaded mine, with warnings");
    let text = format!("{message:?}");
    assert!(
        text.contains("loudness") && text.contains("no_such_field"),
        "{text}"
    );
    assert_eq!(f.params.edits().len(), 2, "every edit is kept in the state");
    assert!(f.params.state.version() > version, "the plugin rebuilds");
    assert_eq!(engine_value(&f.params, "strings/key/61:loss_b1"), 0.9);
    let gestures = f.harness.state().host.gestures.lock().unwrap().clone();
    let begins = gestures.iter().filter(|g| *g == "begin").count();
    assert_eq!(
        begins, 18,
        "the instrument, fourteen parameters, the temperament, its key and the microphone, each a gesture: {gestures:?}"
    );

    f.harness
        .get_by_role_and_label(Role::ComboBox, "Preset")
        .click();
    f.harness.run_steps(2);
    f.harness.get_by_label("broken").click();
    f.harness.run_steps(2);
    let error = format!(
        "{:?}",
        f.harness.get_by_label_contains("Could not load broken")
    );
    assert!(error.contains("line 1"), "{error}");
    assert_eq!(f.params.edits().len(), 2, "a broken preset changes nothing");
    let _ = std::fs::remove_dir_all(&folder);
}

/// Every text the editor can show has its glyphs in the editor's fonts
/// (the sharps of note names, the symbols and units of the properties):
/// nothing is drawn as a missing-glyph box.
#[test]
fn every_label_unit_and_description_has_its_glyphs() {
    let mut f = open_editor();
    f.harness.run_steps(2);
    let mut texts: Vec<String> = vec!["−".into(), "+".into(), "Dismiss".into()];
    for name in [
        "grand-piano",
        "mallet-bar",
        "chiming-clock",
        "music-box",
        "celesta",
    ] {
        let preset = orchard_engine::instrument::Preset::load(name).unwrap();
        for component in preset.components() {
            texts.push(component.label.clone());
            for property in &component.properties {
                let info = preset
                    .property_info(&format!("{}:{property}", component.path))
                    .unwrap();
                texts.push(info.unit.to_string());
                texts.push(info.description.to_string());
            }
        }
    }
    let font = egui::FontId::proportional(14.0);
    let missing: Vec<&String> = texts
        .iter()
        .filter(|text| {
            !f.harness
                .ctx
                .fonts_mut(|fonts| fonts.has_glyphs(&font, text))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "texts with glyphs the fonts lack: {missing:?}"
    );
}

/// The simulated time the clockwork window's legend shows, s.
fn clockwork_time(harness: &Harness<'static, Editor>) -> f64 {
    // A label keeps its text as its AccessKit value.
    let label = harness
        .get_by_label_contains("t = ")
        .value()
        .unwrap_or_default();
    let value = label.trim_start_matches("t = ").trim_end_matches(" s");
    value
        .parse()
        .unwrap_or_else(|_| panic!("a time in {label:?}"))
}

#[test]
fn the_clockwork_button_shows_a_live_escapement_that_runs_only_while_shown() {
    let mut f = open_editor();
    let toggle = |f: &mut Fixture| {
        f.harness
            .get_by_role_and_label(Role::Button, "Clockwork")
            .click();
        f.harness.step();
    };
    assert!(
        f.harness.query_by_label_contains("t = ").is_none(),
        "hidden at first"
    );
    toggle(&mut f);
    f.harness.run_steps(5);
    for part in ["wheel", "lever", "balance"] {
        assert!(
            f.harness.query_by_label(part).is_some(),
            "the legend lists the {part}"
        );
    }
    // The harness's frames are 0.25 s long: each advances the mechanism by
    // the 0.1 s a frame may at most, and the view says it runs slow.
    let before = clockwork_time(&f.harness);
    f.harness.run_steps(10);
    let after = clockwork_time(&f.harness);
    assert!(
        (after - before - 1.0).abs() < 0.011,
        "{before} s → {after} s"
    );
    assert!(f.harness.query_by_label("0.40× real time").is_some());

    toggle(&mut f);
    assert!(
        f.harness.query_by_label_contains("t = ").is_none(),
        "hidden"
    );
    f.harness.run_steps(10);
    toggle(&mut f);
    // Running while hidden, the ten frames would have added 1 s; the two
    // clicks' frames (pointer down, up) add at most 0.4 s.
    let shown_again = clockwork_time(&f.harness);
    assert!(
        shown_again >= after && shown_again - after < 0.45,
        "hidden, it did not run: {after} s → {shown_again} s"
    );
}

#[test]
fn with_the_chiming_clock_the_clockwork_window_shows_the_workers_clock() {
    let mut f = open_editor();
    // The host chooses the clock.
    let host = Arc::clone(&f.harness.state().host);
    let setter = ParamSetter::new(&*host);
    let clock = Instrument::named("chiming-clock").expect("a built-in instrument");
    setter.begin_set_parameter(&f.params.host.instrument);
    setter.set_parameter(&f.params.host.instrument, clock);
    setter.end_set_parameter(&f.params.host.instrument);
    // It plays in lock-step here; the test relays its worker's views to the
    // editor, so that it knows what was published.
    let preset = SoundSettings::from_params(&f.params).instrument_with(&f.params.edits());
    assert_eq!(preset.family.as_deref(), Some("chiming-clock"));
    let mut synth = Synth::new(&preset, 48_000.0).unwrap();
    let mut worker_views = synth.take_views().unwrap();
    let (mut relay, mechanics) = triple_buffer(MechanicsView::default());
    let (_meters, meters) = triple_buffer(MeterView::default());
    f.link.set_views(Some(Views { mechanics, meters }));

    f.harness.run_steps(2);
    f.harness
        .get_by_role_and_label(Role::Button, "Clockwork")
        .click();
    f.harness.run_steps(2);
    assert!(
        f.harness.state().app.clockwork().followed().is_some(),
        "a clock shows its own movement"
    );
    assert!(
        f.harness
            .query_by_label("waiting for the instrument")
            .is_some()
    );
    let shown = |f: &Fixture| {
        let view = f.harness.state().app.clockwork();
        let mechanism = view.followed().expect("the instrument's movement is shown");
        (mechanism.positions().to_vec(), view.dial_time_s())
    };
    let (at_rest, _) = shown(&f);

    // A second of playing at 30 frames a second: each frame shows what the
    // worker published last.
    let wheel = orchard_engine::mech::mechanism::Mechanism::from_toml(BRACKET_MOVEMENT_TOML)
        .unwrap()
        .state_names()
        .iter()
        .position(|name| name == "parts/wheel:position")
        .unwrap();
    let (mut left, mut right) = ([0.0f32; 160], [0.0f32; 160]);
    let mut wheels = Vec::new();
    let mut dials = Vec::new();
    for _ in 0..30 {
        for _ in 0..10 {
            synth.process(&mut left, &mut right);
        }
        let published = *worker_views.mechanics.latest();
        relay.publish(published);
        f.harness.step();
        let (positions, dial) = shown(&f);
        assert_eq!(
            positions,
            published.mechanism.positions(),
            "drawn where published"
        );
        assert_eq!(
            dial, published.mechanism.dial_time_s,
            "the dial shows the published time"
        );
        wheels.push(positions[wheel]);
        dials.push((published.time_s, dial.unwrap()));
    }
    assert_ne!(shown(&f).0, at_rest, "the movement moved");
    // The escape wheel turns clockwise: about a quarter turn in a second.
    let turned = (wheels[0] - wheels[29]) / std::f64::consts::TAU;
    assert!(turned > 0.15 && turned < 0.3, "{turned} turns");
    // The hands follow the train: a second a second, from 11:59:50.
    let ((t0, d0), (t1, d1)) = (dials[0], dials[29]);
    assert!(((d1 - d0) / (t1 - t0) - 1.0).abs() < 0.05, "{d0} → {d1} s");
    let expected = format!(
        "dial 11:59:{:02}",
        (d1 - 11.0 * 3600.0 - 59.0 * 60.0).floor()
    );
    assert!(
        f.harness.query_by_label(&expected).is_some(),
        "the legend reads {expected}"
    );
    assert!(
        f.harness
            .query_by_label("Chime: locked · Strike: locked")
            .is_some()
    );

    // Nothing moves on the GUI thread: with nothing new published, the
    // drawing stands still.
    let still = shown(&f);
    f.harness.run_steps(5);
    assert_eq!(shown(&f), still);

    // A built-in mechanism can still be chosen.
    f.harness.get_by_label("Mechanism").click();
    f.harness.run_steps(2);
    f.harness.get_by_label("escapement").click();
    f.harness.run_steps(2);
    assert!(f.harness.state().app.clockwork().followed().is_none());
    assert!(f.harness.query_by_label("Pause").is_some(), "it runs here");
}

/// The gestures the host was sent, emptied.
fn take_gestures(f: &Fixture) -> Vec<String> {
    std::mem::take(&mut *f.harness.state().host.gestures.lock().unwrap())
}

/// Right-clicks the slider labelled `label` and picks `item` from its menu.
fn pick_from_menu(f: &mut Fixture, label: &str, item: &str) {
    f.harness
        .get_by_role_and_label(Role::Slider, label)
        .click_secondary();
    f.harness.run_steps(2);
    f.harness.get_by_label(item).click();
    f.harness.run_steps(2);
}

/// MIDI learn, as a player does it: right-click a host parameter's slider,
/// choose to learn, move a controller (the audio thread reports it through
/// the link); the binding is made, shown beside the control, and a CC then
/// moves the parameter (the host told as one gesture). Then the same for a
/// property's row with the pitch-bend wheel, whose movement becomes an edit
/// over the property's declared range; Esc cancels learning, the menu
/// forgets a binding.
#[test]
fn midi_learn_binds_controllers_that_then_move_a_parameter_and_a_property() {
    let mut f = open_editor();
    f.harness.run_steps(2);
    let brightness = f.params.host.brightness.unmodulated_normalized_value();
    pick_from_menu(&mut f, "Brightness", "Learn MIDI controller");
    assert!(
        f.harness
            .query_by_label_contains("Move a MIDI controller to bind it to Brightness")
            .is_some(),
        "the status line says what waits"
    );
    assert_eq!(
        f.params.host.brightness.unmodulated_normalized_value(),
        brightness,
        "the right-click did not move the slider"
    );
    assert!(take_gestures(&f).is_empty(), "nor tell the host anything");

    let cc74 = |channel, position| Movement {
        control: Control::Cc { number: 74 },
        channel,
        position,
    };
    f.link.report_controller(cc74(1, 0.3));
    f.harness.run_steps(2);
    let bound = Binding {
        source: Source {
            control: Control::Cc { number: 74 },
            channel: Some(1),
        },
        target: BindingTarget::Param {
            id: "brightness".into(),
        },
    };
    assert_eq!(f.params.controllers.bindings(), vec![bound.clone()]);
    assert!(f.harness.query_by_label("MIDI: CC 74, ch 2").is_some());

    // The audio thread receives CC 74 on its channel and on another.
    let params = Arc::clone(&f.params);
    let receive = |movement| {
        params.controllers.receive(movement, |index, position| {
            params.move_param(index, position, 48_000.0)
        })
    };
    receive(cc74(1, 1.0));
    assert_eq!(
        f.params.host.brightness.value(),
        1.0,
        "CC 74 at 127: the top"
    );
    receive(cc74(5, 0.0));
    assert_eq!(
        f.params.host.brightness.value(),
        1.0,
        "channel 6 is not bound"
    );
    f.harness.run_steps(1);
    assert_eq!(
        take_gestures(&f),
        ["begin", "set 1.000", "end"],
        "the host hears where the controller put the parameter"
    );

    // A property: the tuning's A4, bound to the pitch-bend wheel.
    f.harness.get_by_label("Tuning").click();
    f.harness.run_steps(2);
    pick_from_menu(&mut f, "a4_hz", "Learn MIDI controller");
    let bend = |position| Movement {
        control: Control::PitchBend,
        channel: 0,
        position,
    };
    f.link.report_controller(bend(0.5));
    f.harness.run_steps(2);
    assert!(f.harness.query_by_label("MIDI: Pitch bend, ch 1").is_some());
    assert!(f.params.controllers.bindings().contains(&Binding {
        source: Source {
            control: Control::PitchBend,
            channel: Some(0),
        },
        target: BindingTarget::Property {
            path: "tuning:a4_hz".into(),
        },
    }));
    let info = SoundSettings::from_params(&f.params)
        .instrument_with(&f.params.edits())
        .property_info("tuning:a4_hz")
        .unwrap();
    let version = f.params.state.version();
    for (position, expected) in [
        (1.0, info.slider.1),
        (0.5, 0.5 * (info.slider.0 + info.slider.1)),
    ] {
        receive(bend(0.2));
        receive(bend(position));
        // The background task's work: the latest position becomes an edit.
        orchard::property_moves::apply_property_moves(&f.params);
        f.harness.run_steps(2);
        assert_eq!(engine_value(&f.params, "tuning:a4_hz"), expected);
    }
    assert!(f.params.state.version() > version, "the plugin rebuilds");
    assert_eq!(
        f.params
            .edits()
            .iter()
            .filter(|e| e.path() == "tuning:a4_hz")
            .count(),
        1,
        "one edit per path, however many movements"
    );

    // Esc cancels learning: the next controller binds nothing.
    pick_from_menu(&mut f, "Stereo width", "Learn MIDI controller");
    f.harness.key_press(Key::Escape);
    f.harness.run_steps(2);
    f.link.report_controller(cc74(1, 0.5));
    f.harness.run_steps(2);
    assert_eq!(f.params.controllers.bindings().len(), 2);
    assert!(f.harness.query_by_label_contains("Move a MIDI").is_none());

    // The menu lets a binding listen on any channel, and forgets it.
    pick_from_menu(&mut f, "Brightness", "Any channel for CC 74");
    assert!(f.params.controllers.bindings().contains(&Binding {
        source: Source {
            channel: None,
            ..bound.source
        },
        ..bound.clone()
    }));
    assert!(
        f.harness
            .query_by_label("MIDI: CC 74, any channel")
            .is_some()
    );
    pick_from_menu(&mut f, "Brightness", "Forget CC 74, any channel");
    assert_eq!(f.params.controllers.bindings().len(), 1, "the bend stays");
    assert!(f.harness.query_by_label_contains("MIDI: CC 74").is_none());
}

/// A Scala scale loads from the editor's chooser (the repository's 19-EDO
/// example, found by going up from the crate and into `tunings/`): the
/// instrument keeps its text, and neighbouring keys sound 1200/19 cents
/// apart (with the stretch on top). A broken file is refused with one line naming its file and line,
/// shown in the editor, and the instrument keeps the scale it had; Clear
/// takes the scale away.
#[test]
fn a_scala_scale_loads_from_the_editor_and_a_broken_one_is_refused() {
    let mut f = open_editor();
    f.harness.run_steps(2);
    f.harness.get_by_label("Load .scl…").click();
    f.harness.run_steps(2);
    f.harness.get_by_label("Up").click();
    f.harness.run_steps(2);
    f.harness.get_by_label("tunings/").click();
    f.harness.run_steps(2);
    assert!(
        f.harness.query_by_label("19-edo.kbm").is_none(),
        "only .scl files"
    );
    f.harness.get_by_label("19-edo.scl").click();
    f.harness.run_steps(2);
    let preset = SoundSettings::from_params(&f.params).instrument_with(&f.params.edits());
    let step = 1200.0 * (preset.fundamental_hz(70) / preset.fundamental_hz(69)).log2();
    // The stretch (on top, as for any tuning) moves A♯4 a tenth of a cent.
    assert!((step - 1200.0 / 19.0).abs() < 0.5, "{step} cents a key");
    assert!(f.harness.query_by_label_contains("(19 notes)").is_some());

    let folder = std::env::temp_dir().join(format!("orchard-scl-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let broken = folder.join("broken.scl");
    std::fs::write(&broken, "! broken\nA broken scale\n3\n100.0\nnot a pitch\n").unwrap();
    let edits = f.params.edits();
    let state = f.harness.state_mut();
    let app = &mut state.app;
    let error = app
        .tuning_files
        .load(&broken, false, &mut app.session)
        .unwrap_err();
    assert!(
        error.contains("broken.scl") && error.contains("line 5") && !error.contains('\n'),
        "{error}"
    );
    assert_eq!(f.params.edits(), edits, "the scale it had stays");
    let _ = std::fs::remove_dir_all(&folder);

    f.harness.get_by_label("Clear scale").click();
    f.harness.run_steps(2);
    let preset = SoundSettings::from_params(&f.params).instrument_with(&f.params.edits());
    assert!(preset.tuning.scale.is_none());
}
