//! One stiff string as a digital waveguide: dispersion, loss and exact tuning
//! lumped at the bridge end, one contact point for a hammer.

use std::f64::consts::PI;

use super::dispersion::{DispersionDesign, MAX_DISPERSION_SECTIONS};
use super::loop_lanes::LoopFilters;
use super::{AllpassDelay, DelayLine, LossFilter, StringDesignError, StringParams};

/// Fewest whole samples the loop's delay lines need (agraffe side, and the bridge
/// side split in two around nothing).
const MIN_WHOLE_SAMPLES: f64 = 3.5;

/// The most inharmonicity `B` a stiff string is designed for (a tenth: far
/// beyond a piano's stiffest treble strings).
pub const MAX_INHARMONICITY: f64 = 0.1;

/// A stiff string between a rigid agraffe and a bridge.
///
/// Velocity waves travel round the string's loop: from the bridge to the
/// contact point, on to the agraffe and back (reflection −1), and from the
/// contact point to the bridge. The loop is one delay line of a whole number
/// of samples, written once a sample at the bridge with the wave the bridge
/// sends back and read there a sample at a time or a block ahead; a hammer
/// adds its wave at the two places where the line passes the contact point.
/// The line holds the bridge-to-contact and agraffe stretches as they are and
/// the contact-to-bridge stretch inverted, so the agraffe's reflection costs
/// nothing: the wave leaving the line for the bridge is minus its front. The
/// wave arriving at the bridge passes the loop's lumped filters
/// (dispersion allpasses, fractional-delay allpass, one-pole loss) before it meets
/// the bridge. The string holds its delay lines and the design of those filters;
/// the [`Unison`](super::Unison) that owns it runs the filters of all its strings
/// side by side and decides what the bridge reflects, coupling its strings.
///
/// The loss law is `σ(ω) = b1 + b2·k²` (1/s) with `k = ω/c` (rad/m), following
/// Bensa et al. (2003) with `b2` in m²/s; the loss filter matches it at the first
/// partial and at partial 8 (or the highest partial below 0.3·fs).
///
/// Allocates: its delay lines, in [`StiffString::new`].
#[derive(Debug, Clone)]
pub struct StiffString {
    impedance: f64,
    /// The loop, oldest sample (the next to leave for the bridge) first.
    waves: DelayLine,
    /// Samples from the contact point to the bridge: the stretch the wave
    /// leaving for the bridge is known ahead.
    to_bridge: usize,
    /// Samples from the bridge to the contact point.
    from_bridge: usize,
    /// Where the agraffe is in the line: the wave back from it nearest to
    /// it (counted ahead from the front) and the wave going to it nearest
    /// to it (the same sample when the agraffe falls on one).
    mirror: (usize, usize),
    /// The lumped filters as designed, at rest.
    filters: LoopFilters,
    first_partial_hz: f64,
}

impl StiffString {
    /// Builds the string at `sample_rate` (Hz) with its first partial exactly at
    /// `first_partial_hz` (Hz; the unison's detuning is applied by the caller) and
    /// inharmonicity `b` (dimensionless, 0 for a flexible string, at most
    /// `MAX_INHARMONICITY`, 0.1).
    /// `params.fundamental_hz` sets the wave speed and impedance.
    pub fn new(
        params: &StringParams,
        b: f64,
        first_partial_hz: f64,
        sample_rate: f64,
    ) -> Result<Self, StringDesignError> {
        Self::with_most_sections(
            params,
            b,
            first_partial_hz,
            sample_rate,
            MAX_DISPERSION_SECTIONS,
        )
    }

