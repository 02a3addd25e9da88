//! One key of a struck-string instrument: the note's strings and the flight of
//! the hammer that strikes them, a contact tree borrowed from a [`HammerPool`].

use super::hammer_pool::{ContactId, HammerPool};
use super::key_params::KeyParams;
use super::voice_error::VoiceError;
use crate::instrument::Rebound;
use crate::instrument::contact::ContactShape;
use crate::instrument::strike::{ContactTrace, PulseCounter, StrikeReport};
use crate::resonators::{BRIDGE_BLOCK, Unison};

/// The hammer leaves the tree once it is this many start gaps away from the string
/// (the proximity condition of De Sanctis et al. 2003, Section 4, ceases to hold).
const PROXIMITY_GAPS: f64 = 2.0;

/// Longest a hammer stays grafted to its string after a strike, s: by then a real
/// action's backcheck has caught it.
const MAX_FLIGHT_S: f64 = 0.25;

/// How much of a strike's contact force the [`ContactTrace`] keeps, s.
const TRACE_S: f64 = 0.025;

/// The flight of a hammer between its release and its pruning.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Flight {
    /// The contact tree grafted onto the strings.
    contact: ContactId,
    /// Samples since release.
    age: u64,
    /// Whether the felt pushed on the string at the previous sample.
    was_touching: bool,
    /// Force pulses so far.
    pulses: PulseCounter,
    /// The felt's force integrated over the first contact so far, N·s.
    impulse_n_s: f64,
}

/// A key's strings, and its hammer while one is grafted onto them.
///
/// The hammer's tree is not the key's: a strike takes one from a
/// [`HammerPool`], fits it to this key and the struck strings
/// (a `ContactShape`, one per nonempty subset of strings, for una corda) and
/// returns it when the hammer has gone.
///
/// Allocates: the strings' delay lines, the contact shapes and the contact
/// trace, in [`StringKey::new`]; nothing after.
#[derive(Debug, Clone)]
pub struct StringKey {
    params: KeyParams,
    sample_rate: f64,
    start_gap_m: f64,
    string: Unison,
    /// The hammer fitted to each nonempty subset of strings (index = mask − 1).
    shapes: Vec<ContactShape>,
    /// Index into `shapes` chosen for the next strike.
    selected_shape: usize,
    /// Index into `shapes` of the current (or last) flight.
    shape_in_use: usize,
    flight: Option<Flight>,
    report: StrikeReport,
    trace: ContactTrace,
    /// Consecutive samples with the bridge force below the silence threshold.
    quiet_samples: u32,
    /// Bridge force below which the string counts as silent, N.
    silence_threshold_n: f64,
    sounding: bool,
    /// How many times the simulation went non-finite and was reset.
    non_finite_resets: u32,
    /// How the hammer last let go of the strings after a strike, until taken by
    /// [`StringKey::take_rebound`].
    rebound: Option<Rebound>,
    /// Whether the strings stand on a bridge that other keys move: then they
    /// may sleep only while their damper touches them.
    driven: bool,
    /// Whether a damper presses on these strings (the top keys of a grand
    /// have none).
    has_damper: bool,
}

impl StringKey {
    /// Builds the key at `sample_rate` (Hz), its hammer released `start_gap_m`
    /// (m) from the strings. `silence_threshold_n` is the bridge force (N) below
    /// which a string that has rung for a whole period goes to sleep.
    pub fn new(
        params: KeyParams,
        sample_rate: f64,
        start_gap_m: f64,
        damper_t60_s: f64,
        damper_travel_s: f64,
        silence_threshold_n: f64,
    ) -> Result<Self, VoiceError> {
        let mut string = Unison::new(&params.unison(damper_t60_s, damper_travel_s), sample_rate)
            .map_err(VoiceError::String)?;
        let masks = (1u8 << string.len()) - 1;
        let shapes = (1..=masks)
            .map(|mask| {
                string.set_struck_strings(mask);
                ContactShape::new(
                    params.hammer_mass_kg,
                    params.felt,
                    string.len(),
                    mask.count_ones() as usize,
                    string.contact_resistance(),
                    sample_rate,
                )
                .map_err(VoiceError::Hammer)
            })
            .collect::<Result<Vec<_>, _>>()?;
        string.set_struck_strings(masks);
        let all = shapes.len() - 1;
        Ok(Self {
            shapes,
            selected_shape: all,
            shape_in_use: all,
            params,
            sample_rate,
            start_gap_m,
            string,
            flight: None,
            report: StrikeReport::default(),
            trace: ContactTrace::new(TRACE_S, sample_rate),
            rebound: None,
            quiet_samples: 0,
            silence_threshold_n,
            sounding: false,
            non_finite_resets: 0,
            driven: false,
            has_damper: true,
        })
    }

