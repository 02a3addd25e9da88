//! The bindings as both sides see them: a list the editor and the host's
//! state change (behind a lock the audio thread never takes), mirrored into
//! a fixed table of atomic slots that `process` reads wait-free.
//!
//! Each slot holds one binding's route (its source and its target, packed in
//! one atomic word, so a reader never sees half of a change) and the last
//! position its controller moved it to. A host parameter moves at once on
//! the audio thread; a property's slot is marked moved and waits for a
//! background task to turn the latest position into an edit (only the latest
//! counts, however many messages came).

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Mutex, PoisonError};

use nice_plug::params::persist::PersistentField;

use super::binding::{Binding, BindingList, BindingTarget};
use super::controller::Movement;
use crate::host_params::PARAM_IDS;

/// The most bindings a plugin holds.
pub const MAX_BINDINGS: usize = 64;

/// A route's "in use" bit.
const ACTIVE: u32 = 1 << 31;
/// The channel field's value for "any channel".
const ANY_CHANNEL: u32 = 16;
/// The target field's value for a property.
const PROPERTY: u32 = 255;

/// One binding as the audio thread reads it.
#[derive(Debug, Default)]
struct Slot {
    /// [`ACTIVE`], the target (bits 16–23: a parameter's index in
    /// [`PARAM_IDS`], or [`PROPERTY`]), the channel (bits 8–12, 0–15 or
    /// [`ANY_CHANNEL`]) and the control's code (bits 0–7); 0 when unused.
    route: AtomicU32,
    /// The last position, 0 to 1, as `f32` bits (properties only).
    position: AtomicU32,
    /// Whether the property moved since the last application.
    moved: AtomicBool,
}

/// What a route sends a movement to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    /// The host parameter with this index in [`PARAM_IDS`].
    Param(usize),
    /// The slot's property.
    Property,
}

/// Packs `binding` as a route; 0 (unused) if its source is not valid or its
/// parameter unknown to this build.
fn pack(binding: &Binding) -> u32 {
    let Some(code) = binding
        .source
        .control
        .code()
        .filter(|_| binding.source.is_valid())
    else {
        return 0;
    };
    let target = match &binding.target {
        BindingTarget::Param { id } => match PARAM_IDS.iter().position(|p| p == id) {
            Some(index) => index as u32,
            None => return 0,
        },
        BindingTarget::Property { .. } => PROPERTY,
    };
    let channel = binding.source.channel.map_or(ANY_CHANNEL, u32::from);
    ACTIVE | target << 16 | channel << 8 | u32::from(code)
}

/// Where a packed route sends `movement`, if it matches.
fn route(packed: u32, movement: Movement) -> Option<Route> {
    if packed & ACTIVE == 0 || Some((packed & 0xff) as u8) != movement.control.code() {
        return None;
    }
    let channel = (packed >> 8) & 0x1f;
    if channel != ANY_CHANNEL && channel != u32::from(movement.channel) {
        return None;
    }
    Some(match (packed >> 16) & 0xff {
        PROPERTY => Route::Property,
        index => Route::Param(index as usize),
    })
}

/// Every binding of one plugin instance.
#[derive(Debug)]
pub struct ControllerMap {
    /// The bindings, slot by slot (off the audio thread: it locks).
    list: Mutex<BindingList>,
    slots: [Slot; MAX_BINDINGS],
    /// Whether any property moved since the last application.
    properties_moved: AtomicBool,
    /// Whether an application is queued or running.
    applying: AtomicBool,
    /// Bit `i`: the parameter `PARAM_IDS[i]` moved since the editor last
    /// told the host.
    params_moved: AtomicU32,
    /// The position (0 to 1, `f32` bits) controllers last gave each
    /// parameter, in the order of [`PARAM_IDS`].
    param_positions: [AtomicU32; PARAM_IDS.len()],
}

impl Default for ControllerMap {
    fn default() -> Self {
        Self {
            list: Mutex::default(),
            slots: std::array::from_fn(|_| Slot::default()),
            properties_moved: AtomicBool::new(false),
            applying: AtomicBool::new(false),
            params_moved: AtomicU32::new(0),
            param_positions: std::array::from_fn(|_| AtomicU32::new(0)),
        }
    }
}

impl ControllerMap {
    /// The bindings (off the audio thread: it locks).
    pub fn bindings(&self) -> Vec<Binding> {
        self.lock().0.clone()
    }