    /// [`StiffString::new`] with at most `most_sections` dispersion sections
    /// (the strings of a unison share their number).
    pub fn with_most_sections(
        params: &StringParams,
        b: f64,
        first_partial_hz: f64,
        sample_rate: f64,
        most_sections: usize,
    ) -> Result<Self, StringDesignError> {
        let positive = |v: f64| v.is_finite() && v > 0.0;
        for (value, name) in [
            (params.length_m, "length"),
            (params.mass_kg, "mass"),
            (params.fundamental_hz, "fundamental"),
            (first_partial_hz, "first partial"),
            (params.loss_b1, "loss b1"),
            (sample_rate, "sample rate"),
        ] {
            if !positive(value) {
                return Err(StringDesignError::InvalidParameter(name));
            }
        }
        if !(params.loss_b2.is_finite() && params.loss_b2 >= 0.0) {
            return Err(StringDesignError::InvalidParameter("loss b2"));
        }
        if !(b.is_finite() && (0.0..=MAX_INHARMONICITY).contains(&b)) {
            return Err(StringDesignError::InvalidParameter("inharmonicity"));
        }
        if !(params.strike_position > 0.0 && params.strike_position < 1.0) {
            return Err(StringDesignError::InvalidParameter("strike position"));
        }
        let period_samples = sample_rate / first_partial_hz;
        if period_samples < MIN_WHOLE_SAMPLES + 1.0 {
            return Err(StringDesignError::PeriodTooShort { period_samples });
        }

        let partial_omega = |n: u32| {
            2.0 * PI * super::dispersion::stiff_partial_hz(first_partial_hz, b, n) / sample_rate
        };
        let omega1 = partial_omega(1);
        // Round-trip gain of partial n: it decays at σ(ω_n) for one loop delay,
        // n·fs/f_n samples.
        let round_trip_gain = |n: u32| {
            let f = super::dispersion::stiff_partial_hz(first_partial_hz, b, n);
            let loop_s = f64::from(n) / f;
            (-params.decay_rate(2.0 * PI * f) * loop_s).exp()
        };
        let high_n = (2..=8u32)
            .rev()
            .find(|&n| partial_omega(n) < 0.6 * PI)
            .unwrap_or(1);
        let high = partial_omega(high_n);
        let high_gain = if high > 1.5 * omega1 {
            round_trip_gain(high_n)
        } else {
            round_trip_gain(1)
        };
        let loss = LossFilter::matched(
            round_trip_gain(1),
            omega1,
            high_gain,
            high.max(omega1 * 1.5),
        );

        // Dispersion first (fitted with the loss filter's and a mid-range tuning
        // allpass's phase), then the whole and fractional delays that tune the
        // first partial exactly.
        let budget = period_samples - loss.phase_delay(omega1) - MIN_WHOLE_SAMPLES - 1.5;
        let max_sections = if budget < 1.0 {
            0
        } else {
            (budget.floor() as usize).min(most_sections.min(MAX_DISPERSION_SECTIONS))
        };
        let mut tuning = AllpassDelay::with_phase_delay(1.0, omega1);
        let mut design = DispersionDesign::NONE;
        for _ in 0..2 {
            design = DispersionDesign::design(
                b,
                first_partial_hz,
                sample_rate,
                max_sections,
                budget,
                |w| loss.phase_delay(w) + tuning.phase_delay(w),
            );
            let remaining = period_samples - loss.phase_delay(omega1) - design.phase_delay(omega1);
            let whole = (remaining - 0.5).floor();
            tuning = AllpassDelay::with_phase_delay(remaining - whole, omega1);
        }
        let remaining = period_samples - loss.phase_delay(omega1) - design.phase_delay(omega1);
        if remaining < MIN_WHOLE_SAMPLES {
            return Err(StringDesignError::PeriodTooShort { period_samples });
        }
        let whole = (remaining - 0.5).floor() as usize;
        let tuning = AllpassDelay::with_phase_delay(remaining - whole as f64, omega1);
        // The agraffe side is the strike position's share of the whole period: the
        // lumped filters at the bridge end delay the low partials, which carry the
        // hammer's pulse, by `period − whole` samples, and that delay belongs to the
        // bridge side. Splitting only the whole samples would bring the agraffe's
        // echo back early (C4 at 48 kHz: 18 samples, 0.375 ms, for 2·a·L/c =
        // 0.459 ms) and make the short segment the hammer presses against stiffer.
        let agraffe_side =
            ((params.strike_position * period_samples).round() as usize).clamp(1, whole - 2);
        let bridge_side = whole - agraffe_side;
        let to_bridge = bridge_side / 2;
        Ok(Self {
            impedance: params.impedance(),
            waves: DelayLine::new(whole),
            to_bridge,
            from_bridge: bridge_side - to_bridge,
            mirror: (
                to_bridge + agraffe_side.div_ceil(2) - 1,
                to_bridge + agraffe_side / 2,
            ),
            filters: LoopFilters {
                dispersion: design,
                tuning,
                loss,
            },
            first_partial_hz,
        })
    }

