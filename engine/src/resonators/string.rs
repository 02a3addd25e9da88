//! The ideal string as a digital waveguide, with one contact point.

use std::f64::consts::PI;
use std::fmt;

use super::{AllpassDelay, DelayLine, LossFilter};

/// The physical description of one string.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StringParams {
    /// Speaking length from agraffe to bridge, m.
    pub length_m: f64,
    /// Mass of the speaking length, kg.
    pub mass_kg: f64,
    /// Fundamental the string is tuned to, Hz. The tension follows from it.
    pub fundamental_hz: f64,
    /// Where the hammer strikes, as a fraction of the length from the agraffe.
    pub strike_position: f64,
    /// Frequency-independent loss `b1`, 1/s.
    pub loss_b1: f64,
    /// Frequency-dependent loss `b2`, m²/s: a partial of wavenumber `k` decays at
    /// `σ = b1 + b2·k²` (Bensa et al. 2003, whose `ξ ≈ k²` for a flexible string).
    pub loss_b2: f64,
}

impl StringParams {
    /// Linear density `μ`, kg/m.
    pub fn linear_density(&self) -> f64 {
        self.mass_kg / self.length_m
    }

    /// Transverse wave speed `c = 2·L·f0`, m/s.
    pub fn wave_speed(&self) -> f64 {
        2.0 * self.length_m * self.fundamental_hz
    }

    /// Tension that tunes the string to its fundamental, `T = μ·c²`, N.
    pub fn tension(&self) -> f64 {
        self.linear_density() * self.wave_speed().powi(2)
    }

    /// Wave impedance `Z0 = √(T·μ) = μ·c`, kg/s.
    pub fn impedance(&self) -> f64 {
        self.linear_density() * self.wave_speed()
    }

    /// Decay rate (1/s) of a partial at angular frequency `omega` (rad/s).
    pub fn decay_rate(&self, omega: f64) -> f64 {
        let wavenumber = omega / self.wave_speed();
        self.loss_b1 + self.loss_b2 * wavenumber * wavenumber
    }
}

/// Why a string could not be built at a sample rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StringDesignError {
    /// The period is too few samples to hold the waveguide (needs at least 3.5).
    PeriodTooShort {
        /// The period in samples at the requested rate.
        period_samples: f64,
    },
    /// A parameter is not a positive finite number, or the strike is not on the string.
    InvalidParameter(&'static str),
}

impl fmt::Display for StringDesignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::PeriodTooShort { period_samples } => write!(
                f,
                "the string's period is {period_samples:.2} samples; at least 3.5 are needed"
            ),
            Self::InvalidParameter(name) => write!(f, "string parameter {name} is out of range"),
        }
    }
}

impl std::error::Error for StringDesignError {}

/// A damper's state: the extra round-trip gain it imposes and where it is heading.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Damper {
    /// Round-trip gain while resting on the string.
    engaged_gain: f64,
    /// Per-sample smoothing factor of the damper's travel.
    travel: f64,
    /// Gain now applied, moving towards `target`.
    gain: f64,
    target: f64,
}

/// A flexible string between a rigid agraffe and a bridge, as velocity waves in
/// delay lines, with one contact point where an external force can act.
///
/// Seen from the contact point the string is two semi-infinite lines in parallel:
/// a resistive source of resistance `1/(2·Z0)` (mobility analogy) whose EMF is the
/// velocity the waves arriving there would give the point. A force `F` launches
/// `F/(2·Z0)` into both directions. The agraffe reflects with −1; the bridge reflects
/// through the lumped loss filter, a fractional-delay allpass that tunes the loop
/// exactly, and the damper.
///
/// Allocates: its delay lines, in [`WaveguideString::new`].
#[derive(Debug, Clone)]
pub struct WaveguideString {
    params: StringParams,
    impedance: f64,
    /// Round trip contact point → agraffe → contact point.
    agraffe_loop: DelayLine,
    /// Contact point → bridge.
    to_bridge: DelayLine,
    /// Bridge → contact point.
    from_bridge: DelayLine,
    tuning: AllpassDelay,
    loss: LossFilter,
    damper: Damper,
    period_samples: f64,
}

