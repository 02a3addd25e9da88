//! Where a piano's microphones stand, and what each of a stereo pair hears
//! of the board and of the strings from its own place.
//!
//! The board is heard through its velocity along the bridge. Rayleigh's
//! integral (Rayleigh, *The Theory of Sound*, vol. 2, 1896, §278) gives the
//! pressure of a baffled plate at a point as
//! `p(t) = (ρ0/2π)·∫ a(x, t − r/c0)/r dS`, `a` the plate's acceleration and
//! `r` the distance from each element to the point. The board is cut into
//! [`BRIDGE_NODES`] strips, one around each bridge node, each of area
//! `S/BRIDGE_NODES` moving with that node's velocity: the bridge is where the
//! board is driven and, ribbed and thick there, what moves most. Each strip
//! is heard with the weight `A/r` after its own time of flight
//! ([`super::BoardHearing`]), the strips under the microphone counting most.
//! Two microphones over different parts of the board hear each mode with
//! their own weights and each partial with its own phase, as a real spaced
//! pair does (Suzuki, "Vibration and sound radiation of a piano
//! soundboard", 1986, measured how the board's field changes from place to
//! place; Chabassier, Chaigne & Joly, "Modeling and simulation of a grand
//! piano", 2013, compute it with the same integral over the whole board).
//!
//! Above the modes' band the modes move as masses, their acceleration
//! follows the bridge force, and the sum tends to the force's own sound:
//! the board as a large plate, `|p| = ρ0·|F|/(2π·r·m'')` for its surface
//! density `m''` (Cremer, Heckl & Petersson, *Structure-Borne Sound*,
//! 2005). Orchard's outputs are in newtons of bridge force heard from
//! [`Placement::board_m`]; a pressure `p` is the force
//! `F = 2π·board_m·m''·p/ρ0`, so a strip's weight is
//! `board_m·m''·A/r` (kg) per m/s² of its acceleration.
//!
//! A strip is not all heard, though. Below the board's coincidence its
//! bending waves are slower than sound, and the regions of a bending wave
//! moving up and down cancel each other's sound: what the board radiates is
//! its net volume acceleration, and a plate pushed by a force `F` has the
//! net acceleration `F/m''` whatever the frequency (Newton's law; hence the
//! large plate's law above). The strip the force pushes moves with the
//! bridge's mean mobility, for the modal board `n/(4·M)` (s/kg; `n` modes
//! per hertz, `M` their modal mass): heard whole, its acceleration over its
//! area `A_s` would be a volume acceleration `ω·n·A_s/(4·M)` times `F`,
//! more than `F/m''` above `ω_c = 4·M/(m''·n·A_s)` (about 530 Hz for the
//! grand's board). Well above that only the share `ω_c/ω` of the strip
//! moves with the bridge for a listener, the rest cancelling, a fall of
//! 6 dB an octave; well below, all of it does; between, as a first-order
//! filter turns ([`in_phase_share`]). Far from the board every strip's
//! sound then sums to the force's own, as above.
//!
//! The strings are heard from each microphone's own distance to each key's
//! strings ([`string_weight`]).

use std::f64::consts::PI;

use super::board_hearing::BoardPaths;
use super::half_order::{HalfOrderSlope, audio_band};
use super::soundboard::{BRIDGE_NODES, SoundboardParams};
use super::string::StringParams;
use super::string_field::{radiation_gain, segment_share, standing_wave_share};
use super::string_radiation::key_weight;
use crate::air::SPEED_OF_SOUND_M_S;

/// Length of the bridge from its bass end to its treble end, m: a concert
/// grand's long bridge with its bass bridge (a chosen value; the keys stand
/// along it evenly).
pub const BRIDGE_LENGTH_M: f64 = 1.5;

/// Area of the board, m² (a chosen value: a concert grand's board is about
/// 1.8 m²).
pub const BOARD_AREA_M2: f64 = 1.8;

/// Area of the board each bridge node's strip stands for, m².
const STRIP_AREA_M2: f64 = BOARD_AREA_M2 / BRIDGE_NODES as f64;

