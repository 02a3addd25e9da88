//! The grand piano's mechanics: its action (keys, hammers, dampers and three
//! pedals, [`Action`]) as the worker drives it, turning let-offs into strikes
//! and damper moves into damper operations.
//!
//! The action's settings are edited live by the preset's own property paths
//! (`action:blow_distance_m`, `hammers:start_gap_m`, `velocity:curve`,
//! `dampers:travel_s`…), declared with the preset's units, ranges and
//! descriptions: one path and one declaration per value, whether a preset
//! file, `render --set`, the editor or the worker changes it.

use super::action::{
    Action, ActionCommand, ActionEvent, ActionSettings, KEYS, LOWEST_NOTE, Setting,
};
use super::objects::{ActionSpec, DamperSet};
use crate::instrument::{HammerSet, Preset, Rebound};
use crate::mech::{Model, ModelState, StepAdjustment};
use crate::props::{PropertyAccess, PropertyError, PropertyInfo, PropertyTree};
use crate::rt::{DEFAULT_RELEASE_VELOCITY, Mechanics, Operation, Pedals, SynthEvent};

/// Action events one control period may produce: a let-off and a damper move
/// for every key, twice over.
const ACTION_EVENTS: usize = 4 * KEYS;

/// Which of the action's settings a preset value declared `live` is: the
/// preset object it belongs to, its field there, and the setting.
const LIVE_SETTINGS: &[(Owner, &str, Setting)] = &[
    (Owner::Action, "blow_distance_m", Setting::BlowDistance),
    (Owner::Action, "check_drop_m", Setting::CheckDrop),
    (Owner::Action, "restitution", Setting::Restitution),
    (Owner::Action, "key_return_s", Setting::KeyReturn),
    (Owner::Action, "repetition_rise", Setting::RepetitionRise),
    (Owner::Action, "realistic_travel", Setting::RealisticTravel),
    (Owner::Hammers, "start_gap_m", Setting::LetOff),
    (Owner::Dampers, "travel_s", Setting::DamperTravel),
    (Owner::Velocity, "softest_speed_m_s", Setting::SoftestSpeed),
    (Owner::Velocity, "hardest_speed_m_s", Setting::HardestSpeed),
    (Owner::Velocity, "curve", Setting::Curve),
];

/// The part of a preset a live setting belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    Action,
    Hammers,
    Dampers,
    Velocity,
}

/// A setting the worker may change while the action plays.
#[derive(Debug, Clone)]
struct LiveSetting {
    /// Its preset path (`action:blow_distance_m`).
    path: String,
    /// Which setting of the action it is.
    setting: Setting,
    /// What it is in the preset: declaration and range.
    info: PropertyInfo,
    /// Its value in the preset.
    value: f64,
}

/// A grand action and the events of its present step.
#[derive(Debug)]
pub struct PianoMechanics {
    action: Action,
    /// The action's events of the present step (time s, event).
    events: Vec<(f64, ActionEvent)>,
    /// What the worker may edit, by preset path.
    live: Vec<LiveSetting>,
}

impl PianoMechanics {
    /// The action of `preset` with `settings`, every key at rest; its
    /// settings are edited by `preset`'s paths.
    ///
    /// Allocates: the action's queues, the event buffer and the declarations.
    pub fn new(settings: ActionSettings, preset: &Preset) -> Self {
        Self {
            action: Action::new(settings),
            events: Vec::with_capacity(ACTION_EVENTS),
            live: live_settings(preset),
        }
    }

    fn live(&self, path: &str) -> Option<&LiveSetting> {
        self.live.iter().find(|setting| setting.path == path)
    }

    /// The action.
    pub fn action(&self) -> &Action {
        &self.action
    }

    /// `previous` as a grand's mechanics, if it is one.
    fn grand(previous: &dyn Mechanics) -> Option<&Action> {
        previous
            .as_any()
            .downcast_ref::<PianoMechanics>()
            .map(|m| &m.action)
    }
}

impl Model for PianoMechanics {
    fn initialize(&mut self, t: f64) {
        self.action.initialize(t);
    }

    fn preadvance(&mut self, t0: f64, t1: f64) -> Option<StepAdjustment> {
        self.action.preadvance(t0, t1)
    }

