//! The tuning of the long-term analysis (Gelsey's Algorithm 12 parameters).

use std::fmt;

/// Parameters of the long-term analysis. Gelsey's names (Algorithm 12) are
/// given with each field; the defaults are his where his text is legible.
#[derive(Debug, Clone, PartialEq)]
pub struct LongTermParams {
    /// `P_confirm`: a hypothesis of `M` minima per cycle is accepted as locally
    /// satisfactory once `M × P_confirm` further minima have confirmed it
    /// (dimensionless, at least 1). Default 2.
    pub confirmations_per_minimum: usize,
    /// `P_range_fraction`: only kinetic-energy minima in the bottom fraction of
    /// the trace's kinetic-energy range count, `E ≤ E_min + f (E_max − E_min)`
    /// (dimensionless, in (0, 1]). Turning points of the parts lie near the
    /// bottom; ripples on a high plateau (contact chatter, solver noise) lie
    /// near the top. The printed paper's value is illegible ("10e5"); the
    /// default 0.05 keeps the turning points while excluding the dips between
    /// the halves of an impulse: in the escapement a tooth drop's spike of
    /// kinetic energy sets the range, and dips at a tenth of it appear in some
    /// cycles and not in others.
    pub energy_range_fraction: f64,
    /// Not in the paper: neighbouring low minima between which the kinetic
    /// energy rises less than this fraction of its range above the higher of
    /// them count as one (the lower), so that numerical noise on a part that
    /// turns slowly does not add minima (dimensionless, in [0, 1)). Default
    /// 0.01.
    pub minimum_prominence: f64,
    /// `P_ignore`: the first low minima are skipped as start-up transient
    /// (count). Default 4.
    pub ignored_minima: usize,
    /// `P_t_match`: a cycle's duration matches the hypothesis when it differs
    /// from `D` by at most this fraction of `D` (dimensionless), plus the
    /// sampling uncertainty of the two minima (one sampling interval each).
    /// Default 0.01.
    pub time_match: f64,
    /// `P_s_v_match`: a variable's change over a cycle matches the hypothesis
    /// when it differs from `A` by at most this fraction of the variable's
    /// excursion (peak to peak) during that cycle (dimensionless), plus the
    /// sampling uncertainty of its values at the two minima (its change over
    /// one sampling interval there). Default 0.02.
    pub state_match: f64,
    /// The largest number of minima per cycle tried before the behaviour is
    /// declared irregular (count, at least 1). Default 32.
    pub max_minima_per_cycle: usize,
}

impl Default for LongTermParams {
    fn default() -> Self {
        Self {
            confirmations_per_minimum: 2,
            energy_range_fraction: 0.05,
            minimum_prominence: 0.01,
            ignored_minima: 4,
            time_match: 0.01,
            state_match: 0.02,
            max_minima_per_cycle: 32,
        }
    }
}

/// A parameter outside its range.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamsError(pub String);

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParamsError {}

impl LongTermParams {
    /// Checks every field's range; the error names the first field outside it.
    pub fn validate(&self) -> Result<(), ParamsError> {
        let bad = |what: String| Err(ParamsError(what));
        if self.confirmations_per_minimum == 0 {
            return bad("confirmations_per_minimum must be at least 1".into());
        }
        if self.max_minima_per_cycle == 0 {
            return bad("max_minima_per_cycle must be at least 1".into());
        }
        let f = self.energy_range_fraction;
        if !(f > 0.0 && f <= 1.0) {
            return bad(format!("energy_range_fraction {f} must lie in (0, 1]"));
        }
        let p = self.minimum_prominence;
        if !(0.0..1.0).contains(&p) {
            return bad(format!("minimum_prominence {p} must lie in [0, 1)"));
        }
        for (name, value) in [
            ("time_match", self.time_match),
            ("state_match", self.state_match),
        ] {
            if !(value.is_finite() && value >= 0.0) {
                return bad(format!("{name} {value} must be a non-negative number"));
            }
        }
        Ok(())
    }
}
