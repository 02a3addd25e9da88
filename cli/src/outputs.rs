//! The output paths of a render, checked before anything is rendered: each
//! must name a file (not a directory) in a directory that exists, and no two
//! may name the same file. `-` (the standard output) and devices pass.

use std::path::{Path, PathBuf};

use super::destination::is_stdout;

/// Refuses, before anything is rendered, outputs that cannot be written as
/// asked; `outputs` are (flag, path) pairs, e.g. `("-o", "song.wav")`.
pub fn check(outputs: &[(&str, &Path)]) -> Result<(), String> {
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
    for (i, &(flag, path)) in outputs.iter().enumerate() {
        if let Some(&(first, _)) = outputs[..i].iter().find(|(_, p)| same_file(p, path)) {
            return Err(format!(
                "{flag} {}: the same file as {first}; give each output a file of its own",
                path.display()
            ));
        }
    }
    Ok(())
}

/// The directory `path` is in (`.` for a bare name).
fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Whether `a` and `b` name the same file (existing or not): the same name
/// in the same directory, however either is spelt, or both the standard
/// output.
fn same_file(a: &Path, b: &Path) -> bool {
    if is_stdout(a) || is_stdout(b) {
        return is_stdout(a) && is_stdout(b);
    }
    let resolve = |path: &Path| {
        (
            parent(path).canonicalize().ok(),
            path.file_name().map(|n| n.to_owned()),
        )
    };
    let (a, b) = (resolve(a), resolve(b));
    a.0.is_some() && a == b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two spellings of one file are one file; `-` is only itself.
    #[test]
    fn one_file_however_spelt() {
        let dir = std::env::temp_dir();
        let a = dir.join("orchard-x.wav");
        let b = dir.join(".").join("orchard-x.wav");
        assert!(same_file(&a, &b));
        assert!(!same_file(&a, &dir.join("orchard-y.wav")));
        assert!(same_file(Path::new("-"), Path::new("-")));
        assert!(!same_file(Path::new("-"), Path::new("./-")));
        let error = check(&[("-o", &a), ("--probe-out", &b)]).unwrap_err();
        assert!(error.contains("the same file as -o"), "{error}");
        assert!(check(&[("-o", Path::new("-")), ("--probe-out", &a)]).is_ok());
    }

    /// A directory, or a file in a directory that does not exist, is refused.
    #[test]
    fn directories_and_missing_parents_are_refused() {
        let dir = std::env::temp_dir();
        let error = check(&[("-o", &dir)]).unwrap_err();
        assert!(error.ends_with("is a directory; give a file name in it"));
        let missing = dir.join("orchard-no-such-directory").join("x.wav");
        let error = check(&[("-o", &missing)]).unwrap_err();
        assert!(error.contains("there is no directory"), "{error}");
        assert!(error.contains("orchard-no-such-directory"), "{error}");
        assert!(check(&[("-o", Path::new("bare.wav"))]).is_ok());
        assert!(check(&[("-o", Path::new("/dev/null"))]).is_ok());
    }
}
