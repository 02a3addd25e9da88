//! Playing a MIDI file through the instrument, with a transport: open,
//! play, pause, stop, rewind, and the position.
//!
//! The controls ([`Transport`]) read the file and turn it into a score at
//! the audio's sample rate; the audio thread's end ([`FilePlayer`]) takes the
//! score and the transport's commands from a wait-free queue and, every
//! block, hands out the score's events due in it at their own sample offsets
//! (sample-accurate across blocks). Pausing and stopping let go of every key
//! and pedal the file holds down. A replaced score goes back to the controls
//! to be freed off the audio thread.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use orchard_engine::rt::{Score, SynthEvent, TimedEvent};
use rtrb::{Consumer, Producer, RingBuffer};

/// Commands the transport may queue between two audio blocks.
const COMMAND_QUEUE: usize = 64;
/// Events the player hands out in one block, at most; the rest play at the
/// start of the next.
pub const EVENTS_PER_BLOCK: usize = 1024;

/// What the transport asks of the audio thread.
enum Command {
    /// Play this score from its start (stopped).
    Load(Box<Score>),
    Play,
    Pause,
    /// Pause and go back to the start.
    Stop,
    /// Go back to the start, playing on if playing.
    Rewind,
}

/// What the audio thread tells the transport.
#[derive(Debug, Default)]
struct Shared {
    /// Samples from the start of the score.
    position: AtomicU64,
    /// The score's length, samples.
    length: AtomicU64,
    playing: AtomicBool,
    /// The sample rate the score is at, Hz (0 before `activate`).
    sample_rate: AtomicU32,
}

/// The audio thread's end of the player. Allocates nothing after
/// [`player`].
pub struct FilePlayer {
    commands: Consumer<Command>,
    retired: Producer<Box<Score>>,
    shared: Arc<Shared>,
    score: Option<Box<Score>>,
    /// Index of the next event of the score to play.
    next: usize,
    /// Samples from the score's start.
    position: u64,
    playing: bool,
    /// The keys and pedals the file holds down.
    holds: Holds,
    /// This block's events (capacity [`EVENTS_PER_BLOCK`], never grown).
    due: Vec<TimedEvent>,
}

/// The player's controls.
pub struct Transport {
    commands: Mutex<Producer<Command>>,
    retired: Mutex<Consumer<Box<Score>>>,
    shared: Arc<Shared>,
    /// The file opened last and its score in seconds.
    file: Mutex<Option<(PathBuf, orchard_engine::midi::Score)>>,
    /// Play as soon as the audio runs (a file opened before `activate`).
    play_when_ready: AtomicBool,
}

/// A new player: the controls and the audio thread's end. Allocates: the
/// queues and the block's event list.
pub fn player() -> (Transport, FilePlayer) {
    let (commands, command_queue) = RingBuffer::new(COMMAND_QUEUE);
    let (retired, retired_queue) = RingBuffer::new(COMMAND_QUEUE);
    let shared = Arc::new(Shared::default());
    let transport = Transport {
        commands: Mutex::new(commands),
        retired: Mutex::new(retired_queue),
        shared: Arc::clone(&shared),
        file: Mutex::new(None),
        play_when_ready: AtomicBool::new(false),
    };
    let player = FilePlayer {
        commands: command_queue,
        retired,
        shared,
        score: None,
        next: 0,
        position: 0,
        playing: false,
        holds: Holds::default(),
        due: Vec::with_capacity(EVENTS_PER_BLOCK),
    };
    (transport, player)
}