    /// Wave impedance `Z0 = μ·c`, kg/s.
    pub fn impedance(&self) -> f64 {
        self.impedance
    }

    /// The frequency the first partial is tuned to, Hz.
    pub fn first_partial_hz(&self) -> f64 {
        self.first_partial_hz
    }

    /// The dispersion filter in the loop.
    pub fn dispersion(&self) -> DispersionDesign {
        self.filters.dispersion
    }

    /// The fractional-delay allpass in the loop, at rest.
    pub fn tuning(&self) -> AllpassDelay {
        self.filters.tuning
    }

    /// The loss filter in the loop, at rest.
    pub fn loss(&self) -> LossFilter {
        self.filters.loss
    }

    /// The loop's lumped filters, at rest.
    pub(crate) fn loop_filters(&self) -> LoopFilters {
        self.filters
    }

    /// Where, counted ahead from the line's front, the wave that has come
    /// from the bridge reaches the contact point this sample.
    #[inline]
    fn at_contact_from_bridge(&self) -> usize {
        self.waves.len() - self.from_bridge
    }

    /// Where, counted ahead from the line's front, the wave that has been to
    /// the agraffe reaches the contact point this sample.
    #[inline]
    fn at_contact_from_agraffe(&self) -> usize {
        self.to_bridge
    }

    /// Velocity (m/s) of the contact point this sample if no force acted on it.
    #[inline]
    pub fn free_velocity(&self) -> f64 {
        // The wave back from the agraffe is inverted in the line.
        -self.waves.peek(self.at_contact_from_agraffe())
            + self.waves.peek(self.at_contact_from_bridge())
    }

    /// The velocity wave (m/s) leaving the delay lines for the loop's lumped filters
    /// and the bridge this sample. Read it before [`StiffString::advance`].
    #[inline]
    pub fn bridge_input(&self) -> f64 {
        -self.waves.front()
    }

    /// Calls `f(j, wave)` with the velocity waves (m/s) that will leave the
    /// line for the bridge over the next `samples` samples (at most
    /// [`StiffString::lookahead`], or [`StiffString::lookahead_untouched`]
    /// while no hammer pushes), in order: they are on their way already,
    /// whatever happens at the bridge meanwhile.
    #[inline(always)]
    pub fn bridge_inputs_ahead(&self, samples: usize, mut f: impl FnMut(usize, f64)) {
        debug_assert!(samples <= self.lookahead_untouched());
        self.waves.front_each(samples, |j, stored| f(j, -stored));
    }

    /// `v⁺ − v⁻` (m/s) at the point `travel` samples of travel from the
    /// agraffe (at most [`StiffString::mirrored_reach`]): the wave going to
    /// the agraffe less the wave coming back from it, there, this sample.
    /// The string's slope there is this over the wave speed. The line holds
    /// the waves coming back inverted, so it is the sum of the two samples
    /// mirrored about the agraffe.
    #[inline(always)]
    pub fn mirrored_pair(&self, travel: usize) -> f64 {
        debug_assert!(travel <= self.mirrored_reach());
        let (back, out) = self.mirror;
        self.waves.peek(out + travel) + self.waves.peek(back - travel)
    }