/// The share of a strip's area whose motion is heard at `frequency_hz`
/// (Hz) on `board`, of surface density `surface_density_kg_m2` (kg/m²):
/// `1/√(1 + (ω/ω_c)²)` for the corner `ω_c = 4·M/(m''·n·A_s)`, all of it well
/// below the corner and `ω_c/ω` well above, where a strip heard whole would
/// give more volume acceleration than Newton's law lets the force give the
/// board (see the module's notes); never more than either. With no modes
/// (no mean mobility) or no mass, all of it.
pub fn in_phase_share(
    frequency_hz: f64,
    board: &SoundboardParams,
    surface_density_kg_m2: f64,
) -> f64 {
    let over = 2.0 * PI * frequency_hz / in_phase_corner(board, surface_density_kg_m2);
    if over.is_finite() {
        1.0 / (1.0 + over * over).sqrt()
    } else {
        1.0
    }
}

/// How much of a strip's acceleration the microphones hear at
/// `frequency_hz` (Hz) on `board` of surface density
/// `surface_density_kg_m2` (kg/m²): the [`in_phase_share`] of its area, and
/// above the highest mode the rise that the modes the board's model leaves
/// out would give. There the modelled board moves as a mass, its
/// acceleration no longer rising with frequency, where a real board's
/// modes go on to its coincidence and its bridge's mobility stays about
/// constant, as an infinite plate's: the acceleration a real bridge has
/// grows as the frequency over the highest mode's, `√(1 + (f/f_top)²)`.
/// Well above the highest mode the two cancel, and the board is heard as
/// the force drives it.
pub fn heard_share(frequency_hz: f64, board: &SoundboardParams, surface_density_kg_m2: f64) -> f64 {
    let above_modes = if board.modes > 0 && board.highest_mode_hz > 0.0 {
        (1.0 + (frequency_hz / board.highest_mode_hz).powi(2)).sqrt()
    } else {
        1.0
    };
    in_phase_share(frequency_hz, board, surface_density_kg_m2) * above_modes
}

/// `ω_c = 4·M/(m''·n·A_s)` (rad/s) for `board` of surface density
/// `surface_density_kg_m2` (kg/m²): where a strip moving with the board's
/// mean mobility `n/(4·M)` would give the volume acceleration `F/m''`.
/// Infinite with no modes, mass or density.
fn in_phase_corner(board: &SoundboardParams, surface_density_kg_m2: f64) -> f64 {
    let modes_per_hz = board.modes_per_hz();
    let corner = 4.0 * board.modal_mass_kg / (surface_density_kg_m2 * modes_per_hz * STRIP_AREA_M2);
    if corner.is_finite() && corner > 0.0 {
        corner
    } else {
        f64::INFINITY
    }
}

/// The gain a recordist sets on microphone `microphone`'s preamplifier,
/// relative to the bridge force's (0): each microphone hears the same
/// playing about as loud. The close pair (2), 0.2 m over the board, hears
/// it about 13.5 dB louder than the bridge force is heard: 8.4 dB down,
/// the dense pedalled score of `engine/tests/headroom.rs` then peaks within
/// 1 dB at the bridge and at the pair. A chosen value, as a recordist's is.
pub fn microphone_trim(microphone: u32) -> f64 {
    match microphone {
        2 => CLOSE_PAIR_TRIM,
        _ => 1.0,
    }
}

/// The close pair's preamplifier gain over the bridge force's (−8.4 dB).
const CLOSE_PAIR_TRIM: f64 = 0.38;

/// Where microphone `microphone` hears from: how far it is from the board and
/// from the strings, and where its pair stands along the bridge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// Distance at which the board's force is heard, m: the reference of the
    /// outputs' unit (newtons of bridge force heard from here).
    pub board_m: f64,
    /// Height of the pair above the strings, m.
    pub strings_m: f64,
    /// Height of the pair above the board, m.
    pub above_board_m: f64,
    /// Where the left and right microphones stand along the bridge, 0 (bass
    /// end) to 1 (treble end).
    pub along_bridge: [f64; 2],
    /// Whether the pair is in the board's near field and hears the board by
    /// its motion under and around each microphone ([`Placement::board_paths`]);
    /// if not, the board is heard as the bridge force, as from the bridge.
    pub near_board: bool,
    /// How far the pair is from the keybed under the keys, beside the point
    /// of it straight ahead of each microphone, m.
    pub keybed_m: f64,
}

