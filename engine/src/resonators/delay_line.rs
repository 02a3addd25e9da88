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

    /// The line's output `ahead` samples from now (`ahead < len()`), which
    /// is already in the line: what [`DelayLine::front`] will give after
    /// `ahead` more pushes.
    #[inline]
    pub fn peek(&self, ahead: usize) -> f64 {
        debug_assert!(ahead < self.buffer.len());
        let mut index = self.position + ahead;
        if index >= self.buffer.len() {
            index -= self.buffer.len();
        }
        self.buffer[index]
    }

    /// Calls `f(m, peek(up + m·stride), peek(down − m·stride))` for `m`
    /// from 0 to `points − 1`: samples paired about a point between `down`
    /// and `up` (`down ≥ (points − 1)·stride`, `up + (points − 1)·stride <
    /// len()`).
    #[inline(always)]
    pub fn paired(
        &self,
        up: usize,
        down: usize,
        stride: usize,
        points: usize,
        mut f: impl FnMut(usize, f64, f64),
    ) {
        let len = self.buffer.len();
        debug_assert!(
            points == 0 || (down >= (points - 1) * stride && up + (points - 1) * stride < len)
        );
        let wrap = |i: usize| if i >= len { i - len } else { i };
        let (mut up, mut down) = (wrap(self.position + up), wrap(self.position + down));
        for m in 0..points {
            if m > 0 {
                // Within the line, as asserted: no wrap past its ends.
                up = wrap(up + stride);
                down = if down >= stride {
                    down - stride
                } else {
                    down + len - stride
                };
            }
            // SAFETY: `up` and `down` start below `len`, and a step of the
            // points asked for moves them by `stride` within the line, so
            // past its end at most once (wrapped back).
            let (high, low) = unsafe {
                (
                    *self.buffer.get_unchecked(up),
                    *self.buffer.get_unchecked(down),
                )
            };
            f(m, high, low);
        }
    }

    /// Calls `f(j, output)` with the line's outputs over the next `samples`
    /// samples (at most `len()`), in order: what [`DelayLine::front`] will
    /// give over as many pushes.
    #[inline(always)]
    pub fn front_each(&self, samples: usize, mut f: impl FnMut(usize, f64)) {
        debug_assert!(samples <= self.buffer.len());
        let head = (self.buffer.len() - self.position).min(samples);
        let (older, newer) = (
            &self.buffer[self.position..self.position + head],
            &self.buffer[..samples - head],
        );
        for (j, &value) in older.iter().enumerate() {
            f(j, value);
        }
        for (j, &value) in newer.iter().enumerate() {
            f(head + j, value);
        }
    }

    /// Pushes `value(j)` for `j` from 0 to `samples − 1` (at most `len()`), in
    /// order, moving time on by as many samples: the same as as many calls of
    /// [`DelayLine::push`].
    #[inline(always)]
    pub fn push_each(&mut self, samples: usize, mut value: impl FnMut(usize) -> f64) {
        debug_assert!(samples <= self.buffer.len());
        let len = self.buffer.len();
        let head = (len - self.position).min(samples);
        let (newer, older) = self.buffer.split_at_mut(self.position);
        for (j, slot) in older[..head].iter_mut().enumerate() {
            *slot = value(j);
        }
        for (j, slot) in newer[..samples - head].iter_mut().enumerate() {
            *slot = value(head + j);
        }
        self.position += samples;
        if self.position >= len {
            self.position -= len;
        }
    }

    /// Asks the processor to bring the line's front (the next outputs, and
    /// where the next pushes go) into its nearest cache: a hint, nothing
    /// changes.
    #[inline(always)]
    pub fn prefetch_front(&self) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let at = self.buffer[self.position..].as_ptr().cast::<i8>();
            // SAFETY: a prefetch only hints; `at` points into the buffer.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(at) };
        }
    }

    /// Adds `value` to the sample [`DelayLine::front`] will give after
    /// `ahead` more pushes (`ahead < len()`).
    #[inline]
    pub fn add_ahead(&mut self, ahead: usize, value: f64) {
        debug_assert!(ahead < self.buffer.len());
        let mut index = self.position + ahead;
        if index >= self.buffer.len() {
            index -= self.buffer.len();
        }
        self.buffer[index] += value;
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

    /// Sample `i` of the line counted from the front (0, the next output) to
    /// the newest (`len() − 1`); clamped to the line.
    #[inline]
    fn oldest_first(&self, i: usize) -> f64 {
        let len = self.buffer.len();
        let i = i.min(len - 1);
        // The front sits at `position`; the ring wraps after `len − position`.
        let head = len - self.position;
        if i < head {
            self.buffer[self.position + i]
        } else {
            self.buffer[i - head]
        }
    }

    /// The four samples around `i` and `i + 1` (counted from the front), for
    /// interpolation between them: `i − 1` to `i + 2`, extrapolated linearly
    /// one sample beyond either end of the line.
    #[inline]
    fn neighbours(&self, i: usize) -> [f64; 4] {
        // Away from the ends and from where the ring wraps, four in a row.
        let (newer, older) = self.buffer.split_at(self.position);
        let head = older.len();
        let run = if i + 2 < head {
            i.checked_sub(1)
                .and_then(|first| older.get(first..first + 4))
        } else {
            i.checked_sub(head + 1)
                .and_then(|first| newer.get(first..first + 4))
        };
        if let Some(&[a, b, c, d]) = run {
            return [a, b, c, d];
        }
        let last = self.buffer.len() - 1;
        let at = |j: usize| self.oldest_first(j);
        let before = if i == 0 {
            2.0 * at(0) - at(1)
        } else {
            at(i - 1)
        };
        let beyond = |j: usize| {
            if j <= last {
                at(j)
            } else {
                2.0 * at(last) - at(last.saturating_sub(1))
            }
        };
        [before, at(i), beyond(i + 1), beyond(i + 2)]
    }

    /// Holds `old`'s wave instead of its own, stretched over this line's length:
    /// the front (the next output) and the newest sample stay exactly as they
    /// were, and the samples between are read from `old` at proportional
    /// positions by cubic (Catmull–Rom) interpolation. A line of `old`'s
    /// length copies it exactly.
    ///
    /// Stretching time this way is what a string whose tuning changes under a
    /// standing wave does (the wave's shape along the string stays, its speed
    /// changes), and keeps the output continuous. Shrinking a line by more than
    /// a few percent folds the wave's content near Nyquist.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &DelayLine) {
        let (new_len, old_len) = (self.buffer.len(), old.buffer.len());
        self.position = 0;
        if new_len == old_len {
            let (newer, older) = old.buffer.split_at(old.position);
            self.buffer[..older.len()].copy_from_slice(older);
            self.buffer[older.len()..].copy_from_slice(newer);
            return;
        }
        // Slot k of the new line (the front at k = 0) reads the old line
        // k·(old_len − 1)/(new_len − 1) samples behind its front.
        let ratio = if new_len > 1 {
            (old_len - 1) as f64 / (new_len - 1) as f64
        } else {
            0.0
        };
        for (k, slot) in self.buffer.iter_mut().enumerate() {
            let from_front = k as f64 * ratio;
            // Not negative: truncation is the floor.
            let whole = (from_front as usize).min(old_len - 1);
            *slot = catmull_rom(old.neighbours(whole), from_front - whole as f64);
        }
    }

    /// Empties the line.
    pub fn clear(&mut self) {
        self.buffer.fill(0.0);
        self.position = 0;
    }
}

