//! The joint solve of a multiport root's nonlinear ports within one sample.
//!
//! Seen from its `K` nonlinear ports, the rest of a tree is, within a sample,
//! linear: the waves it sends them are `a = p + M_NN·t`, where `p` follows
//! from the waves the linear elements send in and `t` are the waves the
//! nonlinear elements send back. Each element answers its `a` exactly (a
//! scalar, bracketed solve of its law `i = g(v)`, non-decreasing), and the
//! sample's solution is the `t` those answers reproduce (see
//! [`solve_joint`]). For a passive network with such laws it is unique.
//!
//! When every element is open at the open-circuit voltages `e` (contacts
//! apart), that is the solution and nothing is iterated.
//!
//! Everything lives in fixed arrays: nothing allocates.

use super::law::PortLaw;

/// Most nonlinear ports a multiport root holds.
pub const MAX_PORTS: usize = 8;

/// Newton steps allowed to one sample's joint solve.
pub(crate) const MAX_JOINT_STEPS: u32 = 40;

/// Halvings of one Newton step allowed to its backtracking.
const MAX_HALVINGS: u32 = 60;

/// A residual at this many ulps of the sizes it is made of counts as zero.
const RESIDUAL_ULPS: f64 = 8.0 * f64::EPSILON;

/// Where no Newton step lowers the residual further (its floor in floating
/// point), the solution is accepted if the step it could not take, the
/// error left, is at most this fraction of the port's voltage scale.
const STALLED_FLOOR: f64 = 1e-11;

/// How one sample's solve went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct JointOutcome {
    /// Newton steps taken (the seed's scalar solves not counted).
    pub steps: u32,
    /// Whether the residual reached rounding before the step bound.
    pub converged: bool,
}

/// The linear network as the nonlinear ports see it this sample.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Network<'a> {
    /// Open-circuit voltages `e`.
    pub open_circuit: &'a [f64],
    /// Waves the linear elements send to the ports, `p = M_NL·t_L`.
    pub incoming: &'a [f64],
    /// Size of the terms each `p` was summed from: its rounding is the
    /// floor of the solve's.
    pub incoming_size: &'a [f64],
    /// `M_NN`, `K×K` row-major: how the ports' own waves come back to them.
    pub coupling: &'a [f64],
    /// Reference resistance of each port.
    pub resistance: &'a [f64],
}

/// Solves the ports jointly: on entry `t` holds the waves the elements sent
/// in at the last sample and `v` their voltages (the seeds), on exit `t`,
/// `v` and `i` hold the solution.
///
/// The unknowns are the waves `t` the elements send into the adaptor. With
/// `a = p + M_NN·t` the waves it sends them, each element's reflection
/// `φ_k(a_k)` (its scalar solve, exact) must give back `t_k`:
/// `F(t) = t − φ(p + M_NN·t) = 0`. Reflections have slopes
/// `φ' = (1 − R·g')/(1 + R·g')` in (−1, 1], so the system is mild where the
/// same one in voltages is exponential: Newton's method,
/// `(I − diag φ'·M_NN)·d = −F`, converges in a few steps, each damped by
/// backtracking until `‖F‖` falls.
pub(crate) fn solve_joint(
    network: Network<'_>,
    laws: &[PortLaw],
    t: &mut [f64],
    v: &mut [f64],
    i: &mut [f64],
) -> JointOutcome {
    let k = laws.len();
    debug_assert!(k <= MAX_PORTS && network.coupling.len() == k * k);
    // Every port open (no current anywhere) is the answer whenever it is
    // consistent: contacts apart cost nothing more.
    if (0..k).all(|p| laws[p].current(network.open_circuit[p]).0 == 0.0) {
        v.copy_from_slice(network.open_circuit);
        t.copy_from_slice(network.open_circuit);
        i.fill(0.0);
        return JointOutcome {
            steps: 0,
            converged: true,
        };
    }
    if network.coupling.iter().all(|&m| m == 0.0) {
        // No port's wave comes back to any port (one port, adapted, at the
        // root): each element answers the wave it is sent, exactly.
        for p in 0..k {
            let a = network.incoming[p];
            v[p] = laws[p].answer(a, network.resistance[p], v[p]);
            i[p] = laws[p].current(v[p]).0;
            t[p] = 2.0 * v[p] - a;
        }
        return JointOutcome {
            steps: 0,
            converged: true,
        };
    }
    let mut f = [0.0; MAX_PORTS];
    let mut slope = [0.0; MAX_PORTS];
    let mut norm = reflection_residual(network, laws, t, v, i, &mut f, &mut slope);
    let mut outcome = JointOutcome::default();
    let mut trial = [0.0; MAX_PORTS];
    let (mut trial_v, mut trial_i) = ([0.0; MAX_PORTS], [0.0; MAX_PORTS]);
    while outcome.steps < MAX_JOINT_STEPS {
        let floor = |p: usize| RESIDUAL_ULPS * (t[p].abs() + network.incoming_size[p] + v[p].abs());
        if (0..k).all(|p| f[p].abs() <= floor(p)) {
            outcome.converged = true;
            break;
        }
        outcome.steps += 1;
        let d = newton_direction(network.coupling, &slope[..k], &f[..k]);
        if (0..k).all(|p| d[p].abs() <= floor(p)) {
            outcome.converged = true;
            break;
        }
        let mut lambda = 1.0;
        let mut accepted = false;
        for _ in 0..MAX_HALVINGS {
            for p in 0..k {
                trial[p] = t[p] + lambda * d[p];
            }
            trial_v[..k].copy_from_slice(v);
            let mut trial_f = [0.0; MAX_PORTS];
            let mut trial_slope = [0.0; MAX_PORTS];
            let trial_norm = reflection_residual(
                network,
                laws,
                &trial[..k],
                &mut trial_v[..k],
                &mut trial_i[..k],
                &mut trial_f,
                &mut trial_slope,
            );
            if trial_norm.is_finite() && trial_norm < (1.0 - 1e-4 * lambda) * norm {
                t.copy_from_slice(&trial[..k]);
                v.copy_from_slice(&trial_v[..k]);
                i.copy_from_slice(&trial_i[..k]);
                (f, slope, norm) = (trial_f, trial_slope, trial_norm);
                accepted = true;
                break;
            }
            lambda *= 0.5;
        }
        if !accepted {
            // No step along Newton's direction lowers the residual: it is
            // at its floor in floating point. Newton's step estimates the
            // error left: accept it when small.
            outcome.converged = (0..k)
                .all(|p| d[p].abs() <= STALLED_FLOOR * (t[p].abs() + network.incoming_size[p]));
            break;
        }
    }
    outcome
}

