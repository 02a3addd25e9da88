//! The events a block plays: notes from the on-screen keyboard, then the
//! host's events, each controller among them first moving what MIDI learn
//! bound to it.

use nice_plug::midi::Key;
use nice_plug::prelude::*;
use orchard_engine::rt::{SynthEvent, TimedEvent};

use crate::learn::Movement;
use crate::link::{AudioLink, EditorLink};
use crate::params::OrchardParams;

/// The synthesiser's events for this block, in order: the on-screen
/// keyboard's notes at its start, then the host's events as they come
/// ([`learned`] handling each controller on the way). Lazy and
/// allocation-free: for the audio thread.
pub fn played<'a, P: Plugin<SysExMessage = ()>>(
    audio_link: &'a mut AudioLink,
    context: &'a mut impl ProcessContext<P>,
    params: &'a OrchardParams,
    link: &'a EditorLink,
    sample_rate_hz: f32,
) -> impl Iterator<Item = TimedEvent> + 'a {
    let on_screen =
        std::iter::from_fn(|| audio_link.next_note()).map(|event| TimedEvent { offset: 0, event });
    let from_host = std::iter::from_fn(move || context.next_event()).filter_map(move |event| {
        learned(&event, params, link, sample_rate_hz);
        synth_event(&event)
    });
    on_screen.chain(from_host)
}

/// MIDI learn on the audio thread: a controller in `event` is reported to
/// the editor (which binds the one that moves while it listens), and moves
/// the host parameters bound to it at once, gliding at `sample_rate_hz`
/// (its properties later, through the background thread).
fn learned(event: &NoteEvent<()>, params: &OrchardParams, link: &EditorLink, sample_rate_hz: f32) {
    if let Some(movement) = Movement::of_event(event) {
        link.report_controller(movement);
        params.controllers.receive(movement, |index, position| {
            params.move_param(index, position, sample_rate_hz);
        });
    }
}

/// Translates a host note event into a synthesiser event, if it is one Orchard plays.
fn synth_event(event: &NoteEvent<()>) -> Option<TimedEvent> {
    let key_number = |key: &Key| match key {
        Key::Number(n) => Some(*n),
        Key::Wildcard => None,
    };
    let event_now = match event {
        NoteEvent::NoteOn { key, velocity, .. } => SynthEvent::NoteOn {
            key: key_number(key)?,
            velocity: *velocity,
        },
        NoteEvent::NoteOff { key, velocity, .. } => SynthEvent::NoteOff {
            key: key_number(key)?,
            velocity: *velocity,
        },
        // A choked note stops as fast as a key can be let up.
        NoteEvent::Choke { key, .. } => SynthEvent::NoteOff {
            key: key_number(key)?,
            velocity: 1.0,
        },
        NoteEvent::MidiCC { cc, value, .. } => SynthEvent::from_controller(*cc, *value)?,
        _ => return None,
    };
    Some(TimedEvent {
        offset: event.timing() as usize,
        event: event_now,
    })
}
