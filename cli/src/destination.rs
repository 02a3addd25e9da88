//! Where an output file is written. A regular file is written beside its
//! destination and renamed over it only once complete, so an existing file is
//! never lost to a failed render and no partial file is left behind; a
//! symbolic link is followed, and the file it points to is the one replaced
//! (the link stays a link). A device or pipe that already exists
//! (`/dev/null`, a FIFO), and any name under `/dev` or `/proc` (such as
//! `/dev/stdout`, whatever file it stands for), is written straight into: it
//! is never replaced by a regular file. `-` is the standard output.

use std::fs::File;
use std::io::Write;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};

use crate::print;

/// The name that means the standard output.
pub const STDOUT: &str = "-";

/// An output being written.
#[derive(Debug)]
pub struct Destination {
    /// Where the finished output goes, as given (for messages).
    destination: PathBuf,
    /// The file written: `destination` with symbolic links followed.
    written: PathBuf,
    /// How it is written.
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    /// A regular file: the partial file written first, gone once committed.
    File { partial: Option<PathBuf> },
    /// A device or a pipe, or a name under `/dev` or `/proc`, written into.
    InPlace,
    /// The standard output.
    Stdout,
}

/// An output opened for writing.
pub enum Output {
    /// A regular file (the partial one): it can be gone back over, and
    /// should reach the disk before it takes the destination's place.
    File(File),
    /// A device, pipe or the standard output: written once from start to end.
    Stream(Box<dyn Write>),
}

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self {
            Self::File(file) => file.write(bytes),
            // A pipe whose reader has gone is noted: the program ends
            // quietly once its partial files are gone.
            Self::Stream(stream) => stream.write(bytes).map_err(print::note),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Self::File(file) => file.flush(),
            Self::Stream(stream) => stream.flush().map_err(print::note),
        }
    }
}

impl Destination {
    /// The output at `destination` (`-`: the standard output); fails with a
    /// one-line reason if its path names no file.
    pub fn new(destination: &Path) -> Result<Self, String> {
        let is_device = destination
            .metadata()
            .is_ok_and(|m| !m.is_file() && !m.is_dir());
        let (kind, written) = if is_stdout(destination) {
            (Kind::Stdout, destination.to_path_buf())
        } else if is_device || is_system_name(destination) {
            (Kind::InPlace, destination.to_path_buf())
        } else {
            let target = link_target(destination);
            let partial = Some(partial_path(&target)?);
            (Kind::File { partial }, target)
        };
        Ok(Self {
            destination: destination.to_path_buf(),
            written,
            kind,
        })
    }

    /// Opens the output for writing: the partial file (created, or
    /// truncated), the device, or the standard output.
    pub fn open(&self) -> Result<Output, String> {
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", self.display());
        match &self.kind {
            Kind::File { partial } => {
                let path = partial.as_deref().unwrap_or(&self.written);
                File::create(path).map(Output::File).map_err(fail)
            }
            Kind::InPlace => {
                let file = File::create(&self.written).map_err(fail)?;
                // A regular file (`/dev/stdout` sent to one) can be gone
                // back over; a device or pipe is a stream.
                if file.metadata().is_ok_and(|m| m.is_file()) {
                    Ok(Output::File(file))
                } else {
                    Ok(Output::Stream(Box::new(file)))
                }
            }
            Kind::Stdout => Ok(Output::Stream(Box::new(std::io::stdout()))),
        }
    }

    /// The destination, for messages.
    pub fn display(&self) -> std::path::Display<'_> {
        self.destination.display()
    }

    /// The output is complete: it takes the destination's place.
    pub fn commit(&mut self) -> Result<(), String> {
        match &mut self.kind {
            Kind::File { partial } => {
                if let Some(path) = partial.as_deref() {
                    // Kept on failure, so that dropping removes it.
                    std::fs::rename(path, &self.written)
                        .map_err(|e| format!("cannot write {}: {e}", self.destination.display()))?;
                }
                *partial = None;
                Ok(())
            }
            Kind::InPlace | Kind::Stdout => Ok(()),
        }
    }
}

impl Drop for Destination {
    fn drop(&mut self) {
        // Not committed: remove the partial file, leaving any earlier
        // destination intact.
        if let Kind::File { partial } = &mut self.kind
            && let Some(partial) = partial.take()
        {
            let _ = std::fs::remove_file(partial);
        }
    }
}

