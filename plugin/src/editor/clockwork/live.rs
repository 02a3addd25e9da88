//! A built-in mechanism running in real time on the GUI thread: each frame
//! advances it by the frame's duration through the engine's resumable
//! adaptive loop ([`Stepper`]), with the simulated time and the work per
//! frame both bounded, and keeps an honest account of how fast it runs.

use std::time::Instant;

use orchard_engine::mech::Model;
use orchard_engine::mech::mechanism::{self, Mechanism, Stepper};
use orchard_engine::props::PropertyAccess;

/// Longest simulated time one frame advances, s. A slower frame (a stall, a
/// window being dragged) is not caught up: the mechanism runs slower than
/// real time, and says so, rather than the GUI stalling behind it.
pub const MAX_FRAME_S: f64 = 0.1;
/// Most integrator steps, accepted or rejected, one frame may try. The
/// escapement takes about 140 per simulated second, at most about 120 in one
/// 60 Hz frame around an impact; this bound only matters if a state forces
/// tiny steps, and then the mechanism runs slow rather than the GUI.
pub const MAX_STEPS_PER_FRAME: usize = 2000;
/// First step tried after a (re)start, s.
const FIRST_STEP_S: f64 = 1e-3;
/// A step retried below this fails and stops the mechanism, s (as
/// `orchard analyze`'s scheduler).
const MIN_STEP_S: f64 = 1e-10;
/// Time constant of the smoothed speed and cost, s of real time.
const SMOOTHING_S: f64 = 1.0;

/// A moving part as the legend reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct MovingPart {
    /// Index in the mechanism's parts (and so its colour).
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Whether it turns (positions in rad) rather than slides (in u).
    pub turns: bool,
    position_path: String,
    velocity_path: String,
}

/// Whether the mechanism advances.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Advancing with the frames.
    Playing,
    /// Held still by the user.
    Paused,
    /// Stopped for good (until a restart): why.
    Failed(String),
}

/// A running built-in mechanism.
pub struct LiveMechanism {
    name: &'static str,
    mechanism: Mechanism,
    /// The mechanism as built, for restarting.
    initial: Mechanism,
    stepper: Stepper,
    status: Status,
    parts: Vec<MovingPart>,
    /// Exponentially smoothed simulated and real time, s.
    simulated_s: f64,
    real_s: f64,
    /// Exponentially smoothed stepping time per frame, s.
    cost_s: f64,
}

impl LiveMechanism {
    /// Builds the built-in mechanism `name` (one of
    /// [`mechanism::BUILTIN_NAMES`]), at rest at t = 0 and playing.
    pub fn load(name: &'static str) -> Result<Self, String> {
        let text = mechanism::builtin(name).ok_or_else(|| format!("no mechanism `{name}`"))?;
        let initial = Mechanism::from_toml(text).map_err(|e| format!("`{name}`: {e}"))?;
        let parts = moving_parts(&initial);
        let mut mechanism = initial.clone();
        let stepper = Stepper::start(&mut mechanism, 0.0, FIRST_STEP_S, MIN_STEP_S);
        Ok(Self {
            name,
            mechanism,
            initial,
            stepper,
            status: Status::Playing,
            parts,
            simulated_s: 0.0,
            real_s: 0.0,
            cost_s: 0.0,
        })
    }

    /// The built-in name it was loaded from.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The running mechanism.
    #[cfg(test)]
    pub fn mechanism(&self) -> &Mechanism {
        &self.mechanism
    }

    /// The running mechanism, to read its shapes (which places them).
    pub fn mechanism_mut(&mut self) -> &mut Mechanism {
        &mut self.mechanism
    }

    /// The moving parts, in description order.
    pub fn parts(&self) -> &[MovingPart] {
        &self.parts
    }

    /// Simulated time, s.
    pub fn time_s(&self) -> f64 {
        self.stepper.time()
    }

    /// Whether it advances, is paused, or failed.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Pauses a playing mechanism or plays a paused one; a failed one stays
    /// failed.
    pub fn toggle_pause(&mut self) {
        self.status = match self.status {
            Status::Playing => Status::Paused,
            Status::Paused => Status::Playing,
            Status::Failed(_) => return,
        };
    }