    /// Adds `binding` (nothing if it is there already); an error in words if
    /// the table is full or the source is not a control.
    pub fn bind(&self, binding: Binding) -> Result<(), String> {
        if !binding.source.is_valid() {
            return Err(format!("{} cannot be bound", binding.source.label()));
        }
        let mut list = self.lock();
        if list.0.contains(&binding) {
            return Ok(());
        }
        if list.0.len() >= MAX_BINDINGS {
            return Err(format!(
                "all {MAX_BINDINGS} MIDI bindings are in use: forget one first"
            ));
        }
        list.0.push(binding);
        self.mirror(&list.0);
        Ok(())
    }

    /// Removes every binding `forget` picks.
    pub fn forget(&self, forget: impl Fn(&Binding) -> bool) {
        let mut list = self.lock();
        list.0.retain(|binding| !forget(binding));
        self.mirror(&list.0);
    }

    /// Replaces every binding (a state the host loaded). Past
    /// [`MAX_BINDINGS`] they are dropped.
    pub fn replace(&self, mut bindings: Vec<Binding>) {
        bindings.truncate(MAX_BINDINGS);
        let mut list = self.lock();
        list.0 = bindings;
        self.mirror(&list.0);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BindingList> {
        self.list.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes `list` into the slots (a movement waiting in a slot whose
    /// binding changed is dropped).
    fn mirror(&self, list: &[Binding]) {
        for (index, slot) in self.slots.iter().enumerate() {
            slot.moved.store(false, Ordering::Release);
            slot.route
                .store(list.get(index).map_or(0, pack), Ordering::Release);
        }
    }

    /// Sends `movement` to every binding of its controller: a host
    /// parameter through `set_param(index in PARAM_IDS, position)`, at
    /// once; a property's position is kept for [`Self::take_property_moves`].
    /// Wait-free, allocates nothing: for the audio thread.
    pub fn receive(&self, movement: Movement, mut set_param: impl FnMut(usize, f32)) {
        for slot in &self.slots {
            match route(slot.route.load(Ordering::Acquire), movement) {
                None => {}
                Some(Route::Param(index)) => {
                    set_param(index, movement.position);
                    if let Some(position) = self.param_positions.get(index) {
                        position.store(movement.position.to_bits(), Ordering::Release);
                        self.params_moved.fetch_or(1 << index, Ordering::AcqRel);
                    }
                }
                Some(Route::Property) => {
                    slot.position
                        .store(movement.position.to_bits(), Ordering::Release);
                    slot.moved.store(true, Ordering::Release);
                    self.properties_moved.store(true, Ordering::Release);
                }
            }
        }
    }

    /// Whether properties moved and no application is queued or running; if
    /// so, the caller must queue one (which ends with
    /// [`Self::applied`]). Wait-free: for the audio thread.
    pub fn claim_application(&self) -> bool {
        self.properties_moved.load(Ordering::Acquire) && !self.applying.swap(true, Ordering::AcqRel)
    }

    /// The properties moved since the last call, each with the latest
    /// position its controller gave it (off the audio thread: it locks).
    pub fn take_property_moves(&self) -> Vec<(String, f32)> {
        self.properties_moved.store(false, Ordering::Release);
        let list = self.lock();
        self.slots
            .iter()
            .zip(&list.0)
            .filter(|(slot, _)| slot.moved.swap(false, Ordering::AcqRel))
            .filter_map(|(slot, binding)| match &binding.target {
                BindingTarget::Property { path } => Some((
                    path.clone(),
                    f32::from_bits(slot.position.load(Ordering::Acquire)),
                )),
                BindingTarget::Param { .. } => None,
            })
            .collect()
    }

    /// The application claimed by [`Self::claim_application`] is done.
    pub fn applied(&self) {
        self.applying.store(false, Ordering::Release);
    }

    /// The parameters controllers moved since the last call, each as its
    /// index in [`PARAM_IDS`] and the normalised position the last
    /// controller gave it (for the editor to tell the host: the position,
    /// not the parameter's value, which the host's answer to an earlier
    /// report may have set back for a moment).
    pub fn take_moved_params(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        let moved = self.params_moved.swap(0, Ordering::AcqRel);
        (0..PARAM_IDS.len())
            .filter(move |index| moved & (1 << index) != 0)
            .map(|index| {
                let bits = self.param_positions[index].load(Ordering::Acquire);
                (index, f32::from_bits(bits))
            })
    }

    /// Every source bound to a target `targets` picks.
    pub fn sources_of(&self, targets: impl Fn(&BindingTarget) -> bool) -> Vec<super::Source> {
        let mut sources = Vec::new();
        for binding in &self.lock().0 {
            if targets(&binding.target) && !sources.contains(&binding.source) {
                sources.push(binding.source);
            }
        }
        sources
    }
}

impl<'a> PersistentField<'a, BindingList> for ControllerMap {
    fn set(&self, new_value: BindingList) {
        self.replace(new_value.0);
    }

    fn map<F, R>(&self, f: F) -> R
    where
        F: Fn(&BindingList) -> R,
    {
        f(&self.lock())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::{Control, Source};

    /// Whether `control` is one a binding of `map` listens to.
    fn listens_to(map: &ControllerMap, control: Control) -> bool {
        map.slots.iter().any(|slot| {
            route(
                slot.route.load(Ordering::Acquire),
                Movement {
                    control,
                    channel: 0,
                    position: 0.0,
                },
            )
            .is_some()
        })
    }

    fn cc(number: u8, channel: Option<u8>) -> Source {
        Source {
            control: Control::Cc { number },
            channel,
        }
    }

    fn moved(number: u8, channel: u8, position: f32) -> Movement {
        Movement {
            control: Control::Cc { number },
            channel,
            position,
        }
    }

    #[test]
    fn a_controller_moves_its_parameters_at_once_and_its_properties_later() {
        let map = ControllerMap::default();
        let hardness = PARAM_IDS.iter().position(|&id| id == "hardness").unwrap();
        map.bind(Binding {
            source: cc(74, Some(0)),
            target: BindingTarget::Param {
                id: "hardness".into(),
            },
        })
        .unwrap();
        map.bind(Binding {
            source: cc(74, None),
            target: BindingTarget::Property {
                path: "tuning:a4_hz".into(),
            },
        })
        .unwrap();
        let mut set = Vec::new();
        map.receive(moved(74, 0, 0.25), |i, p| set.push((i, p)));
        map.receive(moved(74, 5, 0.75), |i, p| set.push((i, p)));
        map.receive(moved(75, 0, 0.5), |i, p| set.push((i, p)));
        assert_eq!(
            set,
            vec![(hardness, 0.25)],
            "channel 5 is not the parameter's, CC 75 is no one's"
        );
        assert_eq!(
            map.take_moved_params().collect::<Vec<_>>(),
            vec![(hardness, 0.25)]
        );
        assert_eq!(map.take_moved_params().count(), 0);

        assert!(map.claim_application());
        assert!(!map.claim_application(), "one application at a time");
        assert_eq!(
            map.take_property_moves(),
            vec![("tuning:a4_hz".to_string(), 0.75)],
            "only the latest position counts"
        );
        assert!(map.take_property_moves().is_empty());
        map.applied();
        assert!(!map.claim_application(), "nothing moved since");
    }

    #[test]
    fn forgetting_and_replacing_rewrite_the_slots() {
        let map = ControllerMap::default();
        let binding = |n| Binding {
            source: cc(n, None),
            target: BindingTarget::Param { id: "a4".into() },
        };
        map.bind(binding(1)).unwrap();
        map.bind(binding(1)).unwrap();
        assert_eq!(map.bindings().len(), 1, "bound once");
        map.bind(binding(2)).unwrap();
        map.forget(|b| b.source == cc(1, None));
        assert!(!listens_to(&map, Control::Cc { number: 1 }));
        assert!(listens_to(&map, Control::Cc { number: 2 }));
        map.replace((0..100).map(|n| binding(n % 100)).collect());
        assert_eq!(map.bindings().len(), MAX_BINDINGS);
        assert!(map.bind(binding(101)).is_err(), "full");
        map.replace(vec![Binding {
            source: cc(3, None),
            target: BindingTarget::Param {
                id: "no-such-parameter".into(),
            },
        }]);
        assert!(
            !listens_to(&map, Control::Cc { number: 3 }),
            "an unknown parameter is kept but not routed"
        );
        assert_eq!(map.bindings().len(), 1);
    }
}
