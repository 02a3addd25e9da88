//! An instrument whose unisons are tuned alike: for measurements that need
//! a key's pitch to a fraction of a cent, which a cluster of strings a tuner
//! left a fraction of a cent apart does not have.

use super::definition::Preset;
use super::strings::StringSet;

impl Preset {
    /// Tunes every unison of every set of strings alike and makes its
    /// strings alike ([`StringSet::tune_alike`]).
    pub fn tune_unisons_alike(&mut self) {
        for strings in self.objects.of_mut::<StringSet>() {
            strings.tune_alike();
        }
    }
}
