//! The output paths of a command, checked before anything is written: each
//! must name a file (not a directory) in a directory that exists, no two may
//! name the same file, and none may be one of the command's inputs, however
//! either is spelt (`X.mid`, `./X.mid`, a symbolic link to it, a hard link:
//! files are told apart by device and inode). `-` (the standard output) and
//! devices pass the first check.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use crate::destination::is_stdout;

/// A command-line path with the option or argument that gave it, e.g.
/// `("-o", "song.wav")` or `("MIDI", "song.mid")`.
pub type Named<'a> = (&'a str, &'a Path);

/// Refuses, before anything is written, outputs that cannot be written as
/// asked or would destroy an input; `outputs` and `inputs` are (flag, path)
/// pairs. An input that does not exist (a built-in preset's name) is no file
/// and is passed over.
pub fn check(outputs: &[Named<'_>], inputs: &[Named<'_>]) -> Result<(), String> {
    for &(flag, path) in outputs {
        if is_stdout(path) {
            continue;
        }
        let text = path.to_string_lossy();
        if path.is_dir() || text.ends_with(std::path::MAIN_SEPARATOR) {
            return Err(format!(
                "{flag} {}: is a directory; give a file name in it",
                path.display()
            ));
        }
        let parent = parent(path);
        if !parent.is_dir() {
            return Err(format!(
                "{flag} {}: there is no directory {}",
                path.display(),
                parent.display()
            ));
        }
    }
    check_apart(outputs, inputs)
}

/// Refuses two outputs that are one file, or an output that is an input:
/// the part of [`check`] a batch makes over all its files at once (whose
/// folders may not exist yet). One line naming both paths.
pub fn check_apart(outputs: &[Named<'_>], inputs: &[Named<'_>]) -> Result<(), String> {
    let mut input_files = HashMap::new();
    for &(flag, path) in inputs {
        if let Some(id) = file_id(path) {
            input_files.entry(id).or_insert((flag, path));
        }
    }
    let mut output_files = HashMap::new();
    let mut output_places = HashMap::new();
    for &(flag, path) in outputs {
        if is_stdout(path) {
            if let Some(first) = output_places.insert(PathBuf::from("-"), (flag, path)) {
                return Err(same_output(flag, path, first));
            }
            continue;
        }
        let id = file_id(path);
        if let Some((input_flag, input)) = id.and_then(|id| input_files.get(&id)) {
            return Err(format!(
                "{flag} {}: is the input {}{}; writing it would destroy it, give another output",
                path.display(),
                if input_flag.starts_with('-') {
                    format!("{input_flag} ")
                } else {
                    String::new()
                },
                input.display()
            ));
        }
        let earlier = id
            .and_then(|id| output_files.insert(id, (flag, path)))
            .or_else(|| output_places.insert(place(path), (flag, path)));
        if let Some(first) = earlier {
            return Err(same_output(flag, path, first));
        }
    }
    Ok(())
}

/// The error for output `path` given with `flag` that is the same file as
/// the output `first`.
fn same_output(flag: &str, path: &Path, first: Named<'_>) -> String {
    format!(
        "{flag} {}: the same file as {} {}; give each output a file of its own",
        path.display(),
        first.0,
        first.1.display()
    )
}

/// The device and inode of the file `path` names, symbolic links followed;
/// `None` if there is none.
fn file_id(path: &Path) -> Option<(u64, u64)> {
    path.metadata().ok().map(|m| (m.dev(), m.ino()))
}

/// Where `path` is or would be, the same however it is spelt (so that two
/// outputs that do not exist yet can be told apart): its longest existing ancestor with every
/// symbolic link resolved, then the rest as written, `..` taking back the
/// part before it (folders still to be made are plain folders).
pub fn place(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let components: Vec<Component<'_>> = absolute.components().collect();
    for split in (1..=components.len()).rev() {
        let existing: PathBuf = components[..split].iter().collect();
        if let Ok(mut resolved) = existing.canonicalize() {
            for component in &components[split..] {
                match component {
                    Component::ParentDir => {
                        resolved.pop();
                    }
                    Component::Normal(name) => resolved.push(name),
                    _ => {}
                }
            }
            return resolved;
        }
    }
    absolute
}

