//! Shared hammers (De Sanctis et al. 2003, end of Section 4: "a piano harp can
//! use a limited amount of shared hammers"): a preallocated pool of contact
//! trees, fewer than the strings, each grafted onto whatever key strikes and
//! returned when its hammer has gone.
//!
//! # Exhaustion
//!
//! When every contact is in use, a strike takes the quietest one:
//!
//! 1. a hammer that has struck and let go of its strings (felt force exactly
//!    0): pruning it changes nothing the strings feel, so it cannot click. Of
//!    those, the one farthest from its strings, the least likely to touch them
//!    again. The steal is counted.
//! 2. Otherwise every contact is still pushing on its strings or still flying
//!    towards them. Taking one would either be a force step (a click) or cancel
//!    a note that has not sounded yet, and fading the force would be a force no
//!    felt makes. So the strike waits, like a real shared hammer that must
//!    leave one string before it can strike another: it is deferred (and
//!    counted) until a contact lets go, at most a contact time (0.5–4 ms for
//!    piano hammers) after the first hammer touches, and then takes it as in 1.
//!    Deferred strikes are served first come, first served.

use crate::capacity::copy_within_capacity;
use crate::instrument::contact::{Contact, ContactShape};
use crate::wdf::TreeError;

/// Hammer contact trees an instrument's keys share by default: a hammer is
/// grafted only from its release until it has left the strings (a few
/// milliseconds, at most 0.25 s), so 16 serve a 16-note cluster struck at once,
/// against the 88 keys and 230 strings of a grand.
pub const SHARED_HAMMERS: usize = 16;

/// A contact of a [`HammerPool`], as held by the key it is grafted onto.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ContactId(usize);

/// One contact tree and the key (owner index) it is grafted onto.
#[derive(Debug, Clone)]
struct Slot {
    contact: Contact,
    owner: Option<usize>,
}

/// A strike waiting for a contact.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Deferred {
    owner: usize,
    /// Hammer speed at release, m/s.
    speed_m_s: f64,
}

/// A fixed number of hammer contact trees shared by many keys (owners,
/// numbered from 0), and the strikes waiting for one.
///
/// Allocates: in [`HammerPool::new`] only; taking, releasing, stealing and
/// deferring never allocate.
#[derive(Debug, Clone)]
pub struct HammerPool {
    slots: Vec<Slot>,
    /// Waiting strikes in arrival order, at most one per owner.
    deferred: Vec<Deferred>,
    /// How many owners the deferred queue has room for.
    owners: usize,
    stolen: u64,
    deferrals: u64,
}

impl HammerPool {
    /// `hammers` contact trees (at least one) at `sample_rate` (Hz), shared by
    /// `owners` keys.
    pub fn new(hammers: usize, owners: usize, sample_rate: f64) -> Result<Self, TreeError> {
        let contact = Contact::new(sample_rate)?;
        Ok(Self {
            slots: vec![
                Slot {
                    contact,
                    owner: None,
                };
                hammers.max(1)
            ],
            deferred: Vec::with_capacity(owners),
            owners,
            stolen: 0,
            deferrals: 0,
        })
    }

    /// Number of contact trees.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: a pool has at least one contact.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Contacts grafted onto a key now.
    pub fn in_use(&self) -> usize {
        self.slots.iter().filter(|s| s.owner.is_some()).count()
    }

    /// Contacts taken from a key whose hammer was still grafted, so far.
    pub fn stolen_contacts(&self) -> u64 {
        self.stolen
    }

    /// Strikes that had to wait for a contact, so far.
    pub fn deferred_strikes(&self) -> u64 {
        self.deferrals
    }

    /// Whether any strike is waiting for a contact.
    pub fn has_deferred(&self) -> bool {
        !self.deferred.is_empty()
    }

    /// A free contact, now grafted for `owner`.
    pub(crate) fn take(&mut self, owner: usize) -> Option<ContactId> {
        let index = self.slots.iter().position(|s| s.owner.is_none())?;
        self.slots[index].owner = Some(owner);
        Some(ContactId(index))
    }

    /// Returns a contact to the pool.
    pub(crate) fn release(&mut self, id: ContactId) {
        if let Some(slot) = self.slots.get_mut(id.0) {
            slot.owner = None;
        }
    }

    /// The contact `id`.
    pub(crate) fn contact(&self, id: ContactId) -> &Contact {
        &self.slots[id.0].contact
    }

    /// The contact `id`, mutably.
    pub(crate) fn contact_mut(&mut self, id: ContactId) -> &mut Contact {
        &mut self.slots[id.0].contact
    }

