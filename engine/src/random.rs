//! A small, fast, seedable pseudo-random sequence (SplitMix64), for anything in
//! Orchard that needs reproducible randomness: generated performances,
//! benchmark sessions, `--seed`.

/// SplitMix64 (Steele, Lea & Flood 2014): every seed gives a different,
/// well-mixed sequence of 64-bit values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The sequence for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (0 if `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // Multiply-shift: unbiased enough for n far below 2^64.
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A value in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A value of the standard normal distribution (mean 0, standard deviation
/// 1), from two of `random`'s uniform values (Box & Muller, "A note on the
/// generation of random normal deviates", 1958).
pub fn standard_normal(random: &mut SplitMix64) -> f64 {
    // 1 − u lies in (0, 1]: its logarithm is finite.
    let radius = (-2.0 * (1.0 - random.unit()).ln()).sqrt();
    radius * (2.0 * std::f64::consts::PI * random.unit()).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_are_reproducible_and_spread_evenly() {
        let mut a = SplitMix64::new(42);
        let mut b = SplitMix64::new(42);
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
        assert_ne!(SplitMix64::new(1).next_u64(), SplitMix64::new(2).next_u64());
        let mut r = SplitMix64::new(7);
        let mut counts = [0u32; 10];
        for _ in 0..100_000 {
            counts[r.below(10) as usize] += 1;
        }
        // Each bin within 5 % of its expected 10 000.
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
        assert!((0..1000).map(|_| r.unit()).all(|u| (0.0..1.0).contains(&u)));
        // Normal deviates: mean 0 and variance 1 within three standard
        // errors over 100 000 draws, and 68 % within one deviation.
        let draws: Vec<f64> = (0..100_000).map(|_| standard_normal(&mut r)).collect();
        let n = draws.len() as f64;
        let mean = draws.iter().sum::<f64>() / n;
        let variance = draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
        let within = draws.iter().filter(|x| x.abs() < 1.0).count() as f64 / n;
        assert!(mean.abs() < 3.0 / n.sqrt(), "{mean}");
        assert!((variance - 1.0).abs() < 0.015, "{variance}");
        assert!((within - 0.6827).abs() < 0.005, "{within}");
    }
}
