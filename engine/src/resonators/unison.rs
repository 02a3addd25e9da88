//! The strings of one note, struck together and coupled through the bridge.

use super::dispersion::MAX_DISPERSION_SECTIONS;
use super::longitudinal::{Longitudinal, LongitudinalParams};
use super::loop_lanes::{LANES, Lanes, LoopFilterLanes, LoopFilters};
use super::soundboard::BRIDGE_BLOCK;
use super::stiff_string::MAX_INHARMONICITY;
use super::{StiffString, StringDesignError, StringParams};
#[cfg(target_arch = "x86_64")]
use crate::wdf::fused::Fused;
use crate::wdf::fused::{self, MulAdd, Separate};

/// The most strings one note has (a grand's treble trichords).
pub const MAX_UNISON_STRINGS: usize = 3;

const _: () = assert!(
    MAX_UNISON_STRINGS <= LANES,
    "a note's strings share one vector"
);

/// How one string of a unison departs from the note's nominal string: as
/// a tuner leaves it (a small tuning error), as it was made and mounted
/// (its stiffness and its losses differ by a few per cent from its
/// neighbours'), and as the hammer meets it (a string a little higher than
/// its neighbours, or a felt not quite mated to the three, takes more of
/// the blow).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StringDeviation {
    /// Tuning away from its place in the unison's spread, cents.
    pub cents: f64,
    /// Its inharmonicity over the note's `B` (1: the same).
    pub inharmonicity_factor: f64,
    /// Its losses `b1` and `b2` over the note's (1: the same).
    pub loss_factor: f64,
    /// Its share of the hammer's force over an even one (1: even; the
    /// shares of the struck strings are scaled to sum to the whole force).
    pub contact_factor: f64,
}

impl StringDeviation {
    /// A string exactly as the note's.
    pub const NONE: Self = Self {
        cents: 0.0,
        inharmonicity_factor: 1.0,
        loss_factor: 1.0,
        contact_factor: 1.0,
    };
}

/// The strings' second plane of vibration (Weinreich, "Coupled piano
/// strings", 1977): parallel to the board. The hammer drives the strings
/// across the board; the bridge does not move straight across it but along
/// a direction tilted by `tilt_rad`, so the two planes couple there and the
/// motion along the board, terminated by the bridge's much smaller
/// admittance that way (`sin²` of the tilt of the vertical one), rings on
/// after the vertical motion has given its energy to the board: the
/// aftersound. The in-phase motion of the unison's strings along the board
/// is one waveguide (of their summed impedance): it alone meets the bridge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SecondPlane {
    /// The tilt of the bridge's motion from the board's normal, rad
    /// (0 to π/4).
    pub tilt_rad: f64,
    /// Its tuning away from the strings' nominal tuning, cents: the bridge
    /// gives way with another reactance along the board than across it.
    pub cents: f64,
}

/// Everything needed to build the strings of one note.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnisonParams {
    /// The note's nominal string (each string departs from it by its
    /// [`UnisonParams::deviations`]).
    pub string: StringParams,
    /// Inharmonicity `B` (dimensionless, 0 to 0.1).
    pub inharmonicity: f64,
    /// Number of strings, 1 to [`MAX_UNISON_STRINGS`].
    pub strings: usize,
    /// Spread of the strings' tuning, cents: with three strings they sit at
    /// −d, 0, +d; with two at ±d/2. 0 to 50.
    pub detune_cents: f64,
    /// How each string departs from the nominal one, string `i` at `i`.
    pub deviations: [StringDeviation; MAX_UNISON_STRINGS],
    /// The strings' motion along the board, if it is modelled.
    pub second_plane: Option<SecondPlane>,
    /// The strings' longitudinal vibration and its pull on the bridge, if it
    /// is modelled ([`Longitudinal`]).
    pub longitudinal: Option<LongitudinalParams>,
    /// The bridge's resistive impedance, kg/s, shared by the note's strings;
    /// `f64::INFINITY` makes a rigid bridge (no coupling, no bridge loss).
    pub bridge_impedance_kg_s: f64,
    /// 60 dB decay time of the strings with the damper fully down, s.
    pub damper_t60_s: f64,
    /// Time constant of the damper's travel, s.
    pub damper_travel_s: f64,
    /// The strings' loops are designed for their tuning times this ratio, so
    /// that standing on a bridge that gives way with a phase (the board's
    /// modes) they sound at their tuning, as a tuner leaves them: 1 for a
    /// bridge that is a resistance.
    pub bridge_tuning: f64,
}

impl UnisonParams {
    /// One string, `string` with inharmonicity `inharmonicity`, alone on a
    /// rigid bridge: nothing deviating, no second plane, no longitudinal
    /// vibration, a damper that takes it 60 dB down in 0.25 s and travels in
    /// 6 ms. The string as the papers measure it on a rigid termination.
    pub fn lone_string(string: StringParams, inharmonicity: f64) -> Self {
        Self {
            string,
            inharmonicity,
            strings: 1,
            detune_cents: 0.0,
            deviations: [StringDeviation::NONE; MAX_UNISON_STRINGS],
            second_plane: None,
            longitudinal: None,
            bridge_impedance_kg_s: f64::INFINITY,
            damper_t60_s: 0.25,
            damper_travel_s: 0.006,
            bridge_tuning: 1.0,
        }
    }
}

/// A damper pressing on all strings of a note by a continuous amount.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Damper {
    /// Round-trip gain with the damper fully down.
    engaged_gain: f64,
    /// Per-sample smoothing factor of the damper's travel.
    travel: f64,
    /// Round-trip gain now applied, moving towards `target`.
    gain: f64,
    target: f64,
}

/// How close (in round-trip gain) a travelling damper must come to where it
/// is heading to be taken as there.
const DAMPER_SETTLED: f64 = 1e-13;

impl Damper {
    /// The round-trip gain at each of the next `gains.len()` samples, moving
    /// on by as many: an exponential approach to the target, one
    /// multiply-add a sample, that ends on it exactly (so that a damper at
    /// rest costs nothing).
    #[inline(always)]
    fn travel(&mut self, gains: &mut [f64]) {
        if self.gain == self.target {
            return;
        }
        let (stay, pull) = (1.0 - self.travel, self.travel * self.target);
        for g in gains.iter_mut() {
            self.gain = stay * self.gain + pull;
            if (self.gain - self.target).abs() < DAMPER_SETTLED {
                self.gain = self.target;
            }
            *g = self.gain;
        }
    }

