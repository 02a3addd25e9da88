//! Telemetry of one strike: when the felt touched, how long, how hard, in how many
//! force pulses, and the contact force sample by sample.

use crate::capacity::copy_within_capacity;

/// A force pulse must rise and then fall by this fraction of the largest force of
/// the strike so far to count: ripples smaller than that (a tenth of the peak) are
/// shoulders of one pulse, not separate pulses.
pub const PULSE_DIP_FRACTION: f64 = 0.1;

/// What happened during the last strike, as measured in the simulation.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StrikeReport {
    /// Hammer speed at release into free flight, m/s.
    pub strike_speed_m_s: f64,
    /// Time from release to first touch, s (`None` if it never touched).
    pub first_touch_s: Option<f64>,
    /// Duration of the first contact, s (`None` while still touching or never touched).
    pub contact_duration_s: Option<f64>,
    /// Time from release to the end of the latest contact, s.
    pub last_release_s: Option<f64>,
    /// Number of separate contacts so far (the force fell to zero between them).
    pub contacts: u32,
    /// Number of force pulses over the whole strike: maxima of the contact force
    /// separated by a fall of at least [`PULSE_DIP_FRACTION`] of the peak force
    /// (down to zero between contacts, or a dip while in contact).
    pub force_pulses: u32,
    /// Largest felt force, N.
    pub peak_force_n: f64,
    /// Hammer velocity (m/s, positive towards the string) when the first contact ended.
    pub rebound_velocity_m_s: Option<f64>,
    /// Whether the hammer has left the string's neighbourhood (the graft is pruned).
    pub hammer_gone: bool,
    /// Time from release (the graft) to the pruning of the hammer's tree, s.
    pub pruned_after_s: Option<f64>,
}

impl StrikeReport {
    /// Rebound speed over strike speed after the first contact (dimensionless); the
    /// coefficient of restitution when the struck object is rigid.
    pub fn restitution(&self) -> Option<f64> {
        self.rebound_velocity_m_s
            .map(|v| -v / self.strike_speed_m_s.max(f64::MIN_POSITIVE))
    }
}

/// Counts force pulses as they happen: a peak detector with a hysteresis of
/// [`PULSE_DIP_FRACTION`] of the largest force so far.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct PulseCounter {
    /// Whether the force is climbing towards a maximum not yet confirmed.
    rising: bool,
    /// Largest force since the last valley while rising, least since the last peak
    /// while falling, N.
    extreme: f64,
    /// Largest force so far, N.
    peak: f64,
    /// Confirmed pulses.
    confirmed: u32,
}

impl PulseCounter {
    /// Takes the next sample of the contact force (N).
    pub fn push(&mut self, force: f64) {
        self.peak = self.peak.max(force);
        let dip = PULSE_DIP_FRACTION * self.peak;
        if self.rising {
            if force > self.extreme {
                self.extreme = force;
            } else if force < self.extreme - dip {
                self.confirmed += 1;
                self.rising = false;
                self.extreme = force;
            }
        } else if force < self.extreme {
            self.extreme = force;
        } else if force > self.extreme + dip {
            self.rising = true;
            self.extreme = force;
        }
    }

    /// Pulses so far, counting one still rising or at its top.
    pub fn count(&self) -> u32 {
        self.confirmed + u32::from(self.rising)
    }
}

/// The contact force and felt compression sample by sample, from the first touch
/// of a strike until the hammer is pruned or the trace is full.
///
/// Allocates: its two buffers, in [`ContactTrace::new`] (and in `clone`, which
/// keeps their full capacity); never after.
#[derive(Debug, PartialEq)]
pub struct ContactTrace {
    force_n: Vec<f64>,
    compression_m: Vec<f64>,
    capacity: usize,
    sample_rate: f64,
}

impl Clone for ContactTrace {
    /// A copy with buffers of full capacity: a derived clone would shrink them
    /// to their length, and the copy would then allocate on the audio thread as
    /// it records.
    fn clone(&self) -> Self {
        let mut copy = Self {
            force_n: Vec::with_capacity(self.capacity),
            compression_m: Vec::with_capacity(self.capacity),
            capacity: self.capacity,
            sample_rate: self.sample_rate,
        };
        copy.force_n.extend_from_slice(&self.force_n);
        copy.compression_m.extend_from_slice(&self.compression_m);
        copy
    }
}