    /// Stands the strings on a bridge that other keys move (`driven`): from
    /// then on they sleep only while their damper touches them, since a string
    /// with its damper up answers the bridge's motion.
    pub fn set_driven(&mut self, driven: bool) {
        self.driven = driven;
    }

    /// Takes the damper away (`false`): the strings are never damped, as the
    /// top keys of a grand, and damper commands are ignored.
    /// A key with a damper rests with it down, as a piano's keys do.
    pub fn set_has_damper(&mut self, has_damper: bool) {
        self.has_damper = has_damper;
        self.string.rest_damper(if has_damper { 1.0 } else { 0.0 });
    }

    /// Whether nothing damps the strings now (no damper, or it is lifted):
    /// driven strings then must run while the bridge moves.
    pub fn is_undamped(&self) -> bool {
        !self.string.damper_touches()
    }

    /// Starts running strings that are at rest, so they answer the bridge.
    /// Their waves are at rest already: nothing changes but that they run.
    pub fn wake(&mut self) {
        if !self.sounding {
            self.sounding = true;
            self.quiet_samples = 0;
        }
    }

    /// Whether the strings have been below the silence threshold for a whole
    /// period, with no hammer near.
    pub fn is_quiet(&self) -> bool {
        self.flight.is_none() && f64::from(self.quiet_samples) > self.string.period_samples() + 2.0
    }

    /// Puts quiet strings to rest (see [`StringKey::is_quiet`]), whatever
    /// their damper: the bridge they stand on has gone quiet too.
    pub fn sleep_if_quiet(&mut self) {
        if self.sounding && self.is_quiet() {
            self.string.reset_waves();
            self.sounding = false;
        }
    }

    /// The physical values of this key.
    pub fn params(&self) -> &KeyParams {
        &self.params
    }

    /// The note's strings.
    pub fn string(&self) -> &Unison {
        &self.string
    }

    /// Chooses which of the note's strings the next strikes hit: bit `i` for string
    /// `i` (una corda moves the hammers to strike fewer). Bits for strings the note
    /// lacks are ignored; a mask with none left selects all. Takes effect at the
    /// next strike; a hammer in flight keeps its strings.
    pub fn set_struck_strings(&mut self, mask: u8) {
        let all = (1u8 << self.string.len()) - 1;
        let mask = match mask & all {
            0 => all,
            m => m,
        };
        self.selected_shape = usize::from(mask) - 1;
    }

    /// The strings the current (or last) strike hit: bit `i` for string `i`.
    pub fn struck_strings(&self) -> u8 {
        self.shape_in_use as u8 + 1
    }

    /// Whether a hammer is grafted onto the strings.
    pub fn has_hammer(&self) -> bool {
        self.flight.is_some()
    }

    /// Hammer velocity (m/s, towards the string) while it is grafted to the
    /// string; `hammers` is the pool the key strikes with.
    pub fn hammer_velocity(&self, hammers: &HammerPool) -> Option<f64> {
        self.flight
            .map(|f| hammers.contact(f.contact).hammer_velocity())
    }

    /// What the last strike did.
    pub fn report(&self) -> &StrikeReport {
        &self.report
    }

    /// The contact force and felt compression of the last strike, from its first
    /// touch (up to 25 ms).
    pub fn contact_trace(&self) -> &ContactTrace {
        &self.trace
    }

    /// How many times this key's simulation went non-finite and was silenced.
    pub fn non_finite_resets(&self) -> u32 {
        self.non_finite_resets
    }

    /// Whether the string is sounding or a hammer is in flight.
    pub fn is_active(&self) -> bool {
        self.sounding || self.flight.is_some()
    }

    /// Lifts the damper and throws the hammer towards the string at `speed_m_s`
    /// from the start gap (see [`StringKey::launch`]). Returns false when no
    /// contact was free: the damper is up, the hammer not thrown.
    pub fn strike(&mut self, speed_m_s: f64, hammers: &mut HammerPool, owner: usize) -> bool {
        self.string.set_damper(0.0);
        self.launch(speed_m_s, hammers, owner)
    }

