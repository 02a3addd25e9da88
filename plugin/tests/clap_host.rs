//! Orchard loaded as a host loads it: the built CLAP plugin, through clack-host.
//!
//! The plugin under test is this workspace's own cdylib, built for the tests with
//! nice-plug's `assert_process_allocs`: any allocation inside `process` aborts the
//! test process.

use std::path::PathBuf;

use clack_host::events::event_types::{NoteOffEvent, NoteOnEvent};
use clack_host::prelude::*;

struct TestHostShared;

impl SharedHandler<'_> for TestHostShared {
    fn request_restart(&self) {}
    fn request_process(&self) {}
    fn request_callback(&self) {}
}

struct TestHost;

impl HostHandlers for TestHost {
    type Shared<'a> = TestHostShared;
    type MainThread<'a> = ();
    type AudioProcessor<'a> = ();
}

/// Bundles the cdylib the way the bundler does on Linux (a `.clap` is the shared
/// library renamed) into a fresh directory, and returns the bundle's path.
fn clap_bundle() -> PathBuf {
    // Cargo leaves the library built for this test run beside the test executable,
    // in `deps/`; the copy one level up belongs to whatever plain build came last.
    let test_exe = std::env::current_exe().unwrap();
    let library = test_exe.with_file_name("liborchard.so");
    assert!(
        library.exists(),
        "the plugin library {} was not built",
        library.display()
    );
    let dir = std::env::temp_dir().join(format!("orchard-clap-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bundle = dir.join("Orchard.clap");
    std::fs::copy(&library, &bundle).unwrap();
    bundle
}

/// Renders key 69 held from frame 10 for `held_s`, then released, for `total_s`,
/// at `sample_rate` in blocks of `block` frames. Returns the left and right channels.
fn render_through_clap(
    entry: &PluginEntry,
    sample_rate: f64,
    block: usize,
    held_s: f64,
    total_s: f64,
) -> [Vec<f32>; 2] {
    let host_info = HostInfo::new(
        "Orchard tests",
        "Orchard",
        "https://example.invalid",
        "0.1.0",
    )
    .unwrap();
    let factory = entry.get_plugin_factory().expect("a plugin factory");
    let descriptor = factory.plugin_descriptors().next().expect("one plugin");
    assert_eq!(descriptor.name().unwrap().to_bytes(), b"Orchard");
    let id = descriptor.id().unwrap();
    let mut instance =
        PluginInstance::<TestHost>::new(|_| TestHostShared, |_| (), entry, id, &host_info).unwrap();
    let config = PluginAudioConfiguration {
        sample_rate,
        min_frames_count: 1,
        max_frames_count: block as u32,
    };
    let processor = instance.activate(|_, _| (), config).unwrap();

    let total = (total_s * sample_rate) as usize;
    let note_on_frame = 10usize;
    let note_off_frame = (held_s * sample_rate) as usize;
    let output = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let mut processor = processor.start_processing().unwrap();
                let mut out = [vec![0.0f32; total], vec![0.0f32; total]];
                let (mut left, mut right) = (vec![0.0f32; block], vec![0.0f32; block]);
                let mut input_ports = AudioPorts::with_capacity(0, 0);
                let mut output_ports = AudioPorts::with_capacity(2, 1);
                let mut events = EventBuffer::with_capacity(4);
                let mut start = 0;
                while start < total {
                    let len = block.min(total - start);
                    events.clear();
                    let key = Pckn::new(0u16, 0u16, 69u16, 0u32);
                    if (start..start + len).contains(&note_on_frame) {
                        let t = (note_on_frame - start) as u32;
                        events.push(&NoteOnEvent::new(t, key, 0.8));
                    }
                    if (start..start + len).contains(&note_off_frame) {
                        let t = (note_off_frame - start) as u32;
                        events.push(&NoteOffEvent::new(t, key, 0.5));
                    }
                    let inputs = input_ports.with_input_buffers([] as [AudioPortBuffer<
                        [InputChannel<f32>; 0],
                        [InputChannel<f64>; 0],
                    >; 0]);
                    let mut outputs = output_ports.with_output_buffers([AudioPortBuffer {
                        latency: 0,
                        channels: AudioPortBufferType::f32_output_only(
                            [&mut left[..len], &mut right[..len]].into_iter(),
                        ),
                    }]);
                    processor
                        .process(
                            &inputs,
                            &mut outputs,
                            &InputEvents::from_buffer(&events),
                            &mut OutputEvents::void(),
                            Some(start as u64),
                            None,
                        )
                        .unwrap();
                    out[0][start..start + len].copy_from_slice(&left[..len]);
                    out[1][start..start + len].copy_from_slice(&right[..len]);
                    start += len;
                }
                (processor.stop_processing(), out)
            })
            .join()
            .unwrap()
    });
    let (processor, out) = output;
    instance.deactivate(processor);
    out
}

fn peak(x: &[f32]) -> f32 {
    x.iter().fold(0.0, |m, s| m.max(s.abs()))
}

#[test]
fn plays_in_a_clap_host_at_every_rate_and_block_size() {
    let bundle = clap_bundle();
    // SAFETY: loading a shared library runs its initialisers; this is our own plugin.
    let entry = unsafe { PluginEntry::load(&bundle) }.expect("the bundle loads");
    let (held_s, total_s) = (0.4, 1.6);
    for sample_rate in [44_100.0, 48_000.0, 96_000.0] {
        let mut reference: Option<[Vec<f32>; 2]> = None;
        for block in [4096, 512, 64, 1] {
            let out = render_through_clap(&entry, sample_rate, block, held_s, total_s);
            let at = |s: f64| (s * sample_rate) as usize;
            for channel in &out {
                assert!(channel.iter().all(|s| s.is_finite()), "non-finite output");
                let held = peak(&channel[at(0.01)..at(held_s)]);
                assert!(
                    held > 1e-3,
                    "silent while held: {held} at {sample_rate} Hz, block {block}"
                );
                // The damper's T60 is 0.25 s: a second after release, nothing is left.
                let after = peak(&channel[at(held_s + 1.0)..]);
                assert!(after < 1e-6, "still sounding after release: {after}");
            }
            // Sample-accurate events: every block size renders the same audio.
            match &reference {
                None => reference = Some(out),
                Some(r) => {
                    let first = r[0].iter().zip(&out[0]).position(|(a, b)| a != b);
                    assert!(
                        r == &out,
                        "block size {block} changed the output at {sample_rate} Hz from frame {first:?}: {:?} vs {:?}",
                        first.map(|i| &r[0][i..i + 4]),
                        first.map(|i| &out[0][i..i + 4])
                    );
                }
            }
        }
    }
    std::fs::remove_dir_all(bundle.parent().unwrap()).ok();
}
