//! Recording what the standalone app plays: the output as heard (after the
//! output level) to a WAV file, and every note, pedal and controller event
//! that reached the synthesiser to a Standard MIDI File, one pair of files a
//! take, named by the take's start time.
//!
//! The audio thread's end ([`RecordTap`]) only pushes into two wait-free
//! queues: the samples, and marks that say where a take starts and stops,
//! how many frames each block added and which events played at which frame.
//! A writer thread ([`Recorder`]) drains them to the files. When the queues
//! are full the audio thread drops what does not fit and counts it (shown
//! as the take's overruns); it never waits.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime};

use orchard_engine::rt::SynthEvent;
use rtrb::{Consumer, Producer, RingBuffer};

use super::take_name::take_stem;

/// Seconds of stereo audio the sample queue holds at 48 kHz (the writer
/// thread drains it every [`WRITER_PERIOD`]).
const QUEUE_SECONDS: usize = 4;
/// Samples (two a frame) the queue holds.
const SAMPLE_QUEUE: usize = QUEUE_SECONDS * 48_000 * 2;
/// Marks (takes, blocks, events) the queue holds.
const MARK_QUEUE: usize = 8192;
/// How often the writer thread drains the queues.
const WRITER_PERIOD: Duration = Duration::from_millis(10);

/// What the audio thread tells the writer, in order.
#[derive(Debug, Clone, Copy)]
enum Mark {
    /// A take starts; its audio is at `sample_rate` Hz.
    Start { sample_rate: u32 },
    /// An event reached the synthesiser `frame` frames into the take.
    Event { frame: u64, event: SynthEvent },
    /// The last block added `frames` frames to the sample queue.
    Block { frames: u32 },
    /// The take ends.
    Stop,
}

/// What the writer and the audio thread share with the controls.
#[derive(Debug, Default)]
struct Shared {
    /// Whether a take is wanted (set by the controls, followed by the audio
    /// thread at its next block).
    wanted: AtomicBool,
    /// Frames and events of the take dropped because a queue was full.
    overruns: AtomicU64,
    /// Frames written to the running take (the writer's count).
    frames_written: AtomicU64,
    /// Set when the app quits: the writer finishes the take and ends.
    quit: AtomicBool,
}

/// The audio thread's end of the recorder. Allocates nothing.
pub struct RecordTap {
    samples: Producer<f32>,
    marks: Producer<Mark>,
    shared: Arc<Shared>,
    /// Whether a take is running (as far as this end knows).
    taking: bool,
    /// Frames of the running take pushed so far.
    frames: u64,
    /// The sample rate of the audio, Hz (from `activate`).
    sample_rate: u32,
}

impl RecordTap {
    /// The audio runs at `sample_rate` Hz from now on (`activate`).
    pub fn set_sample_rate(&mut self, sample_rate: u32) {
        self.sample_rate = sample_rate;
    }

    /// Starts or stops the take as the controls want; call at the start of
    /// every block, before [`Self::event`] and [`Self::samples`].
    pub fn begin_block(&mut self) {
        let wanted = self.shared.wanted.load(Ordering::Acquire);
        if wanted == self.taking {
            return;
        }
        let mark = if wanted {
            Mark::Start {
                sample_rate: self.sample_rate,
            }
        } else {
            Mark::Stop
        };
        // A full queue: try again next block.
        if self.marks.push(mark).is_ok() {
            self.taking = wanted;
            self.frames = 0;
        }
    }

