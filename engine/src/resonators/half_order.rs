//! Half-order slopes: filters whose gain rises or falls 3 dB an octave, as
//! `√ω` or `1/√ω`, over the audio band. No rational filter has that slope,
//! but first-order sections alternating a zero and a pole half an octave
//! apart come within a fraction of a decibel of it: each section slopes 6 dB
//! an octave over one half of its octave and is flat over the other.
//! Radiation laws are full of such slopes (the strings' line dipole between
//! its near and far field, the part of a bending plate that moves with the
//! line driving it).

use std::f64::consts::PI;

/// Zero-to-zero (or pole-to-pole) spacing of the sections: an octave.
const SECTION_SPACING: f64 = 2.0;
/// Most first-order sections in a slope.
const MAX_SECTIONS: usize = 16;

/// One first-order section `(b0 + b1·z⁻¹)/(1 + a1·z⁻¹)`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Section {
    b0: f64,
    b1: f64,
    a1: f64,
}

impl Section {
    /// `(1 + s/zero)/(1 + s/pole)` (rad/s) through the bilinear transform
    /// at `sample_rate`, both corners prewarped (and kept below Nyquist).
    fn shelf(zero: f64, pole: f64, sample_rate: f64) -> Self {
        let k = 2.0 * sample_rate;
        let warp = |w: f64| k * (w.min(0.95 * PI * sample_rate) / k).tan();
        let (z, p) = (k / warp(zero), k / warp(pole));
        let norm = 1.0 + p;
        Self {
            b0: (1.0 + z) / norm,
            b1: (1.0 - z) / norm,
            a1: (1.0 - p) / norm,
        }
    }

    /// `1/(1 + s/pole)` (rad/s) at `sample_rate`: the pole where the
    /// impulse response puts it, `e^(−pole/fs)`, and the zero so that the
    /// gain is the analog one at 0 Hz and at Nyquist (matched in
    /// magnitude, not warped as the bilinear transform would: the fall
    /// holds to the top of the band).
    fn low_pass(pole: f64, sample_rate: f64) -> Self {
        let a1 = -(-pole / sample_rate).exp();
        let nyquist = 1.0 / (1.0 + (PI * sample_rate / pole).powi(2)).sqrt();
        let (sum, difference) = (1.0 + a1, nyquist * (1.0 - a1));
        Self {
            b0: 0.5 * (sum + difference),
            b1: 0.5 * (sum - difference),
            a1,
        }
    }

    /// Its gain at `omega` rad/sample.
    fn gain(&self, omega: f64) -> f64 {
        let (c, s) = (omega.cos(), omega.sin());
        let num = ((self.b0 + self.b1 * c).powi(2) + (self.b1 * s).powi(2)).sqrt();
        let den = ((1.0 + self.a1 * c).powi(2) + (self.a1 * s).powi(2)).sqrt();
        num / den
    }
}

/// A cascade of sections sloping at half order between corners (up to 0.45
/// of the sample rate), times a gain.
#[derive(Debug, Clone, PartialEq)]
pub struct HalfOrderSlope {
    sections: [Section; MAX_SECTIONS],
    count: usize,
    /// The gain in front of the sections.
    gain: f64,
}

/// One channel's memory of a [`HalfOrderSlope`]: each section's last input
/// and output.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SlopeState {
    sections: [(f64, f64); MAX_SECTIONS],
}

impl HalfOrderSlope {
    /// No slope: gain 1 at every frequency.
    pub fn flat() -> Self {
        Self {
            sections: [Section::default(); MAX_SECTIONS],
            count: 0,
            gain: 1.0,
        }
    }

    /// This, then a rise of 3 dB an octave from `from` up to `to` (rad/s;
    /// at most 0.45 of `sample_rate`, Hz).
    pub fn rising(self, from: f64, to: f64, sample_rate: f64) -> Self {
        self.sloping(from, to, sample_rate, |corner| {
            (corner, corner * SECTION_SPACING.sqrt())
        })
    }

    /// This, then a fall of 3 dB an octave from `from` up to `to` (rad/s;
    /// at most 0.45 of `sample_rate`, Hz).
    pub fn falling(self, from: f64, to: f64, sample_rate: f64) -> Self {
        self.sloping(from, to, sample_rate, |corner| {
            (corner * SECTION_SPACING.sqrt(), corner)
        })
    }

    /// This, then a fall of 6 dB an octave above `corner` (rad/s): one
    /// first-order low-pass section, if a section is left.
    pub fn rolling_off(mut self, corner: f64, sample_rate: f64) -> Self {
        if self.count < MAX_SECTIONS {
            self.sections[self.count] = Section::low_pass(corner, sample_rate);
            self.count += 1;
        }
        self
    }

    /// This, then a fall of 6 dB an octave from `from` to `to` (rad/s; a
    /// rise from `to` to `from` where `to` is lower), flat beyond: one
    /// first-order shelf `(1 + s/to)/(1 + s/from)`, if a section is left.
    pub fn shelving(mut self, from: f64, to: f64, sample_rate: f64) -> Self {
        if self.count < MAX_SECTIONS {
            self.sections[self.count] = Section::shelf(to, from, sample_rate);
            self.count += 1;
        }
        self
    }

