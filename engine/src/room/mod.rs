//! The room the instrument is heard in: a stereo processor after the voices'
//! bus, so every family has it. The instrument's sound (both channels,
//! summed) reaches the listener's ears off the walls of a shoebox room
//! ([`geometry`]: image sources of first and second order, [`Early`]), then
//! as a dense late reverb ([`Late`]: a feedback delay network) that fades by
//! 60 dB in the room's T60, at the level the room's critical distance gives
//! it. The output is `(1 − mix)·dry + mix·(early + late)`.
//!
//! The reverb is Orchard's own: of the Rust reverb crates (fundsp's
//! `reverb_stereo`, `reverb`'s plate, `basic-reverb`), none promises its T60
//! to a stated accuracy or takes it in seconds for any room, and
//! `basic-reverb` allocates as it processes.
//!
//! Lifecycle: [`Room::new`] allocates every delay line; [`Room::process`],
//! [`Room::retune`] and [`Room::reset`] never allocate, lock or panic.

mod early;
pub mod geometry;
mod late;
mod live;
mod spec;

pub use early::Early;
pub use geometry::{Geometry, REFLECTIONS, Reflection};
pub use late::{LINES, Late};
pub use live::LiveRoom;
pub use spec::RoomSpec;

use crate::air::SPEED_OF_SOUND_M_S;
use crate::signal::{FlushDenormals, SILENCE_LEVEL};

/// Time the dry and the room levels take to glide to a new mix, s: a mix
/// automated, a room switched on or off, new walls, are heard without a
/// click.
pub const LEVEL_GLIDE_S: f64 = 0.02;

/// A room and the dry/room mix, at one sample rate.
///
/// Allocates: its delay lines, in [`Room::new`]; nothing after.
#[derive(Debug, Clone)]
pub struct Room {
    spec: RoomSpec,
    sample_rate: f64,
    early: Early,
    late: Late,
    /// The dry sound's gain now, gliding to `1 − mix` (to 1 once the room no
    /// longer takes the sound in).
    dry_now: f32,
    /// The room's gain now, gliding to `mix` (held once the room no longer
    /// takes the sound in: its tail rings out as it was heard).
    wet_now: f32,
    /// Largest change of either gain per sample.
    glide_step: f32,
    /// Whether the instrument's sound goes into the room; when not, the room
    /// only rings out what it holds.
    feeding: bool,
    /// Samples since the input was last louder than [`SILENCE_LEVEL`].
    quiet_for: u64,
    /// Samples after the input falls silent until the room is: the longest
    /// delay, and two T60s (120 dB).
    rings_for: u64,
}

impl Room {
    /// The room of `spec` at `sample_rate` (Hz).
    pub fn new(spec: &RoomSpec, sample_rate: f64) -> Self {
        let geometry = Geometry::of(spec);
        let crossing_s = geometry.mean_free_path_m() / SPEED_OF_SOUND_M_S;
        let mut room = Self {
            spec: *spec,
            sample_rate,
            early: Early::new(&geometry, spec.absorption, sample_rate),
            late: Late::new(crossing_s, spec.t60_s, 0.0, sample_rate),
            dry_now: (1.0 - spec.mix) as f32,
            wet_now: spec.mix as f32,
            glide_step: (1.0 / (LEVEL_GLIDE_S * sample_rate)) as f32,
            feeding: true,
            quiet_for: u64::MAX,
            rings_for: 0,
        };
        room.retune(spec);
        room
    }

    /// The values it plays with.
    pub fn spec(&self) -> &RoomSpec {
        &self.spec
    }

    /// Takes `spec`'s mix (gliding to it), T60 and absorption, keeping what
    /// rings in it, and takes the sound in again if it had stopped. `spec`
    /// must have the same walls ([`RoomSpec::same_geometry`]); otherwise
    /// nothing changes and it returns false. Allocation-free.
    pub fn retune(&mut self, spec: &RoomSpec) -> bool {
        if !self.spec.same_geometry(spec) {
            return false;
        }
        self.feeding = true;
        let geometry = Geometry::of(spec);
        if spec.absorption != self.spec.absorption {
            self.early
                .retune(&geometry, spec.absorption, self.sample_rate);
        }
        self.late.retune(
            spec.t60_s,
            reverberant_energy(&geometry, spec.t60_s),
            self.sample_rate,
        );
        let longest = self.early.longest_delay() + self.late.lengths().iter().max().unwrap_or(&0);
        self.rings_for = longest as u64 + (2.0 * spec.t60_s * self.sample_rate).ceil() as u64;
        self.spec = *spec;
        true
    }

