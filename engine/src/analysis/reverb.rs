//! A room's impulse response measured as acousticians measure one: its
//! reverberation time from Schroeder's backward integration, and its echo
//! density as Abel and Huang normalise it.

use super::fit::fit_line;

/// The reverberation time of impulse response `ir` at `sample_rate` (Hz),
/// s: Schroeder's energy decay curve (the energy left after each sample,
/// integrated backwards from the end, in dB below the whole), fitted by a
/// straight line from `from_db` to `to_db` (e.g. −5 and −35: ISO 3382's
/// T30) and extrapolated to 60 dB. `None` if the curve never reaches
/// `to_db` or the fit fails.
pub fn schroeder_t60(ir: &[f32], sample_rate: f64, from_db: f64, to_db: f64) -> Option<f64> {
    let mut left = 0.0;
    let mut curve: Vec<f64> = ir
        .iter()
        .rev()
        .map(|&x| {
            left += f64::from(x) * f64::from(x);
            left
        })
        .collect();
    curve.reverse();
    let total = *curve.first()?;
    if total <= 0.0 {
        return None;
    }
    let db = |e: f64| 10.0 * (e / total).log10();
    curve.iter().position(|&e| db(e) <= to_db)?;
    let points = curve.iter().enumerate().filter_map(|(n, &e)| {
        let level = db(e);
        (level <= from_db && level >= to_db).then_some((n as f64 / sample_rate, level))
    });
    let line = fit_line(points)?;
    (line.slope < 0.0).then(|| -60.0 / line.slope)
}

/// The normalised echo density of `ir` in the window of `window_s` seconds
/// centred on `at_s` (Abel and Huang, "A simple, robust measure of
/// reverberation echo density", AES 121st Convention, 2006): the fraction
/// of the window's samples farther from zero than its RMS, over that
/// fraction for Gaussian noise, `erfc(1/√2)` = 0.3173. About 1 for a
/// reverb as dense as noise, far less for separate echoes.
pub fn echo_density(ir: &[f32], sample_rate: f64, at_s: f64, window_s: f64) -> f64 {
    let half = (window_s * sample_rate / 2.0).round() as usize;
    let centre = (at_s * sample_rate).round() as usize;
    let window = &ir[centre.saturating_sub(half).min(ir.len())..(centre + half).min(ir.len())];
    if window.is_empty() {
        return 0.0;
    }
    let rms = super::level::rms(window);
    let outside = window.iter().filter(|&&x| f64::from(x.abs()) > rms).count();
    outside as f64 / window.len() as f64 / GAUSSIAN_OUTSIDE_RMS
}

/// The fraction of Gaussian noise's samples farther from zero than one
/// standard deviation, `erfc(1/√2)`.
const GAUSSIAN_OUTSIDE_RMS: f64 = 0.317_310_507_862_914_1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exponential_decay_has_its_t60_and_a_lone_echo_no_density() {
        let fs = 8000.0;
        let t60 = 1.3;
        // Alternating signs: an exponential's energy without a smooth shape.
        let ir: Vec<f32> = (0..4 * 8000)
            .map(|n| {
                let sign = if n % 2 == 0 { 1.0 } else { -1.0 };
                sign * 10f64.powf(-3.0 * n as f64 / (t60 * fs)) as f32
            })
            .collect();
        let measured = schroeder_t60(&ir, fs, -5.0, -35.0).unwrap();
        assert!((measured - t60).abs() < 0.01 * t60, "{measured}");
        let mut sparse = vec![0.0f32; 8000];
        sparse[4000] = 1.0;
        assert!(echo_density(&sparse, fs, 0.5, 0.02) < 0.05);
        assert!(ir.iter().all(|x| x.is_finite()));
    }
}
