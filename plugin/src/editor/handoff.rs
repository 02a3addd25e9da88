//! How an instance's editor reaches Orchard's own VST3 view instead of
//! nice-plug's wrapper.
//!
//! The wrapper makes the plugin (and asks it for its editor) inside
//! `Wrapper::new`, on the thread that creates the instance. While
//! [`claim`] runs that constructor, [`Orchard::editor`](crate::Orchard)
//! hands its parameters and editor link over here (see [`hand_over`]) and
//! gives the wrapper no editor at all, so that the wrapper never opens a
//! window and never posts a task to one.

use std::cell::RefCell;
use std::sync::Arc;

use crate::link::EditorLink;
use crate::params::OrchardParams;

/// What the editor of one instance is made from: the instance's own
/// parameters (the same atomics the audio thread reads) and its link to
/// the audio thread.
pub struct EditorParts {
    pub params: Arc<OrchardParams>,
    pub link: Arc<EditorLink>,
}

/// The state of a claim on this thread: `None` when no claim runs;
/// `Some(None)` while one waits for the parts; `Some(Some(_))` once they
/// came.
type Slot = Option<Option<EditorParts>>;

thread_local! {
    static SLOT: RefCell<Slot> = const { RefCell::new(None) };
}

/// Runs `make` (which creates the plugin) and returns what it made with the
/// editor parts the plugin handed over meanwhile, if it did.
pub fn claim<R>(make: impl FnOnce() -> R) -> (R, Option<EditorParts>) {
    let outer = SLOT.with(|slot| slot.replace(Some(None)));
    let made = make();
    let parts = SLOT.with(|slot| slot.replace(outer)).flatten();
    (made, parts)
}

/// Called by the plugin when a wrapper asks it for its editor: if a
/// [`claim`] is running on this thread, keeps `params` and `link` for it and
/// returns true (the plugin then gives the wrapper no editor).
pub fn hand_over(params: &Arc<OrchardParams>, link: &Arc<EditorLink>) -> bool {
    SLOT.with(|slot| match &mut *slot.borrow_mut() {
        Some(waiting @ None) => {
            *waiting = Some(EditorParts {
                params: Arc::clone(params),
                link: Arc::clone(link),
            });
            true
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts() -> (Arc<OrchardParams>, Arc<EditorLink>) {
        let (editor, _audio) = crate::link::link();
        (Arc::new(OrchardParams::default()), Arc::new(editor))
    }

    #[test]
    fn parts_go_to_the_claim_running_on_this_thread_and_nowhere_else() {
        let (params, link) = parts();
        assert!(!hand_over(&params, &link), "no claim runs");
        let (taken, handed) = claim(|| hand_over(&params, &link));
        assert!(taken);
        let handed = handed.expect("the parts");
        assert!(Arc::ptr_eq(&handed.params, &params));
        assert!(Arc::ptr_eq(&handed.link, &link));
        // Once the claim ended, nothing is kept.
        assert!(!hand_over(&params, &link));
        // A claim on this thread is not seen on another.
        let (other, handed) = claim(|| {
            std::thread::scope(|s| {
                s.spawn(|| {
                    let (params, link) = parts();
                    hand_over(&params, &link)
                })
                .join()
                .unwrap()
            })
        });
        assert!(!other && handed.is_none());
    }
}
