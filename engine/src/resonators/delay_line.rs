//! A fixed-length delay line.

/// A delay of a whole number of samples over a ring buffer.
///
/// Allocates: its buffer, once, in [`DelayLine::new`]; never afterwards.
#[derive(Debug, Clone)]
pub struct DelayLine {
    buffer: Box<[f64]>,
    position: usize,
}

impl DelayLine {
    /// A delay of `length` samples (at least 1), filled with zeros.
    pub fn new(length: usize) -> Self {
        Self {
            buffer: vec![0.0; length.max(1)].into_boxed_slice(),
            position: 0,
        }
    }

    /// The delay in samples.
    pub fn len(&self) -> usize {
        self.buffer.len()
    }

    /// Always false: a delay line holds at least one sample.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The sample pushed `len()` pushes ago: the line's output now.
    #[inline]
    pub fn front(&self) -> f64 {
        debug_assert!(self.position < self.buffer.len());
        // SAFETY: `position` is only ever set to 0 or advanced by `push`, which wraps
        // it to 0 when it reaches the length, so it is always a valid index (the
        // buffer holds at least one sample).
        unsafe { *self.buffer.get_unchecked(self.position) }
    }

    /// Pushes this sample's input, moving time on by one sample.
    #[inline]
    pub fn push(&mut self, value: f64) {
        debug_assert!(self.position < self.buffer.len());
        // SAFETY: `position < len` always holds (see `front`).
        unsafe { *self.buffer.get_unchecked_mut(self.position) = value };
        self.position += 1;
        if self.position == self.buffer.len() {
            self.position = 0;
        }
    }

    /// The largest magnitude held in the line.
    pub fn peak(&self) -> f64 {
        self.buffer.iter().fold(0.0, |m, v| m.max(v.abs()))
    }

    /// The sum of the squares of the samples held.
    pub fn sum_of_squares(&self) -> f64 {
        self.buffer.iter().map(|v| v * v).sum()
    }

    /// Empties the line.
    pub fn clear(&mut self) {
        self.buffer.fill(0.0);
        self.position = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_by_its_length() {
        let mut line = DelayLine::new(3);
        let out: Vec<f64> = (1..=6)
            .map(|n| {
                let y = line.front();
                line.push(n as f64);
                y
            })
            .collect();
        assert_eq!(out, [0.0, 0.0, 0.0, 1.0, 2.0, 3.0]);
    }
}
