//! The MIDI controllers Orchard's VST3 hears, and where they sit among the
//! parameters nice-plug's wrapper registers.
//!
//! VST3 carries MIDI controllers to a plugin only as parameters the host
//! maps through `IMidiMapping`. nice-plug's wrapper registers one proxy
//! parameter for each of the 128 controllers, channel pressure and pitch
//! bend, on each of the 16 channels: 2080 parameters, which hosts load one
//! by one (pedalboard took over 30 s). Orchard offers the host only the
//! proxies of the controllers it plays or that MIDI learn is most often
//! bound to, on every channel: 144 parameters.

/// VST3's number for channel pressure among controller numbers
/// (`Steinberg::Vst::ControllerNumbers::kAfterTouch`).
pub const CHANNEL_PRESSURE: i16 = 128;
/// VST3's number for pitch bend among controller numbers
/// (`Steinberg::Vst::ControllerNumbers::kPitchBend`).
pub const PITCH_BEND: i16 = 129;

/// The controllers whose proxies the host sees: modulation wheel (1),
/// expression (11), sustain (64), sostenuto (66), una corda (67), all sound
/// off (120), all notes off (123), channel pressure and pitch bend.
pub const OFFERED: [i16; 9] = [1, 11, 64, 66, 67, 120, 123, CHANNEL_PRESSURE, PITCH_BEND];

/// MIDI channels, each with its own proxies.
pub const CHANNELS: i16 = 16;

/// Controller numbers a VST3 host may ask about: 0 to 127, channel pressure
/// and pitch bend.
pub const ALL: std::ops::Range<i16> = 0..PITCH_BEND + 1;

/// What a controller does, for its proxy's name.
fn role(controller: i16) -> &'static str {
    match controller {
        1 => "modulation",
        11 => "expression",
        64 => "sustain",
        66 => "sostenuto",
        67 => "una corda",
        120 => "all sound off",
        123 => "all notes off",
        CHANNEL_PRESSURE => "channel pressure",
        PITCH_BEND => "pitch bend",
        _ => "controller",
    }
}

/// The name a proxy is shown by: `MIDI CC 64 (sustain, channel 1)`.
/// `channel` counts from 0, as VST3's MIDI map does; the name counts from 1,
/// as players do. Names begin `MIDI CC `, as the proxies of plugins built
/// with JUCE do, so that hosts which know to pass over those (pedalboard
/// does) pass over these too instead of probing each.
pub fn proxy_name(channel: i16, controller: i16) -> String {
    format!(
        "MIDI CC {controller} ({}, channel {})",
        role(controller),
        channel + 1
    )
}

/// Whether the host is offered `controller`'s proxies.
pub fn is_offered(controller: i16) -> bool {
    OFFERED.contains(&controller)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pedals_and_the_usual_controls_are_offered_and_nothing_else() {
        for pedal in [64, 66, 67] {
            assert!(is_offered(pedal));
        }
        assert!(is_offered(PITCH_BEND) && is_offered(CHANNEL_PRESSURE));
        assert_eq!(ALL.filter(|&c| is_offered(c)).count(), OFFERED.len());
        assert!(!is_offered(7) && !is_offered(127) && !is_offered(-1));
    }

    #[test]
    fn proxies_are_named_by_controller_and_channel_from_one() {
        assert_eq!(proxy_name(0, 64), "MIDI CC 64 (sustain, channel 1)");
        assert_eq!(
            proxy_name(15, PITCH_BEND),
            "MIDI CC 129 (pitch bend, channel 16)"
        );
        assert!(
            OFFERED
                .iter()
                .all(|&c| proxy_name(3, c).starts_with("MIDI CC "))
        );
    }
}
