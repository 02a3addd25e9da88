//! The files a batch renders: each input MIDI file and the WAV it goes to.

use std::path::{Path, PathBuf};

use super::pattern;

/// One render of a batch.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// The MIDI file played.
    pub input: PathBuf,
    /// The WAV file written.
    pub output: PathBuf,
    /// The preset it is played with, if not `--preset`'s.
    pub preset: Option<String>,
    /// `--set` values applied after the command line's.
    pub settings: Vec<String>,
}

/// The jobs for `inputs` (files, folders searched for `.mid` and `.midi`
/// files at any depth, or patterns like `songs/*.mid`), each writing into
/// `out_dir` its name with `.wav`, under the sub-folder it has in a folder
/// given. A missing file is kept: its render fails and says why. Fails on
/// a pattern that matches nothing, an unreadable folder, or two inputs that
/// would write the same output.
pub fn from_paths(inputs: &[PathBuf], out_dir: &Path) -> Result<Vec<Job>, String> {
    let mut jobs = Vec::new();
    for input in inputs {
        let text = input.to_string_lossy();
        if input.is_dir() {
            for file in midi_files_in(input)? {
                let relative = file.strip_prefix(input).unwrap_or(&file);
                jobs.push(job(file.clone(), out_dir.join(relative)));
            }
        } else if !input.exists() && pattern::is_pattern(&text) {
            let matched = matching(input)?;
            if matched.is_empty() {
                return Err(format!("{text}: no file matches"));
            }
            for file in matched {
                let name = file.file_name().map(PathBuf::from).unwrap_or_default();
                jobs.push(job(file, out_dir.join(name)));
            }
        } else {
            let name = input.file_name().map(PathBuf::from).unwrap_or_default();
            jobs.push(job(input.clone(), out_dir.join(name)));
        }
    }
    check_distinct(&jobs)?;
    Ok(jobs)
}

/// A job with the command line's instrument, writing `output` as a WAV.
fn job(input: PathBuf, output: PathBuf) -> Job {
    Job {
        input,
        output: output.with_extension("wav"),
        preset: None,
        settings: Vec::new(),
    }
}

/// Refuses, before anything is rendered, two jobs writing the same file,
/// however it is spelt (`x.wav`, `sub/../x.wav`).
pub fn check_distinct(jobs: &[Job]) -> Result<(), String> {
    let mut seen = std::collections::HashMap::new();
    for job in jobs {
        if let Some(first) = seen.insert(crate::outputs::place(&job.output), &job.input) {
            return Err(format!(
                "{} and {} would both be written to {}; render them separately",
                first.display(),
                job.input.display(),
                job.output.display()
            ));
        }
    }
    Ok(())
}

/// Whether `path` ends in `.mid` or `.midi` (in any case).
fn is_midi(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("mid") || e.eq_ignore_ascii_case("midi"))
}

/// The MIDI files in `dir` and its sub-folders, in name order. Each folder
/// is searched once, however many names lead to it (a symbolic link to a
/// folder above, or two links to one folder): folders are told apart by
/// device and inode, so the search ends, in time linear in the folders.
fn midi_files_in(dir: &Path) -> Result<Vec<PathBuf>, String> {
    use std::os::unix::fs::MetadataExt;

    let folder_id = |path: &Path| path.metadata().ok().map(|m| (m.dev(), m.ino()));
    let mut visited: std::collections::HashSet<_> = folder_id(dir).into_iter().collect();
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in read_dir(&folder)? {
            if entry.is_dir() {
                if folder_id(&entry).is_some_and(|id| visited.insert(id)) {
                    folders.push(entry);
                }
            } else if is_midi(&entry) {
                found.push(entry);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The files in the folder of `pattern` whose names match its last part.
fn matching(pattern: &Path) -> Result<Vec<PathBuf>, String> {
    let name = pattern.file_name().unwrap_or_default().to_string_lossy();
    let folder = match pattern.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut found: Vec<PathBuf> = read_dir(folder)?
        .into_iter()
        .filter(|path| !path.is_dir())
        .filter(|path| {
            let file = path.file_name().unwrap_or_default().to_string_lossy();
            pattern::matches(&name, &file)
        })
        .map(|path| match pattern.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => path,
            _ => PathBuf::from(path.file_name().unwrap_or_default()),
        })
        .collect();
    found.sort();
    Ok(found)
}

/// The entries of `folder`, or a one-line reason.
fn read_dir(folder: &Path) -> Result<Vec<PathBuf>, String> {
    let fail = |e: std::io::Error| format!("cannot read the folder {}: {e}", folder.display());
    std::fs::read_dir(folder)
        .map_err(fail)?
        .map(|entry| entry.map(|e| e.path()).map_err(fail))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Folders keep their sub-folders; files and patterns go to the top.
    #[test]
    fn outputs_mirror_inputs() {
        let dir = std::env::temp_dir().join(format!("orchard-jobs-{}", std::process::id()));
        let deep = dir.join("songs").join("deep");
        std::fs::create_dir_all(&deep).unwrap();
        for file in [
            "songs/a.mid",
            "songs/deep/b.MIDI",
            "songs/notes.txt",
            "c.mid",
        ] {
            std::fs::write(dir.join(file), b"").unwrap();
        }
        let out = Path::new("out");
        let jobs = from_paths(&[dir.join("songs"), dir.join("*.mid")], out).unwrap();
        let outputs: Vec<&Path> = jobs.iter().map(|j| j.output.as_path()).collect();
        assert_eq!(
            outputs,
            [
                Path::new("out/a.wav"),
                Path::new("out/deep/b.wav"),
                Path::new("out/c.wav")
            ]
        );
        let error = from_paths(&[dir.join("songs/a.mid"), dir.join("songs")], out).unwrap_err();
        assert!(
            error.contains("would both be written to out/a.wav"),
            "{error}"
        );
        let error = from_paths(&[dir.join("*.midi")], out).unwrap_err();
        assert!(error.ends_with("no file matches"), "{error}");
        std::fs::remove_dir_all(dir).ok();
    }

    /// A folder holding a link to itself is searched once: each file is
    /// found once (not once a level down to the 40 links the kernel
    /// follows). `tests/inputs.rs` has two links, which made the search
    /// exponential.
    #[test]
    fn links_back_up_are_followed_once() {
        let dir = std::env::temp_dir().join(format!("orchard-loops-{}", std::process::id()));
        let songs = dir.join("songs");
        std::fs::create_dir_all(songs.join("deep")).unwrap();
        std::fs::write(songs.join("a.mid"), b"").unwrap();
        std::fs::write(songs.join("deep").join("b.mid"), b"").unwrap();
        std::os::unix::fs::symlink(".", songs.join("self")).unwrap();
        let found = midi_files_in(&songs).unwrap();
        let names: Vec<_> = found.iter().filter_map(|f| f.file_name()).collect();
        assert_eq!(names.len(), 2, "{found:?}");
        assert!(names.contains(&"a.mid".as_ref()) && names.contains(&"b.mid".as_ref()));
        std::fs::remove_dir_all(dir).ok();
    }
}
