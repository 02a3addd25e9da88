//! The change of the state between two kinetic-energy minima, with the
//! uncertainty that sampling gives it, and the match test of Algorithm 12.

use super::LongTermParams;
use super::trace::Trace;

/// Relative floor of every state tolerance (dimensionless, times the largest
/// magnitude involved): rounding of constant variables.
const ROUNDING: f64 = 1e-9;
/// Absolute floor of every state tolerance (in the variable's unit).
const ABSOLUTE_FLOOR: f64 = 1e-12;

/// The trace's low kinetic-energy minima, the candidate cycle boundaries.
pub(super) struct Boundaries<'a> {
    pub trace: &'a Trace,
    /// Sample index of each minimum, in time order.
    pub samples: Vec<usize>,
    /// Which variables the match test compares: all but those of a
    /// superimposed process, which the basic pattern leaves alone.
    pub compared: Vec<bool>,
}

impl Boundaries<'_> {
    /// Time of minimum `k`, s.
    pub fn time_s(&self, k: usize) -> f64 {
        self.trace.times_s()[self.samples[k]]
    }

    /// How far the true minimum may lie from sample-accurate minimum `k`: the
    /// longer of the sampling intervals on either side, s.
    fn time_uncertainty_s(&self, k: usize) -> f64 {
        let t = self.trace.times_s();
        let i = self.samples[k];
        (t[i] - t[i - 1]).max(t[i + 1] - t[i])
    }

    /// How far variable `j` may be from its value at minimum `k`'s sample:
    /// its larger change over the sampling intervals on either side.
    fn state_uncertainty(&self, k: usize, j: usize) -> f64 {
        let i = self.samples[k];
        let at = |i: usize| self.trace.sample(i)[j];
        (at(i) - at(i - 1)).abs().max((at(i + 1) - at(i)).abs())
    }
}

/// What happened between minima `from` and `to`: elapsed time, change of each
/// variable, and the scales that decide whether two changes match.
#[derive(Debug, Clone)]
pub(super) struct Change {
    /// Index of the first minimum.
    pub from: usize,
    /// Elapsed time, s.
    pub duration_s: f64,
    /// Change of each variable (its unit).
    pub delta: Vec<f64>,
    /// Peak-to-peak excursion of each variable between the two minima.
    pub excursion: Vec<f64>,
    /// Sampling uncertainty of `duration_s`, s.
    pub time_uncertainty_s: f64,
    /// Sampling uncertainty of each entry of `delta`.
    pub uncertainty: Vec<f64>,
    /// Largest magnitude of each variable at the two minima.
    magnitude: Vec<f64>,
    /// Which variables [`Change::matches`] compares.
    compared: Vec<bool>,
}

impl Change {
    /// The change from minimum `from` to minimum `to` (`from < to`).
    ///
    /// Allocates: six vectors of one entry per variable.
    pub fn new(b: &Boundaries<'_>, from: usize, to: usize) -> Self {
        let trace = b.trace;
        let n = trace.variables().len();
        let (i0, i1) = (b.samples[from], b.samples[to]);
        let (s0, s1) = (trace.sample(i0), trace.sample(i1));
        let mut lo = s0.to_vec();
        let mut hi = s0.to_vec();
        for i in i0..=i1 {
            for (j, &v) in trace.sample(i).iter().enumerate() {
                lo[j] = lo[j].min(v);
                hi[j] = hi[j].max(v);
            }
        }
        Self {
            from,
            duration_s: b.time_s(to) - b.time_s(from),
            delta: (0..n).map(|j| s1[j] - s0[j]).collect(),
            excursion: (0..n).map(|j| hi[j] - lo[j]).collect(),
            time_uncertainty_s: b.time_uncertainty_s(from) + b.time_uncertainty_s(to),
            uncertainty: (0..n)
                .map(|j| b.state_uncertainty(from, j) + b.state_uncertainty(to, j))
                .collect(),
            magnitude: (0..n).map(|j| s0[j].abs().max(s1[j].abs())).collect(),
            compared: b.compared.clone(),
        }
    }

    /// Whether `other` repeats this change: durations within `P_t_match` of
    /// this duration, and every variable's change within `P_s_v_match` of the
    /// larger excursion of the two, each widened by both changes' sampling
    /// uncertainties. Symmetric in the two changes. Only the variables of
    /// [`Boundaries::compared`] are compared.
    pub fn matches(&self, other: &Change, params: &LongTermParams) -> bool {
        let time_tolerance = params.time_match * self.duration_s.max(other.duration_s)
            + self.time_uncertainty_s
            + other.time_uncertainty_s;
        if (self.duration_s - other.duration_s).abs() > time_tolerance {
            return false;
        }
        (0..self.delta.len())
            .filter(|&j| self.compared[j])
            .all(|j| {
                let tolerance = params.state_match * self.excursion[j].max(other.excursion[j])
                    + self.uncertainty[j]
                    + other.uncertainty[j]
                    + ROUNDING * self.magnitude[j].max(other.magnitude[j])
                    + ABSOLUTE_FLOOR;
                (self.delta[j] - other.delta[j]).abs() <= tolerance
            })
    }

    /// Tolerance on variable `j` of this change (its unit): `P_s_v_match`
    /// times its excursion, plus rounding.
    pub fn state_tolerance(&self, j: usize, params: &LongTermParams) -> f64 {
        params.state_match * self.excursion[j] + ROUNDING * self.magnitude[j] + ABSOLUTE_FLOOR
    }
}
