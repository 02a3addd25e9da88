//! Signals that stop a render: SIGINT (Ctrl-C), SIGTERM and SIGHUP. Once
//! [`catch`] is called they no longer end the process at once: they raise a
//! flag that the render looks at between blocks ([`check`]), so it stops
//! within a block and fails as for any error, removing its partial files and
//! leaving whatever the outputs held before.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the handler when a signal has come.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// From now on, SIGINT, SIGTERM and SIGHUP ask the render to stop. Call it
/// once, in the program (a library caller keeps its own signal handling).
pub fn catch() -> Result<(), String> {
    ctrlc::set_handler(|| STOPPED.store(true, Ordering::SeqCst))
        .map_err(|e| format!("cannot catch signals: {e}"))
}

/// The reason to stop if a signal has come since [`catch`].
pub fn check() -> Result<(), String> {
    if STOPPED.load(Ordering::SeqCst) {
        Err("stopped by a signal; no output file was replaced or left half-written".into())
    } else {
        Ok(())
    }
}
