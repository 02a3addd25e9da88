//! The action's motion: a command applied at its time, and every key's hammer
//! and damper moved in closed form between commands (uniform push by the jack,
//! free flight against gravity, strike and rebound, the check, the damper's
//! travel).

use super::key::{Key, Phase, release_rate};
use super::keyboard::{KEYS, LOWEST_NOTE};
use super::{Action, ActionCommand, ActionEvent};

/// Gravity, m/s².
const GRAVITY: f64 = 9.81;

impl Action {
    /// Applies one command (at the present time of the run).
    pub(super) fn apply(&mut self, command: ActionCommand) {
        let s = self.settings;
        match command {
            ActionCommand::KeyDown { note, velocity } => {
                let Some(key) = self.key_mut(note) else {
                    return;
                };
                let reset = !s.realistic_travel || key.rise >= s.repetition_rise;
                key.down = true;
                key.rise = 0.0;
                if !reset || matches!(key.phase, Phase::Pushed | Phase::Flight) {
                    return;
                }
                let speed = s.strike_speed(velocity);
                let let_off_at = s.blow_distance - s.let_off;
                if s.realistic_travel && key.position < let_off_at {
                    // Uniform push from where the hammer is to let-off, reaching
                    // the speed that carries it to the string at `speed`.
                    let at_let_off = (speed * speed + 2.0 * GRAVITY * s.let_off).sqrt();
                    let distance = let_off_at - key.position;
                    key.push = at_let_off * at_let_off / (2.0 * distance);
                    key.velocity = 0.0;
                    key.phase = Phase::Pushed;
                } else {
                    // Thrown from let-off (or from where it is, if closer).
                    let from = key.position.max(let_off_at);
                    let gap = s.blow_distance - from;
                    key.position = from;
                    key.velocity = (speed * speed + 2.0 * GRAVITY * gap).sqrt();
                    key.phase = Phase::Flight;
                    let let_off = s.let_off(note, speed, key.velocity);
                    self.emit(self.now, let_off);
                }
            }
            ActionCommand::KeyUp { note, velocity } => {
                if let Some(key) = self.key_mut(note) {
                    key.down = false;
                    key.release_rate = release_rate(velocity);
                    if key.phase == Phase::Caught {
                        key.phase = Phase::Falling;
                    }
                }
            }
            ActionCommand::Sustain(value) => self.pedals.sustain = value.clamp(0.0, 1.0),
            ActionCommand::Sostenuto(down) => self.pedals.set_sostenuto(down, &mut self.keys),
            ActionCommand::UnaCorda(value) => self.pedals.una_corda = value.clamp(0.0, 1.0),
            ActionCommand::Rebound { note, speed } => {
                let Some(key) = self.key_mut(note) else {
                    return;
                };
                if !(speed.is_finite() && speed >= 0.0) {
                    return;
                }
                // Our own flight model has the hammer at (or past) the string
                // by now; from the measured separation it falls at the measured
                // speed.
                if matches!(key.phase, Phase::Flight | Phase::Falling) {
                    key.position = s.blow_distance;
                    key.velocity = -speed;
                    key.phase = Phase::Falling;
                }
            }
        }
    }

    /// Moves every key's parts from `t0` to `t1` (s) with no command between.
    pub(super) fn evolve(&mut self, t0: f64, t1: f64) {
        let s = self.settings;
        let h = t1 - t0;
        let string = s.blow_distance;
        let check = s.blow_distance - s.check_drop;
        for index in 0..KEYS {
            let note = LOWEST_NOTE + index as u8;
            let mut key = self.keys[index];
            if !key.down {
                key.rise = (key.rise + h * key.release_rate / s.key_return_s).min(1.0);
            }
            match key.phase {
                Phase::Rest | Phase::Caught => {}
                Phase::Pushed => {
                    let let_off_at = string - s.let_off;
                    let remaining = let_off_at - key.position;
                    let v = key.velocity;
                    // Time to let-off under the push: v·τ + a·τ²/2 = remaining.
                    let tau = (-v + (v * v + 2.0 * key.push * remaining).sqrt()) / key.push;
                    if tau <= h {
                        key.position = let_off_at;
                        key.velocity = v + key.push * tau;
                        key.phase = Phase::Flight;
                        let discriminant = key.velocity * key.velocity - 2.0 * GRAVITY * s.let_off;
                        if discriminant > 0.0 {
                            let speed = discriminant.sqrt();
                            self.emit(t0 + tau, s.let_off(note, speed, key.velocity));
                        }
                        self.keys[index] = key;
                        self.evolve_flight(index, t0 + tau, t1);
                        key = self.keys[index];
                    } else {
                        key.position += v * h + 0.5 * key.push * h * h;
                        key.velocity = v + key.push * h;
                    }
                }
                Phase::Flight => {
                    self.keys[index] = key;
                    self.evolve_flight(index, t0, t1);
                    key = self.keys[index];
                }
                Phase::Falling => {
                    let v = key.velocity - GRAVITY * h;
                    let x = key.position + key.velocity * h - 0.5 * GRAVITY * h * h;
                    if key.down && x <= check {
                        (key.position, key.velocity, key.phase) = (check, 0.0, Phase::Caught);
                    } else if x <= 0.0 {
                        key = Key {
                            phase: Phase::Rest,
                            position: 0.0,
                            velocity: 0.0,
                            ..key
                        };
                    } else {
                        (key.position, key.velocity) = (x, v);
                    }
                }
            }
            // A hammer at rest under a released key returns to its rail.
            if !key.down && key.phase == Phase::Caught {
                key.phase = Phase::Falling;
            }
            let target = self.pedals.damper_target(&key);
            // A damper lands as fast as its key was let up; it lifts at its
            // own pace.
            let falling = target > key.damper;
            let rate = if falling { key.release_rate } else { 1.0 };
            let travel = h * rate / s.damper_travel_s;
            let damper = if key.down && !s.realistic_travel {
                // The fast action skips the key's dip, and with it the damper's
                // rise: it is up by the time the hammer leaves let-off.
                0.0
            } else {
                key.damper + (target - key.damper).clamp(-travel, travel)
            };
            if damper != key.damper {
                key.damper = damper;
                self.emit(
                    t1,
                    ActionEvent::Damper {
                        note,
                        amount: damper,
                    },
                );
            }
            self.keys[index] = key;
        }
    }

    /// Free flight of key `index` from `t0` to `t1`: strikes if it reaches the
    /// string, then rebounds.
    fn evolve_flight(&mut self, index: usize, t0: f64, t1: f64) {
        let s = self.settings;
        let mut key = self.keys[index];
        let gap = s.blow_distance - key.position;
        let v = key.velocity;
        let h = t1 - t0;
        // Reaches the string when v·τ − g·τ²/2 = gap (the earlier root).
        let discriminant = v * v - 2.0 * GRAVITY * gap;
        let tau = if discriminant >= 0.0 {
            (v - discriminant.sqrt()) / GRAVITY
        } else {
            f64::INFINITY
        };
        if tau <= h {
            let speed = v - GRAVITY * tau;
            key.position = s.blow_distance;
            key.velocity = -s.restitution * speed;
            key.phase = Phase::Falling;
            let rest = h - tau;
            key.position += key.velocity * rest - 0.5 * GRAVITY * rest * rest;
            key.velocity -= GRAVITY * rest;
        } else {
            key.position += v * h - 0.5 * GRAVITY * h * h;
            key.velocity = v - GRAVITY * h;
            if key.velocity <= 0.0 {
                // Too slow to reach the string (a silent press): it falls back.
                key.phase = Phase::Falling;
            }
        }
        self.keys[index] = key;
    }
}
