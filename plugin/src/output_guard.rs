//! The last stage of `process`: whatever the model or the host did, every
//! sample that leaves the plugin is finite and within ±[`OUTPUT_BOUND`].
//!
//! A non-finite sample (NaN or ±∞, from a model gone unstable or a broken
//! parameter) becomes silence; a finite one beyond the bound is held at it.
//! Playing never comes near the bound: the default level keeps dense
//! pedalled playing near −3 dBFS, so even at the output level's +12 dB it
//! stays below +10 dBFS. The guard only stops a runaway from reaching a
//! host, its speakers or a listener's ears.

/// Largest magnitude of an output sample: +12 dBFS (full scale 1).
pub const OUTPUT_BOUND: f32 = 4.0;

/// Makes every sample of `channel` finite and at most [`OUTPUT_BOUND`] in
/// magnitude, in place; samples already so are left bit for bit as they are.
pub fn guard(channel: &mut [f32]) {
    for sample in channel {
        *sample = if sample.is_finite() {
            sample.clamp(-OUTPUT_BOUND, OUTPUT_BOUND)
        } else {
            0.0
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_samples_are_silenced_and_loud_ones_bounded() {
        let mut channel = [
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e30,
            -5.0,
            0.25,
            -1.5,
            f32::MIN_POSITIVE,
        ];
        guard(&mut channel);
        assert_eq!(
            channel,
            [
                0.0,
                0.0,
                0.0,
                OUTPUT_BOUND,
                -OUTPUT_BOUND,
                0.25,
                -1.5,
                f32::MIN_POSITIVE
            ]
        );
    }
}