    /// Throws the hammer towards the string at `speed_m_s` from the start gap,
    /// the damper left as it is. A string still ringing is struck where it is.
    /// A hammer still grafted is thrown again; otherwise a free contact of
    /// `hammers` is taken for `owner` (this key's number in the pool), fitted to
    /// the selected strings and grafted. Returns false, changing nothing, when
    /// none is free.
    pub fn launch(&mut self, speed_m_s: f64, hammers: &mut HammerPool, owner: usize) -> bool {
        let contact = match self.flight {
            Some(flight) => flight.contact,
            None => match hammers.take(owner) {
                Some(contact) => {
                    self.shape_in_use = self.selected_shape;
                    self.string.set_struck_strings(self.shape_in_use as u8 + 1);
                    contact
                }
                None => return false,
            },
        };
        let speed = if speed_m_s.is_finite() {
            speed_m_s.max(1e-3)
        } else {
            1e-3
        };
        let closing_rate = speed - self.string.free_velocity();
        hammers.contact_mut(contact).launch(
            &self.shapes[self.shape_in_use],
            speed,
            self.start_gap_m,
            closing_rate,
        );
        self.flight = Some(Flight {
            contact,
            age: 0,
            was_touching: false,
            pulses: PulseCounter::default(),
            impulse_n_s: 0.0,
        });
        self.trace.clear();
        self.report = StrikeReport {
            strike_speed_m_s: speed,
            ..StrikeReport::default()
        };
        self.quiet_samples = 0;
        self.sounding = true;
        true
    }

    /// Lowers (`true`) or lifts (`false`) the damper.
    pub fn set_damper(&mut self, engaged: bool) {
        self.set_damper_amount(if engaged { 1.0 } else { 0.0 });
    }

    /// Sets how hard the damper presses, 0 (lifted) to 1 (down); in between it
    /// only partly damps (half-pedalling). Clamped to [0, 1]. Strings without
    /// a damper ignore it.
    pub fn set_damper_amount(&mut self, amount: f64) {
        if self.has_damper {
            self.string.set_damper(amount);
        }
    }

    /// Advances one sample on the key's own bridge (its local resistance, no
    /// board); returns the bridge force, N. `hammers` is the pool the key
    /// strikes with; a hammer that has gone returns to it. Strings that have
    /// fallen silent go to sleep at once.
    #[inline]
    pub fn tick(&mut self, hammers: &mut HammerPool) -> f64 {
        self.begin_block(1);
        let force = self.end_sample(hammers, 0, 0.0);
        self.sleep_if_silent();
        force
    }

    /// How many samples [`StringKey::begin_block`] may start at once: the
    /// waves reaching the bridge are known that far ahead (less far while a
    /// hammer touches the strings).
    pub fn lookahead(&self) -> usize {
        if self.flight.is_some() {
            self.string.lookahead()
        } else {
            self.string.lookahead_untouched()
        }
    }

    /// How many samples [`StringKey::begin_block`] may start at once while
    /// a hammer touches the strings (see [`StringKey::lookahead`]).
    pub fn lookahead_struck(&self) -> usize {
        self.string.lookahead()
    }

    /// Asks the processor to bring the strings' waves the next block reads
    /// and writes into its nearest cache: a hint, nothing changes.
    #[inline]
    pub fn prefetch(&self) {
        self.string.prefetch();
    }

    /// The first half of the next `samples` samples (at most
    /// [`StringKey::lookahead`]): the waves reaching the bridge, whose push
    /// [`StringKey::board_pushes`] and [`StringKey::transverse_pushes`] then
    /// give (see [`Unison::arrive_block`]). Each sample is finished by
    /// [`StringKey::end_sample`], in order, or all of them by
    /// [`StringKey::end_block`].
    #[inline]
    pub fn begin_block(&mut self, samples: usize) {
        self.string.arrive_block(samples);
    }

    /// How hard the strings push on the board at the first `samples`
    /// samples of the last [`StringKey::begin_block`] (see
    /// [`Unison::board_pushes`]), N.
    #[inline]
    pub fn board_pushes(&self, samples: usize) -> &[f64] {
        self.string.board_pushes(samples)
    }

