//! The early reflections: the instrument's sound delayed and scaled as each
//! image source of [`super::geometry`] sends it to each ear, taps on one
//! delay line of the input.

use super::geometry::{Geometry, REFLECTIONS};

/// The early reflections at both ears.
///
/// Allocates: its delay line, in [`Early::new`]; nothing after.
#[derive(Debug, Clone)]
pub struct Early {
    /// The input's recent samples, a ring of a power of two.
    line: Box<[f32]>,
    /// Where the next input sample goes.
    head: usize,
    /// Each ear's taps: (delay in samples, gain).
    taps: [[(usize, f32); REFLECTIONS]; 2],
}

impl Early {
    /// The reflections of `geometry`'s walls absorbing `absorption` of the
    /// energy at each bounce, at `sample_rate` (Hz); each delay rounds to
    /// the nearest sample.
    pub fn new(geometry: &Geometry, absorption: f64, sample_rate: f64) -> Self {
        let taps = taps(geometry, absorption, sample_rate);
        let longest = taps.iter().flatten().map(|&(d, _)| d).max().unwrap_or(0);
        Self {
            line: vec![0.0; (longest + 1).next_power_of_two()].into_boxed_slice(),
            head: 0,
            taps,
        }
    }

    /// The length of its delay line, samples: more than its longest delay.
    pub fn longest_delay(&self) -> usize {
        self.line.len()
    }

    /// Takes another absorption for the same walls (the delays stay).
    /// Allocation-free.
    pub fn retune(&mut self, geometry: &Geometry, absorption: f64, sample_rate: f64) {
        self.taps = taps(geometry, absorption, sample_rate);
    }

    /// Takes `input` and returns what the walls send the left and right ears.
    #[inline]
    pub fn tick(&mut self, input: f32) -> [f32; 2] {
        let mask = self.line.len() - 1;
        self.line[self.head] = input;
        let ear = |taps: &[(usize, f32); REFLECTIONS]| {
            taps.iter()
                .map(|&(d, g)| g * self.line[(self.head.wrapping_sub(d)) & mask])
                .sum::<f32>()
        };
        let out = [ear(&self.taps[0]), ear(&self.taps[1])];
        self.head = (self.head + 1) & mask;
        out
    }

    /// Silence in the delay line.
    pub fn reset(&mut self) {
        self.line.fill(0.0);
    }
}

/// Each ear's taps for `geometry`'s reflections: (delay in samples at
/// `sample_rate` Hz, rounded, and gain).
fn taps(
    geometry: &Geometry,
    absorption: f64,
    sample_rate: f64,
) -> [[(usize, f32); REFLECTIONS]; 2] {
    [0, 1].map(|ear| {
        geometry.reflections(ear, absorption).map(|r| {
            (
                (r.delay_s * sample_rate).round().max(0.0) as usize,
                r.gain as f32,
            )
        })
    })
}
