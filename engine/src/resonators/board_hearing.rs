//! What a pair of microphones hears of the board's motion along the bridge:
//! Rayleigh's integral over strips of the board, each strip heard at its
//! retarded time.
//!
//! Microphone `c` hears `p_c(t) = Σ_s w_cs·a_s(t − r_cs/c0)`, `a_s` the
//! acceleration of the strip around bridge node `s` (m/s²), `w_cs` its
//! weight ([`super::Placement::board_paths`]) and `r_cs` its distance from the
//! microphone (m). The strips' sounds reach the two microphones after
//! different times: across a concert grand's bridge the differences reach
//! about 4 ms, several periods of every partial above a few hundred hertz,
//! so a spaced pair hears each partial with its own phase on each side, as
//! a real pair over a board does. Delays are rounded to the sample (at 48 kHz
//! within 10 µs, a phase error under 8 degrees at 2 kHz) and counted from the
//! nearest place anything is heard from
//! ([`super::Placement::delay_samples`]), so that hearing from a microphone
//! adds almost no latency.
//!
//! Allocates: the history of accelerations, in [`BoardHearing::new`];
//! nothing after.

use super::half_order::{HalfOrderSlope, SlopeState};
use super::soundboard::BRIDGE_NODES;

/// How each microphone of a pair hears each strip of the board.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardPaths {
    /// Newtons of equivalent bridge force per m/s² of a strip's
    /// acceleration, left and right, for the whole strip.
    pub weights: [[f64; BRIDGE_NODES]; 2],
    /// From each strip to each microphone, samples.
    pub delays: [[usize; BRIDGE_NODES]; 2],
    /// The share of each strip heard, by frequency
    /// ([`super::listening::in_phase_share`]): the same for every strip, so
    /// applied to each microphone's sum.
    pub in_phase: HalfOrderSlope,
}

/// The board heard by a pair of microphones, strip by strip, each at its
/// own delay.
#[derive(Debug, Clone)]
pub struct BoardHearing {
    weights: [[f64; BRIDGE_NODES]; 2],
    /// Each path's delay, samples.
    delays: [[usize; BRIDGE_NODES]; 2],
    /// The strips' accelerations, latest at `write`, m/s².
    history: Vec<[f64; BRIDGE_NODES]>,
    write: usize,
    /// Last sample's strip velocities, m/s.
    last_velocity: [f64; BRIDGE_NODES],
    /// The share of each strip heard, and each microphone's memory of it.
    in_phase: HalfOrderSlope,
    in_phase_state: [SlopeState; 2],
    /// Whether `last_velocity` holds the board's last velocities (not so for
    /// a board carried on from one heard otherwise: its first sample starts
    /// the difference, silent, rather than jump).
    primed: bool,
    sample_rate: f64,
}

impl BoardHearing {
    /// Hears the board along `paths` at `sample_rate` (Hz).
    pub fn new(paths: &BoardPaths, sample_rate: f64) -> Self {
        let longest = paths.delays.iter().flatten().copied().max().unwrap_or(0);
        Self {
            weights: paths.weights,
            delays: paths.delays,
            history: vec![[0.0; BRIDGE_NODES]; (longest + 1).next_power_of_two()],
            write: 0,
            last_velocity: [0.0; BRIDGE_NODES],
            in_phase: paths.in_phase.clone(),
            in_phase_state: [SlopeState::default(); 2],
            primed: true,
            sample_rate,
        }
    }

    /// Takes this sample's strip velocities (m/s) and returns what the left
    /// and right microphones hear, in newtons of equivalent bridge force.
    #[inline]
    pub fn hear(&mut self, velocities: &[f64; BRIDGE_NODES]) -> [f64; 2] {
        if !self.primed {
            self.primed = true;
            self.last_velocity = *velocities;
        }
        let mask = self.history.len() - 1;
        self.write = (self.write + 1) & mask;
        let acceleration = &mut self.history[self.write];
        for ((a, v), last) in acceleration
            .iter_mut()
            .zip(velocities)
            .zip(&self.last_velocity)
        {
            *a = (v - last) * self.sample_rate;
        }
        self.last_velocity = *velocities;
        let mut heard = [0.0; 2];
        for ((out, weights), delays) in heard.iter_mut().zip(&self.weights).zip(&self.delays) {
            for (s, (w, &d)) in weights.iter().zip(delays).enumerate() {
                *out += w * self.history[(self.write.wrapping_sub(d)) & mask][s];
            }
        }
        for (out, state) in heard.iter_mut().zip(&mut self.in_phase_state) {
            *out = self.in_phase.process(state, *out);
        }
        heard
    }