impl FilePlayer {
    /// Follows the transport's commands and gathers the events due in the
    /// next `frames` frames (see [`Self::events`]).
    pub fn prepare(&mut self, frames: usize) {
        self.due.clear();
        while let Ok(command) = self.commands.pop() {
            match command {
                Command::Load(score) => {
                    self.release(0);
                    self.playing = false;
                    self.next = 0;
                    self.position = 0;
                    self.shared
                        .length
                        .store(score.end_sample(), Ordering::Relaxed);
                    if let Some(old) = self.score.replace(score)
                        && let Err(rtrb::PushError::Full(old)) = self.retired.push(old)
                    {
                        // Never free on the audio thread: keep the memory.
                        std::mem::forget(old);
                    }
                }
                Command::Play => self.playing = self.score.is_some(),
                Command::Pause => {
                    self.playing = false;
                    self.release(0);
                }
                Command::Stop => {
                    self.playing = false;
                    self.release(0);
                    self.rewind();
                }
                Command::Rewind => {
                    self.release(0);
                    self.rewind();
                }
            }
        }
        if self.playing
            && let Some(score) = self.score.as_deref()
        {
            let end = self.position + frames as u64;
            for &(sample, event) in &score.events()[self.next..] {
                if sample >= end || self.due.len() == self.due.capacity() {
                    break;
                }
                let offset = sample.saturating_sub(self.position) as usize;
                self.due.push(TimedEvent { offset, event });
                self.next += 1;
            }
            for timed in &self.due {
                self.holds.follow(timed.event);
            }
            self.position = end;
            if self.next == score.events().len() && self.position >= score.end_sample() {
                self.playing = false;
                self.position = score.end_sample();
                // After the block's last event.
                self.release(frames);
            }
        }
        self.shared.position.store(self.position, Ordering::Relaxed);
        self.shared.playing.store(self.playing, Ordering::Relaxed);
    }

    /// The events due in this block, in time order, at their offsets.
    pub fn events(&self) -> &[TimedEvent] {
        &self.due
    }

    /// Lets go of every key and pedal the file holds down, `offset` frames
    /// into this block.
    fn release(&mut self, offset: usize) {
        for key in 0..128u8 {
            if self.holds.keys[usize::from(key)] && self.due.len() < self.due.capacity() {
                self.holds.keys[usize::from(key)] = false;
                self.due.push(TimedEvent {
                    offset,
                    event: SynthEvent::NoteOff {
                        key,
                        velocity: orchard_engine::rt::DEFAULT_RELEASE_VELOCITY,
                    },
                });
            }
        }
        let ups = [
            SynthEvent::Sustain(0.0),
            SynthEvent::Sostenuto(false),
            SynthEvent::UnaCorda(0.0),
        ];
        for (down, up) in self.holds.pedals.iter_mut().zip(ups) {
            if *down && self.due.len() < self.due.capacity() {
                *down = false;
                self.due.push(TimedEvent { offset, event: up });
            }
        }
    }

    fn rewind(&mut self) {
        self.next = 0;
        self.position = 0;
    }
}

/// The keys and pedals a file holds down.
#[derive(Debug, Clone, Copy)]
struct Holds {
    keys: [bool; 128],
    /// Sustain, sostenuto, una corda.
    pedals: [bool; 3],
}

impl Default for Holds {
    fn default() -> Self {
        Self {
            keys: [false; 128],
            pedals: [false; 3],
        }
    }
}

impl Holds {
    /// Notes the keys and pedals `event` holds down or lets go.
    fn follow(&mut self, event: SynthEvent) {
        match event {
            SynthEvent::NoteOn { key, velocity } if velocity > 0.0 => {
                self.keys[usize::from(key.min(127))] = true;
            }
            SynthEvent::NoteOn { key, .. } | SynthEvent::NoteOff { key, .. } => {
                self.keys[usize::from(key.min(127))] = false;
            }
            SynthEvent::Sustain(depth) => self.pedals[0] = depth > 0.0,
            SynthEvent::Sostenuto(down) => self.pedals[1] = down,
            SynthEvent::UnaCorda(depth) => self.pedals[2] = depth > 0.0,
            SynthEvent::AllNotesOff | SynthEvent::AllSoundOff => self.keys = [false; 128],
        }
    }
}

