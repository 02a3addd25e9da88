//! The implicit integrator: Alexander's two-stage, stiffly accurate, L-stable
//! SDIRK of order 2 (γ = 1 − 1/√2), with a Newton solve on the subsystems'
//! velocities and an embedded first-order error estimate filtered through
//! `(I − γhJ)⁻¹` (Shampine's device, so stiff contact modes that the method damps
//! correctly do not force tiny steps). Stiff penalty contacts neither explode
//! nor, with the step bounds of [`IntegrationParameters`], tunnel.
//!
//! The local error of the accepted solution is O(h³), so over a fixed time
//! the global error falls as h². Being L-stable, it damps a lossless
//! oscillator slightly: |R(iωh)|² = 1 − O((ωh)⁴) per step, so the energy lost
//! over a fixed time falls as h³ (halving the step divides it by 8).

use super::dynamics::{Workspace, evaluate, find_contacts, place};
use super::linear::solve_in_place;
use super::structure::Structure;

/// γ of the SDIRK tableau.
pub const GAMMA: f64 = 1.0 - std::f64::consts::FRAC_1_SQRT_2;

/// Parameters of the method, in one place (rapier's `IntegrationParameters`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IntegrationParameters {
    /// Relative error tolerance per step (dimensionless).
    pub rtol: f64,
    /// Absolute error tolerance per step (rad or u, and per s for velocities).
    pub atol: f64,
    /// Longest step (s).
    pub max_step: f64,
    /// Largest fraction of the thinnest moving primitive any point may travel
    /// in one step, judged from the velocities at its start.
    pub max_travel: f64,
    /// Deepest overlap a step may end in (u); deeper steps are retried shorter.
    pub max_overlap: f64,
    /// Newton stops when the update is below this fraction of the error
    /// tolerance.
    pub newton_tol: f64,
    /// Newton iterations before the step is declared failed.
    pub newton_iterations: usize,
    /// Safety factor on the step the error estimate suggests.
    pub safety: f64,
    /// Largest growth of the step after a success.
    pub max_growth: f64,
}

impl Default for IntegrationParameters {
    fn default() -> Self {
        Self {
            rtol: 3e-3,
            atol: 1e-3,
            max_step: 0.05,
            max_travel: 0.5,
            max_overlap: 0.05,
            newton_tol: 0.01,
            newton_iterations: 10,
            safety: 0.85,
            max_growth: 4.0,
        }
    }
}

/// Why a step failed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Failure {
    /// Newton did not converge in the allowed iterations.
    Newton,
    /// The scaled error estimate exceeded 1.
    Error(f64),
    /// A contact would end deeper than allowed: overlap (u) and primitives.
    Overlap(f64, (usize, usize)),
    /// The state became non-finite or the Newton matrix singular.
    Singular,
}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome {
    /// Accepted; `growth` is the factor the error estimate allows for the next
    /// step (≤ `max_growth`, may be below 1).
    Accepted {
        /// Suggested next step / this step.
        growth: f64,
    },
    /// Rejected and state untouched; retry at `scaling` times the step.
    Rejected {
        /// Suggested retry step / this step, in (0, 1).
        scaling: f64,
        /// Why.
        failure: Failure,
    },
}

/// Scratch vectors of the method. Allocates: everything, in [`Integrator::new`].
#[derive(Debug, Clone, Default)]
pub struct Integrator {
    q_base: Vec<f64>,
    v_base: Vec<f64>,
    q_stage: Vec<f64>,
    v_stage: Vec<f64>,
    v1: Vec<f64>,
    a1: Vec<f64>,
    rhs: Vec<f64>,
    matrix: Vec<f64>,
}

impl Integrator {
    /// Scratch for `n` subsystems.
    pub fn new(n: usize) -> Self {
        Self {
            q_base: vec![0.0; n],
            v_base: vec![0.0; n],
            q_stage: vec![0.0; n],
            v_stage: vec![0.0; n],
            v1: vec![0.0; n],
            a1: vec![0.0; n],
            rhs: vec![0.0; n],
            matrix: vec![0.0; n * n],
        }
    }

    /// `M = I − c·(c·J_q + J_v)` from the workspace's last evaluation.
    fn newton_matrix(&mut self, w: &Workspace, c: f64) {
        let n = self.rhs.len();
        for i in 0..n {
            for j in 0..n {
                let k = i * n + j;
                let id = if i == j { 1.0 } else { 0.0 };
                self.matrix[k] = id - c * (c * w.jac_q[k] + w.jac_v[k]);
            }
        }
    }

