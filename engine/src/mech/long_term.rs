//! Long-term behaviour of a mechanism from a recorded run (Gelsey, "Automated
//! reasoning about machines", Artificial Intelligence 74, 1995, Section 3,
//! Algorithms 12–13).
//!
//! Many machines repeat themselves: an escapement's state at the start of each
//! beat equals the state a beat earlier plus a constant change (the escape
//! wheel advanced one tooth, the balance is back where it was). Gelsey writes
//! this as `s(t0 + n D) = s(t0) + n A`, with `D` the duration of a behaviour
//! pattern and `A` the change of every state variable over one pattern, and
//! finds `t0`, `D` and `A` by looking at the state only at kinetic-energy
//! minima, where a part turns round or receives a push. A pattern spans `M`
//! such minima.
//!
//! [`analyze`] runs his search over a [`Trace`] recorded beforehand:
//!
//! 1. The minima are the local kinetic-energy minima in the bottom
//!    `P_range_fraction` of the trace's energy range, with wiggles of
//!    numerical noise merged (an addition to the paper); the first `P_ignore`
//!    are skipped as start-up transient.
//! 2. Algorithm 12: hypothesise `M = 1`, with `D` and `A` taken from the last
//!    `M` minima; at each further minimum, test that the last `M` minima
//!    repeat the hypothesis (duration within `P_t_match`, every variable's
//!    change within `P_s_v_match`, see [`LongTermParams`]). A failure rules out
//!    `M` for good and forms the `M + 1` hypothesis; `M × P_confirm`
//!    confirmations make it locally satisfactory.
//! 3. Where Gelsey runs further simulation, the recorded trace is followed to
//!    its end: every cycle must repeat the cycle before it. A pattern that
//!    fails here broke (a sudden transition, Section 3.2.2), and the search
//!    goes on with `M + 1`. The behaviour is *regular* when a confirmed
//!    pattern holds to the end of the trace.
//! 4. Algorithm 13, gradual effects (Section 3.2.1): the state and time at the
//!    last cycle start are compared with the prediction of the locally
//!    confirmed cycles; a drift beyond tolerance (a shrinking balance
//!    amplitude, a lengthening period) is reported, and that entry of `A` or
//!    `D` is reset to its rate after those cycles.
//!
//! 5. Periodically superimposed processes (Section 3.2.3, Fig. 25): when
//!    the first confirmed pattern breaks, the variables that kept still
//!    while it was confirmed and move later (a chiming clock's clapper) may
//!    be a second process superimposed on it. The search is run again
//!    without them; if the basic pattern then holds to the end and their
//!    motions recur periodically, the process's period, duration, first
//!    start, variables and net changes are reported with the pattern (see
//!    `superimposed.rs`).
//! 6. A mechanism that comes to rest for good before the trace ends (a jam)
//!    is reported as stopped, and the minima of its final rest are left out
//!    (see `rest.rs`).
//!
//! All times are in seconds, energies in joules, and every variable's values
//! and changes in its own [`Unit`].

mod change;
mod measure;
mod minima;
mod params;
mod report;
mod rest;
mod search;
mod superimposed;
mod trace;

pub use params::{LongTermParams, ParamsError};
pub use report::{
    BrokenPattern, GradualEffect, Insufficiency, LongTermReport, Regularity, Stop,
    SuperimposedProcess, VariableChange, Verdict,
};
pub use trace::{Trace, TraceError, Unit, Variable};

use change::Boundaries;

/// Finds the regular long-term behaviour of `trace` (see the [module
/// documentation](self)). Too little data and irregular behaviour are
/// verdicts of the report, not errors; the only error is a parameter outside
/// its range.
///
/// Allocates: the list of minima and a few vectors per cycle compared.
pub fn analyze(trace: &Trace, params: &LongTermParams) -> Result<LongTermReport, ParamsError> {
    params.validate()?;
    let variables = trace.variables().to_vec();
    let insufficient = |minima, why, stop| LongTermReport {
        variables: variables.clone(),
        minima,
        broken: Vec::new(),
        verdict: Verdict::InsufficientData(why),
        stop,
    };
    if trace.len() < 3 {
        return Ok(insufficient(
            0,
            Insufficiency::TooFewSamples(trace.len()),
            None,
        ));
    }
    let energy = trace.kinetic_energy_j();
    if energy.iter().all(|&e| e == energy[0]) {
        return Ok(insufficient(0, Insufficiency::ConstantEnergy, None));
    }
    let mut samples = minima::low_minima(
        energy,
        params.energy_range_fraction,
        params.minimum_prominence,
    );
    // A final rest (a jam) ends the behaviour: minima within it are noise.
    let rest = rest::final_rest(trace, &samples);
    let stop = rest.map(|from| Stop {
        from_s: trace.times_s()[from],
        until_s: trace.times_s()[trace.len() - 1],
    });
    if let Some(from) = rest {
        samples.retain(|&i| i < from);
    }
    let skipped = samples.len().min(params.ignored_minima);
    samples.drain(..skipped);
    let found = samples.len();
    // One minimum per cycle: two to form the hypothesis, P_confirm to confirm it.
    let needed = 2 + params.confirmations_per_minimum;
    if found < needed {
        let why = Insufficiency::TooFewMinima {
            found,
            skipped,
            needed,
        };
        return Ok(insufficient(found, why, stop));
    }

    let compared = vec![true; variables.len()];
    let mut boundaries = Boundaries {
        trace,
        samples,
        compared,
    };
    let mut result = search::search(&boundaries, params);
    let mut process = None;
    // A pattern that broke may carry a process superimposed on it: look for
    // one in the variables that kept still while the pattern was confirmed.
    if result.held.is_none()
        && let Some(first) = result.broken.first()
    {
        let statics = superimposed::static_variables(&boundaries, first);
        if statics.iter().any(Option::is_some) {
            let basic = Boundaries {
                trace,
                samples: superimposed::basic_minima(&boundaries, &statics, first, params),
                compared: statics.iter().map(Option::is_none).collect(),
            };
            let again = search::search(&basic, params);
            if let Some(held) = &again.held
                && let Some(p) = superimposed::process(&basic, &statics, held, params)
            {
                process = Some(p);
                result = again;
                boundaries = basic;
            }
        }
    }
    let broken = result
        .broken
        .iter()
        .map(|p| BrokenPattern {
            minima_per_cycle: p.m,
            from_s: boundaries.time_s(p.start),
            until_s: boundaries.time_s(p.end),
        })
        .collect();
    let verdict = match &result.held {
        Some(pattern) => {
            let mut regularity = measure::measure(&boundaries, pattern, params);
            regularity.superimposed.extend(process);
            Verdict::Regular(regularity)
        }
        None => Verdict::NotRegular {
            largest_m: result.largest_m,
            pending: result.pending,
        },
    };
    Ok(LongTermReport {
        variables,
        minima: found,
        broken,
        verdict,
        stop,
    })
}
