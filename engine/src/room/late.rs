//! The late reverb: a feedback delay network (Jot and Chaigne, 1991) of
//! [`LINES`] delay lines mixed through a normalised Hadamard matrix, each
//! line attenuated by `g = 10^(−3·d/(T60·fs))` for its length of `d`
//! samples. The matrix is orthogonal, so a path through the network loses
//! exactly 60 dB per T60 of delay, whatever lines it takes: the impulse
//! response decays at the promised rate at every frequency, and its echoes
//! multiply by [`LINES`] at every pass.

/// Delay lines in the network (a power of two, for the Hadamard matrix).
pub const LINES: usize = 16;

/// Shortest and longest line, as multiples of the time sound takes to cross
/// the room's mean free path.
const SPREAD: (f64, f64) = (0.3, 1.2);

/// The late reverb of one room.
///
/// Allocates: its delay lines, in [`Late::new`]; nothing after.
#[derive(Debug, Clone)]
pub struct Late {
    /// Each line's samples, a ring of its length.
    lines: [Box<[f32]>; LINES],
    /// Where each line is read and written next.
    heads: [usize; LINES],
    /// Each line's gain per pass, for the T60.
    gains: [f32; LINES],
    /// The output's scale, for the reverberant level.
    level: f32,
    /// How the input spreads over the lines ([`INPUT`]'s signs).
    spread: [f32; LINES],
    /// How each line reaches the left and right ears ([`LEFT`]'s and
    /// [`RIGHT`]'s signs).
    taps: [[f32; 2]; LINES],
}

/// The rows of the (Sylvester) Hadamard matrix whose signs spread the input
/// over the lines and gather the two ears' outputs from them: orthogonal to
/// each other and to row 0 (the lines' common mode).
const INPUT: usize = 7;
const LEFT: usize = 9;
const RIGHT: usize = 14;

/// Element `i` of row `row` of the normalised Hadamard matrix:
/// `(−1)^popcount(row & i) / √LINES`.
fn sign(row: usize, i: usize) -> f32 {
    let s = 1.0 / (LINES as f32).sqrt();
    if (row & i).count_ones() % 2 == 1 {
        -s
    } else {
        s
    }
}

impl Late {
    /// A network for a room whose mean free path sound crosses in
    /// `crossing_s` seconds, decaying by 60 dB in `t60_s`, at `sample_rate`
    /// (Hz); its impulse response carries `energy` (the square sum of its
    /// samples) for a unit impulse in, about.
    pub fn new(crossing_s: f64, t60_s: f64, energy: f64, sample_rate: f64) -> Self {
        let lengths = line_lengths(crossing_s * sample_rate);
        let lines = lengths.map(|d| vec![0.0; d].into_boxed_slice());
        let mut late = Self {
            lines,
            heads: [0; LINES],
            gains: [0.0; LINES],
            level: 0.0,
            spread: std::array::from_fn(|i| sign(INPUT, i)),
            taps: std::array::from_fn(|i| [sign(LEFT, i), sign(RIGHT, i)]),
        };
        late.retune(t60_s, energy, sample_rate);
        late
    }

    /// Each line's length, samples.
    pub fn lengths(&self) -> [usize; LINES] {
        std::array::from_fn(|i| self.lines[i].len())
    }

    /// Takes another T60 (s) and level without touching the lines.
    /// Allocation-free.
    pub fn retune(&mut self, t60_s: f64, energy: f64, sample_rate: f64) {
        let lengths = self.lengths();
        let total: usize = lengths.iter().sum();
        for (gain, d) in self.gains.iter_mut().zip(lengths) {
            *gain = 10f64.powf(-3.0 * d as f64 / (t60_s * sample_rate)) as f32;
        }
        // In a lossless network the energy an impulse puts in spreads over
        // every sample of every line and drains through the output taps at
        // one line's worth per sample: `E_out = Σ_n 10^(−6n/(T60·fs)) / D`
        // for `D` samples in all, about `T60·fs / (6·ln 10·D)`.
        let natural = 1.0 / ((1.0 - 10f64.powf(-6.0 / (t60_s * sample_rate))) * total as f64);
        self.level = (energy / natural).sqrt() as f32;
    }

    /// Takes `input` and returns the left and right ears' reverb.
    #[inline]
    pub fn tick(&mut self, input: f32) -> [f32; 2] {
        let mut x = [0.0f32; LINES];
        for (i, x) in x.iter_mut().enumerate() {
            *x = self.lines[i][self.heads[i]];
        }
        let (mut left, mut right) = (0.0, 0.0);
        for (&x, [l, r]) in x.iter().zip(self.taps) {
            left += l * x;
            right += r * x;
        }
        for (x, g) in x.iter_mut().zip(self.gains) {
            *x *= g;
        }
        hadamard(&mut x);
        for (i, &x) in x.iter().enumerate() {
            let line = &mut self.lines[i];
            line[self.heads[i]] = x + self.spread[i] * input;
            self.heads[i] = if self.heads[i] + 1 == line.len() {
                0
            } else {
                self.heads[i] + 1
            };
        }
        [left * self.level, right * self.level]
    }

    /// Silence in every line.
    pub fn reset(&mut self) {
        for line in &mut self.lines {
            line.fill(0.0);
        }
    }
}

/// The normalised Hadamard transform of `x` in place (`H·Hᵀ = I`).
#[inline]
fn hadamard(x: &mut [f32; LINES]) {
    let mut h = 1;
    while h < LINES {
        for i in (0..LINES).step_by(2 * h) {
            for j in i..i + h {
                let (a, b) = (x[j], x[j + h]);
                x[j] = a + b;
                x[j + h] = a - b;
            }
        }
        h *= 2;
    }
    let scale = 1.0 / (LINES as f32).sqrt();
    for x in x.iter_mut() {
        *x *= scale;
    }
}

/// [`LINES`] lengths spread geometrically over [`SPREAD`] times `crossing`
/// samples, each odd and longer than the one before, so that no two share
/// a period (at least 1 sample).
fn line_lengths(crossing: f64) -> [usize; LINES] {
    let (low, high) = SPREAD;
    let mut last = 0;
    std::array::from_fn(|i| {
        let ratio = (high / low).powf(i as f64 / (LINES - 1) as f64);
        let d = ((crossing * low * ratio).round() as usize | 1).max(last + 2);
        last = d;
        d
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mixing_matrix_is_orthogonal_and_the_taps_independent() {
        let mut e = [0.0f32; LINES];
        e[3] = 1.0;
        hadamard(&mut e);
        let energy: f32 = e.iter().map(|x| x * x).sum();
        assert!((energy - 1.0).abs() < 1e-6);
        for (a, b) in [(INPUT, LEFT), (INPUT, RIGHT), (LEFT, RIGHT)] {
            let dot: f32 = (0..LINES).map(|i| sign(a, i) * sign(b, i)).sum();
            assert!(dot.abs() < 1e-6, "rows {a} and {b}");
        }
        let lengths = line_lengths(3.0);
        assert!(lengths.windows(2).all(|w| w[0] < w[1]), "{lengths:?}");
    }
}
