//! Partial levels relative to the fundamental, and how far two notes' levels
//! lie apart: the figure a piano's brightness is matched by, partial by
//! partial, against a recording.

use std::ops::RangeInclusive;

use super::partials::Partial;

/// The partials whose levels a note's tone colour is compared by: 2 to 10,
/// each relative to the fundamental.
pub const COMPARED_PARTIALS: RangeInclusive<u32> = 2..=10;

/// Level of partial `n` of `partials` relative to partial 1, dB; `None` if
/// either is not among them (or has no amplitude).
pub fn level_re_first(partials: &[Partial], n: u32) -> Option<f64> {
    let amplitude = |n: u32| {
        partials
            .iter()
            .find(|p| p.number == n)
            .map(|p| p.amplitude)
            .filter(|&a| a > 0.0)
    };
    Some(20.0 * (amplitude(n)? / amplitude(1)?).log10())
}

/// How one note's partial levels (relative to its fundamental) differ from
/// another's over a range of partials.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LevelDifference {
    /// Mean of `ours − theirs` over the partials both have, dB: positive
    /// when ours are the richer in them.
    pub mean_db: f64,
    /// Mean of `|ours − theirs|`, dB.
    pub mean_abs_db: f64,
    /// How many partials both have and were compared.
    pub compared: usize,
}

/// The difference between the levels relative to the fundamental
/// ([`level_re_first`]) of `ours` and `theirs` over the partials `numbers`
/// (usually [`COMPARED_PARTIALS`]) that both hold; a partial that either
/// lacks (too weak to be measured) is left out and not counted. `None` when
/// no partial is in both.
pub fn level_difference(
    ours: &[Partial],
    theirs: &[Partial],
    numbers: RangeInclusive<u32>,
) -> Option<LevelDifference> {
    let differences: Vec<f64> = numbers
        .filter_map(|n| Some(level_re_first(ours, n)? - level_re_first(theirs, n)?))
        .collect();
    let count = differences.len() as f64;
    (!differences.is_empty()).then(|| LevelDifference {
        mean_db: differences.iter().sum::<f64>() / count,
        mean_abs_db: differences.iter().map(|d| d.abs()).sum::<f64>() / count,
        compared: differences.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Partials `1..=count` of 100 Hz at amplitudes `gain(n)`.
    fn partials(count: u32, gain: impl Fn(u32) -> f64) -> Vec<Partial> {
        (1..=count)
            .map(|n| Partial {
                number: n,
                frequency_hz: 100.0 * f64::from(n),
                amplitude: gain(n),
            })
            .collect()
    }

    #[test]
    fn levels_are_relative_to_the_fundamental() {
        let p = partials(4, |n| 0.5 / f64::from(n));
        assert!((level_re_first(&p, 2).unwrap() + 6.0206).abs() < 1e-3);
        assert_eq!(level_re_first(&p, 1), Some(0.0));
        assert_eq!(level_re_first(&p, 5), None);
        assert_eq!(level_re_first(&p[1..], 2), None);
    }

    /// Ours: every even partial 6 dB up, every odd one 2 dB down against
    /// theirs, the fundamentals at different absolute levels. Over 2–10
    /// (five even, four odd): mean (5·6 − 4·2)/9 dB, mean absolute
    /// (5·6 + 4·2)/9 dB. A partial only one note has is not counted.
    #[test]
    fn the_mean_and_mean_absolute_differences_are_taken_over_shared_partials() {
        let theirs = partials(12, |n| 1.0 / f64::from(n));
        let ours = partials(12, |n| {
            let db = if n == 1 {
                0.0
            } else if n % 2 == 0 {
                6.0
            } else {
                -2.0
            };
            0.3 / f64::from(n) * 10f64.powf(db / 20.0)
        });
        let d = level_difference(&ours, &theirs, COMPARED_PARTIALS).unwrap();
        assert_eq!(d.compared, 9);
        assert!((d.mean_db - 22.0 / 9.0).abs() < 1e-9, "{d:?}");
        assert!((d.mean_abs_db - 38.0 / 9.0).abs() < 1e-9, "{d:?}");
        // Theirs lack partials 9 and 10: 2–8 hold four even, three odd.
        let short = &theirs[..8];
        let d = level_difference(&ours, short, COMPARED_PARTIALS).unwrap();
        assert_eq!(d.compared, 7);
        assert!((d.mean_db - 18.0 / 7.0).abs() < 1e-9, "{d:?}");
        assert_eq!(
            level_difference(&ours, &theirs[..1], COMPARED_PARTIALS),
            None
        );
    }
}
