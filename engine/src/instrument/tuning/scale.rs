//! Scala scale files (`.scl`): a scale as its pitches above the first degree.
//!
//! Lines starting with `!` are comments. The first other line is the
//! description (it may be empty); the next holds the number of pitches; then
//! come that many pitch lines, each a ratio (`3/2`, or a whole number such as
//! `2`, meaning 2/1) or a value in cents (anything with a `.`: `701.955`),
//! text after the value (separated by white space) ignored. The first degree,
//! 1/1, is implied; the last pitch is the period the scale repeats at
//! (usually the octave, 2/1). The pitches must rise, each above the one
//! before (the first above 1/1), so that the last is the highest: a scale
//! whose steps fall is refused at the line of the pitch that falls. A file
//! with zero pitches is the one-note scale
//! repeating at the unison, refused here since it cannot tune a keyboard.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The largest number of pitches read from a scale file.
const MAX_SCALE_PITCHES: usize = 1024;

/// A scale read from a `.scl` file, kept with the text it was read from (so
/// that a preset or a saved state holds the scale itself, not a path).
#[derive(Debug, Clone, PartialEq)]
pub struct Scale {
    /// The file's text.
    text: String,
    /// The description line.
    description: String,
    /// Degrees 1..=N above degree 0, cents; the last is the period.
    pitches_cents: Vec<f64>,
}

/// A line of a Scala file: its number (from 1) and text, comments skipped.
pub(super) fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim_end_matches('\r')))
        .filter(|(_, line)| !line.starts_with('!'))
}

/// The error message for line `line` of file `file`.
pub(super) fn line_error(file: &str, line: usize, what: &str) -> String {
    format!("{file} line {line}: {what}")
}

/// Reads one pitch: a ratio `p/q` or whole number, or cents with a `.`;
/// the error says what was found.
fn parse_pitch(line: &str) -> Result<f64, String> {
    let word = pitch_word(line);
    let expected =
        || format!("expected a ratio like 3/2 or a cents value like 701.955, found '{word}'");
    let cents = if word.contains('.') {
        word.parse::<f64>().map_err(|_| expected())?
    } else {
        let (p, q) = word.split_once('/').unwrap_or((word, "1"));
        let p: u64 = p.parse().map_err(|_| expected())?;
        let q: u64 = q.parse().map_err(|_| expected())?;
        if p == 0 || q == 0 {
            return Err(format!("a ratio must be positive, found '{word}'"));
        }
        1200.0 * (p as f64 / q as f64).log2()
    };
    if cents.is_finite() {
        Ok(cents)
    } else {
        Err(expected())
    }
}

/// The first word of a pitch line: the pitch as written.
fn pitch_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// Why the pitch written `word` cannot follow the one written `before`
/// (`None` for the first pitch, which follows 1/1): a scale's steps must
/// rise, each pitch above the one before and the last, the period,
/// highest. A falling or zero step would tune a key at or below the key
/// under it, and through the period put keys far outside the
/// instrument's range.
fn falling_step(word: &str, before: Option<&str>) -> String {
    match before {
        None => format!("the scale's steps must rise: its first pitch, '{word}', is not above 1/1"),
        Some(before) => format!(
            "the scale's steps must rise: '{word}' is not above the pitch before it, '{before}'"
        ),
    }
}

impl Scale {
    /// Reads the text of a `.scl` file; `file` names it in errors, which are
    /// one line naming the line: `tuning.scl line 7: expected a ratio like
    /// 3/2 or a cents value like 701.955, found 'abc'`.
    ///
    /// Allocates: the scale.
    pub fn parse(text: &str, file: &str) -> Result<Self, String> {
        let mut lines = content_lines(text);
        let last_line = text.lines().count().max(1);
        let end = |what: &str| line_error(file, last_line, &format!("the file ends before {what}"));
        let (_, description) = lines.next().ok_or_else(|| end("the description"))?;
        let (count_line, count) = lines.next().ok_or_else(|| end("the number of pitches"))?;
        let word = count.split_whitespace().next().unwrap_or("");
        let count: usize = word.parse().map_err(|_| {
            line_error(
                file,
                count_line,
                &format!("expected the number of pitches, found '{word}'"),
            )
        })?;
        if count == 0 || count > MAX_SCALE_PITCHES {
            return Err(line_error(
                file,
                count_line,
                &format!("the number of pitches must be 1 to {MAX_SCALE_PITCHES}, found {count}"),
            ));
        }
        let mut pitches_cents: Vec<f64> = Vec::with_capacity(count);
        let mut before = None;
        for (number, line) in lines.by_ref().take(count) {
            let cents = parse_pitch(line).map_err(|e| line_error(file, number, &e))?;
            if cents <= pitches_cents.last().copied().unwrap_or(0.0) {
                let why = falling_step(pitch_word(line), before);
                return Err(line_error(file, number, &why));
            }
            pitches_cents.push(cents);
            before = Some(pitch_word(line));
        }
        if pitches_cents.len() < count {
            return Err(end(&format!(
                "its {count} pitches (found {})",
                pitches_cents.len()
            )));
        }
        Ok(Self {
            text: text.to_string(),
            description: description.trim().to_string(),
            pitches_cents,
        })
    }

