//! From a confirmed pattern to `D`, `A` and gradual effects (Algorithm 13 on a
//! recorded trace).

use super::LongTermParams;
use super::change::{Boundaries, Change};
use super::report::{GradualEffect, Regularity, VariableChange};
use super::search::Pattern;

/// Measures a pattern that held from its start to the end of the trace.
///
/// Cycle starts are the minima `start + n M`. The local hypothesis covers the
/// `n_a` cycles up to its confirmation, the whole run `N` cycles.
///
/// A variable drifts gradually when its change per cycle is within one
/// cycle's match tolerance of zero but its change over the run is not (Section
/// 3.2.1: the balance amplitude of a clock shrinking as its mainspring runs
/// down). Besides, as in Algorithm 13, the state at the last cycle start is
/// compared with the local prediction `s(t0) + N A`, and the start time with
/// `t0 + N D`; a deviation beyond tolerance is a gradual effect, and that
/// entry of `A` (or `D`) is reset to its rate after the local cycles,
/// `(s(t0 + N D) − s(t0 + n_a D)) / (N − n_a)`. Otherwise `A` and `D` are
/// averaged over all `N` cycles.
///
/// The tolerances are those of the match test, with the sampling uncertainty
/// of the local rates multiplied by the `N / n_a` cycles over which the
/// prediction extrapolates them.
pub(super) fn measure(
    b: &Boundaries<'_>,
    pattern: &Pattern,
    params: &LongTermParams,
) -> Regularity {
    let m = pattern.m;
    let n_a = (pattern.confirmed_at - pattern.start) / m;
    let n_all = (pattern.end - pattern.start) / m;
    let at = |n: usize| pattern.start + n * m;
    let local = Change::new(b, at(0), at(n_a));
    let whole = Change::new(b, at(0), at(n_all));
    let first_cycle = Change::new(b, at(0), at(1));
    let last_cycle = Change::new(b, at(n_all - 1), at(n_all));
    let (na, nn) = (n_a as f64, n_all as f64);
    let extrapolation = nn / na;
    let late = (n_all > n_a).then(|| Change::new(b, at(n_a), at(n_all)));
    let late_cycles = (n_all - n_a) as f64;

    let mut gradual = Vec::new();
    let local_period_s = local.duration_s / na;
    let mut period_s = whole.duration_s / nn;
    if let Some(late) = &late {
        let deviation_s = whole.duration_s - nn * local_period_s;
        let tolerance_s = params.time_match * local_period_s
            + whole.time_uncertainty_s
            + local.time_uncertainty_s * extrapolation;
        if deviation_s.abs() > tolerance_s {
            period_s = late.duration_s / late_cycles;
            gradual.push(GradualEffect::Period {
                early_s: local_period_s,
                late_s: period_s,
            });
        }
    }

    let changes = (0..b.trace.variables().len())
        .map(|j| {
            if !b.compared[j] {
                // A variable of a superimposed process: still in the basic
                // pattern (its own changes are the process's).
                return VariableChange {
                    per_cycle: 0.0,
                    repeats: true,
                };
            }
            let cycle_tolerance = first_cycle
                .state_tolerance(j, params)
                .max(last_cycle.state_tolerance(j, params));
            let run_tolerance = cycle_tolerance + whole.uncertainty[j];
            let local_rate = local.delta[j] / na;
            let mut per_cycle = whole.delta[j] / nn;
            // A drift too small to see in one cycle that adds up over the run
            // (Gelsey's shrinking balance amplitude)...
            let slow_drift =
                per_cycle.abs() <= cycle_tolerance && whole.delta[j].abs() > run_tolerance;
            // ...or a rate that the first cycles mispredict (Algorithm 13).
            let mispredicted = late.is_some()
                && (whole.delta[j] - nn * local_rate).abs()
                    > run_tolerance + local.uncertainty[j] * extrapolation;
            if mispredicted && let Some(late) = &late {
                per_cycle = late.delta[j] / late_cycles;
            }
            if slow_drift || mispredicted {
                gradual.push(GradualEffect::Variable {
                    index: j,
                    early_per_cycle: local_rate,
                    per_cycle,
                    total: whole.delta[j],
                });
            }
            VariableChange {
                per_cycle,
                repeats: !slow_drift && per_cycle.abs() <= cycle_tolerance,
            }
        })
        .collect();

    Regularity {
        minima_per_cycle: m,
        period_s,
        start_s: b.time_s(at(0)),
        end_s: b.time_s(at(n_all)),
        cycles: n_all,
        changes,
        gradual,
        superimposed: Vec::new(),
    }
}
