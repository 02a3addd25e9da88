//! Reading input files: with a size cap, so that a device or a huge file is
//! refused after `cap` bytes instead of filling memory, and with parse errors
//! told on one short line.

use std::io::Read;
use std::path::Path;

/// The bytes of the file at `path`, or a one-line reason: it cannot be
/// read, it is not a regular file (a folder, a device such as `/dev/zero`,
/// a FIFO or a socket), or it holds more than `cap` bytes (the reason names
/// the cap). Every input file the command line and the standalone app read
/// comes through here.
///
/// Never blocks: the file is opened without waiting for a writer (on Unix
/// `O_NONBLOCK`, which a FIFO would otherwise wait on for ever), and its
/// type is checked on the open file before a byte is read.
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, String> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > cap {
        return Err(if cap >= 1 << 20 {
            format!("larger than {} MiB", cap >> 20)
        } else {
            format!("larger than {cap} bytes")
        });
    }
    Ok(bytes)
}

/// `path` opened for reading if it is a regular file (symbolic links
/// followed), without blocking on a FIFO; else a one-line reason.
fn open_regular(path: &Path) -> Result<std::fs::File, String> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Opening a FIFO returns at once instead of waiting for a writer;
        // on a regular file the flag changes nothing.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| e.to_string())?;
    let kind = file.metadata().map_err(|e| e.to_string())?.file_type();
    if kind.is_file() {
        Ok(file)
    } else if kind.is_dir() {
        Err("is a folder, not a file".into())
    } else {
        Err("is not a regular file (a device, FIFO or socket is not read)".into())
    }
}

/// The text of the file at `path`, as [`read_capped`] reads it; text that is
/// not UTF-8 is an error too.
pub fn read_capped_text(path: &Path, cap: u64) -> Result<String, String> {
    String::from_utf8(read_capped(path, cap)?).map_err(|_| "not UTF-8 text".to_string())
}

/// Longest excerpt of the input an error quotes, characters.
const EXCERPT_CHARS: usize = 40;

/// One line for a TOML error in `text`: where (line and column), the key
/// there (under its `[table]`), what was expected and found, and a short
/// excerpt of the input, never the whole line.
pub fn toml_error(text: &str, error: &toml::de::Error) -> String {
    let message = one_line(error.message());
    let Some(span) = error.span() else {
        return message;
    };
    let start = span.start.min(text.len());
    let before = &text[..floor_char_boundary(text, start)];
    let line_number = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    let line = &text[line_start..line_end];
    let column = before[line_start..].chars().count() + 1;
    let key = key_at(&text[..line_start], line);
    let excerpt = excerpt(line.trim());
    format!("line {line_number}, column {column}{key}: {message} (at `{excerpt}`)")
}

/// `, key `TABLE.KEY`` for the key assigned on `line` under the last table
/// header in `above`, or as much of it as there is.
fn key_at(above: &str, line: &str) -> String {
    let table = above
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('[') && l.len() < 200)
        .map(|header| header.trim_matches(|c| c == '[' || c == ']').trim());
    let key = line
        .split_once('=')
        .map(|(key, _)| key.trim())
        .filter(|key| !key.is_empty() && key.len() < 64 && !key.contains(char::is_whitespace));
    match (table, key) {
        (Some(table), Some(key)) => format!(", key `{}`", excerpt(&format!("{table}.{key}"))),
        (None, Some(key)) => format!(", key `{}`", excerpt(key)),
        (Some(table), None) => format!(", in `[{}]`", excerpt(table)),
        (None, None) => String::new(),
    }
}

/// `text` as an error quotes it: on one line (control characters as
/// spaces), at most 40 characters, with `…` where it was cut.
pub fn excerpt(text: &str) -> String {
    excerpt_of(text, EXCERPT_CHARS)
}

/// A name or property path as an error quotes it: whole up to 80
/// characters (the longest paths of the built-in presets are about 45),
/// else cut as [`excerpt`] cuts, so that a name made of a large input is not
/// echoed whole.
pub fn name(text: &str) -> String {
    excerpt_of(text, 80)
}

/// `value` as an error quotes it: as Rust writes it, unless that runs past
/// 20 characters, then in scientific notation (`1e230`, not 231 digits).
pub fn number(value: f64) -> String {
    let plain = format!("{value}");
    if plain.len() > 20 {
        format!("{value:e}")
    } else {
        plain
    }
}

/// Longest message [`one_line`] leaves, characters.
const MESSAGE_CHARS: usize = 140;

/// A parser's error `message` made fit for one line: quoted spans (in `"`
/// or `` ` ``) cut to an [`excerpt`], runs of blanks and control characters
/// as one space, and the
/// whole cut at 140 characters, so that no error echoes a large input.
pub fn one_line(message: &str) -> String {
    let mut out = String::new();
    let mut rest = message;
    while let Some(open) = rest.find(['"', '`']) {
        let quote = rest[open..].chars().next().unwrap_or('"');
        out.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        let (inside, tail) = match after.find(quote) {
            Some(close) => (&after[..close], &after[close..]),
            None => (after, ""),
        };
        out.push_str(&excerpt(inside));
        match tail.strip_prefix(quote) {
            Some(tail) => {
                out.push(quote);
                rest = tail;
            }
            None => rest = tail,
        }
    }
    out.push_str(rest);
    let words: Vec<&str> = out.split_whitespace().collect();
    excerpt_of(&words.join(" "), MESSAGE_CHARS)
}