/// Writes `bytes` to `path` as every output is written (see
/// [`Destination`]): a regular file takes the destination's place only once
/// all of it is on the disk, so a failed write (a full disk) leaves the old
/// file whole. Errors are one line naming `path`.
pub fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut destination = Destination::new(path)?;
    let mut output = destination.open()?;
    let written = output.write_all(bytes).and_then(|()| match &output {
        Output::File(file) => file.sync_all(),
        Output::Stream(_) => output.flush(),
    });
    drop(output);
    written.map_err(|e| format!("cannot write {}: {e}", destination.display()))?;
    destination.commit()
}

/// Whether `path` names the standard output (`-`).
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == STDOUT
}

/// Whether `path` names something under `/dev` or `/proc`, where a name
/// stands for a device or an open file (`/dev/stdout`, `/dev/fd/3`,
/// `/proc/self/fd/1`), not a place in a folder: such an output is written
/// into, never renamed over.
fn is_system_name(path: &Path) -> bool {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    absolute.starts_with("/dev") || absolute.starts_with("/proc")
}

/// Most symbolic links followed in a chain (as the kernel's limit).
const MAX_LINKS: usize = 40;

/// The file `path` stands for: symbolic links followed to the file they
/// end at (which may not exist yet), or `path` itself.
fn link_target(path: &Path) -> PathBuf {
    let mut target = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let Ok(next) = std::fs::read_link(&target) else {
            break;
        };
        target = match target.parent() {
            Some(folder) => folder.join(next),
            None => next,
        };
    }
    target
}

/// Whether output `path` is the file the standard output goes to: `-`, or a
/// name for the same file (`/dev/stdout`, or the file it was sent to).
pub fn goes_to_stdout(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;

    if is_stdout(path) {
        return true;
    }
    let stdout = std::io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .and_then(|fd| File::from(fd).metadata());
    match (stdout, path.metadata()) {
        (Ok(out), Ok(file)) => (out.dev(), out.ino()) == (file.dev(), file.ino()),
        _ => false,
    }
}

/// The hidden partial file written beside `destination` until it is complete.
fn partial_path(destination: &Path) -> Result<PathBuf, String> {
    let name = destination
        .file_name()
        .ok_or_else(|| format!("output path {} names no file", destination.display()))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(name);
    temporary_name.push(PARTIAL_SUFFIX);
    Ok(destination.with_file_name(temporary_name))
}

/// The end of a partial file's name (it begins with a dot and the
/// destination's name).
pub const PARTIAL_SUFFIX: &str = ".orchard-partial";

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::FileTypeExt;

    /// A device is written straight into and never replaced by a file.
    #[test]
    fn a_device_is_written_into_not_renamed_over() {
        let null = Path::new("/dev/null");
        let mut destination = Destination::new(null).unwrap();
        let Output::Stream(mut stream) = destination.open().unwrap() else {
            panic!("a device is a stream");
        };
        stream.write_all(b"RIFF").unwrap();
        destination.commit().unwrap();
        assert!(null.metadata().unwrap().file_type().is_char_device());
    }

    /// `-` is the standard output, never a file called `-`.
    #[test]
    fn a_dash_is_the_standard_output() {
        let destination = Destination::new(Path::new("-")).unwrap();
        assert!(matches!(destination.kind, Kind::Stdout));
        assert!(matches!(destination.open().unwrap(), Output::Stream(_)));
        assert!(!Path::new("-").exists());
    }

    /// A regular file is written beside its destination and takes its place
    /// only when committed; dropped uncommitted, it leaves the old file.
    #[test]
    fn a_file_takes_its_destinations_place_only_when_complete() {
        let dir = std::env::temp_dir().join(format!("orchard-dest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.wav");
        std::fs::write(&path, b"old").unwrap();
        let write = |destination: &Destination, bytes: &[u8]| {
            let Output::File(mut file) = destination.open().unwrap() else {
                panic!("a regular file");
            };
            file.write_all(bytes).unwrap();
        };
        {
            let destination = Destination::new(&path).unwrap();
            write(&destination, b"half");
            assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
        }
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "a partial file is left"
        );
        let mut destination = Destination::new(&path).unwrap();
        write(&destination, b"new");
        destination.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        std::fs::remove_dir_all(dir).ok();
    }
}
