//! The sample rates an instrument can be built for, and a rate typed on a
//! command line checked against them.

use std::fmt;

/// The sample rates an instrument can be built for, Hz.
///
/// Below [`super::MIN_INTERNAL_RATE_HZ`] the synthesiser runs at a whole
/// multiple of the rate and decimates its output (see [`super::Decimator`]);
/// a family is only ever built for a rate of at least that.
pub const SAMPLE_RATES_HZ: std::ops::RangeInclusive<f64> = 1_000.0..=2_000_000.0;

/// A sample rate, Hz, that is not a finite number in [`SAMPLE_RATES_HZ`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnsupportedRate(pub f64);

impl fmt::Display for UnsupportedRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "sample rate {} Hz is outside {} to {} Hz",
            self.0,
            SAMPLE_RATES_HZ.start(),
            SAMPLE_RATES_HZ.end()
        )
    }
}

impl std::error::Error for UnsupportedRate {}

/// A whole sample rate in Hz typed on a command line, if it is one an
/// instrument can be built for; otherwise the reason, with the range.
pub fn parse_sample_rate(text: &str) -> Result<u32, String> {
    let rate: u32 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number of Hz"))?;
    check_sample_rate(f64::from(rate)).map_err(|e| e.to_string())?;
    Ok(rate)
}

/// `Ok` if `sample_rate` (Hz) is one an instrument can be built for.
pub fn check_sample_rate(sample_rate: f64) -> Result<(), UnsupportedRate> {
    if sample_rate.is_finite() && SAMPLE_RATES_HZ.contains(&sample_rate) {
        Ok(())
    } else {
        Err(UnsupportedRate(sample_rate))
    }
}