/// `text` on one line, at most `chars` characters, `…` where it was cut.
fn excerpt_of(text: &str, chars: usize) -> String {
    let one_line = |c: char| if c.is_control() { ' ' } else { c };
    let mut cut: String = text.chars().take(chars).map(one_line).collect();
    if text.chars().nth(chars).is_some() {
        cut.push('…');
    }
    cut
}

/// The largest character boundary of `text` at or before `index`.
fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// Hours after midnight of a time of day typed as `HH:MM` or `HH:MM:SS`
/// (24-hour, one or two digits a field, from 00:00 to 24:00), if it is one.
pub fn time_of_day_h(text: &str) -> Option<f64> {
    let parts: Vec<&str> = text.trim().split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let mut fields = [0u32; 3];
    for (field, part) in fields.iter_mut().zip(&parts) {
        if part.is_empty() || part.len() > 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *field = part.parse().ok()?;
    }
    let [h, m, s] = fields;
    let seconds = h * 3600 + m * 60 + s;
    (m < 60 && s < 60 && seconds <= 24 * 3600).then(|| f64::from(seconds) / 3600.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)] // read only to fail
    struct Tuning {
        a4_hz: f64,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Doc {
        tuning: Tuning,
    }

    #[test]
    fn a_toml_error_says_where_what_and_quotes_little() {
        let text = "name = \"x\"\n[tuning]\na4_hz = \"high\"\n";
        let error = toml::from_str::<Doc>(text).unwrap_err();
        let line = toml_error(text, &error);
        assert!(
            line.starts_with("line 3, column 9, key `tuning.a4_hz`:"),
            "{line}"
        );
        assert!(
            line.contains("expected") && line.contains("a4_hz = \"high\""),
            "{line}"
        );
        assert!(!line.contains('\n'));
        let long = format!("[tuning]\na4_hz = {}", "9".repeat(1_000_000));
        let error = toml::from_str::<Doc>(&long).unwrap_err();
        let line = toml_error(&long, &error);
        assert!(line.len() < 300, "{} characters", line.len());
    }

    /// A parser's message keeps its words but quotes at most an excerpt of
    /// each quoted span, on one line.
    #[test]
    fn one_line_cuts_what_it_quotes() {
        let long = "q".repeat(10_000);
        let line = one_line(&format!(
            "invalid type: string \"{long}\",\n expected `u32`"
        ));
        assert!(
            line.starts_with("invalid type: string \"qqq") && line.ends_with("…\", expected `u32`"),
            "{line}"
        );
        assert!(line.chars().count() < 100, "{line}");
        assert!(one_line(&long).chars().count() <= 141);
        assert_eq!(excerpt("a\nb"), "a b");
        assert_eq!(number(1e230), "1e230");
        assert_eq!(number(-2.5e-30), "-2.5e-30");
        assert_eq!(number(2.4e13), "24000000000000");
        assert_eq!(
            (number(442.0), number(0.0), number(f64::NAN)),
            ("442".into(), "0".into(), "NaN".into())
        );
    }

    /// A device without end, a FIFO nobody writes to and a folder are
    /// refused at once (the FIFO would block a plain `open` for ever); a
    /// regular file larger than the cap is refused at the cap.
    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_read_and_only_up_to_the_cap() {
        let reason = read_capped(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(reason.contains("not a regular file"), "{reason}");
        let dir = std::env::temp_dir().join(format!("orchard-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let reason = read_capped(&fifo, 1 << 20).unwrap_err();
        assert!(reason.contains("not a regular file"), "{reason}");
        let reason = read_capped(&dir, 1 << 20).unwrap_err();
        assert!(reason.contains("is a folder"), "{reason}");
        std::fs::remove_dir_all(dir).ok();
        let text = std::env::temp_dir().join(format!("orchard-cap-{}", std::process::id()));
        std::fs::write(&text, "tuning = 1").unwrap();
        assert_eq!(read_capped_text(&text, 10).unwrap(), "tuning = 1");
        assert_eq!(
            read_capped_text(&text, 9).unwrap_err(),
            "larger than 9 bytes"
        );
        std::fs::remove_file(text).ok();
    }

    #[test]
    fn times_of_day_read_as_hours_and_nonsense_is_refused() {
        assert_eq!(time_of_day_h("11:59:00"), Some(11.0 + 59.0 / 60.0));
        assert_eq!(time_of_day_h(" 7:05 "), Some(7.0 + 5.0 / 60.0));
        assert_eq!(time_of_day_h("24:00"), Some(24.0));
        for bad in [
            "24:00:01", "12:60", "12:00:60", "12", "1:2:3:4", "+1:00", "a:00", "123:00", "",
        ] {
            assert_eq!(time_of_day_h(bad), None, "{bad}");
        }
    }
}