impl ContactTrace {
    /// An empty trace holding up to `seconds` (s) at `sample_rate` (Hz).
    pub fn new(seconds: f64, sample_rate: f64) -> Self {
        let capacity = (seconds * sample_rate).round().clamp(0.0, 1e7) as usize;
        Self {
            force_n: Vec::with_capacity(capacity),
            compression_m: Vec::with_capacity(capacity),
            capacity,
            sample_rate,
        }
    }

    /// Contact force (N), one value per sample from the first touch.
    pub fn force_n(&self) -> &[f64] {
        &self.force_n
    }

    /// Felt compression (m, negative for a gap), one value per sample.
    pub fn compression_m(&self) -> &[f64] {
        &self.compression_m
    }

    /// The sample rate of the trace, Hz.
    pub fn sample_rate(&self) -> f64 {
        self.sample_rate
    }

    /// Whether the trace is full (later samples of the strike were not kept).
    pub fn is_full(&self) -> bool {
        self.force_n.len() >= self.capacity
    }

    /// Appends one sample unless full.
    pub(crate) fn push(&mut self, force_n: f64, compression_m: f64) {
        if !self.is_full() {
            self.force_n.push(force_n);
            self.compression_m.push(compression_m);
        }
    }

    /// Holds `old`'s samples instead of its own, as many as it has room for.
    ///
    /// Allocates nothing.
    pub(crate) fn continue_from(&mut self, old: &ContactTrace) {
        copy_within_capacity(&mut self.force_n, &old.force_n);
        copy_within_capacity(&mut self.compression_m, &old.compression_m);
    }

    /// Empties the trace (keeping its memory).
    pub(crate) fn clear(&mut self) {
        self.force_n.clear();
        self.compression_m.clear();
    }

    /// Area enclosed by the force–compression path, `∮F·dx` by the trapezoidal
    /// rule, J: the energy the felt dissipated over the recorded contacts.
    pub fn hysteresis_loop_area_j(&self) -> f64 {
        self.force_n
            .windows(2)
            .zip(self.compression_m.windows(2))
            .map(|(f, x)| 0.5 * (f[0] + f[1]) * (x[1] - x[0]))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pulses(forces: &[f64]) -> u32 {
        let mut counter = PulseCounter::default();
        for &f in forces {
            counter.push(f);
        }
        counter.count()
    }

    #[test]
    fn pulses_are_maxima_separated_by_a_significant_dip() {
        assert_eq!(pulses(&[]), 0);
        assert_eq!(pulses(&[0.0, 1.0, 3.0, 2.0, 0.0]), 1);
        // Down to zero between contacts.
        assert_eq!(pulses(&[0.0, 2.0, 0.0, 0.0, 1.0, 0.0]), 2);
        // A dip of 30 % within one contact.
        assert_eq!(pulses(&[1.0, 10.0, 7.0, 9.0, 4.0, 0.0]), 2);
        // A ripple of 5 % is a shoulder.
        assert_eq!(pulses(&[1.0, 10.0, 9.5, 9.9, 4.0, 0.0]), 1);
        // A pulse still rising counts.
        assert_eq!(pulses(&[0.0, 5.0, 0.0, 2.0, 3.0]), 2);
        // A late bounce of 5 % of the peak is too small to count.
        assert_eq!(pulses(&[0.0, 10.0, 0.0, 0.5, 0.0]), 1);
    }

    #[test]
    fn trace_is_bounded_and_measures_the_loop() {
        let mut trace = ContactTrace::new(4.0 / 1000.0, 1000.0);
        // In along F = x, out along F = x/2: the loop encloses ½·1·1 − ½·½·1 = ¼.
        for (f, x) in [(0.0, 0.0), (1.0, 1.0), (0.0, 0.0), (9.0, 9.0), (9.0, 9.0)] {
            trace.push(f, x);
        }
        assert!(trace.is_full());
        assert_eq!(trace.force_n().len(), 4);
        let mut loop_trace = ContactTrace::new(1.0, 1000.0);
        for k in 0..=100 {
            let x = k as f64 / 100.0;
            loop_trace.push(x, x);
        }
        for k in (0..=100).rev() {
            let x = k as f64 / 100.0;
            loop_trace.push(0.5 * x, x);
        }
        assert!((loop_trace.hysteresis_loop_area_j() - 0.25).abs() < 1e-12);
        // A copy keeps room for a whole strike.
        let copy = ContactTrace::new(4.0 / 1000.0, 1000.0).clone();
        assert!(copy.force_n.capacity() >= 4 && copy.compression_m.capacity() >= 4);
        loop_trace.clear();
        assert!(loop_trace.force_n().is_empty());
    }
}
