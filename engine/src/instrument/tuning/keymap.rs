//! Scala keyboard mappings (`.kbm`): which scale degree each MIDI key plays,
//! and the pitch the scale is anchored at.
//!
//! After comment lines (`!`), seven numbers, one a line: the size of the
//! mapping's repeating pattern (0: linear, every key the next degree), the
//! first and last MIDI keys mapped, the middle key (where the pattern's first
//! entry, normally degree 0, sits), the reference key and its frequency (Hz),
//! and the degree of the formal octave (the pitch distance between
//! repetitions of the pattern; 0: the scale's period). Then the pattern, one
//! entry a line for the middle key and the keys above it: a degree, or `x`
//! for a key left unmapped. Entries missing at the end are unmapped.
//!
//! Without a mapping Orchard uses Scala's standard linear one: degree 0 on
//! middle C (60), A4 (69) as the reference at 440 Hz, every key 0–127 mapped.

use super::scale::{Scale, content_lines, line_error};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The largest pattern read from a mapping file.
const MAX_MAP_SIZE: usize = 1024;

/// A keyboard mapping read from a `.kbm` file, kept with its text.
#[derive(Debug, Clone, PartialEq)]
pub struct KeyMap {
    /// The file's text (empty for the standard mapping).
    text: String,
    /// Size of the repeating pattern; 0 for a linear mapping.
    size: usize,
    /// First and last MIDI keys mapped.
    keys: (u8, u8),
    /// Key of the pattern's first entry.
    middle: u8,
    /// Key whose frequency is given.
    reference: u8,
    /// Frequency of the reference key, Hz.
    reference_hz: f64,
    /// Degree of the formal octave; 0 for the scale's period.
    octave_degree: usize,
    /// The pattern: a degree, or `None` for an unmapped key.
    pattern: Vec<Option<usize>>,
}

impl Default for KeyMap {
    /// Scala's standard mapping: linear, degree 0 on key 60, key 69 at 440 Hz.
    fn default() -> Self {
        Self {
            text: String::new(),
            size: 0,
            keys: (0, 127),
            middle: 60,
            reference: 69,
            reference_hz: 440.0,
            octave_degree: 0,
            pattern: Vec::new(),
        }
    }
}

impl KeyMap {
    /// Reads the text of a `.kbm` file; `file` names it in errors, which are
    /// one line naming the line (`keys.kbm line 9: expected a scale degree
    /// or x, found 'y'`).
    ///
    /// Allocates: the mapping.
    pub fn parse(text: &str, file: &str) -> Result<Self, String> {
        let mut lines = content_lines(text);
        let last_line = text.lines().count().max(1);
        let mut header = |what: &str| -> Result<(usize, String), String> {
            let (number, line) = lines.next().ok_or_else(|| {
                line_error(file, last_line, &format!("the file ends before {what}"))
            })?;
            Ok((
                number,
                line.split_whitespace().next().unwrap_or("").to_string(),
            ))
        };
        let whole = |(number, word): (usize, String), what: &str, max: usize| {
            word.parse::<usize>()
                .ok()
                .filter(|&n| n <= max)
                .ok_or_else(|| {
                    line_error(file, number, &format!("expected {what}, found '{word}'"))
                })
        };
        let key = |line, what: &str| whole(line, what, 127).map(|k| k as u8);
        let size = whole(
            header("the map size")?,
            &format!("the map size, 0 to {MAX_MAP_SIZE}"),
            MAX_MAP_SIZE,
        )?;
        let first = key(header("the first key")?, "the first MIDI key, 0 to 127")?;
        let last = key(header("the last key")?, "the last MIDI key, 0 to 127")?;
        let middle = key(header("the middle key")?, "the middle MIDI key, 0 to 127")?;
        let reference = key(
            header("the reference key")?,
            "the reference MIDI key, 0 to 127",
        )?;
        let (number, word) = header("the reference frequency")?;
        let reference_hz = word
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite() && *f > 0.0);
        let reference_hz = reference_hz.ok_or_else(|| {
            line_error(
                file,
                number,
                &format!("expected a frequency in Hz like 440.0, found '{word}'"),
            )
        })?;
        let octave_degree = whole(
            header("the octave degree")?,
            "the scale degree of the formal octave",
            usize::MAX,
        )?;
        let mut pattern = Vec::with_capacity(size);
        for (number, line) in lines.take(size) {
            let word = line.split_whitespace().next().unwrap_or("");
            pattern.push(if word.eq_ignore_ascii_case("x") {
                None
            } else {
                Some(word.parse::<usize>().map_err(|_| {
                    line_error(
                        file,
                        number,
                        &format!("expected a scale degree or x, found '{word}'"),
                    )
                })?)
            });
        }
        let map = Self {
            text: text.to_string(),
            size,
            keys: (first, last),
            middle,
            reference,
            reference_hz,
            octave_degree,
            pattern,
        };
        if map.keys.0 > map.keys.1 {
            return Err(format!(
                "{file}: the first key {first} lies above the last {last}"
            ));
        }
        Ok(map)
    }

    /// The text it was read from (empty for the standard mapping).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Checks that it fits `scale`: its degrees and octave degree within the
    /// scale and its reference key mapped; `file` names it in errors.
    pub fn check(&self, scale: &Scale, file: &str) -> Result<(), String> {
        let degrees = scale.len();
        if self.octave_degree > degrees {
            return Err(format!(
                "{file}: octave degree {} is past the scale's {degrees} degrees",
                self.octave_degree
            ));
        }
        if let Some(degree) = self.pattern.iter().flatten().find(|&&d| d > degrees) {
            return Err(format!(
                "{file}: degree {degree} is past the scale's {degrees} degrees"
            ));
        }
        if self.degree(self.reference).is_none() {
            return Err(format!(
                "{file}: the reference key {} is not mapped",
                self.reference
            ));
        }
        Ok(())
    }

    /// The degree (from the scale's degree 0, any whole number, periods
    /// included) that `key` plays, as the number of degrees a formal octave
    /// spans (`octave`, 0 for the scale's period) would need; `None` for an
    /// unmapped key.
    fn degree_and_octaves(&self, key: u8) -> Option<(i64, i64)> {
        if !(self.keys.0..=self.keys.1).contains(&key) {
            return None;
        }
        let from_middle = i64::from(key) - i64::from(self.middle);
        if self.size == 0 {
            return Some((from_middle, 0));
        }
        let size = self.size as i64;
        let entry = from_middle.rem_euclid(size) as usize;
        let degree = (*self.pattern.get(entry)?)?;
        Some((degree as i64, from_middle.div_euclid(size)))
    }

    /// Whether `key` is mapped.
    fn degree(&self, key: u8) -> Option<i64> {
        self.degree_and_octaves(key).map(|(d, _)| d)
    }

    /// The pitch of `key` above the scale's degree 0, cents; `None` for an
    /// unmapped key.
    fn key_cents(&self, scale: &Scale, key: u8) -> Option<f64> {
        let (degree, octaves) = self.degree_and_octaves(key)?;
        let octave = match self.octave_degree {
            0 => scale.period_cents(),
            d => scale.degree_cents(d as i64),
        };
        Some(scale.degree_cents(degree) + octaves as f64 * octave)
    }

    /// The frequency of `key` in `scale`, Hz, with the reference key at its
    /// frequency times `transpose`; `None` for an unmapped key.
    pub fn frequency_hz(&self, scale: &Scale, key: u8, transpose: f64) -> Option<f64> {
        let cents = self.key_cents(scale, key)? - self.key_cents(scale, self.reference)?;
        Some(self.reference_hz * transpose * 2f64.powf(cents / 1200.0))
    }
}

