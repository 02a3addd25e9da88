//! Signal levels.

/// Root-mean-square of `signal` (0 for an empty slice).
pub fn rms(signal: &[f32]) -> f64 {
    if signal.is_empty() {
        return 0.0;
    }
    let sum: f64 = signal.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
    (sum / signal.len() as f64).sqrt()
}

/// Largest absolute sample value of `signal` (0 for an empty slice).
pub fn peak(signal: &[f32]) -> f64 {
    signal.iter().fold(0.0, |m, &s| m.max(f64::from(s).abs()))
}