impl WaveguideString {
    /// Builds the string for `sample_rate` (Hz). The damper, when lowered, makes
    /// the string ring down with a 60 dB decay time of `damper_t60_s` (s), and
    /// travels to the string in about `damper_travel_s` (s).
    pub fn new(
        params: StringParams,
        sample_rate: f64,
        damper_t60_s: f64,
        damper_travel_s: f64,
    ) -> Result<Self, StringDesignError> {
        let positive = |v: f64| v.is_finite() && v > 0.0;
        for (value, name) in [
            (params.length_m, "length"),
            (params.mass_kg, "mass"),
            (params.fundamental_hz, "fundamental"),
            (params.loss_b1, "loss b1"),
            (sample_rate, "sample rate"),
            (damper_t60_s, "damper T60"),
            (damper_travel_s, "damper travel time"),
        ] {
            if !positive(value) {
                return Err(StringDesignError::InvalidParameter(name));
            }
        }
        if !(params.loss_b2.is_finite() && params.loss_b2 >= 0.0) {
            return Err(StringDesignError::InvalidParameter("loss b2"));
        }
        if !(params.strike_position > 0.0 && params.strike_position < 1.0) {
            return Err(StringDesignError::InvalidParameter("strike position"));
        }

        let period_samples = sample_rate / params.fundamental_hz;
        let omega1 = 2.0 * PI * params.fundamental_hz / sample_rate;
        let round_trip_gain = |omega_per_sample: f64| {
            (-params.decay_rate(omega_per_sample * sample_rate) / params.fundamental_hz).exp()
        };
        // Match the loss at the fundamental and at a high partial still well below
        // Nyquist, where the filter's shape matters most to the ear.
        let omega2 = (8.0 * omega1).min(0.6 * PI);
        // Too close to the fundamental to shape anything: a flat loss.
        let high_gain = if omega2 > 1.5 * omega1 {
            round_trip_gain(omega2)
        } else {
            round_trip_gain(omega1)
        };
        let loss = LossFilter::matched(round_trip_gain(omega1), omega1, high_gain, omega2);

        // Whole-sample delays plus an allpass make up the loop's phase delay at f0.
        let remaining = period_samples - loss.phase_delay(omega1);
        if remaining < 3.5 {
            return Err(StringDesignError::PeriodTooShort { period_samples });
        }
        let whole = (remaining - 0.5).floor() as usize;
        let tuning = AllpassDelay::with_phase_delay(remaining - whole as f64, omega1);
        let agraffe_side =
            ((params.strike_position * whole as f64).round() as usize).clamp(1, whole - 2);
        let bridge_side = whole - agraffe_side;
        let to_bridge = bridge_side / 2;

        let engaged_gain = 10f64.powf(-3.0 / (damper_t60_s * params.fundamental_hz));
        let travel = 1.0 - (-1.0 / (damper_travel_s * sample_rate)).exp();
        Ok(Self {
            params,
            impedance: params.impedance(),
            agraffe_loop: DelayLine::new(agraffe_side),
            to_bridge: DelayLine::new(to_bridge),
            from_bridge: DelayLine::new(bridge_side - to_bridge),
            tuning,
            loss,
            damper: Damper {
                engaged_gain,
                travel,
                gain: 1.0,
                target: 1.0,
            },
            period_samples,
        })
    }

    /// The physical description this string was built from.
    pub fn params(&self) -> &StringParams {
        &self.params
    }

    /// Wave impedance `Z0`, kg/s.
    pub fn impedance(&self) -> f64 {
        self.impedance
    }

    /// The period of the fundamental, in samples.
    pub fn period_samples(&self) -> f64 {
        self.period_samples
    }

    /// The resistance the contact point presents to a series tree, `1/(2·Z0)` s/kg.
    pub fn contact_resistance(&self) -> f64 {
        0.5 / self.impedance
    }

    /// Velocity (m/s) of the contact point this sample if no force acted on it.
    #[inline]
    pub fn free_velocity(&self) -> f64 {
        -self.agraffe_loop.front() + self.from_bridge.front()
    }

    /// Applies `force` (N) at the contact point for this sample and advances the
    /// string by one sample. Returns the force on the bridge (N).
    #[inline]
    pub fn step(&mut self, force: f64) -> f64 {
        let launched = 0.5 * force / self.impedance;
        let arriving_from_agraffe = -self.agraffe_loop.front();
        let arriving_from_bridge = self.from_bridge.front();
        let at_bridge = self.to_bridge.front();

        let damper = &mut self.damper;
        damper.gain += damper.travel * (damper.target - damper.gain);
        let reflected = -damper.gain * self.loss.process(self.tuning.process(at_bridge));

        self.agraffe_loop.push(arriving_from_bridge + launched);
        self.to_bridge.push(arriving_from_agraffe + launched);
        self.from_bridge.push(reflected);
        self.impedance * (at_bridge - reflected)
    }