    /// The transverse part of the last block's pushes, which the strings'
    /// own sound follows (see [`Unison::transverse_pushes`]), N.
    #[inline]
    pub fn transverse_pushes(&self, samples: usize) -> &[f64] {
        self.string.transverse_pushes(samples)
    }

    /// The second half of sample `offset` of the last block: the hammer
    /// presses on the strings with the force the felt gives, the board under
    /// the key's bridge moves at `board_velocity` (m/s), the bridge under the
    /// strings answers their push through its local resistance (see
    /// [`Unison::depart`]), and the strings and the hammer move on.
    /// Returns the strings' force on the bridge, N (0 if the key went
    /// non-finite and was reset).
    #[inline]
    pub fn end_sample(
        &mut self,
        hammers: &mut HammerPool,
        offset: usize,
        board_velocity: f64,
    ) -> f64 {
        let force = match self.flight {
            Some(flight) => hammers
                .contact_mut(flight.contact)
                .tick(self.string.free_velocity()),
            None => 0.0,
        };
        let bridge = self.string.depart(offset, board_velocity, force);
        let hammer_finite = self.flight.is_none_or(|flight| {
            hammers.contact(flight.contact).compression().is_finite() && force.is_finite()
        });
        if !(bridge.is_finite() && hammer_finite) {
            // Contain the fault: this key falls silent instead of poisoning the mix.
            self.reset(hammers);
            self.non_finite_resets = self.non_finite_resets.saturating_add(1);
            return 0.0;
        }
        if self.flight.is_some() {
            self.track_contact(hammers);
        }
        if bridge.abs() < self.silence_threshold_n {
            self.quiet_samples = self.quiet_samples.saturating_add(1);
        } else {
            self.quiet_samples = 0;
        }
        bridge
    }

    /// Every sample of the last block at once, as [`StringKey::end_sample`]
    /// finishes them one by one, for strings no hammer touches (see
    /// [`StringKey::has_hammer`]): the board under the key's bridge moves at
    /// `board_velocities` (m/s, one per sample of the block).
    #[inline]
    pub fn end_block(&mut self, board_velocities: &[f64]) {
        debug_assert!(self.flight.is_none());
        let mut forces = [0.0; BRIDGE_BLOCK];
        let forces = &mut forces[..board_velocities.len()];
        self.string.depart_block(board_velocities, forces);
        // A non-finite force makes the sum so (or one too large to matter).
        if !forces.iter().sum::<f64>().is_finite() {
            // Contain the fault: this key falls silent instead of poisoning the mix.
            self.silence();
            self.non_finite_resets = self.non_finite_resets.saturating_add(1);
            return;
        }
        let threshold = self.silence_threshold_n;
        self.quiet_samples = match forces.iter().rposition(|f| f.abs() >= threshold) {
            Some(loud) => (forces.len() - 1 - loud) as u32,
            None => self.quiet_samples.saturating_add(forces.len() as u32),
        };
    }

    /// Puts the string to sleep (exactly at rest) once every wave on it has passed
    /// the bridge below the silence threshold, with no hammer near, if nothing
    /// can drive it again: its damper touches it, or its bridge carries no
    /// other key's motion. Deciding this at fixed samples (every sample on a
    /// key's own bridge, every [`BRIDGE_BLOCK`] samples on a shared one)
    /// keeps the output independent of how audio is divided into blocks.
    pub fn sleep_if_silent(&mut self) {
        if (!self.driven || self.string.damper_touches()) && self.sounding && self.is_quiet() {
            self.string.reset_waves();
            self.sounding = false;
        }
    }

