//! The parameters Orchard's VST3 shows a host: its own, and the MIDI
//! controller proxies of the controllers it plays (modulation, expression,
//! the three pedals, all sound off, all notes off, channel pressure and
//! pitch bend) on all 16 channels, not nice-plug's 2080. The host's MIDI map
//! leads each of those controllers to a parameter it sees, and no other
//! controller anywhere. (That the pedals play through the map is checked in
//! a real host: `.ci/vst3_host_test.py`.)

use std::collections::{HashMap, HashSet};

use vst3::Steinberg::Vst::{IEditControllerTrait, IMidiMapping, IMidiMappingTrait, ParameterInfo};
use vst3::Steinberg::{IPluginBaseTrait, kResultFalse, kResultOk};

#[path = "support/vst3_module.rs"]
mod vst3_module;

/// VST3's `kIsHidden` parameter flag: the proxies carry it.
const IS_HIDDEN: i32 = 1 << 4;
/// Orchard's own host parameters (the plugin's `PARAM_IDS`).
const OWN_PARAMETERS: usize = 19;
/// The controllers offered: 1, 11, 64, 66, 67, 120, 123, channel pressure
/// (128) and pitch bend (129).
const OFFERED: [i16; 9] = [1, 11, 64, 66, 67, 120, 123, 128, 129];

/// A parameter's title as text.
fn title(info: &ParameterInfo) -> String {
    let end = info
        .title
        .iter()
        .position(|&c| c == 0)
        .unwrap_or(info.title.len());
    String::from_utf16_lossy(&info.title[..end])
}

#[test]
fn the_host_sees_the_proxies_orchard_plays_and_no_others() {
    let module = vst3_module::Module::load();
    let (component, controller) = module.instance();
    // SAFETY: VST3 calls on live objects with valid arguments.
    unsafe {
        let count = controller.getParameterCount();
        let mut own = Vec::new();
        let mut proxies = HashSet::new();
        let mut names = HashMap::new();
        for index in 0..count {
            let mut info: ParameterInfo = std::mem::zeroed();
            assert_eq!(controller.getParameterInfo(index, &mut info), kResultOk);
            if info.flags & IS_HIDDEN == 0 {
                own.push(info.id);
            } else {
                assert!(proxies.insert(info.id), "id {} twice", info.id);
                names.insert(info.id, title(&info));
            }
        }
        assert_eq!(own.len(), OWN_PARAMETERS);
        assert_eq!(proxies.len(), 16 * OFFERED.len());
        assert_eq!(count as usize, OWN_PARAMETERS + 16 * OFFERED.len());
        let mut info: ParameterInfo = std::mem::zeroed();
        assert_ne!(controller.getParameterInfo(count, &mut info), kResultOk);
        assert_ne!(controller.getParameterInfo(-1, &mut info), kResultOk);

        let mapping: vst3::ComPtr<IMidiMapping> = component.cast().expect("a MIDI map");
        let mut mapped = HashSet::new();
        for channel in 0..16 {
            for controller_number in 0..130 {
                let mut id = u32::MAX;
                let found =
                    mapping.getMidiControllerAssignment(0, channel, controller_number, &mut id);
                if OFFERED.contains(&controller_number) {
                    assert_eq!(found, kResultOk, "controller {controller_number}");
                    assert!(
                        proxies.contains(&id),
                        "controller {controller_number} -> {id}"
                    );
                    assert!(mapped.insert(id));
                } else {
                    assert_eq!(found, kResultFalse, "controller {controller_number}");
                }
            }
        }
        assert_eq!(mapped, proxies, "every proxy the host sees is mapped, once");
        // Named as the proxies of JUCE's plugins begin (hosts pass over
        // those), with what each does and its channel counted from 1.
        let mut sustain = 0;
        mapping.getMidiControllerAssignment(0, 3, 64, &mut sustain);
        assert_eq!(names[&sustain], "MIDI CC 64 (sustain, channel 4)");
        let mut bend = 0;
        mapping.getMidiControllerAssignment(0, 15, 129, &mut bend);
        assert_eq!(names[&bend], "MIDI CC 129 (pitch bend, channel 16)");
        assert_eq!(component.terminate(), kResultOk);
    }
    drop(controller);
    drop(component);
    module.exit();
}
