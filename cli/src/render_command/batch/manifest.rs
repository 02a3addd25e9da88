//! A manifest: a CSV listing the files of a batch. A header names the
//! columns (`input`, `output`, `preset`, optionally `set`, in any order),
//! then each row is one render; `set` holds `PATH=VALUE` pairs joined by
//! `;`. Fields are not quoted, so none holds a comma. Inputs and preset
//! files are found from the manifest's folder.

use std::path::Path;

use orchard_engine::families::builtin_presets;
use orchard_engine::input::name as excerpt;

use super::jobs::{Job, check_distinct};

/// The largest manifest read, bytes: some 100 000 rows.
pub const MAX_MANIFEST_BYTES: u64 = 16 << 20;

/// The longest field read, bytes (the longest path Linux opens).
const MAX_FIELD_BYTES: usize = 4096;

/// The jobs `manifest` lists: inputs and preset files relative to its
/// folder (a built-in preset's name is that preset), outputs to `out_dir`
/// (its folder if `None`). Fails with one line naming the file and line of
/// the first problem, quoting at most 80 characters of it.
pub fn read(manifest: &Path, out_dir: Option<&Path>) -> Result<Vec<Job>, String> {
    let text = orchard_engine::input::read_capped_text(manifest, MAX_MANIFEST_BYTES)
        .map_err(|e| format!("--manifest {}: {e}", manifest.display()))?;
    let fail = |line: usize, reason: String| {
        format!("--manifest {} line {line}: {reason}", manifest.display())
    };
    let folder = manifest.parent().unwrap_or(Path::new(""));
    let out_dir = out_dir.unwrap_or(folder);
    let mut rows = text
        .lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty());
    let Some((header_line, header)) = rows.next() else {
        return Err(fail(
            1,
            "empty; give a header `input,output,preset,set`".into(),
        ));
    };
    let names: Vec<&str> = header.split(',').map(str::trim).collect();
    if let Some((i, name)) = names
        .iter()
        .enumerate()
        .find(|&(i, name)| names[..i].contains(name))
    {
        return Err(fail(
            header_line,
            format!(
                "the header names the column `{}` twice (columns {} and {})",
                excerpt(name),
                names.iter().position(|n| n == name).unwrap_or(0) + 1,
                i + 1
            ),
        ));
    }
    let column = |name: &str| names.iter().position(|n| *n == name);
    let (Some(input), Some(output), Some(preset)) =
        (column("input"), column("output"), column("preset"))
    else {
        return Err(fail(
            header_line,
            format!(
                "the header `{}` must name the columns input, output and preset",
                excerpt(header)
            ),
        ));
    };
    let set = column("set");
    let mut jobs = Vec::new();
    for (line, row) in rows {
        let fields: Vec<&str> = row.split(',').map(str::trim).collect();
        if fields.len() != names.len() {
            return Err(fail(
                line,
                format!(
                    "{} fields, but the header has {}",
                    fields.len(),
                    names.len()
                ),
            ));
        }
        if fields[input].is_empty() || fields[output].is_empty() {
            return Err(fail(line, "give both an input and an output".into()));
        }
        if let Some(long) = fields.iter().find(|f| f.len() > MAX_FIELD_BYTES) {
            return Err(fail(
                line,
                format!(
                    "a field of {} bytes, longer than any path ({MAX_FIELD_BYTES}): `{}`",
                    long.len(),
                    excerpt(long)
                ),
            ));
        }
        let settings = set.map_or(Vec::new(), |set| {
            fields[set]
                .split(';')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        });
        jobs.push(Job {
            input: folder.join(fields[input]),
            output: out_dir.join(fields[output]),
            preset: Some(fields[preset])
                .filter(|p| !p.is_empty())
                .map(|p| preset_from(folder, p)),
            settings,
        });
    }
    check_distinct(&jobs)?;
    Ok(jobs)
}

/// A manifest's preset `field`: a built-in preset's name as it is, else
/// the path of a file in or under the manifest's `folder`.
fn preset_from(folder: &Path, field: &str) -> String {
    if builtin_presets().iter().any(|(name, _)| *name == field) {
        field.to_owned()
    } else {
        folder.join(field).to_string_lossy().into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> Result<Vec<Job>, String> {
        let dir = std::env::temp_dir().join(format!("orchard-manifest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{}.csv", text.len()));
        std::fs::write(&path, text).unwrap();
        let jobs = read(&path, Some(Path::new("out")));
        std::fs::remove_file(path).ok();
        jobs
    }

    #[test]
    fn rows_become_jobs() {
        let jobs = read_text(
            "preset,input,output,set\n\
             ,a.mid,a.wav,\n\
             fortepiano,b.mid,sub/b.wav,tuning:a4_hz=442; strings:detune_cents=1\n",
        )
        .unwrap();
        assert_eq!(jobs.len(), 2);
        assert_eq!(jobs[0].preset, None);
        assert!(jobs[0].settings.is_empty());
        assert_eq!(jobs[1].output, Path::new("out/sub/b.wav"));
        assert_eq!(jobs[1].preset.as_deref(), Some("fortepiano"));
        assert_eq!(
            jobs[1].settings,
            ["tuning:a4_hz=442", "strings:detune_cents=1"]
        );
        assert!(jobs[1].input.ends_with("b.mid"));
    }

    #[test]
    fn problems_name_their_line() {
        let error = read_text("input,output\n").unwrap_err();
        assert!(error.contains("line 1: the header"), "{error}");
        let error = read_text("input,output,preset\na.mid,a.wav\n").unwrap_err();
        assert!(
            error.ends_with("line 2: 2 fields, but the header has 3"),
            "{error}"
        );
        let error = read_text("input,output,preset\na.mid,,\n").unwrap_err();
        assert!(error.contains("line 2: give both"), "{error}");
        let error = read_text("input,output,preset\na.mid,x.wav,\nb.mid,x.wav,\n").unwrap_err();
        assert!(error.contains("would both be written to"), "{error}");
        let error = read_text("input,output,preset\na.mid,x.wav,\nb.mid,sub/../x.wav,\n");
        assert!(error.unwrap_err().contains("would both be written to"));
        let error = read_text("input,output,preset,output\n").unwrap_err();
        assert!(
            error.ends_with("line 1: the header names the column `output` twice (columns 2 and 4)"),
            "{error}"
        );
    }

    /// A preset file is found from the manifest's folder; a built-in
    /// preset's name stays a name.
    #[test]
    fn presets_are_found_from_the_manifests_folder() {
        let folder = Path::new("lists");
        assert_eq!(preset_from(folder, "bar.toml"), "lists/bar.toml");
        assert_eq!(preset_from(folder, "music-box"), "music-box");
        assert_eq!(preset_from(Path::new(""), "bar.toml"), "bar.toml");
    }
}