    /// This, then sections from `from` an octave apart while below `to`
    /// (rad/s, at most 0.45 of the rate) and while sections are left, each
    /// `(zero, pole)` as `corners(its first corner)` says.
    fn sloping(
        mut self,
        from: f64,
        to: f64,
        sample_rate: f64,
        corners: impl Fn(f64) -> (f64, f64),
    ) -> Self {
        let to = to.min(0.45 * 2.0 * PI * sample_rate);
        let mut corner = from;
        while corner < to && self.count < MAX_SECTIONS {
            let (zero, pole) = corners(corner);
            self.sections[self.count] = Section::shelf(zero, pole, sample_rate);
            self.count += 1;
            corner *= SECTION_SPACING;
        }
        self
    }

    /// Its gain at `omega` rad/sample.
    pub fn response(&self, omega: f64) -> f64 {
        self.sections[..self.count]
            .iter()
            .map(|s| s.gain(omega))
            .product::<f64>()
            * self.gain
    }

    /// Sets the gain so that the response follows `law(f)` (any unit) over
    /// `band` (Hz) at `sample_rate` (Hz) with the error split evenly between
    /// too loud and too soft; returns the worst error, dB.
    pub fn fit_gain(&mut self, band: &[f64], sample_rate: f64, law: impl Fn(f64) -> f64) -> f64 {
        self.gain = 1.0;
        let (low, high) = band
            .iter()
            .map(|&f| 20.0 * (law(f) / self.response(2.0 * PI * f / sample_rate)).log10())
            .fold((f64::MAX, f64::MIN), |(lo, hi), e| (lo.min(e), hi.max(e)));
        let middle = 0.5 * (low + high);
        self.gain = 10f64.powf(middle / 20.0);
        0.5 * (high - low)
    }

    /// Filters one sample `x`, with `state` the channel's memory.
    #[inline]
    pub fn process(&self, state: &mut SlopeState, x: f64) -> f64 {
        let mut x = x * self.gain;
        for (s, (x1, y1)) in self.sections[..self.count].iter().zip(&mut state.sections) {
            let y = s.b0 * x + s.b1 * *x1 - s.a1 * *y1;
            (*x1, *y1) = (x, y);
            x = y;
        }
        x
    }
}

/// Frequencies spaced evenly in pitch from 50 Hz to 0.3 of `sample_rate`
/// (Hz), 129 of them: the band a slope's gain is fitted over.
pub fn audio_band(sample_rate: f64) -> Vec<f64> {
    (0..=128)
        .map(|i| 50.0 * (0.3 * sample_rate / 50.0).powf(f64::from(i) / 128.0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fitted to `√f` and to `1/√f`, the slopes stay within 0.75 dB of the
    /// law over the band, at 44.1 and 96 kHz; a fall then a rise within
    /// 2 dB.
    #[test]
    fn the_slopes_follow_half_order_laws() {
        for fs in [44_100.0, 96_000.0] {
            let band = audio_band(fs);
            let mut rising = HalfOrderSlope::flat().rising(2.0 * PI * 20.0, f64::INFINITY, fs);
            let error = rising.fit_gain(&band, fs, f64::sqrt);
            assert!(error < 0.75, "rising at {fs} Hz: {error} dB");
            let mut falling = HalfOrderSlope::flat().falling(2.0 * PI * 20.0, f64::INFINITY, fs);
            let error = falling.fit_gain(&band, fs, |f| 1.0 / f.sqrt());
            assert!(error < 0.75, "falling at {fs} Hz: {error} dB");
            // Down to 1 kHz, then up again.
            let corner = 2.0 * PI * 1_000.0;
            let mut valley = HalfOrderSlope::flat()
                .falling(2.0 * PI * 20.0, corner, fs)
                .rising(corner, f64::INFINITY, fs);
            let error = valley.fit_gain(&band, fs, |f| (1.0 / f.sqrt()).max(f.sqrt() / 1_000.0));
            // The law turns sharply at the valley, the sections over an
            // octave: within 2 dB there.
            assert!(error < 2.0, "valley at {fs} Hz: {error} dB");
        }
    }

    /// A roll-off is a first-order low-pass: 3 dB down at its corner, 6 dB
    /// an octave beyond (within 1 dB up to 0.3 of the rate), 1 far below.
    #[test]
    fn a_roll_off_falls_6_db_an_octave() {
        for fs in [44_100.0, 96_000.0] {
            let corner = 500.0;
            let slope = HalfOrderSlope::flat().rolling_off(2.0 * PI * corner, fs);
            for f in audio_band(fs) {
                let law = 1.0 / (1.0 + (f / corner).powi(2)).sqrt();
                let db = 20.0 * (slope.response(2.0 * PI * f / fs) / law).log10();
                assert!(db.abs() < 1.0, "{f} Hz at {fs} Hz: {db} dB");
            }
        }
    }

    /// A sine through the running filter comes out at the gain the response
    /// says.
    #[test]
    fn running_a_slope_gives_its_response() {
        let fs = 48_000.0;
        let slope = HalfOrderSlope::flat().falling(2.0 * PI * 30.0, f64::INFINITY, fs);
        for f in [200.0, 2_000.0, 10_000.0] {
            let mut state = SlopeState::default();
            let mut peak: f64 = 0.0;
            for n in 0..48_000 {
                let y = slope.process(&mut state, (2.0 * PI * f * n as f64 / fs).sin());
                if n > 24_000 {
                    peak = peak.max(y.abs());
                }
            }
            let expected = slope.response(2.0 * PI * f / fs);
            assert!(
                (peak / expected - 1.0).abs() < 0.01,
                "{f} Hz: {peak} against {expected}"
            );
        }
    }
}