    /// How far down (0 to 1) a damper must press for the round-trip gain `gain`.
    fn amount_for(&self, gain: f64) -> f64 {
        let full = self.engaged_gain.ln();
        if full < 0.0 {
            (gain.ln() / full).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    /// Takes over where `old` (the damper of another build of the same note)
    /// presses and where it is heading, as amounts: with another damped decay
    /// or another pitch the gains follow from this damper's full gain; with the
    /// same they are copied exactly.
    fn continue_from(&mut self, old: &Damper) {
        if self.engaged_gain == old.engaged_gain {
            (self.gain, self.target) = (old.gain, old.target);
        } else {
            self.gain = self.engaged_gain.powf(old.amount_for(old.gain));
            self.target = self.engaged_gain.powf(old.amount_for(old.target));
        }
    }
}

/// How the bridge under a note answers the strings' pushes in both planes
/// ([`SecondPlane`]). It moves along `e = (cos θ, sin θ)` (across, along the
/// board) at its local admittance `r`, and with the board's own velocity `u`
/// across: with the pushes `A = Σ 2·Zᵢ·aᵢ` across and `A_h = 2·Z_h·a_h`
/// along, the strings' forces `F = A − Z·v` and `F_h = A_h − Z_h·h`, and
/// `w = r·(cos θ·F + sin θ·F_h)`, `v = cos θ·w + u`, `h = sin θ·w`:
///
/// ```text
/// w = r·(cos θ·A + sin θ·A_h − cos θ·Z·u) / (1 + r·(cos²θ·Z + sin²θ·Z_h))
/// ```
///
/// The admittance `r·e·eᵀ` is positive semidefinite: the bridge only takes
/// energy, whatever the planes do.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PlaneCoupling {
    /// `v` from `(A, A_h, u)`.
    across: [f64; 3],
    /// `h` from `(A, A_h, u)`.
    along: [f64; 3],
    /// `Z_h`: the strings' summed impedance, moving together along the
    /// board, kg/s.
    along_impedance: f64,
}

impl PlaneCoupling {
    /// The coupling of strings of summed impedance `impedance` (kg/s, the
    /// same along the board) on a bridge of local admittance `admittance`
    /// (s/kg) moving at `tilt` (rad) from the board's normal.
    fn new(admittance: f64, impedance: f64, tilt: f64) -> Self {
        let (s, c) = tilt.sin_cos();
        let r = admittance;
        // With `Z_h = Z`, `cos²θ·Z + sin²θ·Z_h = Z` whatever the tilt.
        let scale = r / (1.0 + r * impedance);
        // w = scale·(c·A + s·A_h − c·Z·u)
        let w = [c * scale, s * scale, -c * impedance * scale];
        Self {
            across: [c * w[0], c * w[1], c * w[2] + 1.0],
            along: [s * w[0], s * w[1], s * w[2]],
            along_impedance: impedance,
        }
    }

    /// The bridge's velocity across the board, m/s.
    #[inline(always)]
    fn across(&self, push: f64, push_along: f64, board_velocity: f64) -> f64 {
        let [a, b, c] = self.across;
        a * push + b * push_along + c * board_velocity
    }

