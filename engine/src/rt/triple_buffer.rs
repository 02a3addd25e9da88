//! A triple buffer: one thread publishes values, another reads the latest one,
//! and neither ever waits for the other.
//!
//! Three slots: the publisher owns one (its back slot), the reader owns one
//! (its front slot), and the third sits in the middle. Publishing writes the
//! back slot and swaps it with the middle one, marking it fresh; reading swaps
//! the front slot with the middle one if the middle is fresh. Each slot belongs
//! to exactly one side at a time, so the only shared state is one atomic byte.

use std::cell::UnsafeCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

/// Bits of the middle byte that hold a slot index.
const INDEX: u8 = 0b011;
/// Bit of the middle byte that marks a value not yet read.
const FRESH: u8 = 0b100;

struct Shared<T> {
    slots: [UnsafeCell<T>; 3],
    /// Index of the middle slot, and [`FRESH`] if it holds a newer value than
    /// the reader has.
    middle: AtomicU8,
}

// SAFETY: a slot is only ever accessed by the side that owns its index (see the
// module documentation); ownership changes hands through the atomic `middle`
// with acquire-release ordering, which orders the slot's writes before the
// other side's reads.
unsafe impl<T: Send> Sync for Shared<T> {}

/// The writing end.
pub struct Publisher<T> {
    shared: Arc<Shared<T>>,
    back: u8,
}

/// The reading end.
pub struct Subscriber<T> {
    shared: Arc<Shared<T>>,
    front: u8,
}

/// A triple buffer whose three slots start as `initial`.
///
/// Allocates: the shared slots. Publishing and reading never allocate, lock or
/// wait.
pub fn triple_buffer<T: Clone + Send>(initial: T) -> (Publisher<T>, Subscriber<T>) {
    let shared = Arc::new(Shared {
        slots: [
            UnsafeCell::new(initial.clone()),
            UnsafeCell::new(initial.clone()),
            UnsafeCell::new(initial),
        ],
        middle: AtomicU8::new(1),
    });
    (
        Publisher {
            shared: Arc::clone(&shared),
            back: 0,
        },
        Subscriber { shared, front: 2 },
    )
}

impl<T> Publisher<T> {
    /// Writes the next value in place (`write` gets the back slot, holding an
    /// older value) and makes it the latest.
    pub fn publish_with(&mut self, write: impl FnOnce(&mut T)) {
        // SAFETY: the back slot belongs to the publisher alone until the swap.
        write(unsafe { &mut *self.shared.slots[usize::from(self.back)].get() });
        let previous = self.shared.middle.swap(self.back | FRESH, Ordering::AcqRel);
        self.back = previous & INDEX;
    }

    /// Makes `value` the latest.
    pub fn publish(&mut self, value: T) {
        self.publish_with(|slot| *slot = value);
    }
}

impl<T> Subscriber<T> {
    /// The latest value published (or the initial one).
    pub fn latest(&mut self) -> &T {
        if self.shared.middle.load(Ordering::Acquire) & FRESH != 0 {
            let previous = self.shared.middle.swap(self.front, Ordering::AcqRel);
            self.front = previous & INDEX;
        }
        // SAFETY: the front slot belongs to the reader alone.
        unsafe { &*self.shared.slots[usize::from(self.front)].get() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_sees_the_latest_value() {
        let (mut publisher, mut subscriber) = triple_buffer(0u64);
        assert_eq!(*subscriber.latest(), 0);
        publisher.publish(1);
        publisher.publish(2);
        assert_eq!(*subscriber.latest(), 2);
        assert_eq!(*subscriber.latest(), 2);
        publisher.publish_with(|v| *v += 40);
        // The back slot held an older value (0 or 1), plus 40.
        assert!(matches!(*subscriber.latest(), 40 | 41));
    }

    /// Across threads, every read is a whole value the writer published (never
    /// torn), and reads never go back in time.
    #[test]
    fn values_are_never_torn_and_never_go_back() {
        let (mut publisher, mut subscriber) = triple_buffer([0u64; 32]);
        let writer = std::thread::spawn(move || {
            for i in 1..=200_000u64 {
                publisher.publish([i; 32]);
            }
        });
        let mut last = 0;
        while last < 200_000 {
            let value = *subscriber.latest();
            assert!(value.iter().all(|&x| x == value[0]), "torn read");
            assert!(value[0] >= last, "went back from {last} to {}", value[0]);
            last = value[0];
            if writer.is_finished() {
                last = subscriber.latest()[0];
                assert_eq!(last, 200_000);
            }
        }
        writer.join().unwrap();
    }
}