    fn advance(&mut self, t0: f64, t1: f64) -> Option<StepAdjustment> {
        self.action.advance(t0, t1)
    }

    fn max_step_size(&self) -> Option<f64> {
        self.action.max_step_size()
    }

    fn save_state(&self) -> ModelState {
        self.action.save_state()
    }

    fn may_reject_steps(&self) -> bool {
        self.action.may_reject_steps()
    }

    fn restore_state(&mut self, state: &ModelState) {
        self.action.restore_state(state);
    }
}

/// Reads and sets the action's settings by their preset paths, within the
/// preset's ranges, and reads its motion (`pedals:sustain`,
/// `pedals:una_corda`).
impl PropertyAccess for PianoMechanics {
    fn property(&self, path: &str) -> Option<f64> {
        match self.live(path) {
            Some(live) => Some(self.action.settings().get(live.setting)),
            None => self.action.property(path),
        }
    }

    fn set_property(&mut self, path: &str, value: f64) -> Result<(), PropertyError> {
        let live = self
            .live(path)
            .ok_or_else(|| PropertyError::UnknownPath(path.to_string()))?;
        live.info.check(path, value)?;
        let setting = live.setting;
        self.action.set_setting(setting, value);
        Ok(())
    }
}

/// The name of `preset`'s first object that is a `T`.
fn first<T: 'static>(preset: &Preset) -> Option<String> {
    let (name, _) = preset.objects.of::<T>().next()?;
    Some(name.to_string())
}

/// The settings of `preset`'s action that the worker may edit live: the
/// fields of its action, hammers, dampers and velocity curve declared
/// `live`, by the preset's paths, as the preset describes them.
fn live_settings(preset: &Preset) -> Vec<LiveSetting> {
    let component = |owner| match owner {
        Owner::Action => first::<ActionSpec>(preset),
        Owner::Hammers => first::<HammerSet>(preset),
        Owner::Dampers => first::<DamperSet>(preset),
        Owner::Velocity => Some("velocity".to_string()),
    };
    LIVE_SETTINGS
        .iter()
        .filter_map(|&(owner, field, setting)| {
            let path = format!("{}:{field}", component(owner)?);
            let info = preset.property_info(&path).filter(|info| info.live)?;
            let value = preset.get(&path)?;
            Some(LiveSetting {
                path,
                setting,
                info,
                value,
            })
        })
        .collect()
}

impl Mechanics for PianoMechanics {
    fn perform(&mut self, t_s: f64, event: SynthEvent, _now: &mut dyn FnMut(Operation)) {
        let action = &mut self.action;
        let mut command = |c| {
            action.command(t_s, c);
        };
        match event {
            SynthEvent::NoteOn { key, velocity } if velocity > 0.0 => {
                let velocity = (velocity.min(1.0) * 127.0).round().max(1.0) as u8;
                command(ActionCommand::KeyDown {
                    note: key,
                    velocity,
                });
            }
            // Velocity 0 (or NaN) is a note-off, as in MIDI.
            SynthEvent::NoteOn { key, .. } => command(ActionCommand::KeyUp {
                note: key,
                velocity: f64::from(DEFAULT_RELEASE_VELOCITY),
            }),
            SynthEvent::NoteOff { key, velocity } => command(ActionCommand::KeyUp {
                note: key,
                velocity: f64::from(velocity),
            }),
            SynthEvent::Sustain(depth) => {
                command(ActionCommand::Sustain(f64::from(depth).clamp(0.0, 1.0)));
            }
            SynthEvent::Sostenuto(down) => command(ActionCommand::Sostenuto(down)),
            SynthEvent::UnaCorda(depth) => {
                command(ActionCommand::UnaCorda(f64::from(depth).clamp(0.0, 1.0)));
            }
            SynthEvent::AllNotesOff => {
                for key in 0..KEYS as u8 {
                    command(ActionCommand::KeyUp {
                        note: LOWEST_NOTE + key,
                        velocity: f64::from(DEFAULT_RELEASE_VELOCITY),
                    });
                }
                command(ActionCommand::Sustain(0.0));
                command(ActionCommand::Sostenuto(false));
            }
            SynthEvent::AllSoundOff => {}
        }
    }