    /// Updates the strike report and the contact trace, and prunes the hammer's
    /// tree when it has gone. The tree is pruned only while the felt carries no
    /// force, so pruning never changes the force on the string (no click): once
    /// the hammer has touched and is two start gaps away, or once the action's
    /// backcheck would have caught it.
    fn track_contact(&mut self, hammers: &mut HammerPool) {
        let Some(flight) = self.flight.as_mut() else {
            return;
        };
        flight.age += 1;
        let t = flight.age as f64 / self.sample_rate;
        let contact = hammers.contact(flight.contact);
        let (force, compression) = (contact.force(), contact.compression());
        let report = &mut self.report;
        let touching = force > 0.0;
        if touching && !flight.was_touching {
            report.contacts += 1;
            if report.first_touch_s.is_none() {
                report.first_touch_s = Some(t);
            }
        }
        if !touching && flight.was_touching {
            report.last_release_s = Some(t);
            if report.contacts == 1 {
                report.contact_duration_s = Some(t - report.first_touch_s.unwrap_or(t));
                report.rebound_velocity_m_s = Some(contact.hammer_velocity());
                self.rebound = Some(Rebound {
                    speed_m_s: -contact.hammer_velocity(),
                    peak_force_n: report.peak_force_n,
                    impulse_n_s: flight.impulse_n_s,
                });
            }
        }
        if report.first_touch_s.is_some() {
            flight.pulses.push(force);
            report.force_pulses = flight.pulses.count();
            self.trace.push(force, compression);
        }
        report.peak_force_n = report.peak_force_n.max(force);
        if report.contacts == 1 {
            flight.impulse_n_s += force / self.sample_rate;
        }
        flight.was_touching = touching;

        let far = compression < -PROXIMITY_GAPS * self.start_gap_m;
        let caught = t > MAX_FLIGHT_S;
        if !touching && ((report.contacts > 0 && far) || caught) {
            let contact = flight.contact;
            self.prune();
            hammers.release(contact);
        }
    }

    /// How the hammer let go of the strings after its first contact, once, at
    /// the sample it did: the snapshot the action needs to catch the hammer.
    pub fn take_rebound(&mut self) -> Option<Rebound> {
        self.rebound.take()
    }

    /// Energy of the waves on the key's strings, J.
    pub fn string_energy_j(&self) -> f64 {
        self.string.energy_j(self.sample_rate)
    }

    /// Forgets the hammer of the flight, whose contact has gone back to the pool
    /// (a [`HammerPool`] steal, which happens only while the felt carries no
    /// force: nothing the string feels changes).
    pub(crate) fn hammer_stolen(&mut self) {
        self.prune();
    }

    /// Ends the flight and records when.
    fn prune(&mut self) {
        if let Some(flight) = self.flight.take() {
            self.report.hammer_gone = true;
            self.report.pruned_after_s = Some(flight.age as f64 / self.sample_rate);
        }
    }

    /// Whether `other` has as many strings (and so the same hammer subsets),
    /// so that its sounding state can carry over into this key (a live edit,
    /// see [`crate::rt::Voices::continue_from`]).
    pub fn same_shape(&self, other: &StringKey) -> bool {
        self.string.len() == other.string.len()
    }

    /// Carries on what `old` (this key of another instrument of the same
    /// shape) was doing, with this key's values: the waves on its strings, the
    /// damper, the struck strings, the hammer in flight (in `hammers`, whose
    /// bookkeeping has already taken over `old_hammers`'), the strike report,
    /// the contact trace and whether it sounds.
    ///
    /// Allocates nothing.
    pub(crate) fn continue_from(
        &mut self,
        old: &StringKey,
        hammers: &mut HammerPool,
        old_hammers: &HammerPool,
    ) {
        if old.sounding {
            self.string.continue_from(&old.string);
        } else {
            // Strings that do not sound are at rest: nothing to copy.
            if self.sounding {
                self.string.reset();
            }
            self.string.continue_controls_from(&old.string);
        }
        self.selected_shape = old.selected_shape.min(self.shapes.len() - 1);
        self.shape_in_use = old.shape_in_use.min(self.shapes.len() - 1);
        self.flight = old.flight;
        if let Some(flight) = self.flight {
            hammers.continue_contact(flight.contact, old_hammers, &self.shapes[self.shape_in_use]);
        }
        self.report = old.report;
        self.trace.continue_from(&old.trace);
        self.quiet_samples = old.quiet_samples;
        self.sounding = old.sounding;
        self.non_finite_resets = old.non_finite_resets;
        self.rebound = old.rebound;
    }

    /// Brings everything to rest: string still, damper down (if it has one),
    /// no hammer (a grafted one returns to `hammers`).
    pub fn reset(&mut self, hammers: &mut HammerPool) {
        if let Some(flight) = self.flight.take() {
            hammers.contact_mut(flight.contact).reset();
            hammers.release(flight.contact);
        }
        self.silence();
    }

    /// The strings at rest, the damper down where there is one, the last
    /// strike forgotten (the hammer is the caller's).
    fn silence(&mut self) {
        self.string.reset();
        if self.has_damper {
            self.string.rest_damper(1.0);
        }
        self.report = StrikeReport::default();
        self.trace.clear();
        self.quiet_samples = 0;
        self.sounding = false;
    }
}