    /// Whether its reverb may still be heard.
    pub fn is_ringing(&self) -> bool {
        self.quiet_for < self.rings_for
    }

    /// Starts its levels where `previous` (the room it replaces, or none:
    /// the dry sound alone) left the dry sound, and its own at 0; both then
    /// glide to its mix.
    pub fn continue_levels_from(&mut self, previous: Option<&Room>) {
        self.dry_now = previous.map_or(1.0, |room| room.dry_now);
        self.wet_now = 0.0;
    }

    /// Stops taking the sound in: the dry sound glides back to full level
    /// and what rings in the room rings out.
    pub fn stop_feeding(&mut self) {
        self.feeding = false;
    }

    /// The gains the levels glide to: dry and room.
    fn level_targets(&self) -> (f32, f32) {
        if self.feeding {
            let mix = self.spec.mix as f32;
            (1.0 - mix, mix)
        } else {
            (1.0, self.wet_now)
        }
    }

    /// The room's two ears for one sample of `input`.
    fn tick(&mut self, input: f32) -> [f32; 2] {
        self.quiet_for = if f64::from(input.abs()) > SILENCE_LEVEL {
            0
        } else {
            self.quiet_for.saturating_add(1)
        };
        let [early_l, early_r] = self.early.tick(input);
        let [late_l, late_r] = self.late.tick(input);
        [early_l + late_l, early_r + late_r]
    }

    /// Mixes the room into `left` and `right` in place (as many frames as
    /// the shorter has).
    pub fn process(&mut self, left: &mut [f32], right: &mut [f32]) {
        let (dry_target, wet_target) = self.level_targets();
        if !self.feeding && !self.is_ringing() && self.dry_now == dry_target {
            // Rung out, the dry sound back at full level: nothing to add.
            return;
        }
        let _denormals = FlushDenormals::new();
        for (l, r) in left.iter_mut().zip(right.iter_mut()) {
            self.dry_now = glide(self.dry_now, dry_target, self.glide_step);
            self.wet_now = glide(self.wet_now, wet_target, self.glide_step);
            let input = if self.feeding { 0.5 * (*l + *r) } else { 0.0 };
            let [room_l, room_r] = self.tick(input);
            *l = self.dry_now * *l + self.wet_now * room_l;
            *r = self.dry_now * *r + self.wet_now * room_r;
        }
    }

    /// Adds to `left` and `right` what still rings in the room, taking
    /// nothing in: the tail of a room whose walls were replaced.
    pub fn ring_out(&mut self, left: &mut [f32], right: &mut [f32]) {
        if !self.is_ringing() {
            return;
        }
        let _denormals = FlushDenormals::new();
        for (l, r) in left.iter_mut().zip(right.iter_mut()) {
            let [room_l, room_r] = self.tick(0.0);
            *l += self.wet_now * room_l;
            *r += self.wet_now * room_r;
        }
    }

    /// Silence in every delay line; the levels at their targets.
    pub fn reset(&mut self) {
        self.early.reset();
        self.late.reset();
        self.quiet_for = u64::MAX;
        (self.dry_now, self.wet_now) = self.level_targets();
    }
}

/// `now` moved towards `target` by at most `step`.
fn glide(now: f32, target: f32, step: f32) -> f32 {
    if (target - now).abs() <= step {
        target
    } else {
        now + step.copysign(target - now)
    }
}

/// The energy of the late reverb for a unit impulse of direct sound at the
/// listener: `(r/r_c)²`, for the listener `r` metres from the instrument
/// and the critical distance `r_c = 0.057·√(V/T60)` m (Sabine's room, where
/// the direct and the reverberant sound are equally loud).
pub fn reverberant_energy(geometry: &Geometry, t60_s: f64) -> f64 {
    let critical_m = 0.057 * (geometry.volume_m3() / t60_s).sqrt();
    (geometry.listener_distance_m() / critical_m).powi(2)
}