/// For the waves `t` the elements send in: each port's incident wave
/// `a = p + M_NN·t`, its element's exact answer to it (`v`, `i`, written
/// over the seeds in `v`), the residual `F = t − φ(a)` and the slopes
/// `φ'(a)`. Returns `‖F‖²`.
fn reflection_residual(
    network: Network<'_>,
    laws: &[PortLaw],
    t: &[f64],
    v: &mut [f64],
    i: &mut [f64],
    f: &mut [f64; MAX_PORTS],
    slope: &mut [f64; MAX_PORTS],
) -> f64 {
    let k = laws.len();
    let mut norm = 0.0;
    for p in 0..k {
        let a = network.incoming[p]
            + (0..k)
                .map(|q| network.coupling[p * k + q] * t[q])
                .sum::<f64>();
        let r = network.resistance[p];
        let law = &laws[p];
        v[p] = law.answer(a, r, v[p]);
        let (g, dg) = law.current(v[p]);
        i[p] = g;
        slope[p] = (1.0 - r * dg) / (1.0 + r * dg);
        f[p] = t[p] - (2.0 * v[p] - a);
        norm += f[p] * f[p];
    }
    norm
}

/// Solves `(I − diag(slope)·M)·d = −f` by Gaussian elimination with
/// partial pivoting.
fn newton_direction(m: &[f64], slope: &[f64], f: &[f64]) -> [f64; MAX_PORTS] {
    let k = f.len();
    let mut a = [[0.0; MAX_PORTS]; MAX_PORTS];
    let mut d = [0.0; MAX_PORTS];
    for p in 0..k {
        for q in 0..k {
            a[p][q] = -slope[p] * m[p * k + q] + if p == q { 1.0 } else { 0.0 };
        }
        d[p] = -f[p];
    }
    for col in 0..k {
        let pivot = (col..k)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        d.swap(col, pivot);
        let diagonal = a[col][col];
        if diagonal == 0.0 {
            continue;
        }
        for row in col + 1..k {
            let factor = a[row][col] / diagonal;
            if factor != 0.0 {
                let pivot_row = a[col];
                for (x, &above) in a[row][col..k].iter_mut().zip(&pivot_row[col..k]) {
                    *x -= factor * above;
                }
                d[row] -= factor * d[col];
            }
        }
    }
    for col in (0..k).rev() {
        let tail: f64 = (col + 1..k).map(|c| a[col][c] * d[c]).sum();
        d[col] = if a[col][col] != 0.0 {
            (d[col] - tail) / a[col][col]
        } else {
            0.0
        };
    }
    d
}