impl Transport {
    /// Reads the MIDI file at `path` and loads it, stopped at its start
    /// (playing if `play`); the error is one line naming the file.
    pub fn open(&self, path: &Path, play: bool) -> Result<(), String> {
        let score = orchard_engine::midi::read(path)?;
        *self.file.lock().unwrap_or_else(PoisonError::into_inner) =
            Some((path.to_path_buf(), score));
        self.play_when_ready.store(play, Ordering::Release);
        let rate = self.shared.sample_rate.load(Ordering::Acquire);
        if rate > 0 {
            self.load(rate);
        }
        Ok(())
    }

    /// The audio runs at `sample_rate` Hz (`activate`): the open file is
    /// loaded at that rate, and plays if it was asked to.
    pub fn activated(&self, sample_rate: u32) {
        self.shared
            .sample_rate
            .store(sample_rate, Ordering::Release);
        self.load(sample_rate);
    }

    /// Sends the open file's score at `sample_rate` to the audio thread.
    fn load(&self, sample_rate: u32) {
        let score = self
            .file
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map(|(_, score)| score.at_rate(f64::from(sample_rate)));
        if let Some(score) = score {
            self.shared
                .length
                .store(score.end_sample(), Ordering::Relaxed);
            self.send(Command::Load(Box::new(score)));
            if self.play_when_ready.swap(false, Ordering::AcqRel) {
                self.send(Command::Play);
            }
        }
    }

    fn send(&self, command: Command) {
        // Free the scores the audio thread has replaced.
        while self
            .retired
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .is_ok()
        {}
        let _ = self
            .commands
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(command);
    }

    /// Plays from the position.
    pub fn play(&self) {
        self.send(Command::Play);
    }

    /// Stops where it is, letting go of every key and pedal.
    pub fn pause(&self) {
        self.send(Command::Pause);
    }

    /// Stops and goes back to the start.
    pub fn stop(&self) {
        self.send(Command::Stop);
    }

    /// Goes back to the start.
    pub fn rewind(&self) {
        self.send(Command::Rewind);
    }

    /// The file opened last.
    pub fn file(&self) -> Option<PathBuf> {
        self.file
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map(|(path, _)| path.clone())
    }

    /// Whether it is playing.
    pub fn is_playing(&self) -> bool {
        self.shared.playing.load(Ordering::Relaxed)
    }

    /// The audio's sample rate, Hz (0 before it runs).
    pub fn sample_rate(&self) -> u32 {
        self.shared.sample_rate.load(Ordering::Acquire)
    }

    /// The position and the file's length, seconds (0 before the audio runs).
    pub fn position_s(&self) -> (f64, f64) {
        let rate = f64::from(self.shared.sample_rate.load(Ordering::Acquire));
        if rate <= 0.0 {
            return (0.0, 0.0);
        }
        (
            self.shared.position.load(Ordering::Relaxed) as f64 / rate,
            self.shared.length.load(Ordering::Relaxed) as f64 / rate,
        )
    }
}

/// Events of two sources merged by offset (both in offset order): the
/// synthesiser takes them in non-decreasing order. Allocates nothing.
pub fn merge_by_offset(
    a: impl Iterator<Item = TimedEvent>,
    b: impl Iterator<Item = TimedEvent>,
) -> impl Iterator<Item = TimedEvent> {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(x), Some(y)) if y.offset < x.offset => b.next(),
        (Some(_), _) => a.next(),
        (None, _) => b.next(),
    })
}

#[cfg(test)]
mod tests {
    use orchard_engine::midi::{Score as Seconds, ScoreEvent};

    use super::*;

    const RATE: u32 = 1000;

    fn on(key: u8) -> SynthEvent {
        SynthEvent::NoteOn { key, velocity: 0.5 }
    }

    fn off(key: u8) -> SynthEvent {
        SynthEvent::NoteOff { key, velocity: 0.5 }
    }

    /// A transport and player with `events` (seconds, event) loaded at
    /// 1 kHz (one sample a millisecond).
    fn loaded(events: &[(f64, SynthEvent)], end_s: f64) -> (Transport, FilePlayer) {
        let (transport, mut player) = player();
        let score = Seconds::new(
            events
                .iter()
                .map(|&(time_s, event)| ScoreEvent { time_s, event })
                .collect(),
            end_s,
        );
        *transport.file.lock().unwrap() = Some(("test.mid".into(), score));
        transport.activated(RATE);
        player.prepare(0);
        (transport, player)
    }