    /// The text it was read from.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its description line.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Number of degrees per period.
    pub fn len(&self) -> usize {
        self.pitches_cents.len()
    }

    /// Always false: a scale has at least one pitch, its period.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Its period (the last pitch), cents.
    pub fn period_cents(&self) -> f64 {
        self.pitches_cents[self.len() - 1]
    }

    /// The pitch of degree `degree` above degree 0 (any whole number: degrees
    /// past the last, or below 0, repeat the scale a period higher or lower),
    /// cents.
    pub fn degree_cents(&self, degree: i64) -> f64 {
        let n = self.len() as i64;
        let (periods, step) = (degree.div_euclid(n), degree.rem_euclid(n));
        let within = if step == 0 {
            0.0
        } else {
            self.pitches_cents[step as usize - 1]
        };
        periods as f64 * self.period_cents() + within
    }
}

impl Serialize for Scale {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Scale {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse(&text, "scale").map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_cents_and_comments_are_read() {
        let text = "! meantone.scl\n!\nQuarter-comma meantone fragment\n 3\n!\n 5/4 pure third\n696.578\n2\n";
        let scale = Scale::parse(text, "meantone.scl").unwrap();
        assert_eq!(scale.description(), "Quarter-comma meantone fragment");
        assert_eq!(scale.len(), 3);
        assert!((scale.degree_cents(1) - 386.313_713_9).abs() < 1e-6);
        assert_eq!(scale.degree_cents(2), 696.578);
        assert_eq!(scale.degree_cents(3), 1200.0);
        assert!((scale.degree_cents(-2) - (386.313_713_9 - 1200.0)).abs() < 1e-6);
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let cases = [
            (
                "! x\nscale\n3\n9/8\n5/4\n\nabc\n",
                "tuning.scl line 6: expected a ratio like 3/2 or a cents value like 701.955, found ''",
            ),
            (
                "scale\n2\n3/2\nabc\n",
                "tuning.scl line 4: expected a ratio like 3/2 or a cents value like 701.955, found 'abc'",
            ),
            (
                "scale\ntwelve\n",
                "tuning.scl line 2: expected the number of pitches, found 'twelve'",
            ),
            (
                "scale\n2\n3/2\n",
                "tuning.scl line 3: the file ends before its 2 pitches (found 1)",
            ),
            (
                "scale\n1\n0/2\n",
                "tuning.scl line 3: a ratio must be positive, found '0/2'",
            ),
            (
                "scale\n3\n700.0\n500.0\n2/1\n",
                "tuning.scl line 4: the scale's steps must rise: '500.0' is not above the pitch before it, '700.0'",
            ),
            (
                "! negative steps\nscale\n2\n-100.0 down a semitone\n1200.0\n",
                "tuning.scl line 4: the scale's steps must rise: its first pitch, '-100.0', is not above 1/1",
            ),
            (
                "scale\n2\n3/2\n3/2\n",
                "tuning.scl line 4: the scale's steps must rise: '3/2' is not above the pitch before it, '3/2'",
            ),
            (
                "scale\n2\n3/2\n4/3\n",
                "tuning.scl line 4: the scale's steps must rise: '4/3' is not above the pitch before it, '3/2'",
            ),
            (
                "! only a comment\n",
                "tuning.scl line 1: the file ends before the description",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(Scale::parse(text, "tuning.scl").unwrap_err(), message);
        }
    }
}