    /// The bridge's velocity along the board, m/s.
    #[inline(always)]
    fn along(&self, push: f64, push_along: f64, board_velocity: f64) -> f64 {
        let [a, b, c] = self.along;
        a * push + b * push_along + c * board_velocity
    }
}

/// One to three stiff strings sharing a strike point and a bridge.
///
/// The bridge is a resistance `Zb` (kg/s) on which the strings' bridge ends rest:
/// with waves `wᵢ` arriving on strings of impedance `Zᵢ`, the bridge moves at
/// `v_b = 2·Σ Zᵢ·wᵢ / (Zb + Σ Zᵢ)` and each string gets back `v_b − wᵢ`. The
/// in-phase motion of the strings moves the bridge and loses energy to it; the
/// out-of-phase motion does not. Detuned strings struck in phase pass from the
/// first to the second: beating and a two-stage decay.
///
/// The hammer sees the struck strings as one port: the felt shares its force among
/// them, string `i` taking `Fᵢ = sᵢ·F` with the shares `sᵢ` summing to 1: in
/// proportion to their impedances, `sᵢ = Zᵢ·cᵢ/Σ Z·c`, times each string's
/// contact factor `cᵢ` ([`StringDeviation::contact_factor`]; 1 for a felt
/// that meets every string alike). The port's velocity is the shares'
/// mean of the strings', `v = Σ sᵢ·vᵢ = v_free + F·Σ sᵢ²/(2·Zᵢ)`: a resistance
/// `Σ sᵢ²/(2·Zᵢ)` (s/kg; `1/Σ 2·Zᵢ` for even contact) and a free velocity
/// that is the shares' mean of the strings'. The power `F·v` it takes is
/// exactly what the strings receive, `Σ Fᵢ·vᵢ`, whatever the shares: an
/// uneven blow puts part of it into the strings' out-of-phase motion, which
/// the bridge does not drain (the aftersound; Weinreich 1977).
///
/// The strings' lumped loop filters run side by side, one vector lane per string,
/// with fused multiply-adds on processors that have them (results then differ
/// from separate multiplies and adds by rounding only).
///
/// Allocates: the strings' delay lines, in [`Unison::new`]; nothing after.
#[derive(Debug, Clone)]
pub struct Unison {
    /// The strings across the board, then (if modelled) the unison's motion
    /// along it, [`Unison::along`].
    strings: Box<[StiffString]>,
    /// How many strings the note has (the waveguides across the board).
    across: usize,
    /// The lane of the motion along the board, if it is modelled.
    along: Option<usize>,
    /// How the bridge's answer reaches both planes ([`PlaneCoupling`]).
    planes: PlaneCoupling,
    /// The strings' dispersion, fractional-delay and loss filters, lane `i` for
    /// string `i`.
    filters: LoopFilterLanes,
    /// Whether to run the compilation with FMA and AVX2.
    fused: bool,
    /// `2·Zᵢ` of each string, kg/s (0 in lanes without a string).
    two_z: Lanes,
    /// Which strings the hammer strikes.
    struck: [bool; MAX_UNISON_STRINGS],
    /// Each string's contact factor ([`StringDeviation::contact_factor`]).
    contact_factors: Lanes,
    /// The contact point's resistance, `Σ sᵢ²/(2·Zᵢ)` over the struck
    /// strings, s/kg.
    contact_resistance: f64,
    /// The strings' longitudinal vibration, if modelled: its pushes join
    /// the transverse waves' ([`Unison::arrive_block`]).
    longitudinal: Option<Box<Longitudinal>>,
    /// The string whose stretch stands for the struck strings' (the first
    /// struck), and how many they are.
    stretched: (usize, f64),
    /// Share `sᵢ` of the hammer's force each string takes if struck, else 0.
    force_share: Lanes,
    /// Velocity wave launched per newton on each string: `sᵢ/(2·Zᵢ)` (s/kg)
    /// if struck, else 0.
    launch_per_newton: Lanes,
    /// The local bridge's admittance `r = 1/Zb`, s/kg (0 for a rigid bridge).
    bridge_admittance: f64,
    /// `1/(1 + r·Σ Zᵢ)`, with `Σ Zᵢ` over all the strings.
    bridge_share: f64,
    /// `Σ Zᵢ` over all the strings, kg/s.
    impedance_sum: f64,
    /// See [`Unison::lookahead`]: while a hammer may push, and while none does.
    lookahead: usize,
    lookahead_untouched: usize,
    /// The waves that reach the bridge this sample and the next ones, past
    /// the loop filters and the damper ([`Unison::arrive_block`]), m/s.
    arriving: [Lanes; BRIDGE_BLOCK],
    /// How hard they push on the bridge, `A = Σ 2·Zᵢ·aᵢ`, N.
    pushes: [f64; BRIDGE_BLOCK],
    /// The strings' longitudinal pull on the bridge, N (0 without it).
    pulls: [f64; BRIDGE_BLOCK],
    /// `A` and the pull together: what reaches the board, N.
    board_pushes: [f64; BRIDGE_BLOCK],
    /// Whether the last [`Unison::arrive_block`] pulled (else the board
    /// gets `pushes` alone).
    pulling: bool,
    /// How hard the motion along the board pushes on the bridge that way,
    /// `A_h = 2·Z_h·a_h`, N (0 without it).
    pushes_along: [f64; BRIDGE_BLOCK],
    damper: Damper,
    period_samples: f64,
}

impl Unison {
    /// Builds the note's strings at `sample_rate` (Hz).
    ///
    /// Allocates: the strings and their delay lines.
    pub fn new(params: &UnisonParams, sample_rate: f64) -> Result<Self, StringDesignError> {
        if !(1..=MAX_UNISON_STRINGS).contains(&params.strings) {
            return Err(StringDesignError::InvalidParameter("number of strings"));
        }
        if !(params.detune_cents.is_finite() && (0.0..=50.0).contains(&params.detune_cents)) {
            return Err(StringDesignError::InvalidParameter("detune"));
        }
        let zb = params.bridge_impedance_kg_s;
        if zb.is_nan() || zb <= 0.0 {
            return Err(StringDesignError::InvalidParameter("bridge impedance"));
        }
        for (value, name) in [
            (params.damper_t60_s, "damper T60"),
            (params.damper_travel_s, "damper travel time"),
            (params.bridge_tuning, "tuning on the bridge"),
        ] {
            if !(value.is_finite() && value > 0.0) {
                return Err(StringDesignError::InvalidParameter(name));
            }
        }
        let n = params.strings;
        let plane = match params.second_plane {
            Some(plane) if plane.tilt_rad > 0.0 => Some(plane),
            _ => None,
        };
        if let Some(plane) = plane
            && !(plane.tilt_rad <= std::f64::consts::FRAC_PI_4 && plane.cents.abs() <= 50.0)
        {
            return Err(StringDesignError::InvalidParameter("second plane"));
        }
        for deviation in &params.deviations[..n] {
            let valid = deviation.cents.abs() <= 50.0
                && (0.5..=2.0).contains(&deviation.inharmonicity_factor)
                && (0.5..=2.0).contains(&deviation.loss_factor)
                && (0.5..=2.0).contains(&deviation.contact_factor);
            if !valid {
                return Err(StringDesignError::InvalidParameter("string deviation"));
            }
        }
        let build = |most_sections: usize| -> Result<Vec<StiffString>, StringDesignError> {
            let across = (0..n).map(|i| {
                let deviation = params.deviations[i];
                // −d, 0, +d for three strings, ±d/2 for two, 0 for one.
                let offset = params.detune_cents * (i as f64 - 0.5 * (n - 1) as f64);
                let f1 = params.string.fundamental_hz
                    * 2f64.powf((offset + deviation.cents) / 1200.0)
                    * params.bridge_tuning;
                let string = StringParams {
                    loss_b1: params.string.loss_b1 * deviation.loss_factor,
                    loss_b2: params.string.loss_b2 * deviation.loss_factor,
                    ..params.string
                };
                // A note at the stiffest a string may be has no stiffer
                // strings (a note beyond it, or NaN, is refused below).
                let inharmonicity = params.inharmonicity * deviation.inharmonicity_factor;
                let inharmonicity = if params.inharmonicity <= MAX_INHARMONICITY {
                    inharmonicity.min(MAX_INHARMONICITY)
                } else {
                    inharmonicity
                };
                StiffString::with_most_sections(
                    &string,
                    inharmonicity,
                    f1,
                    sample_rate,
                    most_sections,
                )
            });
            // Along the board the bridge hardly gives way: that plane is
            // tuned as the strings are, without the board's correction.
            let along = plane.map(|plane| {
                StiffString::with_most_sections(
                    &params.string,
                    params.inharmonicity,
                    params.string.fundamental_hz * 2f64.powf(plane.cents / 1200.0),
                    sample_rate,
                    most_sections,
                )
            });
            across.chain(along).collect()
        };
        // The strings run their dispersion side by side, so they share the
        // number of sections: the fewest any of them takes (the strings
        // differ by a few per cent at most, so that costs them next to
        // nothing).
        let mut strings = build(MAX_DISPERSION_SECTIONS)?;
        loop {
            let sections = |s: &StiffString| s.dispersion().sections;
            let fewest = strings.iter().map(sections).min().unwrap_or(0);
            if strings.iter().all(|s| sections(s) == fewest) {
                break;
            }
            strings = build(fewest)?;
        }
        let mut two_z = [0.0; LANES];
        for (z, s) in two_z.iter_mut().zip(&strings[..n]) {
            *z = 2.0 * s.impedance();
        }
        let sum_z = 0.5 * two_z.iter().sum::<f64>();
        let bridge_admittance = 1.0 / params.bridge_impedance_kg_s;
        let planes = PlaneCoupling::new(
            bridge_admittance,
            sum_z,
            plane.map_or(0.0, |plane| plane.tilt_rad),
        );
        let engaged_gain = 10f64.powf(-3.0 / (params.damper_t60_s * params.string.fundamental_hz));
        let filters: Vec<LoopFilters> = strings.iter().map(StiffString::loop_filters).collect();
        let least = |of: fn(&StiffString) -> usize| {
            strings.iter().map(of).min().unwrap_or(1).min(BRIDGE_BLOCK)
        };
        let (lookahead, lookahead_untouched) = (
            least(StiffString::lookahead),
            least(StiffString::lookahead_untouched),
        );
        let longitudinal = params.longitudinal.and_then(|longitudinal| {
            Longitudinal::new(
                &longitudinal,
                &strings[0],
                params.string.length_m,
                params.string.linear_density(),
                params.string.tension(),
                params.inharmonicity,
                sample_rate,
            )
        });
        let mut unison = Self {
            longitudinal: longitudinal.map(Box::new),
            stretched: (0, 1.0),
            strings: strings.into_boxed_slice(),
            across: n,
            along: plane.map(|_| n),
            planes,
            filters: LoopFilterLanes::new(&filters),
            fused: fused::available(),
            two_z,
            struck: [false; MAX_UNISON_STRINGS],
            contact_factors: {
                let mut factors = [0.0; LANES];
                for (f, d) in factors.iter_mut().zip(&params.deviations[..n]) {
                    *f = d.contact_factor;
                }
                factors
            },
            contact_resistance: 0.0,
            force_share: [0.0; LANES],
            launch_per_newton: [0.0; LANES],
            bridge_admittance,
            bridge_share: 1.0 / (1.0 + bridge_admittance * sum_z),
            impedance_sum: sum_z,
            lookahead,
            lookahead_untouched,
            arriving: [[0.0; LANES]; BRIDGE_BLOCK],
            pushes: [0.0; BRIDGE_BLOCK],
            pulls: [0.0; BRIDGE_BLOCK],
            board_pushes: [0.0; BRIDGE_BLOCK],
            pulling: false,
            pushes_along: [0.0; BRIDGE_BLOCK],
            damper: Damper {
                engaged_gain,
                travel: 1.0 - (-1.0 / (params.damper_travel_s * sample_rate)).exp(),
                gain: 1.0,
                target: 1.0,
            },
            period_samples: sample_rate / params.string.fundamental_hz,
        };
        unison.set_struck_strings(u8::MAX);
        Ok(unison)
    }

