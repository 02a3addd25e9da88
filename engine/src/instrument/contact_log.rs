//! What a contact did while its parts touched, for the snapshot that goes
//! back to the mechanism when they let go: its largest force and its
//! impulse `∫F dt`. The voice of a struck body ([`super::ModalVoice`]: a
//! mallet's bar, a music box's tine) keeps one.

use super::Rebound;

/// The present contact's record, and the last one let go until taken.
///
/// Allocates nothing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactLog {
    /// Whether the parts touched at the last sample.
    touching: bool,
    /// The largest force of the present contact, N.
    peak_force_n: f64,
    /// The present contact's force integrated over time so far, N·s.
    impulse_n_s: f64,
    /// The sample period, s.
    period_s: f64,
    /// How the parts last let go, until taken.
    let_go: Option<Rebound>,
}

impl ContactLog {
    /// An empty log for a contact sampled at `sample_rate` (Hz).
    pub fn new(sample_rate: f64) -> Self {
        Self {
            touching: false,
            peak_force_n: 0.0,
            impulse_n_s: 0.0,
            period_s: 1.0 / sample_rate,
            let_go: None,
        }
    }

    /// Records one sample's contact `force` (N; none at or below 0);
    /// returns whether the parts touch.
    #[inline]
    pub fn record(&mut self, force: f64) -> bool {
        self.touching = force > 0.0;
        if self.touching {
            self.peak_force_n = self.peak_force_n.max(force);
            self.impulse_n_s += force * self.period_s;
        }
        self.touching
    }

    /// Whether the parts touched at the last sample recorded.
    pub fn is_touching(&self) -> bool {
        self.touching
    }

    /// The parts let go, parting at `speed_m_s`: the contact's record
    /// becomes the rebound to take, and a new record begins.
    pub fn let_go(&mut self, speed_m_s: f64) {
        self.let_go = Some(Rebound {
            speed_m_s,
            peak_force_n: self.peak_force_n,
            impulse_n_s: self.impulse_n_s,
        });
        self.peak_force_n = 0.0;
        self.impulse_n_s = 0.0;
        self.touching = false;
    }

    /// How the parts last let go, once: `None` until they let go again.
    pub fn take_let_go(&mut self) -> Option<Rebound> {
        self.let_go.take()
    }

    /// No contact, nothing recorded.
    pub fn reset(&mut self) {
        *self = Self {
            period_s: self.period_s,
            ..Self::new(1.0)
        };
    }

    /// Carries on `old`'s record (its rebound not yet taken stays there).
    pub fn continue_from(&mut self, old: &ContactLog) {
        let period_s = self.period_s;
        *self = Self {
            period_s,
            let_go: None,
            ..*old
        };
    }
}