/// The Catmull–Rom cubic through `p[1]` (at `t` = 0) and `p[2]` (at `t` = 1),
/// with tangents from `p[0]` and `p[3]`.
fn catmull_rom(p: [f64; 4], t: f64) -> f64 {
    let [p0, p1, p2, p3] = p;
    let a = 2.0 * p1;
    let b = p2 - p0;
    let c = 2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3;
    let d = 3.0 * (p1 - p2) + p3 - p0;
    0.5 * (a + t * (b + t * (c + t * d)))
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

    /// Blocks of any length up to the line's, across the ring's end, give
    /// exactly what sample-by-sample pushes give.
    #[test]
    fn blocks_match_single_samples() {
        for len in [1, 3, 7, 16] {
            let (mut single, mut blocked) = (DelayLine::new(len), DelayLine::new(len));
            let mut n = 0.0;
            for block in [1usize, 5, 16, 2, 9, 3, 11] {
                let block = block.min(len);
                let mut ahead = vec![0.0; block];
                blocked.front_each(block, |j, v| ahead[j] = v);
                let values: Vec<f64> = (0..block).map(|j| n + j as f64).collect();
                blocked.push_each(block, |j| values[j]);
                for (j, &value) in values.iter().enumerate() {
                    assert_eq!(ahead[j], single.front(), "{len}: block {block}, {j}");
                    single.push(value);
                }
                n += block as f64;
                for k in 0..len {
                    assert_eq!(blocked.peek(k), single.peek(k));
                }
            }
        }
    }

    /// Paired samples are what `peek` reads, wherever the ring has wrapped.
    #[test]
    fn paired_samples_are_peeks() {
        let mut line = DelayLine::new(23);
        for n in 0..40 {
            line.push(f64::from(n) * 0.37 - 3.0);
            let (up, down, stride, points) = (12, 10, 3, 4);
            let mut seen = 0;
            line.paired(up, down, stride, points, |m, high, low| {
                let want = (line.peek(up + m * stride), line.peek(down - m * stride));
                assert_eq!((high, low), want, "after {n} pushes, point {m}");
                seen += 1;
            });
            assert_eq!(seen, points);
        }
    }

    /// A value added ahead comes out of the front after as many pushes.
    #[test]
    fn added_ahead_leaves_after_as_many_pushes() {
        let mut line = DelayLine::new(5);
        for _ in 0..3 {
            line.push(0.0);
        }
        line.add_ahead(4, 2.5);
        for _ in 0..4 {
            assert_eq!(line.front(), 0.0);
            line.push(0.0);
        }
        assert_eq!(line.front(), 2.5);
    }

    /// A line holding `f(age)` for every age from 1 to `len`, pushed oldest
    /// first, after `offset` pushes of something else (so the ring wraps).
    fn holding(len: usize, offset: usize, f: impl Fn(f64) -> f64) -> DelayLine {
        let mut line = DelayLine::new(len);
        for _ in 0..offset {
            line.push(9.0);
        }
        for age in (1..=len).rev() {
            line.push(f(age as f64));
        }
        line
    }

    /// A line of the same length continues another exactly; a longer or a
    /// shorter one holds the same wave stretched over its length (to 1e-5 of
    /// a wave of amplitude 1.3 and 0.05 rad per sample), its front and newest
    /// samples exactly the old ones.
    #[test]
    fn continue_from_stretches_the_wave_keeping_its_ends() {
        let wave = |x: f64| (0.05 * x).sin() + 0.3 * (0.011 * x).cos();
        let old = holding(120, 37, wave);
        let mut same = DelayLine::new(120);
        same.continue_from(&old);
        let (mut a, mut b) = (old.clone(), same);
        for _ in 0..240 {
            assert_eq!(a.front(), b.front());
            a.push(a.front());
            b.push(b.front());
        }
        for len in [100, 131] {
            let mut new = DelayLine::new(len);
            new.continue_from(&old);
            let newest = |line: &DelayLine| line.oldest_first(line.len() - 1);
            assert_eq!((new.front(), newest(&new)), (old.front(), newest(&old)));
            let scale = 119.0 / (len - 1) as f64;
            for age in 1..=len {
                let expected = wave(1.0 + (age - 1) as f64 * scale);
                let got = new.oldest_first(len - age);
                assert!((got - expected).abs() < 1e-5, "{len}: age {age}: {got}");
            }
        }
    }
}
