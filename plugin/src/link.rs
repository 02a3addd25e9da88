//! The lock-free link between the editor (GUI thread) and `process` (audio
//! thread).
//!
//! Everything that crosses to the audio thread is an atomic or a wait-free
//! single-producer single-consumer queue (rtrb): notes played on the on-screen
//! keyboard go in, the output samples for the scope come out, and so does
//! the last MIDI controller the audio thread saw (for MIDI learn). (Edits reach the
//! plugin through the instrument state's version counter, in
//! [`crate::params::VersionedState`].) The locks here (`Mutex`) guard only
//! the GUI's own ends and the views' slot, which `activate` fills; `process`
//! never touches them.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use orchard_engine::rt::{SynthEvent, Views};

use crate::learn::{Control, Movement};
use rtrb::{Consumer, Producer, RingBuffer};

/// Notes the on-screen keyboard may queue between two audio blocks.
const NOTE_QUEUE: usize = 256;
/// Output frames the scope can hold between two GUI frames (over 0.3 s at 192 kHz).
pub const SCOPE_FRAMES: usize = 1 << 16;

/// The editor's side of the link, shared with the plugin.
pub struct EditorLink {
    /// Notes from the on-screen keyboard (the GUI's end).
    pub(crate) notes: Mutex<Producer<SynthEvent>>,
    /// The output, frame by frame (the GUI's end).
    pub(crate) scope: Mutex<Consumer<[f32; 2]>>,
    /// Whether an editor is open and reads the scope.
    scope_wanted: AtomicBool,
    /// The running synthesiser's views (mechanics and meters), set at `activate`.
    pub(crate) views: Mutex<Option<Views>>,
    /// The last controller movement the audio thread saw: a count of
    /// movements (bits 32–63), the control's code (bits 8–15) and the
    /// channel (bits 0–7); 0 before the first.
    last_controller: AtomicU64,
}

/// The last controller movement seen, as [`EditorLink::last_controller`]
/// reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeenController {
    /// How many movements the audio thread had seen with this one (wraps):
    /// a new movement has a new count.
    pub count: u32,
    /// The controller.
    pub control: Control,
    /// Its channel, 0 to 15.
    pub channel: u8,
}

/// The audio thread's side of the link, owned by the plugin.
pub struct AudioLink {
    notes: Consumer<SynthEvent>,
    scope: Producer<[f32; 2]>,
}

/// A new link: the editor's side (to share) and the audio thread's.
pub fn link() -> (EditorLink, AudioLink) {
    let (note_producer, note_consumer) = RingBuffer::new(NOTE_QUEUE);
    let (scope_producer, scope_consumer) = RingBuffer::new(SCOPE_FRAMES);
    let editor = EditorLink {
        notes: Mutex::new(note_producer),
        scope: Mutex::new(scope_consumer),
        scope_wanted: AtomicBool::new(false),
        views: Mutex::new(None),
        last_controller: AtomicU64::new(0),
    };
    let audio = AudioLink {
        notes: note_consumer,
        scope: scope_producer,
    };
    (editor, audio)
}

impl EditorLink {
    /// Queues a note from the on-screen keyboard; false if the queue is full
    /// (the audio thread is not running).
    pub fn play(&self, event: SynthEvent) -> bool {
        self.notes
            .lock()
            .map(|mut notes| notes.push(event).is_ok())
            .unwrap_or(false)
    }

    /// Starts or stops sending the output to the scope.
    pub fn want_scope(&self, wanted: bool) {
        self.scope_wanted.store(wanted, Ordering::Release);
    }

    /// Takes every output frame sent since the last call, oldest first.
    pub fn drain_scope(&self, mut frame: impl FnMut([f32; 2])) {
        if let Ok(mut scope) = self.scope.lock() {
            while let Ok(f) = scope.pop() {
                frame(f);
            }
        }
    }

