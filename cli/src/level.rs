//! What happens to the instrument's output before it is written: nothing
//! (the default: the preset's level), one gain for the whole render
//! (`--normalize`), or the lookahead limiter (`--limiter`).

use crate::limiter::Limiter;
use crate::render::BLOCK;

/// Where a stage's output goes: (left, right) in order, or a reason to stop.
pub type Sink<'a> = dyn FnMut(&[f32], &[f32]) -> Result<(), String> + 'a;

/// The level stage between the instrument and the file.
pub struct Stage {
    kind: Kind,
    /// Room for one block of what comes out (`BLOCK` frames per channel).
    left: Vec<f32>,
    right: Vec<f32>,
    /// Frames of the limiter's delay still to drop from the start.
    to_skip: usize,
}

enum Kind {
    Unity,
    Gain(f32),
    Limiter(Limiter),
}

impl Stage {
    fn new(kind: Kind) -> Self {
        let to_skip = match &kind {
            Kind::Limiter(limiter) => limiter.latency(),
            _ => 0,
        };
        let (left, right) = match kind {
            Kind::Unity => (Vec::new(), Vec::new()),
            _ => (vec![0.0; BLOCK], vec![0.0; BLOCK]),
        };
        Self {
            kind,
            left,
            right,
            to_skip,
        }
    }

    /// The output as the instrument plays it.
    pub fn unity() -> Self {
        Self::new(Kind::Unity)
    }

    /// The output times `gain`.
    pub fn gain(gain: f32) -> Self {
        Self::new(Kind::Gain(gain))
    }

    /// The output through a [`Limiter`] holding `ceiling` (full scale 1) at
    /// `sample_rate` Hz, its delay taken out: what comes out lines up with
    /// what went in, frame for frame.
    pub fn limiter(ceiling: f32, sample_rate: f64) -> Self {
        Self::new(Kind::Limiter(Limiter::new(ceiling, sample_rate)))
    }

    /// The limiter's largest gain reduction so far, dB, if this is the limiter.
    pub fn deepest_reduction_db(&self) -> Option<f64> {
        match &self.kind {
            Kind::Limiter(limiter) => Some(limiter.deepest_reduction_db()),
            _ => None,
        }
    }

    /// Passes two channels through, handing what comes out to `sink`.
    pub fn process(&mut self, left: &[f32], right: &[f32], sink: &mut Sink) -> Result<(), String> {
        if let Kind::Unity = self.kind {
            return sink(left, right);
        }
        for (l, r) in left.chunks(BLOCK).zip(right.chunks(BLOCK)) {
            let n = l.len().min(r.len());
            let (out_l, out_r) = (&mut self.left[..n], &mut self.right[..n]);
            out_l.copy_from_slice(&l[..n]);
            out_r.copy_from_slice(&r[..n]);
            match &mut self.kind {
                Kind::Unity => {}
                Kind::Gain(gain) => {
                    for x in out_l.iter_mut().chain(out_r.iter_mut()) {
                        *x *= *gain;
                    }
                }
                Kind::Limiter(limiter) => limiter.process(out_l, out_r),
            }
            let skip = self.to_skip.min(n);
            self.to_skip -= skip;
            if skip < n {
                sink(&self.left[skip..n], &self.right[skip..n])?;
            }
        }
        Ok(())
    }

    /// The input is over: hands `sink` what is still inside (the limiter's
    /// delay, fed silence), so that as many frames come out as went in.
    pub fn finish(&mut self, sink: &mut Sink) -> Result<(), String> {
        let Kind::Limiter(limiter) = &self.kind else {
            return Ok(());
        };
        let silence = [0.0f32; BLOCK];
        let mut inside = limiter.latency();
        while inside > 0 {
            let n = inside.min(BLOCK);
            self.process(&silence[..n], &silence[..n], sink)?;
            inside -= n;
        }
        Ok(())
    }
}

/// The larger of `peak` and the largest absolute value in `left` and `right`.
pub fn peak(peak: f32, left: &[f32], right: &[f32]) -> f32 {
    left.iter().chain(right).fold(peak, |m, x| m.max(x.abs()))
}

/// A level in dB re full scale as a factor (full scale 1).
pub fn db_to_gain(db: f64) -> f64 {
    10f64.powf(db / 20.0)
}

/// A factor (full scale 1) as a level in dB re full scale; silence as −200 dB.
pub fn gain_to_db(gain: f64) -> f64 {
    20.0 * gain.max(1e-10).log10()
}

/// The gain that brings `peak` to `target` (both full scale 1); none for
/// silence, which no gain brings anywhere.
pub fn normalizing_gain(peak: f32, target: f32) -> Option<f32> {
    (peak > 0.0 && peak.is_finite()).then(|| target / peak)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `stage` over `input` in pieces of `piece` frames, then finishes it.
    fn run(stage: &mut Stage, input: &[f32], piece: usize) -> Vec<f32> {
        let mut out = Vec::new();
        let mut sink = |l: &[f32], r: &[f32]| {
            assert_eq!(l, r);
            out.extend_from_slice(l);
            Ok(())
        };
        for chunk in input.chunks(piece) {
            stage.process(chunk, chunk, &mut sink).unwrap();
        }
        stage.finish(&mut sink).unwrap();
        out
    }

    /// The limiter's delay is taken out: as many frames come out as went in,
    /// each where it went in (below the ceiling, untouched), whatever the
    /// pieces.
    #[test]
    fn the_limiter_stage_lines_up_with_its_input() {
        let input: Vec<f32> = (0..5000).map(|i| (i as f32 * 0.01).sin() * 0.5).collect();
        for piece in [1, 95, 512, 700] {
            let out = run(&mut Stage::limiter(0.9, 48_000.0), &input, piece);
            assert_eq!(out, input, "pieces of {piece}");
        }
        let loud: Vec<f32> = input.iter().map(|x| 4.0 * x).collect();
        let mut stage = Stage::limiter(0.9, 48_000.0);
        let out = run(&mut stage, &loud, 512);
        assert_eq!(out.len(), loud.len());
        assert!(out.iter().all(|x| x.abs() <= 0.9));
        assert!(stage.deepest_reduction_db().unwrap() > 6.0);
    }

    /// A gain multiplies every frame; unity passes them as they are.
    #[test]
    fn gain_and_unity() {
        let input: Vec<f32> = (0..1500).map(|i| i as f32 / 1500.0).collect();
        let doubled: Vec<f32> = input.iter().map(|x| 2.0 * x).collect();
        assert_eq!(run(&mut Stage::gain(2.0), &input, 600), doubled);
        assert_eq!(run(&mut Stage::unity(), &input, 600), input);
    }

    /// Normalising brings the peak to the target exactly (to a float's
    /// rounding), and leaves silence alone.
    #[test]
    fn normalizing_gain_brings_the_peak_to_the_target() {
        let target = db_to_gain(-1.0) as f32;
        for peak in [1e-6f32, 0.3, 1.0, 17.5] {
            let gain = normalizing_gain(peak, target).unwrap();
            assert!(((peak * gain) - target).abs() <= f32::EPSILON * target);
        }
        assert_eq!(normalizing_gain(0.0, target), None);
        assert!((gain_to_db(f64::from(target)) + 1.0).abs() < 1e-6);
    }
}