    /// Solves the stage `V = v_base + c·a(q_base + c·V, V)` from the guess in
    /// `v_stage`; leaves `q_stage`, `v_stage`. Returns `Err` on failure.
    fn stage(
        &mut self,
        s: &Structure,
        w: &mut Workspace,
        c: f64,
        p: &IntegrationParameters,
    ) -> Result<(), Failure> {
        let n = self.rhs.len();
        for _ in 0..p.newton_iterations {
            for k in 0..n {
                self.q_stage[k] = self.q_base[k] + c * self.v_stage[k];
            }
            evaluate(s, &self.q_stage, &self.v_stage, w);
            for k in 0..n {
                self.rhs[k] = self.v_stage[k] - self.v_base[k] - c * w.acc[k];
            }
            self.newton_matrix(w, c);
            if !solve_in_place(&mut self.matrix, &mut self.rhs) {
                return Err(Failure::Singular);
            }
            let mut norm: f64 = 0.0;
            for k in 0..n {
                self.v_stage[k] -= self.rhs[k];
                let scale = p.atol + p.rtol * self.v_stage[k].abs();
                norm = norm.max(self.rhs[k].abs() / scale);
            }
            if !norm.is_finite() {
                return Err(Failure::Singular);
            }
            if norm < p.newton_tol {
                for k in 0..n {
                    self.q_stage[k] = self.q_base[k] + c * self.v_stage[k];
                }
                return Ok(());
            }
        }
        Err(Failure::Newton)
    }

    /// Advances `(q, v)` by `h` seconds. On rejection `q` and `v` are untouched.
    /// `w` holds the last evaluation afterwards (contacts near the new state).
    pub fn step(
        &mut self,
        s: &Structure,
        w: &mut Workspace,
        q: &mut [f64],
        v: &mut [f64],
        h: f64,
        p: &IntegrationParameters,
    ) -> Outcome {
        let n = q.len();
        let c = GAMMA * h;
        let reject = |failure: Failure, scaling: f64| Outcome::Rejected {
            scaling: scaling.clamp(0.1, 0.9),
            failure,
        };
        // Stage 1: Y1 = y0 + γh·k1.
        self.q_base.copy_from_slice(q);
        self.v_base.copy_from_slice(v);
        self.v_stage.copy_from_slice(v);
        if let Err(f) = self.stage(s, w, c, p) {
            return reject(f, 0.25);
        }
        self.v1.copy_from_slice(&self.v_stage);
        for ((a1, &v1), &v0) in self.a1.iter_mut().zip(&self.v1).zip(v.iter()) {
            *a1 = (v1 - v0) / c;
        }
        // Stage 2: Y2 = y0 + (1 − γ)h·k1 + γh·k2; y1 = Y2.
        let b1 = (1.0 - GAMMA) * h;
        for k in 0..n {
            self.q_base[k] = q[k] + b1 * self.v1[k];
            self.v_base[k] = v[k] + b1 * self.a1[k];
            // Guess: k2 ≈ k1, i.e. V2 ≈ v0 + h·a1.
            self.v_stage[k] = v[k] + h * self.a1[k];
        }
        if let Err(f) = self.stage(s, w, c, p) {
            return reject(f, 0.25);
        }
        // Error estimate e = y1 − ŷ with ŷ = y0 + h·k1: e = γh·(k2 − k1),
        // filtered by (I − γhJ)⁻¹ (reduced to the velocity block).
        for k in 0..n {
            let a2 = (self.v_stage[k] - self.v_base[k]) / c;
            let ev = c * (a2 - self.a1[k]);
            let jq_eq: f64 = (0..n)
                .map(|j| w.jac_q[k * n + j] * c * (self.v_stage[j] - self.v1[j]))
                .sum();
            self.rhs[k] = ev + c * jq_eq;
        }
        self.newton_matrix(w, c);
        if !solve_in_place(&mut self.matrix, &mut self.rhs) {
            return reject(Failure::Singular, 0.25);
        }
        let mut err: f64 = 0.0;
        for k in 0..n {
            let ev = self.rhs[k];
            let eq = c * (self.v_stage[k] - self.v1[k]) + c * ev;
            let sq = p.atol + p.rtol * q[k].abs().max(self.q_stage[k].abs());
            let sv = p.atol + p.rtol * v[k].abs().max(self.v_stage[k].abs());
            err = err.max((eq / sq).abs()).max((ev / sv).abs());
        }
        if !err.is_finite() {
            return reject(Failure::Singular, 0.25);
        }
        let factor = p.safety * err.max(1e-12).powf(-0.5);
        if err > 1.0 {
            return reject(Failure::Error(err), factor);
        }
        if let Some(deepest) = w
            .contacts
            .iter()
            .max_by(|a, b| a.overlap.total_cmp(&b.overlap))
            .filter(|c| c.overlap > p.max_overlap)
            .copied()
        {
            // Only a step that deepens an overlap past the limit is refused: a
            // contact already deeper at the start must be allowed to relax.
            place(s, q, w);
            find_contacts(s, v, w);
            let before = w.contacts.iter().map(|c| c.overlap).fold(0.0, f64::max);
            if deepest.overlap > before {
                return reject(
                    Failure::Overlap(deepest.overlap, deepest.primitives),
                    0.5 * p.max_overlap / deepest.overlap,
                );
            }
        }
        q.copy_from_slice(&self.q_stage);
        v.copy_from_slice(&self.v_stage);
        Outcome::Accepted {
            growth: factor.min(p.max_growth),
        }
    }
}
