//! Numeric options and their ranges: each range is declared once (a
//! [`Ranged`] constant beside its option), checked once, and a value outside
//! it is refused with the range in the message, e.g. `--max-tail 1e300 must
//! be between 0 and 600 s`.
//!
//! A `Ranged` is a clap value parser (`value_parser = MAX_TAIL`), so options
//! with a fixed range are checked as the command line is read; an option
//! whose range depends on another (`analyze --duration`, by mode) is checked
//! with [`Ranged::check`] once that is known.

use std::ffi::OsStr;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;

/// A range of values for a numeric (floating-point) option, with its unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ranged {
    /// Smallest value.
    pub min: f64,
    /// Whether `min` itself is allowed (else only values above it).
    pub min_included: bool,
    /// Largest value, included.
    pub max: f64,
    /// Unit, for messages: `s`, `dBFS`.
    pub unit: &'static str,
}

impl Ranged {
    /// From `min` to `max`, both included.
    pub const fn closed(min: f64, max: f64, unit: &'static str) -> Self {
        Self {
            min,
            min_included: true,
            max,
            unit,
        }
    }

    /// More than `min`, at most `max`.
    pub const fn above(min: f64, max: f64, unit: &'static str) -> Self {
        Self {
            min,
            min_included: false,
            max,
            unit,
        }
    }

    /// Whether `value` is in the range (NaN never is).
    pub fn contains(&self, value: f64) -> bool {
        let above_min = if self.min_included {
            value >= self.min
        } else {
            value > self.min
        };
        above_min && value <= self.max
    }

    /// The range in words: `between 0 and 600 s`, `more than 0 and at most 10 s`.
    pub fn describe(&self) -> String {
        let (min, max, unit) = (self.min, self.max, self.unit);
        if self.min_included {
            format!("between {min} and {max} {unit}")
        } else {
            format!("more than {min} and at most {max} {unit}")
        }
    }

    /// `value` if it is in the range, else the one-line reason naming `flag`.
    pub fn check(&self, flag: &str, value: f64) -> Result<f64, String> {
        self.check_text(flag, &format!("{value:?}"), value)
    }

    /// [`Ranged::check`] quoting the value as it was given (`text`).
    fn check_text(&self, flag: &str, text: &str, value: f64) -> Result<f64, String> {
        if self.contains(value) {
            Ok(value)
        } else {
            Err(format!("{flag} {text} must be {}", self.describe()))
        }
    }
}

impl TypedValueParser for Ranged {
    type Value = f64;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<f64, clap::Error> {
        let flag = arg
            .and_then(clap::Arg::get_long)
            .map_or_else(|| "a value".to_owned(), |long| format!("--{long}"));
        let text = value.to_string_lossy();
        let shown: String = text.chars().take(24).collect();
        let number = text.trim().parse::<f64>().map_err(|_| {
            format!(
                "{flag} {shown}: not a number (it must be {})",
                self.describe()
            )
        });
        number
            .and_then(|number| self.check_text(&flag, &shown, number))
            .map_err(|message| clap::Error::raw(ErrorKind::ValueValidation, message).with_cmd(cmd))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    const TAIL: Ranged = Ranged::closed(0.0, 600.0, "s");
    const INTERVAL: Ranged = Ranged::above(0.0, 10.0, "s");

    #[derive(Debug, Parser)]
    struct Options {
        #[arg(long, value_parser = TAIL, default_value_t = 20.0)]
        tail: f64,
        #[arg(long, value_parser = INTERVAL)]
        interval: Option<f64>,
    }

    fn parse(args: &[&str]) -> Result<Options, String> {
        let args = std::iter::once("test").chain(args.iter().copied());
        Options::try_parse_from(args).map_err(|e| e.to_string())
    }

    /// Values inside the range pass, its ends as declared; the default too.
    #[test]
    fn values_in_range_pass() {
        assert_eq!(parse(&[]).unwrap().tail, 20.0);
        assert_eq!(parse(&["--tail", "0"]).unwrap().tail, 0.0);
        assert_eq!(parse(&["--tail=600"]).unwrap().tail, 600.0);
        assert_eq!(parse(&["--interval", "10"]).unwrap().interval, Some(10.0));
        assert_eq!(parse(&["--interval", "1e-9"]).unwrap().interval, Some(1e-9));
    }

    /// Values outside it, NaN, infinities and words are refused with the
    /// option, the value as given and the range.
    #[test]
    fn values_outside_are_refused_with_the_range() {
        for (args, message) in [
            (
                ["--tail", "1e300"],
                "--tail 1e300 must be between 0 and 600 s",
            ),
            (
                ["--tail=-1", "--interval=1"],
                "--tail -1 must be between 0 and 600 s",
            ),
            (["--tail", "NaN"], "--tail NaN must be between 0 and 600 s"),
            (["--tail", "inf"], "--tail inf must be between 0 and 600 s"),
            (
                ["--interval", "0"],
                "--interval 0 must be more than 0 and at most 10 s",
            ),
            (
                ["--tail", "loud"],
                "--tail loud: not a number (it must be between 0 and 600 s)",
            ),
        ] {
            let error = parse(&args).unwrap_err();
            assert!(error.contains(message), "{args:?}: {error}");
        }
        assert_eq!(
            INTERVAL.check("--duration", 0.0).unwrap_err(),
            "--duration 0.0 must be more than 0 and at most 10 s"
        );
    }
}