impl Placement {
    /// Where microphone `microphone` (an index into
    /// [`crate::instrument::MICROPHONES`]) hears from, for the stereo width
    /// `stereo_width` (0 to 1); none for the bridge (0), whose sound is the
    /// bridge force alone. The positions are chosen values:
    ///
    /// - The pianist's seat (1): ears 0.18 m apart at the middle of the
    ///   keyboard, about 0.7 m from the strings under the open lid and 1 m
    ///   from the board. A metre from the board, several of its bending
    ///   wavelengths, the fine pattern of its motion is not heard (its field
    ///   dies within about a wavelength over the board): the board is heard
    ///   as a large plate radiates the force that drives it, the bridge
    ///   force, panned as from the bridge. The keybed is 0.6 m from the
    ///   ears, nearer than the board.
    /// - Close (2): a spaced pair 0.15 m over the strings (0.2 m over the
    ///   board), over the bridge symmetrically about its middle, as far
    ///   apart as the width says: at 0.5 ∓ width/2 of its length from the
    ///   bass end (0 both at the middle, a mono pair; the grand's 0.6 at 0.2
    ///   and 0.8, 0.9 m apart; 1 at its ends). The board, a source of about 1.8 m², is
    ///   heard there as from 0.7 m: near an extended source the pressure
    ///   grows no faster than `1/√(r² + a²)` for its radius `a` (0.7 m).
    ///   One microphone over the bass strings, the other over the treble's,
    ///   as a producer spaces a pair over a grand. Where along the bridge
    ///   matters little: with each strip heard after its own time of
    ///   flight, each pair of places tried (0.1 or 0.2 on the left with 0.7
    ///   to 0.9 on the right, and 0.15 with 0.8) was as decorrelated as the
    ///   recorded pair (0.5 or more at 2 to 4 of 21 keys) and lost as many
    ///   partials in mono (20 to 30 of about 200). The keybed, under the
    ///   keys at the case's front, is about 1 m from each microphone.
    pub fn of_microphone(microphone: u32, stereo_width: f64) -> Option<Self> {
        match microphone {
            1 => Some(Self {
                board_m: 1.0,
                strings_m: 0.7,
                above_board_m: 1.0,
                along_bridge: [0.44, 0.56],
                near_board: false,
                keybed_m: 0.6,
            }),
            2 => Some(Self {
                board_m: 0.7,
                strings_m: 0.15,
                above_board_m: 0.2,
                along_bridge: {
                    let half = 0.5 * stereo_width.clamp(0.0, 1.0);
                    [0.5 - half, 0.5 + half]
                },
                near_board: true,
                keybed_m: 1.0,
            }),
            _ => None,
        }
    }

    /// The distance from microphone `side` (0 left, 1 right) to the point
    /// at `along` (0 to 1) of the bridge line at `height_m` below it, m.
    fn distance(&self, side: usize, along: f64, height_m: f64) -> f64 {
        height_m.hypot(self.lateral(side, along))
    }

    /// The distance from microphone `side` (0 left, 1 right) to where the
    /// key at `along` (0 bass end to 1 treble end of the keyboard, which
    /// spans about the bridge's length) lands on the keybed, m.
    pub fn keybed_distance(&self, side: usize, along: f64) -> f64 {
        self.distance(side, along, self.keybed_m)
    }

    /// How far microphone `side` (0 left, 1 right) stands beside the point
    /// at `along` (0 to 1) of the bridge, along it, m.
    fn lateral(&self, side: usize, along: f64) -> f64 {
        BRIDGE_LENGTH_M * (along - self.along_bridge[side])
    }

    /// How each microphone hears the strip of the board around each bridge
    /// node, left and right: its weight `board_m·m''·A/r` (kg), newtons of
    /// bridge force per m/s² of the strip's acceleration, for a board of
    /// surface density `surface_density_kg_m2` (kg/m²), heard over the
    /// share of its area that [`heard_share`] gives for `board`, and its
    /// delay at `sample_rate` (Hz, [`Placement::delay_samples`]).
    pub fn board_paths(
        &self,
        surface_density_kg_m2: f64,
        board: &SoundboardParams,
        sample_rate: f64,
    ) -> BoardPaths {
        let corner = in_phase_corner(board, surface_density_kg_m2);
        let top = 2.0 * PI * board.highest_mode_hz;
        // A fall from the corner to the highest mode (a rise, should the
        // corner lie above it), flat beyond.
        let mut in_phase = if board.modes > 0 && corner.is_finite() {
            HalfOrderSlope::flat().shelving(corner, top, sample_rate)
        } else {
            HalfOrderSlope::flat()
        };
        in_phase.fit_gain(&audio_band(sample_rate), sample_rate, |f| {
            heard_share(f, board, surface_density_kg_m2)
        });
        let strip = STRIP_AREA_M2;
        let last = (BRIDGE_NODES - 1) as f64;
        let distances_m: [[f64; BRIDGE_NODES]; 2] = std::array::from_fn(|side| {
            std::array::from_fn(|n| self.distance(side, n as f64 / last, self.above_board_m))
        });
        BoardPaths {
            weights: distances_m
                .map(|side| side.map(|r| self.board_m * surface_density_kg_m2 * strip / r)),
            delays: distances_m.map(|side| side.map(|r| self.delay_samples(r, sample_rate))),
            in_phase,
        }
    }

