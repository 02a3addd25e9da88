//! Periodically superimposed processes (Gelsey's Section 3.2.3 and Fig. 25):
//! a second pattern that recurs at long intervals on top of the basic one
//! without disturbing it, as a chiming clock's strike on its escapement's
//! ticking (Fig. 26).
//!
//! Gelsey calls the state variables that do not change during the basic
//! pattern *static*, identifies them while the local hypothesis is formed,
//! checks the basic hypothesis on the other variables only, and watches the
//! static ones to fill in the process's data (Algorithm 15). On a recorded
//! trace:
//!
//! 1. The static variables are those that stay still (to a thousandth of
//!    how far they move later, [`STATIC_FRACTION`]) over the cycles that
//!    locally confirmed the first pattern, and move later in the run.
//! 2. The basic pattern is searched for again with the static variables left
//!    out of the match test (see [`super::change::Boundaries::compared`]).
//! 3. An instance of the process runs from the first sample at which a
//!    static variable moves to the last before they have all kept still for
//!    two basic cycles ([`QUIET_CYCLES`]). A static variable moves when it
//!    changes between two samples by more than [`MOVE_FRACTION`] of how far it
//!    moves in the whole run (and by more than ten times its jitter while it
//!    was static).
//! 4. The instances make a periodic process when the intervals between
//!    their starts agree within `P_t_match` of their mean, plus a sampling
//!    interval at either start: the process's period is that mean, its
//!    duration the mean duration of the instances that ended before the
//!    trace did, and its net change the mean change of each involved
//!    variable from just before an instance to just after it; a mean change
//!    within `P_s_v_match` of the variable's swing during the instances is
//!    none, and given as zero.

use super::LongTermParams;
use super::change::Boundaries;
use super::report::SuperimposedProcess;
use super::search::Pattern;
use super::trace::Trace;

/// A variable is static while its excursion stays within this fraction of
/// its excursion over the rest of the run (dimensionless).
pub(super) const STATIC_FRACTION: f64 = 1e-3;

/// A static variable moves when it changes between two samples by more than
/// this fraction of its excursion over the run (dimensionless): a clapper
/// lifted through 37° moves when it turns more than 0.004° in one sample.
const MOVE_FRACTION: f64 = 1e-4;

/// An instance of the process ends once its variables have all kept still
/// for this many basic cycles (count): a process that moves its parts in
/// steps, one per basic cycle (a clapper lifted a little at each tooth of the
/// escape wheel), is one instance, not one per step.
const QUIET_CYCLES: f64 = 2.0;

/// Lowest and highest value of variable `j` over samples `from..=to`.
fn extent(trace: &Trace, j: usize, from: usize, to: usize) -> (f64, f64) {
    trace
        .series(j)
        .skip(from)
        .take(to + 1 - from)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}

/// The variables that stay still over the cycles that locally confirmed
/// `pattern` but move later: one entry per variable, for a static one its
/// excursion while static (its jitter) and over the run from the pattern's
/// start, in its unit.
pub(super) fn static_variables(b: &Boundaries<'_>, pattern: &Pattern) -> Vec<Option<(f64, f64)>> {
    let trace = b.trace;
    let (i0, i1) = (b.samples[pattern.start], b.samples[pattern.confirmed_at]);
    let end = trace.len() - 1;
    (0..trace.variables().len())
        .map(|j| {
            let (lo, hi) = extent(trace, j, i0, i1);
            let (run_lo, run_hi) = extent(trace, j, i0, end);
            let (jitter, excursion) = (hi - lo, run_hi - run_lo);
            let scale = run_lo.abs().max(run_hi.abs());
            let moves_later = excursion > 1e-9 * scale + 1e-12;
            (moves_later && jitter <= STATIC_FRACTION * excursion).then_some((jitter, excursion))
        })
        .collect()
}

/// Whether a static variable of `statics` moves from sample `i − 1` to
/// sample `i` (`i ≥ 1`): changes by more than [`MOVE_FRACTION`] of its
/// excursion and ten times its jitter.
fn moves(trace: &Trace, statics: &[Option<(f64, f64)>], i: usize) -> bool {
    let (now, before) = (trace.sample(i), trace.sample(i - 1));
    statics.iter().enumerate().any(|(j, s)| {
        s.is_some_and(|(jitter, excursion)| {
            let step = (now[j] - before[j]).abs();
            step > MOVE_FRACTION * excursion && step > 10.0 * jitter
        })
    })
}

