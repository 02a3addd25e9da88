//! The result of the long-term analysis and its short human report.

use std::fmt;

use super::trace::{Unit, Variable, significant};

/// The outcome of [`analyze`](super::analyze): the verdict and what it needs
/// to be read (the variables' names and units).
#[derive(Debug, Clone, PartialEq)]
pub struct LongTermReport {
    /// The variables, in the trace's order.
    pub variables: Vec<Variable>,
    /// Low kinetic-energy minima found, after the skipped start-up ones.
    pub minima: usize,
    /// Confirmed patterns that the data contradicted later (sudden
    /// transitions), in time order.
    pub broken: Vec<BrokenPattern>,
    /// Regular, not regular, or too little data to tell.
    pub verdict: Verdict,
}

impl LongTermReport {
    /// The regular behaviour found, if any.
    pub fn regularity(&self) -> Option<&Regularity> {
        match &self.verdict {
            Verdict::Regular(r) => Some(r),
            _ => None,
        }
    }

    /// Whether the behaviour was found regular.
    pub fn is_regular(&self) -> bool {
        self.regularity().is_some()
    }
}

/// The verdict of the analysis.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// A pattern of `M` minima per cycle was confirmed and held to the end of
    /// the trace.
    Regular(Regularity),
    /// No pattern held to the end of the trace.
    NotRegular {
        /// The largest number of minima per cycle tried.
        largest_m: usize,
        /// A hypothesis of this many minima per cycle had not failed but was
        /// not yet confirmed when the trace ended: a longer run may confirm it.
        pending: Option<usize>,
    },
    /// The trace cannot show a pattern at all.
    InsufficientData(Insufficiency),
}

/// Why a trace cannot show a pattern.
#[derive(Debug, Clone, PartialEq)]
pub enum Insufficiency {
    /// Fewer than three samples.
    TooFewSamples(usize),
    /// The kinetic energy never changes, so it has no minima to mark cycles.
    ConstantEnergy,
    /// Too few low kinetic-energy minima to confirm even one minimum per cycle.
    TooFewMinima {
        /// Low minima found after the skipped start-up ones.
        found: usize,
        /// Minima skipped as start-up transient.
        skipped: usize,
        /// Minima needed after the skipped ones.
        needed: usize,
    },
}

/// Regular behaviour: `s(t0 + n D) = s(t0) + n A` at every cycle start.
#[derive(Debug, Clone, PartialEq)]
pub struct Regularity {
    /// `M`: kinetic-energy minima per cycle.
    pub minima_per_cycle: usize,
    /// `D`: duration of a cycle, s (its late value if it drifts).
    pub period_s: f64,
    /// `t0`: time of the first cycle start, s.
    pub start_s: f64,
    /// Time of the last cycle start, s.
    pub end_s: f64,
    /// Complete cycles between `start_s` and `end_s`.
    pub cycles: usize,
    /// `A`: the change of each variable per cycle, in the trace's order.
    pub changes: Vec<VariableChange>,
    /// Gradual effects: drifts too slow to break one cycle's match that add
    /// up over the run (Algorithm 13).
    pub gradual: Vec<GradualEffect>,
}

/// One entry of `A`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VariableChange {
    /// Change per cycle, in the variable's unit (its late rate if it drifts).
    pub per_cycle: f64,
    /// Whether the change is within the match tolerance of zero: the variable
    /// returns to the same value every cycle.
    pub repeats: bool,
}

/// A gradual effect found by comparing the whole run with the prediction of
/// its first cycles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GradualEffect {
    /// The cycle duration drifts.
    Period {
        /// Mean duration over the locally confirmed cycles, s.
        early_s: f64,
        /// Mean duration over the cycles after them, s.
        late_s: f64,
    },
    /// A variable's value at the cycle starts drifts away from the local
    /// prediction (e.g. a balance amplitude that slowly shrinks).
    Variable {
        /// Index of the variable in the trace.
        index: usize,
        /// Change per cycle over the locally confirmed cycles (its unit).
        early_per_cycle: f64,
        /// Change per cycle as reported in `A` (its unit): the mean over the
        /// run, or the rate after the first cycles if they mispredicted it.
        per_cycle: f64,
        /// Change over the whole run, from the first to the last cycle start
        /// (its unit).
        total: f64,
    },
}

/// A pattern that was confirmed and then contradicted by the data.
#[derive(Debug, Clone, PartialEq)]
pub struct BrokenPattern {
    /// Minima per cycle.
    pub minima_per_cycle: usize,
    /// Its first cycle start, s.
    pub from_s: f64,
    /// The last minimum consistent with it, s.
    pub until_s: f64,
}

