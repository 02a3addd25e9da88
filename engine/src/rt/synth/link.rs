//! Where the mechanical worker runs: inline, stepped by the audio thread at
//! each control sample (lock-step), or on a thread of its own (realtime).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::rt::ToWorker;
use crate::rt::error::SynthError;
use crate::rt::worker::WorkerHost;

/// How long an idle worker thread sleeps before looking for messages again.
const WORKER_POLL: Duration = Duration::from_micros(250);

/// How the realtime worker is set up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RealtimeOptions {
    /// Samples between a control step and its operations: the time the worker
    /// has to answer. At least two audio blocks.
    pub latency: u64,
    /// For tests: the worker stalls once for this long when the audio has
    /// rendered past the given sample, as if the machine had paused it.
    pub stall: Option<(u64, Duration)>,
}

/// Where the worker runs.
pub(super) enum Link {
    /// Inline, stepped at each control sample.
    LockStep {
        host: WorkerHost,
        /// Samples per control period.
        period: u64,
    },
    /// On its own thread.
    Realtime {
        stop: Arc<AtomicBool>,
        thread: Option<JoinHandle<()>>,
    },
}

impl Link {
    /// Runs `host`'s worker on a thread of its own until [`Link::stop`].
    pub(super) fn realtime(
        mut host: WorkerHost,
        options: RealtimeOptions,
    ) -> Result<Self, SynthError> {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let mut stall = options.stall;
        let thread = std::thread::Builder::new()
            .name("orchard-mechanics".into())
            .spawn(move || {
                while !stopped.load(Ordering::Acquire) {
                    host.drain(|message| {
                        if let (Some((after, pause)), ToWorker::Clock) = (stall, message.item)
                            && message.at > after
                        {
                            std::thread::sleep(pause);
                            stall = None;
                        }
                    });
                    std::thread::park_timeout(WORKER_POLL);
                }
            })
            .map_err(|e| SynthError::Worker(e.to_string()))?;
        Ok(Self::Realtime {
            stop,
            thread: Some(thread),
        })
    }

    /// Stops a realtime worker's thread and waits for it to end.
    pub(super) fn stop(&mut self) {
        if let Self::Realtime { stop, thread } = self {
            stop.store(true, Ordering::Release);
            if let Some(thread) = thread.take() {
                thread.thread().unpark();
                let _ = thread.join();
            }
        }
    }
}
