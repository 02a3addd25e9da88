//! The going train: the `bracket-movement` mechanism (mainspring, gear train,
//! lever escapement, balance) stepped by its own adaptive integrator, the
//! blows its parts strike each other found as they happen, and the time its
//! hands show read from the escape wheel's turning.

use std::f64::consts::TAU;

use super::spec::ClockSpec;
use crate::mech::mechanism::{
    BRACKET_MOVEMENT_TOML, ContactSite, IntegrationParameters, Mechanism, Stepper,
};
use crate::mech::{Model, ModelState};
use crate::props::PropertyAccess;

/// How long a turn of the escape wheel takes when the clock keeps time, s:
/// 10 teeth, one per 0.4 s swing of the balance. The centre wheel (the
/// minute hand) turns once in 900 of them.
pub const ESCAPE_WHEEL_TURN_S: f64 = 4.0;

/// Turns of the mainspring's barrel when fully wound.
pub const WOUND_TURNS: f64 = 8.0;

/// Slowest approach that counts as a blow, m/s: slower touches are the
/// parts sliding into each other.
const SLOWEST_BLOW_M_S: f64 = 2e-3;

/// Shortest step of the movement's integrator, s.
const MIN_STEP_S: f64 = 1e-10;

/// At most this many integrator steps (accepted and refused) per call of
/// [`Movement::step_towards`]: the bound on the work of one control step, which
/// lets the movement run in lock-step on the audio thread. A blow that
/// needs more is finished in the next control steps (the movement lags by
/// a fraction of a millisecond, the same in every run). The bracket
/// movement needs 1.6 a control period on average and at most 140 (15 s
/// from 11:59:50, the quarters and the hour included), so in normal
/// running the bound is never reached.
pub const MAX_STEPS_PER_CALL: usize = 256;

/// A blow of one part on another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Blow {
    /// Which site (index into [`Movement::sites`]).
    pub site: usize,
    /// Approach speed along the contact's normal, m/s.
    pub speed_m_s: f64,
    /// The mass the blow meets, kg.
    pub mass_kg: f64,
    /// Where, in the drawing, m.
    pub point: [f64; 2],
}

/// The going train of a chiming clock.
#[derive(Debug, Clone)]
pub struct Movement {
    mechanism: Mechanism,
    stepper: Stepper,
    sites: Vec<ContactSite>,
    /// Whether each site was touching after the last step.
    touching: Vec<bool>,
    /// Scratch: the sites touching after this step.
    seen: Vec<bool>,
    /// Escape wheel angle when the hands showed `start_time_s`, rad.
    wheel_at_start: f64,
    /// The time the hands showed at the start, s after midnight.
    start_time_s: f64,
    running: bool,
    /// Set when the integrator failed: the movement has seized.
    seized: bool,
    /// Steps the integrator tried (accepted and refused) in the last
    /// [`Movement::run_to`].
    steps_tried: usize,
}

impl Movement {
    /// The movement of `spec`, at rest with the balance drawn in its pose
    /// and the hands at `spec.time_h`. Allocates.
    pub fn new(spec: &ClockSpec) -> Self {
        let mut mechanism =
            Mechanism::from_toml(BRACKET_MOVEMENT_TOML).expect("the embedded movement is tested");
        mechanism.set_parameters(IntegrationParameters {
            // The drawing is in metres: no contact deeper than 50 µm.
            max_overlap: 5e-5,
            // The balance swings in 0.4 s.
            max_step: 2e-3,
            ..IntegrationParameters::default()
        });
        let sites = mechanism.contact_sites();
        let mut movement = Self {
            stepper: Stepper::start(&mut mechanism, 0.0, 1e-4, MIN_STEP_S),
            touching: vec![false; sites.len()],
            seen: vec![false; sites.len()],
            sites,
            mechanism,
            wheel_at_start: 0.0,
            start_time_s: spec.time_h * 3600.0,
            running: spec.running,
            seized: false,
            steps_tried: 0,
        };
        movement.apply(spec);
        movement.wheel_at_start = movement.wheel_angle();
        movement
    }

