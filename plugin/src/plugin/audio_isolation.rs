//! The editor never blocks the audio thread: with every lock the editor (and
//! the background rebuild) can take held by another thread, `process` still
//! runs, plays the on-screen keyboard's notes, and allocates nothing.

use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use nice_plug::prelude::*;
use orchard_engine::rt::SynthEvent;

use super::Orchard;
use crate::editor::app::EditorApp;
use crate::test_host::{Host, process_block};

const RATE: f32 = 48_000.0;
const BLOCK: usize = 256;

/// Renders `blocks` blocks; returns the peak of the output.
fn render(plugin: &mut Orchard, host: &mut Host, blocks: usize) -> f32 {
    let mut left = vec![0.0f32; BLOCK];
    let mut right = vec![0.0f32; BLOCK];
    let mut peak = 0.0f32;
    for _ in 0..blocks {
        process_block(plugin, host, &mut left, &mut right);
        peak = left
            .iter()
            .chain(right.iter())
            .fold(peak, |p, x| p.max(x.abs()));
        assert!(left.iter().chain(right.iter()).all(|x| x.is_finite()));
    }
    peak
}

#[test]
fn process_runs_while_the_editor_holds_every_lock() {
    let mut plugin = Orchard::default();
    let mut host = Host::new(RATE);
    let layout = Orchard::AUDIO_IO_LAYOUTS[0];
    let config = BufferConfig {
        sample_rate: RATE,
        min_buffer_size: None,
        max_buffer_size: BLOCK as u32,
        process_mode: ProcessMode::Realtime,
    };
    assert!(plugin.activate(&layout, &config, &mut host));
    // What a host's wrapper does at activation: the level's smoother starts
    // at the parameter's value.
    plugin
        .params
        .host
        .output_level
        .smoothed
        .reset(plugin.params.host.output_level.value());

    // The editor, open against the running instrument.
    let params = Arc::clone(&plugin.params);
    let link = Arc::clone(&plugin.link);
    let loader = Arc::clone(&plugin.loader);
    let mut app = EditorApp::new(Arc::clone(&params), Arc::clone(&link));
    app.opened();
    // A note from the on-screen keyboard.
    assert!(link.play(SynthEvent::NoteOn {
        key: 60,
        velocity: 0.8
    }));
    // An edit: the audio thread must ask for a rebuild, not wait for one.
    params.set_edits(vec![orchard_engine::instrument::PropertyEdit::Set {
        path: "tuning:a4_hz".into(),
        value: 442.0,
    }]);

    // Every lock the editor or the rebuild can take, held by this thread
    // while the audio thread plays.
    let _state = params.state.state.lock().unwrap();
    let _layout = params.editor_layout.lock().unwrap();
    let _loader = loader.lock().unwrap();
    let _notes = link.notes.lock().unwrap();
    let _scope = link.scope.lock().unwrap();
    let _views = link.views.lock().unwrap();
    let (done, finished) = mpsc::channel();
    let audio = std::thread::spawn(move || {
        let peak = render(&mut plugin, &mut host, 200);
        let tasks = host.tasks.get();
        let _ = done.send((peak, tasks));
        plugin
    });
    let (peak, tasks) = finished
        .recv_timeout(Duration::from_secs(60))
        .expect("process finished while the editor held its locks");
    let _plugin = audio.join().expect("the audio thread did not panic");
    assert!(
        peak > 0.01,
        "the on-screen keyboard's note sounded: peak {peak}"
    );
    assert_eq!(tasks, 1, "one rebuild asked for, on the background thread");
}
