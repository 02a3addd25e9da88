//! The lock-free link between the editor (GUI thread) and `process` (audio
//! thread).
//!
//! Everything that crosses to the audio thread is an atomic or a wait-free
//! single-producer single-consumer queue (rtrb): notes played on the on-screen
//! keyboard go in, the output samples for the scope come out. (Edits reach the
//! plugin through the instrument state's version counter, in
//! [`crate::params::VersionedState`].) The locks here (`Mutex`) guard only
//! the GUI's own ends and the views' slot, which `activate` fills; `process`
//! never touches them.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use orchard_engine::rt::{SynthEvent, Views};
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
}