/// The directory `path` is in (`.` for a bare name).
fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Checks that `path`, given with `flag`, names a PNG file.
pub fn require_png(flag: &str, path: &Path) -> Result<(), String> {
    let is_png = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if is_png {
        Ok(())
    } else {
        Err(format!(
            "{flag} {}: images are written as PNG, so the name must end in .png",
            path.display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two spellings of one file are one file, whether it exists or not
    /// (`sub/../x.wav` with no `sub` yet); `-` is only itself.
    #[test]
    fn one_file_however_spelt() {
        let dir = std::env::temp_dir().join(format!("orchard-outputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("orchard-x.wav");
        let b = dir.join(".").join("orchard-x.wav");
        let c = dir.join("no-such-sub").join("..").join("orchard-x.wav");
        assert_eq!(place(&a), place(&b));
        assert_eq!(place(&a), place(&c));
        assert_ne!(place(&a), place(&dir.join("orchard-y.wav")));
        let error = check(&[("-o", &a), ("--probe-out", &b)], &[]).unwrap_err();
        assert!(error.contains("the same file as -o"), "{error}");
        let error = check_apart(&[("-o", &a), ("-o", &c)], &[]).unwrap_err();
        assert!(error.contains("the same file as -o"), "{error}");
        assert!(check(&[("-o", Path::new("-")), ("--probe-out", &a)], &[]).is_ok());
        assert!(
            check(
                &[("-o", Path::new("-")), ("--probe-out", Path::new("./-"))],
                &[]
            )
            .is_ok()
        );
        let error = check(
            &[("-o", Path::new("-")), ("--probe-out", Path::new("-"))],
            &[],
        );
        assert!(error.is_err());
        std::fs::remove_dir_all(dir).ok();
    }

    /// An output that is an input, through another spelling, a symbolic
    /// link or a hard link, is refused naming both.
    #[test]
    fn an_input_is_never_an_output() {
        let dir = std::env::temp_dir().join(format!("orchard-inputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let midi = dir.join("x.mid");
        std::fs::write(&midi, b"MThd").unwrap();
        let link = dir.join("link.wav");
        std::os::unix::fs::symlink(&midi, &link).unwrap();
        let hard = dir.join("hard.wav");
        std::fs::hard_link(&midi, &hard).unwrap();
        let dotted = dir.join(".").join("x.mid");
        for output in [&midi, &link, &hard, &dotted] {
            let error = check(&[("-o", output)], &[("MIDI", &midi)]).unwrap_err();
            assert!(
                error.contains("is the input") && error.contains("x.mid"),
                "{error}"
            );
        }
        let error = check(&[("--probe-out", &midi)], &[("--preset", &midi)]).unwrap_err();
        assert!(error.contains("is the input --preset"), "{error}");
        let other = dir.join("y.wav");
        assert!(
            check(
                &[("-o", &other)],
                &[("MIDI", &midi), ("--preset", Path::new("grand-piano"))]
            )
            .is_ok()
        );
        std::fs::remove_dir_all(dir).ok();
    }

    /// A directory, or a file in a directory that does not exist, is refused.
    #[test]
    fn directories_and_missing_parents_are_refused() {
        let dir = std::env::temp_dir();
        let error = check(&[("-o", &dir)], &[]).unwrap_err();
        assert!(error.ends_with("is a directory; give a file name in it"));
        let missing = dir.join("orchard-no-such-directory").join("x.wav");
        let error = check(&[("-o", &missing)], &[]).unwrap_err();
        assert!(error.contains("there is no directory"), "{error}");
        assert!(error.contains("orchard-no-such-directory"), "{error}");
        assert!(check(&[("-o", Path::new("bare.wav"))], &[]).is_ok());
        assert!(check(&[("-o", Path::new("/dev/null"))], &[]).is_ok());
    }
}
