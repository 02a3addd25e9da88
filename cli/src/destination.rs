//! Where an output file is written. A regular file is written beside its
//! destination and renamed over it only once complete, so an existing file is
//! never lost to a failed render and no partial file is left behind. A device
//! or pipe that already exists (`/dev/null`, a FIFO) is written straight
//! into: it is never replaced by a regular file.

use std::path::{Path, PathBuf};

/// An output being written.
#[derive(Debug)]
pub struct Destination {
    /// Where the finished output goes.
    destination: PathBuf,
    /// The partial file written first, if the output is a regular file; gone
    /// once committed.
    partial: Option<PathBuf>,
}

impl Destination {
    /// The output at `destination`; fails with a one-line reason if its path
    /// names no file.
    pub fn new(destination: &Path) -> Result<Self, String> {
        let is_device = destination
            .metadata()
            .is_ok_and(|m| !m.is_file() && !m.is_dir());
        let partial = if is_device {
            None
        } else {
            Some(partial_path(destination)?)
        };
        Ok(Self {
            destination: destination.to_path_buf(),
            partial,
        })
    }

    /// Whether the output is a regular file, whose data should reach the
    /// disk before it takes the destination's place (a device needs no sync).
    pub fn is_file(&self) -> bool {
        self.partial.is_some()
    }

    /// The path to write to now.
    pub fn write_path(&self) -> &Path {
        self.partial.as_deref().unwrap_or(&self.destination)
    }

    /// The destination, for messages.
    pub fn display(&self) -> std::path::Display<'_> {
        self.destination.display()
    }

    /// The output is complete: it takes the destination's place.
    pub fn commit(&mut self) -> Result<(), String> {
        match self.partial.take() {
            Some(partial) => std::fs::rename(&partial, &self.destination)
                .map_err(|e| format!("cannot write {}: {e}", self.destination.display())),
            None => Ok(()),
        }
    }
}

impl Drop for Destination {
    fn drop(&mut self) {
        // Not committed: remove the partial file, leaving any earlier
        // destination intact.
        if let Some(partial) = self.partial.take() {
            let _ = std::fs::remove_file(partial);
        }
    }
}

/// The hidden partial file written beside `destination` until it is complete.
fn partial_path(destination: &Path) -> Result<PathBuf, String> {
    let name = destination
        .file_name()
        .ok_or_else(|| format!("output path {} names no file", destination.display()))?;
    let mut temporary_name = std::ffi::OsString::from(".");
    temporary_name.push(name);
    temporary_name.push(".orchard-partial");
    Ok(destination.with_file_name(temporary_name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::FileTypeExt;

    /// A device is written straight into and never replaced by a file.
    #[test]
    fn a_device_is_written_into_not_renamed_over() {
        let null = Path::new("/dev/null");
        let mut destination = Destination::new(null).unwrap();
        assert_eq!(destination.write_path(), null);
        assert!(!destination.is_file());
        std::fs::write(destination.write_path(), b"RIFF").unwrap();
        destination.commit().unwrap();
        assert!(null.metadata().unwrap().file_type().is_char_device());
    }

    /// A regular file is written beside its destination and takes its place
    /// only when committed; dropped uncommitted, it leaves the old file.
    #[test]
    fn a_file_takes_its_destinations_place_only_when_complete() {
        let dir = std::env::temp_dir().join(format!("orchard-dest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.wav");
        std::fs::write(&path, b"old").unwrap();
        {
            let destination = Destination::new(&path).unwrap();
            std::fs::write(destination.write_path(), b"half").unwrap();
        }
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "a partial file is left"
        );
        let mut destination = Destination::new(&path).unwrap();
        std::fs::write(destination.write_path(), b"new").unwrap();
        destination.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        std::fs::remove_dir_all(dir).ok();
    }
}
