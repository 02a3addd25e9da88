//! Algorithm 12 run over a whole recorded trace: form a hypothesis of `M`
//! minima per cycle, confirm it locally, then follow it to the end of the
//! trace, moving to `M + 1` whenever the data contradict it.

use super::LongTermParams;
use super::change::{Boundaries, Change};

/// A pattern of `m` minima per cycle, consistent from minimum `start` on.
#[derive(Debug, Clone)]
pub(super) struct Pattern {
    /// Minima per cycle, `M`.
    pub m: usize,
    /// First minimum of the consistent chain: the first cycle start `t0`.
    pub start: usize,
    /// The minimum at which the hypothesis became locally satisfactory.
    pub confirmed_at: usize,
    /// The last minimum consistent with the pattern.
    pub end: usize,
}

/// What the search found.
#[derive(Debug, Clone, Default)]
pub(super) struct Search {
    /// The pattern that was confirmed and held to the end of the trace.
    pub held: Option<Pattern>,
    /// Confirmed patterns that later broke, in time order.
    pub broken: Vec<Pattern>,
    /// The largest `M` formed as a hypothesis.
    pub largest_m: usize,
    /// A hypothesis still unconfirmed when the trace ended (its `M`).
    pub pending: Option<usize>,
}

/// The state of the search between minima.
struct Hypothesis {
    m: usize,
    /// The change over the cycle it was formed from.
    formed_from: Change,
    /// Confirmations so far (Gelsey's "hypothesis belief level").
    belief: usize,
    /// Set once `belief ≥ M × P_confirm`: the minimum where that happened.
    confirmed_at: Option<usize>,
}

/// Runs the search over all minima of `b`.
pub(super) fn search(b: &Boundaries<'_>, params: &LongTermParams) -> Search {
    let count = b.samples.len();
    let mut found = Search::default();
    let mut m = 1;
    let mut hypothesis: Option<Hypothesis> = None;
    for k in 1..count {
        if m > params.max_minima_per_cycle {
            break;
        }
        let Some(h) = hypothesis.as_mut() else {
            if k >= m {
                hypothesis = Some(form(b, m, k));
                found.largest_m = m;
            }
            continue;
        };
        let observed = Change::new(b, k - m, k);
        let holds = match h.confirmed_at {
            // Locally: each cycle must repeat the one the hypothesis came from.
            None => h.formed_from.matches(&observed, params),
            // Afterwards: each cycle must repeat the cycle before it, so slow
            // drifts pass and are measured as gradual effects.
            Some(_) => Change::new(b, k - 2 * m, k - m).matches(&observed, params),
        };
        if holds {
            h.belief += 1;
            if h.confirmed_at.is_none() && h.belief >= m * params.confirmations_per_minimum {
                h.confirmed_at = Some(k);
            }
            continue;
        }
        if let Some(confirmed_at) = h.confirmed_at {
            found.broken.push(Pattern {
                m,
                start: h.formed_from.from,
                confirmed_at,
                end: k - 1,
            });
        }
        // An M-minima hypothesis failed: none with M minima can fit all the
        // data, so only larger M remain (Gelsey's point 3).
        m += 1;
        hypothesis = None;
        if k >= m && m <= params.max_minima_per_cycle {
            hypothesis = Some(form(b, m, k));
            found.largest_m = m;
        }
    }
    match hypothesis {
        Some(Hypothesis {
            m,
            formed_from,
            confirmed_at: Some(confirmed_at),
            ..
        }) => {
            found.held = Some(Pattern {
                m,
                start: formed_from.from,
                confirmed_at,
                end: count - 1,
            });
        }
        Some(h) => found.pending = Some(h.m),
        None if m <= params.max_minima_per_cycle && count > 0 => found.pending = Some(m),
        None => {}
    }
    found
}

/// The unique `m`-minima hypothesis consistent with minima `k − m ..= k`.
fn form(b: &Boundaries<'_>, m: usize, k: usize) -> Hypothesis {
    Hypothesis {
        m,
        formed_from: Change::new(b, k - m, k),
        belief: 0,
        confirmed_at: None,
    }
}
