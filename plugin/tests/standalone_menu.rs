//! The standalone app's File menu and transport, driven headless through
//! egui_kittest: Record starts and ends a take, Open MIDI file… chooses a
//! file with the editor's own file chooser and loads it into the transport,
//! Devices… shows the devices the program lists and saves a choice. (A test
//! binary of its own: the standalone session is one per process.)

use std::path::PathBuf;

use egui::accesskit::Role;
use egui::{Key, Modifiers, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use orchard::editor::standalone_bar::StandaloneBar;
use orchard::standalone::state_file::Devices;
use orchard::standalone::{self, DeviceLists, Session};

fn temporary(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("orchard-menu-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A MIDI file of one note (C4 for half a second).
fn one_note() -> Vec<u8> {
    use orchard_engine::rt::SynthEvent;
    let events = [
        (
            0,
            SynthEvent::NoteOn {
                key: 60,
                velocity: 0.8,
            },
        ),
        (
            24_000,
            SynthEvent::NoteOff {
                key: 60,
                velocity: 0.5,
            },
        ),
    ];
    orchard_engine::midi::smf_bytes(&events, 48_000.0, 48_000)
}

fn harness(session: &'static Session) -> Harness<'static, StandaloneBar> {
    Harness::builder()
        .with_size(Vec2::new(1100.0, 700.0))
        .build_ui_state(
            move |ui, bar: &mut StandaloneBar| bar.show(ui, session),
            StandaloneBar::default(),
        )
}

#[test]
fn the_file_menu_records_opens_a_midi_file_and_chooses_devices() {
    let takes = temporary("takes");
    let session = standalone::enable(takes.clone(), None, Devices::default()).unwrap();
    session.set_device_lister(Box::new(|| DeviceLists {
        backends: vec!["auto".into(), "jack".into(), "alsa".into()],
        outputs: vec!["Test card".into()],
        alsa_midi_inputs: vec!["Test keyboard".into()],
        jack_midi_ports: vec!["keyboard:out".into()],
    }));
    let mut h = harness(session);
    h.run();

    // Record, then Stop recording.
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Record").click();
    h.run();
    assert!(session.recorder.is_recording());
    assert!(h.query_by_label_contains("Recording 0:").is_some());
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Stop recording").click();
    h.run();
    assert!(!session.recorder.is_recording());

    // Open MIDI file…: the chooser lists the folder's MIDI files only.
    let songs = temporary("songs");
    std::fs::write(songs.join("one-note.mid"), one_note()).unwrap();
    std::fs::write(songs.join("notes.txt"), "not music").unwrap();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open MIDI file…").click();
    h.run();
    h.get_by_role(Role::TextInput).focus();
    h.run();
    // Replace the path the chooser opened with by the songs' folder.
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_role(Role::TextInput)
        .type_text(&songs.display().to_string());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert!(h.query_by_label("notes.txt").is_none());
    h.get_by_label("one-note.mid").click();
    h.run();
    assert_eq!(session.transport.file(), Some(songs.join("one-note.mid")));
    assert!(h.query_by_label("Play").is_some());
    h.get_by_label("Play").click();
    h.run();

    // Devices…: the program's lists; a choice saved for the next start.
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Devices…").click();
    h.run();
    assert!(
        h.query_by_label_contains("devices are opened when the app starts")
            .is_some()
    );
    h.get_by_label("Save for the next start").click();
    h.run();
    assert_eq!(session.devices().backend.as_deref(), Some("auto"));
    assert!(
        h.query_by_label("Devices saved for the next start")
            .is_some()
    );

    assert!(session.recorder.finish(std::time::Duration::from_secs(5)));
    let _ = std::fs::remove_dir_all(takes);
    let _ = std::fs::remove_dir_all(songs);
}