impl fmt::Display for LongTermReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.verdict {
            Verdict::Regular(r) => self.fmt_regular(f, r),
            Verdict::NotRegular { largest_m, pending } => {
                write!(f, "not regular: ")?;
                match self.broken.last() {
                    Some(b) => write!(
                        f,
                        "a pattern of {} held from {:.2} s to {:.2} s, then broke",
                        minima(b.minima_per_cycle),
                        b.from_s,
                        b.until_s
                    )?,
                    None => {
                        let failed = pending.map_or(*largest_m, |p| p - 1);
                        if failed == 0 {
                            write!(f, "no pattern repeated yet")?;
                        } else {
                            write!(
                                f,
                                "no pattern of up to {} repeated within tolerance",
                                minima(failed)
                            )?;
                        }
                        write!(f, " among {} low kinetic-energy minima", self.minima)?;
                    }
                }
                if let Some(m) = pending {
                    write!(
                        f,
                        "; a pattern of {} was still being tested at the end (a longer run may confirm it)",
                        minima(*m)
                    )?;
                }
                Ok(())
            }
            Verdict::InsufficientData(why) => {
                write!(f, "insufficient data: ")?;
                match why {
                    Insufficiency::TooFewSamples(n) => {
                        write!(f, "{n} samples; at least 3 are needed")
                    }
                    Insufficiency::ConstantEnergy => write!(
                        f,
                        "the kinetic energy is constant, so it has no minima to mark cycles"
                    ),
                    Insufficiency::TooFewMinima {
                        found,
                        skipped,
                        needed,
                    } => write!(
                        f,
                        "{found} low kinetic-energy minima after the {skipped} skipped as start-up; \
                         at least {needed} are needed (run longer)"
                    ),
                }
            }
        }
    }
}

impl LongTermReport {
    fn fmt_regular(&self, f: &mut fmt::Formatter<'_>, r: &Regularity) -> fmt::Result {
        write!(
            f,
            "regular: period {} s, {} per cycle",
            significant(r.period_s, 3),
            minima(r.minima_per_cycle)
        )?;
        let drifting = |j: usize| {
            r.gradual
                .iter()
                .any(|g| matches!(g, GradualEffect::Variable { index, .. } if *index == j))
        };
        let mut repeating = Vec::new();
        for (j, (v, c)) in self.variables.iter().zip(&r.changes).enumerate() {
            if drifting(j) {
                continue;
            }
            if c.repeats {
                repeating.push(v.name.as_str());
            } else if v.unit == Unit::Radian {
                // Angles grow counter-clockwise: say which way a part turns.
                let direction = if c.per_cycle > 0.0 {
                    "counter-clockwise"
                } else {
                    "clockwise"
                };
                let amount = v.unit.format(c.per_cycle.abs());
                write!(f, "; {} advances {amount} per cycle ({direction})", v.name)?;
            } else if c.per_cycle > 0.0 {
                write!(
                    f,
                    "; {} advances {} per cycle",
                    v.name,
                    v.unit.format(c.per_cycle)
                )?;
            } else {
                let amount = v.unit.format(-c.per_cycle);
                write!(f, "; {} goes back {amount} per cycle", v.name)?;
            }
        }
        if !repeating.is_empty() {
            let verb = if repeating.len() == 1 {
                "repeats"
            } else {
                "repeat"
            };
            write!(f, "; {} {verb} each cycle", repeating.join(", "))?;
        }
        write!(
            f,
            " ({} cycles from {:.2} s to {:.2} s)",
            r.cycles, r.start_s, r.end_s
        )?;
        for b in &self.broken {
            write!(
                f,
                "; an earlier pattern of {} held from {:.2} s to {:.2} s, then broke",
                minima(b.minima_per_cycle),
                b.from_s,
                b.until_s
            )?;
        }
        for g in &r.gradual {
            match *g {
                GradualEffect::Period { early_s, late_s } => write!(
                    f,
                    "; gradual: period drifts from {} s to {} s",
                    significant(early_s, 4),
                    significant(late_s, 4)
                )?,
                GradualEffect::Variable {
                    index,
                    per_cycle,
                    total,
                    ..
                } => {
                    let v = &self.variables[index];
                    write!(
                        f,
                        "; gradual: {} at each cycle start drifts {} per cycle ({} over {} cycles)",
                        v.name,
                        v.unit.format(per_cycle),
                        v.unit.format(total),
                        r.cycles
                    )?;
                }
            }
        }
        Ok(())
    }
}

/// "1 kinetic-energy minimum" or "n kinetic-energy minima".
fn minima(m: usize) -> String {
    if m == 1 {
        "1 kinetic-energy minimum".into()
    } else {
        format!("{m} kinetic-energy minima")
    }
}
