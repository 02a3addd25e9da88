//! The room as a playing synthesiser holds it: the room the sound goes into,
//! and the room whose walls it replaced, ringing out.

use super::Room;

/// The running room, if any, and the one it replaced while that rings out.
///
/// New walls (a room of another geometry) take the sound from the next
/// sample, starting from the dry level the old room left, while the old
/// room's tail rings on; a room switched off stops taking the sound in and
/// rings out, the dry sound gliding back to full level; a room of the same
/// walls takes the new values in place. Nothing allocates or frees here: a
/// room let go is handed back to be freed by whoever installed the new one.
#[derive(Debug, Default)]
pub struct LiveRoom {
    running: Option<Box<Room>>,
    fading: Option<Box<Room>>,
}

impl LiveRoom {
    /// Heard in `room` from the start (none: dry).
    pub fn new(room: Option<Box<Room>>) -> Self {
        Self {
            running: room,
            fading: None,
        }
    }

    /// The room the sound goes into, if any.
    pub fn running(&self) -> Option<&Room> {
        self.running.as_deref()
    }

    /// Takes the room of an instrument being installed (none: the new
    /// instrument is heard dry). Leaves in `incoming` the room that is let
    /// go, if any, for the caller to free off the audio thread.
    pub fn install(&mut self, incoming: &mut Option<Box<Room>>) {
        if let (Some(running), Some(new)) = (self.running.as_mut(), incoming.as_ref())
            && running.retune(new.spec())
        {
            return;
        }
        match (self.running.as_mut(), incoming.as_mut()) {
            (running, Some(new)) => {
                new.continue_levels_from(running.map(|room| &**room));
                let replaced = std::mem::replace(&mut self.running, incoming.take());
                if replaced.is_some() {
                    *incoming = std::mem::replace(&mut self.fading, replaced);
                }
            }
            (Some(running), None) => running.stop_feeding(),
            (None, None) => {}
        }
    }

    /// Mixes the room into `left` and `right` in place, and adds the tail of
    /// the room it replaced.
    pub fn process(&mut self, left: &mut [f32], right: &mut [f32]) {
        if let Some(room) = self.running.as_mut() {
            room.process(left, right);
        }
        if let Some(room) = self.fading.as_mut() {
            room.ring_out(left, right);
        }
    }

    /// Whether either room may still be heard.
    pub fn is_ringing(&self) -> bool {
        [&self.running, &self.fading]
            .into_iter()
            .flatten()
            .any(|room| room.is_ringing())
    }

    /// Silence in both rooms.
    pub fn reset(&mut self) {
        for room in [&mut self.running, &mut self.fading].into_iter().flatten() {
            room.reset();
        }
    }
}
