//! Newton's method safeguarded by bisection: the solve an implicit root falls
//! back on when its fast path does not apply.

/// Newton steps allowed to an implicit root per sample. From the closed-form seed
/// the solve converges in a handful; the bound only keeps a sample's cost finite.
const MAX_NEWTON_STEPS: usize = 50;

/// Relative step size at which Newton's method has converged (a few ulps).
const NEWTON_TOLERANCE: f64 = 1e-15;

/// Newton's method on an increasing function with a root in `[lo, hi]`, from
/// `seed`, safeguarded by bisection: each step narrows the bracket, and a Newton
/// step that leaves it (or overflows) is replaced by its midpoint. `f` returns the
/// residual and its derivative.
pub(crate) fn newton_in_bracket(
    seed: f64,
    mut lo: f64,
    mut hi: f64,
    f: impl Fn(f64) -> (f64, f64),
) -> f64 {
    let mut v = if seed.is_finite() {
        seed.clamp(lo, hi)
    } else {
        0.5 * (lo + hi)
    };
    for _ in 0..MAX_NEWTON_STEPS * 4 {
        let (g, slope) = f(v);
        if g.is_nan() || g > 0.0 {
            hi = v;
        } else {
            lo = v;
        }
        let newton = v - g / slope;
        let next = if newton.is_finite() && newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        let step = (next - v).abs();
        v = next;
        if step <= NEWTON_TOLERANCE * v.abs()
            || step == 0.0
            || hi - lo <= NEWTON_TOLERANCE * hi.abs()
        {
            break;
        }
    }
    v
}