    fn rebound(&mut self, t_s: f64, key: u8, rebound: &Rebound) {
        self.action.command(
            t_s,
            ActionCommand::Rebound {
                note: key,
                speed: rebound.speed_m_s,
            },
        );
    }

    fn drain_operations(&mut self, out: &mut dyn FnMut(Operation)) {
        self.action.drain_events(&mut self.events);
        let shifted = self.action.una_corda() >= 0.5;
        for &(_, event) in &self.events {
            match event {
                ActionEvent::LetOff {
                    note,
                    speed,
                    key_speed,
                } => {
                    out(Operation::Strike {
                        key: note,
                        speed_m_s: speed,
                        shifted,
                    });
                    // The key goes on down to the keybed: the piano's
                    // collision sites are its keys.
                    out(Operation::Impact {
                        site: note,
                        speed_m_s: key_speed,
                    });
                }
                ActionEvent::Damper { note, amount } => {
                    out(Operation::Damper { key: note, amount });
                }
            }
        }
        self.events.clear();
    }

    fn reset(&mut self) {
        self.action.reset();
        self.events.clear();
    }

    fn continue_from(&mut self, previous: &dyn Mechanics) {
        if let Some(old) = Self::grand(previous) {
            self.action.continue_from(old);
        }
    }

    fn continue_motion_from(&mut self, previous: &dyn Mechanics) {
        if let Some(old) = Self::grand(previous) {
            self.action.continue_motion_from(old);
        }
    }

    fn declare_properties(&self, tree: &mut PropertyTree) {
        for setting in &self.live {
            let (component, _) = setting
                .path
                .split_once(':')
                .expect("a preset path has a component");
            tree.add_component(component);
            tree.declare(component, setting.info, setting.value);
        }
    }

    fn striker_travel(&self, key: u8) -> Option<f64> {
        self.action.hammer_travel(key)
    }

    fn damper(&self, key: u8) -> Option<f64> {
        self.action.damper(key)
    }

    fn key_down(&self, key: u8) -> Option<bool> {
        self.action.key_down(key)
    }

    fn pedals(&self) -> Pedals {
        Pedals {
            sustain: self.action.sustain(),
            sostenuto: self.action.sostenuto(),
            una_corda: self.action.una_corda(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::grand_piano::GrandPiano;
    use crate::rt::Family;

    /// Every setting the worker edits is a path of the preset, described as
    /// the preset describes it (its declaration and range), reading the
    /// value the preset gives; every field of the action's parts declared
    /// `live` is one of them; an edit reaches the action, and an edit out of
    /// the preset's range is refused.
    #[test]
    fn the_worker_edits_the_presets_own_paths_as_the_preset_declares_them() {
        let grand = Preset::default_grand();
        let mut mechanics = GrandPiano.mechanics(&grand);
        let mut tree = PropertyTree::new();
        mechanics.declare_properties(&mut tree);
        let explicit = tree.explicit_values();
        assert_eq!(explicit.len(), LIVE_SETTINGS.len(), "{explicit:?}");
        for (path, &value) in &explicit {
            let declared = grand.property_info(path).expect("a preset path");
            assert_eq!(tree.info(path), Ok(&declared), "{path}");
            assert!(declared.live, "{path}");
            assert_eq!(Some(value), grand.get(path), "{path}");
            assert_eq!(mechanics.property(path), Some(value), "{path}");
        }
        for component in ["action", "hammers", "dampers", "velocity"] {
            let declared_live = grand
                .components()
                .into_iter()
                .find(|c| c.path == component)
                .unwrap()
                .properties
                .into_iter()
                .map(|name| format!("{component}:{name}"))
                .filter(|path| grand.property_info(path).unwrap().live);
            for path in declared_live {
                assert!(explicit.contains_key(&path), "{path} is declared live");
            }
        }
        mechanics.set_property("velocity:curve", 2.0).unwrap();
        assert_eq!(mechanics.property("velocity:curve"), Some(2.0));
        assert!(
            mechanics
                .set_property("action:blow_distance_m", 1.0)
                .is_err()
        );
        // The action model's own names are not the worker's.
        assert!(mechanics.set_property("action:curve", 2.0).is_err());
    }
}