    /// Carries on from `old`: the strips' past accelerations are what they
    /// were whatever the paths now are (a pair moved apart hears the same
    /// board's past along its new paths), so the history goes on.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &BoardHearing) {
        if old.history.len() == self.history.len() {
            self.history.copy_from_slice(&old.history);
            self.write = old.write;
        } else {
            let (mask, old_mask) = (self.history.len() - 1, old.history.len() - 1);
            self.write = 0;
            for k in 0..self.history.len().min(old.history.len()) {
                self.history[k.wrapping_neg() & mask] =
                    old.history[old.write.wrapping_sub(k) & old_mask];
            }
        }
        self.last_velocity = old.last_velocity;
        self.primed = old.primed;
        if old.in_phase == self.in_phase {
            self.in_phase_state = old.in_phase_state;
        }
    }

    /// Starts afresh, as after a board heard otherwise: nothing in flight,
    /// and the first sample's velocities taken as the last.
    pub fn reset_unprimed(&mut self) {
        self.reset();
        self.primed = false;
    }

    /// Silence: no motion heard, none remembered.
    pub fn reset(&mut self) {
        self.history.fill([0.0; BRIDGE_NODES]);
        self.last_velocity = [0.0; BRIDGE_NODES];
        self.in_phase_state = [SlopeState::default(); 2];
        self.primed = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> BoardPaths {
        BoardPaths {
            weights: std::array::from_fn(|c| {
                std::array::from_fn(|s| 1.0 + (s + 3 * c) as f64 * 0.1)
            }),
            delays: std::array::from_fn(|c| {
                std::array::from_fn(|s| 3 * (s as f64 - 7.0 * c as f64).abs() as usize)
            }),
            // Every strip heard whole.
            in_phase: HalfOrderSlope::flat(),
        }
    }

    /// A step of velocity at one strip is an impulse of acceleration, heard
    /// by each microphone once, weighted, after the strip's delay.
    #[test]
    fn each_strip_is_heard_after_its_own_time_of_flight() {
        let fs = 48_000.0;
        let paths = paths();
        for strip in [0, 7, BRIDGE_NODES - 1] {
            let mut hearing = BoardHearing::new(&paths, fs);
            let mut velocities = [0.0; BRIDGE_NODES];
            let mut heard = Vec::new();
            for n in 0..2000 {
                if n == 10 {
                    velocities[strip] = 1e-3;
                }
                heard.push(hearing.hear(&velocities));
            }
            for side in 0..2 {
                let expected_at = 10 + paths.delays[side][strip];
                let (at, peak) = heard
                    .iter()
                    .enumerate()
                    .map(|(n, h)| (n, h[side]))
                    .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
                    .unwrap();
                assert_eq!(at, expected_at, "strip {strip}, side {side}");
                let expected = paths.weights[side][strip] * 1e-3 * fs;
                assert!(
                    (peak - expected).abs() < 1e-9 * expected,
                    "{peak} {expected}"
                );
                let rest: f64 = heard.iter().map(|h| h[side].abs()).sum::<f64>() - peak.abs();
                assert!(rest < 1e-12, "heard once only: {rest}");
            }
        }
    }

    /// Carried on along the same paths, the hearing goes on as if never
    /// interrupted; along others, it hears the same past along them.
    #[test]
    fn carrying_on_keeps_the_sound_in_flight() {
        let fs = 48_000.0;
        let mut a = BoardHearing::new(&paths(), fs);
        let mut reference = BoardHearing::new(&paths(), fs);
        let velocity = |n: usize| std::array::from_fn(|s| ((n * (s + 1)) as f64 * 0.01).sin());
        for n in 0..500 {
            a.hear(&velocity(n));
            reference.hear(&velocity(n));
        }
        let mut b = BoardHearing::new(&paths(), fs);
        b.continue_from(&a);
        for n in 500..1000 {
            assert_eq!(b.hear(&velocity(n)), reference.hear(&velocity(n)));
        }
        let mut other = paths();
        // Another path, as long a history.
        other.delays[0][0] += 5;
        assert_eq!(other.delays[0][0], 5);
        let mut moved = BoardHearing::new(&other, fs);
        moved.continue_from(&a);
        let mut moved_throughout = BoardHearing::new(&other, fs);
        for n in 0..500 {
            moved_throughout.hear(&velocity(n));
        }
        for n in 500..1000 {
            assert_eq!(
                moved.hear(&velocity(n)),
                moved_throughout.hear(&velocity(n))
            );
        }
    }
}