    /// The strings' longitudinal vibration, if it is modelled.
    pub fn longitudinal(&self) -> Option<&Longitudinal> {
        self.longitudinal.as_deref()
    }

    /// Number of strings.
    pub fn len(&self) -> usize {
        self.across
    }

    /// Always false: a note has at least one string.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// String `i` (its motion across the board), if the note has it.
    pub fn string(&self, i: usize) -> Option<&StiffString> {
        self.strings[..self.across].get(i)
    }

    /// The period of the (untuned) fundamental, samples.
    pub fn period_samples(&self) -> f64 {
        self.period_samples
    }

    /// Chooses which strings the hammer strikes: bit `i` of `mask` for string `i`
    /// (una corda shifts the hammer to strike fewer). A mask selecting no existing
    /// string selects them all.
    pub fn set_struck_strings(&mut self, mask: u8) {
        let count = self.across;
        let mut any = false;
        for i in 0..MAX_UNISON_STRINGS {
            self.struck[i] = i < count && mask & (1 << i) != 0;
            any |= self.struck[i];
        }
        if !any {
            for i in 0..MAX_UNISON_STRINGS {
                self.struck[i] = i < count;
            }
        }
        let weighted: f64 = (0..count)
            .filter(|&i| self.struck[i])
            .map(|i| self.two_z[i] * self.contact_factors[i])
            .sum();
        self.stretched = (
            (0..count).find(|&i| self.struck[i]).unwrap_or(0),
            (0..count).filter(|&i| self.struck[i]).count() as f64,
        );
        self.force_share = [0.0; LANES];
        self.launch_per_newton = [0.0; LANES];
        // Σ sᵢ²/(2·Zᵢ) = Σ 2·Zᵢ·cᵢ² / (Σ 2·Z·c)², written so that even
        // contact gives exactly 1/Σ 2·Zᵢ.
        let mut squares = 0.0;
        for i in 0..MAX_UNISON_STRINGS {
            if self.struck[i] {
                let factor = self.contact_factors[i];
                self.force_share[i] = self.two_z[i] * factor / weighted;
                self.launch_per_newton[i] = factor / weighted;
                squares += self.two_z[i] * factor * factor;
            }
        }
        self.contact_resistance = squares / weighted / weighted;
    }

    /// The strings the hammer strikes: bit `i` for string `i`.
    fn struck_mask(&self) -> u8 {
        (0..MAX_UNISON_STRINGS)
            .filter(|&i| self.struck[i])
            .fold(0, |mask, i| mask | 1 << i)
    }

    /// Carries on the motion of `old`, the same note's strings built with other
    /// values (a note with as many strings): the waves on every string and in
    /// its loop filters, and [`Unison::continue_controls_from`]. Everything
    /// else (tuning, losses, bridge, dispersion) is this unison's.
    ///
    /// Allocates nothing; costs a few operations per sample of delay.
    pub fn continue_from(&mut self, old: &Unison) {
        for (string, old_string) in self.strings.iter_mut().zip(old.strings.iter()) {
            string.continue_from(old_string);
        }
        self.filters.continue_from(&old.filters);
        if let (Some(new), Some(old)) = (self.longitudinal.as_mut(), old.longitudinal.as_ref()) {
            new.continue_from(old);
        }
        self.continue_controls_from(old);
    }

    /// Takes over what the player sets on `old` (the same note's strings
    /// built with other values), the waves aside: the damper's position and
    /// travel, and the struck strings. For strings at rest, that is all
    /// there is to carry over.
    ///
    /// Allocates nothing.
    pub fn continue_controls_from(&mut self, old: &Unison) {
        self.damper.continue_from(&old.damper);
        self.set_struck_strings(old.struck_mask());
    }

    /// Resistance the contact point presents to the hammer's series tree, s/kg:
    /// `Σ sᵢ²/(2·Zᵢ)` over the struck strings, their shares `sᵢ` of the force
    /// (for even contact the strings in parallel, `1/Σ 2·Zᵢ`).
    pub fn contact_resistance(&self) -> f64 {
        self.contact_resistance
    }

    /// Velocity (m/s) the contact point would have this sample with no force on it:
    /// the mean over the struck strings weighted by their shares of the force.
    #[inline]
    pub fn free_velocity(&self) -> f64 {
        self.strings
            .iter()
            .zip(&self.force_share)
            .map(|(s, &share)| share * s.free_velocity())
            .sum()
    }

    /// Applies `force` (N) at the contact point, shared among the struck strings in
    /// proportion to their impedances, and advances every string one sample on
    /// its own bridge (the local resistance alone, no board). Returns the force
    /// on the bridge, N.
    #[inline]
    pub fn step(&mut self, force: f64) -> f64 {
        self.arrive_block(1);
        self.depart(0, 0.0, force)
    }

    /// How many samples ahead the waves reaching the bridge are known while
    /// a hammer may push on the strings: the most [`Unison::arrive_block`]
    /// may compute at once then (at least 1, at most [`BRIDGE_BLOCK`]).
    pub fn lookahead(&self) -> usize {
        self.lookahead
    }