    /// Plays blocks of `sizes` frames; every event with its sample from the
    /// start of this run. Nothing allocates.
    fn run(player: &mut FilePlayer, sizes: &[usize]) -> Vec<(u64, SynthEvent)> {
        let mut heard = Vec::with_capacity(64);
        let mut start = 0u64;
        for &frames in sizes {
            nice_assert_no_alloc::assert_no_alloc(|| {
                player.prepare(frames);
                for e in player.events() {
                    heard.push((start + e.offset as u64, e.event));
                }
            });
            start += frames as u64;
        }
        heard
    }

    #[test]
    fn events_land_on_their_samples_whatever_the_blocks() {
        let events = [
            (0.0, on(60)),
            (0.099, off(60)),
            (0.100, on(62)),
            (0.2555, SynthEvent::Sustain(1.0)),
            (0.300, off(62)),
        ];
        let expected: Vec<(u64, SynthEvent)> = events
            .iter()
            .map(|&(t, e)| ((t * f64::from(RATE)).round() as u64, e))
            .collect();
        for sizes in [vec![64; 8], vec![1000], vec![7, 93, 1, 99, 300]] {
            let (transport, mut player) = loaded(&events, 0.4);
            transport.play();
            let mut heard = run(&mut player, &sizes);
            // The end of the file lets go of the sustain pedal, at the end
            // of the block that reaches it.
            let release = heard.pop().unwrap();
            assert_eq!(release.1, SynthEvent::Sustain(0.0));
            assert!(release.0 >= 400, "{release:?}");
            assert_eq!(heard, expected, "blocks of {sizes:?}");
            assert!(!transport.is_playing());
        }
    }

    #[test]
    fn pause_and_stop_let_go_and_play_goes_on_from_the_position() {
        let events = [
            (0.010, on(60)),
            (0.010, SynthEvent::Sustain(1.0)),
            (0.020, on(64)),
            (0.500, off(60)),
            (0.500, off(64)),
        ];
        let (transport, mut player) = loaded(&events, 1.0);
        transport.play();
        assert_eq!(run(&mut player, &[32]).len(), 3);
        assert_eq!(transport.position_s(), (0.032, 1.0));
        transport.pause();
        // Every key and the pedal go up at the start of the next block.
        let released = run(&mut player, &[32]);
        let expected_release = [(0, off(60)), (0, off(64)), (0, SynthEvent::Sustain(0.0))];
        assert_eq!(released, expected_release);
        // Paused: the position holds.
        assert!(run(&mut player, &[100]).is_empty());
        assert_eq!(transport.position_s().0, 0.032);
        transport.play();
        // Goes on from 32 ms: the next events are the note-offs at 500 ms,
        // 468 frames into this run.
        let after = run(&mut player, &[600]);
        assert_eq!(after, [(468, off(60)), (468, off(64))]);
        // Stop goes back to the start; play plays the first note again.
        transport.stop();
        assert!(run(&mut player, &[5]).is_empty());
        assert_eq!(transport.position_s().0, 0.0);
        transport.play();
        assert_eq!(
            run(&mut player, &[15]),
            [(10, on(60)), (10, SynthEvent::Sustain(1.0))]
        );
    }

    #[test]
    fn merged_events_come_in_offset_order() {
        let at = |offset, key| TimedEvent {
            offset,
            event: on(key),
        };
        let a = [at(0, 1), at(5, 2), at(5, 3), at(9, 4)];
        let b = [at(0, 10), at(3, 11), at(5, 12), at(20, 13)];
        let merged: Vec<usize> = merge_by_offset(a.into_iter(), b.into_iter())
            .map(|e| e.offset)
            .collect();
        assert_eq!(merged, [0, 0, 3, 5, 5, 5, 9, 20]);
    }
}