impl Serialize for KeyMap {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for KeyMap {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse(&text, "keymap").map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scale_19() -> Scale {
        let pitches: String = (1..=19)
            .map(|i| format!("{:.6}\n", 1200.0 * f64::from(i) / 19.0))
            .collect();
        Scale::parse(&format!("19-EDO\n19\n{pitches}"), "19.scl").unwrap()
    }

    #[test]
    fn the_standard_mapping_is_linear_from_middle_c_with_a_at_440() {
        let map = KeyMap::default();
        let scale = scale_19();
        assert_eq!(map.frequency_hz(&scale, 69, 1.0), Some(440.0));
        let c = map.frequency_hz(&scale, 60, 1.0).unwrap();
        assert!((c - 440.0 * 2f64.powf(-9.0 / 19.0)).abs() < 1e-6);
        let up = map.frequency_hz(&scale, 79, 1.0).unwrap();
        assert!((up / c - 2.0).abs() < 1e-12);
    }

    #[test]
    fn a_pattern_with_gaps_and_a_formal_octave() {
        // Seven white keys from C play a 7-degree scale; black keys unmapped.
        let text =
            "! white.kbm\n12\n0\n127\n60\n69\n440.0\n7\n0\nx\n1\nx\n2\n3\nx\n4\nx\n5\nx\n6\n";
        let map = KeyMap::parse(text, "white.kbm").unwrap();
        let pitches: String = (1..=7)
            .map(|i| format!("{:.6}\n", 1200.0 * f64::from(i) / 7.0))
            .collect();
        let scale = Scale::parse(&format!("7-EDO\n7\n{pitches}"), "7.scl").unwrap();
        map.check(&scale, "white.kbm").unwrap();
        assert_eq!(map.frequency_hz(&scale, 61, 1.0), None);
        assert_eq!(map.frequency_hz(&scale, 69, 1.0), Some(440.0));
        let c4 = map.frequency_hz(&scale, 60, 1.0).unwrap();
        let c5 = map.frequency_hz(&scale, 72, 1.0).unwrap();
        let d4 = map.frequency_hz(&scale, 62, 1.0).unwrap();
        assert!((c5 / c4 - 2.0).abs() < 1e-9);
        assert!((1200.0 * (d4 / c4).log2() - 1200.0 / 7.0).abs() < 1e-4);
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let cases = [
            (
                "12\n0\n127\n60\n69\nfast\n",
                "keys.kbm line 6: expected a frequency in Hz like 440.0, found 'fast'",
            ),
            (
                "12\n0\n200\n",
                "keys.kbm line 3: expected the last MIDI key, 0 to 127, found '200'",
            ),
            (
                "2\n0\n127\n60\n69\n440\n2\n0\ny\n",
                "keys.kbm line 9: expected a scale degree or x, found 'y'",
            ),
            (
                "! x\n12\n0\n",
                "keys.kbm line 3: the file ends before the last key",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(KeyMap::parse(text, "keys.kbm").unwrap_err(), message);
        }
    }
}