    /// How many samples ahead the waves reaching the bridge are known while
    /// nothing touches the strings (only the bridge sends waves into them):
    /// the most [`Unison::arrive_block`] may compute at once then (at least
    /// [`Unison::lookahead`], at most [`BRIDGE_BLOCK`]).
    pub fn lookahead_untouched(&self) -> usize {
        self.lookahead_untouched
    }

    /// The first half of the next `samples` samples (at most
    /// [`Unison::lookahead`], or [`Unison::lookahead_untouched`] if no hammer
    /// pushes meanwhile): the waves reaching the bridge, already on their
    /// way, pass every string's loop filters at once and the damper. How
    /// hard they push on the bridge each sample, `A = Σ 2·Zᵢ·aᵢ` (N, the
    /// force they would put on a bridge that did not move), is then
    /// [`Unison::board_pushes`] with the strings' longitudinal pull if
    /// modelled (which reaches the board, but does not move the strings' own
    /// bridge under them: see [`Longitudinal`]) and
    /// [`Unison::transverse_pushes`] without it. Sample `i` is finished by
    /// [`Unison::depart`] with offset `i`, or all of them by
    /// [`Unison::depart_block`].
    #[inline]
    pub fn arrive_block(&mut self, samples: usize) {
        #[cfg(target_arch = "x86_64")]
        if self.fused {
            // SAFETY: `fused` is set only when FMA and AVX2 were detected.
            unsafe { self.arrive_block_fused(samples) };
        } else {
            self.arrive_block_with::<Separate>(samples);
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.arrive_block_with::<Separate>(samples);
        match self.longitudinal.as_deref() {
            Some(longitudinal) if !longitudinal.is_silent() => {
                for (j, ((pull, board), &push)) in (self.pulls.iter_mut())
                    .zip(&mut self.board_pushes)
                    .zip(&self.pushes[..samples])
                    .enumerate()
                {
                    *pull = longitudinal.push_ahead(j);
                    *board = push + *pull;
                }
                self.pulling = true;
            }
            _ => {
                self.pulls[..samples].fill(0.0);
                self.pulling = false;
            }
        }
    }

    /// How hard the strings push on the board at the first `samples` samples
    /// of the last [`Unison::arrive_block`], with their longitudinal pull, N.
    #[inline]
    pub fn board_pushes(&self, samples: usize) -> &[f64] {
        if self.pulling {
            &self.board_pushes[..samples]
        } else {
            &self.pushes[..samples]
        }
    }

    /// How hard the strings' motion across the board pushes on the bridge
    /// at the first `samples` samples of the last [`Unison::arrive_block`],
    /// `A` without the longitudinal pull, N: what the strings' own sound
    /// follows (a string's motion along itself radiates next to nothing:
    /// the pull is heard through the board).
    #[inline]
    pub fn transverse_pushes(&self, samples: usize) -> &[f64] {
        &self.pushes[..samples]
    }

    /// [`Unison::arrive_block`] compiled with FMA and AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn arrive_block_fused(&mut self, samples: usize) {
        self.arrive_block_with::<Fused>(samples);
    }

    #[inline(always)]
    fn arrive_block_with<M: MulAdd>(&mut self, samples: usize) {
        debug_assert!(samples <= self.lookahead_untouched());
        let block = &mut self.arriving[..samples];
        if let [waves] = block {
            // One sample: its vector built whole, so that the filters read
            // back what was written in one piece.
            *waves = std::array::from_fn(|lane| {
                self.strings
                    .get(lane)
                    .map_or(0.0, StiffString::bridge_input)
            });
        } else {
            for lane in 0..LANES {
                match self.strings.get(lane) {
                    Some(string) => {
                        string.bridge_inputs_ahead(samples, |j, wave| block[j][lane] = wave)
                    }
                    None => block.iter_mut().for_each(|waves| waves[lane] = 0.0),
                }
            }
        }
        self.filters.process_block::<M>(block);
        let mut gains = [self.damper.gain; BRIDGE_BLOCK];
        self.damper.travel(&mut gains[..samples]);
        for ((waves, push), &gain) in block.iter_mut().zip(&mut self.pushes).zip(&gains) {
            let mut pushed = [0.0; LANES];
            for ((wave, p), &two_z) in waves.iter_mut().zip(&mut pushed).zip(&self.two_z) {
                *wave *= gain;
                *p = two_z * *wave;
            }
            // A tree over the four lanes, not a chain.
            const _: () = assert!(LANES == 4, "a sum of four");
            *push = (pushed[0] + pushed[1]) + (pushed[2] + pushed[3]);
        }
        if let Some(lane) = self.along {
            let two_z = 2.0 * self.planes.along_impedance;
            for (waves, push) in block.iter().zip(&mut self.pushes_along) {
                *push = two_z * waves[lane];
            }
        }
    }

    /// Asks the processor to bring the strings' waves the next block reads
    /// and writes into its nearest cache: a hint, nothing changes.
    #[inline]
    pub fn prefetch(&self) {
        for string in self.strings.iter() {
            string.prefetch();
        }
    }

    /// The velocity (m/s) of the bridge under the strings at sample `offset`
    /// of the last [`Unison::arrive_block`], when the board beneath moves at
    /// `board_velocity` (m/s): `v = (r·A + u)/(1 + r·Σ Zᵢ)`.
    #[inline]
    fn bridge_velocity(&self, offset: usize, board_velocity: f64) -> f64 {
        match self.along {
            None => {
                (self.bridge_admittance * self.pushes[offset] + board_velocity) * self.bridge_share
            }
            Some(_) => self.planes.across(
                self.pushes[offset],
                self.pushes_along[offset],
                board_velocity,
            ),
        }
    }

    /// The velocity (m/s) of the bridge along the board at sample `offset`
    /// of the last [`Unison::arrive_block`] (see [`PlaneCoupling`]).
    #[inline]
    fn bridge_velocity_along(&self, offset: usize, board_velocity: f64) -> f64 {
        self.planes.along(
            self.pushes[offset],
            self.pushes_along[offset],
            board_velocity,
        )
    }

    /// The strings' force on the bridge at sample `offset` when it moves at
    /// `bridge_velocity`: `Σ Zᵢ·(2aᵢ − v) = A − Σ Zᵢ·v`, and their
    /// longitudinal pull, N.
    #[inline]
    fn bridge_force(&self, offset: usize, bridge_velocity: f64) -> f64 {
        self.pushes[offset] - self.impedance_sum * bridge_velocity + self.pulls[offset]
    }