/// The minima of `b` that belong to the basic pattern, whose first
/// confirmation was `pattern`: those up to its confirmation, then every one
/// at which no static variable of `statics` moves, and those at which one
/// moves only where the basic pattern expects a minimum: within `P_t_match`
/// of the cycle before (plus a sampling interval either side) after the
/// minimum `M` earlier. A minimum elsewhere at which the process moves its
/// parts is the process's (a clapper thrown off the protrusion that lifts
/// it and falling back), not the basic pattern's.
///
/// Allocates: the returned sample indices.
pub(super) fn basic_minima(
    b: &Boundaries<'_>,
    statics: &[Option<(f64, f64)>],
    pattern: &Pattern,
    params: &LongTermParams,
) -> Vec<usize> {
    let trace = b.trace;
    let t = trace.times_s();
    let sampling_s = t.windows(2).map(|w| w[1] - w[0]).fold(0.0f64, f64::max);
    let m = pattern.m;
    let mut kept: Vec<usize> = b.samples[..=pattern.confirmed_at].to_vec();
    for &i in &b.samples[pattern.confirmed_at + 1..] {
        let n = kept.len();
        if (moves(trace, statics, i) || moves(trace, statics, i + 1)) && n > m {
            let cycle_s = t[kept[n - 1]] - t[kept[n - 1 - m]];
            let expected_s = t[kept[n - m]] + cycle_s;
            let tolerance_s = params.time_match * cycle_s + 2.0 * sampling_s;
            if (t[i] - expected_s).abs() > tolerance_s {
                continue;
            }
        }
        kept.push(i);
    }
    kept
}

/// The periodically superimposed process of the static variables `statics`
/// (from [`static_variables`]) in the trace of `b`, from the start of
/// `pattern`, the basic pattern found without them; `None` if they never
/// move, if no instance ends before the trace does, or if the instances do
/// not recur periodically.
///
/// Allocates: the list of instances.
pub(super) fn process(
    b: &Boundaries<'_>,
    statics: &[Option<(f64, f64)>],
    pattern: &Pattern,
    params: &LongTermParams,
) -> Option<SuperimposedProcess> {
    let trace = b.trace;
    let t = trace.times_s();
    let n_a = ((pattern.confirmed_at - pattern.start) / pattern.m).max(1);
    let cycle_s = (b.time_s(pattern.confirmed_at) - b.time_s(pattern.start)) / n_a as f64;
    let quiet_s = QUIET_CYCLES * cycle_s;
    let first = b.samples[pattern.start].max(1);

    // Instances as sample ranges [start, end] of moving static variables.
    let mut instances: Vec<(usize, usize)> = Vec::new();
    for i in first..trace.len() {
        if !moves(trace, statics, i) {
            continue;
        }
        match instances.last_mut() {
            Some(last) if t[i] - t[last.1] < quiet_s => last.1 = i,
            _ => instances.push((i - 1, i)),
        }
    }
    let end_s = t[t.len() - 1];
    let complete: Vec<(usize, usize)> = instances
        .iter()
        .copied()
        .filter(|&(_, e)| end_s - t[e] >= quiet_s && e + 1 < trace.len())
        .collect();
    if complete.is_empty() {
        return None;
    }

    let starts: Vec<f64> = instances.iter().map(|&(s, _)| t[s]).collect();
    let period_s = (starts.len() > 1)
        .then(|| (starts[starts.len() - 1] - starts[0]) / (starts.len() - 1) as f64);
    if let Some(period_s) = period_s {
        let sampling_s = t.windows(2).map(|w| w[1] - w[0]).fold(0.0f64, f64::max);
        let tolerance_s = params.time_match * period_s + 2.0 * sampling_s;
        if starts
            .windows(2)
            .any(|w| (w[1] - w[0] - period_s).abs() > tolerance_s)
        {
            return None;
        }
    }
    let count = complete.len() as f64;
    let duration_s = complete.iter().map(|&(s, e)| t[e] - t[s]).sum::<f64>() / count;
    let net_change = (0..statics.len())
        .map(|j| {
            if statics[j].is_none() {
                return 0.0;
            }
            let mean = complete
                .iter()
                .map(|&(s, e)| trace.sample(e + 1)[j] - trace.sample(s)[j])
                .sum::<f64>()
                / count;
            let swing = complete
                .iter()
                .map(|&(s, e)| {
                    let (lo, hi) = extent(trace, j, s, e + 1);
                    hi - lo
                })
                .fold(0.0f64, f64::max);
            if mean.abs() <= params.state_match * swing {
                0.0
            } else {
                mean
            }
        })
        .collect();
    Some(SuperimposedProcess {
        period_s,
        duration_s,
        first_start_s: starts[0],
        instances: instances.len(),
        involved: statics.iter().map(Option::is_some).collect(),
        net_change,
    })
}