    /// The waves at `points` points `stride` samples of travel apart from
    /// the agraffe: `f(m, v⁺, −v⁻)` for point `m` (`(points − 1)·stride` at
    /// most [`StiffString::mirrored_reach`]), the wave going to the agraffe
    /// and minus the wave coming back, as the line holds them. Their sum is
    /// [`StiffString::mirrored_pair`]; the sum of their squares is the
    /// string's energy there over its impedance.
    #[inline(always)]
    pub fn mirrored_pairs(&self, stride: usize, points: usize, f: impl FnMut(usize, f64, f64)) {
        debug_assert!(points == 0 || (points - 1) * stride <= self.mirrored_reach());
        let (back, out) = self.mirror;
        self.waves.paired(out, back, stride, points, f);
    }

    /// How far from the agraffe (samples of travel) the line holds both
    /// waves: all the way to the bridge but for the samples of travel the
    /// lumped filters stand for.
    pub fn mirrored_reach(&self) -> usize {
        self.mirror.0
    }

    /// How many samples of the waves reaching the bridge are known in
    /// advance while a hammer may push on the string: the delay from the
    /// contact point to the bridge.
    pub fn lookahead(&self) -> usize {
        self.to_bridge
    }

    /// How many samples of the waves reaching the bridge are known in
    /// advance while nothing touches the string: the whole loop, since
    /// only the bridge sends waves into it.
    pub fn lookahead_untouched(&self) -> usize {
        self.waves.len()
    }

    /// Moves the string on by one sample: a force `F` at the contact point launches
    /// the velocity wave `launched = F/(2·Z0)` (m/s) both ways, and the bridge sends
    /// back the velocity wave `reflected` (m/s).
    #[inline]
    pub fn advance(&mut self, launched: f64, reflected: f64) {
        if launched != 0.0 {
            // Towards the agraffe, and (inverted in the line) towards the bridge.
            self.waves
                .add_ahead(self.at_contact_from_bridge(), launched);
            self.waves
                .add_ahead(self.at_contact_from_agraffe(), -launched);
        }
        self.waves.push(reflected);
    }

    /// Asks the processor to bring the part of the loop the bridge reads
    /// and writes next into its nearest cache: a hint, nothing changes.
    #[inline(always)]
    pub fn prefetch(&self) {
        self.waves.prefetch_front();
    }

    /// Moves the string on by `samples` samples (at most
    /// [`StiffString::lookahead_untouched`]) with no force at the contact point: the
    /// bridge sends back the velocity wave `reflected(j)` (m/s) at sample `j`.
    /// The same as as many calls of [`StiffString::advance`] with nothing
    /// launched.
    #[inline(always)]
    pub fn advance_block_unforced(&mut self, samples: usize, reflected: impl FnMut(usize) -> f64) {
        self.waves.push_each(samples, reflected);
    }

    /// The largest travelling-wave velocity on the string, m/s.
    pub fn peak_wave(&self) -> f64 {
        self.waves.peak()
    }

    /// The sum of the squared velocity-wave samples (m²/s²) held in the delay
    /// lines (the lumped filters' memory is counted by their owner).
    pub(crate) fn line_sum_of_squares(&self) -> f64 {
        self.waves.sum_of_squares()
    }

    /// Holds `old`'s waves instead of its own: the loop's wave stretched over
    /// this string's loop ([`DelayLine::continue_from`]), so the wave's shape
    /// along the string stays and travels on at this string's speed (the
    /// line holds it continuous across the agraffe's reflection). The lumped
    /// filters' memory is carried on by their owner.
    ///
    /// Allocates nothing.
    pub fn continue_from(&mut self, old: &StiffString) {
        self.waves.continue_from(&old.waves);
    }

    /// Empties the loop (the lumped filters are reset by their owner).
    pub fn reset(&mut self) {
        self.waves.clear();
    }
}