    /// Takes `spec`'s values: the balance, the hairspring, the winding.
    fn apply(&mut self, spec: &ClockSpec) {
        self.set_balance(spec.balance_inertia_kg_m2, spec.hairspring_n_m_per_rad);
        self.set_wound(spec.wound);
        self.set_running(spec.running);
    }

    /// Sets the balance's moment of inertia (kg·m²) and its hairspring's
    /// stiffness (N·m/rad), which set the beat.
    pub fn set_balance(&mut self, inertia_kg_m2: f64, hairspring_n_m_per_rad: f64) {
        let m = &mut self.mechanism;
        let _ = m.set_property("parts/balance:inertia", inertia_kg_m2);
        let _ = m.set_property("springs/hairspring:stiffness", hairspring_n_m_per_rad);
    }

    /// Carries on what `old` (the same movement built with other values) is
    /// doing: its parts' motion, its blows in progress, its hands and
    /// winding. Allocates nothing.
    pub fn continue_from(&mut self, old: &Movement) {
        self.mechanism.continue_from(&old.mechanism);
        let relaxed = old
            .mechanism
            .property("springs/mainspring:relaxed")
            .unwrap_or(0.0);
        let _ = self
            .mechanism
            .set_property("springs/mainspring:relaxed", relaxed);
        self.stepper.continue_from(&old.stepper);
        if self.touching.len() == old.touching.len() {
            self.touching.copy_from_slice(&old.touching);
        }
        self.wheel_at_start = old.wheel_at_start;
        self.start_time_s = old.start_time_s;
        self.running = old.running;
        self.seized = old.seized;
    }

    /// After [`Movement::continue_from`], takes the winding and running
    /// state of `spec` where they differ from `old`'s (the balance and
    /// hairspring are this build's already).
    pub fn apply_changes(&mut self, spec: &ClockSpec, old: &ClockSpec) {
        if spec.wound != old.wound {
            self.set_wound(spec.wound);
        }
        if spec.running != old.running {
            self.set_running(spec.running);
        }
    }

    /// Winds the mainspring to `wound` (0 run down to 1 fully wound) from
    /// where the barrel is now.
    pub fn set_wound(&mut self, wound: f64) {
        let barrel = self
            .mechanism
            .property("parts/barrel:position")
            .unwrap_or(0.0);
        let relaxed = barrel - wound.clamp(0.0, 1.0) * WOUND_TURNS * TAU;
        let _ = self
            .mechanism
            .set_property("springs/mainspring:relaxed", relaxed);
    }

    /// How far the mainspring is wound now, 0 to 1.
    pub fn wound(&self) -> f64 {
        let m = &self.mechanism;
        let barrel = m.property("parts/barrel:position").unwrap_or(0.0);
        let relaxed = m.property("springs/mainspring:relaxed").unwrap_or(0.0);
        ((barrel - relaxed) / (WOUND_TURNS * TAU)).clamp(0.0, 1.0)
    }

    /// Starts (true) or stops (false) the clock: a stopped clock's balance is
    /// held where it is.
    pub fn set_running(&mut self, running: bool) {
        if self.running && !running {
            for path in [
                "parts/wheel:velocity",
                "parts/lever:velocity",
                "parts/balance:velocity",
            ] {
                let _ = self.mechanism.set_property(path, 0.0);
            }
        }
        self.running = running;
    }

    /// Whether the balance swings.
    pub fn is_running(&self) -> bool {
        self.running && !self.seized
    }

    /// Whether the integrator failed and the movement stopped for good.
    pub fn is_seized(&self) -> bool {
        self.seized
    }

    /// Every site where parts strike each other.
    pub fn sites(&self) -> &[ContactSite] {
        &self.sites
    }

    /// The mechanism as it is now.
    pub fn mechanism(&self) -> &Mechanism {
        &self.mechanism
    }

