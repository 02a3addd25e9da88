//! Keeps the app's state between runs: writes the state file when the state
//! changes (checked every second) and at quit, and quits with the take's
//! files complete.

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use orchard::standalone::Session;
use orchard::standalone::state_file::{self, StandaloneState};

use super::PROGRAM;

/// How often the state is checked for changes.
const CHECK_PERIOD: Duration = Duration::from_secs(1);
/// How long quitting waits for the recorder to finish its files, at most.
const FINISH_WAIT: Duration = Duration::from_secs(5);

/// The state file and what was written to it last.
pub struct Keeper {
    path: Option<PathBuf>,
    written: Mutex<StandaloneState>,
}

impl Keeper {
    /// A keeper of the state file at `path` (none: nothing is saved), which
    /// holds `loaded`.
    pub fn new(path: Option<PathBuf>, loaded: StandaloneState) -> Self {
        Self {
            path,
            written: Mutex::new(loaded),
        }
    }

    /// The session's state now.
    fn current(session: &Session) -> StandaloneState {
        StandaloneState {
            format: state_file::STATE_FILE_FORMAT,
            sound: session.sound(),
            devices: session.devices(),
            record_folder: Some(session.recorder.folder()),
            midi_file: session.transport.file(),
        }
    }

    /// Writes the state if it changed since it was last written; a failure
    /// is one line on stderr.
    pub fn save(&self, session: &Session) {
        let Some(path) = &self.path else {
            return;
        };
        let now = Self::current(session);
        let mut written = self.written.lock().unwrap_or_else(PoisonError::into_inner);
        if *written == now {
            return;
        }
        match state_file::save(path, &now) {
            Ok(()) => *written = now,
            Err(error) => eprintln!("{PROGRAM}: {error}"),
        }
    }

    /// Saves the state every second from a thread of its own.
    pub fn keep(&'static self, session: &'static Session) {
        let _ = std::thread::Builder::new()
            .name("orchard-state".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(CHECK_PERIOD);
                    self.save(session);
                }
            });
    }

    /// Ends the running take (its files complete, waiting a few seconds at
    /// most) and saves the state; for every way the app ends.
    pub fn finish(&self, session: &Session) {
        if !session.recorder.finish(FINISH_WAIT) {
            eprintln!(
                "{PROGRAM}: the recording's files were not finished within {} s",
                FINISH_WAIT.as_secs()
            );
        }
        let status = session.recorder.status();
        if !status.is_empty() && !status.starts_with("recording to") {
            eprintln!("{PROGRAM}: {status}");
        }
        self.save(session);
    }
}
