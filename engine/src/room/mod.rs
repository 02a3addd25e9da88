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

pub use early::Early;
pub use geometry::{Geometry, REFLECTIONS, Reflection, SPEED_OF_SOUND_M_S};
pub use late::{LINES, Late};

use crate::instrument::RoomSpec;
use crate::rt::{FlushDenormals, SILENCE_LEVEL};

/// A room and the dry/room mix, at one sample rate.
///
/// Allocates: its delay lines, in [`Room::new`]; nothing after.
#[derive(Debug, Clone)]
pub struct Room {
    spec: RoomSpec,
    sample_rate: f64,
    early: Early,
    late: Late,
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

    /// Takes `spec`'s mix, T60 and absorption, keeping what rings in it.
    /// `spec` must have the same walls ([`RoomSpec::same_geometry`]);
    /// otherwise nothing changes and it returns false. Allocation-free.
    pub fn retune(&mut self, spec: &RoomSpec) -> bool {
        if !self.spec.same_geometry(spec) {
            return false;
        }
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

    /// Mixes the room into `left` and `right` in place (as many frames as
    /// the shorter has).
    pub fn process(&mut self, left: &mut [f32], right: &mut [f32]) {
        let _denormals = FlushDenormals::new();
        let mix = self.spec.mix as f32;
        for (l, r) in left.iter_mut().zip(right.iter_mut()) {
            let input = 0.5 * (*l + *r);
            self.quiet_for = if f64::from(input.abs()) > SILENCE_LEVEL {
                0
            } else {
                self.quiet_for.saturating_add(1)
            };
            let [early_l, early_r] = self.early.tick(input);
            let [late_l, late_r] = self.late.tick(input);
            *l = (1.0 - mix) * *l + mix * (early_l + late_l);
            *r = (1.0 - mix) * *r + mix * (early_r + late_r);
        }
    }

    /// Silence in every delay line.
    pub fn reset(&mut self) {
        self.early.reset();
        self.late.reset();
        self.quiet_for = u64::MAX;
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
