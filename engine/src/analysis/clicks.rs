//! Where the clicks of a rendered mechanism begin: a clock's ticks, each a
//! burst of high frequencies far shorter than the gaps between them.

/// Window over which the rate of change is averaged, s.
const SMOOTHING_S: f64 = 1e-3;

/// Fraction of its largest the smoothed rate of change must pass.
const THRESHOLD: f64 = 0.2;

/// Shortest time between two clicks, s: closer rises are one click.
const GAP_S: f64 = 0.05;

/// The times (s from the start of `signal`, at `sample_rate` Hz) where
/// clicks begin: where the sample-to-sample change, averaged over 1 ms,
/// rises above a fifth of its largest, at least 50 ms after the last time
/// it was above. Allocates the smoothed signal.
pub fn click_onsets(signal: &[f32], sample_rate: f64) -> Vec<f64> {
    let window = ((SMOOTHING_S * sample_rate) as usize).max(1);
    let change: Vec<f64> = signal
        .windows(2)
        .map(|w| f64::from(w[1] - w[0]).abs())
        .collect();
    let mut sum = 0.0;
    let smoothed: Vec<f64> = (0..change.len())
        .map(|i| {
            sum += change[i];
            if i >= window {
                sum -= change[i - window];
            }
            sum / window as f64
        })
        .collect();
    let threshold = THRESHOLD * smoothed.iter().copied().fold(0.0, f64::max);
    let gap = (GAP_S * sample_rate) as usize;
    let mut onsets = Vec::new();
    let mut last_above: Option<usize> = None;
    for (i, &s) in smoothed.iter().enumerate() {
        if s > threshold && threshold > 0.0 {
            if last_above.is_none_or(|last| i - last > gap) {
                onsets.push(i as f64 / sample_rate);
            }
            last_above = Some(i);
        }
    }
    onsets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_click_once_and_nothing_in_silence() {
        let fs = 48_000.0;
        let mut x = vec![0.0f32; 48_000];
        for start in [4_800, 14_400, 24_000] {
            // A decaying burst at Nyquist: one click.
            for i in 0..480 {
                x[start + i] = (if i % 2 == 0 { 1.0 } else { -1.0 }) * (-(i as f32) / 60.0).exp();
            }
        }
        let onsets = click_onsets(&x, fs);
        assert_eq!(onsets.len(), 3, "{onsets:?}");
        for (found, expected) in onsets.iter().zip([0.1, 0.3, 0.5]) {
            assert!((found - expected).abs() < 1e-3, "{onsets:?}");
        }
        assert!(click_onsets(&[0.0; 1000], fs).is_empty());
    }
}