    /// The escape wheel's angle, rad (it turns clockwise: decreasing).
    pub fn wheel_angle(&self) -> f64 {
        self.mechanism
            .property("parts/wheel:position")
            .unwrap_or(0.0)
    }

    /// The balance's angle, rad.
    pub fn balance_angle(&self) -> f64 {
        self.mechanism
            .property("parts/balance:position")
            .unwrap_or(0.0)
    }

    /// The time the hands show, s after midnight (growing past a day).
    pub fn dial_time_s(&self) -> f64 {
        let turns = (self.wheel_at_start - self.wheel_angle()) / TAU;
        self.start_time_s + turns * ESCAPE_WHEEL_TURN_S
    }

    /// Sets the hands to `time_s` (s after midnight) without moving the train.
    pub fn set_dial_time_s(&mut self, time_s: f64) {
        self.start_time_s = time_s;
        self.wheel_at_start = self.wheel_angle();
    }

    /// Runs the movement all the way to `t_s` (however many steps that
    /// takes: off the audio thread), handing every blow to `on_blow` as it
    /// happens. A stopped clock only keeps its clock: nothing moves.
    pub fn run_to(&mut self, t_s: f64, on_blow: &mut dyn FnMut(Blow)) {
        loop {
            self.step_towards(t_s, on_blow);
            if self.lag_s(t_s) == 0.0 || self.is_seized() || !self.is_running() {
                return;
            }
        }
    }

    /// Runs the movement towards `t_s` with at most [`MAX_STEPS_PER_CALL`]
    /// integrator steps (the audio thread's bounded share of a control
    /// step), handing every blow to `on_blow` as it happens: it stops short
    /// of `t_s` ([`Movement::lag_s`]) only when a blow needs more, and the
    /// next calls go on from there exactly as one longer call would. A
    /// stopped clock only keeps its clock: nothing moves.
    pub fn step_towards(&mut self, t_s: f64, on_blow: &mut dyn FnMut(Blow)) {
        if !self.is_running() {
            // Nothing moves; the movement goes on from here when started.
            self.stepper.restart(&mut self.mechanism, t_s, 1e-4);
            return;
        }
        let Self {
            mechanism,
            stepper,
            sites,
            touching,
            seen,
            ..
        } = self;
        let result = stepper.advance(mechanism, t_s, MAX_STEPS_PER_CALL, |m, _t, _h| {
            let was_touching = &mut touching[..];
            let now_touching = &mut seen[..];
            now_touching.fill(false);
            let contacts = m.contacts().len();
            for i in 0..contacts {
                let c = m.contacts()[i];
                let Some(site) = m.site_of(sites, &c) else {
                    continue;
                };
                now_touching[site] = true;
                if !was_touching[site] && c.rate > SLOWEST_BLOW_M_S {
                    was_touching[site] = true;
                    on_blow(Blow {
                        site,
                        speed_m_s: c.rate,
                        mass_kg: m.impact_mass(&c),
                        point: [c.point.x, c.point.y],
                    });
                }
            }
            // Sites no contact touches now have let go.
            was_touching.copy_from_slice(now_touching);
        });
        match result {
            Ok(stats) => self.steps_tried = stats.attempts(),
            Err(_) => self.seized = true,
        }
    }

    /// Steps the integrator tried (accepted and refused) in the last
    /// [`Movement::step_towards`]: at most [`MAX_STEPS_PER_CALL`].
    pub fn steps_tried(&self) -> usize {
        self.steps_tried
    }

    /// How far the movement lags behind `asked_s`, the time the last
    /// [`Movement::step_towards`] asked for, s: 0 unless a blow needed more
    /// than [`MAX_STEPS_PER_CALL`] steps, in which case the next calls catch
    /// up.
    pub fn lag_s(&self, asked_s: f64) -> f64 {
        (asked_s - self.stepper.time()).max(0.0)
    }

    /// The movement's state: positions and velocities of its subsystems.
    pub fn save_state(&self) -> ModelState {
        self.mechanism.save_state()
    }
}