    /// Frees the quietest contact that can go without a click (see the module
    /// notes) and counts the steal; returns the owner it was taken from, who
    /// must forget it. `None` when every contact is free or still needed.
    pub(crate) fn steal_quietest(&mut self) -> Option<usize> {
        let (index, _) = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.owner.is_some() && s.contact.has_let_go())
            .map(|(i, s)| (i, s.contact.compression()))
            .reduce(|best, next| if next.1 < best.1 { next } else { best })?;
        self.stolen += 1;
        self.slots[index].owner.take()
    }

    /// Queues a strike of `owner` at `speed_m_s` until a contact frees up; a
    /// strike already waiting for `owner` takes the new speed instead.
    pub(crate) fn defer(&mut self, owner: usize, speed_m_s: f64) {
        if let Some(waiting) = self.deferred.iter_mut().find(|d| d.owner == owner) {
            waiting.speed_m_s = speed_m_s;
        } else if owner < self.owners && self.deferred.len() < self.deferred.capacity() {
            self.deferred.push(Deferred { owner, speed_m_s });
            self.deferrals += 1;
        }
    }

    /// The strike that has waited longest: its owner and speed (m/s).
    pub(crate) fn next_deferred(&self) -> Option<(usize, f64)> {
        self.deferred.first().map(|d| (d.owner, d.speed_m_s))
    }

    /// Drops the strike that has waited longest (it has been served).
    pub(crate) fn pop_deferred(&mut self) {
        if !self.deferred.is_empty() {
            self.deferred.remove(0);
        }
    }

    /// Whether `other` has as many contacts and room for as many owners, so
    /// that its hammers in flight and waiting strikes can carry over into
    /// this pool (a live edit, see [`crate::rt::Voices::continue_from`]).
    pub fn same_shape(&self, other: &HammerPool) -> bool {
        self.slots.len() == other.slots.len() && self.owners == other.owners
    }

    /// Takes over `old`'s bookkeeping (a pool of the same shape): which owner
    /// holds which contact, the strikes waiting and the counts. The contacts'
    /// motion is carried on by their owners
    /// ([`HammerPool::continue_contact`]), who know the hammer fitted to them.
    ///
    /// Allocates nothing.
    pub(crate) fn continue_from(&mut self, old: &HammerPool) {
        for (slot, old_slot) in self.slots.iter_mut().zip(&old.slots) {
            slot.owner = old_slot.owner;
        }
        copy_within_capacity(&mut self.deferred, &old.deferred);
        self.stolen = old.stolen;
        self.deferrals = old.deferrals;
    }

    /// Carries on contact `id` of `old` in this pool's contact `id`, fitted to
    /// `shape` (see [`Contact::continue_from`]).
    pub(crate) fn continue_contact(
        &mut self,
        id: ContactId,
        old: &HammerPool,
        shape: &ContactShape,
    ) {
        if let (Some(slot), Some(old_slot)) = (self.slots.get_mut(id.0), old.slots.get(id.0)) {
            slot.contact.continue_from(&old_slot.contact, shape);
        }
    }

    /// Every contact free and at rest, no strike waiting; the counts are kept.
    pub fn reset(&mut self) {
        for slot in &mut self.slots {
            slot.contact.reset();
            slot.owner = None;
        }
        self.deferred.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wdf::FeltLaw;

    const FS: f64 = 48_000.0;

    /// A C4-like hammer (3 g) against a contact port of 0.5 s/kg.
    fn shape() -> ContactShape {
        ContactShape::new(3e-3, FeltLaw::elastic(4.5e9, 2.5), 1, 1, 0.5, FS).unwrap()
    }

    #[test]
    fn only_a_hammer_that_has_let_go_is_stolen() {
        let mut pool = HammerPool::new(2, 4, FS).unwrap();
        let (a, b) = (pool.take(0).unwrap(), pool.take(1).unwrap());
        assert_eq!((pool.take(2), pool.in_use()), (None, 2));
        for id in [a, b] {
            pool.contact_mut(id).launch(&shape(), 2.0, 1e-4, 2.0);
        }
        // Both still approaching: nothing can go without losing a note.
        assert_eq!(pool.steal_quietest(), None);
        // The first hammer strikes a string at rest and rebounds.
        let mut touched = false;
        while !(touched && pool.contact(a).force() == 0.0) {
            pool.contact_mut(a).tick(0.0);
            touched |= pool.contact(a).force() > 0.0;
            // Still pushing: not stealable.
            assert_eq!(
                pool.contact(a).has_let_go(),
                touched && pool.contact(a).force() == 0.0
            );
        }
        assert_eq!(pool.steal_quietest(), Some(0));
        assert_eq!((pool.stolen_contacts(), pool.in_use()), (1, 1));
        assert_eq!(pool.take(2), Some(a));
        pool.reset();
        assert_eq!(pool.in_use(), 0);
    }

    #[test]
    fn deferred_strikes_wait_in_order_one_per_owner() {
        let mut pool = HammerPool::new(1, 4, FS).unwrap();
        pool.defer(3, 1.0);
        pool.defer(1, 2.0);
        pool.defer(3, 5.0);
        // An owner the pool was not built for is not queued.
        pool.defer(4, 1.0);
        assert_eq!(pool.deferred_strikes(), 2);
        assert_eq!(pool.next_deferred(), Some((3, 5.0)));
        pool.pop_deferred();
        assert_eq!(pool.next_deferred(), Some((1, 2.0)));
        pool.reset();
        assert!(!pool.has_deferred());
    }
}