    /// How long sound takes over `distance_m` (m) beyond the nearest place
    /// the pair hears anything from (the strings straight under it, or the
    /// board if it is nearer), samples at `sample_rate` (Hz), rounded: what
    /// every path has in common is left out, so that hearing from the pair
    /// adds almost no latency.
    pub fn delay_samples(&self, distance_m: f64, sample_rate: f64) -> usize {
        let nearest = self.strings_m.min(self.above_board_m);
        ((distance_m - nearest).max(0.0) / SPEED_OF_SOUND_M_S * sample_rate).round() as usize
    }

    /// What each microphone hears of the strings `string` of a key at
    /// `along` (0 to 1 of the bridge), left and right: [`string_weight`].
    pub fn string_weights(
        &self,
        along: f64,
        string: &StringParams,
        surface_density_kg_m2: f64,
    ) -> [f64; 2] {
        std::array::from_fn(|side| {
            string_weight(
                self,
                self.lateral(side, along),
                string,
                surface_density_kg_m2,
            )
        })
    }

    /// How long the sound of the strings at `along` (0 to 1 of the bridge)
    /// takes to each microphone, left and right, samples at `sample_rate`
    /// (Hz) ([`Placement::delay_samples`]).
    pub fn string_delays(&self, along: f64, sample_rate: f64) -> [usize; 2] {
        std::array::from_fn(|side| {
            self.delay_samples(self.distance(side, along, self.strings_m), sample_rate)
        })
    }
}

