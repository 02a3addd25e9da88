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
    /// Regular, not regular, or too little data to tell (before the stop,
    /// if the mechanism stopped).
    pub verdict: Verdict,
    /// The mechanism's final rest, if it stopped for good before the trace
    /// ended (a jam).
    pub stop: Option<Stop>,
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

    /// The periodically superimposed processes of the regular behaviour
    /// found (empty if none, or if the behaviour is not regular).
    pub fn superimposed(&self) -> &[SuperimposedProcess] {
        self.regularity().map_or(&[], |r| r.superimposed.as_slice())
    }
}

/// A mechanism at rest for good: from `from_s` to the end of the trace its
/// kinetic energy stays below a millionth of its peak, for longer than any
/// pause it took while running.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stop {
    /// Time the final rest begins, s.
    pub from_s: f64,
    /// End of the trace, s.
    pub until_s: f64,
}

/// A periodically superimposed process (Gelsey's Fig. 25): a second pattern
/// recurring on top of the basic one without disturbing it, made of state
/// variables that keep still during the basic pattern (a chiming clock's
/// clapper lifted and released by a slowly turning gear).
#[derive(Debug, Clone, PartialEq)]
pub struct SuperimposedProcess {
    /// Time between starts of the process, s; `None` if it was seen once.
    pub period_s: Option<f64>,
    /// How long the process runs, s: the mean over the instances that ended
    /// before the trace.
    pub duration_s: f64,
    /// Time at which the process first starts, s.
    pub first_start_s: f64,
    /// Instances seen (complete or not).
    pub instances: usize,
    /// Which state variables the process involves, in the trace's order.
    pub involved: Vec<bool>,
    /// Net change of each involved variable over an instance (its unit; zero
    /// for the others): the mean over complete instances.
    pub net_change: Vec<f64>,
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
    /// Processes superimposed periodically on the pattern (Gelsey's Fig. 23,
    /// item 4). Their variables keep still in the pattern: their entries of
    /// `changes` are zero.
    pub superimposed: Vec<SuperimposedProcess>,
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
        if let Some(stop) = &self.stop {
            write!(
                f,
                "stopped: at rest from {:.2} s to the end of the run at {:.2} s \
                 (kinetic energy below a millionth of its peak); before that, ",
                stop.from_s, stop.until_s
            )?;
        }
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
                if let Some(m) = pending.filter(|_| self.stop.is_none()) {
                    write!(
                        f,
                        "; a pattern of {} was still being tested at the end (a longer run may confirm it)",
                        minima(m)
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
        let superimposed = |j: usize| r.superimposed.iter().any(|p| p.involved[j]);
        let mut repeating = Vec::new();
        for (j, (v, c)) in self.variables.iter().zip(&r.changes).enumerate() {
            if drifting(j) || superimposed(j) {
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
        for p in &r.superimposed {
            self.fmt_superimposed(f, r, p)?;
        }
        Ok(())
    }

    /// "; superimposed every 148 s (20.0 cycles), …": Gelsey's Fig. 25.
    fn fmt_superimposed(
        &self,
        f: &mut fmt::Formatter<'_>,
        r: &Regularity,
        p: &SuperimposedProcess,
    ) -> fmt::Result {
        match p.period_s {
            Some(period_s) => write!(
                f,
                "; superimposed process every {} s ({} cycles), {} times from {:.2} s",
                significant(period_s, 3),
                significant(period_s / r.period_s, 3),
                p.instances,
                p.first_start_s
            )?,
            None => write!(
                f,
                "; superimposed process once, from {:.2} s (its period is longer than the run)",
                p.first_start_s
            )?,
        }
        write!(f, ", lasting {} s:", significant(p.duration_s, 3))?;
        let mut returning = Vec::new();
        let mut first = true;
        for (j, v) in self.variables.iter().enumerate() {
            if !p.involved[j] {
                continue;
            }
            let change = p.net_change[j];
            if change == 0.0 {
                returning.push(v.name.as_str());
                continue;
            }
            let sep = if first { " " } else { ", " };
            first = false;
            write!(
                f,
                "{sep}{} changes {} each time",
                v.name,
                v.unit.format(change)
            )?;
        }
        if !returning.is_empty() {
            let sep = if first { " " } else { "; " };
            let verb = if returning.len() == 1 {
                "returns to where it was"
            } else {
                "return to where they were"
            };
            write!(f, "{sep}{} {verb}", returning.join(", "))?;
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