    /// The second half of sample `offset` of the last
    /// [`Unison::arrive_block`]: the board under the strings moves at
    /// `board_velocity` (m/s), the bridge answers through its local
    /// resistance, each string gets back `v − aᵢ`, the hammer's `force` (N)
    /// is shared among the struck strings, and every string moves on. Returns
    /// the strings' force on the bridge, N.
    #[inline]
    pub fn depart(&mut self, offset: usize, board_velocity: f64, force: f64) -> f64 {
        let velocity = self.bridge_velocity(offset, board_velocity);
        // The bridge's velocity as each lane's string meets it.
        let mut bridge = [velocity; LANES];
        if let Some(lane) = self.along {
            bridge[lane] = self.bridge_velocity_along(offset, board_velocity);
        }
        let arriving = &self.arriving[offset];
        for (((s, &arriving), &launch), &bridge) in self
            .strings
            .iter_mut()
            .zip(arriving)
            .zip(&self.launch_per_newton)
            .zip(&bridge)
        {
            s.advance(launch * force, bridge - arriving);
        }
        if let Some(longitudinal) = self.longitudinal.as_deref_mut() {
            let hammer_on = force != 0.0;
            if hammer_on {
                longitudinal.struck();
            }
            let (lane, strings) = self.stretched;
            longitudinal.follow(1, &self.strings[lane], strings, hammer_on);
        }
        self.bridge_force(offset, velocity)
    }

    /// [`Unison::depart`] for every sample of the last
    /// [`Unison::arrive_block`] at once, with no hammer on the strings: the
    /// board moves at `board_velocities` (m/s, one per sample), and the
    /// strings' force on the bridge is written to `forces` (N).
    #[inline]
    pub fn depart_block(&mut self, board_velocities: &[f64], forces: &mut [f64]) {
        let samples = board_velocities.len();
        let mut velocities = [0.0; BRIDGE_BLOCK];
        for (offset, ((v, &u), force)) in velocities
            .iter_mut()
            .zip(board_velocities)
            .zip(forces.iter_mut())
            .enumerate()
        {
            *v = self.bridge_velocity(offset, u);
            *force = self.bridge_force(offset, *v);
        }
        let mut along = [0.0; BRIDGE_BLOCK];
        if self.along.is_some() {
            for (offset, (h, &u)) in along.iter_mut().zip(board_velocities).enumerate() {
                *h = self.bridge_velocity_along(offset, u);
            }
        }
        let arriving = &self.arriving;
        let reflected = |lane: usize, j: usize| {
            let bridge = if Some(lane) == self.along {
                &along
            } else {
                &velocities
            };
            bridge[j] - arriving[j][lane]
        };
        match self.longitudinal.as_deref_mut() {
            // The string whose stretch is read moves on as far as the
            // stretch's next integral at a time, the others at once.
            Some(longitudinal) if longitudinal.is_live() => {
                let (stretched, strings) = self.stretched;
                for (lane, string) in self.strings.iter_mut().enumerate() {
                    if lane != stretched {
                        string.advance_block_unforced(samples, |j| reflected(lane, j));
                    }
                }
                let string = &mut self.strings[stretched];
                let mut done = 0;
                while done < samples {
                    let run = longitudinal.until_integral().min(samples - done);
                    string.advance_block_unforced(run, |j| reflected(stretched, done + j));
                    longitudinal.follow(run, string, strings, false);
                    done += run;
                }
            }
            longitudinal => {
                for (lane, string) in self.strings.iter_mut().enumerate() {
                    string.advance_block_unforced(samples, |j| reflected(lane, j));
                }
                if let Some(longitudinal) = longitudinal {
                    longitudinal.pass(samples);
                }
            }
        }
    }

    /// Puts the damper at `amount` (0 lifted to 1 down) at once, with no
    /// travel: where it rests when the instrument is built or silenced.
    pub fn rest_damper(&mut self, amount: f64) {
        self.set_damper(amount);
        self.damper.gain = self.damper.target;
    }

    /// Whether the damper touches the strings: it presses at all, or is on
    /// its way down (a damper lifting is free once it is sent up).
    pub fn damper_touches(&self) -> bool {
        self.damper.target < 1.0
    }

    /// Sets how hard the damper presses, from 0 (lifted) to 1 (fully down); values
    /// in between give proportionally slower decay (half-pedalling). Out-of-range
    /// and non-finite amounts are clamped (NaN lifts the damper).
    pub fn set_damper(&mut self, amount: f64) {
        let amount = if amount.is_nan() {
            0.0
        } else {
            amount.clamp(0.0, 1.0)
        };
        self.damper.target = self.damper.engaged_gain.powf(amount);
    }

    /// Brings the strings to rest, the damper left as it is.
    pub fn reset_waves(&mut self) {
        for s in self.strings.iter_mut() {
            s.reset();
        }
        self.filters.reset();
        if let Some(longitudinal) = self.longitudinal.as_mut() {
            longitudinal.reset();
        }
        self.arriving = [[0.0; LANES]; BRIDGE_BLOCK];
        self.pushes = [0.0; BRIDGE_BLOCK];
        self.pulls = [0.0; BRIDGE_BLOCK];
        self.board_pushes = [0.0; BRIDGE_BLOCK];
        self.pulling = false;
        self.pushes_along = [0.0; BRIDGE_BLOCK];
    }

    /// The largest travelling-wave velocity on any string, m/s.
    pub fn peak_wave(&self) -> f64 {
        self.strings.iter().fold(0.0, |m, s| m.max(s.peak_wave()))
    }

    /// Energy of the travelling waves on all strings, J.
    pub fn energy_j(&self, sample_rate: f64) -> f64 {
        (0..self.strings.len())
            .map(|i| self.string_energy_j(i, sample_rate))
            .sum()
    }

    /// Energy of the travelling waves on waveguide `i`, J (0 if the note
    /// lacks it): string `i` across the board for `i` below [`Unison::len`],
    /// then the strings' motion along the board, if modelled (of their
    /// summed impedance). Each velocity-wave sample carries `Z·v²/fs`; the
    /// allpasses' stored energy counts too (the one-pole loss filter's single
    /// state is left out).
    pub fn string_energy_j(&self, i: usize, sample_rate: f64) -> f64 {
        self.strings.get(i).map_or(0.0, |s| {
            let sum = s.line_sum_of_squares() + self.filters.stored_energy(i);
            let impedance = if Some(i) == self.along {
                self.planes.along_impedance
            } else {
                s.impedance()
            };
            impedance * sum / sample_rate
        })
    }