/// A key's strings `string` as one microphone `lateral_m` (m) beside them
/// (along the bridge) hears them: [`key_weight`] times the line dipole's
/// law at the microphone's distance from them, `|H1(k·r)|/|H1(k·h)|`, and
/// times the share of it that the fundamental of their standing wave gives
/// heard over their end ([`standing_wave_share`]), over the share the
/// radiation filter's law leaves there ([`segment_share`]), all taken at
/// their fundamental (the radiation filter, one per channel, follows the
/// law at the pair's height `h`).
pub fn string_weight(
    placement: &Placement,
    lateral_m: f64,
    string: &StringParams,
    surface_density_kg_m2: f64,
) -> f64 {
    let (near, f0) = (placement.strings_m, string.fundamental_hz);
    let distance = near.hypot(lateral_m);
    let length = string.length_m;
    let share = standing_wave_share(f0, PI / length, length, near, lateral_m);
    key_weight(
        string.wave_speed(),
        surface_density_kg_m2,
        placement.board_m,
    ) * radiation_gain(f0, distance)
        / radiation_gain(f0, near)
        * share
        / segment_share(f0, near)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grand's board: 128 modes from 45 to 1800 Hz.
    fn grand_board() -> SoundboardParams {
        SoundboardParams {
            modes: 128,
            lowest_mode_hz: 45.0,
            highest_mode_hz: 1800.0,
            lowest_mode_t60_s: 1.2,
            modal_mass_kg: 32.0,
            body_gain: 0.6,
            seed: 0,
        }
    }

    /// Each microphone hears the strips under it most, and the others less
    /// the farther they are along the bridge.
    #[test]
    fn the_strips_under_a_microphone_count_most() {
        let close = Placement::of_microphone(2, 0.6).unwrap();
        let weights = close.board_paths(4.7, &grand_board(), 48_000.0).weights;
        for (side, w) in weights.iter().enumerate() {
            let nearest = (0..BRIDGE_NODES)
                .max_by(|&a, &b| w[a].total_cmp(&w[b]))
                .unwrap();
            let place = close.along_bridge[side] * (BRIDGE_NODES - 1) as f64;
            assert!((nearest as f64 - place).abs() <= 0.5, "{side}: {nearest}");
            assert!(w[..=nearest].windows(2).all(|p| p[0] < p[1]));
            assert!(w[nearest..].windows(2).all(|p| p[0] > p[1]));
        }
        assert!(weights[0][0] > weights[1][0]);
        assert!(weights[1][BRIDGE_NODES - 1] > weights[0][BRIDGE_NODES - 1]);
        // Straight under the microphone, at the height over the board, the
        // strip is heard by the plate's law.
        let strip = BOARD_AREA_M2 / BRIDGE_NODES as f64;
        let top = weights[0].iter().fold(0.0f64, |a, &b| a.max(b));
        assert!(top <= close.board_m * 4.7 * strip / close.above_board_m * (1.0 + 1e-12));
    }

    /// A key's strings straight under a microphone are heard with the
    /// weight their standing wave's fundamental gives over their end;
    /// farther ones less.
    #[test]
    fn farther_strings_are_heard_less() {
        let close = Placement::of_microphone(2, 0.6).unwrap();
        let under = close.along_bridge[0];
        let middle_c = StringParams {
            length_m: 0.62,
            mass_kg: 3.93e-3,
            fundamental_hz: 261.6,
            strike_position: 0.12,
            loss_b1: 0.3,
            loss_b2: 2.7e-4,
        };
        let [l, r] = close.string_weights(under, &middle_c, 4.7);
        let h = close.strings_m;
        let share = standing_wave_share(261.6, PI / 0.62, 0.62, h, 0.0);
        let expected =
            key_weight(middle_c.wave_speed(), 4.7, close.board_m) * share / segment_share(261.6, h);
        assert!((l / expected - 1.0).abs() < 1e-12);
        assert!(r < 0.5 * l, "{r} against {l}");
    }

    /// Newton's law: a force `F` gives the board the net acceleration
    /// `F/m''`. The strip it pushes, moving with the board's mean mobility
    /// `n/(4·M)`, is heard over so much of its area that its volume
    /// acceleration is never more than that, and is that well above the
    /// corner (about 530 Hz for the grand's board), where the share falls
    /// 6 dB an octave; well below, the whole strip is heard. A board
    /// without modes has no mean mobility: all of each strip is heard.
    #[test]
    fn a_strip_is_heard_as_far_as_newtons_law_lets_the_force_move_the_board() {
        let board = grand_board();
        let density = 4.7;
        let mobility = board.modes_per_hz() / (4.0 * board.modal_mass_kg);
        let corner_hz = in_phase_corner(&board, density) / (2.0 * PI);
        assert!((520.0..540.0).contains(&corner_hz), "{corner_hz} Hz");
        for f in [20.0, 50.0, 200.0, 1_000.0, 4_000.0, 8_000.0] {
            let share = in_phase_share(f, &board, density);
            let heard = 2.0 * PI * f * mobility * STRIP_AREA_M2 * share;
            assert!(share <= 1.0 && heard <= 1.0 / density, "{f} Hz: {heard}");
            let db = |x: f64| 20.0 * x.log10();
            if f >= 8.0 * corner_hz {
                assert!(db(heard * density).abs() < 0.1, "{f} Hz: {heard}");
                let octave = in_phase_share(2.0 * f, &board, density) / share;
                assert!((db(octave) + 6.02).abs() < 0.05, "{octave}");
            } else if f <= corner_hz / 8.0 {
                assert!(db(share).abs() < 0.1, "{f} Hz: {share}");
            }
        }
        let still = SoundboardParams { modes: 0, ..board };
        assert_eq!(in_phase_share(500.0, &still, density), 1.0);
    }

    /// The filter each microphone hears the board through follows the
    /// share heard within 1.5 dB over the band (one first-order shelf, from
    /// the corner to the highest mode, warped toward Nyquist), at 44.1, 48
    /// and 96 kHz, and well above the highest mode, where the modes left out
    /// would make the bridge's acceleration rise as the share falls, is
    /// flat.
    #[test]
    fn the_board_is_heard_through_its_share() {
        let board = grand_board();
        let close = Placement::of_microphone(2, 0.6).unwrap();
        for fs in [44_100.0, 48_000.0, 96_000.0] {
            let paths = close.board_paths(4.7, &board, fs);
            for f in super::audio_band(fs) {
                let heard = paths.in_phase.response(2.0 * PI * f / fs);
                let db = 20.0 * (heard / heard_share(f, &board, 4.7)).log10();
                assert!(db.abs() < 1.5, "{fs} Hz: {db} dB at {f} Hz");
            }
        }
        let top = board.highest_mode_hz;
        let rise = heard_share(8.0 * top, &board, 4.7) / heard_share(4.0 * top, &board, 4.7);
        assert!((20.0 * rise.log10()).abs() < 0.25, "{rise}");
    }
}
