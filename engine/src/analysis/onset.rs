//! Where a note starts: the first sample loud enough to belong to it.

/// An onset is the first sample whose magnitude exceeds this fraction of the
/// signal's peak magnitude (−40 dB).
pub const ONSET_FRACTION: f32 = 0.01;

/// Index of the onset of `signal` (the first sample above [`ONSET_FRACTION`]
/// of its peak magnitude); `None` for a silent or empty signal.
pub fn onset(signal: &[f32]) -> Option<usize> {
    let peak = signal.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    if !(peak > 0.0 && peak.is_finite()) {
        return None;
    }
    signal.iter().position(|s| s.abs() > ONSET_FRACTION * peak)
}

/// `signal` from its [`onset`] on; `None` for a silent or empty signal.
pub fn from_onset(signal: &[f32]) -> Option<&[f32]> {
    Some(&signal[onset(signal)?..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_onset_is_the_first_sample_above_a_hundredth_of_the_peak() {
        let mut x = vec![0.0f32; 100];
        x[10] = 0.005; // below 1 % of the peak: noise before the note
        x[40] = 0.02;
        x[60] = -1.0;
        assert_eq!(onset(&x), Some(40));
        assert_eq!(from_onset(&x), Some(&x[40..]));
        assert_eq!(from_onset(&[0.0; 8]), None);
        assert_eq!(onset(&[0.0; 8]), None);
        assert_eq!(onset(&[]), None);
    }
}
