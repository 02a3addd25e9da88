//! One key of a struck-string instrument on its own: a [`StringKey`] with a
//! hammer of its own (a pool of one contact).

use super::hammer_pool::HammerPool;
use super::key_params::KeyParams;
use super::string_key::StringKey;
use super::voice_error::VoiceError;
use crate::instrument::strike::{ContactTrace, StrikeReport};
use crate::resonators::Unison;

/// A key's strings and a hammer of its own that strikes them: a [`StringKey`]
/// whose pool holds one contact tree, which it can never lack.
///
/// Allocates: in [`StruckString::new`] only.
#[derive(Debug, Clone)]
pub struct StruckString {
    key: StringKey,
    hammer: HammerPool,
}

impl StruckString {
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
        Ok(Self {
            key: StringKey::new(
                params,
                sample_rate,
                start_gap_m,
                damper_t60_s,
                damper_travel_s,
                silence_threshold_n,
            )?,
            hammer: HammerPool::new(1, 1, sample_rate).map_err(VoiceError::Hammer)?,
        })
    }

    /// The key without its hammer.
    pub fn key(&self) -> &StringKey {
        &self.key
    }

    /// The physical values of this key.
    pub fn params(&self) -> &KeyParams {
        self.key.params()
    }

    /// The note's strings.
    pub fn string(&self) -> &Unison {
        self.key.string()
    }

    /// See [`StringKey::set_struck_strings`].
    pub fn set_struck_strings(&mut self, mask: u8) {
        self.key.set_struck_strings(mask);
    }

    /// The strings the current (or last) strike hit: bit `i` for string `i`.
    pub fn struck_strings(&self) -> u8 {
        self.key.struck_strings()
    }

    /// Hammer velocity (m/s, towards the string) while it is grafted to the string.
    pub fn hammer_velocity(&self) -> Option<f64> {
        self.key.hammer_velocity(&self.hammer)
    }

    /// What the last strike did.
    pub fn report(&self) -> &StrikeReport {
        self.key.report()
    }

    /// The contact force and felt compression of the last strike, from its first
    /// touch (up to 25 ms).
    pub fn contact_trace(&self) -> &ContactTrace {
        self.key.contact_trace()
    }

    /// How many times this key's simulation went non-finite and was silenced.
    pub fn non_finite_resets(&self) -> u32 {
        self.key.non_finite_resets()
    }

    /// Whether the string is sounding or a hammer is in flight.
    pub fn is_active(&self) -> bool {
        self.key.is_active()
    }

    /// Releases the hammer towards the string at `speed_m_s` from the start gap and
    /// lifts the damper. A string still ringing is struck where it is.
    pub fn strike(&mut self, speed_m_s: f64) {
        // The one contact is this key's or free: the strike always gets it.
        self.key.strike(speed_m_s, &mut self.hammer, 0);
    }

    /// Lowers (`true`) or lifts (`false`) the damper.
    pub fn set_damper(&mut self, engaged: bool) {
        self.key.set_damper(engaged);
    }

    /// See [`StringKey::set_damper_amount`].
    pub fn set_damper_amount(&mut self, amount: f64) {
        self.key.set_damper_amount(amount);
    }

    /// Advances one sample; returns the bridge force, N.
    #[inline]
    pub fn tick(&mut self) -> f64 {
        self.key.tick(&mut self.hammer)
    }

    /// Brings everything to rest: string still, damper up, no hammer.
    pub fn reset(&mut self) {
        self.key.reset(&mut self.hammer);
    }
}