    /// Brings the strings to rest and lifts the damper.
    pub fn reset(&mut self) {
        self.reset_waves();
        self.damper.gain = 1.0;
        self.damper.target = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resonators::{AllpassDelay, DispersionCascade, LossFilter};

    fn pair(bridge_impedance_kg_s: f64) -> UnisonParams {
        UnisonParams {
            string: StringParams {
                length_m: 0.62,
                mass_kg: 3.93e-3,
                fundamental_hz: 261.63,
                strike_position: 0.12,
                loss_b1: 0.2,
                loss_b2: 1e-4,
            },
            inharmonicity: 3.77e-4,
            strings: 2,
            detune_cents: 0.0,
            deviations: [StringDeviation::NONE; MAX_UNISON_STRINGS],
            second_plane: None,
            longitudinal: None,
            bridge_impedance_kg_s,
            damper_t60_s: 0.25,
            damper_travel_s: 0.006,
            bridge_tuning: 1.0,
        }
    }

    /// Two identical strings, only the first struck: the in-phase half of the
    /// motion drains into the bridge, the out-of-phase half cannot move it. After
    /// two seconds the bridge force has fallen by 60 dB while the strings keep half
    /// the energy a rigid bridge leaves them (its own losses act on both), shared
    /// equally between the strings.
    #[test]
    fn only_in_phase_motion_loads_the_bridge() {
        let fs = 48_000.0;
        let mut u = Unison::new(&pair(100.0), fs).unwrap();
        u.set_struck_strings(0b01);
        u.step(1.0);
        let struck_energy = u.energy_j(fs);
        let mut early_peak: f64 = 0.0;
        for n in 0..(2.0 * fs) as usize {
            let f = u.step(0.0);
            if n < 1000 {
                early_peak = early_peak.max(f.abs());
            }
        }
        let mut late_peak: f64 = 0.0;
        for _ in 0..1000 {
            late_peak = late_peak.max(u.step(0.0).abs());
        }
        assert!((u.string_energy_j(0, fs) / u.string_energy_j(1, fs) - 1.0).abs() < 0.05);
        assert!(late_peak < 1e-3 * early_peak, "{late_peak} vs {early_peak}");
        // A rigid bridge couples nothing: the unstruck string stays at rest, and
        // the struck one keeps what the string's own losses leave.
        let mut rigid = Unison::new(&pair(f64::INFINITY), fs).unwrap();
        rigid.set_struck_strings(0b01);
        rigid.step(1.0);
        assert!((rigid.energy_j(fs) / struck_energy - 1.0).abs() < 1e-9);
        for _ in 1..(2.0 * fs) as usize + 1000 {
            rigid.step(0.0);
        }
        assert_eq!(rigid.string_energy_j(1, fs), 0.0);
        let ratio = u.energy_j(fs) / rigid.energy_j(fs);
        assert!((ratio - 0.5).abs() < 0.05, "coupled keeps {ratio} of rigid");
    }

    /// A felt that bears 1.5 times as hard on one string as on the other
    /// (contact factors 1.2 and 0.8) gives them 0.6 and 0.4 of its force:
    /// energies in the ratio 2.25, and a port that takes
    /// `2·(0.6² + 0.4²) = 1.04` times the energy an even blow gives. The
    /// out-of-phase half of that motion, `((0.6 − 0.4)/2)² / ((0.6² + 0.4²)/2)`
    /// = 1/26 of the energy, does not move the bridge: after the in-phase
    /// motion has drained it stays, less the strings' own losses, where an
    /// even blow leaves nothing.
    #[test]
    fn an_uneven_blow_leaves_out_of_phase_motion() {
        let fs = 48_000.0;
        let uneven = |bridge: f64| {
            let mut params = pair(bridge);
            params.deviations[0].contact_factor = 1.2;
            params.deviations[1].contact_factor = 0.8;
            Unison::new(&params, fs).unwrap()
        };
        let mut u = uneven(100.0);
        let mut even = Unison::new(&pair(100.0), fs).unwrap();
        assert!((u.contact_resistance() / even.contact_resistance() - 1.04).abs() < 1e-12);
        u.step(1.0);
        even.step(1.0);
        let ratio = u.string_energy_j(0, fs) / u.string_energy_j(1, fs);
        assert!((ratio - 2.25).abs() < 1e-9, "{ratio}");
        assert!((u.energy_j(fs) / even.energy_j(fs) - 1.04).abs() < 1e-9);
        let mut rigid = uneven(f64::INFINITY);
        rigid.step(1.0);
        for _ in 0..(2.0 * fs) as usize {
            u.step(0.0);
            even.step(0.0);
            rigid.step(0.0);
        }
        let kept = u.energy_j(fs) / rigid.energy_j(fs);
        assert!((kept * 26.0 - 1.0).abs() < 0.1, "kept {kept}");
        assert!(even.energy_j(fs) < 1e-3 * u.energy_j(fs));
    }

    /// A key run in chunks (its waves a chunk ahead, then the strings through
    /// the chunk at once, as on the shared bridge) moves exactly as one run
    /// sample by sample, with the board moving beneath it and the damper
    /// travelling: the same pushes and bridge forces, bit for bit.
    #[test]
    fn chunks_equal_single_samples() {
        use crate::instrument::Preset;
        let fs = 48_000.0;
        let preset = Preset::default_grand();
        let board = |n: usize| 1e-4 * (n as f64 * 0.05).sin();
        for key in [21u8, 60, 100] {
            let params = preset.key_params(key).unwrap().unison(0.25, 0.006);
            let mut single = Unison::new(&params, fs).unwrap();
            single.set_damper(0.5);
            let mut chunked = single.clone();
            // The same blow on both, sample by sample.
            let mut n = 0;
            for _ in 0..40 {
                for u in [&mut single, &mut chunked] {
                    u.arrive_block(1);
                    u.depart(0, board(n), (n as f64 * 0.3).sin());
                }
                n += 1;
            }
            for &chunk in [16usize, 5, 1, 11, 16, 3].iter().cycle().take(300) {
                let m = chunk.min(chunked.lookahead_untouched());
                chunked.arrive_block(m);
                let pushes = chunked.board_pushes(m).to_vec();
                let velocities: Vec<f64> = (0..m).map(|j| board(n + j)).collect();
                let mut forces = vec![0.0; m];
                chunked.depart_block(&velocities, &mut forces);
                for j in 0..m {
                    single.arrive_block(1);
                    assert_eq!(single.board_pushes(1)[0], pushes[j], "key {key}, {n}+{j}");
                    assert_eq!(single.depart(0, board(n + j), 0.0), forces[j]);
                }
                n += m;
            }
            assert!(single.energy_j(fs) > 0.0);
        }
    }

    /// The unison as it ran before its filters went into lanes: each string's
    /// scalar filters in turn, the same bridge.
    struct ScalarReference {
        strings: Vec<(StiffString, DispersionCascade, AllpassDelay, LossFilter)>,
        two_z: Vec<f64>,
        launch: Vec<f64>,
        admittance: f64,
        share: f64,
        gain: f64,
    }

    impl ScalarReference {
        fn of(u: &Unison) -> Self {
            let strings = u.strings.iter().map(|s| {
                let f = s.loop_filters();
                (
                    s.clone(),
                    DispersionCascade::new(f.dispersion),
                    f.tuning,
                    f.loss,
                )
            });
            Self {
                strings: strings.collect(),
                two_z: u.two_z[..u.len()].to_vec(),
                launch: u.launch_per_newton[..u.len()].to_vec(),
                admittance: u.bridge_admittance,
                share: u.bridge_share,
                gain: u.damper.gain,
            }
        }

        fn step(&mut self, force: f64) -> f64 {
            let arriving: Vec<f64> = (self.strings.iter_mut())
                .map(|(s, d, t, l)| self.gain * l.process(t.process(d.process(s.bridge_input()))))
                .collect();
            let weighted: f64 = arriving.iter().zip(&self.two_z).map(|(w, z)| w * z).sum();
            let bridge_velocity = self.admittance * weighted * self.share;
            let mut bridge_force = 0.0;
            for (i, (s, ..)) in self.strings.iter_mut().enumerate() {
                let reflected = bridge_velocity - arriving[i];
                bridge_force += 0.5 * self.two_z[i] * (arriving[i] - reflected);
                s.advance(self.launch[i] * force, reflected);
            }
            bridge_force
        }
    }

    /// Keys across the piano, with one, two and three strings, coupled through
    /// the bridge in one plane: the unison (lanes, fused where the processor
    /// can) gives the scalar reference's bridge force within 1e-9 of its peak
    /// over one second.
    #[test]
    fn lanes_match_the_scalar_strings() {
        use crate::instrument::Preset;
        let fs = 48_000.0;
        let preset = Preset::default_grand();
        for (key, strings) in [(21u8, 1usize), (40, 2), (60, 3), (88, 3), (105, 3)] {
            let mut params = preset
                .key_params(key)
                .expect("a string instrument")
                .unison(0.25, 0.006);
            params.strings = strings;
            params.second_plane = None;
            params.longitudinal = None;
            let mut u = Unison::new(&params, fs).unwrap();
            let mut reference = ScalarReference::of(&u);
            let (mut peak, mut worst) = (0.0f64, 0.0f64);
            for n in 0..fs as usize {
                let force = if n < 40 { (n as f64 * 0.1).sin() } else { 0.0 };
                let (a, b) = (u.step(force), reference.step(force));
                peak = peak.max(b.abs());
                worst = worst.max((a - b).abs());
            }
            assert!(
                peak > 0.0 && worst <= 1e-9 * peak,
                "key {key}: {worst} of {peak}"
            );
        }
    }

    /// A single string with its second plane on a lossy bridge: after a
    /// strike across the board the energy never grows (the tilted bridge
    /// takes energy, never gives it: the waves' energy, counted to within
    /// what the loop filters hold in transit, stays under what the blow
    /// gave), reaches the plane along the board,
    /// which nothing else drives, and what lingers there rings on: the
    /// sound's late decay over its early one grows well beyond a single
    /// plane's.
    #[test]
    fn the_second_plane_takes_energy_from_the_bridge_and_rings_on() {
        use crate::analysis::two_stage_decay;
        let fs = 48_000.0;
        let single = |tilt_rad: f64| UnisonParams {
            strings: 1,
            bridge_impedance_kg_s: 1000.0,
            second_plane: Some(SecondPlane {
                tilt_rad,
                cents: 0.2,
            }),
            ..pair(1000.0)
        };
        let mut tilted = Unison::new(&single(0.3), fs).unwrap();
        assert_eq!(tilted.len(), 1);
        tilted.step(1.0);
        assert_eq!(
            tilted.string_energy_j(1, fs),
            0.0,
            "the hammer drives one plane"
        );
        let given = tilted.energy_j(fs);
        let mut along_peak: f64 = 0.0;
        let mut sound = Vec::new();
        for _ in 0..(6.0 * fs) as usize {
            sound.push(tilted.step(0.0) as f32);
            let now = tilted.energy_j(fs);
            assert!(now <= given * (1.0 + 1e-4), "{now} > {given}");
            along_peak = along_peak.max(tilted.string_energy_j(1, fs));
        }
        assert!(tilted.energy_j(fs) < 0.5 * given);
        assert!(along_peak > 1e-3 * tilted.string_energy_j(0, fs).max(along_peak));
        let ratio = |signal: &[f32]| {
            let decay = two_stage_decay(signal, fs);
            decay.late_t60_s.unwrap() / decay.early_t60_s.unwrap()
        };
        let mut flat = Unison::new(&single(0.0), fs).unwrap();
        let mut one_plane = vec![flat.step(1.0) as f32];
        one_plane.extend((1..sound.len()).map(|_| flat.step(0.0) as f32));
        let (two, one) = (ratio(&sound), ratio(&one_plane));
        assert!(
            two > 1.5 * one,
            "late/early {two} with the second plane, {one} without"
        );
    }

    /// A unison without a second plane and with strings as the note's is
    /// the same, sample for sample, whatever the tilt's absence is called:
    /// no plane and a plane of tilt 0 build the same strings.
    #[test]
    fn no_tilt_is_no_second_plane() {
        let fs = 48_000.0;
        let with = UnisonParams {
            second_plane: Some(SecondPlane {
                tilt_rad: 0.0,
                cents: 1.0,
            }),
            ..pair(500.0)
        };
        let mut a = Unison::new(&pair(500.0), fs).unwrap();
        let mut b = Unison::new(&with, fs).unwrap();
        for n in 0..4800 {
            let force = if n == 0 { 1.0 } else { 0.0 };
            assert_eq!(a.step(force).to_bits(), b.step(force).to_bits());
        }
    }

    /// Deviations reach the strings: a string tuned a cent sharp is tuned a
    /// cent sharp, and one stiffer and lossier gets another dispersion and
    /// loss filter than its neighbour; an absurd deviation is refused.
    #[test]
    fn each_string_is_built_with_its_own_deviation() {
        let fs = 48_000.0;
        let mut params = pair(f64::INFINITY);
        params.deviations[1] = StringDeviation {
            cents: 1.0,
            inharmonicity_factor: 1.1,
            loss_factor: 1.2,
            contact_factor: 1.0,
        };
        let u = Unison::new(&params, fs).unwrap();
        let (first, second) = (u.string(0).unwrap(), u.string(1).unwrap());
        let cents = 1200.0 * (second.first_partial_hz() / first.first_partial_hz()).log2();
        assert!((cents - 1.0).abs() < 0.05, "{cents}");
        assert_ne!(second.dispersion(), first.dispersion());
        assert_ne!(second.loss(), first.loss());
        let third = u.string(2);
        assert!(third.is_none());
        params.deviations[0].loss_factor = 3.0;
        assert!(Unison::new(&params, fs).is_err());
    }
}
