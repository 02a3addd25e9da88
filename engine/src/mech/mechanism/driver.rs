//! A minimal adaptive loop over any [`Model`], doing what the scheduler does
//! with step adjustments: retry failed steps shorter (restore, initialize,
//! advance again) and lengthen steps the model says it can take. For tests,
//! benchmarks and offline use until the scheduler drives mechanisms.

use crate::mech::model::Model;

/// Counts from a run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RunStats {
    /// Accepted steps.
    pub accepted: usize,
    /// Rejected (retried) steps.
    pub rejected: usize,
    /// Shortest accepted step (s).
    pub min_step: f64,
    /// Longest accepted step (s).
    pub max_step: f64,
}

/// Advances `model` from `t0` to `t_end` (s), starting with step `h0` and
/// failing with the model's message if a retry would fall below `h_min` (s).
/// `on_step(model, t, h)` is called after every accepted step ending at `t`.
pub fn run<M: Model>(
    model: &mut M,
    t0: f64,
    t_end: f64,
    h0: f64,
    h_min: f64,
    mut on_step: impl FnMut(&mut M, f64, f64),
) -> Result<RunStats, String> {
    let mut stats = RunStats {
        min_step: f64::INFINITY,
        ..RunStats::default()
    };
    let mut t = t0;
    let mut h = h0;
    model.initialize(t0);
    while t < t_end {
        let mut step = h.min(t_end - t);
        if let Some(limit) = model.max_step_size() {
            step = step.min(limit);
        }
        let saved = model.save_state();
        let t1 = if t_end - (t + step) < 1e-12 * t_end.abs().max(1.0) {
            t_end
        } else {
            t + step
        };
        let step = t1 - t;
        match model.advance(t, t1) {
            Some(adj) if adj.scaling < 1.0 => {
                model.restore_state(&saved);
                model.initialize(t);
                stats.rejected += 1;
                let scaling = if adj.scaling > 0.0 { adj.scaling } else { 0.5 };
                h = step * scaling;
                if h < h_min {
                    return Err(format!(
                        "at t = {t} s, step {h:.3e} s < minimum: {}",
                        adj.message
                    ));
                }
            }
            adj => {
                t = t1;
                stats.accepted += 1;
                stats.min_step = stats.min_step.min(step);
                stats.max_step = stats.max_step.max(step);
                on_step(model, t, step);
                h = step * adj.map_or(1.0, |a| a.scaling);
            }
        }
    }
    Ok(stats)
}