    /// Lowers the damper onto the string (`true`) or lifts it (`false`).
    pub fn set_damper(&mut self, engaged: bool) {
        self.damper.target = if engaged {
            self.damper.engaged_gain
        } else {
            1.0
        };
    }

    /// The largest travelling-wave velocity on the string, m/s.
    pub fn peak_wave(&self) -> f64 {
        self.agraffe_loop
            .peak()
            .max(self.to_bridge.peak())
            .max(self.from_bridge.peak())
    }

    /// Energy of the travelling waves, J: each velocity-wave sample carries
    /// `Z0·v²/fs`. (The few samples inside the bridge filters are not counted.)
    pub fn energy_j(&self, sample_rate: f64) -> f64 {
        let sum: f64 = [&self.agraffe_loop, &self.to_bridge, &self.from_bridge]
            .iter()
            .map(|line| line.sum_of_squares())
            .sum();
        self.impedance * sum / sample_rate
    }

    /// Brings the string to rest and lifts the damper.
    pub fn reset(&mut self) {
        self.agraffe_loop.clear();
        self.to_bridge.clear();
        self.from_bridge.clear();
        self.tuning.reset();
        self.loss.reset();
        self.damper.gain = 1.0;
        self.damper.target = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn middle_c() -> StringParams {
        StringParams {
            length_m: 0.62,
            mass_kg: 3.93e-3,
            fundamental_hz: 261.63,
            strike_position: 0.12,
            loss_b1: 1.1,
            loss_b2: 2.7e-4,
        }
    }

    /// Chaigne & Askenfelt's C4: the tension that tunes 0.62 m and 3.93 g to
    /// 261.6 Hz is their 670 N, to 1 %.
    #[test]
    fn derived_tension_matches_measured_string() {
        let t = middle_c().tension();
        assert!((t - 670.0).abs() / 670.0 < 0.01, "{t}");
    }

    /// Struck by an impulse, the fundamental rings at the tuned pitch and decays at
    /// the rate `b1` and `b2` prescribe for it, within 2 %.
    #[test]
    fn fundamental_decays_at_the_designed_rate() {
        let fs = 48_000.0;
        let params = middle_c();
        let mut s = WaveguideString::new(params, fs, 0.3, 0.005).unwrap();
        let n = (fs * 2.0) as usize;
        let mut out = Vec::with_capacity(n);
        out.push(s.step(1.0));
        for _ in 1..n {
            out.push(s.step(0.0));
        }
        let w = (0.4 * fs) as usize;
        let f0 = params.fundamental_hz;
        let early = crate::analysis::amplitude_at(&out[..w], fs, f0);
        let late = crate::analysis::amplitude_at(&out[n - w..], fs, f0);
        let measured = (early / late).ln() / ((n - w) as f64 / fs);
        let designed = params.decay_rate(2.0 * PI * f0);
        assert!(
            (measured / designed - 1.0).abs() < 0.02,
            "{measured} vs {designed}"
        );
    }

    /// A lowered damper brings the string 60 dB down within its T60 (plus travel).
    #[test]
    fn damper_silences_the_string() {
        let fs = 48_000.0;
        let mut s = WaveguideString::new(middle_c(), fs, 0.3, 0.005).unwrap();
        s.step(1.0);
        for _ in 0..4800 {
            s.step(0.0);
        }
        let before = s.peak_wave();
        s.set_damper(true);
        for _ in 0..(0.35 * fs) as usize {
            s.step(0.0);
        }
        assert!(
            s.peak_wave() < before * 1e-3,
            "{} vs {}",
            s.peak_wave(),
            before
        );
    }

    #[test]
    fn rejects_impossible_strings() {
        let mut p = middle_c();
        p.fundamental_hz = 20_000.0;
        assert!(matches!(
            WaveguideString::new(p, 44_100.0, 0.3, 0.005),
            Err(StringDesignError::PeriodTooShort { .. })
        ));
        p = middle_c();
        p.mass_kg = f64::NAN;
        assert!(WaveguideString::new(p, 44_100.0, 0.3, 0.005).is_err());
        p = middle_c();
        p.strike_position = 1.0;
        assert!(WaveguideString::new(p, 44_100.0, 0.3, 0.005).is_err());
    }
}
