//! Where an output file is written. A regular file is written beside its
//! destination and renamed over it only once complete, so an existing file is
//! never lost to a failed render and no partial file is left behind. A device
//! or pipe that already exists (`/dev/null`, a FIFO) is written straight
//! into: it is never replaced by a regular file. `-` is the standard output.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The name that means the standard output.
pub const STDOUT: &str = "-";

/// An output being written.
#[derive(Debug)]
pub struct Destination {
    /// Where the finished output goes.
    destination: PathBuf,
    /// How it is written.
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    /// A regular file: the partial file written first, gone once committed.
    File { partial: Option<PathBuf> },
    /// A device or a pipe, written into.
    Device,
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
            Self::Stream(stream) => stream.write(bytes),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Self::File(file) => file.flush(),
            Self::Stream(stream) => stream.flush(),
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
        let kind = if is_stdout(destination) {
            Kind::Stdout
        } else if is_device {
            Kind::Device
        } else {
            Kind::File {
                partial: Some(partial_path(destination)?),
            }
        };
        Ok(Self {
            destination: destination.to_path_buf(),
            kind,
        })
    }

    /// Opens the output for writing: the partial file (created, or
    /// truncated), the device, or the standard output.
    pub fn open(&self) -> Result<Output, String> {
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", self.display());
        match &self.kind {
            Kind::File { partial } => {
                let path = partial.as_deref().unwrap_or(&self.destination);
                File::create(path).map(Output::File).map_err(fail)
            }
            Kind::Device => File::create(&self.destination)
                .map(|file| Output::Stream(Box::new(file)))
                .map_err(fail),
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
            Kind::File { partial } => match partial.take() {
                Some(partial) => std::fs::rename(&partial, &self.destination)
                    .map_err(|e| format!("cannot write {}: {e}", self.destination.display())),
                None => Ok(()),
            },
            Kind::Device | Kind::Stdout => Ok(()),
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

/// Whether `path` names the standard output (`-`).
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == STDOUT
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
