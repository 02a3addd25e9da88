//! The devices the window's Devices panel offers: the backends, ALSA's
//! audio outputs and MIDI inputs by the names nice-plug's standalone
//! wrapper matches (`--output-device`, `--midi-input`), and the JACK MIDI
//! output ports a running JACK server has.

use orchard::standalone::DeviceLists;

/// The backends, as `--backend` takes them.
pub const BACKENDS: [&str; 4] = ["auto", "jack", "alsa", "dummy"];

/// The devices there are now.
pub fn list() -> DeviceLists {
    DeviceLists {
        backends: BACKENDS.iter().map(|b| b.to_string()).collect(),
        outputs: alsa_outputs(),
        alsa_midi_inputs: alsa_midi_inputs(),
        jack_midi_ports: jack_midi_ports(),
    }
}

/// ALSA's audio output devices (none without a sound card).
fn alsa_outputs() -> Vec<String> {
    use cpal::traits::{DeviceTrait, HostTrait};
    if !super::alsa_has_sound_card() {
        return Vec::new();
    }
    let Ok(host) = cpal::host_from_id(cpal::HostId::Alsa) else {
        return Vec::new();
    };
    host.output_devices()
        .map(|devices| {
            devices
                .filter_map(|d| d.description().ok().map(|d| d.name().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// ALSA's MIDI inputs.
fn alsa_midi_inputs() -> Vec<String> {
    let Ok(input) = midir::MidiInput::new("orchard-devices") else {
        return Vec::new();
    };
    input
        .ports()
        .iter()
        .filter_map(|port| input.port_name(port).ok())
        .collect()
}

/// The JACK MIDI output ports (none without a JACK server).
fn jack_midi_ports() -> Vec<String> {
    super::jack_server()
        .map(|client| client.ports(None, Some("8 bit raw midi"), jack::PortFlags::IS_OUTPUT))
        .unwrap_or_default()
}
