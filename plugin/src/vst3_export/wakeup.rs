//! Running the editor window's requests on the host's GUI thread (Linux).
//!
//! The editor's window runs on a thread of its own; what it needs done on
//! the host's GUI thread (a resize request) it queues and then asks for a
//! call back. On Linux a VST3 host offers its GUI thread through
//! `IRunLoop`: the plugin registers a file descriptor, and the host calls
//! the plugin's `IEventHandler` on that thread when it becomes readable.
//! A [`Bell`] writes one byte to a socket (hosts such as Ardour poll only
//! sockets) however many times it is rung before the host answers; the
//! [`Wakeup`] the host calls empties the socket and runs what is queued.
//! Nothing here ever runs editor code off the GUI thread: if the host does
//! not answer, the requests wait.

use std::cell::RefCell;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use nice_plug::editor::{EditorHandle, HostMainThreadCaller};
use nice_plug::wrapper::vst3::vst3::Class;
use nice_plug::wrapper::vst3::vst3::Steinberg::Linux::{
    FileDescriptor, IEventHandler, IEventHandlerTrait,
};

use crate::editor::window::OpenWindow;

/// The window thread's end: rings once until the GUI thread answers.
pub struct Bell {
    socket: UnixStream,
    rung: AtomicBool,
}

impl Bell {
    fn ring(&self) {
        if !self.rung.swap(true, Ordering::AcqRel) {
            // A full socket already wakes the host; nothing is lost.
            let _ = (&self.socket).write(&[1]);
        }
    }
}

/// What the editor's window calls when it has queued a request.
pub struct Caller(pub Arc<Bell>);

impl HostMainThreadCaller for Caller {
    fn call_main_thread(&mut self) {
        self.0.ring();
    }
}

/// The GUI thread's end, which the host calls through `IRunLoop`.
pub struct Wakeup {
    socket: UnixStream,
    bell: Arc<Bell>,
    window: Rc<RefCell<Option<OpenWindow>>>,
}

impl Class for Wakeup {
    type Interfaces = (IEventHandler,);
}

impl Wakeup {
    /// A wakeup that runs the requests of the window in `window`; `None` if
    /// the system gives no socket.
    pub fn new(window: Rc<RefCell<Option<OpenWindow>>>) -> Option<Self> {
        let (read, write) = UnixStream::pair().ok()?;
        read.set_nonblocking(true).ok()?;
        write.set_nonblocking(true).ok()?;
        Some(Self {
            socket: read,
            bell: Arc::new(Bell {
                socket: write,
                rung: AtomicBool::new(false),
            }),
            window,
        })
    }

    /// The descriptor the host polls.
    pub fn descriptor(&self) -> FileDescriptor {
        self.socket.as_raw_fd()
    }

    /// The bell for the window thread.
    pub fn bell(&self) -> Arc<Bell> {
        Arc::clone(&self.bell)
    }
}

impl IEventHandlerTrait for Wakeup {
    unsafe fn onFDIsSet(&self, _fd: FileDescriptor) {
        let mut bytes = [0u8; 64];
        while matches!((&self.socket).read(&mut bytes), Ok(n) if n > 0) {}
        // Cleared before running, so that a request queued meanwhile rings
        // again.
        self.bell.rung.store(false, Ordering::Release);
        if let Some(open) = &*self.window.borrow() {
            open.handle.host_main_thread_callback(&open.window);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_rings_before_an_answer_are_one_byte_and_an_answer_rearms_the_bell() {
        let wakeup = Wakeup::new(Rc::new(RefCell::new(None))).unwrap();
        let mut caller = Caller(wakeup.bell());
        for _ in 0..10_000 {
            caller.call_main_thread();
        }
        let mut bytes = [0u8; 64];
        assert_eq!((&wakeup.socket).read(&mut bytes).unwrap(), 1);
        // SAFETY: the handler's own call, on this thread.
        unsafe { wakeup.onFDIsSet(wakeup.descriptor()) };
        caller.call_main_thread();
        assert_eq!((&wakeup.socket).read(&mut bytes).unwrap(), 1);
    }
}
