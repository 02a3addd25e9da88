//! Printing that ends quietly when the reader has gone, as Unix tools do:
//! `orchard presets | head -1` must not panic ("failed printing to stdout")
//! when `head` closes the pipe. Every line the program prints goes through
//! [`out`] or [`err`], and every output stream notes a closed pipe with
//! [`note`], so that `main` can end by [`end_by_sigpipe`] instead of
//! reporting an error.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once a write has found its reader gone (a closed pipe).
static READER_GONE: AtomicBool = AtomicBool::new(false);

/// Notes `error` if it says that the reader of a pipe has gone; returns it.
pub fn note(error: std::io::Error) -> std::io::Error {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        READER_GONE.store(true, Ordering::SeqCst);
    }
    error
}

/// Whether a write has found its reader gone.
pub fn reader_gone() -> bool {
    READER_GONE.load(Ordering::SeqCst)
}

/// Prints `text` and a newline on the standard output. A closed pipe is
/// noted (see [`reader_gone`]); any other failure is the error returned.
pub fn out(text: &str) -> Result<(), String> {
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the standard output: {error}"))
        }
        written => {
            written.map_err(note).ok();
            Ok(())
        }
    }
}

/// Prints `text` and a newline on the standard error; a failure to (a
/// closed pipe, a full disk) is passed over, as there is nowhere left to
/// tell it.
pub fn err(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Ends the process as a Unix tool ends when its reader has gone: killed by
/// SIGPIPE (the shell's status 141), printing nothing. Call it once every
/// partial file is gone.
pub fn end_by_sigpipe() -> ExitCode {
    // SAFETY: `signal` restores SIGPIPE's default action (Rust starts with
    // it ignored) and `raise` sends it to this process; neither touches
    // memory of ours.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::raise(libc::SIGPIPE);
    }
    // Only if the signal did not end it (it is blocked): the shell's status.
    ExitCode::from(141)
}