    /// Back to rest at t = 0, playing.
    pub fn restart(&mut self) {
        self.mechanism = self.initial.clone();
        self.stepper = Stepper::start(&mut self.mechanism, 0.0, FIRST_STEP_S, MIN_STEP_S);
        self.status = Status::Playing;
        self.simulated_s = 0.0;
        self.real_s = 0.0;
        self.cost_s = 0.0;
    }

    /// A part's position (rad or u) and velocity (rad/s or u/s).
    pub fn motion(&self, part: &MovingPart) -> (f64, f64) {
        let read = |path: &str| self.mechanism.property(path).unwrap_or(f64::NAN);
        (read(&part.position_path), read(&part.velocity_path))
    }

    /// Simulated seconds per real second, smoothed over about a second of
    /// playing (1 when the frames are at most [`MAX_FRAME_S`] long and the
    /// steps fit the budget); `None` before the first played frame.
    pub fn speed(&self) -> Option<f64> {
        (self.real_s > 0.0).then(|| self.simulated_s / self.real_s)
    }

    /// Stepping time per played frame, smoothed, s of wall-clock time.
    pub fn cost_per_frame_s(&self) -> f64 {
        self.cost_s
    }

    /// One GUI frame of `frame_s` seconds: a playing mechanism advances by
    /// it, at most [`MAX_FRAME_S`] and [`MAX_STEPS_PER_FRAME`] steps. A failed
    /// step or a non-finite state stops it with the reason.
    pub fn frame(&mut self, frame_s: f64) {
        if self.status != Status::Playing {
            return;
        }
        if let Some(reason) = self.non_finite() {
            self.status = Status::Failed(reason);
            return;
        }
        let frame_s = if frame_s.is_finite() {
            frame_s.max(0.0)
        } else {
            0.0
        };
        let t0 = self.stepper.time();
        let started = Instant::now();
        let result = self.stepper.advance(
            &mut self.mechanism,
            t0 + frame_s.min(MAX_FRAME_S),
            MAX_STEPS_PER_FRAME,
            |_, _, _| {},
        );
        let cost_s = started.elapsed().as_secs_f64();
        self.account(self.stepper.time() - t0, frame_s, cost_s);
        if let Err(failure) = result {
            let detail = self.mechanism.last_rejection().unwrap_or_default();
            self.status = Status::Failed(format!("{failure} ({detail})"));
        } else if let Some(reason) = self.non_finite() {
            self.status = Status::Failed(reason);
        }
    }

    /// Why the state cannot be advanced, if a position or velocity is not a
    /// finite number.
    fn non_finite(&self) -> Option<String> {
        let state = self.mechanism.save_state();
        let names = self.mechanism.state_names();
        let (value, name) = state.0.iter().zip(&names).find(|(x, _)| !x.is_finite())?;
        Some(format!(
            "{name} became {value} at t = {:.3} s",
            self.stepper.time()
        ))
    }

    /// Smooths the speed and cost over [`SMOOTHING_S`] of real time.
    fn account(&mut self, simulated_s: f64, real_s: f64, cost_s: f64) {
        let keep = (-real_s / SMOOTHING_S).exp();
        self.simulated_s = keep * self.simulated_s + simulated_s;
        self.real_s = keep * self.real_s + real_s;
        self.cost_s = if self.cost_s == 0.0 {
            cost_s
        } else {
            keep * self.cost_s + (1.0 - keep) * cost_s
        };
    }
}

impl MovingPart {
    /// Its position in `m` (rad or u; NaN if `m` lacks it).
    pub fn position_in(&self, m: &Mechanism) -> f64 {
        m.property(&self.position_path).unwrap_or(f64::NAN)
    }
}

/// The parts that move, with the property paths of their state.
pub fn moving_parts(m: &Mechanism) -> Vec<MovingPart> {
    m.part_names()
        .enumerate()
        .filter_map(|(index, name)| {
            let position_path = format!("parts/{name}:position");
            m.property(&position_path)?;
            Some(MovingPart {
                index,
                name: name.to_string(),
                turns: m.turns(name)?,
                velocity_path: format!("parts/{name}:velocity"),
                position_path,
            })
        })
        .collect()
}