    /// `event` reached the synthesiser `offset` frames into this block.
    pub fn event(&mut self, offset: usize, event: SynthEvent) {
        if !self.taking {
            return;
        }
        // Two slots stay free for the block's and the take's marks.
        let frame = self.frames + offset as u64;
        if self.marks.slots() < 3 || self.marks.push(Mark::Event { frame, event }).is_err() {
            self.shared.overruns.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The block's output as heard; call after the level and the guard.
    pub fn samples(&mut self, left: &[f32], right: &[f32]) {
        if !self.taking {
            return;
        }
        let frames = left.len().min(right.len());
        // Without room for the block's mark, its samples cannot be told
        // apart from the next block's: drop them.
        let room = if self.marks.slots() >= 2 {
            (self.samples.slots() / 2).min(frames)
        } else {
            0
        };
        if room > 0
            && let Ok(chunk) = self.samples.write_chunk_uninit(room * 2)
        {
            let interleaved = left[..room]
                .iter()
                .zip(&right[..room])
                .flat_map(|(&l, &r)| [l, r]);
            chunk.fill_from_iter(interleaved);
            let _ = self.marks.push(Mark::Block {
                frames: room as u32,
            });
            self.frames += room as u64;
        }
        let dropped = (frames - room) as u64;
        if dropped > 0 {
            self.shared.overruns.fetch_add(dropped, Ordering::Relaxed);
        }
    }
}

/// The recorder's controls and its writer thread.
pub struct Recorder {
    shared: Arc<Shared>,
    /// The folder takes go to.
    folder: Mutex<PathBuf>,
    /// What the last take wrote, or why it could not: one line.
    status: Arc<Mutex<String>>,
    /// The folder each take goes to, as the writer reads it.
    take_folder: Arc<Mutex<PathBuf>>,
    writer: Mutex<Option<(JoinHandle<()>, Receiver<()>)>>,
}

/// A new recorder writing into `folder`: the controls, and the audio
/// thread's end. Starts the writer thread. Allocates: the queues.
pub fn recorder(folder: PathBuf) -> (Recorder, RecordTap) {
    let (samples, sample_queue) = RingBuffer::new(SAMPLE_QUEUE);
    let (marks, mark_queue) = RingBuffer::new(MARK_QUEUE);
    let shared = Arc::new(Shared::default());
    let status = Arc::new(Mutex::new(String::new()));
    let take_folder = Arc::new(Mutex::new(folder.clone()));
    let (done, finished) = mpsc::channel();
    let writer = Writer {
        samples: sample_queue,
        marks: mark_queue,
        shared: Arc::clone(&shared),
        status: Arc::clone(&status),
        folder: Arc::clone(&take_folder),
        take: None,
    };
    let handle = std::thread::Builder::new()
        .name("orchard-recorder".into())
        .spawn(move || {
            writer.run();
            let _ = done.send(());
        })
        .ok();
    let recorder = Recorder {
        shared: Arc::clone(&shared),
        folder: Mutex::new(folder),
        status,
        take_folder,
        writer: Mutex::new(handle.map(|h| (h, finished))),
    };
    let tap = RecordTap {
        samples,
        marks,
        shared,
        taking: false,
        frames: 0,
        sample_rate: 48_000,
    };
    (recorder, tap)
}

impl Recorder {
    /// Starts a take (new files in the record folder) or ends the running
    /// one, from the next audio block on.
    pub fn set_recording(&self, on: bool) {
        self.shared.wanted.store(on, Ordering::Release);
    }

    /// Whether a take is wanted.
    pub fn is_recording(&self) -> bool {
        self.shared.wanted.load(Ordering::Acquire)
    }

    /// The folder takes go to.
    pub fn folder(&self) -> PathBuf {
        self.folder
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Sends the next takes to `folder` (created when a take starts).
    pub fn set_folder(&self, folder: PathBuf) {
        *self
            .take_folder
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = folder.clone();
        *self.folder.lock().unwrap_or_else(PoisonError::into_inner) = folder;
    }

    /// What the last take wrote or why it could not, one line ("" before
    /// the first take).
    pub fn status(&self) -> String {
        self.status
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Frames written to the running take so far.
    pub fn frames_written(&self) -> u64 {
        self.shared.frames_written.load(Ordering::Relaxed)
    }

    /// Frames and events dropped from the running take (queues full).
    pub fn overruns(&self) -> u64 {
        self.shared.overruns.load(Ordering::Relaxed)
    }

    /// Ends the running take, writes its files completely and stops the
    /// writer thread, waiting at most `timeout`; true if it finished. Later
    /// takes are not recorded.
    pub fn finish(&self, timeout: Duration) -> bool {
        self.shared.wanted.store(false, Ordering::Release);
        self.shared.quit.store(true, Ordering::Release);
        let taken = self
            .writer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        match taken {
            Some((handle, finished)) => {
                let done = finished.recv_timeout(timeout).is_ok();
                if done {
                    let _ = handle.join();
                }
                done
            }
            None => true,
        }
    }
}

/// A take being written.
struct Take {
    wav: hound::WavWriter<BufWriter<File>>,
    wav_path: PathBuf,
    midi_path: PathBuf,
    sample_rate: u32,
    /// (frame, event) in the order they played.
    events: Vec<(u64, SynthEvent)>,
    frames: u64,
    /// The first error writing the audio, if any.
    error: Option<String>,
}

/// The writer thread's state.
struct Writer {
    samples: Consumer<f32>,
    marks: Consumer<Mark>,
    shared: Arc<Shared>,
    status: Arc<Mutex<String>>,
    folder: Arc<Mutex<PathBuf>>,
    take: Option<Take>,
}

impl Writer {
    /// Drains the queues until the app quits, then finishes the take.
    fn run(mut self) {
        loop {
            let quitting = self.shared.quit.load(Ordering::Acquire);
            self.drain();
            if quitting {
                break;
            }
            std::thread::sleep(WRITER_PERIOD);
        }
        self.stop();
    }

    /// Handles every mark queued, in order.
    fn drain(&mut self) {
        while let Ok(mark) = self.marks.pop() {
            match mark {
                Mark::Start { sample_rate } => {
                    self.stop();
                    self.start(sample_rate);
                }
                Mark::Event { frame, event } => {
                    if let Some(take) = self.take.as_mut() {
                        take.events.push((frame, event));
                    }
                }
                Mark::Block { frames } => self.block(frames as usize),
                Mark::Stop => self.stop(),
            }
        }
    }

    /// Opens the files of a new take.
    fn start(&mut self, sample_rate: u32) {
        self.shared.overruns.store(0, Ordering::Relaxed);
        self.shared.frames_written.store(0, Ordering::Relaxed);
        let folder = self
            .folder
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        match open_take(&folder, sample_rate, SystemTime::now()) {
            Ok(take) => {
                self.say(format!("recording to {}", take.wav_path.display()));
                self.take = Some(take);
            }
            Err(error) => self.say(format!("cannot record: {error}")),
        }
    }

    /// Moves one block's frames from the queue into the take's audio.
    fn block(&mut self, frames: usize) {
        let Ok(chunk) = self.samples.read_chunk(frames * 2) else {
            return;
        };
        if let Some(take) = self.take.as_mut() {
            for sample in chunk.into_iter() {
                if let Err(error) = take.wav.write_sample(sample)
                    && take.error.is_none()
                {
                    take.error = Some(error.to_string());
                }
            }
            take.frames += frames as u64;
            self.shared
                .frames_written
                .store(take.frames, Ordering::Relaxed);
        } else {
            chunk.commit_all();
        }
    }

    /// Finishes the running take, if any: the WAV's header and the MIDI file.
    fn stop(&mut self) {
        let Some(take) = self.take.take() else {
            return;
        };
        let overruns = self.shared.overruns.load(Ordering::Relaxed);
        let line = match finish_take(take) {
            Ok((wav, midi, seconds)) => {
                let dropped = if overruns > 0 {
                    format!(" ({overruns} frames or events dropped: the disk was too slow)")
                } else {
                    String::new()
                };
                format!(
                    "recorded {seconds:.1} s to {} and {}{dropped}",
                    wav.display(),
                    midi.display()
                )
            }
            Err(error) => format!("the take could not be written: {error}"),
        };
        self.say(line);
    }

    fn say(&self, line: String) {
        *self.status.lock().unwrap_or_else(PoisonError::into_inner) = line;
    }
}

/// The files of a new take in `folder` (created if need be), named by
/// `now`: 32-bit float stereo WAV at `sample_rate` Hz, and a MIDI file
/// written when the take ends.
fn open_take(folder: &Path, sample_rate: u32, now: SystemTime) -> Result<Take, String> {
    std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let stem = take_stem(now);
    // Two takes in one second get a number.
    let (wav_path, midi_path) = (1..)
        .map(|n| {
            let name = if n == 1 {
                stem.clone()
            } else {
                format!("{stem}-{n}")
            };
            (
                folder.join(format!("{name}.wav")),
                folder.join(format!("{name}.mid")),
            )
        })
        .find(|(wav, midi)| !wav.exists() && !midi.exists())
        .unwrap_or_default();
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate,
        bits_per_sample: 32,
        sample_format: hound::SampleFormat::Float,
    };
    let wav = hound::WavWriter::create(&wav_path, spec)
        .map_err(|e| format!("{}: {e}", wav_path.display()))?;
    Ok(Take {
        wav,
        wav_path,
        midi_path,
        sample_rate,
        events: Vec::new(),
        frames: 0,
        error: None,
    })
}

/// Completes a take's WAV file and writes its MIDI file; returns their
/// paths and the take's length in seconds.
fn finish_take(take: Take) -> Result<(PathBuf, PathBuf, f64), String> {
    let Take {
        wav,
        wav_path,
        midi_path,
        sample_rate,
        events,
        frames,
        error,
    } = take;
    let wav_error = |e: hound::Error| format!("{}: {e}", wav_path.display());
    wav.finalize().map_err(wav_error)?;
    if let Some(error) = error {
        return Err(format!("{}: {error}", wav_path.display()));
    }
    let bytes = orchard_engine::midi::smf_bytes(&events, f64::from(sample_rate), frames);
    std::fs::write(&midi_path, bytes).map_err(|e| format!("{}: {e}", midi_path.display()))?;
    Ok((wav_path, midi_path, frames as f64 / f64::from(sample_rate)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("orchard-rec-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// The take's files in `dir`: (WAV, MIDI).
    fn take_files(dir: &Path) -> (PathBuf, PathBuf) {
        let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(names[0].to_string_lossy().ends_with(".mid"));
        assert!(names[1].to_string_lossy().ends_with(".wav"));
        (names[1].clone(), names[0].clone())
    }

    const RATE: u32 = 48_000;
    const BLOCK: usize = 480;

    /// Block `b`'s known samples: left counts up, right down.
    fn block(b: usize) -> (Vec<f32>, Vec<f32>) {
        let left = (0..BLOCK).map(|i| (b * BLOCK + i) as f32 * 1e-6).collect();
        let right = (0..BLOCK)
            .map(|i| -((b * BLOCK + i) as f32) * 1e-6)
            .collect();
        (left, right)
    }

    /// Plays `blocks` blocks into the tap, a note on in block 1 at offset
    /// 100 and its note-off in block 3 at offset 7; nothing allocates.
    fn play(tap: &mut RecordTap, blocks: usize) {
        let on = SynthEvent::NoteOn {
            key: 69,
            velocity: 100.0 / 127.0,
        };
        let off = SynthEvent::NoteOff {
            key: 69,
            velocity: 64.0 / 127.0,
        };
        for b in 0..blocks {
            let (left, right) = block(b);
            nice_assert_no_alloc::assert_no_alloc(|| {
                tap.begin_block();
                match b {
                    1 => tap.event(100, on),
                    3 => tap.event(7, off),
                    _ => {}
                }
                tap.samples(&left, &right);
            });
        }
    }

    fn check_take(dir: &Path, blocks: usize) {
        let (wav, midi) = take_files(dir);
        let mut reader = hound::WavReader::open(&wav).unwrap();
        let spec = reader.spec();
        assert_eq!((spec.channels, spec.sample_rate), (2, RATE));
        assert_eq!(spec.sample_format, hound::SampleFormat::Float);
        let samples: Vec<f32> = reader.samples::<f32>().map(Result::unwrap).collect();
        let expected: Vec<f32> = (0..blocks)
            .flat_map(|b| {
                let (l, r) = block(b);
                l.into_iter().zip(r).flat_map(|(l, r)| [l, r])
            })
            .collect();
        assert_eq!(samples, expected);
        let score = orchard_engine::midi::read(&midi).unwrap();
        let times: Vec<(f64, SynthEvent)> =
            score.events.iter().map(|e| (e.time_s, e.event)).collect();
        assert_eq!(times.len(), 2, "{times:?}");
        let tick_s = 1.0 / orchard_engine::midi::TICKS_PER_SECOND;
        for ((time_s, event), (frame, key_down)) in times.iter().zip([(580, true), (1447, false)]) {
            assert!(
                (time_s - f64::from(frame) / f64::from(RATE)).abs() <= tick_s / 2.0,
                "{time_s} s for frame {frame}"
            );
            assert_eq!(
                matches!(event, SynthEvent::NoteOn { key: 69, .. }),
                key_down
            );
        }
        assert!((score.end_s - (blocks * BLOCK) as f64 / f64::from(RATE)).abs() <= tick_s);
    }

    #[test]
    fn a_take_holds_the_samples_and_the_events_exactly() {
        let dir = folder("take");
        let (recorder, mut tap) = recorder(dir.clone());
        tap.set_sample_rate(RATE);
        // Before the take: nothing recorded.
        play(&mut tap, 2);
        recorder.set_recording(true);
        play(&mut tap, 5);
        recorder.set_recording(false);
        // The next block ends the take; later ones are not recorded.
        play(&mut tap, 2);
        std::thread::sleep(WRITER_PERIOD * 5);
        assert!(
            recorder.status().starts_with("recorded 0.1 s to "),
            "{}",
            recorder.status()
        );
        assert!(recorder.finish(Duration::from_secs(5)));
        check_take(&dir, 5);
        assert_eq!(recorder.overruns(), 0);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn quitting_mid_take_completes_its_files() {
        let dir = folder("quit");
        let (recorder, mut tap) = recorder(dir.clone());
        tap.set_sample_rate(RATE);
        recorder.set_recording(true);
        play(&mut tap, 4);
        assert!(recorder.finish(Duration::from_secs(5)));
        assert!(!recorder.is_recording());
        check_take(&dir, 4);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn an_unwritable_folder_is_one_line_and_no_panic() {
        let file = folder("not-a-folder");
        std::fs::write(&file, "a file where the folder should be").unwrap();
        let (recorder, mut tap) = recorder(file.join("takes"));
        recorder.set_recording(true);
        play(&mut tap, 3);
        assert!(recorder.finish(Duration::from_secs(5)));
        let status = recorder.status();
        assert!(status.starts_with("cannot record: "), "{status}");
        assert!(!status.contains('\n'));
        let _ = std::fs::remove_file(file);
    }
}