    /// Hands over a new synthesiser's views (at `activate`, off the audio thread).
    pub fn set_views(&self, views: Option<Views>) {
        if let Ok(mut slot) = self.views.lock() {
            *slot = views;
        }
    }

    /// Reports a controller movement to the editor (for MIDI learn).
    /// Wait-free; for the audio thread, the only writer.
    pub fn report_controller(&self, movement: Movement) {
        let Some(code) = movement.control.code() else {
            return;
        };
        let count = (self.last_controller.load(Ordering::Acquire) >> 32).wrapping_add(1) as u32;
        let packed = u64::from(count) << 32 | u64::from(code) << 8 | u64::from(movement.channel);
        self.last_controller.store(packed, Ordering::Release);
    }

    /// The last controller movement the audio thread reported, if any.
    pub fn last_controller(&self) -> Option<SeenController> {
        let packed = self.last_controller.load(Ordering::Acquire);
        let count = (packed >> 32) as u32;
        if count == 0 && packed == 0 {
            return None;
        }
        Some(SeenController {
            count,
            control: Control::from_code((packed >> 8) as u8)?,
            channel: packed as u8,
        })
    }

    /// Reads the views, if a synthesiser is running.
    pub fn with_views<R>(&self, read: impl FnOnce(&mut Views) -> R) -> Option<R> {
        self.views.lock().ok()?.as_mut().map(read)
    }
}

impl AudioLink {
    /// The notes the on-screen keyboard played since the last block.
    /// Wait-free; for the audio thread.
    pub fn next_note(&mut self) -> Option<SynthEvent> {
        self.notes.pop().ok()
    }

    /// Sends a block of output to the scope if an editor wants it (as much as
    /// fits; the rest is dropped). Wait-free; for the audio thread.
    pub fn send_scope(&mut self, link: &EditorLink, left: &[f32], right: &[f32]) {
        if !link.scope_wanted.load(Ordering::Acquire) {
            return;
        }
        for (&l, &r) in left.iter().zip(right) {
            if self.scope.push([l, r]).is_err() {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_cross_in_order_and_the_scope_only_when_wanted() {
        let (editor, mut audio) = link();
        assert!(editor.play(SynthEvent::NoteOn {
            key: 60,
            velocity: 0.5
        }));
        assert!(editor.play(SynthEvent::NoteOff {
            key: 60,
            velocity: 0.5
        }));
        assert!(matches!(
            audio.next_note(),
            Some(SynthEvent::NoteOn { key: 60, .. })
        ));
        assert!(matches!(
            audio.next_note(),
            Some(SynthEvent::NoteOff { key: 60, .. })
        ));
        assert!(audio.next_note().is_none());

        let block = [0.25f32; 64];
        audio.send_scope(&editor, &block, &block);
        let mut frames = 0;
        editor.drain_scope(|_| frames += 1);
        assert_eq!(frames, 0, "no editor asked for the scope");
        editor.want_scope(true);
        audio.send_scope(&editor, &block, &block);
        editor.drain_scope(|f| {
            assert_eq!(f, [0.25, 0.25]);
            frames += 1;
        });
        assert_eq!(frames, 64);
    }

    #[test]
    fn each_controller_movement_reaches_the_editor_with_a_new_count() {
        let (editor, _audio) = link();
        assert_eq!(editor.last_controller(), None);
        let bend = Movement {
            control: Control::PitchBend,
            channel: 9,
            position: 0.5,
        };
        editor.report_controller(bend);
        let first = editor.last_controller().unwrap();
        assert_eq!((first.control, first.channel), (Control::PitchBend, 9));
        editor.report_controller(bend);
        let second = editor.last_controller().unwrap();
        assert_ne!(
            first.count, second.count,
            "the same controller again is news"
        );
        editor.report_controller(Movement {
            control: Control::Cc { number: 1 },
            channel: 0,
            position: 1.0,
        });
        let third = editor.last_controller().unwrap();
        assert_eq!(
            (third.control, third.channel),
            (Control::Cc { number: 1 }, 0)
        );
    }
}
